//! The clocks at the table: a side's clock starts with its first move (before it, the side has
//! [`Patience::first_move_within`](super::Patience::first_move_within) to make one, or the
//! game is aborted), and after a restart
//! the clocks are held until the side to move is back (or has been waited for long enough).

use dara::record::GameResult;
use dara::Colour;

use super::Table;
use crate::event::EndReason;
use crate::moment::Moment;
use crate::played::Played;

/// Whether the side to move in `played` has made its first move. Placement alternates from
/// pale's first turn, so both sides have moved once two turns are played.
pub fn side_has_moved(played: &Played) -> bool {
    played.moves().len() >= 2
}

/// Whose clock runs once `played` stands in a game under way (both seats held, clocks not
/// held): the side to move's once it has made its first move; nobody's in a finished game.
pub fn running_after(played: &Played) -> Option<Colour> {
    let pos = played.pos();
    (!pos.is_over() && side_has_moved(played)).then(|| pos.side())
}

impl<K> Table<K> {
    /// The side to move's turn begins (both seats held, the clocks not held): its clock runs,
    /// or, before its first move, the time it has for that move.
    pub(super) fn start_if_ready(&mut self, now: Moment) {
        let over = self.ending.is_some() || self.played.pos().is_over();
        if over || !self.both_seated() || self.held_until.is_some() {
            return;
        }
        let Some(clock) = self.clock.as_mut() else { return };
        if clock.running().is_some() || self.first_move_by.is_some() {
            return;
        }
        let side = self.played.pos().side();
        if side_has_moved(&self.played) {
            clock.start(side, now);
        } else if self.seats[side].is_human() {
            // The computer always makes its first move; a person who never does would hold the
            // opponent at the table with no clock running.
            self.first_move_by = Some(now + self.patience.first_move_within);
        }
    }

    /// A turn was played: the waiting for a first move is over, and the next side's turn
    /// begins.
    pub(super) fn next_turn(&mut self, now: Moment) {
        self.first_move_by = None;
        if let Some(clock) = self.clock.as_mut() {
            if let Some(side) = running_after(&self.played) {
                clock.start(side, now);
            } else {
                clock.stop(now);
            }
        }
        self.start_if_ready(now);
    }

    /// Aborts the game, without a result, if the side to move let its first move's time pass.
    pub(super) fn check_first_move(&mut self, now: Moment) {
        if self.first_move_by.is_some_and(|by| now >= by) {
            let idle = self.played.pos().side();
            self.finish(now, GameResult::Unfinished, EndReason::Aborted { idle });
        }
    }

    /// The clocks run again: the side to move is back, or has been waited for long enough.
    pub(super) fn release_clocks(&mut self, now: Moment) {
        if self.held_until.take().is_some() {
            self.start_if_ready(now);
        }
    }

    pub(super) fn release_clocks_if_due(&mut self, now: Moment) {
        if self.held_until.is_some_and(|until| now >= until) {
            self.release_clocks(now);
        }
    }
}
