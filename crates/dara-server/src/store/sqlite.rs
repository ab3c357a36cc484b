//! The store on disk: one SQLite database in the data directory, written by one thread.
//!
//! Why SQLite (through `rusqlite`, built in with its `bundled` feature): it is the most tested
//! embedded store there is, its file format is stable for decades (so a later release reads
//! what this one wrote), and it gives every property a journal of live games needs without
//! code of our own. WAL mode with `synchronous=FULL`: a commit is on disk (fsynced) when it
//! returns, so a `kill -9` or a power cut loses nothing acknowledged. `secure_delete`: the
//! pages an erased game freed are zeroed, and an hourly `wal_checkpoint(TRUNCATE)` empties the
//! write-ahead log, so an erased game's bytes leave the disk within the hour. Exclusive locking
//! mode: a second server on the same directory is refused at once, not left to corrupt it.
//!
//! Group commit: the games send their writes over a channel; the writer thread takes
//! everything pending, commits it in one transaction (one fsync for many games), then answers
//! each sender. A game waits for that answer before it tells anyone what happened.

use std::fs::OpenOptions;
use std::io::{Read, Write as _};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rusqlite::{params, Connection};
use tokio::sync::oneshot;

use super::record::{GameRecord, StoredGame, StoredSeats};
use super::Write;
use crate::game::GameEvent;
use crate::seat::{GameId, SeatKey};

/// The version of the store's layout (its tables and their serialised columns), kept in the
/// database as SQLite's `user_version`. A release reads every format up to its own.
pub const STORE_FORMAT: i64 = 1;

/// The database's file name in the data directory.
pub const DATABASE: &str = "live-games.sqlite";

/// The seat key's file name in the data directory.
pub const SEAT_KEY: &str = "seat-key";

/// How often the write-ahead log is emptied, so that erased pages leave it.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(60 * 60);

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
    /// SQLite failed.
    Sqlite(rusqlite::Error),
    /// A stored row does not read.
    Corrupt(String),
    /// The store has been closed (the server is stopping).
    Closed,
    /// Redis failed, or cannot be reached.
    Redis(String),
    /// Redis refused a write: the game's lease is another node's now (this one was away), or
    /// its journal is not where this node thought.
    Fenced(String),
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
            StoreError::Sqlite(e) => write!(f, "the store: {e}"),
            StoreError::Corrupt(what) => write!(f, "the store holds {what}"),
            StoreError::Closed => f.write_str("the store is closed"),
            StoreError::Redis(e) => write!(f, "Redis: {e}"),
            StoreError::Fenced(e) => write!(f, "Redis refused the write: {e}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Sqlite(e)
    }
}

/// A handle on the writer thread, cheap to clone.
#[derive(Debug, Clone)]
pub struct Sqlite {
    jobs: mpsc::Sender<Job>,
}

#[derive(Debug)]
enum Job {
    Write(Vec<Write>, oneshot::Sender<Result<(), StoreError>>),
    Close(oneshot::Sender<()>),
}

impl Sqlite {
    /// Opens the store in `dir` (see [`super::Store::open`]) and starts its writer thread.
    pub(super) fn open(dir: &Path) -> Result<(Sqlite, SeatKey, Vec<StoredGame>), StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| StoreError::Io(dir.to_owned(), e))?;
        let conn = connect(dir)?;
        let key = seat_key(&dir.join(SEAT_KEY))?;
        let games = load(&conn)?;
        let (jobs, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("dara-store".into())
            .spawn(move || write_loop(conn, rx))
            .map_err(|e| StoreError::Io(dir.to_owned(), e))?;
        Ok((Sqlite { jobs }, key, games))
    }

    pub(super) fn send(&self, writes: Vec<Write>) -> oneshot::Receiver<Result<(), StoreError>> {
        let (tx, rx) = oneshot::channel();
        // A closed store answers nothing: the receiver reads that as closed.
        let _ = self.jobs.send(Job::Write(writes, tx));
        rx
    }

    pub(super) async fn close(&self) {
        let (tx, rx) = oneshot::channel();
        if self.jobs.send(Job::Close(tx)).is_ok() {
            let _ = rx.await;
        }
    }
}

