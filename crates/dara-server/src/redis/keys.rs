//! Where the cluster keeps things in Redis: the name of every key and channel, built here and
//! nowhere else. A release reads the keys its predecessor wrote (SCALING.md), so a name here
//! changes only with [`REDIS_FORMAT`](super::REDIS_FORMAT).
//!
//! Every key of a game is tagged with its id (`dara:{id}:…`), so that on a sharded Redis they
//! would share a shard; a node's liveness key is its own (`dara:node:NAME:alive`).

use std::net::IpAddr;

use dara::Ruleset;

use super::node::NodeName;
use crate::seat::{GameId, SeatKey};

/// The format of what the cluster keeps (see [`REDIS_FORMAT`](super::REDIS_FORMAT)).
pub(super) const FORMAT_KEY: &str = "dara:format";

/// Where the cluster keeps its seat key.
pub(super) const SEAT_KEY: &str = "dara:seat-key";

/// Every game's `meta` key, for `SCAN` to count the games Redis holds.
pub(super) const GAMES_PATTERN: &str = "dara:{*}:meta";

/// The hash of the lobby's open tables (game id → table).
pub(super) const TABLES: &str = "dara:lobby";

/// The channel on which a node says the lobby's tables changed.
pub(super) const TABLES_CHANGED: &str = "dara:lobby:changed";

/// The hold on pool `rules` while a "play anyone" seeker is paired in it (its holder's token,
/// see `lobby::pairing`): the rules in their canonical notation, so that `arcade` and
/// `arcade,quiet=80` are one pool.
pub(super) fn pairing_key(rules: &Ruleset) -> String {
    format!("dara:pairing:{rules}")
}

/// The hash of the games anyone may watch (game id → game as listed, with its lapse).
pub(super) const WATCH: &str = "dara:watch";

/// The channel on which a node says the games to watch changed.
pub(super) const WATCH_CHANGED: &str = "dara:watch:changed";

/// The hash of how many sockets each node holds (node → `count:until_ms`).
pub(super) const HERE: &str = "dara:here";

/// A game's keys.
pub(super) struct Keys {
    /// The node that runs it, with the lease's epoch: `node:epoch`.
    pub(super) lease: String,
    /// Bumped at every takeover.
    pub(super) epoch: String,
    /// A hash: its record and seats.
    pub(super) meta: String,
    /// A list: its journal, event `v` at index `v - 1`.
    pub(super) events: String,
}

impl Keys {
    pub(super) fn of(game: &GameId) -> Keys {
        Keys {
            lease: format!("dara:{{{game}}}:lease"),
            epoch: format!("dara:{{{game}}}:epoch"),
            meta: meta_key(game),
            events: format!("dara:{{{game}}}:events"),
        }
    }
}

/// The hash of game `game`'s record and seats: whether it is there says whether the game is.
pub(super) fn meta_key(game: &GameId) -> String {
    format!("dara:{{{game}}}:meta")
}

/// Where the seats taken at game `game`'s open table are noted, each as the key of its
/// address's count (see [`counts`](super::counts)).
pub(super) fn seated_key(game: &GameId) -> String {
    format!("dara:{{{game}}}:seated")
}

/// Node `node`'s word that it is alive, which holds the leases of all its games.
pub(super) fn alive_key(node: &NodeName) -> String {
    format!("dara:node:{node}:alive")
}

/// Node `node`'s inbox: the channel on which other nodes relay sockets to it.
pub(super) fn inbox(node: &NodeName) -> String {
    format!("dara:node:{node}")
}

/// What an address's count counts.
#[derive(Debug, Clone, Copy)]
pub(super) enum Counted {
    /// Games it asked for.
    Games,
    /// Seats it took at open tables.
    Seats,
}

/// The key of `address`'s count of games or seats: a keyed hash of the address (with the
/// cluster's seat key), never the address.
pub(super) fn address_key(key: &SeatKey, address: IpAddr, counted: Counted) -> String {
    let what = match counted {
        Counted::Games => "games",
        Counted::Seats => "seats",
    };
    format!("dara:address:{}:{what}", key.hash(&address.to_string()).to_hex())
}

/// The set of the arenas Redis keeps (their ids), which every node looks through for arenas
/// whose node died.
pub(super) const ARENAS: &str = "dara:arenas";

/// The hash of the server's own arenas as `GET /api/arenas` lists them (id → listing).
pub(super) const ARENAS_LISTED: &str = "dara:arenas:listed";

/// An arena's keys, tagged with its id (`dara:arena:{id}:…`).
pub(super) struct ArenaKeys {
    /// The node that pairs it, with the lease's epoch: `node:epoch`.
    pub(super) lease: String,
    /// Bumped at every takeover: the lease's epoch (named apart from a game's `epoch`, which
    /// the tests' proxies look for in a game's beginning).
    pub(super) epoch: String,
    /// A hash: its settings and shell.
    pub(super) meta: String,
    /// A list: its journal, event `v` at index `v - 1`.
    pub(super) events: String,
    /// A hash: the table of each of its games (arena's number → game id).
    pub(super) tables: String,
    /// Its board as last pinned, for the other nodes' sockets.
    pub(super) board: String,
    /// A list: the requests other nodes relay to its holder.
    pub(super) asks: String,
}

impl ArenaKeys {
    pub(super) fn of(arena: &str) -> ArenaKeys {
        let key = |what: &str| format!("dara:arena:{{{arena}}}:{what}");
        ArenaKeys {
            lease: key("lease"),
            epoch: key("takeovers"),
            meta: key("meta"),
            events: key("events"),
            tables: key("tables"),
            board: key("board"),
            asks: key("asks"),
        }
    }
}

/// Where the answer to one relayed arena request is left for the node that asked.
pub(super) fn arena_answer_key(ask: &str) -> String {
    format!("dara:arena-answer:{ask}")
}
