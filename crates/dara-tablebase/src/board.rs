//! The board as the tables see it: cells numbered 0.. rank by rank, and the four mirror images
//! of a rectangle (itself, left-right, top-bottom, and both, which is the half turn).

use dara::{Bitboard, Cell, Ruleset};

/// How many mirror images a rectangle has. A square board also has quarter turns, but the
/// tables use only what every board size has.
pub const SYMMETRIES: usize = 4;

/// The cells of one board size, numbered for the tables, with each symmetry as a permutation.
#[derive(Clone, Debug)]
pub struct Board {
    cols: u8,
    rows: u8,
    /// `cells[i]`: the rules crate's cell with table number `i`.
    cells: Vec<Cell>,
    /// `mirror[s][i]`: the table number of cell `i`'s image under symmetry `s` (0 is itself).
    mirror: [Vec<u8>; SYMMETRIES],
}

impl Board {
    /// The board of a ruleset.
    pub fn of(rules: &Ruleset) -> Board {
        let (cols, rows) = (rules.cols(), rules.rows());
        let cells: Vec<Cell> = (0..rows)
            .flat_map(|rank| (0..cols).map(move |file| (file, rank)))
            .map(|(file, rank)| Cell::new(file, rank).expect("a ruleset's board is within 7 x 7"))
            .collect();
        let image = |s: usize, i: usize| {
            let (file, rank) = (i % cols as usize, i / cols as usize);
            let file = if s & 1 == 1 { cols as usize - 1 - file } else { file };
            let rank = if s & 2 == 2 { rows as usize - 1 - rank } else { rank };
            (rank * cols as usize + file) as u8
        };
        let mirror = core::array::from_fn(|s| (0..cells.len()).map(|i| image(s, i)).collect());
        Board { cols, rows, cells, mirror }
    }

    /// How many cells.
    #[inline]
    pub fn cells(&self) -> usize {
        self.cells.len()
    }

    /// Files and ranks.
    pub fn size(&self) -> (u8, u8) {
        (self.cols, self.rows)
    }

    /// The stones of a bitboard as a mask of table cell numbers: one shift per rank, since both
    /// number the cells rank by rank (the bitboard with eight bits a rank, the mask with `cols`).
    #[inline]
    pub fn to_mask(&self, stones: Bitboard) -> u64 {
        let (cols, row) = (u32::from(self.cols), (1u64 << self.cols) - 1);
        (0..u32::from(self.rows))
            .fold(0, |mask, rank| mask | (((stones.0 >> (8 * rank)) & row) << (rank * cols)))
    }

    /// The bitboard of a mask of table cell numbers.
    #[inline]
    pub fn to_bitboard(&self, mask: u64) -> Bitboard {
        let (cols, row) = (u32::from(self.cols), (1u64 << self.cols) - 1);
        Bitboard(
            (0..u32::from(self.rows))
                .fold(0, |bb, rank| bb | (((mask >> (rank * cols)) & row) << (8 * rank))),
        )
    }

    /// The image of a mask of table cell numbers under symmetry `s`.
    #[inline]
    pub fn mirror(&self, s: usize, mask: u64) -> u64 {
        let map = &self.mirror[s];
        let mut out = 0;
        let mut bits = mask;
        while bits != 0 {
            out |= 1 << map[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrors_are_involutions_and_masks_round_trip() {
        let board = Board::of(&Ruleset::default());
        assert_eq!(board.cells(), 30);
        let mask = 0b1010_0110_0001u64 | 1 << 29;
        for s in 0..SYMMETRIES {
            assert_eq!(board.mirror(s, board.mirror(s, mask)), mask);
        }
        // a1 and f5 swap under the half turn.
        assert_eq!(board.mirror(3, 1), 1 << 29);
        assert_eq!(board.to_mask(board.to_bitboard(mask)), mask);
        // Table cell i is the rules crate's i-th cell, rank by rank: a1 is 0, f1 5, a2 6, f5 29.
        for (i, name) in [(0, "a1"), (5, "f1"), (6, "a2"), (17, "f3"), (29, "f5")] {
            let cell = Cell::from_name(name).unwrap();
            assert_eq!(board.to_bitboard(1 << i), Bitboard::from_cell(cell));
            assert_eq!(board.to_mask(Bitboard::from_cell(cell)), 1 << i);
        }
    }
}
