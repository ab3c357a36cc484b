//! Per-address limits across the nodes of a cluster: how many games one client address holds,
//! and how many seats it took at open tables, is counted in Redis as well as on the node it
//! asked, so that spreading requests over the nodes gains nothing. Redis holds a keyed hash of
//! the address (the cluster's seat key), never the address, and each count lapses an hour after
//! its last change: a count left behind by a node that died does not outlive it by long.

use std::net::IpAddr;
use std::time::Duration;

use redis::aio::ConnectionManager;

use crate::seat::{GameId, SeatKey};
use crate::store::redis::{scripts, seated_key};

/// How long a count outlives its last change.
const COUNT_KEPT: Duration = Duration::from_secs(60 * 60);

/// The cluster's count of games per client address.
#[derive(Debug, Clone)]
pub struct GameCounts {
    conn: ConnectionManager,
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
    /// Counts in the Redis `conn` reaches, hashing addresses with `key`.
    pub fn new(conn: ConnectionManager, key: SeatKey) -> GameCounts {
        GameCounts { conn, key }
    }

    fn counter(&self, address: IpAddr) -> String {
        counter(&self.key, address, "games")
    }

    /// Counts a game asked for from `address`, unless it holds `limit` already.
    pub async fn count(&self, address: IpAddr, limit: usize) -> Counted {
        let mut conn = self.conn.clone();
        let counted = scripts::count(&mut conn, &self.counter(address), limit, COUNT_KEPT).await;
        counted_as(counted, "game")
    }

    /// Takes back a game counted for `address` (it was forgotten, or never started).
    pub fn uncount(&self, address: IpAddr) {
        let mut conn = self.conn.clone();
        let counter = self.counter(address);
        tokio::spawn(async move {
            let done = scripts::uncount(&mut conn, &counter).await;
            if let Err(e) = done {
                tracing::warn!("a game could not be uncounted in Redis (it lapses): {e}");
            }
        });
    }
}

/// What a counting script answered: 1 if it counted, 0 if the address holds its limit.
fn counted_as(answer: redis::RedisResult<i64>, what: &str) -> Counted {
    match answer {
        Ok(1) => Counted::Yes,
        Ok(_) => Counted::Full,
        Err(e) => {
            tracing::warn!("a {what} could not be counted in Redis: {e}");
            Counted::Unknown
        }
    }
}

/// The key of `address`'s count of `what`: a keyed hash of the address, never the address.
fn counter(key: &SeatKey, address: IpAddr, what: &str) -> String {
    format!("dara:address:{}:{what}", key.hash(&address.to_string()).to_hex())
}

/// The cluster's count of seats per client address taken at open tables (the lobby's "Sit
/// down" and "play anyone"). Whichever node runs the game when it ends its life takes the
/// count back (the store's erasure reads the counts noted beside the game), so a seat taken
/// through one node at a game run by another is not counted for longer than its game lives.
#[derive(Debug, Clone)]
pub struct SeatCounts {
    conn: ConnectionManager,
    key: SeatKey,
}

impl SeatCounts {
    /// Counts in the Redis `conn` reaches, hashing addresses with `key`.
    pub fn new(conn: ConnectionManager, key: SeatKey) -> SeatCounts {
        SeatCounts { conn, key }
    }

    /// Counts a seat `address` asks for at game `game`, unless it holds `limit` already.
    pub async fn count(&self, address: IpAddr, game: &GameId, limit: usize) -> Counted {
        let mut conn = self.conn.clone();
        let counter = counter(&self.key, address, "seats");
        let seated = seated_key(game);
        let counted = scripts::count_seat(&mut conn, (&counter, &seated), limit, COUNT_KEPT).await;
        counted_as(counted, "seat")
    }

    /// Takes back a seat counted for `address` at `game` that it did not get after all.
    pub fn uncount(&self, address: IpAddr, game: &GameId) {
        let mut conn = self.conn.clone();
        let counter = counter(&self.key, address, "seats");
        let seated = seated_key(game);
        tokio::spawn(async move {
            let done = scripts::uncount_seat(&mut conn, &counter, &seated).await;
            if let Err(e) = done {
                tracing::warn!("a seat could not be uncounted in Redis (it lapses): {e}");
            }
        });
    }
}
