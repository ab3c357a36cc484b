//! The journal's lines: a commit's events gathered as lines of one row
//! (`<game> <version> <event as JSON>`), and every game read back from the rows and the games'
//! table when the store opens.

use std::collections::{BTreeMap, HashMap};
use std::io::Write as _;

use rusqlite::Connection;

use super::mark::row_is_whole;
use crate::game::GameEvent;
use crate::seat::GameId;
use crate::store::record::{Damaged, GameRecord, StoredGame, StoredSeats, Unreadable};
use crate::store::{StoreError, Write};

/// The writes of one commit: the events as journal lines, and the changes to the games.
#[derive(Debug, Default)]
pub(super) struct Gathered {
    /// The events appended, one line each: `<game> <version> <event as JSON>\n` (JSON holds no
    /// raw line break).
    pub(super) lines: Vec<u8>,
    /// Beginnings, seats and erasures, in the order sent: a few for each game in its life.
    pub(super) games: Vec<Write>,
}

impl Gathered {
    pub(super) fn add(&mut self, write: Write) {
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

    pub(super) fn is_empty(&self) -> bool {
        self.lines.is_empty() && self.games.is_empty()
    }

    pub(super) fn erases(&self) -> bool {
        self.games.iter().any(|w| matches!(w, Write::Erase { .. }))
    }

    /// Empties it, keeping its buffer's room for the next commit.
    pub(super) fn clear(&mut self) {
        self.lines.clear();
        self.games.clear();
    }
}

/// One line of the journal: the game's id, the event's version, the event as JSON.
pub(super) fn split_line(line: &[u8]) -> Option<(&str, &[u8])> {
    let space = line.iter().position(|&b| b == b' ')?;
    Some((std::str::from_utf8(&line[..space]).ok()?, &line[space + 1..]))
}

/// The lines of a journal row.
pub(super) fn lines(events: &[u8]) -> impl Iterator<Item = &[u8]> {
    events.split(|&b| b == b'\n').filter(|line| !line.is_empty())
}

/// Every game in the store, with its events in order; and the games whose row or journal
/// lines do not read, each kept apart with what is wrong, so that one damaged game stops only
/// itself. A journal line that names no game at all (the damage reached its first bytes)
/// cannot be set apart: that refuses the whole store.
pub(super) fn load(conn: &Connection) -> Result<(Vec<StoredGame>, Vec<Damaged>), StoreError> {
    let unreadable = |what: &str, e: &dyn std::fmt::Display| {
        Unreadable(format!("{what} that does not read: {e}"))
    };
    // The journal in writing order, gathered by game. A version written twice (which only a
    // bug would do) reads as its last writing, as format 1's replacing insert kept it; the lines
    // of games erased but not yet swept have no game to go to, and are left for the sweep.
    let mut journals: HashMap<String, BTreeMap<u64, Vec<u8>>> = HashMap::new();
    // The first unreadable line of each game that has one.
    let mut bad_lines: HashMap<String, Unreadable> = HashMap::new();
    let mut rows = conn.prepare("SELECT events, sum FROM journal ORDER BY seq")?;
    let mut rows = rows.query([])?;
    while let Some(row) = rows.next()? {
        let events = row.get_ref(0)?.as_bytes().map_err(rusqlite::Error::from)?;
        let whole =
            row_is_whole(events, row.get_ref(1)?.as_blob_or_null().map_err(rusqlite::Error::from)?);
        for line in lines(events) {
            let Some((game, rest)) =
                split_line(line).filter(|(game, _)| GameId::parse(game).is_some())
            else {
                let line = String::from_utf8_lossy(line);
                return Err(StoreError::Corrupt(format!(
                    "a journal line that names no game: {line:?}"
                )));
            };
            if !whole {
                // Which of the row's lines changed is not known: every game it names is set
                // apart (a game whose own name changed then misses an event, and goes too).
                let why = Unreadable(
                    "a journal row that is not as it was written (its checksum differs)".to_owned(),
                );
                bad_lines.entry(game.to_owned()).or_insert(why);
                continue;
            }
            match split_line(rest).and_then(|(v, event)| Some((v.parse::<u64>().ok()?, event))) {
                Some((v, event)) => {
                    journals.entry(game.to_owned()).or_default().insert(v, event.to_vec());
                }
                None => {
                    let line = String::from_utf8_lossy(line);
                    let why = Unreadable(format!("a journal line that does not read: {line:?}"));
                    bad_lines.entry(game.to_owned()).or_insert(why);
                }
            }
        }
    }
    let mut games = Vec::new();
    let mut damaged = Vec::new();
    let mut rows = conn.prepare("SELECT id, record, seats FROM games ORDER BY id")?;
    for row in rows.query_map([], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?))
    })? {
        let (id, record, seats) = row?;
        let journal = journals.remove(&id).unwrap_or_default();
        let read = || -> Result<StoredGame, Unreadable> {
            let game = GameId::parse(&id).ok_or_else(|| Unreadable("its id".to_owned()))?;
            if let Some(why) = bad_lines.remove(&id) {
                return Err(why);
            }
            let record: GameRecord =
                serde_json::from_str(&record).map_err(|e| unreadable("a record", &e))?;
            let seats: StoredSeats =
                serde_json::from_str(&seats).map_err(|e| unreadable("a seating", &e))?;
            let mut events = Vec::new();
            for (expected, (v, text)) in (1..).zip(journal) {
                if v != expected {
                    return Err(Unreadable(format!("a journal without its event {expected}")));
                }
                let event: GameEvent =
                    serde_json::from_slice(&text).map_err(|e| unreadable("an event", &e))?;
                events.push(event);
            }
            Ok(StoredGame { id: game, record, seats, events })
        };
        match read() {
            Ok(game) => games.push(game),
            Err(why) => damaged.push(Damaged { id, why }),
        }
    }
    Ok((games, damaged))
}
