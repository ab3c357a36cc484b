//! The sweep: the lines of erased games taken out of the journal, a slice of rows at a time,
//! so that an erased game's bytes leave the disk within the hour.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use rusqlite::{params, Connection};

use super::journal::{lines, split_line};
use super::mark::{row_is_whole, row_sum};

/// How often the events of erased games begin to be swept away.
const SWEEP_EVERY: Duration = Duration::from_secs(5 * 60);

/// How many journal rows one slice of a sweep looks at: a row is a commit's events (at most
/// about 40 turns under load), so a slice is a few milliseconds of the writer's time, and the
/// commits waiting behind it hardly notice.
pub(super) const SWEEP_SLICE: i64 = 64;

/// The sweep of the events of erased games: every [`SWEEP_EVERY`], if a game was erased since
/// the last one began, the journal is gone through from its first row to the last row there
/// was when the sweep began, [`SWEEP_SLICE`] rows at a time, and every line of a game not in
/// the store when it began is taken out.
#[derive(Debug)]
pub(super) struct Sweep {
    /// The rows still to be looked at, when a sweep runs: from the first up to the last.
    rows: Option<(i64, i64)>,
    /// The games in the store when the sweep began. Every row it looks at was written before
    /// then, so a game with a line there and not here was erased; a game erased since is left
    /// to the next sweep.
    pub(super) live: HashSet<String>,
    /// The games set apart as damaged when the store opened: their rows may no longer name
    /// them as their lines do (a damaged id), so their lines are never taken for an erased
    /// game's. Their rows are left for the operator, and so are their lines.
    pub(super) set_apart: HashSet<String>,
    began: Instant,
    /// Whether a game was erased since the last sweep began.
    erased: bool,
}

impl Default for Sweep {
    fn default() -> Sweep {
        // A store taken up after a stop may hold the lines of games erased just before it.
        Sweep {
            rows: None,
            live: HashSet::new(),
            set_apart: HashSet::new(),
            began: Instant::now(),
            erased: true,
        }
    }
}

impl Sweep {
    /// [`Sweep::sparing`], due at once.
    #[cfg(test)]
    pub(super) fn due_sparing(set_apart: HashSet<String>) -> Sweep {
        Sweep { set_apart, ..Sweep::due() }
    }

    /// A sweep that never takes the lines of the games in `set_apart`.
    pub(super) fn sparing(set_apart: HashSet<String>) -> Sweep {
        Sweep { set_apart, ..Sweep::default() }
    }

    /// A sweep due at once (as the first is, [`SWEEP_EVERY`] after the store opens).
    #[cfg(test)]
    pub(super) fn due() -> Sweep {
        Sweep { began: Instant::now() - SWEEP_EVERY, ..Sweep::default() }
    }

    pub(super) fn running(&self) -> bool {
        self.rows.is_some()
    }

    /// How long until the next sweep may begin.
    pub(super) fn due_in(&self) -> Duration {
        if self.erased {
            SWEEP_EVERY.saturating_sub(self.began.elapsed())
        } else {
            SWEEP_EVERY
        }
    }

    pub(super) fn erased(&mut self) {
        self.erased = true;
    }

    /// The rows the next slice looks at, beginning a sweep if one is due.
    pub(super) fn next_slice(&mut self, conn: &Connection) -> Option<(i64, i64)> {
        if self.rows.is_none() && self.erased && self.began.elapsed() >= SWEEP_EVERY {
            let begun = live_games(conn).and_then(|live| {
                let span = conn.query_row("SELECT min(seq), max(seq) FROM journal", [], |r| {
                    Ok(r.get::<_, Option<i64>>(0)?.zip(r.get::<_, Option<i64>>(1)?))
                })?;
                Ok((live, span))
            });
            match begun {
                Ok((mut live, span)) => {
                    live.extend(self.set_apart.iter().cloned());
                    (self.live, self.rows) = (live, span);
                }
                Err(e) => tracing::warn!("the store's sweep could not begin: {e}"),
            }
            self.began = Instant::now();
            self.erased = false;
        }
        let (first, last) = self.rows?;
        Some((first, last.min(first + SWEEP_SLICE - 1)))
    }

    /// The slice from `first` to `upto` is swept.
    pub(super) fn swept(&mut self, (_, upto): (i64, i64)) {
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
/// left with none (or that had none) is deleted, one left with some is written again with
/// those.
pub(super) fn sweep_slice(
    conn: &Connection,
    (first, last): (i64, i64),
    live: &HashSet<String>,
) -> Result<(), rusqlite::Error> {
    let mut changed = Vec::new();
    let mut rows =
        conn.prepare_cached("SELECT seq, events, sum FROM journal WHERE seq BETWEEN ?1 AND ?2")?;
    let mut rows = rows.query([first, last])?;
    while let Some(row) = rows.next()? {
        let events = row.get_ref(1)?.as_bytes().map_err(rusqlite::Error::from)?;
        // A damaged row is left as it is: written again, it would get a checksum of its damage.
        if !row_is_whole(events, row.get_ref(2)?.as_blob_or_null().map_err(rusqlite::Error::from)?)
        {
            continue;
        }
        // A line that does not read is kept: it is the load's to report, not the sweep's to hide.
        let keep = |line: &&[u8]| split_line(line).map_or(true, |(game, _)| live.contains(game));
        // A row with no lines (a commit that only changed the games' table) goes too.
        if !events.is_empty() && lines(events).all(|line| keep(&line)) {
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
            conn.prepare_cached("UPDATE journal SET events = ?2, sum = ?3 WHERE seq = ?1")?
                .execute(params![seq, &kept, &row_sum(&kept)[..]])?;
        }
    }
    Ok(())
}

/// Takes the lines of every erased game out of the journal at once (the server is stopping),
/// but not those of the games in `set_apart` (see [`Sweep::sparing`]).
pub(super) fn sweep_all(conn: &Connection, set_apart: &HashSet<String>) {
    let swept = live_games(conn).and_then(|mut live| {
        live.extend(set_apart.iter().cloned());
        sweep_slice(conn, (i64::MIN, i64::MAX), &live)
    });
    if let Err(e) = swept {
        tracing::warn!("the store's sweep failed: {e}");
    }
}
