//! Everything a node of a cluster says to Redis, in one place: the [`Redis`] handle is the one
//! client of Redis the server has, and its methods are what the server asks of Redis (take a
//! game's lease, say the node is alive, write a turn fenced by a lease, list a table, count a
//! seat, post to a node's inbox). Only this module names the `redis` crate, builds a key
//! ([`keys`]) or sends a command; the rest of the server sees typed operations.
//!
//! Why a module of its own, and not the store's or the cluster's: what Redis holds is shared by
//! both. The store keeps a game's journal through it (`store::Store::Redis`), and the cluster
//! keeps its leases, the lobby, the per-address counts and the nodes' inboxes in it; under
//! either, the other would lean on a folder that leans back on it (the cluster on the store for
//! its lobby and inboxes, or the store on the cluster for a node's name, as they did). So it
//! stands below both, with what it needs of the cluster defined here: a node's name ([`node`]).
//!
//! Every game has four keys, tagged with its id (`dara:{id}:…`, see [`keys`]): `meta` (a hash:
//! its record and seats), `events` (a list: its journal, event `v` at index `v - 1`), `lease`
//! (the node that runs it, with the lease's epoch: `node:epoch`) and `epoch` (bumped at every
//! takeover).
//!
//! Leases are held through the node's own liveness, as sessions hold ephemeral nodes in
//! ZooKeeper: a node says it is alive (`dara:node:NAME:alive`) every [`RENEW_EVERY`], for
//! [`LEASE`], and a game's lease is good while its node is alive. So a node renews one key, not
//! one per game. A node's name carries a random incarnation (`n1.3fa2c9`), so a restarted node
//! is a new node and the old one's games are free at once ([`leases`]).
//!
//! Fencing: every write is a Lua script (`scripts`, sent by hash) that first checks that the
//! game's lease still holds the token of the life of the game that writes (each taking up makes
//! a new epoch, see [`leases::Lease`]) and that this node is still alive and, for an event, that
//! the journal has exactly the events before it. A node sends a life's write only while it
//! holds that life's lease itself: not once it lapsed, nor once it took the game up again. A
//! node that was paused (SIGSTOP, a stall, a cut network) past its liveness cannot write a
//! single event when it wakes if another node took the game meanwhile; and on waking it learns
//! that it lapsed and gives every game up (see `cluster`).
//!
//! Group commit: games send their writes over a channel; one task sends everything pending in
//! one pipeline and answers each game when Redis has answered (`writer`). Durability is
//! Redis's own: with `appendonly yes` and `appendfsync always` an acknowledged write survives
//! Redis's crash too (the deploy example sets both); a node's `kill -9` never loses one either
//! way.
//!
//! Beside the games: the arenas, each kept and fenced as a game is but taken up by whichever
//! node looks first once its node died ([`arenas`]); the lobby's open tables, shared by every
//! node ([`lobby`]); the games
//! anyone may watch ([`watch`]); how many sockets each node holds ([`here`]); the per-address
//! counts of games and seats ([`counts`]); and
//! each node's inbox, through which sockets are relayed and the lobby's and the watch list's
//! changes announced ([`inbox`]).
//!
//! What this does not survive: Redis's replication is asynchronous, so a replica has a script's
//! writes only some time after the node was answered. A failover to a replica (Sentinel's, or a
//! managed Redis's own) can lose acknowledged events, and leases and liveness with them: a game
//! is then taken up again from the replica's shorter journal, and its players see their last
//! turns taken back; a node whose word that it is alive was lost finds it lapsed and hands its
//! games over; a lease that had moved may be back with the node that lost it, whose current
//! holder's next write is refused. Fencing holds against whatever Redis has (every write checks
//! the lease it finds), so no two nodes write one game, but what was lost stays lost. `WAIT`
//! after each pipeline would narrow that window, not close it: this store is built for one
//! Redis with its append-only file on a durable disk.
//!
//! Nor does it run on a sharded Redis Cluster as it is. A cluster requires every key a script
//! touches to be named in its KEYS, all in one slot, and two scripts read keys they do not name:
//! the takeover reads the holder's liveness key (`dara:node:NAME:alive`), and a game's erasure
//! takes back the per-address seat counts listed beside it. SCALING.md says what would move
//! first.

