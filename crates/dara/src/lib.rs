//! The rules of Dara, the alignment game of the Sahel: rulesets, positions, legal moves,
//! notation, game records and perft.
//!
//! Everything follows the project's contract (`RULES.md` and `NOTATION.md`): a [`Ruleset`] is
//! a preset with overrides, a [`Position`] is validated against it, and moves are generated with
//! every distinct choice of captured stones as its own [`Move`].
//!
//! ```
//! use dara::{Position, Ruleset, Status};
//! let rules: Ruleset = "arcade".parse().unwrap();
//! let mut pos = Position::start(rules);
//! assert_eq!(pos.legal_moves().len(), 30);
//! pos.play(pos.parse_move("c3").unwrap()).unwrap();
//! assert_eq!(pos.to_string(), "6/6/2W3/6/6 b 11 12 0");
//! assert_eq!(pos.status(), Status::Ongoing);
//! ```
//!
//! Cargo features, both off by default:
//! - `serde`: rulesets, setups, colours, cells (`c3`), moves and results serialise as their
//!   notation text. What the rules refuse or decide travels as a code with its figures, the
//!   variant's name in kebab case written by serde's derive: [`Illegal`] and [`MoveError`]
//!   (`{"code": "line-too-long", "cell": "c1", "run": 3, "limit": 3}`, `{"code": "unreadable"}`),
//!   [`RulesetError`], [`PositionError`], [`ClosedCell`] (`"would-make-three"`) and [`Status`]
//!   (`{"result": "1-0", "winner": "white", "code": "no-moves"}`). `Coded` gives one value of
//!   each, so a program can list every code (`dara codes`).
//! - `count-generations`: `dara::generations()` counts this thread's legal-move lists, so a caller's
//!   tests can show how often it lists them. Off, the count is compiled out.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod bitboard;
mod cell;
mod closed_cell;
#[cfg(feature = "serde")]
mod codes;
mod colour;
mod counting;
mod direction;
mod generations;
mod illegal;
pub mod lines;
mod movegen;
mod moves;
mod notation;
mod options;
pub mod perft;
mod position;
mod position_error;
pub mod record;
mod ruleset;
mod ruleset_error;
mod serde_text;
mod setup;
mod splitmix;
mod status;
mod zobrist;

pub use bitboard::{Bitboard, Cells};
pub use cell::{Cell, Coord, MAX_SIDE};
pub use closed_cell::ClosedCell;
#[cfg(feature = "serde")]
pub use codes::Coded;
pub use colour::{ByColour, Colour, ParseColourError};
pub use direction::Direction;
#[cfg(feature = "count-generations")]
pub use generations::generations;
pub use illegal::Illegal;
pub use moves::{Move, MoveList};
pub use notation::{MoveError, MoveText, ParseMoveError};
pub use position::{IllegalMoveError, Position};
pub use position_error::{Field, PositionError};
pub use ruleset::{
    Blocked, Captures, Long, Opening, Place, Preset, Ruleset, RulesetBuilder, RulesetError,
};
pub use setup::Setup;
pub use splitmix::SplitMix64;
pub use status::{DrawReason, Phase, Status, WinReason};
