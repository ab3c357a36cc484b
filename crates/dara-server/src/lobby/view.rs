//! What the lobby's socket sends: the open tables, each with when it was opened, the pools'
//! counts, how many people are here and how many games are being played. Sent whole, at most
//! once a second (`Lobby::count`): nobody needs a count sooner, and ten thousand sockets on a
//! node cannot each be sent every arrival.

use dara_table::wire::OpenTable;
use serde::Serialize;

use super::pools::PoolCount;

/// The lobby's socket's one message.
#[derive(Debug, Serialize)]
#[serde(tag = "t", content = "d", rename_all = "kebab-case")]
pub enum LobbyMessage<'a> {
    /// The lobby as it stands.
    Lobby(LobbyView<'a>),
}

/// The lobby as it stands.
#[derive(Debug, Serialize)]
pub struct LobbyView<'a> {
    /// The server's clock when this was made, in ms since 1970: a table has waited `now -
    /// since`, whatever the reader's own clock says.
    pub now: u64,
    /// The open tables, the longest waiting first.
    pub tables: Vec<TableView<'a>>,
    /// The pools, with how many wait and play in each.
    pub pools: &'a [PoolCount],
    /// People here now: the sockets open to the site's pages (in a cluster, on every node).
    pub here: u32,
    /// Games being played between people who met in the lobby (those `/watch` lists).
    pub playing: u32,
}

/// One open table, and since when it waits.
#[derive(Debug, Serialize)]
pub struct TableView<'a> {
    /// The table.
    #[serde(flatten)]
    pub table: &'a OpenTable,
    /// When it was first listed, in ms since 1970 on the server's clock.
    pub since: u64,
}
