//! A game against the computer as the page keeps it in the player's own browser (local storage,
//! nowhere else): what it was set up with and its journal, the same events the server would
//! store. Replaying the journal rebuilds the game exactly, so a reload continues it.

use dara::{Colour, Ruleset};
use dara_engine::level::Level;
use dara_table::{GameEvent, GameId, GameSettings, Opponent};
use serde::{Deserialize, Serialize};

/// One game, as kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kept {
    /// Its id, in the page's address (`/computer/<id>`).
    pub game: GameId,
    /// The day it began, as its record writes it (`2026.12.04`).
    pub date: String,
    /// The ruleset, in notation.
    pub rules: String,
    /// The computer's level, 1 to 8.
    pub level: u8,
    /// The colour the person plays.
    pub you: Colour,
    /// Everything that happened, in order.
    #[serde(default)]
    pub journal: Vec<GameEvent>,
}

impl Kept {
    /// The settings the game was set up with and the computer's level, or what is wrong with
    /// the kept copy.
    ///
    /// # Errors
    /// The ruleset or the level does not read (a copy damaged or written by hand).
    pub fn settings(&self) -> Result<(GameSettings, Level), String> {
        let rules: Ruleset = self.rules.parse().map_err(|e| format!("ruleset: {e}"))?;
        let level = Level::new(self.level).ok_or("the level goes from 1 to 8")?;
        let settings = GameSettings {
            rules,
            opponent: Opponent::Computer(level),
            creator: self.you,
            clock: None,
        };
        Ok((settings, level))
    }
}
