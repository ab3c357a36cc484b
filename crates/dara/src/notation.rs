//! Move notation in two stages: [`MoveText`] reads the syntax alone (no position needed), then
//! [`MoveText::to_move`] checks it against a position. The two stages fail with different errors.
//!
//! How often each way lists the legal moves (a generation, the costly part):
//! [`Position::parse_move`] and [`MoveText::to_move`] once, [`Position::play`] once, so reading
//! then playing a move lists them twice; [`MoveText::to_move_in`],
//! [`Position::parse_move_in`] and [`Position::play_listed`] never, as they take the list the
//! caller already has.

use core::fmt;
use core::str::FromStr;

use crate::bitboard::Bitboard;
use crate::cell::{parse_coord, Cell, Coord};
use crate::illegal::Illegal;
use crate::moves::Move;
use crate::position::{IllegalMoveError, Position};

/// A move as written, checked for syntax only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveText {
    /// `c3`
    Put(Coord),
    /// `pass`
    Pass,
    /// `c3-c4`, `c3-c4xe5`, `c3-c4xa5xb4`
    Step {
        /// Where the stone stands.
        from: Coord,
        /// Where it goes.
        to: Coord,
        /// Captured cells, in the order written.
        captures: Vec<Coord>,
    },
}

/// A move text that is not Dara notation at all. It says what is wrong in English only: its
/// code, in a [`MoveError`], is `unreadable`, with no figures.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ParseMoveError {
    #[cfg_attr(feature = "serde", serde(skip))]
    text: String,
    #[cfg_attr(feature = "serde", serde(skip))]
    reason: &'static str,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a move: {}", self.text, self.reason)
    }
}

impl std::error::Error for ParseMoveError {}

/// Either stage failing, for callers that go from text to a legal move in one call.
///
/// With the `serde` feature it serialises as a code: `{"code": "unreadable"}` for text that is
/// not notation, else the [`Illegal`] reason's code and figures.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(tag = "code"))]
pub enum MoveError {
    /// Not move notation.
    #[cfg_attr(feature = "serde", serde(rename = "unreadable"))]
    Parse(ParseMoveError),
    /// Not legal here.
    #[cfg_attr(feature = "serde", serde(untagged))]
    Illegal(IllegalMoveError),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Parse(e) => e.fmt(f),
            MoveError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MoveError {}

impl From<ParseMoveError> for MoveError {
    fn from(e: ParseMoveError) -> MoveError {
        MoveError::Parse(e)
    }
}

impl From<IllegalMoveError> for MoveError {
    fn from(e: IllegalMoveError) -> MoveError {
        MoveError::Illegal(e)
    }
}

impl FromStr for MoveText {
    type Err = ParseMoveError;

    fn from_str(text: &str) -> Result<MoveText, ParseMoveError> {
        let err = |reason| ParseMoveError { text: text.to_string(), reason };
        if text == "pass" {
            return Ok(MoveText::Pass);
        }
        let coord = |part: &str, what| {
            parse_coord(part).map(|(file, rank)| Coord { file, rank }).ok_or_else(|| err(what))
        };
        let Some((from, rest)) = text.split_once('-') else {
            return coord(text, "expected a cell (c3), a step (c3-c4) or pass").map(MoveText::Put);
        };
        let from = coord(from, "a step starts with a cell, as in c3-c4")?;
        let mut parts = rest.split('x');
        let to = coord(parts.next().unwrap_or_default(), "a step ends with a cell, as in c3-c4")?;
        let captures = parts
            .map(|p| coord(p, "each capture is x and a cell, as in c3-c4xe5"))
            .collect::<Result<Vec<_>, _>>()?;
        if captures.len() > 2 {
            return Err(err("a step takes at most two stones"));
        }
        Ok(MoveText::Step { from, to, captures })
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveText::Put(c) => write!(f, "{c}"),
            MoveText::Pass => f.write_str("pass"),
            MoveText::Step { from, to, captures } => {
                write!(f, "{from}-{to}")?;
                for c in captures {
                    write!(f, "x{c}")?;
                }
                Ok(())
            }
        }
    }
}

impl MoveText {
    /// The legal move of `pos` this text names. Lists the legal moves once; a caller that
    /// already holds them uses [`MoveText::to_move_in`].
    ///
    /// # Errors
    /// Says why the move cannot be played: a cell off the board, not the phase for it, no stone
    /// of the mover's there, a target that is occupied or not adjacent, a forbidden placement,
    /// a missing or wrong capture.
    pub fn to_move(&self, pos: &Position) -> Result<Move, IllegalMoveError> {
        self.to_move_in(pos, &pos.legal_moves())
    }

