//! Runs and rows of three: how long a colour's unbroken line through a cell is, along the rank
//! and along the file. Lines never count diagonally, in any ruleset.

use crate::bitboard::Bitboard;
use crate::cell::Cell;
use crate::direction::Direction;

/// `RUNS[bits][i]`: the length of the unbroken run of set bits through bit `i` of `bits`
/// (0 when bit `i` is clear). Built at compile time.
static RUNS: [[u8; 8]; 256] = build_runs();

const fn build_runs() -> [[u8; 8]; 256] {
    let mut table = [[0u8; 8]; 256];
    let mut bits = 0;
    while bits < 256 {
        let mut i = 0;
        while i < 8 {
            if bits & (1 << i) != 0 {
                let mut lo = i;
                while lo > 0 && bits & (1 << (lo - 1)) != 0 {
                    lo -= 1;
                }
                let mut hi = i;
                while hi < 7 && bits & (1 << (hi + 1)) != 0 {
                    hi += 1;
                }
                table[bits][i] = (hi - lo + 1) as u8;
            }
            i += 1;
        }
        bits += 1;
    }
    table
}

/// Length of the run of `stones` through `cell` along its rank (0 if `cell` is not in `stones`).
#[inline]
pub fn rank_run(stones: Bitboard, cell: Cell) -> u8 {
    let bits = (stones.0 >> (cell.rank() * 8)) as u8;
    RUNS[bits as usize][cell.file() as usize]
}

/// Length of the run of `stones` through `cell` along its file (0 if `cell` is not in `stones`).
#[inline]
pub fn file_run(stones: Bitboard, cell: Cell) -> u8 {
    // Gathers the file into one byte, rank 1 in the top bit: the multiplier puts bit `8 * r` at
    // bit `63 - r` and no two partial products share a bit, so nothing carries.
    let file = (stones.0 >> cell.file()) & 0x0101_0101_0101_0101;
    let bits = (file.wrapping_mul(0x8040_2010_0804_0201) >> 56) as u8;
    RUNS[bits as usize][7 - cell.rank() as usize]
}

/// How many rows of three pass through `cell` in `stones`: 0, 1 or 2 (one per axis).
#[inline]
pub fn rows_through(stones: Bitboard, cell: Cell) -> u8 {
    (rank_run(stones, cell) == 3) as u8 + (file_run(stones, cell) == 3) as u8
}

/// The longer of the two runs through `cell`.
#[inline]
pub fn longest_run(stones: Bitboard, cell: Cell) -> u8 {
    rank_run(stones, cell).max(file_run(stones, cell))
}

/// Every stone of `stones` that is in a row: its run along the rank or the file is exactly three.
#[inline]
pub fn in_rows(stones: Bitboard) -> Bitboard {
    let b = stones.0;
    // A run of exactly three starts where the cell before is empty and the next two are full and
    // the third after is empty. The guard file and rank (see `Bitboard`) end every run.
    let across = b & !(b << 1) & (b >> 1) & (b >> 2) & !(b >> 3);
    let up = b & !(b << 8) & (b >> 8) & (b >> 16) & !(b >> 24);
    Bitboard(across | across << 1 | across << 2 | up | up << 8 | up << 16)
}

/// The empty cells where a stone of `stones`' colour would stand in a run of `limit` or more
/// (`limit` is 3 or 4). Cells outside the board may be set too; mask with the board.
#[inline]
pub fn would_make_run(stones: Bitboard, limit: u8) -> Bitboard {
    let b = stones.0;
    let long = |step: u32| {
        let (ahead, behind) = (Chain::towards_higher(b, step), Chain::towards_lower(b, step));
        if limit <= 3 {
            ahead.three_or_more_with(behind)
        } else {
            ahead.long_with(behind)
        }
    };
    Bitboard(long(1) | long(8))
}

/// Where stones of one colour would stand after a step, judged for every target cell at once.
///
/// A stepping stone's run along an axis is itself plus the unbroken own stones on either side of
/// its new cell, except that the cell it came from is now empty: a step east leaves only the
/// stones east of it on its rank. Counting the neighbours on each side once per position turns
/// every step's row test into a few mask operations.
#[derive(Clone, Debug)]
pub struct Landings {
    /// Per side (north, south, east, west): the cells with exactly two own stones in a line
    /// beyond them on that side, and those with three or more.
    two_beyond: [u64; 4],
    three_beyond: [u64; 4],
    across_rows: u64,
    across_long: u64,
    up_rows: u64,
    up_long: u64,
}

const NORTH: usize = 0;
const SOUTH: usize = 1;
const EAST: usize = 2;
const WEST: usize = 3;

/// The cells with at least one, two and three own stones in a line beyond them on one side.
#[derive(Copy, Clone)]
struct Chain {
    one: u64,
    two: u64,
    three: u64,
}

impl Chain {
    /// Towards higher indices (north, east) a neighbour at distance k is `b >> (k * step)`.
    #[inline(always)]
    fn towards_higher(b: u64, step: u32) -> Chain {
        let one = b >> step;
        let two = one & (b >> (2 * step));
        Chain { one, two, three: two & (b >> (3 * step)) }
    }

