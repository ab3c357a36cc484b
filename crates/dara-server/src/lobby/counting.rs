//! The shell that counts who is here for the lobby once a second, while the server runs: the
//! sockets open (in a cluster, every node's, as last read from Redis) and the games being
//! played (the watch list, which a cluster shares already).

use std::sync::atomic::Ordering;
use std::sync::Arc;

use super::Presence;
use crate::state::AppState;

/// Starts counting, until the server's state is gone.
pub fn start(state: &AppState) {
    let state = Arc::downgrade(state);
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(super::COUNT_EVERY).await;
            let Some(state) = state.upgrade() else { return };
            let here = match &state.cluster {
                Some(cluster) => cluster.here.load(Ordering::Relaxed),
                None => browsers(&state),
            };
            let presence = Presence { here, playing: state.watch.settings() };
            state.lobby.count(presence, tokio::time::Instant::now());
        }
    });
}

/// The sockets this node holds for browsers connected to it (not those another node relays
/// here, whose browser that node counts).
pub fn browsers(state: &AppState) -> u32 {
    let sockets = state.metrics.sockets.get() - state.metrics.relayed_sockets.get();
    u32::try_from(sockets).unwrap_or(0)
}
