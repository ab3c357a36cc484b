//! The games to watch in a cluster: every node's, in one Redis hash (`dara:watch`, game id →
//! game as listed, with the moment its entry lapses), so that `/watch` on any node lists them
//! all.
//!
//! A node writes its own games as they change and says so on `dara:watch:changed`; every node
//! reads the hash again when told, at most once a second (see `cluster::tasks`). An entry is
//! erased when its game ends or is forgotten, and each carries a lapse ([`LAPSE`]) that its node
//! pushes back every [`KEEP_EVERY`]: the games of a node that died leave the list by themselves.

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::keys::{WATCH, WATCH_CHANGED};
use super::{Failed, Redis};
use crate::seat::GameId;
use crate::watch::{Playing, SharedWatch};

/// How long an entry outlives its node's last word about it.
pub const LAPSE: Duration = Duration::from_secs(60);

/// How often a node writes its games again, pushing their lapse back.
pub const KEEP_EVERY: Duration = Duration::from_secs(20);

/// A game as Redis holds it.
#[derive(Debug, Serialize, Deserialize)]
struct Stored {
    #[serde(flatten)]
    playing: Playing,
    /// When the entry lapses, in ms since 1970.
    until_ms: u64,
}

fn now_ms() -> u64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}

fn stored(playing: &Playing) -> String {
    let until_ms = now_ms() + LAPSE.as_millis() as u64;
    let stored = Stored { playing: playing.clone(), until_ms };
    serde_json::to_string(&stored).expect("games to watch serialise")
}

/// The cluster's shared list of games to watch, as this node reaches it.
impl SharedWatch for Redis {
    // In the background: the list is only a view.
    fn show(&self, playing: &Playing) {
        self.change_shared_list((WATCH, WATCH_CHANGED), &playing.game, Some(stored(playing)));
    }

    fn hide(&self, game: &GameId) {
        self.change_shared_list((WATCH, WATCH_CHANGED), game, None);
    }
}

impl Redis {
    /// Writes this node's games again, pushing their lapse back.
    ///
    /// # Errors
    /// Redis failed.
    pub async fn keep_watched(&self, mine: &[Playing]) -> Result<(), Failed> {
        if mine.is_empty() {
            return Ok(());
        }
        let mut set = redis::cmd("HSET");
        set.arg(WATCH);
        for playing in mine {
            set.arg(playing.game.as_str()).arg(stored(playing));
        }
        set.query_async::<()>(&mut self.uncounted()).await?;
        Ok(())
    }

    /// Every node's games to watch, read afresh; lapsed entries are erased.
    ///
    /// # Errors
    /// Redis failed.
    pub async fn watched(&self) -> Result<BTreeMap<GameId, Playing>, Failed> {
        let mut conn = self.uncounted();
        let stored: BTreeMap<String, String> =
            redis::cmd("HGETALL").arg(WATCH).query_async(&mut conn).await?;
        let now = now_ms();
        let mut games = BTreeMap::new();
        let mut lapsed = Vec::new();
        for (id, text) in stored {
            match serde_json::from_str::<Stored>(&text) {
                Ok(s) if s.until_ms > now && s.playing.game.as_str() == id => {
                    games.insert(s.playing.game.clone(), s.playing);
                }
                _ => lapsed.push(id),
            }
        }
        if !lapsed.is_empty() {
            let mut drop = redis::cmd("HDEL");
            drop.arg(WATCH);
            for id in &lapsed {
                drop.arg(id);
            }
            drop.query_async::<()>(&mut conn).await?;
        }
        Ok(games)
    }
}
