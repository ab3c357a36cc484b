//! The game's journal and what the wire is told of it: each [`GameEvent`] is numbered, kept,
//! and rendered once for every connection, with the position it led to. A connection that
//! comes back gets exactly the events it missed, rendered again from the journal by replaying
//! it through the rules, or a snapshot of the whole game.

use dara::record::{GameResult, Record};
use dara::Colour;
use dara_table::{running_after, side_has_moved, EndReason, GameEvent, Played};

use super::actor::Game;
use super::clock::ClockView;
use crate::protocol::{EndView, Event, SeatView, Seats, Snapshot, Wire};
use crate::seat::Seat;
use crate::view::PositionView;

impl Game {
    /// Tells every connection event `v`, just recorded (once it is stored). It is rendered
    /// with the game as it is now: of the events one input records, only the last can change
    /// the position.
    pub(super) fn tell_event(&mut self, v: u64) {
        let event = &self.table.journal()[(v - 1) as usize];
        let text = self.render(event, self.table.played()).wire(v);
        self.tell(text);
    }

    /// What a connection that last saw version `since` needs: the events after it, or a
    /// snapshot when it saw none (or claims one from the future).
    pub(super) fn catch_up(&self, you: Option<Colour>, since: Option<u64>) -> Vec<Wire> {
        let journal = self.table.journal();
        let current = journal.len() as u64;
        let Some(since) = since.filter(|v| *v <= current) else {
            return vec![self.snapshot(you)];
        };
        let mut played = Played::new(self.table.played().start().clone());
        let mut missed = Vec::new();
        for (v, event) in (1..).zip(journal) {
            replay(&mut played, event);
            if v > since {
                missed.push(self.render(event, &played).wire(v));
            }
        }
        missed
    }

    /// The wire form of `event`, `played` being the game just after it.
    fn render(&self, event: &GameEvent, played: &Played) -> Event {
        let pos = played.pos();
        let clock = |left, running| {
            self.table
                .settings()
                .clock
                .zip(left)
                .map(|(control, left)| ClockView::new(control, left, running))
        };
        // After a seat is filled or a turn played, the side to move's clock runs, or its time
        // for a first move starts in full (the table's rule, told as the table keeps it).
        let turn_clock = |left| {
            let awaiting = !pos.is_over() && !side_has_moved(played);
            let within = awaiting.then(|| self.table.patience().first_move_within);
            clock(left, running_after(played)).map(|c| c.awaiting_first_move(within))
        };
        match *event {
            GameEvent::Seated { colour, left } => Event::Seated { colour, clock: turn_clock(left) },
            GameEvent::Moved { m, left, .. } => Event::Move {
                m,
                ply: played.moves().len(),
                pos: PositionView::of(pos, played.legal()),
                clock: turn_clock(left),
            },
            GameEvent::TookBack { plies } => Event::Takeback {
                plies,
                ply: played.moves().len(),
                pos: PositionView::of(pos, played.legal()),
            },
            GameEvent::DrawOffered { by } => Event::DrawOffer { by },
            GameEvent::DrawDeclined { by } => Event::DrawDecline { by },
            GameEvent::DrawWithdrawn { by } => Event::DrawWithdraw { by },
            GameEvent::RematchOffered { by } => Event::RematchOffer { by },
            GameEvent::RematchStarted { ref game } => Event::Rematch { game: game.clone() },
            GameEvent::Ended { result, reason, left } => {
                Event::End(Box::new(self.end_view(played, result, reason, clock(left, None))))
            }
        }
    }

    /// How `played` ended, with its record.
    fn end_view(
        &self,
        played: &Played,
        result: GameResult,
        reason: EndReason,
        clock: Option<ClockView>,
    ) -> EndView {
        EndView {
            result,
            winner: result.winner(),
            why: reason,
            reason: reason.to_string(),
            record: self.record(played, result).to_string(),
            clock,
        }
    }

    /// The whole game as `you` (a player's colour, or a watcher) see it now.
    fn snapshot(&self, you: Option<Colour>) -> Wire {
        let now = self.now();
        let table = &self.table;
        let seat = |c: Colour| match &table.seats()[c] {
            Seat::Open => SeatView::Open,
            Seat::Human(_) => SeatView::Human,
            Seat::Computer(level) => SeatView::Computer { level: level.get() },
        };
        let played = table.played();
        let end = table.ending().map(|e| self.end_view(played, e.result, e.reason, None));
        let snapshot = Snapshot {
            rules: table.settings().rules,
            opponent: table.settings().opponent,
            you,
            seats: Seats { white: seat(Colour::White), black: seat(Colour::Black) },
            moves: played.moves().iter().map(ToString::to_string).collect(),
            positions: self.positions(),
            pos: PositionView::of(played.pos(), played.legal()),
            clock: table.clock().map(|c| {
                let within = table.first_move_by().map(|by| by.saturating_since(now));
                ClockView::new(c.control(), c.left(now), c.running()).awaiting_first_move(within)
            }),
            end,
            draw_offer: table.offers().draw(),
            rematch_offer: table.offers().rematch(),
            rematch: table.offers().rematch_game().cloned(),
        };
        Event::Snapshot(Box::new(snapshot)).wire(table.journal().len() as u64)
    }

    /// The position text at the start and after every turn, replayed from the start.
    fn positions(&self) -> Vec<String> {
        let played = self.table.played();
        let mut pos = played.start().clone();
        let mut texts = Vec::with_capacity(played.moves().len() + 1);
        texts.push(pos.to_string());
        for m in played.moves() {
            // Every turn kept was legal when played, from this start.
            pos.play_unchecked(*m);
            texts.push(pos.to_string());
        }
        texts
    }
}

impl Game {
    /// The record of `played` with this game's tags.
    fn record(&self, played: &Played, result: GameResult) -> Record {
        let mut record = Record::new(played.start().clone());
        for m in played.moves() {
            // Every move was legal when played, from this same start.
            let _ = record.push(*m);
        }
        let name = |c: Colour| match &self.table.seats()[c] {
            Seat::Computer(level) => format!("Computer level {}", level.get()),
            _ => "Anonymous".to_owned(),
        };
        record.set_tag("Event", "Casual game");
        record.set_tag("Date", &self.date);
        record.set_tag("White", &name(Colour::White));
        record.set_tag("Black", &name(Colour::Black));
        record.set_tag("Rules", &self.table.settings().rules.to_string());
        record.result = result;
        record
    }
}

/// Applies one journaled event to what has been played.
fn replay(played: &mut Played, event: &GameEvent) {
    match *event {
        GameEvent::Moved { m, .. } => {
            // The journal holds only turns that were legal when played, from the same start.
            if let Err(e) = played.play(m) {
                tracing::error!("a journaled turn {m} no longer replays: {e}");
            }
        }
        GameEvent::TookBack { plies } => played.take_back(plies),
        _ => {}
    }
}
