//! One open table as the lobby lists it, for the home page and for the nodes of a cluster.

use dara::{Colour, Ruleset};
use serde::Serialize;

use crate::clock::TimeControl;
use crate::GameId;

/// One open table as the lobby shows it.
#[derive(Debug, Clone, Serialize)]
pub struct OpenTable {
    /// The game to open to sit down.
    pub game: GameId,
    /// The ruleset, in notation on the wire.
    #[serde(serialize_with = "crate::view::display")]
    pub rules: Ruleset,
    /// The clock, if any.
    pub clock: Option<TimeControl>,
    /// The colour the sitter will play (`white` or `black`).
    pub seat: Colour,
}
