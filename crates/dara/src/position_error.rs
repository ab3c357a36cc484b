//! Why a position text was refused: the field at fault and what is wrong with it, with the
//! numbers it names, so a page can word it in any language. Its `Display` is the English the
//! rules have always given.

use core::fmt;

use crate::colour::Colour;
use crate::ruleset::Ruleset;

/// Which of the five fields a position error is about.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "kebab-case"))]
pub enum Field {
    /// The text does not have five fields.
    Fields,
    /// `<board>`
    Board,
    /// `<side>`
    Side,
    /// `<white in hand>`
    WhiteHand,
    /// `<black in hand>`
    BlackHand,
    /// `<quiet plies>`
    Quiet,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::Fields => "fields",
            Field::Board => "board",
            Field::Side => "side",
            Field::WhiteHand => "white in hand",
            Field::BlackHand => "black in hand",
            Field::Quiet => "quiet plies",
        })
    }
}

/// A position text that was rejected: by its syntax ([`crate::Setup`]), or by the ruleset it
/// was set up under ([`crate::Position::from_setup`]). [`PositionError::field`] names the field
/// at fault. Ranks are numbered as the notation numbers them, 1 at the bottom.
///
/// With the `serde` feature it serialises as its code, the variant's name in kebab case, with
/// its figures: `{"code": "unknown-letter", "letter": "X", "rank": 1}`.
///
/// # Examples
/// ```
/// use dara::{Field, Position, PositionError, Ruleset};
/// let err = Position::from_text("6/6/6/6/X5 w 12 12 0", Ruleset::default()).unwrap_err();
/// assert_eq!(err, PositionError::UnknownLetter { letter: 'X', rank: 1 });
/// assert_eq!(err.field(), Field::Board);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "code", rename_all = "kebab-case")
)]
pub enum PositionError {
    /// The text is not five fields separated by single spaces.
    FieldCount {
        /// How many fields it has.
        found: usize,
    },
    /// A board of fewer than 3 or more than 7 ranks.
    RankCount {
        /// How many ranks it has.
        ranks: usize,
    },
    /// A rank of more than 7 cells.
    RankTooWide {
        /// The rank.
        rank: u8,
    },
    /// Two digits in a row in a rank, where one digit counts a run of empty cells.
    TwoDigits {
        /// The rank.
        rank: u8,
    },
    /// A letter that is neither a stone (`W`, `B`) nor a count of empty cells (1 to 7).
    UnknownLetter {
        /// The letter.
        letter: char,
        /// The rank it is in.
        rank: u8,
    },
    /// The top rank is fewer than 3 cells wide.
    RankTooNarrow {
        /// The rank.
        rank: u8,
        /// Its width.
        width: u8,
    },
    /// A rank wider or narrower than the top one.
    UnevenRanks {
        /// The rank.
        rank: u8,
        /// Its width.
        width: u8,
        /// The top rank.
        top: u8,
        /// The top rank's width.
        top_width: u8,
    },
    /// The side to move is neither `w` nor `b`.
    UnknownSide {
        /// The field as written.
        text: String,
    },
    /// A count that is not a number.
    NotANumber {
        /// Which count.
        field: Field,
        /// The field as written.
        text: String,
    },
    /// A count above the largest any ruleset allows.
    TooLarge {
        /// Which count.
        field: Field,
        /// The field as written.
        text: String,
        /// The largest it may be.
        max: u32,
    },
    /// The board is not the size the ruleset plays on.
    WrongSize {
        /// The board's width.
        cols: u8,
        /// The board's height.
        rows: u8,
        /// The ruleset.
        rules: Ruleset,
    },
    /// Stones on cells beyond the ruleset's board (only in a [`crate::Setup`] built by hand).
    StonesOffBoard,
    /// A cell holding stones of both colours (only in a [`crate::Setup`] built by hand).
    BothColours,
    /// More stones in a hand than the ruleset gives each player.
    HandTooLarge {
        /// Whose hand.
        colour: Colour,
        /// Stones in it.
        in_hand: u8,
        /// The ruleset.
        rules: Ruleset,
    },
    /// More stones on the board and in hand than the ruleset gives each player.
    TooManyStones {
        /// Whose stones.
        colour: Colour,
        /// On the board.
        on_board: u8,
        /// In hand.
        in_hand: u8,
        /// The ruleset.
        rules: Ruleset,
    },
    /// Quiet plies counted while stones are still being placed.
    QuietWhilePlacing,
    /// Under `blocked=any`, hands that say the players did not place in turn.
    OutOfTurn {
        /// The side to move.
        side: Colour,
        /// White's stones in hand.
        white: u8,
        /// Black's stones in hand.
        black: u8,
    },
    /// More quiet plies than the ruleset's draw.
    PastQuietLimit {
        /// The quiet plies.
        quiet: u32,
        /// The ruleset's limit.
        limit: u32,
    },
}

