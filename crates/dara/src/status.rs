//! Where a game stands: its phase, and whether it is over, won by whom and why.

use core::fmt;
use core::str::FromStr;

use crate::colour::Colour;
use crate::serde_text::serialize_as_text;

/// The two phases of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Stones go from the hands onto the board; nothing is captured.
    Placement,
    /// Stones step; rows of three capture.
    Movement,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Placement => "placement",
            Phase::Movement => "movement",
        })
    }
}

/// Why a game was won by the rules. With the `serde` feature it serialises as its code, the
/// variant's name in kebab case: `"few-stones"`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "kebab-case"))]
pub enum WinReason {
    /// The loser is down to `lose-at` stones or fewer.
    FewStones,
    /// The loser, to move, has no legal step.
    NoMoves,
}

/// Why a game was drawn by the rules. With the `serde` feature it serialises as its code:
/// `"quiet-plies"`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "kebab-case"))]
pub enum DrawReason {
    /// `quiet` movement plies passed without a capture.
    QuietPlies,
}

/// The state of the game for the player to move.
///
/// With the `serde` feature it serialises as the result in record notation, the winner (or
/// `null`) and, once the game is over, why, as the code of its [`WinReason`] or [`DrawReason`]:
/// `{"result": "1-0", "winner": "white", "code": "no-moves"}`, `{"result": "*", "winner": null}`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The player to move has a move to make.
    Ongoing,
    /// The game is over and `winner` has won.
    Won {
        /// Who won.
        winner: Colour,
        /// Why.
        reason: WinReason,
    },
    /// The game is over and drawn.
    Drawn(DrawReason),
}

impl Status {
    /// The result in record notation: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn result_text(self) -> &'static str {
        match self {
            Status::Ongoing => "*",
            Status::Won { winner: Colour::White, .. } => "1-0",
            Status::Won { winner: Colour::Black, .. } => "0-1",
            Status::Drawn(_) => "1/2-1/2",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Ongoing => f.write_str("ongoing"),
            Status::Won { winner, reason } => {
                let loser = !*winner;
                match reason {
                    WinReason::FewStones => {
                        write!(f, "{winner} wins: {loser} has too few stones to make a row")
                    }
                    WinReason::NoMoves => write!(f, "{winner} wins: {loser} has no legal move"),
                }
            }
            Status::Drawn(DrawReason::QuietPlies) => {
                f.write_str("drawn: too many movement plies without a capture")
            }
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Status {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        /// Why the game ended: either kind of reason, as its own code.
        #[derive(serde::Serialize)]
        #[serde(untagged)]
        enum Why {
            Won(WinReason),
            Drawn(DrawReason),
        }
        /// The shape on the wire: the reason is a code beside the result, not a nested object,
        /// so `Status` is written by hand around the reasons' derived codes.
        #[derive(serde::Serialize)]
        struct Wire {
            result: &'static str,
            winner: Option<Colour>,
            #[serde(skip_serializing_if = "Option::is_none")]
            code: Option<Why>,
        }
        let (winner, code) = match *self {
            Status::Ongoing => (None, None),
            Status::Won { winner, reason } => (Some(winner), Some(Why::Won(reason))),
            Status::Drawn(reason) => (None, Some(Why::Drawn(reason))),
        };
        Wire { result: self.result_text(), winner, code }.serialize(serializer)
    }
}

/// How a game ended, as a record writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
    /// `*`: not finished (or not known).
    Unfinished,
}

impl GameResult {
    /// The result the rules give a position: unfinished while the game goes on.
    pub fn of_status(status: Status) -> GameResult {
        match status {
            Status::Ongoing => GameResult::Unfinished,
            Status::Won { winner, .. } => GameResult::from_winner(winner),
            Status::Drawn(_) => GameResult::Draw,
        }
    }

    /// The win of `winner`.
    pub const fn from_winner(winner: Colour) -> GameResult {
        match winner {
            Colour::White => GameResult::WhiteWins,
            Colour::Black => GameResult::BlackWins,
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Colour> {
        match self {
            GameResult::WhiteWins => Some(Colour::White),
            GameResult::BlackWins => Some(Colour::Black),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        })
    }
}

impl FromStr for GameResult {
    type Err = ();
    fn from_str(text: &str) -> Result<GameResult, ()> {
        match text {
            "1-0" => Ok(GameResult::WhiteWins),
            "0-1" => Ok(GameResult::BlackWins),
            "1/2-1/2" => Ok(GameResult::Draw),
            "*" => Ok(GameResult::Unfinished),
            _ => Err(()),
        }
    }
}

// A result travels as a record writes it: `1-0`, `0-1`, `1/2-1/2`, `*`.
serialize_as_text!(GameResult);
