//! Turns: a player's, checked against the legal turns of the position, and the computer's,
//! asked of the engine whenever the side to move is its.

use dara::record::GameResult;
use dara::{Colour, DrawReason, Move, Status, WinReason};
use tokio::time::Instant;

use super::actor::{Game, Seat, Thinking};
use super::computer::Request;
use super::event::{written_move, EndReason, GameEvent};
use crate::protocol::{Answer, Refusal};

impl Game {
    pub(super) fn turn(&mut self, seat: Option<Colour>, id: u64, text: &str) -> Answer {
        let rejected = |refusal: Refusal| Answer::Rejected { id, why: refusal.into() };
        let Some(colour) = seat else {
            return rejected(Refusal::Watching);
        };
        // The same turn sent again (say, after a reconnect) is answered as before, not replayed;
        // another turn under the same id is a client's mistake, said as such.
        if let Some((last, played)) = self.last_turn[colour] {
            if last == id {
                let same = text.parse().ok().and_then(|t| written_move(&t)) == Some(played);
                return if same {
                    Answer::Accepted { id }
                } else {
                    rejected(Refusal::TurnIdReused { id })
                };
            }
        }
        if self.ending.is_some() {
            return rejected(Refusal::GameOver);
        }
        if !self.both_seated() {
            return rejected(Refusal::OpponentNotSeated);
        }
        if self.played.pos().side() != colour {
            return rejected(Refusal::NotYourTurn);
        }
        let m = match self.played.resolve(text) {
            Ok(m) => m,
            Err(refusal) => return rejected(refusal),
        };
        // A turn that could not be kept is refused, not played: the page may send it again.
        if !self.store.reachable() {
            self.count_unkept();
            return rejected(Refusal::StoreUnreachable);
        }
        match self.play(colour, m, Some(id)) {
            Ok(()) => {
                self.last_turn[colour] = Some((id, m));
                Answer::Accepted { id }
            }
            Err(refusal) => rejected(refusal),
        }
    }

    /// Plays a turn for `colour` (`turn` being its id from the player's page): clock, event,
    /// end of game, then the computer's turn. A turn the position does not allow changes
    /// nothing, not even the clock.
    pub(super) fn play(
        &mut self,
        colour: Colour,
        m: Move,
        turn: Option<u64>,
    ) -> Result<(), Refusal> {
        if !self.played.legal().contains(&m) {
            // Checked before the clock is punched, so a refused turn costs nothing.
            return Err(self.played.play(m).expect_err("a turn outside the legal list"));
        }
        let now = Instant::now();
        if let Some(clock) = self.clock.as_mut() {
            if !clock.punch(now, self.lag[colour]) {
                self.finish(
                    GameResult::from_winner(!colour),
                    EndReason::OutOfTime { loser: colour },
                    now,
                );
                return Err(Refusal::OutOfTime);
            }
        }
        self.played.play(m)?;
        // A turn answers a draw offer by declining it (and the computer need not answer it).
        self.draw_offer = None;
        self.judging = None;
        let pos = self.played.pos();
        if let Some(clock) = self.clock.as_mut() {
            if pos.is_over() {
                clock.stop(now);
            } else {
                clock.start(pos.side(), now);
            }
        }
        let left = self.clock.as_ref().map(|c| c.left(now));
        self.publish(GameEvent::Moved { m, left, turn });
        if let Some(shared) = self.shared.upgrade() {
            shared.metrics.turns.inc();
        }
        let ending = match self.played.pos().status() {
            Status::Ongoing => None,
            Status::Won { winner, reason: WinReason::FewStones } => {
                Some((GameResult::from_winner(winner), EndReason::FewStones { loser: !winner }))
            }
            Status::Won { winner, reason: WinReason::NoMoves } => {
                Some((GameResult::from_winner(winner), EndReason::NoMoves { loser: !winner }))
            }
            Status::Drawn(DrawReason::QuietPlies) => {
                let limit = self.settings.rules.quiet().unwrap_or(0);
                Some((GameResult::Draw, EndReason::QuietPlies { limit }))
            }
        };
        match ending {
            Some((result, reason)) => self.finish(result, reason, now),
            None => self.ask_computer(),
        }
        Ok(())
    }

