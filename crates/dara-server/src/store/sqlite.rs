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
//! Group commit: the games add their writes to what the next commit gathers (each encodes its
//! own events, on its own thread); the writer thread takes everything pending, commits it in
//! one transaction (one fsync for many games), then tells all who wait at once. A game waits
//! for that before it tells anyone what happened.
//!
//! The journal is kept in the order it was written, a row for each commit (format 3): a commit
//! of the turns of a hundred games adds one row at the table's end. Keyed by game (format 1), a
//! commit changed a page for each game, and every changed page was written to the log, synced,
//! and written again into the database (at 5,000 turns a second that was a third of the
//! server's time); a row for each event (format 2) cost a statement for each. The price is
//! that a game's events are not found by its id: erasing a game deletes its row in `games` at
//! once, and its lines are swept out of the journal a slice at a time while the writer has
//! nothing else to do (every line whose game is gone), so that they too leave the disk within
//! the hour.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs::OpenOptions;
use std::io::{Read, Write as _};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use rusqlite::{params, Connection};
use tokio::sync::{oneshot, Notify};

use super::record::{GameRecord, StoredGame, StoredSeats};
use super::Write;
use crate::game::GameEvent;
use crate::seat::{GameId, SeatKey};

/// The version of the store's layout (its tables and their serialised columns), kept in the
/// database as SQLite's `user_version`. A release reads every format up to its own.
pub const STORE_FORMAT: i64 = 3;

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

/// How many journal rows one slice of a sweep looks at: a row is a commit's events (at most
/// about 40 turns under load), so a slice is a few milliseconds of the writer's time, and the
/// commits waiting behind it hardly notice.
const SWEEP_SLICE: i64 = 64;

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

/// A handle on the writer thread, cheap to clone. When the last one is dropped (a runtime
/// that stops without closing the store, as the tests' crash does), the writer commits what is
/// pending and closes the database, which lets another process take the directory.
#[derive(Debug, Clone)]
pub struct Sqlite {
    handle: Arc<Handle>,
    /// How long each commit took, its sync included: what a turn waits for beyond the spacing,
    /// and where a slow disk shows first.
    commit_seconds: Histogram,
}

