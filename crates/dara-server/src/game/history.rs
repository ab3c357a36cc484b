//! The game's journal as the connections are told it: each event numbered, rendered once for
//! every connection by the table's view (`dara_table::view`), with the position it led to.

use dara::Colour;

use super::actor::Game;
use crate::protocol::{versioned, Wire};
use dara_table::view::{Event, View};

impl Game {
    /// The table as the pages see it.
    fn view(&self) -> View<'_, crate::seat::SeatHash> {
        View { table: &self.table, date: &self.date }
    }

    /// Tells every connection event `v`, just recorded (once it is stored).
    pub(super) fn tell_event(&mut self, v: u64) {
        let text = versioned(&self.view().last(v), v);
        self.tell(text);
    }

    /// What a connection that last saw version `since` needs: the events after it, or a
    /// snapshot when it saw none (or claims one from the future).
    pub(super) fn catch_up(&self, you: Option<Colour>, since: Option<u64>) -> Vec<Wire> {
        match self.view().missed(since) {
            Some(missed) => missed.iter().map(|(v, event)| versioned(event, *v)).collect(),
            None => vec![self.snapshot(you)],
        }
    }

    /// The whole game as `you` (a player's colour, or a watcher) see it now.
    fn snapshot(&self, you: Option<Colour>) -> Wire {
        let snapshot = self.view().snapshot(you, self.now());
        versioned(&Event::Snapshot(Box::new(snapshot)), self.table.journal().len() as u64)
    }
}
