//! The database's layout and how it is opened: locked for this process, brought up to the
//! current format from any earlier one; and the seat key's file beside it.

use std::fs::OpenOptions;
use std::io::{Read, Write as _};
use std::path::Path;
use std::time::Duration;

use rusqlite::Connection;

use crate::seat::SeatKey;
use crate::store::error::StoreError;

/// The version of the store's layout (its tables and their serialised columns), kept in the
/// database as SQLite's `user_version`. A release reads every format up to its own.
pub const STORE_FORMAT: i64 = 6;

/// The first format whose database is kept with a journal mark beside it (format 5: the layout
/// of format 4, and the promise of a mark). A database of this format whose mark is missing has
/// lost it (see `mark::check`); one of an earlier format never had one. A database is given
/// this format only once its mark is on disk (see `mark::seal`): brought up from an earlier
/// one, it says [`UNMARKED_FORMAT`] until then, so that a crash in between leaves no database
/// that claims a mark it never had.
pub(super) const MARKED_FORMAT: i64 = 5;

/// The last format kept without a journal mark.
pub(super) const UNMARKED_FORMAT: i64 = MARKED_FORMAT - 1;

/// The database's file name in the data directory.
pub const DATABASE: &str = "live-games.sqlite";

/// The seat key's file name in the data directory.
pub const SEAT_KEY: &str = "seat-key";

/// The database, locked for this process, at the current format.
pub(super) fn connect(dir: &Path) -> Result<Connection, StoreError> {
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
        layout = CREATE_GAMES.to_owned() + CREATE_JOURNAL + ADD_ROW_SUMS;
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
    if (1..=3).contains(&format) {
        // Format 4 keeps each journal row's checksum; the rows written before have none, and
        // are read as they are.
        layout += ADD_ROW_SUMS;
    }
    // Format 5 changes no table: its database is kept with a mark (see `MARKED_FORMAT`).
    if format < 6 {
        // Format 6 keeps arenas. `IF NOT EXISTS`: a store brought up from before marks says
        // format 4 until it is sealed, and may be brought up again.
        layout += CREATE_ARENAS;
    }
    let to = if format >= MARKED_FORMAT { STORE_FORMAT } else { UNMARKED_FORMAT };
    conn.execute_batch(&format!("BEGIN EXCLUSIVE; {layout} PRAGMA user_version = {to}; COMMIT;"))
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
/// commit as a line of [`Gathered::lines`](super::journal::Gathered::lines). One row a commit where there was one an event: a
/// commit of 40 turns made 40 inserts, each a statement's whole round through SQLite's engine.
const CREATE_JOURNAL: &str = "CREATE TABLE journal (
    seq INTEGER PRIMARY KEY,
    events BLOB NOT NULL
);";

/// Format 4: each journal row's checksum ([`row_sum`](super::mark::row_sum) of its lines),
/// so that a byte changed on disk is found even where the line still reads (a cell's name, a
/// clock's digit), and its game set apart rather than served changed. SQLite checks nothing of
/// a page's content, and the mark covers only the newest row.
const ADD_ROW_SUMS: &str = "ALTER TABLE journal ADD COLUMN sum BLOB;";

/// Format 6: the arenas, each with its settings, its journal (a row for each event, by
/// version) and the table of each of its games; erased an hour after the arena's end. Its
/// players are known by the keyed hash of their tokens, as the games' seats are.
const CREATE_ARENAS: &str = "CREATE TABLE IF NOT EXISTS arenas (
    id TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    shell TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS arena_events (
    arena TEXT NOT NULL,
    v INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (arena, v)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS arena_tables (
    arena TEXT NOT NULL,
    no INTEGER NOT NULL,
    game TEXT NOT NULL,
    PRIMARY KEY (arena, no)
) WITHOUT ROWID;";

/// Every arena kept, with its journal and its tables.
pub(super) fn load_arenas(
    conn: &Connection,
) -> Result<Vec<crate::store::write::StoredArena>, StoreError> {
    let mut arenas = Vec::new();
    let mut rows = conn.prepare("SELECT id, settings, shell FROM arenas ORDER BY id")?;
    let read = rows.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    for row in read {
        let (id, settings, shell): (String, String, String) = row?;
        let events = conn
            .prepare_cached("SELECT event FROM arena_events WHERE arena = ?1 ORDER BY v")?
            .query_map([&id], |r| r.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        let tables = conn
            .prepare_cached("SELECT no, game FROM arena_tables WHERE arena = ?1 ORDER BY no")?
            .query_map([&id], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<Vec<(u32, String)>, _>>()?;
        arenas.push(crate::store::write::StoredArena { id, settings, shell, events, tables });
    }
    Ok(arenas)
}

/// The seat key kept in `path`, made on first start (readable by this user only). Never made
/// anew while the store holds `games` live games: their seats were hashed with the lost key.
pub(super) fn seat_key(path: &Path, games: usize) -> Result<SeatKey, StoreError> {
    let io = |e| StoreError::Io(path.to_owned(), e);
    if games > 0 && !path.exists() {
        return Err(StoreError::SeatKeyMissing { path: path.to_owned(), games });
    }
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
