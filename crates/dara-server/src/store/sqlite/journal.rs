//! The journal's lines: a commit's events gathered as lines of one row
//! (`<game> <version> <event as JSON>`), and every game read back from the rows and the games'
//! table when the store opens.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write as _;

use dara_table::GameEvent;
use rusqlite::Connection;

use super::mark::row_is_whole;
use crate::seat::GameId;
use crate::store::error::StoreError;
use crate::store::record::{Damaged, GameRecord, StoredGame, StoredSeats, Unreadable};
use crate::store::write::Write;

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

/// A games row as it reads: its id, record and seats as text where they are.
struct GameRow {
    /// The id, or what is left of it (its bytes, when they are not a game's id).
    id: Result<String, Vec<u8>>,
    record: Option<String>,
    seats: Option<String>,
}

/// The text a column holds, if it is text (or bytes that are).
fn text(value: rusqlite::types::ValueRef<'_>) -> Option<String> {
    let bytes = value.as_bytes().ok()?;
    std::str::from_utf8(bytes).ok().map(str::to_owned)
}

/// The one game of `ids` that the damaged id `bytes` was, if it can be told: the same length,
/// and the same in all but a quarter of its bytes (two ids drawn at random share about one
/// byte in sixteen). None if no game is that close, or more than one.
fn identify<'a>(bytes: &[u8], ids: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let mut close = ids.filter(|id| {
        let id = id.as_bytes();
        let differ = id.iter().zip(bytes).filter(|(a, b)| a != b).count()
            + id.len().abs_diff(bytes.len().min(id.len()));
        differ <= id.len() / 4
    });
    let one = close.next()?;
    close.next().is_none().then_some(one)
}

/// Every game in the store, with its events in order; and the games whose row or journal
/// lines do not read, each kept apart with what is wrong, so that one damaged game stops only
/// itself. A journal line or a games row whose id is damaged is tied to the game it was, if
/// that can be told (see [`identify`]), and that game is set apart; one that cannot be tied to
/// any game is set aside, named in the log by its row, and every other game is served.
pub(super) fn load(conn: &Connection) -> Result<(Vec<StoredGame>, Vec<Damaged>), StoreError> {
    let unreadable = |what: &str, e: &dyn std::fmt::Display| {
        Unreadable(format!("{what} that does not read: {e}"))
    };
    let mut rows = conn.prepare("SELECT id, record, seats FROM games ORDER BY id")?;
    let game_rows: Vec<GameRow> = rows
        .query_map([], |r| {
            let id = r.get_ref(0)?;
            let id = text(id).filter(|id| GameId::parse(id).is_some()).ok_or_else(|| {
                match id.as_bytes() {
                    Ok(bytes) => bytes.to_vec(),
                    Err(_) => format!("{id:?}").into_bytes(),
                }
            });
            Ok(GameRow { id, record: text(r.get_ref(1)?), seats: text(r.get_ref(2)?) })
        })?
        .collect::<Result<_, _>>()?;
    let named: HashSet<String> =
        game_rows.iter().filter_map(|g| g.id.as_ref().ok().cloned()).collect();
    // The journal in writing order, gathered by game. A version written twice (which only a
    // bug would do) reads as its last writing, as format 1's replacing insert kept it; the lines
    // of games erased but not yet swept have no game to go to, and are left for the sweep.
    let mut journals: HashMap<String, BTreeMap<u64, Vec<u8>>> = HashMap::new();
    // The first unreadable line of each game that has one.
    let mut bad_lines: HashMap<String, Unreadable> = HashMap::new();
    let mut rows = conn.prepare("SELECT seq, events, sum FROM journal ORDER BY seq")?;
    let mut rows = rows.query([])?;
    while let Some(row) = rows.next()? {
        let seq: i64 = row.get(0)?;
        let events = row.get_ref(1)?.as_bytes().map_err(rusqlite::Error::from)?;
        let whole =
            row_is_whole(events, row.get_ref(2)?.as_blob_or_null().map_err(rusqlite::Error::from)?);
        for line in lines(events) {
            let Some((game, rest)) =
                split_line(line).filter(|(game, _)| GameId::parse(game).is_some())
            else {
                // The damage reached the game's id: the game it was, if it can be told, is set
                // apart; a line tied to no game is left where it is, for the operator.
                let shown = String::from_utf8_lossy(line);
                match identify(line, named.iter().map(String::as_str)) {
                    Some(game) => {
                        let why = Unreadable(format!(
                            "a journal line (row {seq}) whose game's id is damaged: {shown:?}"
                        ));
                        bad_lines.entry(game.to_owned()).or_insert(why);
                    }
                    None => tracing::error!(
                        row = seq,
                        "a journal line that names no game is set aside (left in the store): \
                         {shown:?}"
                    ),
                }
                continue;
            };
            if !whole {
                // Which of the row's lines changed is not known: every game it names is set
                // apart, and the game a changed name was, if it can be told (another game's
                // name may read as well; a game erased is in no games row, and is left).
                let why = Unreadable(format!(
                    "a journal row ({seq}) that is not as it was written (its checksum differs)"
                ));
                let game = if named.contains(game) {
                    Some(game)
                } else {
                    identify(game.as_bytes(), named.iter().map(String::as_str))
                };
                if let Some(game) = game {
                    bad_lines.entry(game.to_owned()).or_insert(why);
                }
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
    let mut rows_read = Vec::new();
    for GameRow { id, record, seats } in game_rows {
        let bytes = match id {
            Ok(id) => {
                rows_read.push((id, record, seats));
                continue;
            }
            Err(bytes) => bytes,
        };
        // The journal's games that have no row: the one this row was, if it can be told.
        let shown = String::from_utf8_lossy(&bytes);
        let orphans = journals.keys().map(String::as_str).filter(|g| !named.contains(*g));
        match identify(&bytes, orphans).map(str::to_owned) {
            Some(game) => {
                journals.remove(&game);
                let why = Unreadable(format!("its row, whose id is damaged: {shown:?}"));
                damaged.push(Damaged { id: game, why });
            }
            None => tracing::error!(
                "a games row whose id does not read is set aside (left in the store), tied to \
                 no game: {shown:?}"
            ),
        }
    }
    // A game's lines under an id that reads but is another's, close to a game's own (its row's
    // id, or those lines' ids, damaged into other hex digits): both are set apart, since which
    // one was the game's cannot be told, and the sweep spares the lines of both.
    let orphans: Vec<String> = journals.keys().filter(|g| !named.contains(*g)).cloned().collect();
    for orphan in orphans {
        if let Some(game) = identify(orphan.as_bytes(), named.iter().map(String::as_str)) {
            journals.remove(&orphan);
            let why = format!("journal lines of game {orphan}, whose id is close to its own");
            bad_lines.entry(game.to_owned()).or_insert(Unreadable(why));
            let why = Unreadable(format!("its lines, whose id is close to game {game}'s"));
            damaged.push(Damaged { id: orphan, why });
        }
    }
    for (id, record, seats) in rows_read {
        let journal = journals.remove(&id).unwrap_or_default();
        let read = || -> Result<StoredGame, Unreadable> {
            let game = GameId::parse(&id).ok_or_else(|| Unreadable("its id".to_owned()))?;
            if let Some(why) = bad_lines.remove(&id) {
                return Err(why);
            }
            let record = record.ok_or_else(|| Unreadable("a record that is not text".into()))?;
            let seats = seats.ok_or_else(|| Unreadable("a seating that is not text".into()))?;
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
