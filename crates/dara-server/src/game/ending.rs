//! How a game ends (the rules, a resignation, a flag, a claim, an agreement) and the record it
//! leaves.

use dara::record::{GameResult, Record};
use dara::Colour;
use tokio::time::Instant;

use super::actor::{Game, Seat};
use super::event::{EndReason, GameEvent};
use super::played::Played;
use crate::protocol::Refusal;

/// How a game ended.
#[derive(Debug, Clone)]
pub(super) struct Ending {
    pub(super) result: GameResult,
    pub(super) reason: EndReason,
    /// When: a finished game is forgotten a while after.
    pub(super) at: Instant,
}

impl Game {
    /// Ends the game (once): the clock stops, offers lapse, the computer stops thinking,
    /// everyone is told, the lobby forgets the table.
    pub(super) fn finish(&mut self, result: GameResult, reason: EndReason, now: Instant) {
        if self.ending.is_some() {
            return;
        }
        if let Some(clock) = self.clock.as_mut() {
            clock.stop(now);
        }
        self.ending = Some(Ending { result, reason, at: now });
        self.draw_offer = None;
        // The computer's answers would come to nothing: free its threads for other games.
        self.thinking = None;
        self.judging = None;
        let left = self.clock.as_ref().map(|c| c.left(now));
        self.publish(GameEvent::Ended { result, reason, left });
        if let Some(shared) = self.shared.upgrade() {
            shared.lobby.close(&self.id);
            shared.set_finished(&self.id, Some(now));
        }
    }

    pub(super) fn resign(&mut self, seat: Option<Colour>) -> Result<(), Refusal> {
        let colour = self.player(seat)?;
        self.ongoing()?;
        let reason = EndReason::Resigned { loser: colour };
        self.finish(GameResult::from_winner(!colour), reason, Instant::now());
        Ok(())
    }

    /// Ends the game when the running clock's time is up.
    pub(super) fn check_flag(&mut self, now: Instant) {
        if self.ending.is_some() {
            return;
        }
        let Some((colour, at)) = self.clock.as_ref().and_then(|c| c.flag_at()) else { return };
        if now >= at {
            let reason = EndReason::OutOfTime { loser: colour };
            self.finish(GameResult::from_winner(!colour), reason, now);
        }
    }

    /// The record of `played` with this game's tags.
    pub(super) fn record(&self, played: &Played, result: GameResult) -> Record {
        let mut record = Record::new(played.start().clone());
        for m in played.moves() {
            // Every move was legal when played, from this same start.
            let _ = record.push(*m);
        }
        let name = |c: Colour| match &self.seats[c] {
            Seat::Computer(level) => format!("Computer level {}", level.get()),
            _ => "Anonymous".to_owned(),
        };
        record.set_tag("Event", "Casual game");
        record.set_tag("Date", &self.date);
        record.set_tag("White", &name(Colour::White));
        record.set_tag("Black", &name(Colour::Black));
        record.set_tag("Rules", &self.settings.rules.to_string());
        record.result = result;
        record
    }
}
