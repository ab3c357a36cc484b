//! The journal's high-water mark: beside the database, the number of the last row committed and
//! a checksum of what that row held, rewritten after every commit. The database alone cannot
//! show that it is whole: with its write-ahead log deleted, cut short or damaged, SQLite opens
//! what is left as if nothing were missing, and the turns acknowledged since the last checkpoint
//! are gone without a word. Read at start, the mark shows it: the journal must reach the row
//! the mark names, and hold there what was written.
//!
//! The mark is written in place (one `pwrite` of a fixed-size line) after each commit, without
//! a sync of its own: it survives a `kill -9` with the rest of the page cache, and a power cut
//! can only leave it behind the database (an older row), which the check accepts. Every commit
//! adds a row (one with no lines when it only changed the games' table), so the newest row is
//! always the last commit's, and the sweep never rewrites it before a newer one is marked.
//!
//! A commit that failed leaves the mark *in doubt* until one succeeds: the failed commit's
//! frames may be in the log, whole (its sync failed after they were written), and a crash before
//! the next commit lets the next start read them as kept. In doubt, every row after the marked
//! one was refused, never acknowledged, and the start takes it back (`take_back_refused`). The
//! doubt is synced when it is set and when it is lifted, before the commit that lifts it is
//! acknowledged: a mark left behind by a power cut never makes an acknowledged row look refused.
//!
//! Deleted together with the log, the mark would show nothing: so the database says, in its
//! format (5 and later), that it is kept with a mark, and one that says so but has none is
//! refused too. That format is checkpointed into the database's own file when the mark is
//! first written, so deleting the log cannot take it back.

use std::fs::{File, OpenOptions};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension};

use super::schema::{DATABASE, MARKED_FORMAT, STORE_FORMAT};
use crate::store::error::StoreError;

/// The mark's file name in the data directory.
pub const MARK: &str = "journal-mark";

/// The journal's last row as committed: its number and a checksum of its lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Mark {
    /// The row's number (`journal.seq`); 0 for a journal with no row.
    pub(super) seq: i64,
    /// The first 16 bytes of the BLAKE3 hash of the row's lines.
    pub(super) sum: [u8; 16],
}

/// A journal row's checksum: the first 16 bytes of the BLAKE3 hash of its lines. Kept in the
/// row (format 4) and, for the newest row, in the mark.
pub(super) fn row_sum(lines: &[u8]) -> [u8; 16] {
    let hash = blake3::hash(lines);
    let mut sum = [0u8; 16];
    sum.copy_from_slice(&hash.as_bytes()[..16]);
    sum
}

/// Whether a row's lines are what was written, as far as its checksum tells: a row written
/// before format 4 has none, and is taken as it reads.
pub(super) fn row_is_whole(lines: &[u8], sum: Option<&[u8]>) -> bool {
    sum.map_or(true, |sum| sum == row_sum(lines))
}

impl Mark {
    /// The mark of row `seq` holding `lines`.
    pub(super) fn of(seq: i64, lines: &[u8]) -> Mark {
        Mark { seq, sum: row_sum(lines) }
    }

