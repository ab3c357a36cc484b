//! The open tables: games waiting for anyone to sit down, listed live for every visitor of the
//! home page, and the "play anyone" pairing that seats two people who asked for the same
//! ruleset and clock at one table.
//!
//! The list is only an offer: the seat itself is given by the game (`GameHandle::sit`), which
//! alone knows whether it is still free. So a listing a moment old does no harm.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use serde::Serialize;
use serde_json::json;
use tokio::sync::watch;

use crate::game::clock::TimeControl;
use crate::protocol;
use crate::seat::GameId;

/// One open table as the lobby shows it.
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// The game to open to sit down.
    pub game: String,
    /// The ruleset in notation.
    pub rules: String,
    /// The clock, if any.
    pub clock: Option<TimeControl>,
    /// The colour the sitter will play (`white` or `black`).
    pub seat: &'static str,
}

/// The list of open tables, and a channel that always holds it as a ready-made message.
#[derive(Debug)]
pub struct Lobby {
    // A std mutex: held only to edit the map and render it, never across an await.
    tables: Mutex<BTreeMap<GameId, Table>>,
    listing: watch::Sender<Arc<str>>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby { tables: Mutex::default(), listing: watch::Sender::new(render(&BTreeMap::new())) }
    }
}

fn render(tables: &BTreeMap<GameId, Table>) -> Arc<str> {
    let list: Vec<&Table> = tables.values().collect();
    protocol::message("tables", json!(list))
}

impl Lobby {
    /// Lists a table.
    pub fn open(&self, id: GameId, table: Table) {
        let mut tables = self.tables.lock().expect("lobby lock");
        if tables.get(&id).is_some_and(|t| t.game == table.game) {
            return;
        }
        tables.insert(id, table);
        self.listing.send_replace(render(&tables));
    }

    /// Takes a table off the list (someone sat down, or the game went away).
    pub fn close(&self, id: &GameId) {
        let mut tables = self.tables.lock().expect("lobby lock");
        if tables.remove(id).is_some() {
            self.listing.send_replace(render(&tables));
        }
    }

    /// Takes a listed table with these rules and clock off the list, for a "play anyone"
    /// seeker to sit at: removing it at once keeps the next seeker from trying it too.
    pub fn pair(&self, rules: &str, clock: Option<TimeControl>) -> Option<GameId> {
        let mut tables = self.tables.lock().expect("lobby lock");
        let id = tables
            .iter()
            .find(|(_, t)| t.rules == rules && t.clock == clock)
            .map(|(id, _)| id.clone())?;
        tables.remove(&id);
        self.listing.send_replace(render(&tables));
        Some(id)
    }

    /// The current list, as a message.
    pub fn listing(&self) -> watch::Receiver<Arc<str>> {
        self.listing.subscribe()
    }

    /// The current list.
    pub fn tables(&self) -> Vec<Table> {
        self.tables.lock().expect("lobby lock").values().cloned().collect()
    }
}
