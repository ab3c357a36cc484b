//! The lobby of a cluster: the open tables of every node, in one Redis hash (`dara:lobby`,
//! game id → table), so that a visitor of any node sees them all and "play anyone" pairs two
//! people whichever nodes they reached.
//!
//! Each node keeps a copy of the hash for its lobby sockets and reads it again whenever a node
//! announces a change on the `dara:lobby:changed` channel (see [`inbox`](super::inbox)).
//! Pairing takes the table that has waited longest with `HDEL`: of two nodes that pick the same
//! table at once, only the one whose `HDEL` removed it seats its seeker there. A table whose
//! game has left Redis (it ended its life on a node that died) is dropped from the hash when it
//! is next read.
//!
//! A seeker is paired holding their pool (`lobby::pairing`): `SET dara:pairing:<rules> <holder>
//! NX PX` takes the hold, the lease's compare-and-delete script gives it back. Holding it, the
//! seeker reads the hash afresh and lists their own new table before letting go.

use std::collections::BTreeMap;
use std::time::Duration;

use dara::{Colour, Ruleset};
use dara_table::clock::TimeControl;
use dara_table::wire::OpenTable;
use redis::Value;
use serde::{Deserialize, Serialize};

use super::keys::{meta_key, pairing_key, TABLES, TABLES_CHANGED};
use super::{scripts, Failed, Redis};
use crate::browser::BrowserId;
use crate::duration::millis;
use crate::lobby::pairing::{Hold, Holder};
use crate::lobby::{Answer, Listed, SharedList};
use crate::seat::GameId;

/// How long a pool's hold lasts if it is never given back (its node died while pairing): far
/// longer than a pairing's few round trips, even with a slow disk under `appendfsync always`,
/// and short enough that a pool is not held up for long (its seekers are meanwhile paired
/// without it, after `lobby::pairing::POOL_WAIT`).
const POOL_HELD_FOR: Duration = Duration::from_secs(10);

/// A table as Redis holds it.
#[derive(Debug, Serialize, Deserialize)]
struct StoredTable {
    rules: Ruleset,
    clock: Option<TimeControl>,
    seat: Colour,
    /// The browser that opened it (absent in tables listed by a node of an earlier release,
    /// which in turn ignores the field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    opener: Option<BrowserId>,
    /// When it was first listed (see `Listed::since`; 0, the longest wait, in tables listed by
    /// a node of an earlier release).
    #[serde(default)]
    since: u64,
}

/// A listed table as Redis holds it, in JSON.
fn stored(listed: &Listed) -> String {
    let Listed { table, opener, since } = listed;
    let stored = StoredTable {
        rules: table.rules,
        clock: table.clock,
        seat: table.seat,
        opener: opener.clone(),
        since: *since,
    };
    serde_json::to_string(&stored).expect("tables serialise")
}

/// The cluster's shared list of tables, as this node reaches it.
impl SharedList for Redis {
    fn open(&self, listed: &Listed) {
        // In the background: the lobby is only an offer.
        self.change_shared_list((TABLES, TABLES_CHANGED), &listed.table.game, Some(stored(listed)));
    }

    fn list<'a>(&'a self, listed: &'a Listed) -> Answer<'a, bool> {
        Box::pin(async move {
            let mut conn = self.uncounted();
            let mut pipe = redis::pipe();
            pipe.cmd("HSET").arg(TABLES).arg(listed.table.game.as_str()).arg(stored(listed));
            pipe.cmd("PUBLISH").arg(TABLES_CHANGED).arg(1);
            match pipe.query_async::<()>(&mut conn).await {
                Ok(()) => true,
                Err(e) => {
                    tracing::warn!("a table could not be listed in Redis: {e}");
                    false
                }
            }
        })
    }

    fn close(&self, game: &GameId) {
        self.change_shared_list((TABLES, TABLES_CHANGED), game, None);
    }

    fn take<'a>(&'a self, game: &'a GameId) -> Answer<'a, bool> {
        Box::pin(async move {
            let mut conn = self.uncounted();
            let mut pipe = redis::pipe();
            pipe.cmd("HDEL").arg(TABLES).arg(game.as_str());
            pipe.cmd("PUBLISH").arg(TABLES_CHANGED).arg(1).ignore();
            matches!(pipe.query_async::<(i64,)>(&mut conn).await, Ok((1,)))
        })
    }