pub mod arenas;
pub mod counts;
pub mod here;
pub mod inbox;
pub mod keys;
pub mod leases;
pub mod lobby;
pub mod node;
#[cfg(test)]
mod scratch;
mod scripts;
pub mod watch;
mod writer;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use redis::aio::ConnectionManager;
use redis::Value;
use tokio::sync::{mpsc, oneshot};

use crate::hex;
use crate::seat::{GameId, SeatKey};
use crate::store::error::StoreError;
use crate::store::write::Write;
use keys::{FORMAT_KEY, GAMES_PATTERN, SEAT_KEY};
use leases::{Lease, Leases};
use node::NodeName;
use writer::{write_loop, Job};

/// The version of what a cluster keeps in Redis (its keys, and their JSON); a release reads
/// every format up to its own. Raised only by a change the release before would misread: keys
/// and fields it can ignore (the seat counts, `dara:{id}:seated`) leave it as it is, so nodes
/// of the two releases can run side by side in a rolling upgrade (SCALING.md).
pub const REDIS_FORMAT: i64 = 1;

/// How long a node's word that it is alive lasts: a node that dies (or is paused) loses its
/// games to the others this long after it last spoke.
pub const LEASE: Duration = Duration::from_secs(5);

/// How often a node says it is alive: several times a lease, so that one slow round trip does
/// not lose its games.
pub const RENEW_EVERY: Duration = Duration::from_secs(1);

/// How long a game's keys outlive the last write or touch: a game whose node died and that
/// nobody came back to is gone from Redis after this, so nothing is kept of it.
pub const ORPHANS_KEPT: Duration = Duration::from_secs(60 * 60);

/// How often a node touches the keys of the games it runs, so that a game where nobody moves
/// for a long while (a player thinking, nobody joining yet) is not mistaken for an orphan.
pub const TOUCH_EVERY: Duration = Duration::from_secs(10 * 60);

/// How long a round trip to Redis may take before it counts as failed (and the writes in it
/// as not kept: the game stops here, and goes on from what Redis has).
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(5);

/// A node's client of Redis, cheap to clone: the node's own handle, or one life of a game's,
/// which writes through the lease that life took (see [`Lease`]). Its methods, by concept:
/// the games' writes here and in `writer`, leases and liveness in [`leases`], the lobby in
/// [`lobby`], the per-address counts in [`counts`], the nodes' inboxes in [`inbox`].
#[derive(Clone)]
pub struct Redis {
    inner: Arc<Inner>,
    /// The lease every write through this handle is fenced by: `None` on the node's own
    /// handle, whose writes are only a game's beginning (which takes epoch 1).
    lease: Option<Lease>,
}

struct Inner {
    node: NodeName,
    /// Where new connections come from: a node's inbox is listened to on one of its own.
    client: redis::Client,
    conn: ConnectionManager,
    /// The lease of every game this node runs.
    leases: Mutex<Leases>,
    jobs: mpsc::UnboundedSender<Job>,
    closed: AtomicBool,
    /// Round trips so far, for the metrics.
    round_trips: AtomicU64,
    /// Whether Redis answered the last round trip that asked it something (a write, or the
    /// node saying it is alive): while it does not, games refuse what would need a write,
    /// rather than start one that cannot be kept.
    reachable: AtomicBool,
}

impl std::fmt::Debug for Redis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Redis").field("node", &self.inner.node).finish_non_exhaustive()
    }
}

impl Redis {
    /// Connects to Redis at `url` as node `node`, and gives the cluster's seat key (made by
    /// the first node that ever started).
    ///
    /// # Errors
    /// Redis cannot be reached, or does not answer as Redis.
    pub async fn connect(url: &str, node: NodeName) -> Result<(Redis, SeatKey), StoreError> {
        let client = redis::Client::open(url).map_err(redis_error)?;
        // Reconnects by itself when Redis restarts; a round trip may take a few seconds under
        // `appendfsync always` on a busy disk before it counts as failed.
        let config = redis::aio::ConnectionManagerConfig::new()
            .set_response_timeout(Some(RESPONSE_TIMEOUT))
            .set_connection_timeout(Some(RESPONSE_TIMEOUT));
        let mut conn =
            client.get_connection_manager_with_config(config).await.map_err(redis_error)?;
        let key = seat_key(&mut conn).await?;
        scripts::load(&mut conn).await.map_err(redis_error)?;
        Ok((Redis::writing(node, client, conn), key))
    }

