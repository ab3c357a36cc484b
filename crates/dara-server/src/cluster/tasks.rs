//! What a node of the cluster does by itself while it runs: it listens to its inbox in Redis
//! (sockets relayed here, seats asked for, the lobby or the games to watch changed), says it is
//! alive and renews its leases, and mirrors the shared lobby and list of games to watch.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};

use axum::extract::ws::Message;
use futures_util::StreamExt;

use super::{relay, Cluster};
use crate::redis::inbox::Heard;
use crate::redis::watch::KEEP_EVERY;
use crate::redis::{LEASE, RENEW_EVERY, TOUCH_EVERY};
use crate::state::{AppState, Shared};

/// Starts the node's background work: listening to its inbox, renewing its leases and saying
/// it is alive, and mirroring the lobby.
pub fn start(state: &AppState) {
    if let Some(cluster) = &state.cluster {
        state.lobby.share(Box::new(cluster.redis.clone()));
        state.watch.share(Box::new(cluster.redis.clone()));
        tokio::spawn(listen(Arc::downgrade(state)));
        tokio::spawn(renew(Arc::downgrade(state)));
        tokio::spawn(watch_owners(Arc::downgrade(state)));
        tokio::spawn(mirror_lobby(Arc::downgrade(state)));
        tokio::spawn(mirror_watch(Arc::downgrade(state)));
        tokio::spawn(count_here(Arc::downgrade(state)));
        tokio::spawn(super::arenas::take_up_lapsed(Arc::downgrade(state)));
    }
}

/// Says once a second how many sockets this node holds, and reads how many the cluster holds,
/// for the lobby's "people here".
async fn count_here(state: Weak<Shared>) {
    loop {
        tokio::time::sleep(crate::lobby::COUNT_EVERY).await;
        let Some(state) = state.upgrade() else { return };
        let Some(cluster) = &state.cluster else { return };
        let mine = crate::lobby::counting::browsers(&state);
        match cluster.redis.count_here(mine).await {
            Ok(total) => cluster.here.store(total, Ordering::Relaxed),
            Err(e) => tracing::warn!("the people here could not be counted in Redis: {e}"),
        }
    }
}

/// Listens to this node's inbox for as long as the node runs, and serves the sockets other
/// nodes relay here.
async fn listen(state: Weak<Shared>) {
    loop {
        let Some((redis, hub)) = state
            .upgrade()
            .and_then(|s| s.cluster.as_ref().map(|c| (c.redis.clone(), c.hub.clone())))
        else {
            return;
        };
        match redis.listen().await {
            Ok(mut heard) => {
                set_inbox(&state, true);
                refresh_lobby(&state);
                refresh_watch(&state);
                while let Some(heard) = heard.next().await {
                    let letter = match heard {
                        Heard::TablesChanged => {
                            refresh_lobby(&state);
                            continue;
                        }
                        Heard::WatchChanged => {
                            refresh_watch(&state);
                            continue;
                        }
                        Heard::Letter(letter) => letter,
                    };
                    let Some(delivered) = hub.deliver(letter.payload()) else {
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
        let Some(cluster) = &state.cluster else { return };
        match cluster.redis.tables().await {
            Ok(tables) => state.lobby.replace(tables),
            Err(e) => tracing::warn!("the lobby could not be read from Redis: {e}"),
        }
    }
}

/// Reads the cluster's games to watch again soon (see [`mirror_watch`]).
fn refresh_watch(state: &Weak<Shared>) {
    let Some(state) = state.upgrade() else { return };
    let Some(cluster) = &state.cluster else { return };
    cluster.watch_stale.notify_one();
}

/// Keeps this node's list of games to watch a copy of the cluster's, read when a node says it
/// changed but at most once a second (a turn anywhere changes it, and the sockets send it no
/// more often), and every [`KEEP_EVERY`] anyway, when this node also writes its own games again
/// so that they do not lapse.
async fn mirror_watch(state: Weak<Shared>) {
    let mut kept = tokio::time::Instant::now();
    loop {
        let Some(notify) =
            state.upgrade().and_then(|s| s.cluster.as_ref().map(|c| c.watch_stale.clone()))
        else {
            return;
        };
        let _ = tokio::time::timeout(KEEP_EVERY, notify.notified()).await;
        let Some(state) = state.upgrade() else { return };
        let Some(cluster) = &state.cluster else { return };
        if kept.elapsed() >= KEEP_EVERY {
            kept = tokio::time::Instant::now();
            if let Err(e) = cluster.redis.keep_watched(&state.watch.mine()).await {
                tracing::warn!("the games to watch could not be kept in Redis: {e}");
            }
        }
        match cluster.redis.watched().await {
            Ok(games) => state.watch.replace(games),
            Err(e) => tracing::warn!("the games to watch could not be read from Redis: {e}"),
        }
        drop(state);
        tokio::time::sleep(crate::watch::EVERY).await;
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
        let sent = tokio::time::Instant::now();
        match cluster.redis.say_alive().await {
            Ok(still) => {
                // Redis runs a request when it reads it, which may be long after it was sent:
                // one that waited in a paused Redis renews the key after it had lapsed and
                // says "still alive", while another node's request, run first, took this
                // node's games. So a node also counts itself lapsed when a lease went by
                // between the sending of its last renewal that came back and the answer to
                // this one: it cannot know that its games are still its own.
                let gap = last_renewed.elapsed();
                last_renewed = sent;
                if !still || gap >= LEASE {
                    let games = cluster.redis.forget_leases();
                    tracing::warn!(games = games.len(), "this node lapsed: it gives its games up");
                    for game in games {
                        if let Some(handle) = state.game(&game) {
                            state.give_up(&handle);
                        }
                    }
                }
                // Only now, its games given up if it had lapsed, does it serve again.
                cluster.renewed(sent);
            }
            Err(e) => tracing::warn!("cannot say this node is alive: {e}"),
        }
        if last_touched.elapsed() >= TOUCH_EVERY {
            last_touched = tokio::time::Instant::now();
            if let Err(e) = cluster.redis.touch().await {
                tracing::warn!("the games' keys could not be touched: {e}");
            }
        }
    }
}

/// Looks every [`RENEW_EVERY`] at the nodes this one carries sockets to. Apart from the
/// renewals: a look that waits on a paused Redis held the next renewal back with it, and a node
/// whose renewals are few may miss the moment Redis answers between two pauses, so that it
/// serves its games, taken from it meanwhile, for a lease longer than it need.
async fn watch_owners(state: Weak<Shared>) {
    loop {
        tokio::time::sleep(RENEW_EVERY).await;
        let Some(state) = state.upgrade() else { return };
        let Some(cluster) = &state.cluster else { return };
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
