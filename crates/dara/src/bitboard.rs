//! Sets of cells as 64-bit masks: one bit per cell, eight bits per rank.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::cell::{Cell, MAX_SIDE};
use crate::direction::Direction;

/// A set of cells. Bit `rank * 8 + file` stands for the cell at `file`, `rank`.
///
/// Because boards are at most 7 files wide, bit 7 of every rank (and the whole eighth rank) is
/// never a cell: it is a guard that stops sideways shifts from wrapping onto the next rank.
/// Shifts may still put bits on guard cells, so results are masked with the board where it
/// matters.
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No cells.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// Every cell of a board with `files` files and `ranks` ranks. No cell lies beyond 7 x 7:
    /// larger sizes give the cells up to 7.
    pub const fn board(files: u8, ranks: u8) -> Bitboard {
        let files = if files < MAX_SIDE { files } else { MAX_SIDE };
        let ranks = if ranks < MAX_SIDE { ranks } else { MAX_SIDE };
        let rank_mask = (1u64 << files) - 1;
        let mut bb = 0;
        let mut rank = 0;
        while rank < ranks {
            bb |= rank_mask << (8 * rank);
            rank += 1;
        }
        Bitboard(bb)
    }

    /// The single cell.
    #[inline]
    pub const fn from_cell(cell: Cell) -> Bitboard {
        Bitboard(cell.bit())
    }

    /// Every cell of one file, on any board (none for a file past the seventh).
    pub const fn file(file: u8) -> Bitboard {
        if file < MAX_SIDE {
            Bitboard(0x0001_0101_0101_0101 << file)
        } else {
            Bitboard::EMPTY
        }
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has any cell.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether `cell` is in the set.
    #[inline]
    pub const fn contains(self, cell: Cell) -> bool {
        self.0 & cell.bit() != 0
    }

    /// The number of cells.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has more than `n` cells: cheaper than counting them all for small `n`
    /// (a portable build has no population-count instruction).
    #[inline]
    pub const fn has_more_than(self, n: u8) -> bool {
        let mut bits = self.0;
        let mut i = 0;
        while i < n && bits != 0 {
            bits &= bits - 1;
            i += 1;
        }
        bits != 0
    }

    /// The lowest cell (lowest rank, then lowest file), if any.
    #[inline]
    pub fn first(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell::from_bit_index(self.0.trailing_zeros() as u8))
        }
    }

    /// The set with `cell` added.
    #[inline]
    pub const fn with(self, cell: Cell) -> Bitboard {
        Bitboard(self.0 | cell.bit())
    }

    /// The set with `cell` removed.
    #[inline]
    pub const fn without(self, cell: Cell) -> Bitboard {
        Bitboard(self.0 & !cell.bit())
    }

    /// Every cell moved one step in `dir`. Bits that leave the 64-bit range are dropped; bits
    /// that land on guard cells are kept, so mask the result with the board where that matters.
    #[inline]
    pub const fn shift(self, dir: Direction) -> Bitboard {
        // Every direction's offset is below 10 either way: no shift overflows.
        let offset = dir.offset();
        if offset >= 0 {
            Bitboard(self.0 << offset)
        } else {
            Bitboard(self.0 >> -offset)
        }
    }

    /// The `n`-th lowest cell (0-based), if there are that many.
    ///
    /// Found without a loop over the cells (a random playout asks for the n-th of up to 30
    /// placements every ply): count the cells of each rank at once, find the rank where the
    /// running count passes `n`, then look the cell up within that rank.
    #[inline]
    pub fn nth(self, n: usize) -> Option<Cell> {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGHS: u64 = 0x8080_8080_8080_8080;
        let x = self.0;
        // Cells per byte (at most 8), the classic halving sums.
        let mut per_byte = x - ((x >> 1) & 0x5555_5555_5555_5555);
        per_byte = (per_byte & 0x3333_3333_3333_3333) + ((per_byte >> 2) & 0x3333_3333_3333_3333);
        per_byte = (per_byte + (per_byte >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
        // Byte i holds the cells in bytes 0..=i (at most 64: no byte overflows).
        let running = per_byte.wrapping_mul(ONES);
        let n = n as u64;
        if n >= running >> 56 {
            return None;
        }
        // A byte's high bit stays set where `n` is at least its running count: the bytes wholly
        // before the n-th cell. They are a prefix; count them.
        let before = (((n * ONES) | HIGHS) - running) & HIGHS;
        let skip = (((before >> 7).wrapping_mul(ONES) >> 56) * 8) as u32;
        let passed = ((running << 8) >> skip) & 0xff;
        let byte = ((x >> skip) & 0xff) as usize;
        let within = SELECT_IN_BYTE[byte][(n - passed) as usize];
        Some(Cell::from_bit_index(skip as u8 + within))
    }
}

/// `SELECT_IN_BYTE[byte][k]`: the index of the `k`-th set bit of `byte` (0 past the last).
static SELECT_IN_BYTE: [[u8; 8]; 256] = build_select_in_byte();

const fn build_select_in_byte() -> [[u8; 8]; 256] {
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                table[byte][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
}

impl IntoIterator for Bitboard {
    type Item = Cell;
    type IntoIter = Cells;
    #[inline]
    fn into_iter(self) -> Cells {
        Cells(self.0)
    }
}

/// The cells of a [`Bitboard`], lowest first.
#[derive(Clone, Debug)]
pub struct Cells(u64);

impl Iterator for Cells {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Cell::from_bit_index(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Cells {}

impl FromIterator<Cell> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $op:tt, $tra:ident, $fa:ident) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, &, BitAndAssign, bitand_assign);
bit_op!(BitOr, bitor, |, BitOrAssign, bitor_assign);
bit_op!(BitXor, bitxor, ^, BitXorAssign, bitxor_assign);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the 7 x 7 grid, rank 7 at the top, `1` for a member cell.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#x})", self.0)?;
        for rank in (0..MAX_SIDE).rev() {
            for file in 0..MAX_SIDE {
                let cell = Cell::new(file, rank).expect("within 7 x 7");
                f.write_str(if self.contains(cell) { "1" } else { "." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_masks() {
        assert_eq!(Bitboard::board(6, 5).count(), 30);
        assert_eq!(Bitboard::board(7, 7).count(), 49);
        assert_eq!(Bitboard::board(3, 3).0, 0x07_0707);
        // No size panics; there are no cells past 7 x 7.
        assert_eq!(Bitboard::board(9, 255), Bitboard::board(7, 7));
        assert_eq!(Bitboard::file(6).count(), 7);
        assert_eq!(Bitboard::file(7), Bitboard::EMPTY);
        assert_eq!(Bitboard::file(255), Bitboard::EMPTY);
    }

    #[test]
    fn sideways_shifts_never_wrap_onto_the_next_rank() {
        let board = Bitboard::board(7, 7);
        let east_edge: Bitboard = (0..7).map(|r| Cell::new(6, r).unwrap()).collect();
        assert!((east_edge.shift(Direction::EAST) & board).is_empty());
        let west_edge: Bitboard = (0..7).map(|r| Cell::new(0, r).unwrap()).collect();
        assert!((west_edge.shift(Direction::WEST) & board).is_empty());
        assert!((west_edge.shift(Direction::SOUTH_WEST) & board).is_empty());
        assert!((west_edge.shift(Direction::NORTH_WEST) & board).is_empty());
        assert!((east_edge.shift(Direction::NORTH_EAST) & board).is_empty());
        assert!((east_edge.shift(Direction::SOUTH_EAST) & board).is_empty());
    }

    #[test]
    fn iterates_lowest_first() {
        let bb: Bitboard = ["c3", "a1", "b5"].iter().map(|n| Cell::from_name(n).unwrap()).collect();
        let names: Vec<String> = bb.into_iter().map(|c| c.to_string()).collect();
        assert_eq!(names, ["a1", "c3", "b5"]);
        assert_eq!(bb.nth(1), Cell::from_name("c3"));
        assert_eq!(bb.nth(3), None);
    }

    #[test]
    fn more_than_agrees_with_counting() {
        for bits in [0u64, 1, 0b11, 0b1011, 0x0f0f, 0x007f_7f7f_7f7f_7f7f, u64::MAX] {
            let bb = Bitboard(bits);
            for n in 0..=70u8 {
                assert_eq!(bb.has_more_than(n), bb.count() > u32::from(n), "{bits:#x} {n}");
            }
        }
    }

    #[test]
    fn nth_agrees_with_iteration() {
        let mut rng = crate::splitmix::SplitMix64::new(0x1234_5678_9abc_def0);
        for _ in 0..2000 {
            // Masked to the 7 x 7 board, with sparse and dense sets alike.
            let state = rng.next_u64();
            let dense = state & Bitboard::board(7, 7).0;
            for bits in [dense, dense & (state >> 11), dense & (state >> 11) & (state >> 23)] {
                let bb = Bitboard(bits);
                let cells: Vec<Cell> = bb.into_iter().collect();
                for n in 0..=cells.len() + 1 {
                    assert_eq!(bb.nth(n), cells.get(n).copied(), "{bb:?} n={n}");
                }
            }
        }
        assert_eq!(Bitboard::EMPTY.nth(0), None);
        assert_eq!(Bitboard::board(7, 7).nth(48), Cell::from_name("g7"));
    }
}
