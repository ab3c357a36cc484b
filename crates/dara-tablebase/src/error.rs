//! Why a position has no entry in the tables.

use core::fmt;

use dara::Status;

use crate::material::Material;

/// A position the tables cannot answer for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeError {
    /// The position is played under other rules than the tables were built for.
    OtherRules {
        /// The position's ruleset.
        position: String,
        /// The tables' ruleset.
        tables: String,
    },
    /// Stones are still being placed: the tables hold movement positions only.
    Placement,
    /// The game is over by the stone count, so there is nothing to look up.
    Over(Status),
    /// The material has no table here.
    NotSolved {
        /// The material, side to move first.
        material: Material,
        /// The most stones of the loaded tables (every material up to it is loaded).
        stones: u8,
    },
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::OtherRules { position, tables } => {
                write!(f, "the position is played under {position} but the tables are for {tables}")
            }
            ProbeError::Placement => {
                f.write_str("stones are still being placed; the tables hold movement positions only")
            }
            ProbeError::Over(status) => write!(f, "the game is already over ({status})"),
            ProbeError::NotSolved { material, stones } => write!(
                f,
                "no table for {material} ({} stones); the tables loaded hold every material up to {stones} stones",
                material.stones()
            ),
        }
    }
}

impl std::error::Error for ProbeError {}