    /// [`MoveText::to_move`] against `legal`, the list [`Position::legal_moves`] gave for `pos`,
    /// without listing the moves again: a server that lists a position's moves once (to send
    /// them) resolves the player's move against the same list. Given any other list, the
    /// answer is wrong but nothing panics.
    ///
    /// # Errors
    /// As [`MoveText::to_move`].
    pub fn to_move_in(&self, pos: &Position, legal: &[Move]) -> Result<Move, IllegalMoveError> {
        let text = self.to_string();
        let illegal = |why: Illegal| IllegalMoveError::new(text.clone(), why);
        let rules = pos.rules();
        let cell = |c: Coord| {
            (c.file < rules.cols() && c.rank < rules.rows())
                .then(|| Cell::new(c.file, c.rank))
                .flatten()
                .ok_or_else(|| {
                    IllegalMoveError::new(
                        c.to_string(),
                        Illegal::NoSuchCell { cell: c, cols: rules.cols(), rows: rules.rows() },
                    )
                })
        };
        let wanted = match self {
            MoveText::Put(c) => Move::Put(cell(*c)?),
            MoveText::Pass => Move::Pass,
            MoveText::Step { from, to, captures } => {
                let mut set = Bitboard::EMPTY;
                for c in captures {
                    let c = cell(*c)?;
                    if set.contains(c) {
                        return Err(illegal(Illegal::CapturedTwice { cell: c }));
                    }
                    set = set.with(c);
                }
                Move::Step { from: cell(*from)?, to: cell(*to)?, captures: set }
            }
        };
        if legal.contains(&wanted) {
            return Ok(wanted);
        }
        Err(illegal(pos.why_illegal(wanted, legal)))
    }
}

impl Position {
    /// Reads a move in notation and checks that it is legal here. Lists the legal moves once;
    /// with the list in hand, use [`Position::parse_move_in`].
    ///
    /// # Errors
    /// [`MoveError::Parse`] for text that is not notation, [`MoveError::Illegal`] for a move
    /// this position does not allow.
    ///
    /// # Examples
    /// ```
    /// use dara::{Position, Ruleset};
    /// let pos = Position::start(Ruleset::default());
    /// assert_eq!(pos.parse_move("c3").unwrap().to_string(), "c3");
    /// assert!(pos.parse_move("c9").unwrap_err().to_string().contains("no such cell on 6x5"));
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        Ok(text.parse::<MoveText>()?.to_move(self)?)
    }

    /// [`Position::parse_move`] against `legal`, this position's [`Position::legal_moves`],
    /// without listing them again. With [`Position::play_listed`], a turn read from text lists
    /// the moves once:
    ///
    /// ```
    /// use dara::{Position, Ruleset};
    /// let mut pos = Position::start(Ruleset::default());
    /// let legal = pos.legal_moves(); // the one listing, also sent to the players
    /// let m = pos.parse_move_in("c3", &legal).unwrap();
    /// pos.play_listed(m, &legal).unwrap();
    /// assert_eq!(pos.to_string(), "6/6/2W3/6/6 b 11 12 0");
    /// ```
    ///
    /// # Errors
    /// As [`Position::parse_move`].
    pub fn parse_move_in(&self, text: &str, legal: &[Move]) -> Result<Move, MoveError> {
        Ok(text.parse::<MoveText>()?.to_move_in(self, legal)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax() {
        assert_eq!("pass".parse::<MoveText>().unwrap(), MoveText::Pass);
        assert!(matches!("c3".parse::<MoveText>().unwrap(), MoveText::Put(_)));
        let step: MoveText = "c3-c4xb5xa5".parse().unwrap();
        assert_eq!(step.to_string(), "c3-c4xb5xa5");
        for bad in [
            "",
            "c",
            "3c",
            "c0",
            "C3",
            "c3-",
            "-c4",
            "c3-c4x",
            "c3-c4xa1xa2xa3",
            "c3c4",
            "pas",
            "c3--c4",
            "c03",
            "c3-c4-c5",
            "c+3",
        ] {
            assert!(bad.parse::<MoveText>().is_err(), "{bad:?} should not parse");
        }
    }
}
