//! "Play anyone", one seeker at a time in each pool (the pool is the ruleset: a seeker plays on
//! the waiting table's clock, whatever their own).
//!
//! Two seekers with the same rules who arrive together must find each other. Without more,
//! each would look for a table, find none (the other's is not made yet, and in a cluster each
//! node's copy of the list lags behind the shared one), open a table of their own, and wait
//! there forever. So a seeker first holds their pool ([`Lobby::pairing`]): on this node a lock
//! for the rules, and in a cluster the pool's hold in Redis too. Holding it, they read the
//! tables afresh (in a cluster from Redis, not this node's copy), take the longest-waiting table
//! not opened by their own browser, and if there is none, open their own table and list it at
//! once ([`Lobby::list_now`]), before the hold is given back: the next seeker finds it.
//!
//! A table listed before its opener's page has connected stays listed, and may be sat at, for
//! `config::OPENER_EXPECTED_WITHIN` (see `game::start::Listing::AtOnce`); then it is listed
//! only while they are connected, as every open table is.
//!
//! Pairing never fails for want of the hold: if the cluster's cannot be had within
//! [`POOL_WAIT`], or Redis fails, the seeker is paired as before, from this node's copy of the
//! list. The game still decides who sits (`GameHandle::sit`), so nobody is seated twice either
//! way; without the hold, two seekers may only miss each other.

use std::time::Duration;

use dara::Ruleset;
use dara_table::wire::OpenTable;
use tokio::time::Instant;

use super::{longest_waiting, Lobby, SharedList};
use crate::browser::BrowserId;
use crate::one_at_a_time::Held;
use crate::seat::GameId;

/// How long a seeker waits for the cluster's hold on their pool before they are paired without
/// it. A pairing holds it for a few round trips to Redis, so this is a long queue, or a node
/// that died holding it (the hold then lapses by itself): better a seeker who may miss another
/// than one who waits on.
pub const POOL_WAIT: Duration = Duration::from_secs(3);

/// The first pause before asking again for a hold someone else has; it doubles after each ask,
/// up to [`LONGEST_PAUSE`].
const FIRST_PAUSE: Duration = Duration::from_millis(5);

/// The longest pause between two asks: a hold is given back within a few milliseconds, and a
/// seeker should not sleep long past it.
const LONGEST_PAUSE: Duration = Duration::from_millis(50);

/// Who holds a pool in the cluster: a random number for each seeker, so that a seeker whose
/// hold lapsed (they took longer than a hold lasts) never gives back the next one's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Holder(u128);

impl Holder {
    /// A new one.
    pub fn random() -> Holder {
        Holder(rand::random())
    }
}

impl std::fmt::Display for Holder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

/// What asking for a pool's hold in the cluster gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hold {
    /// It is ours.
    Held,
    /// Someone else has it.
    Busy,
    /// The cluster could not be asked (Redis failed).
    Failed,
}

/// A seeker's hold on their pool: while it lasts, no other seeker with the same rules is paired
/// on this node, nor, when the cluster's hold could be had, on any node.
#[derive(Debug)]
pub struct Pairing<'a> {
    lobby: &'a Lobby,
    rules: Ruleset,
    /// The cluster's hold, when it could be had: the tables are then read from the shared
    /// list.
    shared: Option<(&'a dyn SharedList, Holder)>,
    /// This node's lock on the pool.
    _here: Held<Ruleset>,
}

impl Lobby {
    /// Waits until no other seeker with `rules` is being paired, on this node and (for at most
    /// [`POOL_WAIT`]) in the cluster, and holds the pool.
    pub async fn pairing(&self, rules: Ruleset) -> Pairing<'_> {
        let here = self.pools.one(&rules).await;
        let shared = match self.shared.get() {
            Some(shared) => hold(&**shared, rules).await.map(|holder| (&**shared, holder)),
            None => None,
        };
        Pairing { lobby: self, rules, shared, _here: here }
    }
}

/// Asks for the cluster's hold on pool `rules` until it is had or [`POOL_WAIT`] has passed,
/// pausing a little longer after each ask (with a random part, so that seekers on several
/// nodes do not ask in step).
async fn hold(shared: &dyn SharedList, rules: Ruleset) -> Option<Holder> {
    let holder = Holder::random();
    let given_up_at = Instant::now() + POOL_WAIT;
    let mut pause = FIRST_PAUSE;
    loop {
        match shared.hold(rules, holder).await {
            Hold::Held => return Some(holder),
            Hold::Failed => return None,
            Hold::Busy => {}
        }
        let wait = pause.mul_f64(1.0 + rand::random::<f64>() / 2.0);
        if Instant::now() + wait >= given_up_at {
            tracing::warn!(%rules, "the pool's hold was not had in time: paired without it");
            return None;
        }
        tokio::time::sleep(wait).await;
        pause = (pause * 2).min(LONGEST_PAUSE);
    }
}

impl Pairing<'_> {
    /// Takes the listed table with these rules that has waited longest, whatever its clock,
    /// and not opened by `seeker`'s browser, off every node's list, for the seeker to sit at.
    /// Holding the cluster's hold, the tables are read afresh from the shared list; without
    /// it (or if the read fails), from this node's copy ([`Lobby::pair`]).
    pub async fn pair(&self, seeker: Option<&BrowserId>) -> Option<GameId> {
        let Some((shared, _)) = self.shared else {
            return self.lobby.pair(self.rules, seeker).await;
        };
        loop {
            let Some(tables) = shared.read().await else {
                return self.lobby.pair(self.rules, seeker).await;
            };
            let id = longest_waiting(&tables, self.rules, seeker)?;
            self.lobby.unlist_here(&id);
            if shared.take(&id).await {
                return Some(id);
            }
            // It left the list since it was read (its opener went away): read it again.
        }
    }

    /// Lists the seeker's own new table, opened by their browser `opener`, at once: the next
    /// seeker in the pool, on any node, finds it.
    pub async fn list(&self, table: OpenTable, opener: Option<BrowserId>) {
        self.lobby.list_now(table, opener).await;
    }

    /// Gives the pool back, the cluster's hold first (awaited: the next seeker on this node
    /// finds it free).
    pub async fn end(mut self) {
        if let Some((shared, holder)) = self.shared.take() {
            shared.release(self.rules, holder).await;
        }
    }
}

impl Drop for Pairing<'_> {
    /// A pairing dropped before its end (the seeker's own table could not be made) gives the
    /// cluster's hold back in the background.
    fn drop(&mut self) {
        if let Some((shared, holder)) = self.shared.take() {
            tokio::spawn(shared.release(self.rules, holder));
        }
    }
}
