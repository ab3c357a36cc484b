//! The store of a cluster: live games kept in Redis, so that whichever node a player reaches
//! can take a game up when the node that ran it is gone.
//!
//! Every game has four keys, tagged with its id (`dara:{id}:…`): `meta` (a hash: its record and
//! seats), `events` (a list: its journal, event `v` at index `v - 1`), `lease` (the node that
//! runs it, with the lease's epoch: `node:epoch`) and `epoch` (bumped at every takeover).
//!
//! Leases are held through the node's own liveness, as sessions hold ephemeral nodes in
//! ZooKeeper: a node says it is alive (`dara:node:NAME:alive`) every [`RENEW_EVERY`], for
//! [`LEASE`], and a game's lease is good while its node is alive. So a node renews one key, not
//! one per game. A node's name carries a random incarnation (`n1.3fa2c9`), so a restarted node
//! is a new node and the old one's games are free at once.
//!
//! Fencing: every write is a Lua script that first checks that the game's lease still holds
//! this node's token and that this node is still alive and, for an event, that the journal has
//! exactly the events before it. A node that was paused (SIGSTOP, a stall, a cut network) past
//! its liveness cannot write a single event when it wakes if another node took the game
//! meanwhile; and on waking it learns that it lapsed and gives every game up (see `cluster`).
//!
//! Group commit: games send their writes over a channel; one task sends everything pending in
//! one pipeline and answers each game when Redis has answered. Durability is Redis's own: with
//! `appendonly yes` and `appendfsync always` an acknowledged write survives Redis's crash too
//! (the deploy example sets both); a node's `kill -9` never loses one either way.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use redis::aio::ConnectionManager;
use redis::{RedisResult, Value};
use tokio::sync::{mpsc, oneshot};

use super::record::{GameRecord, StoredGame, StoredSeats};
use super::{StoreError, Write};
use crate::cluster::NodeName;
use crate::duration::millis;
use crate::game::GameEvent;
use crate::hex;
use crate::seat::{GameId, SeatKey};

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

/// Most writes sent in one pipeline.
const BATCH: usize = 1024;

/// KEYS[1] is the game's lease, KEYS[2] this node's liveness; ARGV[1] the lease token.
const FENCE: &str = "if redis.call('GET', KEYS[1]) ~= ARGV[1] then \
     return redis.error_reply('FENCED the lease of the game is held by another node') end \
     if redis.call('EXISTS', KEYS[2]) == 0 then \
     return redis.error_reply('FENCED this node lapsed: its games may be taken') end ";

/// A new game: its lease, epoch 1, its record and seats.
const BEGIN: &str = "if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[4]) then \
     return redis.error_reply('FENCED a game with this id is running elsewhere') end \
     if redis.call('EXISTS', KEYS[2]) == 0 then \
     return redis.error_reply('FENCED this node lapsed: its games may be taken') end \
     redis.call('SET', KEYS[3], 1, 'PX', ARGV[4]) \
     redis.call('HSET', KEYS[4], 'record', ARGV[2], 'seats', ARGV[3]) \
     redis.call('PEXPIRE', KEYS[4], ARGV[4]) return 1";

/// The seats change.
const SEATS: &str = "redis.call('HSET', KEYS[3], 'seats', ARGV[2]) return 1";

/// Event `v`, only as the journal's next.
const APPEND: &str = "if redis.call('LLEN', KEYS[3]) ~= tonumber(ARGV[2]) - 1 then \
     return redis.error_reply('FENCED the journal is not at the version before this event') end \
     redis.call('RPUSH', KEYS[3], ARGV[3]) redis.call('PEXPIRE', KEYS[3], ARGV[4]) return 1";