    /// Node `node`'s client on `conn` (more connections from `client`), its writer task
    /// started.
    fn writing(node: NodeName, client: redis::Client, conn: ConnectionManager) -> Redis {
        let (jobs, rx) = mpsc::unbounded_channel();
        let inner = Arc::new(Inner {
            node,
            client,
            conn,
            leases: Mutex::default(),
            jobs,
            closed: AtomicBool::new(false),
            round_trips: AtomicU64::new(0),
            reachable: AtomicBool::new(true),
        });
        tokio::spawn(write_loop(inner.clone(), rx));
        Redis { inner, lease: None }
    }

    /// The store as the life of a game that holds `lease` writes to it.
    fn leased(&self, lease: Lease) -> Redis {
        Redis { inner: self.inner.clone(), lease: Some(lease) }
    }

    /// The store as a game begun here writes to it: through the lease its beginning takes.
    pub fn for_new_game(&self) -> Redis {
        self.leased(Lease::first(&self.inner.node))
    }

    /// This node's name.
    pub fn node(&self) -> &NodeName {
        &self.inner.node
    }

    /// A connection for other commands (it is multiplexed: clones share one socket), counted
    /// as one round trip.
    fn connection(&self) -> ConnectionManager {
        self.inner.round_trips.fetch_add(1, Ordering::Relaxed);
        self.inner.conn.clone()
    }

    /// The same connection, not counted: the lobby's, the counts' and the inboxes' commands
    /// have never been counted as round trips (the metric is the games' and the leases').
    fn uncounted(&self) -> ConnectionManager {
        self.inner.conn.clone()
    }

    /// Sets (`Some`) or removes (`None`) game `game`'s entry in a list every node shares (the
    /// lobby's tables, the games to watch), a hash, and announces the change on its channel:
    /// in the background, as these lists are only an offer or a view.
    fn change_shared_list(
        &self,
        (hash, changed): (&'static str, &'static str),
        game: &GameId,
        entry: Option<String>,
    ) {
        let mut pipe = redis::pipe();
        match entry {
            Some(entry) => pipe.cmd("HSET").arg(hash).arg(game.as_str()).arg(entry).ignore(),
            None => pipe.cmd("HDEL").arg(hash).arg(game.as_str()).ignore(),
        };
        pipe.cmd("PUBLISH").arg(changed).arg(1).ignore();
        let mut conn = self.uncounted();
        tokio::spawn(async move {
            if let Err(e) = pipe.query_async::<()>(&mut conn).await {
                tracing::warn!("the shared list {hash} in Redis could not be changed: {e}");
            }
        });
    }

    /// Round trips to Redis so far.
    pub fn round_trips(&self) -> u64 {
        self.inner.round_trips.load(Ordering::Relaxed)
    }

    /// Whether Redis answered this node's last round trip (see `Inner::reachable`).
    pub fn reachable(&self) -> bool {
        self.inner.reachable.load(Ordering::Acquire)
    }

    /// Notes that Redis did not answer another of this node's connections (its inbox's): until
    /// the next round trip succeeds, games refuse what would need a write.
    pub fn unreachable(&self) {
        self.inner.reachable.store(false, Ordering::Release);
    }

    /// Sends writes to be committed in order after every write sent before.
    pub(crate) fn send(&self, writes: Vec<Write>) -> oneshot::Receiver<Result<(), StoreError>> {
        let (tx, rx) = oneshot::channel();
        if self.inner.closed.load(Ordering::Acquire) {
            let _ = tx.send(Err(StoreError::Closed));
            return rx;
        }
        let mut fenced = Vec::with_capacity(writes.len());
        {
            let mut leases = self.inner.leases.lock().expect("leases lock");
            for write in writes {
                let game = write.game();
                let lease = match (&write, &self.lease) {
                    (Write::Begin { .. }, lease) => {
                        let lease = lease.clone().unwrap_or_else(|| Lease::first(&self.inner.node));
                        leases.held.insert(game.clone(), lease.clone());
                        lease
                    }
                    // Only while this life's lease is the one the node holds: not once the node
                    // lapsed (another may have the game), nor once a later life took it up.
                    (_, Some(lease)) if leases.holds(game, lease) => lease.clone(),
                    _ => {
                        let _ = tx.send(Err(StoreError::Fenced(format!(
                            "game {game} is not run by this life of it on this node any more"
                        ))));
                        return rx;
                    }
                };
                fenced.push((write, lease));
            }
        }
        if let Err(mpsc::error::SendError(Job::Write(_, tx))) =
            self.inner.jobs.send(Job::Write(fenced, tx))
        {
            let _ = tx.send(Err(StoreError::Closed));
        }
        rx
    }