impl PositionError {
    /// The field at fault.
    pub const fn field(&self) -> Field {
        match self {
            PositionError::FieldCount { .. } => Field::Fields,
            PositionError::RankCount { .. }
            | PositionError::RankTooWide { .. }
            | PositionError::TwoDigits { .. }
            | PositionError::UnknownLetter { .. }
            | PositionError::RankTooNarrow { .. }
            | PositionError::UnevenRanks { .. }
            | PositionError::WrongSize { .. }
            | PositionError::StonesOffBoard
            | PositionError::BothColours
            | PositionError::TooManyStones { .. } => Field::Board,
            PositionError::UnknownSide { .. } | PositionError::OutOfTurn { .. } => Field::Side,
            PositionError::NotANumber { field, .. } | PositionError::TooLarge { field, .. } => {
                *field
            }
            PositionError::HandTooLarge { colour: Colour::White, .. } => Field::WhiteHand,
            PositionError::HandTooLarge { colour: Colour::Black, .. } => Field::BlackHand,
            PositionError::QuietWhilePlacing | PositionError::PastQuietLimit { .. } => Field::Quiet,
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid position: {}: ", self.field())?;
        match self {
            PositionError::FieldCount { found } => write!(
                f,
                "expected 5 fields separated by single spaces (board side white-hand black-hand \
                 quiet), found {found}"
            ),
            PositionError::RankCount { ranks } => write!(f, "{ranks} ranks; boards have 3 to 7"),
            PositionError::RankTooWide { rank } => write!(f, "rank {rank} is wider than 7 cells"),
            PositionError::TwoDigits { rank } => write!(
                f,
                "rank {rank}: two digits in a row; write one digit for a run of empty cells"
            ),
            PositionError::UnknownLetter { letter, rank } => write!(
                f,
                "unknown letter {letter:?} in rank {rank} (W white stone, B black stone, 1-7 \
                 empty cells)"
            ),
            PositionError::RankTooNarrow { rank, width } => {
                write!(f, "rank {rank} is {width} cells wide; boards have 3 to 7")
            }
            PositionError::UnevenRanks { rank, width, top, top_width } => {
                write!(f, "rank {rank} is {width} cells wide but rank {top} is {top_width}")
            }
            PositionError::UnknownSide { text } => write!(f, "{text:?}: expected w or b"),
            PositionError::NotANumber { text, .. } => write!(f, "{text:?} is not a number"),
            PositionError::TooLarge { text, max, .. } => {
                write!(f, "{text} is too large (at most {max})")
            }
            PositionError::WrongSize { cols, rows, rules } => write!(
                f,
                "the board is {cols}x{rows} but the ruleset {rules} plays on {}x{}",
                rules.cols(),
                rules.rows()
            ),
            PositionError::StonesOffBoard => f.write_str("there are stones off the board"),
            PositionError::BothColours => f.write_str("a cell holds stones of both colours"),
            PositionError::HandTooLarge { in_hand, rules, .. } => write!(
                f,
                "{in_hand} stones in hand, but {rules} gives each player {}",
                rules.stones()
            ),
            PositionError::TooManyStones { colour, on_board, in_hand, rules } => write!(
                f,
                "{colour} has {on_board} stones on the board and {in_hand} in hand, more than \
                 the {} of {rules}",
                rules.stones()
            ),
            PositionError::QuietWhilePlacing => {
                f.write_str("must be 0 while stones are being placed (it counts movement plies)")
            }
            PositionError::OutOfTurn { side, white, black } => write!(
                f,
                "{side} to place with {white} white and {black} black stones in hand: under \
                 blocked=any the players place in turn, White first"
            ),
            PositionError::PastQuietLimit { quiet, limit } => {
                write!(f, "{quiet} is past the draw at {limit} quiet plies")
            }
        }
    }
}

impl std::error::Error for PositionError {}