/// The game ends its life: nothing of it is left, and the seats taken at it from the lobby
/// (KEYS[6], see `cluster::limits::SeatCounts`) are no longer counted against their addresses.
/// (The counts it takes back are named in that list, not in KEYS: on a sharded Redis the
/// per-address counts would live on a shard of their own, and be taken back in a second step.)
const ERASE: &str = "for _, counter in ipairs(redis.call('LRANGE', KEYS[6], 0, -1)) do \
       if tonumber(redis.call('GET', counter) or '0') > 0 then redis.call('DECR', counter) end \
     end \
     redis.call('DEL', KEYS[1], KEYS[3], KEYS[4], KEYS[5], KEYS[6]) return 1";

/// Keeps a game's keys from being taken for an orphan's, if it is still this node's.
const TOUCH: &str = "if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end \
     for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end return 1";

/// Gives a lease up, if it is still this node's.
const RELEASE: &str = "if redis.call('GET', KEYS[1]) == ARGV[1] then \
     return redis.call('DEL', KEYS[1]) end return 0";

/// Takes a game whose node is no longer alive (or is this node, which no longer runs it): a
/// new epoch, and the lease with it. Answers `{'gone'}`, `{'held', token}` or
/// `{'taken', epoch}`. (It reads the holder's liveness key, which it cannot name in KEYS: on a
/// sharded Redis the liveness keys would have to live beside each game's.)
const TAKE: &str = "if redis.call('EXISTS', KEYS[3]) == 0 then return {'gone'} end \
     local held = redis.call('GET', KEYS[1]) \
     if held then \
       local node = string.match(held, '^(.*):') \
       if node ~= ARGV[1] and redis.call('EXISTS', 'dara:node:' .. node .. ':alive') == 1 then \
         return {'held', held} end end \
     local epoch = redis.call('INCR', KEYS[2]) \
     redis.call('SET', KEYS[1], ARGV[1] .. ':' .. epoch, 'PX', ARGV[2]) \
     return {'taken', tostring(epoch)}";

/// Says a node is alive; answers whether it still was (0: it lapsed meanwhile).
const ALIVE: &str = "local was = redis.call('EXISTS', KEYS[1]) \
     redis.call('SET', KEYS[1], 1, 'PX', ARGV[1]) return was";

/// Where the seats taken at game `game`'s open table are noted, each as the key of its
/// address's count (see `cluster::limits::SeatCounts`).
pub fn seated_key(game: &GameId) -> String {
    format!("dara:{{{game}}}:seated")
}

/// A game's keys.
struct Keys {
    lease: String,
    epoch: String,
    meta: String,
    events: String,
}

impl Keys {
    fn of(game: &GameId) -> Keys {
        Keys {
            lease: format!("dara:{{{game}}}:lease"),
            epoch: format!("dara:{{{game}}}:epoch"),
            meta: format!("dara:{{{game}}}:meta"),
            events: format!("dara:{{{game}}}:events"),
        }
    }
}

/// Where a game is, as Redis says.
#[derive(Debug)]
pub enum Whereabouts {
    /// Redis has no such game (never there, or erased).
    Gone,
    /// A node holds its lease.
    Held(NodeName),
    /// Its lease had lapsed, and this node has taken it: here it is, to be taken up.
    Taken(StoredGame),
}

/// A handle on a node's Redis store, cheap to clone.
#[derive(Clone)]
pub struct Redis {
    inner: Arc<Inner>,
}

struct Inner {
    node: NodeName,
    conn: ConnectionManager,
    /// The fencing token (`node:epoch`) of every game this node runs.
    held: Mutex<HashMap<GameId, String>>,
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

enum Job {
    Write(Vec<(Write, String)>, oneshot::Sender<Result<(), StoreError>>),
    Close(oneshot::Sender<()>),
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
        let (jobs, rx) = mpsc::unbounded_channel();
        let inner = Arc::new(Inner {
            node,
            conn,
            held: Mutex::default(),
            jobs,
            closed: AtomicBool::new(false),
            round_trips: AtomicU64::new(0),
            reachable: AtomicBool::new(true),
        });
        tokio::spawn(write_loop(inner.clone(), rx));
        Ok((Redis { inner }, key))
    }

    /// This node's name.
    pub fn node(&self) -> &NodeName {
        &self.inner.node
    }