    /// Towards lower indices (south, west) it is `b << (k * step)`.
    #[inline(always)]
    fn towards_lower(b: u64, step: u32) -> Chain {
        let one = b << step;
        let two = one & (b << (2 * step));
        Chain { one, two, three: two & (b << (3 * step)) }
    }

    /// Exactly two beyond: a run of exactly three with the cell, from this side alone.
    #[inline(always)]
    fn exactly_two(self) -> u64 {
        self.two & !self.three
    }

    /// Both sides together make two stones: a run of exactly three with the cell.
    #[inline(always)]
    fn rows_with(self, other: Chain) -> u64 {
        (self.exactly_two() & !other.one)
            | (other.exactly_two() & !self.one)
            | (self.one & !self.two & other.one & !other.two)
    }

    /// Both sides together make two or more: a run of three or more with the cell.
    #[inline(always)]
    fn three_or_more_with(self, other: Chain) -> u64 {
        self.two | other.two | (self.one & other.one)
    }

    /// Both sides together make three or more: a run of four or more with the cell.
    #[inline(always)]
    fn long_with(self, other: Chain) -> u64 {
        self.three | other.three | (self.two & other.one) | (self.one & other.two)
    }
}

impl Landings {
    /// The neighbour counts of `stones`.
    #[inline]
    pub fn new(stones: Bitboard) -> Landings {
        let b = stones.0;
        // The guard file and rank end every chain.
        let north = Chain::towards_higher(b, 8);
        let south = Chain::towards_lower(b, 8);
        let east = Chain::towards_higher(b, 1);
        let west = Chain::towards_lower(b, 1);
        Landings {
            two_beyond: [
                north.exactly_two(),
                south.exactly_two(),
                east.exactly_two(),
                west.exactly_two(),
            ],
            three_beyond: [north.three, south.three, east.three, west.three],
            across_rows: east.rows_with(west),
            across_long: east.long_with(west),
            up_rows: north.rows_with(south),
            up_long: north.long_with(south),
        }
    }

    /// For a stone arriving by a step in `dir`: the target cells where it stands in a row along
    /// its rank, in a row along its file, and in a run of four or more on either.
    #[inline(always)]
    pub fn after_step(&self, dir: Direction) -> (Bitboard, Bitboard, Bitboard) {
        // A step along an axis leaves the cell behind empty: only the side ahead counts there.
        let ahead = |side: usize| (self.two_beyond[side], self.three_beyond[side]);
        let (across, across_long, up, up_long) = match dir {
            Direction::EAST | Direction::WEST => {
                let (rows, long) = ahead(if dir == Direction::EAST { EAST } else { WEST });
                (rows, long, self.up_rows, self.up_long)
            }
            Direction::NORTH | Direction::SOUTH => {
                let (rows, long) = ahead(if dir == Direction::NORTH { NORTH } else { SOUTH });
                (self.across_rows, self.across_long, rows, long)
            }
            // A diagonal step leaves neither the rank nor the file of its target.
            _ => (self.across_rows, self.across_long, self.up_rows, self.up_long),
        };
        (Bitboard(across), Bitboard(up), Bitboard(across_long | up_long))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(names: &[&str]) -> Bitboard {
        names.iter().map(|n| Cell::from_name(n).unwrap()).collect()
    }

    fn cell(name: &str) -> Cell {
        Cell::from_name(name).unwrap()
    }

    #[test]
    fn runs_along_rank_and_file() {
        let stones = cells(&["a1", "b1", "c1", "e1", "c2", "c3", "c4"]);
        assert_eq!(rank_run(stones, cell("b1")), 3);
        assert_eq!(rank_run(stones, cell("e1")), 1);
        assert_eq!(rank_run(stones, cell("d1")), 0);
        assert_eq!(file_run(stones, cell("c1")), 4);
        assert_eq!(file_run(stones, cell("c4")), 4);
        assert_eq!(file_run(stones, cell("a1")), 1);
        assert_eq!(rows_through(stones, cell("c1")), 1);
    }

    #[test]
    fn file_runs_reach_the_top_rank() {
        let stones = cells(&["g5", "g6", "g7"]);
        assert_eq!(file_run(stones, cell("g7")), 3);
        assert_eq!(in_rows(stones), stones);
    }

    #[test]
    fn a_run_of_four_is_not_a_row() {
        let four = cells(&["a1", "b1", "c1", "d1"]);
        assert!(in_rows(four).is_empty());
        let split = cells(&["a1", "b1", "c1", "e1", "f1", "g1"]);
        assert_eq!(in_rows(split), split);
        // A run ending at the east edge of a row does not continue onto the next rank.
        let edge = cells(&["e1", "f1", "g1", "a2"]);
        assert_eq!(in_rows(edge), cells(&["e1", "f1", "g1"]));
    }

    #[test]
    fn placements_that_would_make_runs() {
        let stones = cells(&["a1", "b1", "d1", "f1", "f2"]);
        let three = would_make_run(stones, 3);
        assert!(three.contains(cell("c1")));
        assert!(three.contains(cell("f3")));
        assert!(three.contains(cell("e1")));
        assert!(!three.contains(cell("g1")));
        let four = would_make_run(stones, 4);
        assert!(four.contains(cell("c1")));
        assert!(!four.contains(cell("e1")));
        assert!(!four.contains(cell("f3")));
    }
}