/// What the games and the writer share: the writes gathered for the next commit, and the
/// writer, to wake.
#[derive(Debug, Default)]
struct Shared {
    pending: Mutex<Pending>,
    writer: OnceLock<std::thread::Thread>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Pending> {
        // A panic elsewhere while the lock was held leaves plain data behind, still whole.
        self.pending.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn wake_writer(&self) {
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
struct Pending {
    gathered: Gathered,
    /// How many requests wait (one game's writes at once is one request).
    requests: usize,
    /// What the requests gathered are told when their commit is done.
    outcome: Arc<Outcome>,
    /// The writer waits for a first request (not for a batch to fill): that one wakes it.
    idle: bool,
    /// Nothing more is taken: the store closed, or its writer stopped.
    closed: bool,
    /// Every handle is gone.
    gone: bool,
    /// Someone waits for the store to close.
    closing: Option<oneshot::Sender<()>>,
}

/// The writes of one commit: the events as journal lines, and the changes to the games.
#[derive(Debug, Default)]
struct Gathered {
    /// The events appended, one line each: `<game> <version> <event as JSON>\n` (JSON holds no
    /// raw line break).
    lines: Vec<u8>,
    /// Beginnings, seats and erasures, in the order sent: a few for each game in its life.
    games: Vec<Write>,
}

impl Gathered {
    fn add(&mut self, write: Write) {
        match write {
            Write::Append { game, v, event } => {
                self.lines.extend_from_slice(game.as_str().as_bytes());
                let _ = write!(self.lines, " {v} ");
                serde_json::to_writer(&mut self.lines, &event).expect("events serialise");
                self.lines.push(b'\n');
            }
            other => self.games.push(other),
        }
    }

    fn is_empty(&self) -> bool {
        self.lines.is_empty() && self.games.is_empty()
    }

    fn erases(&self) -> bool {
        self.games.iter().any(|w| matches!(w, Write::Erase { .. }))
    }

    /// Empties it, keeping its buffer's room for the next commit.
    fn clear(&mut self) {
        self.lines.clear();
        self.games.clear();
    }
}

/// What the requests of one commit wait for: one answer for all of them, where each had its
/// own channel (and its own wake-up from the writer's thread).
#[derive(Debug, Default)]
pub(super) struct Outcome {
    result: OnceLock<Told>,
    told: Notify,
}

/// How a commit ended, as its waiters hear it.
#[derive(Debug)]
enum Told {
    Committed,
    /// SQLite refused the commit: the error as it said it.
    Failed(String),
    /// The store closed (or its writer stopped) before the commit was made.
    Closed,
}

impl Outcome {
    fn closed() -> Arc<Outcome> {
        let outcome = Arc::new(Outcome::default());
        outcome.tell(Told::Closed);
        outcome
    }

    /// Gives the commit's result (only the first one counts) and wakes everyone waiting.
    fn tell(&self, result: Told) {
        if self.result.set(result).is_ok() {
            self.told.notify_waiters();
        }
    }

    /// Waits for the commit's result.
    pub(super) async fn wait(&self) -> Result<(), StoreError> {
        loop {
            let told = self.told.notified();
            tokio::pin!(told);
            // Listening before looking: a result told in between still wakes this.
            told.as_mut().enable();
            match self.result.get() {
                Some(Told::Committed) => return Ok(()),
                Some(Told::Closed) => return Err(StoreError::Closed),
                Some(Told::Failed(e)) => {
                    return Err(StoreError::Corrupt(format!("a failed commit ({e})")))
                }
                None => told.await,
            }
        }
    }
}

/// Held by every [`Sqlite`] clone: the last one dropped tells the writer.
#[derive(Debug)]
struct Handle(Arc<Shared>);

impl Drop for Handle {
    fn drop(&mut self) {
        self.0.lock().gone = true;
        self.0.wake_writer();
    }
}

impl Sqlite {
    /// Opens the store in `dir` (see [`super::Store::open`]) and starts its writer thread.
    pub(super) fn open(dir: &Path) -> Result<(Sqlite, SeatKey, Vec<StoredGame>), StoreError> {
        Sqlite::open_spaced(dir, COMMIT_SPACING)
    }

    /// [`Sqlite::open`], with commits at least `spacing` apart under load.
    fn open_spaced(
        dir: &Path,
        spacing: Duration,
    ) -> Result<(Sqlite, SeatKey, Vec<StoredGame>), StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| StoreError::Io(dir.to_owned(), e))?;
        let conn = connect(dir)?;
        let key = seat_key(&dir.join(SEAT_KEY))?;
        let games = load(&conn)?;
        let shared = Arc::new(Shared::default());
        // 100 µs to about 1.6 s.
        let commit_seconds = Histogram::new(exponential_buckets(1e-4, 2.0, 15));
        let writer = std::thread::Builder::new()
            .name("dara-store".into())
            .spawn({
                let shared = Arc::clone(&shared);
                let commit_seconds = commit_seconds.clone();
                move || write_loop(conn, &shared, &commit_seconds, spacing)
            })
            .map_err(|e| StoreError::Io(dir.to_owned(), e))?;
        // Set before anything is sent: the store is not handed out until this returns.
        let _ = shared.writer.set(writer.thread().clone());
        Ok((Sqlite { handle: Arc::new(Handle(shared)), commit_seconds }, key, games))
    }

    /// Adds `writes` to the next commit, and gives what it will be told.
    pub(super) fn send(&self, writes: Vec<Write>) -> Arc<Outcome> {
        let shared = &self.handle.0;
        let mut pending = shared.lock();
        if pending.closed {
            return Outcome::closed();
        }
        for write in writes {
            pending.gathered.add(write);
        }
        pending.requests += 1;
        // The writer sleeping out the spacing between commits is left to it, unless this
        // request fills the batch.
        let wake = (pending.requests == 1 && pending.idle) || pending.requests == COMMIT_BATCH;
        let outcome = Arc::clone(&pending.outcome);
        drop(pending);
        if wake {
            shared.wake_writer();
        }
        outcome
    }

    pub(super) async fn close(&self) {
        let (tx, rx) = oneshot::channel();
        {
            let mut pending = self.handle.0.lock();
            if pending.closed {
                return;
            }
            pending.closed = true;
            pending.closing = Some(tx);
        }
        self.handle.0.wake_writer();
        let _ = rx.await;
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
    // Each format's layout is reached from the one before, so a store of any earlier format
    // is brought up to this one in the same transaction.
    let mut layout = String::new();
    if format == 0 {
        layout = CREATE_GAMES.to_owned() + CREATE_JOURNAL;
    }
    if format == 1 {
        // Format 1 kept the events by game and version: the same rows, in the order of their
        // games, become format 2's journal in writing order.
        layout += "ALTER TABLE events RENAME TO events_by_game;";
        layout += CREATE_EVENTS_2;
        layout += "INSERT INTO events (game, v, event)
                   SELECT game, v, event FROM events_by_game ORDER BY game, v;
               DROP TABLE events_by_game;";
    }
    if (1..=2).contains(&format) {
        // Format 2 kept a row for each event: each becomes a journal row of one line.
        layout += CREATE_JOURNAL;
        layout += "INSERT INTO journal (seq, events)
                   SELECT seq, CAST(game || ' ' || v || ' ' || event || char(10) AS BLOB)
                   FROM events ORDER BY seq;
               DROP TABLE events;";
    }
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

/// Format 2's journal, a row for each event in the order written; read only to bring a store
/// of format 1 up to date.
const CREATE_EVENTS_2: &str = "CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    v INTEGER NOT NULL,
    event TEXT NOT NULL
);";

/// The journal (format 3): a row for each commit, in the order written (`seq`, SQLite's row
/// id, grows with each row, so each is added at the table's end), holding every event of that
/// commit as a line of [`Gathered::lines`]. One row a commit where there was one an event: a
/// commit of 40 turns made 40 inserts, each a statement's whole round through SQLite's engine.
const CREATE_JOURNAL: &str = "CREATE TABLE journal (
    seq INTEGER PRIMARY KEY,
    events BLOB NOT NULL
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

/// One line of the journal: the game's id, the event's version, the event as JSON.
fn split_line(line: &[u8]) -> Option<(&str, &[u8])> {
    let space = line.iter().position(|&b| b == b' ')?;
    Some((std::str::from_utf8(&line[..space]).ok()?, &line[space + 1..]))
}

/// The lines of a journal row.
fn lines(events: &[u8]) -> impl Iterator<Item = &[u8]> {
    events.split(|&b| b == b'\n').filter(|line| !line.is_empty())
}

/// Every game in the store, with its events in order.
fn load(conn: &Connection) -> Result<Vec<StoredGame>, StoreError> {
    let corrupt = |what: &str, id: &str, e: &dyn std::fmt::Display| {
        StoreError::Corrupt(format!("{what} of game {id} that does not read: {e}"))
    };
    // The journal in writing order, gathered by game. A version written twice (which only a
    // bug would do) reads as its last writing, as format 1's replacing insert kept it; the lines
    // of games erased but not yet swept have no game to go to, and are left for the sweep.
    let mut journals: HashMap<String, BTreeMap<u64, Vec<u8>>> = HashMap::new();
    let mut rows = conn.prepare("SELECT events FROM journal ORDER BY seq")?;
    let mut rows = rows.query([])?;
    while let Some(row) = rows.next()? {
        for line in lines(row.get_ref(0)?.as_bytes().map_err(rusqlite::Error::from)?) {
            let read = split_line(line).and_then(|(game, rest)| {
                let (v, event) = split_line(rest)?;
                Some((game, v.parse::<u64>().ok()?, event))
            });
            let Some((game, v, event)) = read else {
                let line = String::from_utf8_lossy(line);
                return Err(StoreError::Corrupt(format!(
                    "a journal line that does not read: {line:?}"
                )));
            };
            journals.entry(game.to_owned()).or_default().insert(v, event.to_vec());
        }
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
                serde_json::from_slice(&text).map_err(|e| corrupt("an event", &id, &e))?;
            journal.push(event);
        }
        games.push(StoredGame { id: game, record, seats, events: journal });
    }
    Ok(games)
}

/// Stops the store when its writer ends, however it ends (a panic included): nothing more is
/// taken, and whoever waits for a commit that will not come hears so.
struct ClosesOnExit<'a>(&'a Shared);

