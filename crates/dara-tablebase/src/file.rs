//! The table file: a header that names what the table is, then one entry per stored position.
//!
//! All numbers little-endian:
//!
//! | bytes | field |
//! | --- | --- |
//! | 8 | magic `DARA-TB\n` |
//! | 2 | format version (1) |
//! | 1 | entry width in bytes: 1 or 2 |
//! | 1, 1 | material: the side to move's stones, the other side's |
//! | 1, 1 | board: files, ranks |
//! | 2 | length of the ruleset name, then the name (as `arcade`, `wikipedia,rows=4,cols=4`) |
//! | 8 | number of entries |
//! | 8 | checksum: 64-bit FNV-1a of the entry bytes |
//! | ... | the entries, in stored order ([`crate::MaterialIndex::stored`]) |
//!
//! An entry of width 2 is [`crate::Value`]'s two-byte form: 0 a draw, `0x4000 | dtc` a win,
//! `0x8000 | dtc` a loss. Width 1 is used when every distance is below 128: 0 a draw, `dtc`
//! (1..=127) a win, `128 + dtc` a loss.

use core::fmt;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use crate::index::MaterialIndex;
use crate::material::Material;
use crate::rules::TableRules;
use crate::table::Table;
use crate::value::{Value, Wdl};

const MAGIC: &[u8; 8] = b"DARA-TB\n";
const VERSION: u16 = 1;

/// A table file that could not be written, read, or accepted.
#[derive(Debug)]
pub enum TableFileError {
    /// The file system failed.
    Io(PathBuf, io::Error),
    /// The file is not a table, or not the one expected.
    Mismatch(PathBuf, String),
}

impl fmt::Display for TableFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableFileError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            TableFileError::Mismatch(path, why) => {
                write!(f, "{} is refused: {why}", path.display())
            }
        }
    }
}

impl std::error::Error for TableFileError {}

/// 64-bit FNV-1a: enough to catch a truncated or damaged file, and no dependency.
fn checksum(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

fn encode(table: &Table) -> (u8, Vec<u8>) {
    if table.longest_dtc() < 128 {
        let bytes = table
            .entries
            .iter()
            .map(|&e| {
                let v = Value::from_u16(e);
                match v.wdl {
                    Wdl::Draw => 0,
                    Wdl::Win => v.dtc as u8,
                    Wdl::Loss => 128 + v.dtc as u8,
                }
            })
            .collect();
        (1, bytes)
    } else {
        (2, table.entries.iter().flat_map(|e| e.to_le_bytes()).collect())
    }
}

/// The file of a material's table under `dir`: `<ruleset>-<material>.dtb`, as
/// `arcade-3v4.dtb`.
pub fn path(dir: &Path, rules: &TableRules, material: Material) -> PathBuf {
    dir.join(format!("{}-{material}.dtb", rules.table_name()))
}

/// Writes `table` into `dir`; returns the bytes written.
///
/// # Errors
/// The file could not be written.
pub fn save(dir: &Path, rules: &TableRules, table: &Table) -> Result<u64, TableFileError> {
    let path = path(dir, rules, table.material());
    let path = path.as_path();
    let io = |e| TableFileError::Io(path.to_path_buf(), e);
    let (width, body) = encode(table);
    let name = rules.table_name();
    let (cols, rows) = rules.board().size();
    let material = table.material();
    let mut out = Vec::with_capacity(body.len() + 64);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&[width, material.mover, material.other, cols, rows]);
    out.extend_from_slice(&(name.len() as u16).to_le_bytes());
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&table.len().to_le_bytes());
    out.extend_from_slice(&checksum(&body).to_le_bytes());
    out.extend_from_slice(&body);
    // Written under a temporary name and renamed, so a build stopped halfway leaves no table
    // that looks whole.
    let partial = path.with_extension("partial");
    let mut file = std::fs::File::create(&partial).map_err(io)?;
    file.write_all(&out).map_err(io)?;
    file.sync_all().map_err(io)?;
    std::fs::rename(&partial, path).map_err(io)?;
    Ok(out.len() as u64)
}

/// Reads the table of `material` from `path`, refusing a file made for anything else.
pub(crate) fn read(
    path: &Path,
    rules: &TableRules,
    material: Material,
) -> Result<Table, TableFileError> {
    let io = |e| TableFileError::Io(path.to_path_buf(), e);
    let refuse = |why: String| TableFileError::Mismatch(path.to_path_buf(), why);
    let mut bytes = Vec::new();
    std::fs::File::open(path).map_err(io)?.read_to_end(&mut bytes).map_err(io)?;
    let mut at = 0usize;
    let mut take = |n: usize| -> Result<&[u8], TableFileError> {
        let slice = bytes
            .get(at..at + n)
            .ok_or_else(|| refuse("the file ends inside its header".into()))?;
        at += n;
        Ok(slice)
    };
    if take(8)? != MAGIC {
        return Err(refuse("it is not a Dara table (wrong magic bytes)".into()));
    }
    let version = u16::from_le_bytes(take(2)?.try_into().expect("two bytes"));
    if version != VERSION {
        return Err(refuse(format!("format version {version}; this program reads {VERSION}")));
    }
    let head = take(5)?.to_vec();
    let (width, found) = (head[0], Material::new(head[1], head[2]));
    if found != material {
        return Err(refuse(format!("it holds {found}, not {material}")));
    }
    if (head[3], head[4]) != rules.board().size() {
        return Err(refuse(format!("it is for a {}x{} board", head[4], head[3])));
    }
    let name_len = u16::from_le_bytes(take(2)?.try_into().expect("two bytes")) as usize;
    let name = String::from_utf8_lossy(take(name_len)?).into_owned();
    if name != rules.table_name() {
        return Err(refuse(format!("it is for {name}, not {}", rules.table_name())));
    }
    let count = u64::from_le_bytes(take(8)?.try_into().expect("eight bytes"));
    let sum = u64::from_le_bytes(take(8)?.try_into().expect("eight bytes"));
    let index = MaterialIndex::new(rules.board(), material);
    if count != index.stored_len() {
        return Err(refuse(format!("{count} entries where {material} has {}", index.stored_len())));
    }
    let body = &bytes[at..];
    if !matches!(width, 1 | 2) || body.len() as u64 != count * u64::from(width) {
        return Err(refuse(format!(
            "{} bytes of entries, not {count} of width {width}",
            body.len()
        )));
    }
    if checksum(body) != sum {
        return Err(refuse("the checksum does not match (the file is damaged)".into()));
    }
    let entries = if width == 1 {
        body.iter()
            .map(|&b| {
                let value = match b {
                    0 => Value::DRAW,
                    1..=127 => Value { wdl: Wdl::Win, dtc: u16::from(b) },
                    _ => Value { wdl: Wdl::Loss, dtc: u16::from(b - 128) },
                };
                value.to_u16()
            })
            .collect()
    } else {
        body.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect()
    };
    Ok(Table { index, entries })
}
