//! Where a game's socket is served in a cluster: here, where the game lives or is taken up, or
//! on the node that holds its lease.

use crate::game::GameHandle;
use crate::redis::leases::Whereabouts;
use crate::redis::node::NodeName;
use crate::seat::GameId;
use crate::state::AppState;
use crate::store::kept::Store;

/// Where a socket for a game is to be served.
#[derive(Debug)]
pub enum Route {
    /// This node runs the game.
    Here(GameHandle),
    /// Another node runs it.
    There(NodeName),
    /// Nobody has it: it ended its life, or never was.
    Gone,
    /// Its record in the store is damaged: it is served to nobody.
    Damaged,
    /// It cannot be known now (Redis unreachable, or the game's lease is still held by a
    /// node that has just died): the page is to try again shortly.
    NotNow,
}

/// Where the socket for game `id` is to be served; takes the game up here if its node is gone.
pub async fn route(state: &AppState, id: &GameId) -> Route {
    if state.is_damaged(id) {
        return Route::Damaged;
    }
    // A node that may have lapsed without knowing it yet serves nothing (see
    // `Cluster::sure_alive`): a life it runs may be older than the game going on elsewhere.
    if state.cluster.as_ref().is_some_and(|cluster| !cluster.sure_alive()) {
        return Route::NotNow;
    }
    if let Some(handle) = state.game(id) {
        return Route::Here(handle);
    }
    let Some(cluster) = &state.cluster else { return Route::Gone };
    let _one_at_a_time = cluster.taking.one(id).await;
    if let Some(handle) = state.game(id) {
        return Route::Here(handle);
    }
    match cluster.redis.find(id).await {
        Ok(Whereabouts::Gone) => Route::Gone,
        Ok(Whereabouts::Held(node)) => Route::There(node),
        Ok(Whereabouts::Taken(stored, store)) => {
            match crate::game::restore(state, stored, Store::Redis(store.clone())) {
                // This node lapsed while it read the game: its renewal forgot every lease, this
                // new one with it, and gave up the games it ran, before this one ran here to be
                // given up. Run on, it would be a life nobody fences: with no turn to write, it
                // served its snapshot, older than the game going on elsewhere, to whoever came.
                Ok(handle) if !store.holds(id) => {
                    tracing::warn!(game = %id, "taken up as this node lapsed: given up again");
                    state.give_up(&handle);
                    Route::NotNow
                }
                Ok(handle) => {
                    state.metrics.takeovers.inc();
                    tracing::info!(game = %id, life = %handle.life(), "game taken up from Redis");
                    Route::Here(handle)
                }
                Err(e) => {
                    tracing::error!(game = %id, "a game in Redis cannot be taken up: {e}");
                    store.release(id).await;
                    Route::NotNow
                }
            }
        }
        Err(e) => {
            tracing::warn!(game = %id, "cannot find the game's node: {e}");
            Route::NotNow
        }
    }
}

/// Whether the game `id` is live anywhere in the cluster.
pub async fn exists(state: &AppState, id: &GameId) -> bool {
    // A damaged game's page is served, for its socket to say why it cannot be played.
    if state.game(id).is_some() || state.is_damaged(id) {
        return true;
    }
    match &state.cluster {
        // A Redis that cannot answer now is no reason to tell a player the game is gone.
        Some(cluster) => cluster.redis.exists(id).await.unwrap_or(true),
        None => false,
    }
}
