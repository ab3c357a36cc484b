//! A game's settings: the ruleset, who plays (a friend, the computer, whoever sits at an open
//! table), who takes the pale stones, and the clock.

use core::str::FromStr;
use dara::{Colour, Ruleset};
use dara_engine::level::Level;

use serde::de::IntoDeserializer;
use serde::{Deserialize, Serialize, Serializer};

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

/// The kinds of game, as the page names them (`friend`, `computer`, `open`): an [`Opponent`]
/// without the computer's level, read and written by serde from these names alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OpponentKind {
    /// See [`Opponent::Friend`].
    Friend,
    /// See [`Opponent::Computer`].
    Computer,
    /// See [`Opponent::Open`].
    Open,
}

impl FromStr for OpponentKind {
    type Err = serde::de::value::Error;

    /// The kind a page names, by the names serde reads.
    fn from_str(name: &str) -> Result<OpponentKind, Self::Err> {
        OpponentKind::deserialize(name.into_deserializer())
    }
}

impl Opponent {
    /// The kind of game this is.
    pub fn kind(self) -> OpponentKind {
        match self {
            Opponent::Friend => OpponentKind::Friend,
            Opponent::Computer(_) => OpponentKind::Computer,
            Opponent::Open => OpponentKind::Open,
        }
    }

    /// Whether a game against this opponent may be played on a clock: not against the
    /// computer, where takebacks and its thinking pauses would make a clock meaningless.
    pub fn plays_on_clock(self) -> bool {
        !matches!(self, Opponent::Computer(_))
    }
}

impl Serialize for Opponent {
    /// As the page names the kinds of game: its [`OpponentKind`].
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.kind().serialize(s)
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