    fn read(&self) -> Answer<'_, Option<BTreeMap<GameId, Listed>>> {
        Box::pin(async move {
            self.tables()
                .await
                .inspect_err(|e| tracing::warn!("the lobby could not be read from Redis: {e}"))
                .ok()
        })
    }

    fn hold(&self, rules: Ruleset, holder: Holder) -> Answer<'_, Hold> {
        Box::pin(async move {
            let mut conn = self.uncounted();
            let asked = redis::cmd("SET")
                .arg(pairing_key(&rules))
                .arg(holder.to_string())
                .arg("NX")
                .arg("PX")
                .arg(millis(POOL_HELD_FOR))
                .query_async::<Value>(&mut conn)
                .await;
            match asked {
                Ok(Value::Nil) => Hold::Busy,
                Ok(_) => Hold::Held,
                Err(e) => {
                    tracing::warn!("the pool's hold could not be asked of Redis: {e}");
                    Hold::Failed
                }
            }
        })
    }

    fn release(&self, rules: Ruleset, holder: Holder) -> Answer<'static, ()> {
        let mut conn = self.uncounted();
        Box::pin(async move {
            let key = pairing_key(&rules);
            if let Err(e) = scripts::release_now(&mut conn, &key, &holder.to_string()).await {
                // It lapses by itself.
                tracing::warn!("the pool's hold could not be given back in Redis: {e}");
            }
        })
    }
}

impl Redis {
    /// Every node's tables, read afresh; tables whose game has left Redis are dropped.
    ///
    /// # Errors
    /// Redis failed.
    pub async fn tables(&self) -> Result<BTreeMap<GameId, Listed>, Failed> {
        let mut conn = self.uncounted();
        let stored: BTreeMap<String, String> =
            redis::cmd("HGETALL").arg(TABLES).query_async(&mut conn).await?;
        let ids: Vec<GameId> = stored.keys().filter_map(|id| GameId::parse(id)).collect();
        let mut alive = redis::pipe();
        for id in &ids {
            alive.cmd("EXISTS").arg(meta_key(id));
        }
        let alive: Vec<bool> =
            if ids.is_empty() { Vec::new() } else { alive.query_async(&mut conn).await? };
        let mut tables = BTreeMap::new();
        let mut dead = Vec::new();
        for (id, alive) in ids.into_iter().zip(alive) {
            let table = stored
                .get(id.as_str())
                .and_then(|text| serde_json::from_str::<StoredTable>(text).ok());
            match table {
                Some(t) if alive => {
                    let table = OpenTable {
                        game: id.clone(),
                        rules: t.rules,
                        clock: t.clock,
                        seat: t.seat,
                    };
                    tables.insert(id, Listed { table, opener: t.opener, since: t.since });
                }
                _ => dead.push(id),
            }
        }
        if !dead.is_empty() {
            let mut drop = redis::cmd("HDEL");
            drop.arg(TABLES);
            for id in &dead {
                drop.arg(id.as_str());
            }
            drop.query_async::<()>(&mut conn).await?;
        }
        Ok(tables)
    }
}

#[cfg(test)]
mod tests {
    use super::super::node::NodeName;
    use super::super::scratch::Scratch;
    use super::*;

    /// A pool's hold is one holder's at a time, whatever node asks; it is given back only by
    /// its holder, and other pools are not held up by it.
    #[tokio::test]
    async fn a_pool_is_held_by_one_seeker_at_a_time() {
        let scratch = Scratch::start().await;
        let url = scratch.url();
        let node = |name: &str| Redis::connect(&url, NodeName::given(name).unwrap().incarnation());
        let (one, _) = node("n1").await.unwrap();
        let (two, _) = node("n2").await.unwrap();
        let arcade: Ruleset = "arcade".parse().unwrap();
        let other: Ruleset = "jaques".parse().unwrap();
        let (first, second) = (Holder::random(), Holder::random());
        assert_eq!(one.hold(arcade, first).await, Hold::Held);
        assert_eq!(two.hold(arcade, second).await, Hold::Busy);
        assert_eq!(two.hold(other, second).await, Hold::Held, "another pool waits for nobody");
        // Only its holder gives it back (a seeker whose hold lapsed never gives back the next
        // one's). (`Redis::release` itself gives a lease back.)
        SharedList::release(&two, arcade, second).await;
        assert_eq!(two.hold(arcade, second).await, Hold::Busy);
        SharedList::release(&one, arcade, first).await;
        assert_eq!(two.hold(arcade, second).await, Hold::Held);
    }
}
