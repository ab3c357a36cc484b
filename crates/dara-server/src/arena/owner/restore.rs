//! An arena taken up again at start: its journal replayed from the store, its games' tables
//! found again, its owner started once those games are taken up.

use std::collections::HashSet;
use std::sync::Arc;

use dara_arena::{Arena, ArenaEvent, GameNo, Phase, Settings};

use super::{Boxes, Owner, Shell};
use crate::arena::board::Podium;
use crate::arena::book::{Arenas, Maker, Room};
use crate::arena::cluster::InRedis;
use crate::arena::id::ArenaId;
use crate::arena::wall;
use crate::game::host::Host;
use crate::game::observer::Observer;
use crate::redis::arenas::ArenaLease;
use crate::redis::Redis;
use crate::seat::{GameId, SeatHash};
use crate::store::write::{ArenaWrite, StoredArena, Write};

/// An arena taken up again after a restart, ready to run once its games are taken up: its
/// owner is started by [`ArenaRestored::run`].
pub struct ArenaRestored<H: Host> {
    owner: Owner<H>,
    boxes: Boxes,
}

impl<H: Host> core::fmt::Debug for ArenaRestored<H> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ArenaRestored").field("id", &self.owner.id).finish_non_exhaustive()
    }
}

impl<H: Host> ArenaRestored<H> {
    /// Its games being played, each with where its news go: the observer to give each game
    /// as it is taken up.
    pub fn followed(&self) -> Vec<(GameId, Observer)> {
        self.owner.tables.values().map(|id| (id.clone(), self.owner.observer.clone())).collect()
    }

    /// Keeps it in Redis from now on, through `lease`: taken up on this node of a cluster.
    pub fn kept_in_redis(&mut self, redis: Redis, lease: ArenaLease) {
        self.owner.cluster = Some(InRedis::new(redis, Some(lease)));
    }

    /// Starts its owner, once every stored game was taken up (`live`: those that were): a game
    /// of its being played that is not live (never opened, or lost) is called off.
    pub fn run(self, live: &HashSet<GameId>) {
        let ArenaRestored { owner, boxes } = self;
        let lost: Vec<GameNo> = owner
            .arena
            .games()
            .filter(|g| g.is_playing())
            .filter(|g| !owner.tables.get(&g.game).is_some_and(|id| live.contains(id)))
            .map(|g| g.game)
            .collect();
        tokio::spawn(owner.run(boxes, lost));
    }
}

/// Takes up a kept arena: its journal replayed, entered in `book`. An arena ended more than
/// its keeping ago is erased instead (`None`), as is one that does not read (named in the
/// log).
pub fn restore<H: Host>(
    host: &Arc<H>,
    book: &Arc<Arenas>,
    stored: StoredArena,
) -> Option<ArenaRestored<H>> {
    let erase = |why: &str| {
        tracing::warn!(arena = %stored.id, "a kept arena is not taken up, and is erased: {why}");
        let _ =
            host.store().send(vec![Write::Arena(ArenaWrite::Erase { arena: stored.id.clone() })]);
        None
    };
    let Some(id) = ArenaId::parse(&stored.id) else { return erase("its id does not read") };
    let Ok(settings) = serde_json::from_str::<Settings>(&stored.settings) else {
        return erase("its settings do not read");
    };
    let Ok(shell) = serde_json::from_str::<Shell>(&stored.shell) else {
        return erase("its shell does not read");
    };
    let events: Result<Vec<ArenaEvent>, _> =
        stored.events.iter().map(|e| serde_json::from_str(e)).collect();
    let Ok(events) = events else { return erase("an event does not read") };
    let arena = match Arena::restore(settings, events) {
        Ok(arena) => arena,
        Err(e) => return erase(&e.to_string()),
    };
    let kept = host.config().arena_kept_after;
    if arena.phase() == Phase::Finished && arena.settings().ends() + kept <= wall::now() {
        return erase("it ended over its keeping ago");
    }
    let maker = shell.maker.as_deref().and_then(SeatHash::from_hex).map(|secret| Maker {
        secret,
        // Not kept: a restored private arena counts against no address.
        from: std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED),
    });
    let room = Room { private: usize::MAX, per_address: usize::MAX };
    let (mut owner, handle, boxes) = Owner::new(host, book, id, arena, shell);
    for (no, game) in stored.tables {
        let (no, Some(game)) = (GameNo(no), GameId::parse(&game)) else { continue };
        if owner.arena.game(no).is_some_and(|g| g.is_playing()) {
            owner.tables.insert(no, game.clone());
            owner.numbers.insert(game, no);
        }
    }
    if owner.arena.phase() == Phase::Finished {
        let after = wall::instant(owner.arena.settings().ends() + kept);
        owner.forget_at = Some(after);
        owner.podium = Some(Podium { podium: owner.arena.podium(), uncounted: Vec::new() });
    }
    book.enter(handle.clone(), maker, room).ok()?;
    tracing::info!(arena = %owner.id, "arena taken up");
    Some(ArenaRestored { owner, boxes })
}
