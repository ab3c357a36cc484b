//! The game set-up options shared by subcommands: a ruleset, and a position or a record.

use std::path::PathBuf;

use anyhow::{Context, Result};
use dara::record::Record;
use dara::{Position, Ruleset};

/// `--rules` and `--position`.
#[derive(Debug, clap::Args)]
pub struct PositionArgs {
    /// The ruleset: a preset (arcade, ninja, jaques, wikipedia) and overrides, as in
    /// `jaques,diagonal=yes`.
    #[arg(long, default_value = "arcade")]
    pub rules: String,
    /// A position in five-field notation (board side white-hand black-hand quiet), as in
    /// "4W1/5B/WWW1W1/4WB/1B2WB w 0 0 1". Defaults to the ruleset's start position.
    #[arg(long)]
    pub position: Option<String>,
}

impl PositionArgs {
    /// The ruleset and position these options name.
    pub fn load(&self) -> Result<Position> {
        let rules: Ruleset = self.rules.parse()?;
        Ok(match &self.position {
            Some(text) => Position::from_text(text, rules)?,
            None => Position::start(rules),
        })
    }
}

/// Reads and replays a game record file.
pub fn load_record(path: &PathBuf) -> Result<Record> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the record {}", path.display()))?;
    text.parse::<Record>().with_context(|| format!("in the record {}", path.display()))
}