/// The database, locked for this process, at the current format.
fn connect(dir: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(dir.join(DATABASE))?;
    let locked = |e: rusqlite::Error| match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
            StoreError::Locked(dir.to_owned())
        }
        _ => StoreError::Sqlite(e),
    };
    // Refused at once, not after a wait: a second server should hear so, not hang.
    conn.busy_timeout(Duration::ZERO)?;
    // Exclusive before WAL, so that the log needs no shared memory and the lock, taken by the
    // first write below, is held until this connection closes.
    conn.pragma_update(None, "locking_mode", "EXCLUSIVE").map_err(locked)?;
    conn.pragma_update(None, "journal_mode", "WAL").map_err(locked)?;
    conn.pragma_update(None, "synchronous", "FULL").map_err(locked)?;
    conn.pragma_update(None, "secure_delete", "ON").map_err(locked)?;
    let format: i64 =
        conn.pragma_query_value(None, "user_version", |r| r.get(0)).map_err(locked)?;
    if format > STORE_FORMAT {
        return Err(StoreError::TooNew { found: format });
    }
    conn.execute_batch(
        "BEGIN EXCLUSIVE;
         CREATE TABLE IF NOT EXISTS games (
             id TEXT PRIMARY KEY,
             record TEXT NOT NULL,
             seats TEXT NOT NULL
         ) WITHOUT ROWID;
         CREATE TABLE IF NOT EXISTS events (
             game TEXT NOT NULL,
             v INTEGER NOT NULL,
             event TEXT NOT NULL,
             PRIMARY KEY (game, v)
         ) WITHOUT ROWID;
         PRAGMA user_version = 1;
         COMMIT;",
    )
    .map_err(locked)?;
    Ok(conn)
}

/// The seat key kept in `path`, made on first start (readable by this user only).
fn seat_key(path: &Path) -> Result<SeatKey, StoreError> {
    let io = |e| StoreError::Io(path.to_owned(), e);
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(mut file) => {
            let key = SeatKey::random();
            file.write_all(&key.to_bytes()).map_err(io)?;
            file.sync_all().map_err(io)?;
            Ok(key)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let mut bytes = [0u8; 32];
            std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut bytes)).map_err(io)?;
            Ok(SeatKey::from_bytes(bytes))
        }
        Err(e) => Err(io(e)),
    }
}