    /// The mark of the journal's newest row in `conn`, or of no row.
    pub(super) fn newest(conn: &Connection) -> Result<Mark, rusqlite::Error> {
        let newest: Option<(i64, Vec<u8>)> = conn
            .query_row("SELECT seq, events FROM journal ORDER BY seq DESC LIMIT 1", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?;
        Ok(newest.map_or(Mark::of(0, b""), |(seq, lines)| Mark::of(seq, &lines)))
    }

    /// The mark as its file holds it, in doubt or not:
    /// `2 <seq, 20 digits> <sum, 32 hex digits> <0 or 1>\n`, always 58 bytes.
    fn line(self, in_doubt: bool) -> String {
        let doubt = u8::from(in_doubt);
        format!("2 {:020} {} {doubt}\n", self.seq, crate::hex::encode(&self.sum))
    }

    /// Reads a mark's line, and whether it is in doubt; `None` if it is not one. The first
    /// version's line (`1 <seq> <sum>`, before doubt) is never in doubt.
    fn read(line: &str) -> Option<(Mark, bool)> {
        let mut fields = line.strip_suffix('\n')?.split(' ');
        let (version, seq, sum) = (fields.next()?, fields.next()?, fields.next()?);
        let in_doubt = match (version, fields.next()) {
            ("1", None) => false,
            ("2", Some("0")) => false,
            ("2", Some("1")) => true,
            _ => return None,
        };
        if fields.next().is_some() {
            return None;
        }
        let sum: [u8; 16] = crate::hex::decode(sum)?;
        Some((Mark { seq: seq.parse().ok()?, sum }, in_doubt))
    }
}

/// The mark's file, kept open by the writer thread and rewritten in place after each commit.
#[derive(Debug)]
pub(super) struct Marker {
    file: File,
    path: PathBuf,
    /// The last mark written.
    last: Mark,
    /// Whether a commit failed since.
    in_doubt: bool,
}

impl Marker {
    /// Opens (or makes) the mark's file in `dir` and writes `mark` to it.
    pub(super) fn open(dir: &Path, mark: Mark) -> Result<Marker, StoreError> {
        let path = dir.join(MARK);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| StoreError::Io(path.clone(), e))?;
        let mut marker = Marker { file, path, last: mark, in_doubt: false };
        marker.write(mark, false).map_err(|e| StoreError::Io(marker.path.clone(), e))?;
        marker.file.sync_all().map_err(|e| StoreError::Io(marker.path.clone(), e))?;
        // The file's name too, before the database is sealed as kept with it (see `seal`): a
        // power cut must not leave a sealed database and no mark.
        File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| StoreError::Io(dir.to_owned(), e))?;
        Ok(marker)
    }

    /// Writes `mark` over the last (the line's size never changes; a first version's line,
    /// two bytes shorter, is written over whole).
    fn write(&mut self, mark: Mark, in_doubt: bool) -> std::io::Result<()> {
        self.file.write_all_at(mark.line(in_doubt).as_bytes(), 0)?;
        self.last = mark;
        self.in_doubt = in_doubt;
        Ok(())
    }

    /// After a commit that succeeded as row `mark`: written, a failure logged (the commit is
    /// kept either way, and a mark left behind is accepted at the next start). Lifting a doubt
    /// is synced before the commit is acknowledged: left in doubt by a power cut, the mark
    /// would have this row taken back as refused.
    pub(super) fn record(&mut self, mark: Mark) {
        let lifting = self.in_doubt;
        let written = self.write(mark, false);
        let written = if lifting { written.and_then(|()| self.file.sync_data()) } else { written };
        if let Err(e) = written {
            tracing::warn!("the journal's mark {} could not be written: {e}", self.path.display());
        }
    }

    /// After the sweep at close, which may rewrite the newest row or take it away: `mark`, in
    /// doubt as it was (a failed commit's frames stay in the log if the last checkpoint fails).
    pub(super) fn rewrite(&mut self, mark: Mark) {
        if let Err(e) = self.write(mark, self.in_doubt) {
            tracing::warn!("the journal's mark {} could not be written: {e}", self.path.display());
        }
    }

    /// After a commit that failed: the last mark, in doubt, synced (as far as the disk lets
    /// it: it may be what fails), so that a crash before the next commit takes the failed one
    /// back should its frames be found.
    pub(super) fn doubt(&mut self) {
        if self.in_doubt {
            return;
        }
        let written = self.write(self.last, true).and_then(|()| self.file.sync_data());
        if let Err(e) = written {
            tracing::warn!(
                "the journal's mark {} could not be put in doubt after a failed commit: {e}",
                self.path.display()
            );
        }
    }
}

/// Takes back, before the database is opened, any commit after the marked one when the mark is
/// in doubt: it was refused (see the module's words). Gives how many were taken back.
pub(super) fn take_back_refused(dir: &Path) -> Result<usize, StoreError> {
    let path = dir.join(MARK);
    let (mark, in_doubt) = match std::fs::read_to_string(&path) {
        Ok(text) => match Mark::read(&text) {
            Some(read) => read,
            // `check` says so, naming the file.
            None => return Ok(0),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(StoreError::Io(path, e)),
    };
    if !in_doubt {
        return Ok(0);
    }
    let wal = dir.join(format!("{DATABASE}-wal"));
    let mut taken = 0;
    loop {
        let newest = {
            let conn = Connection::open(dir.join(DATABASE))?;
            // As the store opens it (no shared memory beside the log), and closed without a
            // checkpoint: the log stays as it is, to be cut.
            conn.pragma_update(None, "locking_mode", "EXCLUSIVE")?;
            conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)?;
            Mark::newest(&conn)?
        };
        if newest.seq <= mark.seq {
            return Ok(taken);
        }
        if !super::wal::take_back_last_commit(&wal).map_err(|e| StoreError::Io(wal.clone(), e))? {
            tracing::error!(
                "{}: journal row {} follows the marked row {} and was refused, but the log {} \
                 holds no commit to take back: served as it is",
                dir.join(DATABASE).display(),
                newest.seq,
                mark.seq,
                wal.display()
            );
            return Ok(taken);
        }
        taken += 1;
        tracing::warn!(
            "{}: journal row {} was refused (its commit failed) but its frames were found in the \
             log {} after a crash: taken back",
            dir.join(DATABASE).display(),
            newest.seq,
            wal.display()
        );
    }
}

