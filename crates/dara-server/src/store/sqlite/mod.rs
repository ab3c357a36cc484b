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
//! The journal is kept in the order it was written, a row for each commit (format 3; format 4
//! adds each row's checksum, see `mark::row_sum`; format 5 says the database is kept with a
//! journal mark, see `mark`): a commit of the turns of a hundred games adds one row at the table's end. Keyed by game (format 1), a
//! commit changed a page for each game, and every changed page was written to the log, synced,
//! and written again into the database (at 5,000 turns a second that was a third of the
//! server's time); a row for each event (format 2) cost a statement for each. The price is
//! that a game's events are not found by its id: erasing a game deletes its row in `games` at
//! once, and its lines are swept out of the journal a slice at a time while the writer has
//! nothing else to do (every line whose game is gone), so that they too leave the disk within
//! the hour.

mod commit;
mod journal;
mod mark;
pub(crate) mod schema;
mod sweep;
mod wal;
mod writer;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use tokio::sync::oneshot;

use super::error::StoreError;
use super::record::{Damaged, StoredGame};
use super::write::StoredArena;
use super::write::Write;
use crate::seat::SeatKey;
pub(super) use commit::Outcome;
pub use commit::RETRY_AFTER;
use commit::{Shared, COMMIT_BATCH};
use journal::load;
pub use mark::{Loss, MARK};
use mark::{Mark, Marker};
use schema::{connect, load_arenas, seat_key};
pub use schema::{DATABASE, SEAT_KEY, STORE_FORMAT};
use writer::write_loop;

/// The most a commit waits for company: commits are at least this far apart, unless
/// [`COMMIT_BATCH`] writes are waiting sooner. A commit costs the process about 180 us of CPU
/// whatever it carries (the sync, the log's frames, the wake-ups), so under load the spacing
/// sets much of the store's cost. At 5,000 turns/s: 2 ms, 85.7 and 88.6 us a turn; 4 ms, 77.3 us
/// (median of 8); 8 ms, 73.2 us (the same 8 runs, alternating), for 2 ms more before a turn is
/// acknowledged (p50 5.6 ms). A quiet server's commits are further apart than this and wait for
/// nothing.
const COMMIT_SPACING: Duration = Duration::from_millis(8);

