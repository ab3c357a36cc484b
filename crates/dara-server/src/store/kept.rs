//! Where live games are kept: the [`Store`] a game writes to (nowhere, the data directory's
//! SQLite database, or Redis), what it held when it was opened ([`Opened`]), and a write on its
//! way to it ([`Committed`]).

use std::path::Path;

use tokio::sync::oneshot;

use super::error::StoreError;
use super::record::{Damaged, StoredGame};
use super::sqlite::{self, Sqlite};
use super::write::{StoredArena, Write};
use crate::redis::Redis;
use crate::seat::SeatKey;

/// Where live games are kept.
#[derive(Debug, Clone)]
pub enum Store {
    /// Nowhere: a restart loses every game.
    Memory,
    /// In an SQLite database in the data directory.
    Sqlite(Sqlite),
    /// In Redis, shared by the nodes of a cluster (see [`crate::redis`]).
    Redis(Redis),
}

/// What the store had when it was opened: its games, and the key their seats are hashed with.
#[derive(Debug)]
pub struct Opened {
    /// The store, ready for writes.
    pub store: Store,
    /// The key for seat tokens.
    pub key: SeatKey,
    /// Every live game it held.
    pub games: Vec<StoredGame>,
    /// The games it held that do not read, each set apart (see [`Damaged`]).
    pub damaged: Vec<Damaged>,
    /// Every arena it kept that is not yet forgotten.
    pub arenas: Vec<StoredArena>,
}

/// A write on its way: awaiting it waits for its commit (at once for [`Store::Memory`]).
#[derive(Debug)]
pub struct Committed(Waiting);

#[derive(Debug)]
enum Waiting {
    Nothing,
    /// The embedded store's commit that takes the write, shared with the other games in it.
    Commit(std::sync::Arc<sqlite::Outcome>),
    /// Redis's answer to this write.
    Reply(oneshot::Receiver<Result<(), StoreError>>),
}

impl Committed {
    /// Waits until the writes are on disk.
    ///
    /// # Errors
    /// The store failed, or has been closed.
    pub async fn wait(self) -> Result<(), StoreError> {
        match self.0 {
            Waiting::Nothing => Ok(()),
            Waiting::Commit(outcome) => outcome.wait().await,
            Waiting::Reply(rx) => rx.await.unwrap_or(Err(StoreError::Closed)),
        }
    }
}

impl Store {
    /// Opens (creating it on first start) the store in the directory `dir`, locked against
    /// every other process until this one closes it.
    ///
    /// # Errors
    /// The directory cannot be made or read, another server holds it, it was written by a
    /// later release, its seat key is missing, or its journal lacks commits that were
    /// acknowledged ([`StoreError::JournalLost`]).
    pub fn open(dir: &Path) -> Result<Opened, StoreError> {
        Store::open_with(dir, false)
    }

    /// [`Store::open`], serving what is left of a journal that lacks acknowledged commits
    /// when `accept_loss` (the operator's `--accept-loss`): the games that may have lost turns
    /// are named in the log.
    ///
    /// # Errors
    /// As [`Store::open`].
    pub fn open_with(dir: &Path, accept_loss: bool) -> Result<Opened, StoreError> {
        let (sqlite, key, (games, damaged), arenas) = Sqlite::open(dir, accept_loss)?;
        Ok(Opened { store: Store::Sqlite(sqlite), key, games, damaged, arenas })
    }

    /// The store as a game begun here writes to it (in a cluster, through the lease its
    /// beginning takes, see [`crate::redis::leases::Lease`]).
    pub fn for_new_game(&self) -> Store {
        match self {
            Store::Redis(redis) => Store::Redis(redis.for_new_game()),
            store => store.clone(),
        }
    }

    /// Whether games outlive the process.
    pub fn is_durable(&self) -> bool {
        matches!(self, Store::Sqlite(_) | Store::Redis(_))
    }

    /// Whether the store can be expected to keep a write now: false while Redis does not
    /// answer (a node of a cluster), or for a moment after the data directory's last commit
    /// failed (a full disk), so that a game refuses a turn instead of playing it and losing it.
    pub fn reachable(&self) -> bool {
        match self {
            Store::Memory => true,
            Store::Sqlite(sqlite) => sqlite.writable(),
            Store::Redis(redis) => redis.reachable(),
        }
    }

    /// Whether saving is paused: the data directory's last commit failed and none has
    /// succeeded since (`/readyz` says so).
    pub fn failing(&self) -> bool {
        match self {
            Store::Sqlite(sqlite) => sqlite.failing(),
            Store::Memory | Store::Redis(_) => false,
        }
    }

    /// Sends `writes`, to be committed together (with whatever other games sent meanwhile), in
    /// order after every write sent before.
    pub fn send(&self, writes: Vec<Write>) -> Committed {
        match self {
            Store::Memory => Committed(Waiting::Nothing),
            Store::Sqlite(sqlite) => Committed(Waiting::Commit(sqlite.send(writes))),
            Store::Redis(redis) => {
                // A cluster keeps no arena (each node runs its own).
                let writes: Vec<Write> =
                    writes.into_iter().filter(|w| !matches!(w, Write::Arena(_))).collect();
                Committed(Waiting::Reply(redis.send(writes)))
            }
        }
    }

    /// How long the embedded store's commits take, sync included (Redis's round trips are
    /// counted by the cluster).
    pub fn commit_seconds(&self) -> Option<&prometheus_client::metrics::histogram::Histogram> {
        match self {
            Store::Sqlite(sqlite) => Some(sqlite.commit_seconds()),
            Store::Memory | Store::Redis(_) => None,
        }
    }

    /// Commits what is pending and closes the store; later writes fail.
    pub async fn close(&self) {
        match self {
            Store::Memory => {}
            Store::Sqlite(sqlite) => sqlite.close().await,
            Store::Redis(redis) => redis.close().await,
        }
    }
}
