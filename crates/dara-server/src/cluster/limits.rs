//! Per-address limits across the nodes of a cluster: how many games one client address holds,
//! and how many seats it took at open tables, is counted in Redis (`crate::redis::counts`) as
//! well as on the node it asked, so that spreading requests over the nodes gains nothing. Each
//! count lapses an hour after its last change: a count left behind by a node that died does not
//! outlive it by long.

use std::net::IpAddr;
use std::time::Duration;

use crate::redis::{Failed, Redis};
use crate::seat::{GameId, SeatKey};

/// How long a count outlives its last change.
const COUNT_KEPT: Duration = Duration::from_secs(60 * 60);

/// The cluster's count of games per client address.
#[derive(Debug, Clone)]
pub struct GameCounts {
    redis: Redis,
    key: SeatKey,
}

/// Whether a count could be taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counted {
    /// Counted.
    Yes,
    /// The address holds `limit` games already.
    Full,
    /// Redis did not answer: nothing was counted.
    Unknown,
}

impl GameCounts {
    /// Counts through `redis`, hashing addresses with `key`.
    pub fn new(redis: Redis, key: SeatKey) -> GameCounts {
        GameCounts { redis, key }
    }

    /// Counts a game asked for from `address`, unless it holds `limit` already.
    pub async fn count(&self, address: IpAddr, limit: usize) -> Counted {
        let counted = self.redis.count_game((&self.key, address), limit, COUNT_KEPT).await;
        counted_as(counted, "game")
    }

    /// Takes back a game counted for `address` (it was forgotten, or never started).
    pub fn uncount(&self, address: IpAddr) {
        let GameCounts { redis, key } = self.clone();
        tokio::spawn(async move {
            if let Err(e) = redis.uncount_game((&key, address)).await {
                tracing::warn!("a game could not be uncounted in Redis (it lapses): {e}");
            }
        });
    }
}

/// What a count came to: counted, or the address holds its limit.
fn counted_as(answer: Result<bool, Failed>, what: &str) -> Counted {
    match answer {
        Ok(true) => Counted::Yes,
        Ok(false) => Counted::Full,
        Err(e) => {
            tracing::warn!("a {what} could not be counted in Redis: {e}");
            Counted::Unknown
        }
    }
}

/// The cluster's count of seats per client address taken at open tables (the lobby's "Sit
/// down" and "play anyone"). Whichever node runs the game when it ends its life takes the
/// count back (the store's erasure reads the counts noted beside the game), so a seat taken
/// through one node at a game run by another is not counted for longer than its game lives.
#[derive(Debug, Clone)]
pub struct SeatCounts {
    redis: Redis,
    key: SeatKey,
}

impl SeatCounts {
    /// Counts through `redis`, hashing addresses with `key`.
    pub fn new(redis: Redis, key: SeatKey) -> SeatCounts {
        SeatCounts { redis, key }
    }

    /// Counts a seat `address` asks for at game `game`, unless it holds `limit` already.
    pub async fn count(&self, address: IpAddr, game: &GameId, limit: usize) -> Counted {
        let counted = self.redis.count_seat((&self.key, address), game, limit, COUNT_KEPT).await;
        counted_as(counted, "seat")
    }

    /// Takes back a seat counted for `address` at `game` that it did not get after all.
    pub fn uncount(&self, address: IpAddr, game: &GameId) {
        let SeatCounts { redis, key } = self.clone();
        let game = game.clone();
        tokio::spawn(async move {
            if let Err(e) = redis.uncount_seat((&key, address), &game).await {
                tracing::warn!("a seat could not be uncounted in Redis (it lapses): {e}");
            }
        });
    }
}
