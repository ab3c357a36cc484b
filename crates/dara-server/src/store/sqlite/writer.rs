//! The writer thread: it commits what the games gathered, spaced for company, sweeps the
//! events of erased games away a slice at a time, and empties the log every half hour.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use prometheus_client::metrics::histogram::Histogram;
use rusqlite::{params, Connection};

use super::commit::{Outcome, Shared, Told, COMMIT_BATCH, RETRY_AFTER};
use super::journal::Gathered;
use super::mark::{Mark, Marker};
use super::sweep::{sweep_all, sweep_slice, Sweep};
use crate::store::write::{ArenaWrite, Write};

/// How often the write-ahead log is emptied, so that erased pages leave it. Every sweep
/// has ended by then (see `SWEEP_EVERY`).
const CHECKPOINT_EVERY: Duration = Duration::from_secs(30 * 60);

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
pub(super) fn write_loop(
    mut conn: Connection,
    mut marker: Marker,
    mut seq: i64,
    set_apart: HashSet<String>,
    shared: &Shared,
    commit_seconds: &Histogram,
    spacing: Duration,
) {
    let _closes = ClosesOnExit(shared);
    let mut checkpointed = Instant::now();
    let mut sweep = Sweep::sparing(set_apart);
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
                let wait = sweep
                    .due_in()
                    .min(CHECKPOINT_EVERY.saturating_sub(checkpointed.elapsed()))
                    .min(probe_in(shared));
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
        // While saving is paused, a commit of nothing, in case no game sends one: the pause
        // ends (and `/readyz` says so) once the disk has room, not at the next turn.
        let probing = requests == 0 && probe_in(shared).is_zero();
        let began = Instant::now();
        let result = if gathered.is_empty() && slice.is_none() && !probing {
            Ok(())
        } else {
            let sweeping = slice.as_ref().map(|s| (s, &sweep.live));
            commit(&mut conn, seq + 1, &gathered, sweeping).map(|mark| {
                seq = mark.seq;
                marker.record(mark);
            })
        };
        if !gathered.is_empty() {
            commit_seconds.observe(began.elapsed().as_secs_f64());
        }
        match &result {
            Err(e) => {
                tracing::error!("the store could not commit {requests} requests: {e}");
                marker.doubt();
            }
            Ok(()) => {
                if let Some(slice) = slice {
                    sweep.swept(slice);
                }
            }
        }
        let failed = result.as_ref().err().map(told_of);
        if requests > 0 || probing || failed.is_some() {
            shared.failure.set(failed.is_some());
        }
        outcome.0.tell(failed.unwrap_or(Told::Committed));
        spare = gathered;
        spare.clear();
        if checkpointed.elapsed() >= CHECKPOINT_EVERY && !sweep.running() {
            checkpoint(&conn);
            checkpointed = Instant::now();
        }
        if closing.is_some() || gone {
            sweep_all(&conn, &sweep.set_apart);
            // The sweep may have rewritten the newest row, or taken it away.
            match Mark::newest(&conn) {
                Ok(newest) => marker.rewrite(newest),
                Err(e) => tracing::warn!("the journal's newest row could not be read: {e}"),
            }
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

/// How long until saving, paused by a commit that failed, is tried again without a game's
/// write: [`RETRY_AFTER`] after the failure (the pages' own retries are as far apart). Never,
/// while commits succeed.
fn probe_in(shared: &Shared) -> Duration {
    shared.failure.since().map_or(Duration::MAX, |since| RETRY_AFTER.saturating_sub(since))
}

/// What the requests of a commit that failed with `e` are told: a full disk (`ENOSPC`, which
/// SQLite's file layer reports as `SQLITE_FULL`) apart from every other failure (an I/O error,
/// a failed sync), so that the operator reads which it was.
fn told_of(e: &rusqlite::Error) -> Told {
    Told::Failed {
        full: e.sqlite_error_code() == Some(rusqlite::ErrorCode::DiskFull),
        said: e.to_string(),
    }
}

/// Moves the log into the database and truncates it to nothing.
fn checkpoint(conn: &Connection) {
    if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(())) {
        tracing::warn!("the store's checkpoint failed: {e}");
    }
}

/// Commits `gathered` in one transaction as journal row `seq`, with a slice of the sweep if one
/// runs; answers the row's mark.
pub(super) fn commit(
    conn: &mut Connection,
    seq: i64,
    gathered: &Gathered,
    slice: Option<(&(i64, i64), &HashSet<String>)>,
) -> Result<Mark, rusqlite::Error> {
    let mut tx = conn.transaction()?;
    if let Some((slice, live)) = slice {
        // In the games' transaction (one sync for both), but apart: a sweep that fails (a row
        // that does not read) is undone alone, and the games' writes are committed all the same.
        let mut sweep = tx.savepoint()?;
        match sweep_slice(&sweep, *slice, live) {
            Ok(()) => sweep.commit()?,
            Err(e) => {
                tracing::warn!("the sweep of journal rows {slice:?} failed, and waits: {e}");
                sweep.rollback()?;
            }
        }
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
            Write::Arena(write) => keep_arena(&tx, write)?,
        }
    }
    // A row for every commit, empty if it only changed the games' table: the newest row is
    // always the last commit's, for the journal's mark (see `mark`).
    let row = Mark::of(seq, &gathered.lines);
    tx.prepare_cached("INSERT INTO journal (seq, events, sum) VALUES (?1, ?2, ?3)")?
        .execute(params![row.seq, &gathered.lines, &row.sum[..]])?;
    tx.commit()?;
    Ok(row)
}

