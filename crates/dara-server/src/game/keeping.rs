//! Nothing is told before it is kept: a request's events and its answer wait, the game's lock
//! held, until the store has committed them, so a crash at any instant loses nothing anyone was
//! told. With the memory-only store nothing waits. A commit the store cannot make now (a full
//! disk) is a pause, not an end: the game goes back to what was kept, and what was asked is
//! refused, to be asked again.

use dara::ByColour;
use dara_table::{GameEvent, Patience, Table};

use super::actor::{patience, Game};
use super::handle::Settled;
use crate::protocol::{Answer, Refusal, Wire};
use crate::seat::Seat;
use crate::store::{StoredSeats, Write};

impl Game {
    /// Tells every connection `wire`, once what came before it is stored.
    pub(super) fn tell(&mut self, wire: Wire) {
        self.outbox.push(wire);
    }

    /// Counts a request refused because the store could not be reached, for `/metrics`.
    pub(super) fn count_unkept(&self) {
        if let Some(host) = self.host.upgrade() {
            host.metrics().refused_unkept.inc();
        }
    }

    /// The answer to a request that could not be kept (a turn's `id`, if it was a turn).
    pub(super) fn unkept(&self, turn: Option<u64>) -> Answer {
        self.count_unkept();
        let why = Refusal::StoreUnreachable.into();
        match turn {
            Some(id) => Answer::Rejected { id, why },
            None => Answer::Error(why),
        }
    }

    /// Stores what changed, then tells everyone (the request's answer follows). If the store
    /// fails, nobody is told anything: a pause (see [`Game::roll_back`]), or the game's end
    /// here.
    pub(super) async fn settle(&mut self) -> Settled {
        let (writes, stored) = self.unsaved();
        if !writes.is_empty() {
            if let Err(e) = self.store.send(writes).wait().await {
                if e.is_a_pause() && self.roll_back() {
                    tracing::warn!(game = %self.id, "saving is paused, the game goes back: {e}");
                    return Settled::Paused;
                }
                tracing::error!(game = %self.id, "the game could not be stored, so it stops: {e}");
                return Settled::Lost;
            }
        }
        self.stored = stored;
        self.seats_changed = false;
        for wire in self.outbox.drain(..) {
            let _ = self.watchers.send(wire);
        }
        Settled::Kept
    }

    /// What the store lacks (the seats if they changed, and the events it has not had), and
    /// how long the journal kept there will be once they are in.
    fn unsaved(&self) -> (Vec<Write>, usize) {
        let journal = self.table.journal();
        if !self.store.is_durable() {
            return (Vec::new(), journal.len());
        }
        let mut writes = Vec::new();
        if self.seats_changed {
            let seats = StoredSeats::new(self.table.seats());
            writes.push(Write::Seats { game: self.id.clone(), seats });
        }
        for (v, event) in (1..).zip(journal).skip(self.stored) {
            writes.push(Write::Append { game: self.id.clone(), v, event: event.clone() });
        }
        (writes, journal.len())
    }

    /// Takes the game back to what the store kept, after a commit that failed: its journal to
    /// the last event kept, a seat taken since then open again, nothing told of what was not
    /// kept, the computer asked again if it is to move. The table is rebuilt from the kept
    /// journal as after a restart, so its clocks are held until the side to move is back or a
    /// minute has passed: nobody's time runs down while saving is paused. False if the kept
    /// journal does not replay (it was played here, through the same rules: only a bug would
    /// do it), and the game is as it was.
    pub(super) fn roll_back(&mut self) -> bool {
        let now = self.now();
        let journal = self.table.journal();
        let mut seats: ByColour<Seat> = self.table.seats().clone();
        for event in &journal[self.stored..] {
            if let GameEvent::Seated { colour, .. } = event {
                seats[*colour] = Seat::Open;
            }
        }
        let kept = journal[..self.stored].to_vec();
        let patience = self.server().map_or_else(Patience::default, |s| patience(s.config()));
        let settings = self.table.settings().clone();
        match Table::restore(settings, seats, patience, kept, now) {
            Ok(table) => self.table = table,
            Err(e) => {
                tracing::error!(game = %self.id, "its own kept journal does not replay: {e}");
                return false;
            }
        }
        self.thinking = None;
        self.outbox.clear();
        self.seats_changed = false;
        self.begin();
        true
    }
}
