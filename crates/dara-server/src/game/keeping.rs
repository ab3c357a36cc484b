//! Nothing is told before it is kept: what a letter changed waits in the outbox until the store
//! has committed it, and only then goes to every connection, so a crash at any instant loses
//! nothing anyone was told. With the memory-only store nothing waits. A commit the store cannot
//! make now (a full disk) is a pause, not an end: the game goes back to what was kept (see
//! `Game::settle`), and what was asked is refused, to be asked again.

use dara::ByColour;
use dara_table::{GameEvent, Moment, ReplayError, Table};

use super::sockets::Sockets;
use crate::protocol::Wire;
use crate::seat::{GameId, Seat, SeatHash};
use crate::store::error::StoreError;
use crate::store::kept::Store;
use crate::store::record::StoredSeats;
use crate::store::write::Write;

/// Where a game is kept, how much of it is there, and what waits to be told once the rest is.
#[derive(Debug)]
pub(super) struct Keeping {
    /// Where the game is kept.
    pub(super) store: Store,
    /// How many events of the journal the store has.
    pub(super) stored: usize,
    /// Whether the seats changed since they were stored.
    pub(super) seats_changed: bool,
    /// What everyone is to be told once the events behind it are stored.
    outbox: Vec<Wire>,
    /// The sockets open to the game, which are told what is kept: events and presence, each
    /// serialised once for all.
    pub(super) sockets: Sockets,
}

impl Keeping {
    /// Nothing kept yet, in `store`.
    pub(super) fn new(store: Store) -> Keeping {
        Keeping {
            store,
            stored: 0,
            seats_changed: false,
            outbox: Vec::new(),
            sockets: Sockets::default(),
        }
    }

    /// Tells every connection `wire`, once what came before it is stored.
    pub(super) fn tell(&mut self, wire: Wire) {
        self.outbox.push(wire);
    }

    /// Stores what `table` changed since the last commit, then answers socket `answer`'s
    /// request (if one was carried out) and tells everyone, the answer first. If the store
    /// fails, nobody is told anything, nor answered, and the error is given.
    pub(super) async fn commit(
        &mut self,
        id: &GameId,
        table: &Table<SeatHash>,
        answer: Option<(u32, Wire)>,
    ) -> Result<(), StoreError> {
        let (writes, stored) = self.unsaved(id, table);
        if !writes.is_empty() {
            // Boxed: only a durable store waits here, and inline the wait would be part of the
            // state every live game's owner keeps, idle or not.
            Box::pin(self.store.send(writes).wait()).await?;
        }
        self.stored = stored;
        self.seats_changed = false;
        let answered = answer.map(|(number, wire)| {
            self.sockets.answer(number, wire);
            number
        });
        self.sockets.tell(&self.outbox, answered);
        self.outbox.clear();
        Ok(())
    }

    /// What the store lacks (the seats if they changed, and the events it has not had), and
    /// how long the journal kept there will be once they are in.
    fn unsaved(&self, id: &GameId, table: &Table<SeatHash>) -> (Vec<Write>, usize) {
        let journal = table.journal();
        if !self.store.is_durable() {
            return (Vec::new(), journal.len());
        }
        let mut writes = Vec::new();
        if self.seats_changed {
            let seats = StoredSeats::new(table.seats());
            writes.push(Write::Seats { game: id.clone(), seats });
        }
        for (v, event) in (1..).zip(journal).skip(self.stored) {
            writes.push(Write::Append { game: id.clone(), v, event: event.clone() });
        }
        (writes, journal.len())
    }

    /// `table` as the store kept it, rebuilt from the kept journal as after a restart at
    /// `now` (its clocks held until the side to move is back), with any seat taken since then
    /// open again.
    ///
    /// # Errors
    /// The kept journal does not replay.
    pub(super) fn kept_table(
        &self,
        table: &Table<SeatHash>,
        now: Moment,
    ) -> Result<Table<SeatHash>, ReplayError> {
        let journal = table.journal();
        let mut seats: ByColour<Seat> = table.seats().clone();
        for event in &journal[self.stored..] {
            if let GameEvent::Seated { colour, .. } = event {
                seats[*colour] = Seat::Open;
            }
        }
        let kept = journal[..self.stored].to_vec();
        Table::restore(table.settings().clone(), seats, table.patience(), kept, now)
    }

    /// Forgets what was not kept: nobody is to be told of it.
    pub(super) fn went_back(&mut self) {
        self.outbox.clear();
        self.seats_changed = false;
    }
}
