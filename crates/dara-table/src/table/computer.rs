//! The computer at the table: when it is asked to move, its answer, and a search called off.

use dara::Move;

use super::Table;
use crate::computer::{Think, Ticket};
use crate::effect::Effect;
use crate::moment::Moment;

impl<K> Table<K> {
    /// The computer's move, if it answers the search the table waits for (an answer to an
    /// older search, before a takeback, is stale even if the game has come back to the same
    /// length).
    pub(super) fn computer_moved(&mut self, now: Moment, ticket: Ticket, m: Move) {
        if !self.searches.answered(ticket) || self.ending.is_some() {
            return;
        }
        let side = self.played.pos().side();
        // The engine only ever picks from the legal moves; were it not to, the game waits
        // rather than breaks (and the computer is asked again).
        let _ = self.play(now, side, m, None);
    }

    /// Asks the computer to move if it is its turn and it is not thinking already.
    pub(super) fn consider_computer(&mut self) {
        if self.ending.is_some() || self.searches.thinking().is_some() || !self.both_seated() {
            return;
        }
        let pos = self.played.pos();
        let Some(level) = self.seats[pos.side()].computer() else { return };
        let think = Think {
            ticket: self.searches.ask(),
            level,
            pos: pos.clone(),
            history: self.played.hashes().to_vec(),
        };
        self.effects.push(Effect::Think(think));
    }

    pub(super) fn call_off(&mut self) {
        if let Some(ticket) = self.searches.call_off() {
            self.effects.push(Effect::CallOff(ticket));
        }
    }
}
