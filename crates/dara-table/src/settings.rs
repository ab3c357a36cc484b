//! A game's settings: the ruleset, who plays (a friend, the computer, whoever sits at an open
//! table), who takes the pale stones, and the clock.

use dara::{Colour, Ruleset};
use dara_engine::level::Level;
use serde::{Serialize, Serializer};

use crate::clock::TimeControl;

/// Who sits opposite the creator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opponent {
    /// Whoever opens the invite link first.
    Friend,
    /// The engine, at a level.
    Computer(Level),
    /// Whoever sits at the table from the lobby.
    Open,
}

impl Serialize for Opponent {
    /// As the page names the kinds of game: `friend`, `computer`, `open`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match self {
            Opponent::Friend => "friend",
            Opponent::Computer(_) => "computer",
            Opponent::Open => "open",
        })
    }
}

/// A game's settings, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSettings {
    /// The rules played.
    pub rules: Ruleset,
    /// Who the creator plays.
    pub opponent: Opponent,
    /// The creator's colour.
    pub creator: Colour,
    /// The clock, for games between people.
    pub clock: Option<TimeControl>,
}