impl Drop for ClosesOnExit<'_> {
    fn drop(&mut self) {
        let mut pending = self.0.lock();
        pending.closed = true;
        pending.outcome.tell(Told::Closed);
    }
}

/// A commit's outcome in the writer's hands: if the writer panics before telling it, its
/// requests hear that the store is closed instead of waiting for ever.
struct Telling(Arc<Outcome>);

impl Drop for Telling {
    fn drop(&mut self) {
        // Nothing if it was told: only the first result counts.
        self.0.tell(Told::Closed);
    }
}

/// The writer thread: commits everything pending at once and answers; meanwhile it sweeps
/// away the events of erased games, a slice at a time, and empties the log every half hour.
fn write_loop(
    mut conn: Connection,
    shared: &Shared,
    commit_seconds: &Histogram,
    spacing: Duration,
) {
    let _closes = ClosesOnExit(shared);
    let mut checkpointed = Instant::now();
    let mut sweep = Sweep::default();
    // None until the first commit.
    let mut last_commit: Option<Instant> = None;
    let mut spare = Gathered::default();
    loop {
        let next = Arc::new(Outcome::default());
        let mut pending = shared.lock();
        // Waits for something to do. Commits are spaced at least this far apart, unless a
        // batch fills sooner: what arrives meanwhile shares the next sync, which under load
        // costs as much as everything else the store does. A quiet server's commits are
        // further apart than this anyway, and wait for nothing.
        loop {
            if pending.closing.is_some() || pending.gone {
                break;
            }
            let now = Instant::now();
            let wait = if pending.requests > 0 {
                let due = last_commit.map_or(now, |last| last + spacing);
                if pending.requests >= COMMIT_BATCH || now >= due {
                    break;
                }
                pending.idle = false;
                due - now
            } else if sweep.running() {
                // While a sweep runs, its next slice is taken as soon as no write waits.
                break;
            } else {
                let wait =
                    sweep.due_in().min(CHECKPOINT_EVERY.saturating_sub(checkpointed.elapsed()));
                if wait.is_zero() {
                    break;
                }
                pending.idle = true;
                wait
            };
            drop(pending);
            std::thread::park_timeout(wait);
            pending = shared.lock();
        }
        pending.idle = false;
        let requests = std::mem::take(&mut pending.requests);
        let gathered = std::mem::replace(&mut pending.gathered, spare);
        let outcome = Telling(std::mem::replace(&mut pending.outcome, next));
        let closing = pending.closing.take();
        let gone = pending.gone;
        drop(pending);
        if requests > 0 {
            last_commit = Some(Instant::now());
        }
        if gathered.erases() {
            sweep.erased();
        }
        // The slice goes into the same transaction as the writes: one sync for both.
        let slice = sweep.next_slice(&conn);
        let began = Instant::now();
        let result = commit(&mut conn, &gathered, slice.as_ref().map(|s| (s, &sweep.live)));
        if !gathered.is_empty() {
            commit_seconds.observe(began.elapsed().as_secs_f64());
        }
        match &result {
            Err(e) => tracing::error!("the store could not commit {requests} requests: {e}"),
            Ok(()) => {
                if let Some(slice) = slice {
                    sweep.swept(slice);
                }
            }
        }
        outcome.0.tell(match result {
            Ok(()) => Told::Committed,
            Err(e) => Told::Failed(e.to_string()),
        });
        spare = gathered;
        spare.clear();
        if checkpointed.elapsed() >= CHECKPOINT_EVERY && !sweep.running() {
            checkpoint(&conn);
            checkpointed = Instant::now();
        }
        if closing.is_some() || gone {
            sweep_all(&conn);
            checkpoint(&conn);
            if let Err((_, e)) = conn.close() {
                tracing::error!("closing the store: {e}");
            }
            tracing::info!("the store is closed");
            if let Some(done) = closing {
                let _ = done.send(());
            }
            return;
        }
    }
}

