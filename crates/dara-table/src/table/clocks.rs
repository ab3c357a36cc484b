//! The clocks at the table: started once both seats are held, held after a restart until the
//! side to move is back (or has been waited for long enough).

use super::Table;
use crate::moment::Moment;

impl<K> Table<K> {
    /// Starts the clock of the side to move once both seats are filled (and, after a restart,
    /// once the clocks are no longer held).
    pub(super) fn start_if_ready(&mut self, now: Moment) {
        if self.ending.is_none() && self.both_seated() && self.held_until.is_none() {
            let side = self.played.pos().side();
            if let Some(clock) = self.clock.as_mut() {
                if clock.running().is_none() {
                    clock.start(side, now);
                }
            }
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
