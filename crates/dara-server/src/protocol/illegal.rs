//! Why a turn is not legal, as it travels: the rules' reason ([`dara::Illegal`]) as a code with
//! its cells and numbers, which the page words in its language. Cells are their names (`c3`),
//! sides `white` or `black`.

use dara::{Colour, Illegal, MoveError};
use serde::Serialize;

/// The code and figures of an illegal turn (`why` in an `illegal-move` refusal, PROTOCOL.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "kebab-case")]
#[allow(missing_docs)] // each variant's doc names its fields
pub enum MoveWhy {
    /// The text is not Dara notation at all.
    Unreadable,
    /// The rules ended the game.
    GameOver,
    /// A pass while a stone can be placed.
    PassNotAllowed,
    /// A placement once every stone is down.
    PlacementOver,
    /// A step while stones are still placed.
    StillPlacing { side: Colour },
    /// A cell off the board (`cols` x `rows`).
    NoSuchCell { cell: String, cols: u8, rows: u8 },
    /// `cell` is not on this board.
    OffBoard { cell: String },
    /// A placement on `cell` is legal but was judged against another position's turns.
    NotListed { cell: String },
    /// A stone stands on `cell`.
    Occupied { cell: String },
    /// No stones left in hand.
    NoStonesInHand,
    /// `opening=corner`: the first stone goes in a corner.
    CornerOpening { cell: String },
    /// `opening=centre`: no stone on the middle files in a player's first four placements.
    CentreOpening { cell: String },
    /// A stone on `cell` would stand in a line of `run`; placements may not make `limit`.
    LineTooLong { cell: String, run: u8, limit: u8 },
    /// `side` cannot place anywhere and must pass; `because` says why the cell is closed.
    MustPass { side: Colour, because: Box<MoveWhy> },
    /// No stone of `side`'s on `cell`.
    NoStoneOfYours { side: Colour, cell: String },
    /// `from` to `to` is not one step (`diagonal`: whether diagonal steps are allowed).
    NotAStep { from: String, to: String, diagonal: bool },
    /// The step would make a line of four or more, which this ruleset forbids.
    LongLine { from: String, to: String },
    /// A stone named to take by a step that makes no row of three.
    NoRowMade { from: String, to: String },
    /// A step making a row of three names no stone to take; `example` is one way to write it.
    CaptureRequired { from: String, to: String, example: String },
    /// No stone of `side`'s on `cell` to take.
    NothingToTake { side: Colour, cell: String },
    /// `cell` is named twice to take.
    CapturedTwice { cell: String },
    /// The step takes `takes` stones, not `named`.
    WrongCaptureCount { from: String, to: String, takes: u32, named: u32 },
    /// `protect=yes`: the stone on `cell` stands in a row of three and may not be taken yet.
    Protected { cell: String },
}

impl MoveWhy {
    /// Why `error` refused a turn's text.
    pub fn of_error(error: &MoveError) -> MoveWhy {
        match error {
            MoveError::Parse(_) => MoveWhy::Unreadable,
            MoveError::Illegal(e) => MoveWhy::from(e.why()),
        }
    }
}

impl From<&Illegal> for MoveWhy {
    fn from(why: &Illegal) -> MoveWhy {
        match why {
            Illegal::GameOver { .. } | Illegal::RecordFinished { .. } => MoveWhy::GameOver,
            Illegal::PassNotAllowed => MoveWhy::PassNotAllowed,
            Illegal::PlacementOver => MoveWhy::PlacementOver,
            Illegal::StillPlacing { side } => MoveWhy::StillPlacing { side: *side },
            Illegal::NoSuchCell { cell, cols, rows } => {
                MoveWhy::NoSuchCell { cell: cell.to_string(), cols: *cols, rows: *rows }
            }
            Illegal::OffBoard { cell } => MoveWhy::OffBoard { cell: cell.to_string() },
            Illegal::NotListed { cell } => MoveWhy::NotListed { cell: cell.to_string() },
            Illegal::Occupied { cell } => MoveWhy::Occupied { cell: cell.to_string() },
            Illegal::NoStonesInHand => MoveWhy::NoStonesInHand,
            Illegal::CornerOpening { cell } => MoveWhy::CornerOpening { cell: cell.to_string() },
            Illegal::CentreOpening { cell } => MoveWhy::CentreOpening { cell: cell.to_string() },
            Illegal::LineTooLong { cell, run, limit } => {
                MoveWhy::LineTooLong { cell: cell.to_string(), run: *run, limit: *limit }
            }
            Illegal::MustPass { side, because } => {
                MoveWhy::MustPass { side: *side, because: Box::new(MoveWhy::from(&**because)) }
            }
            Illegal::NoStoneOfYours { side, cell } => {
                MoveWhy::NoStoneOfYours { side: *side, cell: cell.to_string() }
            }
            Illegal::NotAStep { from, to, diagonal } => MoveWhy::NotAStep {
                from: from.to_string(),
                to: to.to_string(),
                diagonal: *diagonal,
            },
            Illegal::LongLine { from, to } => {
                MoveWhy::LongLine { from: from.to_string(), to: to.to_string() }
            }
            Illegal::NoRowMade { from, to } => {
                MoveWhy::NoRowMade { from: from.to_string(), to: to.to_string() }
            }
            Illegal::CaptureRequired { from, to, example } => MoveWhy::CaptureRequired {
                from: from.to_string(),
                to: to.to_string(),
                example: example.to_string(),
            },
            Illegal::NothingToTake { side, cell } => {
                MoveWhy::NothingToTake { side: *side, cell: cell.to_string() }
            }
            Illegal::CapturedTwice { cell } => MoveWhy::CapturedTwice { cell: cell.to_string() },
            Illegal::WrongCaptureCount { from, to, takes, named } => MoveWhy::WrongCaptureCount {
                from: from.to_string(),
                to: to.to_string(),
                takes: *takes,
                named: *named,
            },
            Illegal::Protected { cell } => MoveWhy::Protected { cell: cell.to_string() },
        }
    }
}