/// Carries out a change to a kept arena (format 6).
fn keep_arena(tx: &rusqlite::Transaction<'_>, write: &ArenaWrite) -> Result<(), rusqlite::Error> {
    match write {
        ArenaWrite::Open { arena, settings, shell } => {
            tx.prepare_cached(
                "INSERT OR REPLACE INTO arenas (id, settings, shell) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![arena, settings, shell])?;
        }
        ArenaWrite::Events { arena, from, events } => {
            let mut insert = tx.prepare_cached(
                "INSERT OR REPLACE INTO arena_events (arena, v, event) VALUES (?1, ?2, ?3)",
            )?;
            for (v, event) in (*from..).zip(events) {
                insert.execute(params![arena, i64::try_from(v).unwrap_or(i64::MAX), event])?;
            }
        }
        ArenaWrite::Table { arena, no, game } => {
            tx.prepare_cached(
                "INSERT OR REPLACE INTO arena_tables (arena, no, game) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![arena, no, game.as_str()])?;
        }
        ArenaWrite::Erase { arena } => {
            for table in ["arena_events", "arena_tables"] {
                tx.prepare_cached(&format!("DELETE FROM {table} WHERE arena = ?1"))?
                    .execute([arena])?;
            }
            tx.prepare_cached("DELETE FROM arenas WHERE id = ?1")?.execute([arena])?;
        }
    }
    Ok(())
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("stored types serialise")
}

#[cfg(test)]
mod tests {
    use rusqlite::ffi;

    use super::*;
    use crate::store::error::StoreError;

    fn failure(code: std::ffi::c_int) -> rusqlite::Error {
        rusqlite::Error::SqliteFailure(ffi::Error::new(code), None)
    }

    /// What a commit's requests hear when it failed.
    fn heard(e: &rusqlite::Error) -> StoreError {
        let outcome = Outcome::default();
        outcome.tell(told_of(e));
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(outcome.wait()).unwrap_err()
    }

    /// A full disk is [`StoreError::Full`]; an I/O error, a failed sync or any other failure is
    /// not (it used to be read from the error's words, and a full disk could be reported as
    /// damage). Both pause the games.
    #[test]
    fn a_full_disk_is_told_apart_from_other_io_errors() {
        assert!(matches!(heard(&failure(ffi::SQLITE_FULL)), StoreError::Full(_)));
        for code in [
            ffi::SQLITE_IOERR,
            ffi::SQLITE_IOERR_WRITE,
            ffi::SQLITE_IOERR_FSYNC,
            ffi::SQLITE_IOERR_SHORT_READ,
            ffi::SQLITE_READONLY,
        ] {
            let e = heard(&failure(code));
            assert!(matches!(e, StoreError::Unwritten(_)), "{code}: {e:?}");
            assert!(e.is_a_pause());
        }
    }
}
