//! Why a move cannot be played: one reason for each case the rules tell apart, with the cells
//! and numbers it names, so a page can word it in any language. Its `Display` is the English
//! sentence the rules have always given; with the `serde` feature it serialises as its code
//! and figures, `{"code": "line-too-long", "cell": "c1", "run": 3, "limit": 3}` (the code is the
//! variant's name in kebab case; cells are their names, sides `white` or `black`).

use core::fmt;

use crate::cell::{Cell, Coord};
use crate::colour::Colour;
use crate::moves::Move;
use crate::status::{GameResult, Status};

/// Why a well-formed move is not legal in a position. Text that is not notation at all is
/// another error ([`crate::ParseMoveError`]).
///
/// # Examples
/// ```
/// use dara::{Cell, Illegal, MoveError, Position, Ruleset};
/// let pos = Position::from_text("6/6/6/BB4/WW4 w 10 10 0", Ruleset::default()).unwrap();
/// let Err(MoveError::Illegal(e)) = pos.parse_move("c1") else { panic!("c1 is closed") };
/// let c1 = Cell::from_name("c1").unwrap();
/// assert_eq!(e.why(), &Illegal::LineTooLong { cell: c1, run: 3, limit: 3 });
/// # #[cfg(feature = "serde")]
/// assert_eq!(
///     serde_json::to_string(e.why()).unwrap(),
///     r#"{"code":"line-too-long","cell":"c1","run":3,"limit":3}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "code", rename_all = "kebab-case")
)]
pub enum Illegal {
    /// The rules ended the game: nothing more is played.
    GameOver {
        /// How it ended. Not serialised: whoever asked has the position, and with it the
        /// game's status (the code alone has always travelled).
        #[cfg_attr(feature = "serde", serde(skip))]
        status: Status,
    },
    /// A record whose result is already written (a win, a draw, a resignation) takes no more
    /// moves.
    RecordFinished {
        /// The result written.
        result: GameResult,
    },
    /// A pass while the player to move can place a stone.
    PassNotAllowed,
    /// A placement in the movement phase.
    PlacementOver,
    /// A step while stones are still being placed.
    StillPlacing {
        /// The player to move.
        side: Colour,
    },
    /// A cell beyond this ruleset's board, as written.
    NoSuchCell {
        /// The cell as written.
        cell: Coord,
        /// The board's width.
        cols: u8,
        /// The board's height.
        rows: u8,
    },
    /// A cell outside this ruleset's board, given as a [`Cell`] (which names any cell of 7 x 7).
    OffBoard {
        /// The cell.
        cell: Cell,
    },
    /// A placement on, or a step onto, a cell where a stone stands.
    Occupied {
        /// The cell.
        cell: Cell,
    },
    /// The player to move has no stones left in hand.
    NoStonesInHand,
    /// `opening=corner`: the first stone of the game goes in a corner.
    CornerOpening {
        /// The cell placed on.
        cell: Cell,
    },
    /// `opening=centre`: no stone on the middle files in a player's first four placements.
    CentreOpening {
        /// The cell placed on.
        cell: Cell,
    },
    /// `place=3` or `place=4`: the placed stone would stand in a line of `run` of its colour,
    /// and placements may not make `limit` or more.
    LineTooLong {
        /// The cell placed on.
        cell: Cell,
        /// The line it would stand in.
        run: u8,
        /// The placement limit: 3 or 4.
        limit: u8,
    },
    /// `blocked=pass`: the player to move has no cell to place on and must pass; `because`
    /// says why the cell chosen is closed.
    MustPass {
        /// The player to move.
        side: Colour,
        /// Why the cell chosen is closed.
        because: Box<Illegal>,
    },
    /// A step of a stone the player to move does not have.
    NoStoneOfYours {
        /// The player to move.
        side: Colour,
        /// The cell the step starts from.
        cell: Cell,
    },
    /// A step to a cell that is not next to the stone (`diagonal`: whether diagonal steps
    /// are allowed).
    NotAStep {
        /// Where the stone stands.
        from: Cell,
        /// Where it was sent.
        to: Cell,
        /// Whether this ruleset allows diagonal steps.
        diagonal: bool,
    },
    /// `long=illegal`: the step would make a line of four or more.
    LongLine {
        /// Where the stone stands.
        from: Cell,
        /// Where it was sent.
        to: Cell,
    },
    /// Stones named to take by a step that makes no row of three.
    NoRowMade {
        /// Where the stone stands.
        from: Cell,
        /// Where it was sent.
        to: Cell,
    },
    /// A step that makes a row of three without naming the stone to take.
    CaptureRequired {
        /// Where the stone stands.
        from: Cell,
        /// Where it goes.
        to: Cell,
        /// One legal way to write it, with a capture.
        example: Move,
    },
    /// A stone named to take where the opponent has none.
    NothingToTake {
        /// The opponent, whose stone it should be.
        side: Colour,
        /// The cell named.
        cell: Cell,
    },
    /// As many stones named to take as the cell named twice.
    CapturedTwice {
        /// The cell named twice.
        cell: Cell,
    },
    /// A step that takes `takes` stones naming `named`.
    WrongCaptureCount {
        /// Where the stone stands.
        from: Cell,
        /// Where it goes.
        to: Cell,
        /// How many stones it takes.
        takes: u32,
        /// How many were named.
        named: u32,
    },
    /// `protect=yes`: the stone named stands in a row of three and may not be taken while the
    /// opponent has stones outside rows.
    Protected {
        /// The protected stone named.
        cell: Cell,
    },
    /// A placement that is legal but was not in the list of legal moves given (the caller's
    /// list was not this position's).
    NotListed {
        /// The cell placed on.
        cell: Cell,
    },
}

