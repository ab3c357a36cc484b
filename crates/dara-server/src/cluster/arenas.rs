//! Arenas whose node died, taken up by the nodes that live: unlike a game, which waits for its
//! next socket, an arena pairs on its own clock, so every node looks every [`LOOK_EVERY`] for
//! arenas whose holder is no longer alive, and the first to take one (a fenced takeover, a new
//! epoch) runs it from its journal in Redis (see `crate::arena::cluster`).

use std::collections::HashSet;
use std::sync::Weak;
use std::time::Duration;

use crate::arena::ArenaId;
use crate::state::Shared;

/// How often a node looks for arenas whose node died.
pub const LOOK_EVERY: Duration = Duration::from_secs(1);

/// How long the lease of an arena just taken up lasts by itself: its writes keep it longer.
const TAKEN_FOR: Duration = Duration::from_secs(24 * 3600);

/// Looks for arenas whose node died, for as long as the node runs, and takes them up here.
pub async fn take_up_lapsed(state: Weak<Shared>) {
    loop {
        tokio::time::sleep(LOOK_EVERY).await;
        let Some(state) = state.upgrade() else { return };
        let Some(cluster) = &state.cluster else { return };
        // A node that may have lapsed takes nothing up (see `Cluster::sure_alive`).
        if *state.stopping.borrow() || !cluster.sure_alive() {
            continue;
        }
        let lapsed = match cluster.redis.lapsed_arenas().await {
            Ok(lapsed) => lapsed,
            Err(e) => {
                tracing::warn!("cannot look for arenas whose node died: {e}");
                continue;
            }
        };
        for id in lapsed {
            let Some(arena) = ArenaId::parse(&id) else { continue };
            // Run here. (One held here that is not stopped when a write of its was refused,
            // as after a write lost while Redis did not answer: taken up again, from Redis.)
            if state.arenas.get(&arena).is_some() {
                continue;
            }
            let (stored, lease) = match cluster.redis.take_arena(&id, TAKEN_FOR).await {
                Ok(Some(taken)) => taken,
                Ok(None) => continue,
                Err(e) => {
                    tracing::warn!(arena = %id, "an arena whose node died could not be taken: {e}");
                    continue;
                }
            };
            let Some(mut restored) = crate::arena::restore(&state, &state.arenas, stored) else {
                continue;
            };
            restored.kept_in_redis(cluster.redis.clone(), lease);
            // Its games are read from Redis wherever they run: none is lost for not being here.
            let live: HashSet<_> = restored.followed().into_iter().map(|(game, _)| game).collect();
            restored.run(&live);
            tracing::info!(arena = %id, "arena taken up from Redis: its node died");
        }
    }
}