/// Every game in the store, with its events in order.
fn load(conn: &Connection) -> Result<Vec<StoredGame>, StoreError> {
    let corrupt = |what: &str, id: &str, e: &dyn std::fmt::Display| {
        StoreError::Corrupt(format!("{what} of game {id} that does not read: {e}"))
    };
    let mut games = Vec::new();
    let mut rows = conn.prepare("SELECT id, record, seats FROM games ORDER BY id")?;
    let mut events = conn.prepare("SELECT v, event FROM events WHERE game = ?1 ORDER BY v")?;
    for row in rows.query_map([], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?))
    })? {
        let (id, record, seats) = row?;
        let game =
            GameId::parse(&id).ok_or_else(|| StoreError::Corrupt(format!("a game id {id:?}")))?;
        let record: GameRecord =
            serde_json::from_str(&record).map_err(|e| corrupt("a record", &id, &e))?;
        let seats: StoredSeats =
            serde_json::from_str(&seats).map_err(|e| corrupt("seats", &id, &e))?;
        let mut journal = Vec::new();
        for (expected, event) in (1..)
            .zip(events.query_map([&id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?)
        {
            let (v, text) = event?;
            if v != expected {
                return Err(corrupt("a journal", &id, &format!("event {expected} is missing")));
            }
            let event: GameEvent =
                serde_json::from_str(&text).map_err(|e| corrupt("an event", &id, &e))?;
            journal.push(event);
        }
        games.push(StoredGame { id: game, record, seats, events: journal });
    }
    Ok(games)
}

/// The writer thread: commits everything pending at once, answers, and empties the log hourly.
fn write_loop(mut conn: Connection, jobs: mpsc::Receiver<Job>) {
    let mut checkpointed = Instant::now();
    loop {
        let wait = CHECKPOINT_EVERY.saturating_sub(checkpointed.elapsed());
        let first = match jobs.recv_timeout(wait) {
            Ok(job) => job,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                checkpoint(&conn);
                checkpointed = Instant::now();
                continue;
            }
            // Every handle is gone: the server has stopped without closing.
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        let mut batch = vec![first];
        batch.extend(jobs.try_iter());
        let mut answers = Vec::new();
        let mut closing = None;
        let mut writes = Vec::new();
        for job in batch {
            match job {
                Job::Write(w, answer) => {
                    writes.extend(w);
                    answers.push(answer);
                }
                Job::Close(done) => {
                    closing = Some(done);
                    // Nothing sent after a close is taken.
                    break;
                }
            }
        }
        let result = commit(&mut conn, &writes);
        if let Err(e) = &result {
            tracing::error!("the store could not commit {} writes: {e}", writes.len());
        }
        for answer in answers {
            let _ = answer.send(match &result {
                Ok(()) => Ok(()),
                Err(e) => Err(StoreError::Corrupt(format!("a failed commit ({e})"))),
            });
        }
        if checkpointed.elapsed() >= CHECKPOINT_EVERY {
            checkpoint(&conn);
            checkpointed = Instant::now();
        }
        if let Some(done) = closing {
            checkpoint(&conn);
            if let Err((_, e)) = conn.close() {
                tracing::error!("closing the store: {e}");
            }
            tracing::info!("the store is closed");
            let _ = done.send(());
            return;
        }
    }
    checkpoint(&conn);
}

/// Moves the log into the database and truncates it to nothing.
fn checkpoint(conn: &Connection) {
    if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(())) {
        tracing::warn!("the store's checkpoint failed: {e}");
    }
}

/// Commits `writes` in one transaction.
fn commit(conn: &mut Connection, writes: &[Write]) -> Result<(), rusqlite::Error> {
    if writes.is_empty() {
        return Ok(());
    }
    let tx = conn.transaction()?;
    for write in writes {
        match write {
            Write::Begin { game, record, seats } => {
                tx.prepare_cached(
                    "INSERT OR REPLACE INTO games (id, record, seats) VALUES (?1, ?2, ?3)",
                )?
                .execute(params![game.as_str(), json(record), json(seats)])?;
            }
            Write::Seats { game, seats } => {
                tx.prepare_cached("UPDATE games SET seats = ?2 WHERE id = ?1")?
                    .execute(params![game.as_str(), json(seats)])?;
            }
            Write::Append { game, v, event } => {
                // A game rewriting its own version would be a bug; replacing keeps one bad
                // write from failing every game's commit.
                tx.prepare_cached(
                    "INSERT OR REPLACE INTO events (game, v, event) VALUES (?1, ?2, ?3)",
                )?
                .execute(params![game.as_str(), *v as i64, json(event)])?;
            }
            Write::Erase { game } => {
                tx.prepare_cached("DELETE FROM events WHERE game = ?1")?
                    .execute([game.as_str()])?;
                tx.prepare_cached("DELETE FROM games WHERE id = ?1")?.execute([game.as_str()])?;
            }
        }
    }
    tx.commit()
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("stored types serialise")
}

/// Whether a game's bytes are anywhere in the store's files: what a test of erasing looks for.
pub fn files_contain(dir: &Path, needle: &[u8]) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return false };
    entries.flatten().any(|entry| {
        std::fs::read(entry.path())
            .is_ok_and(|bytes| bytes.windows(needle.len()).any(|w| w == needle))
    })
}
