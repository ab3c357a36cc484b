//! Several nodes over Redis (`dara serve --redis URL --node-id NAME`): any node serves any
//! socket, and each live game is run by exactly one node at a time, the holder of its lease.
//!
//! - The games are kept in Redis ([`crate::store::redis`]): each event is written there,
//!   fenced by the lease's epoch, before anyone is told of it.
//! - A socket that reaches a node which does not run its game is relayed to the node that
//!   does ([`relay`]).
//! - A node says it is alive every second, which keeps the leases of all its games; one that
//!   dies loses them within [`LEASE`], and the next socket for one of its games, on any node,
//!   takes the game up from Redis.
//! - A node that stops (SIGTERM) gives its leases up as it closes its sockets with 1012, so its
//!   games move on at once.

pub mod limits;
pub mod lobby;
mod node;
pub mod relay;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};

use axum::extract::ws::Message;
use futures_util::StreamExt;

pub use node::{BadNodeName, NodeName};

use crate::game::GameHandle;
use crate::seat::{GameId, SeatKey};
use crate::state::{AppState, Shared};
use crate::store::redis::{Redis, Whereabouts, LEASE, RENEW_EVERY, TOUCH_EVERY};
use crate::store::StoreError;

/// This node's part in a cluster.
#[derive(Debug)]
pub struct Cluster {
    /// The games' store, and this node's leases.
    pub redis: Redis,
    /// Sockets relayed to and from other nodes.
    pub hub: Arc<relay::Hub>,
    client: redis::Client,
    /// One takeover at a time on this node: two sockets that arrive together for a game whose
    /// node died take it up once.
    taking: tokio::sync::Mutex<()>,
    /// Whether this node's inbox is listened to.
    inbox: AtomicBool,
    /// Whether Redis has answered a renewal within the last lease.
    renewing: AtomicBool,
    /// Rung when the cluster's tables changed.
    lobby_stale: Arc<tokio::sync::Notify>,
    /// Games per client address, across the nodes.
    pub games: limits::GameCounts,
    /// Seats taken at open tables per client address, across the nodes.
    pub seats: limits::SeatCounts,
}

/// Where a socket for a game is to be served.
#[derive(Debug)]
pub enum Route {
    /// This node runs the game.
    Here(GameHandle),
    /// Another node runs it.
    There(NodeName),
    /// Nobody has it: it ended its life, or never was.
    Gone,
    /// It cannot be known now (Redis unreachable, or the game's lease is still held by a
    /// node that has just died): the page is to try again shortly.
    NotNow,
}