/// The sweep of the events of erased games: every [`SWEEP_EVERY`], if a game was erased since
/// the last one began, the journal is gone through from its first row to the last row there
/// was when the sweep began, [`SWEEP_SLICE`] rows at a time, and every line of a game not in
/// the store when it began is taken out.
#[derive(Debug)]
struct Sweep {
    /// The rows still to be looked at, when a sweep runs: from the first up to the last.
    rows: Option<(i64, i64)>,
    /// The games in the store when the sweep began. Every row it looks at was written before
    /// then, so a game with a line there and not here was erased; a game erased since is left
    /// to the next sweep.
    live: HashSet<String>,
    began: Instant,
    /// Whether a game was erased since the last sweep began.
    erased: bool,
}

impl Default for Sweep {
    fn default() -> Sweep {
        // A store taken up after a stop may hold the lines of games erased just before it.
        Sweep { rows: None, live: HashSet::new(), began: Instant::now(), erased: true }
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
            let begun = live_games(conn).and_then(|live| {
                let span = conn.query_row("SELECT min(seq), max(seq) FROM journal", [], |r| {
                    Ok(r.get::<_, Option<i64>>(0)?.zip(r.get::<_, Option<i64>>(1)?))
                })?;
                Ok((live, span))
            });
            match begun {
                Ok((live, span)) => (self.live, self.rows) = (live, span),
                Err(e) => tracing::warn!("the store's sweep could not begin: {e}"),
            }
            self.began = Instant::now();
            self.erased = false;
        }
        let (first, last) = self.rows?;
        Some((first, last.min(first + SWEEP_SLICE - 1)))
    }

    /// The slice from `first` to `upto` is swept.
    fn swept(&mut self, (_, upto): (i64, i64)) {
        self.rows = self.rows.and_then(|(_, last)| (upto < last).then_some((upto + 1, last)));
        if self.rows.is_none() {
            self.live = HashSet::new();
        }
    }
}

