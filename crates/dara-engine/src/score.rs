//! Scores: centi-stones from the side to move's point of view, or a won or lost game a known
//! number of plies away.

use core::fmt;

/// The deepest the search ever goes from its root, in plies.
pub const MAX_PLY: usize = 128;

/// A search score. `WIN - n` is a win `n` plies from the root; `-(WIN - n)` a loss.
pub type Value = i32;

/// The score of a position won on the board right now.
pub const WIN: Value = 30_000;
/// Wider than any score: the bounds of the first window.
pub const INFINITE: Value = 31_000;
/// A drawn position.
pub const DRAW: Value = 0;
/// Every score at least this large is a win found by the search.
pub const WIN_BOUND: Value = WIN - MAX_PLY as Value;

/// Whether `v` is a proven win or loss.
#[inline]
pub const fn is_decisive(v: Value) -> bool {
    v >= WIN_BOUND || v <= -WIN_BOUND
}

/// A score in the words of the engine protocol.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// An estimate in centi-stones (100 = one stone).
    Cp(i32),
    /// The side to move wins in this many plies.
    Win(u32),
    /// The side to move loses in this many plies.
    Loss(u32),
}

impl Score {
    /// Reads a search value (relative to the root).
    pub fn from_value(v: Value) -> Score {
        if v >= WIN_BOUND {
            Score::Win((WIN - v) as u32)
        } else if v <= -WIN_BOUND {
            Score::Loss((WIN + v) as u32)
        } else {
            Score::Cp(v)
        }
    }
}

impl fmt::Display for Score {
    /// `cp 35`, `win 7`, `loss 4`, as `info ... score <this>` wants.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Win(n) => write!(f, "win {n}"),
            Score::Loss(n) => write!(f, "loss {n}"),
        }
    }
}

/// A value as stored in the transposition table: wins counted from the stored node, not the root.
#[inline]
pub const fn to_tt(v: Value, ply: usize) -> Value {
    if v >= WIN_BOUND {
        v + ply as Value
    } else if v <= -WIN_BOUND {
        v - ply as Value
    } else {
        v
    }
}

/// The inverse of [`to_tt`].
#[inline]
pub const fn from_tt(v: Value, ply: usize) -> Value {
    if v >= WIN_BOUND {
        v - ply as Value
    } else if v <= -WIN_BOUND {
        v + ply as Value
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_words() {
        assert_eq!(Score::from_value(WIN - 3).to_string(), "win 3");
        assert_eq!(Score::from_value(-WIN + 4).to_string(), "loss 4");
        assert_eq!(Score::from_value(-35).to_string(), "cp -35");
        assert_eq!(from_tt(to_tt(WIN - 9, 4), 6), WIN - 11);
    }
}
