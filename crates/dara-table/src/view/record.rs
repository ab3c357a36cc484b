//! A game record (NOTATION.md, "Games") read and replayed by the rules, for the analysis
//! board's import: every turn is checked, an illegal one named by its number and text, so the
//! page never steps through a game the rules would not have allowed. The server answers
//! `POST /api/record` with it, and the page's WebAssembly module the same request offline.

use dara::record::Record;
use serde::{Deserialize, Serialize};

/// Longer than any record of a game the Arcade plays: a few hundred turns and their tags.
const LONGEST_RECORD: usize = 32 * 1024;

/// A record to read.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordRequest {
    /// The record's text, tags and turns.
    pub record: String,
}

/// The game the record holds, as the analysis board steps through it.
#[derive(Debug, Serialize)]
pub struct ReadRecord {
    /// The ruleset in notation.
    rules: String,
    /// The position the turns start from.
    start: String,
    /// The turns, in canonical notation.
    moves: Vec<String>,
    /// The position after each turn, the start first.
    positions: Vec<String>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    result: String,
}

impl RecordRequest {
    /// The game the record holds, or why it cannot be read (too long, or a tag or turn the
    /// rules refuse, in the reader's words).
    pub fn read(&self) -> Result<ReadRecord, String> {
        if self.record.len() > LONGEST_RECORD {
            return Err(format!("a record of at most {LONGEST_RECORD} bytes"));
        }
        let record: Record = self.record.parse().map_err(|e| format!("{e}"))?;
        Ok(ReadRecord {
            rules: record.rules().to_string(),
            start: record.start().to_string(),
            moves: record.moves().iter().map(ToString::to_string).collect(),
            positions: record.positions().iter().map(ToString::to_string).collect(),
            result: record.result.to_string(),
        })
    }
}
