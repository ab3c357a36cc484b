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
//!
//! The journal is kept in the order it was written (format 2), not by game: a commit of the
//! turns of a hundred games then adds rows to the last page or two of one table, where keyed by
//! game it changed a page for each game, and every changed page is written to the log, synced,
//! and later written again into the database (at 5,000 turns a second that was a third of the
//! server's time). The price is that a game's rows are not found by its id: erasing a game
//! deletes its row in `games` at once, and its events are swept a slice at a time while the
//! writer has nothing else to do (every row whose game is gone), so that they too leave the disk
//! within the hour.

use std::collections::{BTreeMap, HashMap};
use std::fs::OpenOptions;
use std::io::{Read, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, OnceLock};
use std::time::{Duration, Instant};

use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use rusqlite::{params, Connection};
use tokio::sync::oneshot;

use super::record::{GameRecord, StoredGame, StoredSeats};
use super::Write;
use crate::game::GameEvent;
use crate::seat::{GameId, SeatKey};

/// The version of the store's layout (its tables and their serialised columns), kept in the
/// database as SQLite's `user_version`. A release reads every format up to its own.
pub const STORE_FORMAT: i64 = 2;

/// The database's file name in the data directory.
pub const DATABASE: &str = "live-games.sqlite";

/// The seat key's file name in the data directory.
pub const SEAT_KEY: &str = "seat-key";

/// How often the write-ahead log is emptied, so that erased pages leave it. Every sweep
/// has ended by then (see [`SWEEP_EVERY`]).
const CHECKPOINT_EVERY: Duration = Duration::from_secs(30 * 60);

/// The most a commit waits for company: commits are at least this far apart, unless
/// [`COMMIT_BATCH`] writes are waiting sooner. A commit costs the process about 180 us of CPU
/// whatever it carries (the sync, the log's frames, the wake-ups), so under load the spacing
/// sets much of the store's cost. At 5,000 turns/s: 2 ms, 85.7 and 88.6 us a turn; 4 ms, 77.3 us
/// (median of 8); 8 ms, 73.2 us (the same 8 runs, alternating), for 2 ms more before a turn is
/// acknowledged (p50 5.6 ms). A quiet server's commits are further apart than this and wait for
/// nothing.
const COMMIT_SPACING: Duration = Duration::from_millis(8);

/// Enough writes to share one sync: once this many wait, they are committed without waiting
/// out [`COMMIT_SPACING`]. At 5,000 turns/s the spacing fills a commit with about 40 turns
/// anyway; at 9,000 a batch is full in 4.4 ms, so a busier server answers sooner for the same
/// cost a turn (the spacing alone held every turn up to 8 ms at any load).
const COMMIT_BATCH: usize = 40;

/// How often the events of erased games begin to be swept away.
const SWEEP_EVERY: Duration = Duration::from_secs(5 * 60);

/// How many journal rows one slice of a sweep looks at: a few milliseconds of the writer's
/// time, so that the commits waiting behind it hardly notice.
const SWEEP_SLICE: i64 = 4096;

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
    batch: Arc<Batch>,
    /// How long each commit took, its sync included: what a turn waits for beyond the spacing,
    /// and where a slow disk shows first.
    commit_seconds: Histogram,
}

/// The writes sent and not yet taken by the writer, counted by their senders: the writer, waiting
/// for company, is woken once when a batch is full, rather than by every write.
#[derive(Debug, Default)]
struct Batch {
    waiting: AtomicUsize,
    writer: OnceLock<std::thread::Thread>,
}

impl Batch {
    /// Counts one more write, waking the writer when that fills a batch. Counted before it is
    /// sent, so the count is never below what the channel holds.
    fn add(&self) {
        if self.waiting.fetch_add(1, Ordering::AcqRel) + 1 == COMMIT_BATCH {
            if let Some(writer) = self.writer.get() {
                writer.unpark();
            }
        }
    }

    /// Waits until a batch is full or `due` has come, whichever is first.
    fn gather_until(&self, due: Instant) {
        while self.waiting.load(Ordering::Acquire) < COMMIT_BATCH {
            let Some(left) = due.checked_duration_since(Instant::now()) else { return };
            std::thread::park_timeout(left);
        }
    }