    /// What the engine is asked about the position on the board, at `level`, with its
    /// ticket: each request takes a new one, so that an answer to an older one is known.
    pub(super) fn engine_request(
        &mut self,
        level: dara_engine::level::Level,
        tell: Option<tokio::sync::broadcast::Sender<crate::protocol::Wire>>,
    ) -> (u64, Request) {
        self.tickets += 1;
        let request = Request {
            pos: self.played.pos().clone(),
            history: self.played.hashes().to_vec(),
            level,
            client: self.asked_from,
            tell,
        };
        (self.tickets, request)
    }

    /// Asks the engine for its turn, when the side to move is the computer's.
    pub(super) fn ask_computer(&mut self) {
        if self.ending.is_some() || self.thinking.is_some() {
            return;
        }
        let Seat::Computer(level) = self.seats[self.played.pos().side()] else { return };
        let Some(shared) = self.shared.upgrade() else { return };
        let tell = Some(self.watchers.clone());
        let (ticket, request) = self.engine_request(level, tell);
        let (search, answer) = shared.computer.think(request);
        self.thinking = Some(Thinking { ticket, search });
        let handle = self.handle.clone();
        tokio::spawn(async move {
            if let Some(m) = answer.await {
                handle.computer_moved(ticket, m).await;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Weak;
    use std::time::Duration;

    use dara::{ByColour, Cell};
    use tokio::sync::mpsc;

    use super::*;
    use crate::game::clock::TimeControl;
    use crate::game::settings::{GameSettings, Opponent};
    use crate::game::GameHandle;
    use crate::seat::{GameId, SeatKey};

    /// A game between two people on a 1+0 clock, its actor not running: the test is the loop.
    pub(crate) fn two_people(rules: &str) -> Game {
        let id = GameId::random();
        let handle = GameHandle::new(id.clone(), mpsc::channel(1).0);
        let settings = GameSettings {
            rules: rules.parse().unwrap(),
            opponent: Opponent::Friend,
            creator: Colour::White,
            clock: Some(TimeControl { initial: 60, increment: 0 }),
        };
        let seats = ByColour {
            white: Seat::Human(SeatKey::random().hash("white")),
            black: Seat::Human(SeatKey::random().hash("black")),
        };
        let mut game = Game::new(id, Weak::new(), &handle, settings, seats, None);
        game.start_if_ready(Instant::now());
        game
    }

    #[tokio::test(start_paused = true)]
    async fn a_refused_turn_changes_neither_clock_nor_hash() {
        let mut game = two_people("arcade");
        tokio::time::advance(Duration::from_secs(5)).await;
        let before = |g: &Game| {
            (g.clock.as_ref().unwrap().left(Instant::now()), g.clock.as_ref().unwrap().running())
        };
        let clock = before(&game);
        let hashes = game.played.hashes().to_vec();
        // A step while both sides are still placing: well-formed, and not allowed.
        let c3 = Cell::from_name("c3").unwrap();
        let c4 = Cell::from_name("c4").unwrap();
        let step = Move::Step { from: c3, to: c4, captures: dara::Bitboard::EMPTY };
        assert!(matches!(game.play(Colour::White, step, None), Err(Refusal::IllegalMove { .. })));
        assert_eq!(before(&game), clock);
        assert_eq!(clock.1, Some(Colour::White));
        assert_eq!(game.played.hashes(), hashes);
        assert!(game.journal.is_empty());
        // The same side's legal turn is then charged the whole five seconds.
        game.play(Colour::White, Move::Put(c3), None).unwrap();
        let left = game.clock.as_ref().unwrap().left(Instant::now());
        assert_eq!(left.white, 55_000);
    }

    /// The legal turns are listed once per turn: when the position is reached. That list checks
    /// the next turn and is what the page is sent.
    #[tokio::test]
    async fn one_generation_per_accepted_turn() {
        let mut game = two_people("arcade");
        let turns = ["c3", "d3", "a1", "f5", "b4", "e2", "a3", "d5"];
        for (id, text) in (1..).zip(turns) {
            let side = game.played.pos().side();
            let before = dara::generations();
            let answer = game.turn(Some(side), id, text);
            assert!(matches!(answer, Answer::Accepted { .. }), "{text}: {answer:?}");
            assert_eq!(dara::generations() - before, 1, "generations for {text}");
        }
        // A refused turn lists nothing either.
        let before = dara::generations();
        let side = game.played.pos().side();
        assert!(matches!(game.turn(Some(!side), 99, "b1"), Answer::Rejected { .. }));
        assert!(matches!(game.turn(Some(side), 100, "c3"), Answer::Rejected { .. }));
        assert_eq!(dara::generations() - before, 0);
    }
}