/// What the journal lacks against its mark, found at start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Loss {
    /// The journal ends before the row the mark names.
    Short {
        /// The row the mark names: the last commit acknowledged.
        acknowledged: i64,
        /// The newest row the database holds.
        found: i64,
    },
    /// The row the mark names is there, but holds other lines than were written.
    Differs {
        /// The row the mark names.
        acknowledged: i64,
    },
    /// The database is kept with a mark (its format says so), and the mark is gone: what it
    /// would have shown cannot be told. Deleted with the write-ahead log, the turns since the
    /// last checkpoint would be gone without a word.
    MarkMissing,
}

impl Loss {
    /// What was found, naming the files, for the operator.
    pub fn describe(&self, dir: &Path) -> String {
        let database = dir.join(DATABASE);
        let wal = dir.join(format!("{DATABASE}-wal"));
        let mark = dir.join(MARK);
        let what = match self {
            Loss::Differs { acknowledged } => {
                format!("its journal row {acknowledged} is not the one that was committed")
            }
            Loss::Short { acknowledged, found } => format!(
                "its journal ends at row {found}, but row {acknowledged} was committed and \
                 acknowledged ({} commits are missing)",
                acknowledged - found
            ),
            Loss::MarkMissing => {
                return format!(
                    "{}: the journal's mark is missing, though {} has been kept with one (its \
                     format is {MARKED_FORMAT} or later), so whether its journal is whole cannot \
                     be told: the mark was deleted, perhaps with the write-ahead log {}, which \
                     would take every commit since the last checkpoint with it",
                    mark.display(),
                    database.display(),
                    wal.display()
                )
            }
        };
        format!(
            "{}: {what}, as {} says: the write-ahead log {} was deleted, cut short or damaged, \
             or the database was replaced",
            database.display(),
            mark.display(),
            wal.display()
        )
    }
}

/// Checks the journal in `conn` against the mark in `dir`: `None` when it reaches the marked
/// row and holds there what was written (a mark left behind by a power cut is accepted). No
/// mark at all is a loss if the database is kept with one ([`MARKED_FORMAT`]), and otherwise a
/// store from before marks, or a new one, which [`seal`] gives one from now on.
pub(super) fn check(dir: &Path, conn: &Connection) -> Result<Option<Loss>, StoreError> {
    let path = dir.join(MARK);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok((format(conn)? >= MARKED_FORMAT).then_some(Loss::MarkMissing));
        }
        Err(e) => return Err(StoreError::Io(path, e)),
    };
    let (mark, _) = Mark::read(&text).ok_or_else(|| {
        StoreError::Corrupt(format!(
            "a journal mark {} that does not read: {text:?}",
            path.display()
        ))
    })?;
    let newest = Mark::newest(conn)?;
    let loss = if newest.seq < mark.seq {
        Some(Loss::Short { acknowledged: mark.seq, found: newest.seq })
    } else if newest.seq == mark.seq && newest.sum != mark.sum {
        Some(Loss::Differs { acknowledged: mark.seq })
    } else {
        None
    };
    Ok(loss)
}

/// The database's format, as it says.
fn format(conn: &Connection) -> Result<i64, rusqlite::Error> {
    conn.pragma_query_value(None, "user_version", |r| r.get(0))
}

/// Records in the database that it is kept with a mark, once the mark is on disk (a store from
/// before marks, or a new one): from then on a missing mark is a loss. Checkpointed at once, so
/// that the format is in the database's own file, not only in its write-ahead log: deleted
/// with the log, it would be deleted with the very commits whose loss it is there to show.
pub(super) fn seal(conn: &Connection) -> Result<(), rusqlite::Error> {
    if format(conn)? >= MARKED_FORMAT {
        return Ok(());
    }
    conn.pragma_update(None, "user_version", STORE_FORMAT)?;
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_reads_back_and_nothing_else_does() {
        let mark = Mark::of(42, b"g 1 {}\n");
        assert_eq!(mark.line(false).len(), 58);
        assert_eq!(mark.line(true).len(), 58);
        assert_eq!(Mark::read(&mark.line(false)), Some((mark, false)));
        assert_eq!(Mark::read(&mark.line(true)), Some((mark, true)));
        let first_version = format!("1 {:020} {}\n", 42, crate::hex::encode(&mark.sum));
        assert_eq!(Mark::read(&first_version), Some((mark, false)));
        assert_ne!(Mark::of(42, b"g 1 {} \n"), mark, "other lines, another sum");
        for junk in [
            "",
            "1 42\n",
            "2 00000000000000000042 00\n",
            &mark.line(false).replace('2', "x"),
            &mark.line(false).replace(" 0\n", " 2\n"),
            &first_version.replace('\n', " 1\n"),
        ] {
            assert_eq!(Mark::read(junk), None, "{junk:?}");
        }
    }
}
