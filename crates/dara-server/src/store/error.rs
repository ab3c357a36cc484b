//! Why the store cannot be used, whichever store it is.

use std::path::PathBuf;

use super::sqlite::schema::STORE_FORMAT;

/// Why the store cannot be used.
#[derive(Debug)]
pub enum StoreError {
    /// Another process holds the data directory.
    Locked(PathBuf),
    /// The store was written by a later release.
    TooNew {
        /// Its format.
        found: i64,
    },
    /// Reading or writing the directory failed.
    Io(PathBuf, std::io::Error),
    /// The journal lacks commits that were acknowledged, or holds other lines than were
    /// committed (see `sqlite::mark`): what is missing, naming the files.
    JournalLost(String),
    /// The seat key's file is gone while the store holds live games: every seat of theirs was
    /// hashed with that key, so a new one would orphan them all.
    SeatKeyMissing {
        /// The file.
        path: PathBuf,
        /// How many live games the store holds.
        games: usize,
    },
    /// The cluster's seat key (`dara:seat-key`) is gone from Redis while Redis holds live
    /// games: as [`StoreError::SeatKeyMissing`], a new key would orphan every seat of theirs.
    ClusterSeatKeyMissing {
        /// The key's name, as Redis has it.
        key: &'static str,
        /// How many live games Redis holds.
        games: usize,
    },
    /// SQLite failed.
    Sqlite(rusqlite::Error),
    /// A stored row does not read.
    Corrupt(String),
    /// A commit failed because the disk (or the database's room on it) is full: nothing of it
    /// was kept, and the next may succeed once there is room.
    Full(String),
    /// A commit failed for another reason (an I/O error, a failed sync): nothing of it is
    /// counted as kept. Its outcome is known to this process, whatever reached the disk: SQLite
    /// moves its log's index on (what every later read and write of this connection goes by)
    /// only once a commit's frames are written and synced, and takes the commit back
    /// otherwise; the next commit writes over those frames. So the store reads what the game
    /// goes back to (`Game::roll_back`: the journal it had kept), and the two never disagree
    /// (`tests/faults.rs`, `a_failed_commit_leaves_nothing_…`). A crash before the next commit
    /// may leave the frames of a failed sync in the log, whole, where the next start would read
    /// them as kept: so a failed commit puts the journal's mark in doubt, and the start takes
    /// back any commit after the marked one (`a_commit_whose_sync_failed_…`).
    Unwritten(String),
    /// The store has been closed (the server is stopping).
    Closed,
    /// Redis failed, or cannot be reached.
    Redis(String),
    /// Redis refused a write: the game's lease is another node's now (this one was away), or
    /// its journal is not where this node thought.
    Fenced(String),
    /// Redis refused to run a write at all, for want of memory (`OOM`), because it cannot save
    /// (`MISCONF`) or because it is a replica (`READONLY`): nothing of it was kept, and the
    /// next may be once Redis is put right.
    Refused(String),
}

impl StoreError {
    /// Whether the write may have been kept all the same: Redis's answer never came (a round
    /// trip that failed or timed out after the write was sent). A refusal, a full disk or a
    /// closed store keeps nothing, and a failed commit of the data directory is taken back by
    /// SQLite before it answers (see [`StoreError::Unwritten`]).
    pub fn outcome_unknown(&self) -> bool {
        matches!(self, StoreError::Redis(_))
    }
}

impl core::fmt::Display for StoreError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            StoreError::Locked(dir) => write!(
                f,
                "another dara server is using the data directory {} (stop it, or give this one \
                 another --data-dir)",
                dir.display()
            ),
            StoreError::TooNew { found } => write!(
                f,
                "the store was written by a later release (format {found}; this one reads up to \
                 {STORE_FORMAT})"
            ),
            StoreError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            StoreError::JournalLost(what) => write!(
                f,
                "{what}. Nothing is served from a store that is not whole: put the directory back \
                 from a backup, or start with --accept-loss to serve what is left (the games that \
                 may have lost turns are then named in the log)"
            ),
            StoreError::SeatKeyMissing { path, games } => write!(
                f,
                "{}: the seat key is missing, and the store holds {games} live games whose seats \
                 were hashed with it (a new key would lock every player out of them): put the \
                 file back from a backup, or move the data directory aside to start empty",
                path.display()
            ),
            StoreError::ClusterSeatKeyMissing { key, games } => write!(
                f,
                "Redis has no seat key ({key}), and holds {games} live games whose seats were \
                 hashed with it (a new key would lock every player out of them): put the key back \
                 from a backup of Redis, or delete the games' keys (dara:{{*}}) to start empty"
            ),
            StoreError::Sqlite(e) => write!(f, "the store: {e}"),
            StoreError::Corrupt(what) => write!(f, "the store holds {what}"),
            StoreError::Full(said) => write!(f, "the disk is full, so nothing was kept ({said})"),
            StoreError::Unwritten(said) => {
                write!(f, "a commit failed, so nothing was kept ({said})")
            }
            StoreError::Closed => f.write_str("the store is closed"),
            StoreError::Redis(e) => write!(f, "Redis: {e}"),
            StoreError::Fenced(e) => write!(f, "Redis refused the write: {e}"),
            StoreError::Refused(e) => write!(f, "Redis would not take the write now: {e}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl StoreError {
    /// Whether this is a commit the store could not make now but may make later, knowing that
    /// nothing of it was kept (a full disk, an I/O error, Redis refusing writes): the games
    /// pause rather than end.
    pub fn is_a_pause(&self) -> bool {
        matches!(self, StoreError::Full(_) | StoreError::Unwritten(_) | StoreError::Refused(_))
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Sqlite(e)
    }
}