impl Cluster {
    /// Joins the cluster whose Redis is at `url`, as node `name`; gives the cluster's seat key.
    ///
    /// # Errors
    /// Redis cannot be reached.
    pub async fn join(url: &str, name: &NodeName) -> Result<(Cluster, SeatKey), StoreError> {
        let client = redis::Client::open(url).map_err(|e| StoreError::Redis(e.to_string()))?;
        // A new name for each process: a node restarted under the same name is a new node,
        // and the games of the one before it are free at once.
        let node = name.incarnation();
        let (redis, key) = Redis::connect(url, node.clone()).await?;
        redis.say_alive().await?;
        let hub = Arc::new(relay::Hub::new(node, redis.connection()));
        let conn = redis.connection();
        let cluster = Cluster {
            redis,
            hub,
            client,
            taking: tokio::sync::Mutex::new(()),
            inbox: AtomicBool::new(false),
            renewing: AtomicBool::new(true),
            lobby_stale: Arc::default(),
            games: limits::GameCounts::new(conn.clone(), key.clone()),
            seats: limits::SeatCounts::new(conn, key.clone()),
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
        self.inbox.load(Ordering::Acquire)
            && self.renewing.load(Ordering::Acquire)
            && self.redis.reachable()
    }
}

/// Starts the node's background work: listening to its inbox, renewing its leases and saying
/// it is alive, and mirroring the lobby.
pub fn start(state: &AppState) {
    if let Some(cluster) = &state.cluster {
        state.lobby.share(lobby::SharedTables::new(cluster.redis.connection()));
        tokio::spawn(listen(Arc::downgrade(state)));
        tokio::spawn(renew(Arc::downgrade(state)));
        tokio::spawn(mirror_lobby(Arc::downgrade(state)));
    }
}

/// Where the socket for game `id` is to be served; takes the game up here if its node is gone.
pub async fn route(state: &AppState, id: &GameId) -> Route {
    if let Some(handle) = state.game(id) {
        return Route::Here(handle);
    }
    let Some(cluster) = &state.cluster else { return Route::Gone };
    let _one_at_a_time = cluster.taking.lock().await;
    if let Some(handle) = state.game(id) {
        return Route::Here(handle);
    }
    match cluster.redis.find(id).await {
        Ok(Whereabouts::Gone) => Route::Gone,
        Ok(Whereabouts::Held(node)) => Route::There(node),
        Ok(Whereabouts::Taken(stored)) => match crate::game::restore(state, stored) {
            Ok(handle) => {
                state.metrics.takeovers.inc();
                tracing::info!(game = %id, "game taken up from Redis");
                Route::Here(handle)
            }
            Err(e) => {
                tracing::error!(game = %id, "a game in Redis cannot be taken up: {e}");
                cluster.redis.release(id).await;
                Route::NotNow
            }
        },
        Err(e) => {
            tracing::warn!(game = %id, "cannot find the game's node: {e}");
            Route::NotNow
        }
    }
}

/// Whether the game `id` is live anywhere in the cluster.
pub async fn exists(state: &AppState, id: &GameId) -> bool {
    if state.game(id).is_some() {
        return true;
    }
    match &state.cluster {
        // A Redis that cannot answer now is no reason to tell a player the game is gone.
        Some(cluster) => cluster.redis.exists(id).await.unwrap_or(true),
        None => false,
    }
}

/// Listens to this node's inbox for as long as the node runs, and serves the sockets other
/// nodes relay here.
async fn listen(state: Weak<Shared>) {
    loop {
        let Some((client, hub, node)) = state.upgrade().and_then(|s| {
            s.cluster.as_ref().map(|c| (c.client.clone(), c.hub.clone(), c.node().clone()))
        }) else {
            return;
        };
        match subscribe(&client, &node).await {
            Ok(mut messages) => {
                set_inbox(&state, true);
                refresh_lobby(&state);
                while let Some(message) = messages.next().await {
                    if message.get_channel_name() == lobby::CHANGED {
                        refresh_lobby(&state);
                        continue;
                    }
                    let Some(delivered) = hub.deliver(message.get_payload_bytes()) else {
                        continue;
                    };
                    let Some(state) = state.upgrade() else { return };
                    match delivered {
                        relay::Delivered::Socket(opened) => {
                            tokio::spawn(crate::ws::serve_relayed(state, opened));
                        }
                        relay::Delivered::Sit { game, hash, mut answer } => {
                            tokio::spawn(async move {
                                let sat = match state.game(&game) {
                                    Some(handle) => handle.sit(hash).await,
                                    None => None,
                                };
                                let word = relay::sat_word(sat);
                                answer.send(vec![Message::Text(word.into())]).await;
                            });
                        }
                    }
                }
                tracing::warn!("the node's inbox in Redis was lost: reconnecting");
            }
            Err(e) => tracing::warn!("cannot listen to the node's inbox in Redis: {e}"),
        }
        // Most often Redis itself has gone: games refuse turns from now on, not only once a
        // write or the next renewal has failed (the next round trip that succeeds says so).
        if let Some(cluster) = state.upgrade().as_ref().and_then(|s| s.cluster.as_ref()) {
            cluster.redis.unreachable();
        }
        set_inbox(&state, false);
        // What was in flight may be lost: every relayed socket reconnects.
        hub.drop_all();
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
}

async fn subscribe(
    client: &redis::Client,
    node: &NodeName,
) -> redis::RedisResult<redis::aio::PubSubStream> {
    let mut pubsub = client.get_async_pubsub().await?;
    pubsub.subscribe(relay::inbox(node)).await?;
    pubsub.subscribe(lobby::CHANGED).await?;
    Ok(pubsub.into_on_message())
}

/// Reads the cluster's tables again into this node's lobby, once at a time: changes that come
/// while a read is under way are seen by the read after it.
fn refresh_lobby(state: &Weak<Shared>) {
    let Some(state) = state.upgrade() else { return };
    let Some(cluster) = &state.cluster else { return };
    cluster.lobby_stale.notify_one();
}

/// Keeps this node's lobby a copy of the cluster's.
async fn mirror_lobby(state: Weak<Shared>) {
    loop {
        let Some(notify) =
            state.upgrade().and_then(|s| s.cluster.as_ref().map(|c| c.lobby_stale.clone()))
        else {
            return;
        };
        notify.notified().await;
        let Some(state) = state.upgrade() else { return };
        let Some(shared) = state.lobby.shared() else { return };
        match shared.read().await {
            Ok(tables) => state.lobby.replace(tables),
            Err(e) => tracing::warn!("the lobby could not be read from Redis: {e}"),
        }
    }
}

fn set_inbox(state: &Weak<Shared>, listened: bool) {
    if let Some(cluster) = state.upgrade().as_ref().and_then(|s| s.cluster.as_ref()) {
        cluster.inbox.store(listened, Ordering::Release);
    }
}

/// Says every [`RENEW_EVERY`] that this node is alive, which keeps every game's lease it holds.
/// A node that finds it had lapsed (it was paused, or cut off from Redis, for longer than a
/// lease) gives every game up at once, its sockets told to reconnect: other nodes may have
/// taken them, and those that nobody took are taken up again by whoever comes.
async fn renew(state: Weak<Shared>) {
    let mut last_renewed = tokio::time::Instant::now();
    let mut last_touched = tokio::time::Instant::now();
    loop {
        tokio::time::sleep(RENEW_EVERY).await;
        let Some(state) = state.upgrade() else { return };
        let Some(cluster) = &state.cluster else { return };
        match cluster.redis.say_alive().await {
            Ok(still) => {
                last_renewed = tokio::time::Instant::now();
                if !still {
                    let games = cluster.redis.forget_leases();
                    tracing::warn!(games = games.len(), "this node lapsed: it gives its games up");
                    for game in games {
                        if let Some(handle) = state.game(&game) {
                            handle.hand_over();
                        }
                    }
                }
            }
            Err(e) => tracing::warn!("cannot say this node is alive: {e}"),
        }
        cluster.renewing.store(last_renewed.elapsed() < LEASE, Ordering::Release);
        if last_touched.elapsed() >= TOUCH_EVERY {
            last_touched = tokio::time::Instant::now();
            if let Err(e) = cluster.redis.touch().await {
                tracing::warn!("the games' keys could not be touched: {e}");
            }
        }
        look_at_owners(cluster).await;
    }
}

/// Closes the sockets carried to nodes that have stopped saying they are alive.
async fn look_at_owners(cluster: &Cluster) {
    let owners = cluster.hub.owners();
    match cluster.redis.alive(&owners).await {
        Ok(alive) => {
            for (owner, alive) in owners.iter().zip(alive) {
                if !alive {
                    tracing::info!(%owner, "a node stopped answering: its sockets here reconnect");
                    cluster.hub.drop_owner(owner);
                }
            }
        }
        Err(e) => tracing::warn!("cannot tell which nodes are alive: {e}"),
    }
}
