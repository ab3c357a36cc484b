//! The write-ahead log's own format (<https://sqlite.org/fileformat2.html#walformat>), read
//! just far enough to take its last commit back: the one thing SQLite offers no call for.
//!
//! A commit whose sync failed was refused, and SQLite goes on as if it had never been written;
//! but its frames were written before the sync, and a crash before the next commit (which
//! writes over them) may leave them in the log, whole, where the next start reads them as a
//! commit like any other. The mark says when that may be so (see `mark`), and the start takes
//! that commit back here, before SQLite opens the database.

use std::fs::OpenOptions;
use std::io::Read;
use std::path::Path;

/// The log's header: magic, format, page size, checkpoint, two salts, its checksum.
const HEADER: usize = 32;
/// A frame's header: its page, the database's size after a commit (0 in a frame that does not
/// end one), the two salts, its checksum.
const FRAME_HEADER: usize = 24;

/// The log's checksum over `bytes` (a multiple of 8), continuing from `sum`: the 32-bit words
/// read big-endian or little-endian as the magic says.
fn checksum(sum: [u32; 2], bytes: &[u8], big_endian: bool) -> [u32; 2] {
    let [mut s0, mut s1] = sum;
    for pair in bytes.chunks_exact(8) {
        let word = |b: &[u8]| {
            let b = [b[0], b[1], b[2], b[3]];
            if big_endian {
                u32::from_be_bytes(b)
            } else {
                u32::from_le_bytes(b)
            }
        };
        s0 = s0.wrapping_add(word(&pair[..4])).wrapping_add(s1);
        s1 = s1.wrapping_add(word(&pair[4..])).wrapping_add(s0);
    }
    [s0, s1]
}

fn be32(bytes: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// Where each commit of the log ends, in order: the frames SQLite's own recovery would take,
/// those whose salts are the header's and whose checksums follow on from the frame before.
fn commit_ends(log: &[u8]) -> Vec<usize> {
    if log.len() < HEADER {
        return Vec::new();
    }
    let big_endian = match be32(log, 0) {
        0x377f_0682 => false,
        0x377f_0683 => true,
        _ => return Vec::new(),
    };
    let page = be32(log, 8) as usize;
    let mut sum = checksum([0, 0], &log[..24], big_endian);
    if sum != [be32(log, 24), be32(log, 28)] || !(512..=65536).contains(&page) {
        return Vec::new();
    }
    let salts = &log[16..24];
    let mut ends = Vec::new();
    let mut at = HEADER;
    while at + FRAME_HEADER + page <= log.len() {
        let frame = &log[at..at + FRAME_HEADER + page];
        if &frame[8..16] != salts {
            break;
        }
        sum = checksum(sum, &frame[..8], big_endian);
        sum = checksum(sum, &frame[FRAME_HEADER..], big_endian);
        if sum != [be32(frame, 16), be32(frame, 20)] {
            break;
        }
        at += frame.len();
        if be32(frame, 4) != 0 {
            ends.push(at);
        }
    }
    ends
}

/// Takes the last commit out of the log at `path` (cuts the file where the commit before it
/// ends): `Ok(false)` if the log holds no commit. Only while no connection has the database
/// open: SQLite reads the log again when it next opens it.
pub(super) fn take_back_last_commit(path: &Path) -> std::io::Result<bool> {
    let mut file = match OpenOptions::new().read(true).write(true).open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e),
    };
    let mut log = Vec::new();
    file.read_to_end(&mut log)?;
    let ends = commit_ends(&log);
    let Some(&last) = ends.last() else { return Ok(false) };
    // The log's own header stays: an empty log, as SQLite leaves one after a checkpoint.
    let before = ends.len().checked_sub(2).map_or(HEADER, |i| ends[i]);
    debug_assert!(before < last);
    file.set_len(before as u64)?;
    file.sync_all()?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A log written by SQLite itself: its commits are found where they end, and each one
    /// taken back leaves the database as it was before that commit.
    #[test]
    fn the_last_commit_is_taken_back_and_the_ones_before_stay() {
        let dir = std::env::temp_dir().join(format!("dara-wal-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let database = dir.join("t.sqlite");
        let open = || {
            let conn = rusqlite::Connection::open(&database).unwrap();
            conn.pragma_update(None, "locking_mode", "EXCLUSIVE").unwrap();
            conn.pragma_update(None, "journal_mode", "WAL").unwrap();
            conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)
                .unwrap();
            conn
        };
        let conn = open();
        conn.execute_batch("CREATE TABLE t (n INTEGER); PRAGMA wal_checkpoint(TRUNCATE);").unwrap();
        for n in 1..=3 {
            conn.execute("INSERT INTO t VALUES (?1)", [n]).unwrap();
        }
        drop(conn);
        let wal = dir.join("t.sqlite-wal");
        let log = std::fs::read(&wal).unwrap();
        assert_eq!(commit_ends(&log).len(), 3);
        let count = || -> i64 {
            let conn = open();
            conn.query_row("SELECT count(*) FROM t", [], |r| r.get(0)).unwrap()
        };
        assert!(take_back_last_commit(&wal).unwrap());
        assert_eq!(count(), 2);
        assert!(take_back_last_commit(&wal).unwrap());
        assert!(take_back_last_commit(&wal).unwrap());
        assert_eq!(count(), 0);
        assert!(!take_back_last_commit(&wal).unwrap(), "nothing more to take back");
        // A log whose bytes were changed is not read past the change.
        let mut junk = log.clone();
        let last = junk.len() - 1;
        junk[last] ^= 1;
        assert_eq!(commit_ends(&junk).len(), 2);
        assert!(commit_ends(&log[..20]).is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
