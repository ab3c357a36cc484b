//! Several nodes over Redis (`dara serve --redis URL --node-id NAME`): any node serves any
//! socket, and each live game is run by exactly one node at a time, the holder of its lease.
//!
//! - The games are kept in Redis ([`crate::redis`], the one module that speaks to it): each
//!   event is written there, fenced by the lease's epoch, before anyone is told of it.
//! - A socket that reaches a node which does not run its game is relayed to the node that
//!   does ([`relay`]).
//! - A node says it is alive every second, which keeps the leases of all its games; one that
//!   dies loses them within [`LEASE`], and the next socket for one of its games, on any node,
//!   takes the game up from Redis. One that has not heard back from Redis for a lease serves
//!   none of its games until it has ([`Cluster::sure_alive`]).
//! - A node that stops (SIGTERM) gives its leases up as it closes its sockets with 1012, so its
//!   games move on at once.
//! - Arenas are kept in Redis too, each paired by the holder of its lease; unlike a game, an
//!   arena whose node died is taken up by whichever node looks first ([`arenas`]), and players
//!   reach it from any node (see `crate::arena::cluster` and `crate::redis::arenas`).

pub mod arenas;
pub mod limits;
pub mod relay;
// What needs the server's state lives in these two, which nothing here imports: the state
// holds the cluster.
pub mod route;
pub mod tasks;

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use crate::one_at_a_time::OneAtATime;
use crate::redis::node::NodeName;
use crate::redis::{Redis, LEASE};
use crate::seat::{GameId, SeatKey};
use crate::store::error::StoreError;

/// This node's part in a cluster.
#[derive(Debug)]
pub struct Cluster {
    /// The games' store, and this node's leases.
    pub redis: Redis,
    /// Sockets relayed to and from other nodes.
    pub hub: Arc<relay::Hub>,
    /// One takeover at a time for each game on this node (two sockets that arrive together for
    /// a game whose node died take it up once), different games at once.
    taking: OneAtATime<GameId>,
    /// Whether this node's inbox is listened to.
    inbox: AtomicBool,
    /// When this node sent the last renewal that Redis answered (see [`Cluster::sure_alive`]).
    renewed: Mutex<tokio::time::Instant>,
    /// Rung when the cluster's tables changed.
    lobby_stale: Arc<tokio::sync::Notify>,
    /// Rung when the cluster's games to watch changed.
    watch_stale: Arc<tokio::sync::Notify>,
    /// Games per client address, across the nodes.
    pub games: limits::GameCounts,
    /// Seats taken at open tables per client address, across the nodes.
    pub seats: limits::SeatCounts,
    /// The sockets every node holds, added up when last read (see `crate::redis::here`).
    pub here: AtomicU32,
}

impl Cluster {
    /// Joins the cluster whose Redis is at `url`, as node `name`; gives the cluster's seat key.
    ///
    /// # Errors
    /// Redis cannot be reached.
    pub async fn join(url: &str, name: &NodeName) -> Result<(Cluster, SeatKey), StoreError> {
        // A new name for each process: a node restarted under the same name is a new node,
        // and the games of the one before it are free at once.
        let node = name.incarnation();
        let (redis, key) = Redis::connect(url, node.clone()).await?;
        redis.say_alive().await?;
        let hub = Arc::new(relay::Hub::new(node, redis.clone()));
        let cluster = Cluster {
            games: limits::GameCounts::new(redis.clone(), key.clone()),
            seats: limits::SeatCounts::new(redis.clone(), key.clone()),
            redis,
            hub,
            taking: OneAtATime::default(),
            inbox: AtomicBool::new(false),
            // It has just said so.
            renewed: Mutex::new(tokio::time::Instant::now()),
            lobby_stale: Arc::default(),
            watch_stale: Arc::default(),
            here: AtomicU32::new(0),
        };
        Ok((cluster, key))
    }

    /// This node's name.
    pub fn node(&self) -> &NodeName {
        self.redis.node()
    }

    /// Whether this node can serve: Redis answers (its last round trip, and a renewal within
    /// the last lease) and its inbox is listened to.
    pub fn is_ready(&self) -> bool {
        self.inbox.load(Ordering::Acquire) && self.sure_alive() && self.redis.reachable()
    }

    /// Whether this node is surely alive in Redis now, and its games surely its own: a lease
    /// has not gone by since it sent its last renewal that Redis answered (Redis ran it then
    /// or later, so the word it set lasts at least that long). Past that, other nodes may have
    /// taken its games while it cannot know, until its next renewal comes back and says so
    /// (then it gives them up): meanwhile it serves none of them, nor takes any up, as a life
    /// it runs may be older than the game going on elsewhere.
    pub fn sure_alive(&self) -> bool {
        self.renewed.lock().expect("renewed lock").elapsed() < LEASE
    }

    /// Notes that Redis answered a renewal sent at `sent`.
    fn renewed(&self, sent: tokio::time::Instant) {
        *self.renewed.lock().expect("renewed lock") = sent;
    }
}
