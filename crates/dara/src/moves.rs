//! Moves: a placement, a pass, or a step with the stones it captures.

use core::fmt;

use crate::bitboard::Bitboard;
use crate::cell::Cell;
use crate::serde_text::serialize_as_text;

/// One ply of Dara.
///
/// A step that forms a row carries the exact set of stones it takes: each distinct set is a
/// different move, so choosing what to capture is part of choosing the move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A stone from the hand onto an empty cell.
    Put(Cell),
    /// No placement is possible (under `blocked=pass`): the turn goes to the other player.
    Pass,
    /// A stone slides from `from` to the adjacent empty cell `to`, taking `captures`.
    Step {
        /// Where the stone stood.
        from: Cell,
        /// Where it stands now.
        to: Cell,
        /// Enemy stones removed (empty unless the step formed a row).
        captures: Bitboard,
    },
}

impl Move {
    /// Whether this move takes any stone.
    #[inline]
    pub const fn is_capture(&self) -> bool {
        matches!(self, Move::Step { captures, .. } if captures.any())
    }

    /// The stones this move takes.
    #[inline]
    pub const fn captures(&self) -> Bitboard {
        match self {
            Move::Step { captures, .. } => *captures,
            _ => Bitboard::EMPTY,
        }
    }

    /// The same move without its captures: what a player does with their hand.
    #[inline]
    pub const fn without_captures(self) -> Move {
        match self {
            Move::Step { from, to, .. } => Move::Step { from, to, captures: Bitboard::EMPTY },
            other => other,
        }
    }
}

impl fmt::Display for Move {
    /// Canonical notation: `c3`, `pass`, `c3-c4`, `c3-c4xa5xb4` (captures in ascending order of
    /// rank, then file).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        match self {
            Move::Put(cell) => cell.fmt(f),
            Move::Pass => f.write_str("pass"),
            Move::Step { from, to, captures } => {
                from.fmt(f)?;
                f.write_char('-')?;
                to.fmt(f)?;
                for cell in *captures {
                    f.write_char('x')?;
                    cell.fmt(f)?;
                }
                Ok(())
            }
        }
    }
}

// A move travels as its canonical notation; it is read back through `MoveText`, which needs a
// position to become a `Move`.
serialize_as_text!(Move);

/// A list of moves. Generation appends to a list the caller may reuse, so a search or a playout
/// allocates only while a list first grows.
///
/// It is a `Vec` rather than a fixed array because `captures=per-row` on a large board has no
/// small bound: one step may take any pair of a dozen or more enemy stones.
pub type MoveList = Vec<Move>;
