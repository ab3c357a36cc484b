//! The journal as the pages are told it: each [`GameEvent`] rendered with the position it led
//! to, the events a page missed (replayed through the rules from the start), or the whole game
//! as a [`Snapshot`].

use dara::record::{GameResult, Record};
use dara::Colour;

use super::clock::ClockView;
use super::event::{EndView, Event, SeatView, Seats, Snapshot};
use super::position::PositionView;
use crate::table::{running_after, side_has_moved};
use crate::{EndReason, GameEvent, Moment, Played, Seat, Table};

/// A table as the pages see it. `date` is the day the game began, as its record writes it
/// (`2026.12.04`): the shell reads the calendar, the table does not.
#[derive(Debug, Clone, Copy)]
pub struct View<'a, K> {
    /// The game.
    pub table: &'a Table<K>,
    /// The day it began, for its record.
    pub date: &'a str,
}

impl<K> View<'_, K> {
    /// Event `v` of the journal (numbered from 1), just recorded, as everyone is told it: of
    /// the events one input records, only the last can change the position, so it is rendered
    /// with the game as it is now.
    pub fn last(&self, v: u64) -> Event {
        let event = &self.table.journal()[(v - 1) as usize];
        self.event(event, self.table.played())
    }

    /// What a page that last saw version `since` needs: the events after it, each with its
    /// version; `None` when it saw none, or claims one from the future (it needs a snapshot).
    pub fn missed(&self, since: Option<u64>) -> Option<Vec<(u64, Event)>> {
        let journal = self.table.journal();
        let since = since.filter(|v| *v <= journal.len() as u64)?;
        let mut played = Played::new(self.table.played().start().clone());
        let mut missed = Vec::new();
        for (v, event) in (1..).zip(journal) {
            // The journal holds only turns that were legal when played, from the same start:
            // the table replayed it when it was restored.
            let _ = replay(&mut played, event);
            if v > since {
                missed.push((v, self.event(event, &played)));
            }
        }
        Some(missed)
    }

    /// The page's form of `event`, `played` being the game just after it.
    pub fn event(&self, event: &GameEvent, played: &Played) -> Event {
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
            GameEvent::TookBack { plies, left } => Event::Takeback {
                plies,
                ply: played.moves().len(),
                pos: PositionView::of(pos, played.legal()),
                clock: turn_clock(left),
            },
            GameEvent::TakebackOffered { by } => Event::TakebackOffer { by },
            GameEvent::TakebackDeclined { by } => Event::TakebackDecline { by },
            GameEvent::TakebackWithdrawn { by } => Event::TakebackWithdraw { by },
            GameEvent::DrawOffered { by } => Event::DrawOffer { by },
            GameEvent::DrawDeclined { by } => Event::DrawDecline { by },
            GameEvent::DrawWithdrawn { by } => Event::DrawWithdraw { by },
            GameEvent::RematchOffered { by } => Event::RematchOffer { by },
            GameEvent::RematchStarted { ref game } => Event::Rematch { game: game.clone() },
            GameEvent::Berserked { colour, left } => {
                Event::Berserk { colour, clock: clock(left, None) }
            }
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

    /// The whole game at `now` as `you` (a player's colour, or a watcher) see it.
    pub fn snapshot(&self, you: Option<Colour>, now: Moment) -> Snapshot {
        let table = self.table;
        let seat = |c: Colour| match &table.seats()[c] {
            Seat::Open => SeatView::Open,
            Seat::Human(_) => SeatView::Human,
            Seat::Computer(level) => SeatView::Computer { level: level.get() },
        };
        let played = table.played();
        let end = table.ending().map(|e| self.end_view(played, e.result, e.reason, None));
        Snapshot {
            rules: table.settings().rules,
            opponent: table.settings().opponent,
            you,
            seats: Seats { white: seat(Colour::White), black: seat(Colour::Black) },
            moves: played.moves().iter().map(ToString::to_string).collect(),
            positions: positions(played),
            pos: PositionView::of(played.pos(), played.legal()),
            clock: table.clock().map(|c| {
                let within = table.first_move_by().map(|by| by.saturating_since(now));
                ClockView::new(c.control(), c.left(now), c.running()).awaiting_first_move(within)
            }),
            end,
            draw_offer: table.offers().draw(),
            takeback_offer: table.offers().takeback(),
            rematch_offer: table.offers().rematch(),
            rematch: table.offers().rematch_game().cloned(),
            berserk: Colour::ALL.into_iter().filter(|c| table.berserked()[*c]).collect(),
        }
    }

    /// The record of `played` with this game's tags.
    pub fn record(&self, played: &Played, result: GameResult) -> Record {
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
        record.set_tag("Date", self.date);
        record.set_tag("White", &name(Colour::White));
        record.set_tag("Black", &name(Colour::Black));
        record.set_tag("Rules", &self.table.settings().rules.to_string());
        record.result = result;
        record
    }
}

/// The position text at the start and after every turn, replayed from the start.
fn positions(played: &Played) -> Vec<String> {
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

/// Applies one journaled event to what has been played.
///
/// # Errors
/// A turn that is not legal where it is replayed (only a journal that was changed holds one).
pub fn replay(played: &mut Played, event: &GameEvent) -> Result<(), dara::IllegalMoveError> {
    match *event {
        GameEvent::Moved { m, .. } => played.play(m),
        GameEvent::TookBack { plies, .. } => {
            played.take_back(plies);
            Ok(())
        }
        _ => Ok(()),
    }
}