/// The ids of the games in the store.
fn live_games(conn: &Connection) -> Result<HashSet<String>, rusqlite::Error> {
    let mut ids = conn.prepare_cached("SELECT id FROM games")?;
    let ids = ids.query_map([], |r| r.get(0))?.collect();
    ids
}

/// Takes the lines of games not in `live` out of the journal rows from `first` to `last`: a row
/// left with none is deleted, one left with some is written again with those.
fn sweep_slice(
    conn: &Connection,
    (first, last): (i64, i64),
    live: &HashSet<String>,
) -> Result<(), rusqlite::Error> {
    let mut changed = Vec::new();
    let mut rows =
        conn.prepare_cached("SELECT seq, events FROM journal WHERE seq BETWEEN ?1 AND ?2")?;
    let mut rows = rows.query([first, last])?;
    while let Some(row) = rows.next()? {
        let events = row.get_ref(1)?.as_bytes().map_err(rusqlite::Error::from)?;
        // A line that does not read is kept: it is the load's to report, not the sweep's to hide.
        let keep = |line: &&[u8]| split_line(line).map_or(true, |(game, _)| live.contains(game));
        if lines(events).all(|line| keep(&line)) {
            continue;
        }
        let mut kept = Vec::new();
        for line in lines(events).filter(keep) {
            kept.extend_from_slice(line);
            kept.push(b'\n');
        }
        changed.push((row.get::<_, i64>(0)?, kept));
    }
    for (seq, kept) in changed {
        if kept.is_empty() {
            conn.prepare_cached("DELETE FROM journal WHERE seq = ?1")?.execute([seq])?;
        } else {
            conn.prepare_cached("UPDATE journal SET events = ?2 WHERE seq = ?1")?
                .execute(params![seq, kept])?;
        }
    }
    Ok(())
}