    /// The writer took one write.
    fn took_one(&self) {
        self.waiting.fetch_sub(1, Ordering::AcqRel);
    }
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
        let batch = Arc::new(Batch::default());
        // 100 µs to about 1.6 s.
        let commit_seconds = Histogram::new(exponential_buckets(1e-4, 2.0, 15));
        let writer = std::thread::Builder::new()
            .name("dara-store".into())
            .spawn({
                let batch = Arc::clone(&batch);
                let commit_seconds = commit_seconds.clone();
                move || write_loop(conn, rx, &batch, &commit_seconds)
            })
            .map_err(|e| StoreError::Io(dir.to_owned(), e))?;
        // Set before anything is sent: the store is not handed out until this returns.
        let _ = batch.writer.set(writer.thread().clone());
        Ok((Sqlite { jobs, batch, commit_seconds }, key, games))
    }

    pub(super) fn send(&self, writes: Vec<Write>) -> oneshot::Receiver<Result<(), StoreError>> {
        let (tx, rx) = oneshot::channel();
        self.batch.add();
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

    /// How long each commit took so far.
    pub(super) fn commit_seconds(&self) -> &Histogram {
        &self.commit_seconds
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
    let layout = match format {
        // A new store.
        0 => CREATE_GAMES.to_owned() + CREATE_EVENTS,
        // Format 1 kept the events by game and version: the same rows, in the order of
        // their games, become the journal in writing order.
        1 => {
            "ALTER TABLE events RENAME TO events_by_game;".to_owned()
                + CREATE_EVENTS
                + "INSERT INTO events (game, v, event)
                   SELECT game, v, event FROM events_by_game ORDER BY game, v;
               DROP TABLE events_by_game;"
        }
        _ => String::new(),
    };
    conn.execute_batch(&format!(
        "BEGIN EXCLUSIVE; {layout} PRAGMA user_version = {STORE_FORMAT}; COMMIT;"
    ))
    .map_err(locked)?;
    Ok(conn)
}

/// The games: one row each, written when a game begins and when its seats change.
const CREATE_GAMES: &str = "CREATE TABLE games (
    id TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    seats TEXT NOT NULL
) WITHOUT ROWID;";

