//! One commit as the games and the writer thread share it: the writes gathered for it, and the
//! one answer every request in it waits for.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::{oneshot, Notify};

use super::journal::Gathered;
use crate::store::error::StoreError;

/// Enough writes to share one sync: once this many wait, they are committed without waiting
/// out `COMMIT_SPACING`. At 5,000 turns/s the spacing fills a commit with about 40 turns
/// anyway; at 9,000 a batch is full in 4.4 ms, so a busier server answers sooner for the same
/// cost a turn (the spacing alone held every turn up to 8 ms at any load).
pub(super) const COMMIT_BATCH: usize = 40;

/// What the games and the writer share: the writes gathered for the next commit, and the
/// writer, to wake.
#[derive(Debug, Default)]
pub(super) struct Shared {
    pub(super) pending: Mutex<Pending>,
    pub(super) writer: OnceLock<std::thread::Thread>,
    /// Whether the last commit failed, and when.
    pub(super) failure: Failure,
}

impl Shared {
    pub(super) fn lock(&self) -> MutexGuard<'_, Pending> {
        // A panic elsewhere while the lock was held leaves plain data behind, still whole.
        self.pending.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(super) fn wake_writer(&self) {
        if let Some(writer) = self.writer.get() {
            writer.unpark();
        }
    }
}

/// The writes of the next commit, gathered by the games' threads as they send them: each game
/// encodes its own events into one shared buffer, so that nothing a game allocates is freed by
/// the writer's thread (glibc's allocator takes its slow path for memory freed on another
/// thread, and that was a fifth of durable mode's extra cost).
#[derive(Debug, Default)]
pub(super) struct Pending {
    pub(super) gathered: Gathered,
    /// How many requests wait (one game's writes at once is one request).
    pub(super) requests: usize,
    /// What the requests gathered are told when their commit is done.
    pub(super) outcome: Arc<Outcome>,
    /// The writer waits for a first request (not for a batch to fill): that one wakes it.
    pub(super) idle: bool,
    /// Nothing more is taken: the store closed, or its writer stopped.
    pub(super) closed: bool,
    /// Every handle is gone.
    pub(super) gone: bool,
    /// Someone waits for the store to close.
    pub(super) closing: Option<oneshot::Sender<()>>,
}

/// How long after a failed commit the next write is tried: what would change a game is refused
/// meanwhile (the pages try again by themselves).
pub const RETRY_AFTER: Duration = Duration::from_secs(2);

/// When the last commit failed, if it did and none has succeeded since: read by every turn (is
/// the store writable?), so an atomic beside the lock rather than under it.
#[derive(Debug)]
pub(super) struct Failure {
    /// What the instants are counted from.
    origin: Instant,
    /// Nanoseconds from `origin` to the failure, plus one; 0 while commits succeed.
    at: AtomicU64,
}

impl Default for Failure {
    fn default() -> Failure {
        Failure { origin: Instant::now(), at: AtomicU64::new(0) }
    }
}

impl Failure {
    /// A commit failed now (`true`) or succeeded (`false`).
    pub(super) fn set(&self, failed: bool) {
        let at = if failed {
            u64::try_from(self.origin.elapsed().as_nanos()).unwrap_or(u64::MAX - 1) + 1
        } else {
            0
        };
        self.at.store(at, Ordering::Release);
    }

    /// How long ago the last commit failed, if it did and none has succeeded since.
    pub(super) fn since(&self) -> Option<Duration> {
        match self.at.load(Ordering::Acquire) {
            0 => None,
            at => Some(self.origin.elapsed().saturating_sub(Duration::from_nanos(at - 1))),
        }
    }
}

/// What the requests of one commit wait for: one answer for all of them, where each had its
/// own channel (and its own wake-up from the writer's thread).
#[derive(Debug, Default)]
pub(crate) struct Outcome {
    pub(super) result: OnceLock<Told>,
    told: Notify,
}

/// How a commit ended, as its waiters hear it.
#[derive(Debug)]
pub(super) enum Told {
    Committed,
    /// SQLite refused the commit: whether for want of room, and the error as it said it.
    Failed {
        /// The disk (or the database's room) is full.
        full: bool,
        /// SQLite's words.
        said: String,
    },
    /// The store closed (or its writer stopped) before the commit was made.
    Closed,
}

impl Outcome {
    pub(super) fn closed() -> Arc<Outcome> {
        let outcome = Arc::new(Outcome::default());
        outcome.tell(Told::Closed);
        outcome
    }

    /// Gives the commit's result (only the first one counts) and wakes everyone waiting.
    pub(super) fn tell(&self, result: Told) {
        if self.result.set(result).is_ok() {
            self.told.notify_waiters();
        }
    }

    /// Waits for the commit's result.
    pub(crate) async fn wait(&self) -> Result<(), StoreError> {
        loop {
            let told = self.told.notified();
            tokio::pin!(told);
            // Listening before looking: a result told in between still wakes this.
            told.as_mut().enable();
            match self.result.get() {
                Some(Told::Committed) => return Ok(()),
                Some(Told::Closed) => return Err(StoreError::Closed),
                Some(Told::Failed { full: true, said }) => {
                    return Err(StoreError::Full(said.clone()))
                }
                Some(Told::Failed { full: false, said }) => {
                    return Err(StoreError::Unwritten(said.clone()))
                }
                None => told.await,
            }
        }
    }
}
