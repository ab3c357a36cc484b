//! Perfect endgames of Dara: every movement-phase position with few stones, solved by
//! retrograde analysis, with win / draw / loss and the distance to the next capture.
//!
//! - [`Material`]: stones of the side to move against the other side's (`3v4`).
//! - [`MaterialIndex`]: positions as numbers, with the board's four mirror images folded
//!   together in the stored tables.
//! - [`build`]: the retrograde builder, both cores, smallest materials first.
//! - [`Value`], [`Wdl`], [`Dtc`], [`Outcome`]: what an entry says, and what it means under the
//!   quiet-plies limit from a given counter (cursed wins and blessed losses).
//! - [`file`]: the file format, a header naming ruleset, material and checksum.
//! - [`Tablebase`]: the tables of one ruleset; [`Tablebase::probe`] and
//!   [`Tablebase::rank_moves`].
//!
//! The rules are the rules crate's: move lists come from [`dara::Position::legal_moves_into`],
//! and the only question the builder asks outside it (which steps could have led to a position)
//! uses [`dara::lines`] and is tested against the move lists.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod board;
pub mod build;
mod combination;
mod error;
pub mod file;
mod index;
mod material;
mod parallel;
mod rules;
mod table;
mod tablebase;
pub mod unmove;
mod value;

pub use build::{BuildReport, Progress, Silent, Stage};
pub use error::ProbeError;
pub use file::TableFileError;
pub use index::MaterialIndex;
pub use material::{Material, ParseMaterialError};
pub use rules::{TableRules, UnsupportedRules};
pub use table::Table;
pub use tablebase::{MoveValue, Tablebase};
pub use value::{Dtc, Outcome, Value, Wdl};