impl fmt::Display for Illegal {
    /// The reason in plain English, without the move's text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::GameOver { status } => write!(f, "the game is over ({status})"),
            Illegal::RecordFinished { result } => write!(f, "the game is over ({result})"),
            Illegal::PassNotAllowed => f.write_str("a pass is only allowed when a player cannot place"),
            Illegal::PlacementOver => {
                f.write_str("stones are no longer placed: every stone is down, so step one (as in c3-c4)")
            }
            Illegal::StillPlacing { side } => write!(f, "{side} is still placing stones (as in c3)"),
            Illegal::NoSuchCell { cols, rows, .. } => write!(f, "no such cell on {cols}x{rows}"),
            Illegal::OffBoard { cell } => write!(f, "{cell} is not on the board"),
            Illegal::Occupied { cell } => write!(f, "{cell} is not empty"),
            // The three below are worded as `ClosedCell` words them on a board.
            Illegal::NoStonesInHand => f.write_str("no stones are left in hand"),
            Illegal::CornerOpening { .. } => {
                f.write_str("the first stone of the game goes in a corner")
            }
            Illegal::CentreOpening { .. } => {
                f.write_str("no stone on the middle files during a player's first four placements")
            }
            Illegal::LineTooLong { cell, run, limit } => {
                let rule = if *limit >= 4 {
                    "placements may not make four or more in a line"
                } else {
                    "placements may not make three or more in a line"
                };
                write!(f, "a stone on {cell} would stand in a line of {run}; {rule}")
            }
            Illegal::MustPass { side, because } => {
                write!(f, "{side} has no stone that may be placed and must pass ({because})")
            }
            Illegal::NoStoneOfYours { side, cell } => write!(f, "there is no {side} stone on {cell}"),
            Illegal::NotAStep { from, to, diagonal } => {
                let how = if *diagonal {
                    "one step in any direction"
                } else {
                    "one step up, down, left or right"
                };
                write!(f, "{from} to {to} is not a step: stones move {how}")
            }
            Illegal::LongLine { from, to } => write!(
                f,
                "{from}-{to} would make a line of four or more, which this ruleset forbids"
            ),
            Illegal::NoRowMade { from, to } => {
                write!(f, "{from}-{to} makes no row of three, so it captures nothing")
            }
            Illegal::CaptureRequired { from, to, example } => write!(
                f,
                "{from}-{to} makes a row of three: name the stone to capture, as in {example}"
            ),
            Illegal::NothingToTake { side, cell } => {
                write!(f, "there is no {side} stone on {cell} to capture")
            }
            Illegal::CapturedTwice { cell } => write!(f, "{cell} is captured twice"),
            Illegal::WrongCaptureCount { from, to, takes, named } => {
                write!(f, "{from}-{to} captures {takes} stone(s), not {named}")
            }
            Illegal::Protected { .. } => f.write_str(
                "that stone is in a row of three and protected while the enemy has stones outside rows",
            ),
            Illegal::NotListed { cell } => write!(f, "{cell} is a legal placement"),
        }
    }
}
