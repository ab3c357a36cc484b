//! Where the cluster keeps things in Redis: the names of its keys.
//!
//! Every key of a game is tagged with its id (`dara:{id}:…`), so that on a sharded Redis they
//! would share a shard; a node's liveness key is its own (`dara:node:NAME:alive`).

use crate::cluster::NodeName;
use crate::seat::GameId;

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
pub fn meta_key(game: &GameId) -> String {
    format!("dara:{{{game}}}:meta")
}

/// Where the seats taken at game `game`'s open table are noted, each as the key of its
/// address's count (see `cluster::limits::SeatCounts`).
pub fn seated_key(game: &GameId) -> String {
    format!("dara:{{{game}}}:seated")
}

/// Node `node`'s word that it is alive, which holds the leases of all its games.
pub(super) fn alive_key(node: &NodeName) -> String {
    format!("dara:node:{node}:alive")
}
