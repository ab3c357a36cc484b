//! Nothing is told before it is kept: a request's events and its answer wait, the game's lock
//! held, until the store has committed them, so a crash at any instant loses nothing anyone was
//! told. With the memory-only store nothing waits.

use super::actor::Game;
use crate::protocol::{Answer, ClientMessage, Refusal, Wire};
use crate::store::{StoredSeats, Write};

impl Game {
    /// Tells every connection `wire`, once what came before it is stored.
    pub(super) fn tell(&mut self, wire: Wire) {
        self.outbox.push(wire);
    }

    /// While the store cannot be reached, the refusal of a request that would change the game
    /// (a turn is checked in `turn`, after its own checks). Refused, it can be sent again once
    /// the store answers; played, it would stop the game when its write failed.
    pub(super) fn cannot_keep(&self, msg: &ClientMessage) -> Option<Answer> {
        let changes = !matches!(
            msg,
            ClientMessage::Move { .. } | ClientMessage::Ping { .. } | ClientMessage::Hello { .. }
        );
        (changes && !self.store.reachable()).then(|| {
            self.count_unkept();
            Answer::Error(Refusal::StoreUnreachable.into())
        })
    }

    /// Counts a request refused because the store could not be reached, for `/metrics`.
    pub(super) fn count_unkept(&self) {
        if let Some(host) = self.host.upgrade() {
            host.metrics().refused_unkept.inc();
        }
    }

    /// Stores what changed, then tells everyone (the request's answer follows). False if the
    /// store failed: then nobody is told anything.
    pub(super) async fn settle(&mut self) -> bool {
        let writes = self.unsaved();
        if !writes.is_empty() {
            if let Err(e) = self.store.send(writes).wait().await {
                tracing::error!(game = %self.id, "the game could not be stored, so it stops: {e}");
                return false;
            }
        }
        for wire in self.outbox.drain(..) {
            let _ = self.watchers.send(wire);
        }
        true
    }

    /// What the store lacks: the seats if they changed, and the events it has not had.
    fn unsaved(&mut self) -> Vec<Write> {
        if !self.store.is_durable() {
            self.stored = self.table.journal().len();
            return Vec::new();
        }
        let mut writes = Vec::new();
        if std::mem::take(&mut self.seats_changed) {
            let seats = StoredSeats::new(self.table.seats());
            writes.push(Write::Seats { game: self.id.clone(), seats });
        }
        let journal = self.table.journal();
        for (v, event) in (1..).zip(journal).skip(self.stored) {
            writes.push(Write::Append { game: self.id.clone(), v, event: event.clone() });
        }
        self.stored = journal.len();
        writes
    }
}
