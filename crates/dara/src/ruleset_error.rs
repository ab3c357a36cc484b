//! Why a ruleset was refused: which option, which value, and the range it had to be in, so a
//! page can word it in any language. Its `Display` is the English the rules have always given.

use core::fmt;

use crate::cell::MAX_SIDE;
use crate::options::{MAX_QUIET, OPTION_NAMES};

/// Why a ruleset text (or a [`crate::RulesetBuilder`]) was rejected.
///
/// With the `serde` feature it serialises as its code, the variant's name in kebab case, with its
/// figures: `{"code": "board-side", "option": "rows", "value": 9}`.
///
/// # Examples
/// ```
/// use dara::{Ruleset, RulesetError};
/// let err = "arcade,rows=9".parse::<Ruleset>().unwrap_err();
/// assert_eq!(err, RulesetError::BoardSide { option: "rows", value: 9 });
/// assert_eq!(err.to_string(), "invalid ruleset: rows=9: boards are 3 to 7 cells a side");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "code", rename_all = "kebab-case")
)]
pub enum RulesetError {
    /// The text does not start with a preset's name.
    UnknownPreset {
        /// What stood where the preset's name goes.
        preset: String,
    },
    /// An override that is not written `option=value`.
    NotOptionValue {
        /// The override as written.
        text: String,
    },
    /// An option no ruleset has.
    UnknownOption {
        /// The option as written.
        option: String,
    },
    /// The same option overridden twice.
    OptionTwice {
        /// The option.
        option: &'static str,
    },
    /// A number option (`rows`, `cols`, `stones`, `lose-at`) given something else.
    NotANumber {
        /// The option.
        option: &'static str,
        /// The value as written.
        value: String,
    },
    /// `quiet` given neither a number nor `none`.
    QuietNotANumber {
        /// The value as written.
        value: String,
    },
    /// A named option's value that is not one of its names.
    UnknownValue {
        /// The option.
        option: &'static str,
        /// The value as written.
        value: String,
        /// The names it may take.
        expected: Vec<&'static str>,
    },
    /// `rows` or `cols` outside 3 to 7.
    BoardSide {
        /// `rows` or `cols`.
        option: &'static str,
        /// The value.
        value: u8,
    },
    /// `stones` below 3 or above half the board's cells.
    StonesOutOfRange {
        /// The value.
        stones: u8,
        /// The most stones a player may have on this board: half its cells.
        most: u8,
        /// The board's width.
        cols: u8,
        /// The board's height.
        rows: u8,
    },
    /// `lose-at` other than 2 or 3.
    LoseAtOutOfRange {
        /// The value.
        lose_at: u8,
    },
    /// `lose-at` at or above `stones`: a player would have lost before the first move.
    LostBeforeFirstMove {
        /// The losing count.
        lose_at: u8,
        /// Stones per player.
        stones: u8,
    },
    /// `quiet` of 0 or above 100,000.
    QuietOutOfRange {
        /// The value.
        quiet: u32,
    },
}

impl fmt::Display for RulesetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid ruleset: ")?;
        match self {
            RulesetError::UnknownPreset { preset } => {
                write!(f, "unknown preset {preset:?} (presets: arcade, ninja, jaques, wikipedia)")
            }
            RulesetError::NotOptionValue { text } => write!(f, "{text:?} is not option=value"),
            RulesetError::UnknownOption { option } => {
                write!(f, "unknown option {option:?} (options: {})", OPTION_NAMES.join(", "))
            }
            RulesetError::OptionTwice { option } => write!(f, "option {option} is given twice"),
            RulesetError::NotANumber { option, value } => {
                write!(f, "{option}={value}: expected a number")
            }
            RulesetError::QuietNotANumber { value } => {
                write!(f, "quiet={value}: expected a number or none")
            }
            RulesetError::UnknownValue { option, value, expected } => {
                let (last, others) = expected.split_last().unwrap_or((&"", &[]));
                write!(f, "{option}={value}: expected {} or {last}", others.join(", "))
            }
            RulesetError::BoardSide { option, value } => {
                write!(f, "{option}={value}: boards are 3 to {MAX_SIDE} cells a side")
            }
            RulesetError::StonesOutOfRange { stones, most, cols, rows } => {
                let cells = u16::from(*cols) * u16::from(*rows);
                write!(
                    f,
                    "stones={stones}: each player has 3 to {most} stones on {cols}x{rows} (at most \
                     half of its {cells} cells)"
                )
            }
            RulesetError::LoseAtOutOfRange { lose_at } => {
                write!(f, "lose-at={lose_at}: must be 2 or 3")
            }
            RulesetError::LostBeforeFirstMove { lose_at, stones } => write!(
                f,
                "lose-at={lose_at} with stones={stones}: a player would have lost before the \
                 first move"
            ),
            RulesetError::QuietOutOfRange { quiet } => {
                write!(f, "quiet={quiet}: must be 1 to {MAX_QUIET}, or none")
            }
        }
    }
}

impl std::error::Error for RulesetError {}