/// What the store held when it opened: the games that read, and those that do not.
type Loaded = (Vec<StoredGame>, Vec<Damaged>);

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
    /// A journal that lacks acknowledged commits is refused, unless `accept_loss`: then what
    /// is left is served, and the games that may have lost turns are named in the log.
    pub(super) fn open(
        dir: &Path,
        accept_loss: bool,
    ) -> Result<(Sqlite, SeatKey, Loaded, Vec<StoredArena>), StoreError> {
        Sqlite::open_spaced(dir, COMMIT_SPACING, accept_loss)
    }

    /// [`Sqlite::open`], with commits at least `spacing` apart under load.
    fn open_spaced(
        dir: &Path,
        spacing: Duration,
        accept_loss: bool,
    ) -> Result<(Sqlite, SeatKey, Loaded, Vec<StoredArena>), StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| StoreError::Io(dir.to_owned(), e))?;
        mark::take_back_refused(dir)?;
        let conn = connect(dir)?;
        let lost = mark::check(dir, &conn)?;
        let (games, damaged) = load(&conn)?;
        let arenas = load_arenas(&conn)?;
        if let Some(loss) = lost {
            if !accept_loss {
                return Err(StoreError::JournalLost(loss.describe(dir)));
            }
            let ids: Vec<String> = games.iter().map(|g| g.id.to_string()).collect();
            tracing::error!(
                games = ids.join(" "),
                "{}; accepted (--accept-loss): serving what is left, and each game named here \
                 may have lost its last turns",
                loss.describe(dir)
            );
        }
        let key = seat_key(&dir.join(SEAT_KEY), games.len() + damaged.len() + arenas.len())?;
        let newest = Mark::newest(&conn)?;
        let marker = Marker::open(dir, newest)?;
        mark::seal(&conn)?;
        let shared = Arc::new(Shared::default());
        let set_apart = damaged.iter().map(|d| d.id.clone()).collect();
        // 100 µs to about 1.6 s.
        let commit_seconds = Histogram::new(exponential_buckets(1e-4, 2.0, 15));
        let writer = std::thread::Builder::new()
            .name("dara-store".into())
            .spawn({
                let shared = Arc::clone(&shared);
                let commit_seconds = commit_seconds.clone();
                move || {
                    write_loop(
                        conn,
                        marker,
                        newest.seq,
                        set_apart,
                        &shared,
                        &commit_seconds,
                        spacing,
                    )
                }
            })
            .map_err(|e| StoreError::Io(dir.to_owned(), e))?;
        // Set before anything is sent: the store is not handed out until this returns.
        let _ = shared.writer.set(writer.thread().clone());
        let sqlite = Sqlite { handle: Arc::new(Handle(shared)), commit_seconds };
        Ok((sqlite, key, (games, damaged), arenas))
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

    /// Whether a write may be tried: not within [`RETRY_AFTER`] of a commit that failed (a full
    /// disk, an I/O error). Meanwhile what would change a game is refused, not played; after
    /// it, the next write tries again, and one that succeeds ends the pause.
    pub(super) fn writable(&self) -> bool {
        self.handle.0.failure.since().map_or(true, |since| since >= RETRY_AFTER)
    }

    /// Whether the last commit failed and none has succeeded since: saving is paused.
    pub(super) fn failing(&self) -> bool {
        self.handle.0.failure.since().is_some()
    }

    /// How long each commit took so far.
    pub(super) fn commit_seconds(&self) -> &Histogram {
        &self.commit_seconds
    }
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
    use std::path::PathBuf;
    use std::time::Instant;

    use dara_table::{GameEvent, GameSettings, Opponent};
    use rusqlite::Connection;

    use super::journal::{lines, split_line, Gathered};
    use super::sweep::{Sweep, SWEEP_SLICE};
    use super::writer::commit;
    use super::*;
    use crate::seat::GameId;
    use crate::seat::Seat;
    use crate::store::record::{GameRecord, StoredSeats};

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

    fn settings() -> GameSettings {
        GameSettings {
            rules: dara::Ruleset::default(),
            opponent: Opponent::Friend,
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
        let (store, _, _, _) = Sqlite::open_spaced(&dir.0, spacing, false).unwrap();
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
        let (loaded, damaged) = load(&conn).unwrap();
        assert!(damaged.is_empty());
        assert_eq!(loaded.len(), COMMIT_BATCH);
        let events = |game: &GameId| loaded.iter().find(|g| g.id == *game).unwrap().events.len();
        assert_eq!(events(&games[0]), 1);
        assert!(games[1..].iter().all(|game| events(game) == 2));
    }

    /// A sweep that fails (a journal row that holds a number, not lines) is undone alone: the games'
    /// writes committed with it are kept.
    #[test]
    fn a_failing_sweep_takes_no_game_write_with_it() {
        let dir = Dir::new("sweep-fails");
        let mut conn = connect(&dir.0).unwrap();
        conn.execute("INSERT INTO journal (seq, events) VALUES (1, 42)", []).unwrap();
        let game = crate::seat::new_game_id();
        let slice = (1, 1);
        let live = std::collections::HashSet::new();
        commit(&mut conn, 2, &gathered([begin(&game), offer(&game, 1)]), Some((&slice, &live)))
            .unwrap();
        let kept: i64 = conn
            .query_row(
                "SELECT count(*) FROM journal WHERE seq = 2 AND instr(events, ?1) > 0",
                [game.as_str().as_bytes()],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(kept, 1, "the game's line is kept");
        let rows: i64 = conn.query_row("SELECT count(*) FROM games", [], |r| r.get(0)).unwrap();
        assert_eq!(rows, 1, "and its row");
    }

    /// A row whose bytes changed after they were written is not swept: written again, it would
    /// get the checksum of its damage, and the load would serve it as whole.
    #[test]
    fn a_sweep_leaves_a_damaged_row_as_it_is() {
        let dir = Dir::new("sweep-damaged");
        let mut conn = connect(&dir.0).unwrap();
        let (live, erased) = (crate::seat::new_game_id(), crate::seat::new_game_id());
        commit(&mut conn, 1, &gathered([begin(&live), offer(&live, 1), offer(&erased, 1)]), None)
            .unwrap();
        let changed: Vec<u8> = conn
            .query_row(
                "SELECT CAST(replace(events, 'white', 'black') AS BLOB) FROM journal",
                [],
                |r| r.get(0),
            )
            .unwrap();
        conn.execute("UPDATE journal SET events = ?1", [&changed]).unwrap();
        super::sweep::sweep_all(&conn, &std::collections::HashSet::new());
        let after: Vec<u8> =
            conn.query_row("SELECT events FROM journal", [], |r| r.get(0)).unwrap();
        assert_eq!(after, changed, "the erased game's line is still there, with the damage");
        let (_, damaged) = super::journal::load(&conn).unwrap();
        assert_eq!(damaged.len(), 1, "{damaged:?}");
        assert!(damaged[0].why.0.contains("checksum differs"));
    }

    /// A game whose row's id was damaged into other hex digits is set apart with the id its
    /// lines carry (not served as a game with no events, its players told it was forgotten),
    /// and its lines, which now name an id no row has, as an erased game's do, are not swept.
    #[test]
    fn a_game_whose_rows_id_changed_is_set_apart_and_its_lines_are_not_swept() {
        let dir = Dir::new("changed-id");
        let mut conn = connect(&dir.0).unwrap();
        let (game, other) = (crate::seat::new_game_id(), crate::seat::new_game_id());
        let writes = [begin(&game), begin(&other), offer(&game, 1), offer(&other, 1)];
        commit(&mut conn, 1, &gathered(writes), None).unwrap();
        let mut changed = game.as_str().as_bytes().to_vec();
        changed[3] = if changed[3] == b'0' { b'1' } else { b'0' };
        let changed = String::from_utf8(changed).unwrap();
        conn.execute("UPDATE games SET id = ?1 WHERE id = ?2", [&changed, game.as_str()]).unwrap();
        let (games, damaged) = load(&conn).unwrap();
        assert_eq!(
            games.iter().map(|g| g.id.clone()).collect::<Vec<_>>(),
            std::slice::from_ref(&other)
        );
        let mut ids: Vec<&str> = damaged.iter().map(|d| d.id.as_str()).collect();
        ids.sort_unstable();
        let mut expected = [game.as_str(), changed.as_str()];
        expected.sort_unstable();
        assert_eq!(ids, expected, "{damaged:?}");

        let set_apart: std::collections::HashSet<String> =
            damaged.iter().map(|d| d.id.clone()).collect();
        let mut sweep = Sweep::due_sparing(set_apart.clone());
        let mut seq = 2;
        while let Some(slice) = sweep.next_slice(&conn) {
            commit(&mut conn, seq, &Gathered::default(), Some((&slice, &sweep.live))).unwrap();
            sweep.swept(slice);
            seq += 1;
        }
        super::sweep::sweep_all(&conn, &set_apart);
        assert_eq!(lines_of(&conn, &game), 1, "the game's line is kept");
        assert_eq!(lines_of(&conn, &other), 1);
    }

    /// The lines of an erased game, spread over several slices and between a live game's,
    /// are swept while the writer runs; the live game's stay, in order.
    #[test]
    fn a_sweep_takes_the_events_of_erased_games_only() {
        let dir = Dir::new("sweep");
        let mut conn = connect(&dir.0).unwrap();
        let (live, erased, alone) =
            (crate::seat::new_game_id(), crate::seat::new_game_id(), crate::seat::new_game_id());
        // Each commit's row number, in order.
        let mut seqs = 1..;
        commit(
            &mut conn,
            seqs.next().unwrap(),
            &gathered([begin(&live), begin(&erased), begin(&alone)]),
            None,
        )
        .unwrap();
        let rows = 3 * SWEEP_SLICE as u64;
        for v in 1..=rows {
            commit(
                &mut conn,
                seqs.next().unwrap(),
                &gathered([offer(&live, v), offer(&erased, v)]),
                None,
            )
            .unwrap();
            // A row of the erased games only, to be deleted whole.
            commit(&mut conn, seqs.next().unwrap(), &gathered([offer(&alone, v)]), None).unwrap();
        }
        let erase = [&erased, &alone].map(|game| Write::Erase { game: game.clone() });
        commit(&mut conn, seqs.next().unwrap(), &gathered(erase), None).unwrap();
        assert_eq!(lines_of(&conn, &erased), rows as usize, "erasing leaves them to the sweep");

        let mut sweep = Sweep::due();
        let mut slices = 0;
        while let Some(slice) = sweep.next_slice(&conn) {
            commit(
                &mut conn,
                seqs.next().unwrap(),
                &Gathered::default(),
                Some((&slice, &sweep.live)),
            )
            .unwrap();
            sweep.swept(slice);
            slices += 1;
        }
        // The rows of the turns, and the empty rows of the commits that began and erased games.
        let before = 2 * rows as i64 + 2;
        assert_eq!(slices, (before + SWEEP_SLICE - 1) / SWEEP_SLICE, "{SWEEP_SLICE} rows a slice");
        assert_eq!((lines_of(&conn, &erased), lines_of(&conn, &alone)), (0, 0));
        assert_eq!(lines_of(&conn, &live), rows as usize);
        let left: i64 = conn
            .query_row("SELECT count(*) FROM journal WHERE length(events) > 0", [], |r| r.get(0))
            .unwrap();
        assert_eq!(left, rows as i64, "the rows of erased games alone are gone");
        let empty: i64 = conn
            .query_row("SELECT count(*) FROM journal WHERE length(events) = 0", [], |r| r.get(0))
            .unwrap();
        assert_eq!(empty, slices, "only the sweep's own commits' empty rows are left");
        assert!(sweep.next_slice(&conn).is_none(), "the next sweep waits for the next erasure");
        let (games, _) = load(&conn).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].events.len(), rows as usize);
    }
}