/// Every game's events, in the order they were written (`seq`, SQLite's row id, grows by one
/// with each row: each row is added to the table's last page).
const CREATE_EVENTS: &str = "CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    v INTEGER NOT NULL,
    event TEXT NOT NULL
);";

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
    // The journal in writing order, gathered by game. A version written twice (which only a
    // bug would do) reads as its last writing, as format 1's replacing insert kept it; the rows
    // of games erased but not yet swept have no game to go to, and are left for the sweep.
    let mut journals: HashMap<String, BTreeMap<i64, String>> = HashMap::new();
    let mut events = conn.prepare("SELECT game, v, event FROM events ORDER BY seq")?;
    for row in events.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))? {
        let (game, v, event): (String, i64, String) = row?;
        journals.entry(game).or_default().insert(v, event);
    }
    let mut games = Vec::new();
    let mut rows = conn.prepare("SELECT id, record, seats FROM games ORDER BY id")?;
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
        for (expected, (v, text)) in (1..).zip(journals.remove(&id).unwrap_or_default()) {
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

/// The writer thread: commits everything pending at once and answers; meanwhile it sweeps
/// away the events of erased games, a slice at a time, and empties the log every half hour.
fn write_loop(
    mut conn: Connection,
    jobs: mpsc::Receiver<Job>,
    batch: &Batch,
    commit_seconds: &Histogram,
) {
    let mut checkpointed = Instant::now();
    let mut sweep = Sweep::default();
    let mut last_commit = Instant::now();
    loop {
        // While a sweep runs, its next slice is taken as soon as no write waits.
        let wait = if sweep.running() {
            Duration::ZERO
        } else {
            sweep.due_in().min(CHECKPOINT_EVERY.saturating_sub(checkpointed.elapsed()))
        };
        let first = match jobs.recv_timeout(wait) {
            Ok(job) => Some(job),
            Err(mpsc::RecvTimeoutError::Timeout) => None,
            // Every handle is gone: the server has stopped without closing.
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        // Commits are spaced at least this far apart, unless a batch fills sooner: what
        // arrives meanwhile shares the next sync, which under load costs as much as everything
        // else the store does. A quiet server's commits are further apart than this anyway, and
        // wait for nothing.
        if first.is_some() {
            batch.gather_until(last_commit + COMMIT_SPACING);
            last_commit = Instant::now();
        }
        let mut answers = Vec::new();
        let mut closing = None;
        let mut writes = Vec::new();
        for job in first.into_iter().chain(jobs.try_iter()) {
            match job {
                Job::Write(w, answer) => {
                    writes.extend(w);
                    answers.push(answer);
                    batch.took_one();
                }
                Job::Close(done) => {
                    closing = Some(done);
                    // Nothing sent after a close is taken.
                    break;
                }
            }
        }
        if writes.iter().any(|w| matches!(w, Write::Erase { .. })) {
            sweep.erased();
        }
        // The slice goes into the same transaction as the writes: one sync for both.
        let slice = sweep.next_slice(&conn);
        let began = Instant::now();
        let result = commit(&mut conn, &writes, slice);
        if !writes.is_empty() {
            commit_seconds.observe(began.elapsed().as_secs_f64());
        }
        if let Err(e) = &result {
            tracing::error!("the store could not commit {} writes: {e}", writes.len());
        } else if let Some(slice) = slice {
            sweep.swept(slice);
        }
        for answer in answers {
            let _ = answer.send(match &result {
                Ok(()) => Ok(()),
                Err(e) => Err(StoreError::Corrupt(format!("a failed commit ({e})"))),
            });
        }
        if checkpointed.elapsed() >= CHECKPOINT_EVERY && !sweep.running() {
            checkpoint(&conn);
            checkpointed = Instant::now();
        }
        if let Some(done) = closing {
            sweep_all(&conn);
            checkpoint(&conn);
            if let Err((_, e)) = conn.close() {
                tracing::error!("closing the store: {e}");
            }
            tracing::info!("the store is closed");
            let _ = done.send(());
            return;
        }
    }
    sweep_all(&conn);
    checkpoint(&conn);
}

/// The sweep of the events of erased games: every [`SWEEP_EVERY`], if a game was erased since
/// the last one began, the journal is gone through from its first row to the last row there
/// was when the sweep began, [`SWEEP_SLICE`] rows at a time.
#[derive(Debug)]
struct Sweep {
    /// The rows still to be looked at, when a sweep runs: from the first up to the last.
    rows: Option<(i64, i64)>,
    began: Instant,
    /// Whether a game was erased since the last sweep began.
    erased: bool,
}

impl Default for Sweep {
    fn default() -> Sweep {
        // A store taken up after a stop may hold the rows of games erased just before it.
        Sweep { rows: None, began: Instant::now(), erased: true }
    }
}

impl Sweep {
    fn running(&self) -> bool {
        self.rows.is_some()
    }

    /// How long until the next sweep may begin.
    fn due_in(&self) -> Duration {
        if self.erased {
            SWEEP_EVERY.saturating_sub(self.began.elapsed())
        } else {
            SWEEP_EVERY
        }
    }

    fn erased(&mut self) {
        self.erased = true;
    }

    /// The rows the next slice looks at, beginning a sweep if one is due.
    fn next_slice(&mut self, conn: &Connection) -> Option<(i64, i64)> {
        if self.rows.is_none() && self.erased && self.began.elapsed() >= SWEEP_EVERY {
            let span = conn.query_row("SELECT min(seq), max(seq) FROM events", [], |r| {
                Ok(r.get::<_, Option<i64>>(0)?.zip(r.get::<_, Option<i64>>(1)?))
            });
            self.rows = span.unwrap_or_else(|e| {
                tracing::warn!("the store's sweep could not begin: {e}");
                None
            });
            self.began = Instant::now();
            self.erased = false;
        }
        let (first, last) = self.rows?;
        Some((first, last.min(first + SWEEP_SLICE - 1)))
    }

    /// The slice from `first` to `upto` is swept.
    fn swept(&mut self, (_, upto): (i64, i64)) {
        self.rows = self.rows.and_then(|(_, last)| (upto < last).then_some((upto + 1, last)));
    }
}

/// Deletes the events of erased games among the rows from `first` to `last`.
fn sweep_slice(conn: &Connection, (first, last): (i64, i64)) -> Result<usize, rusqlite::Error> {
    conn.prepare_cached(
        "DELETE FROM events WHERE seq BETWEEN ?1 AND ?2
             AND game NOT IN (SELECT id FROM games)",
    )?
    .execute([first, last])
}

/// Deletes the events of every erased game at once (the server is stopping).
fn sweep_all(conn: &Connection) {
    if let Err(e) = sweep_slice(conn, (i64::MIN, i64::MAX)) {
        tracing::warn!("the store's sweep failed: {e}");
    }
}

/// Moves the log into the database and truncates it to nothing.
fn checkpoint(conn: &Connection) {
    if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(())) {
        tracing::warn!("the store's checkpoint failed: {e}");
    }
}

/// Commits `writes` in one transaction, with a slice of the sweep if one runs.
fn commit(
    conn: &mut Connection,
    writes: &[Write],
    slice: Option<(i64, i64)>,
) -> Result<(), rusqlite::Error> {
    if writes.is_empty() && slice.is_none() {
        return Ok(());
    }
    let tx = conn.transaction()?;
    if let Some(slice) = slice {
        sweep_slice(&tx, slice)?;
    }
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
                tx.prepare_cached("INSERT INTO events (game, v, event) VALUES (?1, ?2, ?3)")?
                    .execute(params![game.as_str(), *v as i64, json(event)])?;
            }
            // Its events go with the next sweep.
            Write::Erase { game } => {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Seat;

    /// A store in a directory of its own, removed afterwards.
    struct Dir(PathBuf);

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn events_of(conn: &Connection, game: &GameId) -> i64 {
        conn.query_row("SELECT count(*) FROM events WHERE game = ?1", [game.as_str()], |r| r.get(0))
            .unwrap()
    }

    /// A writer waiting for company commits as soon as a batch is full, woken by the write that
    /// fills it, and otherwise when its spacing is up, however few writes wait.
    #[test]
    fn a_full_batch_wakes_the_writer_before_its_spacing_is_up() {
        let batch = Arc::new(Batch::default());
        let _ = batch.writer.set(std::thread::current());
        let senders = std::thread::spawn({
            let batch = Arc::clone(&batch);
            move || {
                std::thread::sleep(Duration::from_millis(50));
                for _ in 0..COMMIT_BATCH {
                    batch.add();
                }
            }
        });
        let began = Instant::now();
        batch.gather_until(began + Duration::from_secs(30));
        assert!(began.elapsed() < Duration::from_secs(20), "woken by the batch, not the spacing");
        assert_eq!(batch.waiting.load(Ordering::Acquire), COMMIT_BATCH);
        senders.join().unwrap();
        for _ in 0..COMMIT_BATCH {
            batch.took_one();
        }

        batch.add();
        let began = Instant::now();
        batch.gather_until(began + Duration::from_millis(30));
        assert!(began.elapsed() >= Duration::from_millis(30), "one write waits out the spacing");
    }

    /// The events of an erased game, spread over several slices and between a live game's,
    /// are swept while the writer runs; the live game's stay, in order.
    #[test]
    fn a_sweep_takes_the_events_of_erased_games_only() {
        let dir = Dir(std::env::temp_dir().join(format!("dara-sweep-{}", std::process::id())));
        std::fs::create_dir_all(&dir.0).unwrap();
        let mut conn = connect(&dir.0).unwrap();
        let (live, erased) = (GameId::random(), GameId::random());
        let settings = crate::game::GameSettings {
            rules: dara::Ruleset::default(),
            opponent: crate::game::Opponent::Friend,
            creator: dara::Colour::White,
            clock: None,
        };
        let seats = dara::ByColour { white: Seat::Open, black: Seat::Open };
        let begin = |game: &GameId| Write::Begin {
            game: game.clone(),
            record: GameRecord::new(&settings, "2026.11.30"),
            seats: StoredSeats::new(&seats),
        };
        commit(&mut conn, &[begin(&live), begin(&erased)], None).unwrap();
        let offer = GameEvent::DrawOffered { by: dara::Colour::White };
        let writes: Vec<Write> = (1..=3 * SWEEP_SLICE as u64)
            .flat_map(|v| {
                [&live, &erased].map(|game| Write::Append {
                    game: game.clone(),
                    v,
                    event: offer.clone(),
                })
            })
            .collect();
        commit(&mut conn, &writes, None).unwrap();
        commit(&mut conn, &[Write::Erase { game: erased.clone() }], None).unwrap();
        assert_eq!(events_of(&conn, &erased), 3 * SWEEP_SLICE, "erasing leaves them to the sweep");

        let mut sweep = Sweep { rows: None, began: Instant::now() - SWEEP_EVERY, erased: true };
        let mut slices = 0;
        while let Some(slice) = sweep.next_slice(&conn) {
            commit(&mut conn, &[], Some(slice)).unwrap();
            sweep.swept(slice);
            slices += 1;
        }
        assert_eq!(slices, 6, "{} rows, {SWEEP_SLICE} a slice", 6 * SWEEP_SLICE);
        assert_eq!(events_of(&conn, &erased), 0);
        assert_eq!(events_of(&conn, &live), 3 * SWEEP_SLICE);
        assert!(sweep.next_slice(&conn).is_none(), "the next sweep waits for the next erasure");
        let games = load(&conn).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].events.len(), 3 * SWEEP_SLICE as usize);
    }
}
