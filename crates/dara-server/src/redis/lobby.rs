//! The lobby of a cluster: the open tables of every node, in one Redis hash (`dara:lobby`,
//! game id → table), so that a visitor of any node sees them all and "play anyone" pairs two
//! people whichever nodes they reached.
//!
//! Each node keeps a copy of the hash for its lobby sockets and reads it again whenever a node
//! announces a change on the `dara:lobby:changed` channel (see [`inbox`](super::inbox)).
//! Pairing takes the table that has waited longest with `HDEL`: of two nodes that pick the same table at once, only the
//! one whose `HDEL` removed it seats its seeker there. A table whose game has left Redis (it
//! ended its life on a node that died) is dropped from the hash when it is next read.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;

use dara::{Colour, Ruleset};
use dara_table::clock::TimeControl;
use dara_table::wire::OpenTable;
use serde::{Deserialize, Serialize};

use super::keys::{meta_key, TABLES, TABLES_CHANGED};
use super::{Failed, Redis};
use crate::browser::BrowserId;
use crate::lobby::{Listed, SharedList};
use crate::seat::GameId;

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

/// The cluster's shared list of tables, as this node reaches it.
impl SharedList for Redis {
    fn open(&self, listed: &Listed) {
        let Listed { table, opener, since } = listed;
        let stored = StoredTable {
            rules: table.rules,
            clock: table.clock,
            seat: table.seat,
            opener: opener.clone(),
            since: *since,
        };
        let text = serde_json::to_string(&stored).expect("tables serialise");
        // In the background: the lobby is only an offer.
        self.change_shared_list((TABLES, TABLES_CHANGED), &table.game, Some(text));
    }

    fn close(&self, game: &GameId) {
        self.change_shared_list((TABLES, TABLES_CHANGED), game, None);
    }

    fn take<'a>(&'a self, game: &'a GameId) -> Pin<Box<dyn Future<Output = bool> + Send + 'a>> {
        Box::pin(async move {
            let mut conn = self.uncounted();
            let mut pipe = redis::pipe();
            pipe.cmd("HDEL").arg(TABLES).arg(game.as_str());
            pipe.cmd("PUBLISH").arg(TABLES_CHANGED).arg(1).ignore();
            matches!(pipe.query_async::<(i64,)>(&mut conn).await, Ok((1,)))
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