    /// A connection for other commands (it is multiplexed: clones share one socket), counted
    /// as one round trip.
    pub fn connection(&self) -> ConnectionManager {
        self.inner.round_trips.fetch_add(1, Ordering::Relaxed);
        self.inner.conn.clone()
    }

    /// Round trips to Redis so far.
    pub fn round_trips(&self) -> u64 {
        self.inner.round_trips.load(Ordering::Relaxed)
    }

    /// Whether Redis answered this node's last round trip (see [`Inner::reachable`]).
    pub fn reachable(&self) -> bool {
        self.inner.reachable.load(Ordering::Acquire)
    }

    /// Notes that Redis did not answer another of this node's connections (its inbox's): until
    /// the next round trip succeeds, games refuse what would need a write.
    pub fn unreachable(&self) {
        self.inner.reachable.store(false, Ordering::Release);
    }

    /// Sends writes to be committed in order after every write sent before.
    pub(super) fn send(&self, writes: Vec<Write>) -> oneshot::Receiver<Result<(), StoreError>> {
        let (tx, rx) = oneshot::channel();
        if self.inner.closed.load(Ordering::Acquire) {
            let _ = tx.send(Err(StoreError::Closed));
            return rx;
        }
        let mut fenced = Vec::with_capacity(writes.len());
        {
            let mut held = self.inner.held.lock().expect("leases lock");
            for write in writes {
                let game = write.game();
                if matches!(write, Write::Begin { .. }) {
                    held.insert(game.clone(), format!("{}:1", self.inner.node));
                }
                let Some(token) = held.get(game).cloned() else {
                    let _ = tx.send(Err(StoreError::Fenced(format!(
                        "game {game} is not run by this node any more"
                    ))));
                    return rx;
                };
                fenced.push((write, token));
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
    pub(super) async fn close(&self) {
        self.inner.closed.store(true, Ordering::Release);
        let (tx, rx) = oneshot::channel();
        if self.inner.jobs.send(Job::Close(tx)).is_ok() {
            let _ = rx.await;
        }
    }

    /// Where game `game` is; if its node is no longer alive, it is this node's now (see
    /// [`Whereabouts::Taken`]).
    ///
    /// # Errors
    /// Redis failed, or the game does not read.
    pub async fn find(&self, game: &GameId) -> Result<Whereabouts, StoreError> {
        let keys = Keys::of(game);
        let mut conn = self.connection();
        let answer: Vec<String> = redis::cmd("EVAL")
            .arg(TAKE)
            .arg(3)
            .arg(&keys.lease)
            .arg(&keys.epoch)
            .arg(&keys.meta)
            .arg(self.inner.node.as_str())
            .arg(millis(ORPHANS_KEPT))
            .query_async(&mut conn)
            .await
            .map_err(redis_error)?;
        match answer.first().map(String::as_str) {
            Some("gone") => Ok(Whereabouts::Gone),
            Some("held") => {
                let token = answer.get(1).map(String::as_str).unwrap_or_default();
                let node = token.rsplit_once(':').map_or(token, |(node, _)| node);
                match node.parse() {
                    Ok(node) => Ok(Whereabouts::Held(node)),
                    Err(_) => Err(StoreError::Corrupt(format!("a lease {token:?} of game {game}"))),
                }
            }
            Some("taken") => {
                let epoch = answer.get(1).cloned().unwrap_or_default();
                let token = format!("{}:{epoch}", self.inner.node);
                self.inner.held.lock().expect("leases lock").insert(game.clone(), token);
                match self.load(game, &keys).await {
                    Ok(stored) => Ok(Whereabouts::Taken(stored)),
                    Err(e) => {
                        self.release(game).await;
                        Err(e)
                    }
                }
            }
            _ => Err(StoreError::Corrupt(format!("an answer {answer:?} about game {game}"))),
        }
    }

    /// Whether Redis has game `game`.
    ///
    /// # Errors
    /// Redis failed.
    pub async fn exists(&self, game: &GameId) -> Result<bool, StoreError> {
        let mut conn = self.connection();
        redis::cmd("EXISTS")
            .arg(Keys::of(game).meta)
            .query_async(&mut conn)
            .await
            .map_err(redis_error)
    }

    /// Touches the keys of every game this node runs (see [`TOUCH_EVERY`]).
    ///
    /// # Errors
    /// Redis failed.
    pub async fn touch(&self) -> Result<(), StoreError> {
        let held = self.held_tokens();
        if held.is_empty() {
            return Ok(());
        }
        let mut pipe = redis::pipe();
        for (game, token) in &held {
            let keys = Keys::of(game);
            pipe.cmd("EVAL")
                .arg(TOUCH)
                .arg(4)
                .arg(&keys.lease)
                .arg(&keys.epoch)
                .arg(&keys.meta)
                .arg(&keys.events)
                .arg(token)
                .arg(millis(ORPHANS_KEPT))
                .ignore();
        }
        pipe.query_async::<()>(&mut self.connection()).await.map_err(redis_error)
    }

    fn held_tokens(&self) -> Vec<(GameId, String)> {
        let held = self.inner.held.lock().expect("leases lock");
        held.iter().map(|(g, t)| (g.clone(), t.clone())).collect()
    }

    /// Forgets every lease this node held: it lapsed, so other nodes may have taken its games.
    /// Gives the games it ran.
    pub fn forget_leases(&self) -> Vec<GameId> {
        self.inner.held.lock().expect("leases lock").drain().map(|(game, _)| game).collect()
    }

    /// Gives up game `game`'s lease, so that another node may take it at once.
    pub async fn release(&self, game: &GameId) {
        let token = self.inner.held.lock().expect("leases lock").remove(game);
        if let Some(token) = token {
            self.give_up(&[(game.clone(), token)]).await;
        }
    }

    /// Gives up every lease (a node that stops hands its games over at once), in one round
    /// trip: a stopping node has seconds, not one round trip per game.
    pub async fn release_all(&self) {
        let held: Vec<(GameId, String)> =
            self.inner.held.lock().expect("leases lock").drain().collect();
        self.give_up(&held).await;
    }

    async fn give_up(&self, leases: &[(GameId, String)]) {
        if leases.is_empty() {
            return;
        }
        let mut pipe = redis::pipe();
        for (game, token) in leases {
            pipe.cmd("EVAL").arg(RELEASE).arg(1).arg(Keys::of(game).lease).arg(token).ignore();
        }
        if let Err(e) = pipe.query_async::<()>(&mut self.connection()).await {
            tracing::warn!(
                leases = leases.len(),
                "leases could not be given up (they lapse by themselves): {e}"
            );
        }
    }

    /// Says this node is alive, for [`LEASE`]; answers whether it still was (false: it
    /// lapsed since it last said so, and other nodes may have taken its games).
    ///
    /// # Errors
    /// Redis failed.
    pub async fn say_alive(&self) -> Result<bool, StoreError> {
        let mut conn = self.connection();
        let was: RedisResult<i64> = redis::cmd("EVAL")
            .arg(ALIVE)
            .arg(1)
            .arg(alive_key(&self.inner.node))
            .arg(millis(LEASE))
            .query_async(&mut conn)
            .await;
        self.inner.reachable.store(was.is_ok(), Ordering::Release);
        Ok(was.map_err(redis_error)? == 1)
    }

    /// Says this node is gone (it stops).
    pub async fn say_gone(&self) {
        let mut conn = self.connection();
        let _ =
            redis::cmd("DEL").arg(alive_key(&self.inner.node)).query_async::<()>(&mut conn).await;
    }

    /// Which of `nodes` have said they are alive within [`LEASE`].
    ///
    /// # Errors
    /// Redis failed.
    pub async fn alive(&self, nodes: &[NodeName]) -> Result<Vec<bool>, StoreError> {
        if nodes.is_empty() {
            return Ok(Vec::new());
        }
        let mut pipe = redis::pipe();
        for node in nodes {
            pipe.cmd("EXISTS").arg(alive_key(node));
        }
        pipe.query_async(&mut self.connection()).await.map_err(redis_error)
    }

    /// How many games this node runs.
    pub fn held(&self) -> usize {
        self.inner.held.lock().expect("leases lock").len()
    }

    /// Whether Redis answers.
    pub async fn ping(&self) -> bool {
        let mut conn = self.connection();
        let cmd = redis::cmd("PING");
        let ping = cmd.query_async::<String>(&mut conn);
        matches!(tokio::time::timeout(Duration::from_secs(1), ping).await, Ok(Ok(_)))
    }

    async fn load(&self, game: &GameId, keys: &Keys) -> Result<StoredGame, StoreError> {
        let mut conn = self.connection();
        let (meta, events): (HashMap<String, String>, Vec<String>) = redis::pipe()
            .cmd("HGETALL")
            .arg(&keys.meta)
            .cmd("LRANGE")
            .arg(&keys.events)
            .arg(0)
            .arg(-1)
            .query_async(&mut conn)
            .await
            .map_err(redis_error)?;
        let corrupt = |what: &str, e: &dyn std::fmt::Display| {
            StoreError::Corrupt(format!("{what} of game {game} that does not read: {e}"))
        };
        let field = |name: &str| meta.get(name).ok_or_else(|| corrupt(name, &"it is missing"));
        let record: GameRecord =
            serde_json::from_str(field("record")?).map_err(|e| corrupt("a record", &e))?;
        let seats: StoredSeats =
            serde_json::from_str(field("seats")?).map_err(|e| corrupt("seats", &e))?;
        let events = events
            .iter()
            .map(|text| {
                serde_json::from_str::<GameEvent>(text).map_err(|e| corrupt("an event", &e))
            })
            .collect::<Result<_, _>>()?;
        Ok(StoredGame { id: game.clone(), record, seats, events })
    }
}

impl Write {
    fn game(&self) -> &GameId {
        match self {
            Write::Begin { game, .. }
            | Write::Seats { game, .. }
            | Write::Append { game, .. }
            | Write::Erase { game } => game,
        }
    }
}

/// The writer: sends everything pending in one pipeline, then answers.
async fn write_loop(inner: Arc<Inner>, mut jobs: mpsc::UnboundedReceiver<Job>) {
    let mut conn = inner.conn.clone();
    let alive = alive_key(&inner.node);
    while let Some(first) = jobs.recv().await {
        let mut batch = vec![first];
        let mut writes = 0;
        while writes < BATCH {
            match jobs.try_recv() {
                Ok(job) => {
                    if let Job::Write(w, _) = &job {
                        writes += w.len();
                    }
                    batch.push(job);
                }
                Err(_) => break,
            }
        }
        let mut pipe = redis::pipe();
        pipe.ignore_errors();
        for job in &batch {
            if let Job::Write(writes, _) = job {
                for (write, token) in writes {
                    add(&mut pipe, write, token, &alive);
                }
            }
        }
        let answers: RedisResult<Vec<Value>> = if pipe.is_empty() {
            Ok(Vec::new())
        } else {
            inner.round_trips.fetch_add(1, Ordering::Relaxed);
            let answers = pipe.query_async(&mut conn).await;
            // A script's refusal (fenced) comes inside the answers: only a failed round trip
            // says Redis is unreachable.
            inner.reachable.store(answers.is_ok(), Ordering::Release);
            answers
        };
        let mut answers = match answers {
            Ok(answers) => answers.into_iter().map(Ok).collect::<Vec<_>>().into_iter(),
            Err(e) => {
                let failed = e.to_string();
                for job in batch {
                    match job {
                        Job::Write(_, tx) => drop(tx.send(Err(StoreError::Redis(failed.clone())))),
                        Job::Close(tx) => {
                            let _ = tx.send(());
                            return;
                        }
                    }
                }
                continue;
            }
        };
        for job in batch {
            match job {
                Job::Write(writes, tx) => {
                    let mut outcome = Ok(());
                    for (write, _) in &writes {
                        let answer: Result<Value, StoreError> =
                            answers.next().unwrap_or(Err(StoreError::Closed));
                        let refused = match answer {
                            Ok(Value::ServerError(e)) => Some(StoreError::Fenced(format!(
                                "game {}: {}",
                                write.game(),
                                e.details().unwrap_or("refused")
                            ))),
                            Ok(_) => None,
                            Err(e) => Some(e),
                        };
                        if let Some(e) = refused {
                            outcome = outcome.and(Err(e));
                        } else if let Write::Erase { game } = write {
                            inner.held.lock().expect("leases lock").remove(game);
                        }
                    }
                    let _ = tx.send(outcome);
                }
                Job::Close(tx) => {
                    let _ = tx.send(());
                    return;
                }
            }
        }
    }
}

/// The script that carries out one write, fenced by `token` and this node's liveness
/// (`alive`).
fn add(pipe: &mut redis::Pipeline, write: &Write, token: &str, alive: &str) {
    let keys = Keys::of(write.game());
    let kept_for = millis(ORPHANS_KEPT);
    let eval = pipe.cmd("EVAL");
    match write {
        Write::Begin { record, seats, .. } => {
            eval.arg(BEGIN)
                .arg(4)
                .arg(&keys.lease)
                .arg(alive)
                .arg(&keys.epoch)
                .arg(&keys.meta)
                .arg(token)
                .arg(json(record))
                .arg(json(seats))
                .arg(kept_for);
        }
        Write::Seats { seats, .. } => {
            eval.arg(format!("{FENCE}{SEATS}"))
                .arg(3)
                .arg(&keys.lease)
                .arg(alive)
                .arg(&keys.meta)
                .arg(token)
                .arg(json(seats));
        }
        Write::Append { v, event, .. } => {
            eval.arg(format!("{FENCE}{APPEND}"))
                .arg(3)
                .arg(&keys.lease)
                .arg(alive)
                .arg(&keys.events)
                .arg(token)
                .arg(*v)
                .arg(json(event))
                .arg(kept_for);
        }
        Write::Erase { game } => {
            eval.arg(format!("{FENCE}{ERASE}"))
                .arg(6)
                .arg(&keys.lease)
                .arg(alive)
                .arg(&keys.epoch)
                .arg(&keys.meta)
                .arg(&keys.events)
                .arg(seated_key(game))
                .arg(token);
        }
    }
}

/// The cluster's seat key: made by the first node ever started, read by every other. First,
/// the format of what the cluster keeps in Redis: a node of an older release refuses to join a
/// cluster that a later release has written (the keys and their JSON are the same promise to
/// later releases as the SQLite store's: a field is only ever added with a default).
async fn seat_key(conn: &mut ConnectionManager) -> Result<SeatKey, StoreError> {
    let fresh = SeatKey::random();
    let hex = hex::encode(&fresh.to_bytes());
    let (_, format): (Value, i64) = redis::pipe()
        .cmd("SET")
        .arg("dara:format")
        .arg(REDIS_FORMAT)
        .arg("NX")
        .cmd("GET")
        .arg("dara:format")
        .query_async(conn)
        .await
        .map_err(redis_error)?;
    if format > REDIS_FORMAT {
        return Err(StoreError::TooNew { found: format });
    }
    let (_, stored): (Value, String) = redis::pipe()
        .cmd("SET")
        .arg("dara:seat-key")
        .arg(&hex)
        .arg("NX")
        .cmd("GET")
        .arg("dara:seat-key")
        .query_async(conn)
        .await
        .map_err(redis_error)?;
    match hex::decode(&stored) {
        Some(bytes) => Ok(SeatKey::from_bytes(bytes)),
        None => Err(StoreError::Corrupt("a seat key that is not 64 hex digits".into())),
    }
}

fn alive_key(node: &NodeName) -> String {
    format!("dara:node:{node}:alive")
}

fn redis_error(e: redis::RedisError) -> StoreError {
    StoreError::Redis(e.to_string())
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("stored types serialise")
}
