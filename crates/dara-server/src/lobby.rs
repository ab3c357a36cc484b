//! The open tables: games waiting for anyone to sit down, listed live for every visitor of the
//! home page, and the "play anyone" pairing that seats two people who asked for the same
//! ruleset and clock at one table.
//!
//! The list is only an offer: the seat itself is given by the game (`GameHandle::sit`), which
//! alone knows whether it is still free. So a listing a moment old does no harm.

use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock};

use dara::Ruleset;
use tokio::sync::watch;

use crate::cluster::lobby::SharedTables;
use crate::game::clock::TimeControl;
use crate::protocol::{Answer, Table, Wire};
use crate::seat::GameId;

/// The list of open tables, and a channel that always holds it as a ready-made message.
#[derive(Debug)]
pub struct Lobby {
    // A std mutex: held only to edit the map and render it, never across an await.
    tables: Mutex<BTreeMap<GameId, Table>>,
    listing: watch::Sender<Wire>,
    /// In a cluster, the list every node shares, which this one mirrors.
    shared: OnceLock<SharedTables>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby {
            tables: Mutex::default(),
            listing: watch::Sender::new(render(&BTreeMap::new())),
            shared: OnceLock::new(),
        }
    }
}

fn render(tables: &BTreeMap<GameId, Table>) -> Wire {
    Answer::Tables(tables.values().cloned().collect()).wire()
}

impl Lobby {
    /// Lists a table.
    pub fn open(&self, id: GameId, table: Table) {
        let mut tables = self.tables.lock().expect("lobby lock");
        if tables.get(&id).is_some_and(|t| t.game == table.game) {
            return;
        }
        if let Some(shared) = self.shared.get() {
            shared.open(&table);
        }
        tables.insert(id, table);
        self.listing.send_replace(render(&tables));
    }

    /// Takes a table off the list (someone sat down, or the game went away).
    pub fn close(&self, id: &GameId) {
        let mut tables = self.tables.lock().expect("lobby lock");
        if tables.remove(id).is_some() {
            if let Some(shared) = self.shared.get() {
                shared.close(id);
            }
            self.listing.send_replace(render(&tables));
        }
    }

    /// Takes a listed table with these rules and clock off the list, for a "play anyone"
    /// seeker to sit at: removing it at once keeps the next seeker from trying it too (in a
    /// cluster, on every node: of two nodes that pick it at once, one gets it).
    pub async fn pair(&self, rules: Ruleset, clock: Option<TimeControl>) -> Option<GameId> {
        loop {
            let id = {
                let mut tables = self.tables.lock().expect("lobby lock");
                let id = tables
                    .iter()
                    .find(|(_, t)| t.rules == rules && t.clock == clock)
                    .map(|(id, _)| id.clone())?;
                tables.remove(&id);
                self.listing.send_replace(render(&tables));
                id
            };
            match self.shared.get() {
                None => return Some(id),
                Some(shared) if shared.take(&id).await => return Some(id),
                // Another node's seeker took it first: the next one.
                Some(_) => continue,
            }
        }
    }

    /// Mirrors the cluster's shared list from now on.
    pub fn share(&self, shared: SharedTables) {
        let _ = self.shared.set(shared);
    }

    /// The cluster's shared list, if this lobby mirrors one.
    pub fn shared(&self) -> Option<&SharedTables> {
        self.shared.get()
    }

    /// Replaces the list with the cluster's, as just read.
    pub fn replace(&self, tables: BTreeMap<GameId, Table>) {
        let mut mine = self.tables.lock().expect("lobby lock");
        *mine = tables;
        self.listing.send_replace(render(&mine));
    }

    /// The current list, as a message.
    pub fn listing(&self) -> watch::Receiver<Wire> {
        self.listing.subscribe()
    }

    /// The current list.
    pub fn tables(&self) -> Vec<Table> {
        self.tables.lock().expect("lobby lock").values().cloned().collect()
    }
}