    /// Commits what is pending; later writes fail.
    pub(crate) async fn close(&self) {
        self.inner.closed.store(true, Ordering::Release);
        let (tx, rx) = oneshot::channel();
        if self.inner.jobs.send(Job::Close(tx)).is_ok() {
            let _ = rx.await;
        }
    }
}

/// The cluster's seat key: made by the first node ever started, read by every other. First,
/// the format of what the cluster keeps in Redis: a node of an older release refuses to join a
/// cluster that a later release has written (the keys and their JSON are the same promise to
/// later releases as the SQLite store's: a field is only ever added with a default).
///
/// A key that is missing while Redis holds games is never made anew (as the SQLite store's
/// file): every seat of those games was hashed with the lost key, so a new one would lock
/// every player out of them, silently.
async fn seat_key(conn: &mut ConnectionManager) -> Result<SeatKey, StoreError> {
    let fresh = SeatKey::random();
    let fresh = hex::encode(&fresh.to_bytes());
    let (_, format): (Value, i64) = redis::pipe()
        .cmd("SET")
        .arg(FORMAT_KEY)
        .arg(REDIS_FORMAT)
        .arg("NX")
        .cmd("GET")
        .arg(FORMAT_KEY)
        .query_async(conn)
        .await
        .map_err(redis_error)?;
    if format > REDIS_FORMAT {
        return Err(StoreError::TooNew { found: format });
    }
    let kept: Option<String> =
        redis::cmd("GET").arg(SEAT_KEY).query_async(conn).await.map_err(redis_error)?;
    if kept.is_none() {
        let games = stored_games(conn).await?;
        if games > 0 {
            return Err(StoreError::ClusterSeatKeyMissing { key: SEAT_KEY, games });
        }
    }
    let (_, stored): (Value, String) = redis::pipe()
        .cmd("SET")
        .arg(SEAT_KEY)
        .arg(&fresh)
        .arg("NX")
        .cmd("GET")
        .arg(SEAT_KEY)
        .query_async(conn)
        .await
        .map_err(redis_error)?;
    match hex::decode(&stored) {
        Some(bytes) => Ok(SeatKey::from_bytes(bytes)),
        None => Err(StoreError::Corrupt("a seat key that is not 64 hex digits".into())),
    }
}

/// How many games Redis holds (their `meta` keys), counted with `SCAN`: asked only when the
/// seat key is missing, at start.
async fn stored_games(conn: &mut ConnectionManager) -> Result<usize, StoreError> {
    let (mut cursor, mut games) = (0u64, 0);
    loop {
        let (next, keys): (u64, Vec<String>) = redis::cmd("SCAN")
            .arg(cursor)
            .arg("MATCH")
            .arg(GAMES_PATTERN)
            .arg("COUNT")
            .arg(1000)
            .query_async(conn)
            .await
            .map_err(redis_error)?;
        games += keys.len();
        if next == 0 {
            return Ok(games);
        }
        cursor = next;
    }
}

fn redis_error(e: redis::RedisError) -> StoreError {
    StoreError::Redis(e.to_string())
}

/// Why Redis did not do what it was asked (it cannot be reached, or refused), said as the
/// library says it: the lobby's, the counts' and the inboxes' commands answer with it, where a
/// game's store answers with a [`StoreError`].
#[derive(Debug)]
pub struct Failed(redis::RedisError);

impl From<redis::RedisError> for Failed {
    fn from(e: redis::RedisError) -> Failed {
        Failed(e)
    }
}

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Failed {}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("stored types serialise")
}