/// Takes the lines of every erased game out of the journal at once (the server is stopping).
fn sweep_all(conn: &Connection) {
    if let Err(e) = live_games(conn).and_then(|live| sweep_slice(conn, (i64::MIN, i64::MAX), &live))
    {
        tracing::warn!("the store's sweep failed: {e}");
    }
}

/// Moves the log into the database and truncates it to nothing.
fn checkpoint(conn: &Connection) {
    if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(())) {
        tracing::warn!("the store's checkpoint failed: {e}");
    }
}

/// Commits `gathered` in one transaction, with a slice of the sweep if one runs.
fn commit(
    conn: &mut Connection,
    gathered: &Gathered,
    slice: Option<(&(i64, i64), &HashSet<String>)>,
) -> Result<(), rusqlite::Error> {
    if gathered.is_empty() && slice.is_none() {
        return Ok(());
    }
    let tx = conn.transaction()?;
    if let Some((slice, live)) = slice {
        sweep_slice(&tx, *slice, live)?;
    }
    for write in &gathered.games {
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
            // Gathered as lines, never here.
            Write::Append { .. } => {}
            // Its events go with the next sweep.
            Write::Erase { game } => {
                tx.prepare_cached("DELETE FROM games WHERE id = ?1")?.execute([game.as_str()])?;
            }
        }
    }
    if !gathered.lines.is_empty() {
        tx.prepare_cached("INSERT INTO journal (events) VALUES (?1)")?
            .execute([&gathered.lines])?;
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

    impl Dir {
        fn new(name: &str) -> Dir {
            let dir = std::env::temp_dir().join(format!("dara-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            Dir(dir)
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn settings() -> crate::game::GameSettings {
        crate::game::GameSettings {
            rules: dara::Ruleset::default(),
            opponent: crate::game::Opponent::Friend,
            creator: dara::Colour::White,
            clock: None,
        }
    }

    fn begin(game: &GameId) -> Write {
        let seats = dara::ByColour { white: Seat::Open, black: Seat::Open };
        Write::Begin {
            game: game.clone(),
            record: GameRecord::new(&settings(), "2026.11.30"),
            seats: StoredSeats::new(&seats),
        }
    }

    fn offer(game: &GameId, v: u64) -> Write {
        let event = GameEvent::DrawOffered { by: dara::Colour::White };
        Write::Append { game: game.clone(), v, event }
    }

    /// How many lines of `game` the journal holds.
    fn lines_of(conn: &Connection, game: &GameId) -> usize {
        let mut rows = conn.prepare("SELECT events FROM journal").unwrap();
        let rows = rows.query_map([], |r| r.get::<_, Vec<u8>>(0)).unwrap();
        rows.map(|events| {
            let events = events.unwrap();
            lines(&events).filter(|l| split_line(l).unwrap().0 == game.as_str()).count()
        })
        .sum()
    }

    fn gathered(writes: impl IntoIterator<Item = Write>) -> Gathered {
        let mut gathered = Gathered::default();
        writes.into_iter().for_each(|w| gathered.add(w));
        gathered
    }

    /// A quiet store commits a request at once; the next waits out the spacing, for company,
    /// until the request that fills the batch wakes the writer; and the store reads back what
    /// it was sent, a commit's turns of several games in one row.
    #[test]
    fn a_full_batch_is_committed_before_its_spacing_is_up() {
        let dir = Dir::new("batch");
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let spacing = Duration::from_secs(60);
        let (store, _, _) = Sqlite::open_spaced(&dir.0, spacing).unwrap();
        let games: Vec<GameId> = (0..COMMIT_BATCH).map(|_| crate::seat::new_game_id()).collect();
        let began = Instant::now();
        runtime.block_on(store.send(games.iter().map(begin).collect()).wait()).unwrap();
        assert!(began.elapsed() < spacing / 2, "a quiet store waits for nobody");

        let first = store.send(vec![offer(&games[0], 1)]);
        std::thread::sleep(Duration::from_millis(300));
        assert!(first.result.get().is_none(), "a second commit waits for company");
        let rest: Vec<_> = games[1..]
            .iter()
            .map(|game| store.send(vec![offer(game, 1), offer(game, 2)]))
            .collect();
        for outcome in std::iter::once(first).chain(rest) {
            runtime.block_on(outcome.wait()).unwrap();
        }
        assert!(began.elapsed() < spacing / 2, "woken by the full batch, not by the spacing");
        runtime.block_on(store.close());
        assert!(
            matches!(
                runtime.block_on(store.send(vec![offer(&games[0], 2)]).wait()),
                Err(StoreError::Closed)
            ),
            "a closed store takes nothing"
        );
        drop(store);

        let conn = connect(&dir.0).unwrap();
        let rows: i64 = conn.query_row("SELECT count(*) FROM journal", [], |r| r.get(0)).unwrap();
        assert_eq!(rows, 1, "one commit, one row");
        let loaded = load(&conn).unwrap();
        assert_eq!(loaded.len(), COMMIT_BATCH);
        let events = |game: &GameId| loaded.iter().find(|g| g.id == *game).unwrap().events.len();
        assert_eq!(events(&games[0]), 1);
        assert!(games[1..].iter().all(|game| events(game) == 2));
    }

    /// The lines of an erased game, spread over several slices and between a live game's,
    /// are swept while the writer runs; the live game's stay, in order.
    #[test]
    fn a_sweep_takes_the_events_of_erased_games_only() {
        let dir = Dir::new("sweep");
        let mut conn = connect(&dir.0).unwrap();
        let (live, erased, alone) =
            (crate::seat::new_game_id(), crate::seat::new_game_id(), crate::seat::new_game_id());
        commit(&mut conn, &gathered([begin(&live), begin(&erased), begin(&alone)]), None).unwrap();
        let rows = 3 * SWEEP_SLICE as u64;
        for v in 1..=rows {
            commit(&mut conn, &gathered([offer(&live, v), offer(&erased, v)]), None).unwrap();
            // A row of the erased games only, to be deleted whole.
            commit(&mut conn, &gathered([offer(&alone, v)]), None).unwrap();
        }
        let erase = [&erased, &alone].map(|game| Write::Erase { game: game.clone() });
        commit(&mut conn, &gathered(erase), None).unwrap();
        assert_eq!(lines_of(&conn, &erased), rows as usize, "erasing leaves them to the sweep");

        let mut sweep = Sweep { began: Instant::now() - SWEEP_EVERY, ..Sweep::default() };
        let mut slices = 0;
        while let Some(slice) = sweep.next_slice(&conn) {
            commit(&mut conn, &Gathered::default(), Some((&slice, &sweep.live))).unwrap();
            sweep.swept(slice);
            slices += 1;
        }
        assert_eq!(slices, 6, "{} rows, {SWEEP_SLICE} a slice", 6 * SWEEP_SLICE);
        assert_eq!((lines_of(&conn, &erased), lines_of(&conn, &alone)), (0, 0));
        assert_eq!(lines_of(&conn, &live), rows as usize);
        let left: i64 = conn.query_row("SELECT count(*) FROM journal", [], |r| r.get(0)).unwrap();
        assert_eq!(left, rows as i64, "the rows of erased games alone are gone");
        assert!(sweep.next_slice(&conn).is_none(), "the next sweep waits for the next erasure");
        let games = load(&conn).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].events.len(), rows as usize);
    }
}
