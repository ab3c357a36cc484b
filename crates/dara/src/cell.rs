//! Cells of the board, named by file letter and rank number (`a1` is White's bottom-left corner).

use core::fmt;

use crate::direction::Direction;
use crate::serde_text::serialize_as_text;

/// The most files (columns) and ranks (rows) any ruleset allows.
pub const MAX_SIDE: u8 = 7;

/// One cell of a board of up to 7 x 7.
///
/// Cells are numbered `rank * 8 + file`: every rank has a spare eighth bit so that shifting a
/// bitboard one file sideways can never carry a stone onto the next rank (see [`crate::Bitboard`]).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell at `file` (0 for `a`) and `rank` (0 for rank 1), if both are below [`MAX_SIDE`].
    pub const fn new(file: u8, rank: u8) -> Option<Cell> {
        if file < MAX_SIDE && rank < MAX_SIDE {
            Some(Cell(rank * 8 + file))
        } else {
            None
        }
    }

    /// The cell with this bit index, if it is one (`rank * 8 + file`).
    pub const fn from_index(index: u8) -> Option<Cell> {
        Cell::new(index % 8, index / 8)
    }

    /// The cell of a set bit of a [`crate::Bitboard`]. Bitboards built by the rules hold only
    /// cells; a guard bit set by hand in a `Bitboard` comes out as a cell off every board.
    #[inline]
    pub(crate) const fn from_bit_index(index: u8) -> Cell {
        Cell(index)
    }

    /// The cell one step in `dir` from this one. The caller knows that cell is on the board
    /// (move generation steps only between masked cells).
    #[inline]
    pub(crate) const fn offset(self, dir: Direction) -> Cell {
        Cell(self.0.wrapping_add_signed(dir.offset()))
    }

    /// The cell's bit index in a [`crate::Bitboard`].
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// File, 0 for `a`.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// Rank, 0 for rank 1.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 8
    }

    /// The file letter.
    pub const fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    /// This cell as a one-cell bitboard.
    #[inline]
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// Reads a cell name such as `c3`, without checking it against any board size beyond 7 x 7.
    pub fn from_name(name: &str) -> Option<Cell> {
        let (file, rank) = parse_coord(name)?;
        Cell::new(file, rank)
    }
}

/// Reads a cell name (`a1`, `c12`) as 0-based file and rank, without any board size in mind.
pub(crate) fn parse_coord(text: &str) -> Option<(u8, u8)> {
    let mut chars = text.chars();
    let letter = chars.next()?;
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if digits.starts_with('0') {
        return None;
    }
    let rank: u8 = digits.parse().ok()?;
    Some((letter as u8 - b'a', rank - 1))
}

impl fmt::Display for Cell {
    /// Written as two bytes at once: the server writes every legal move of every position it
    /// sends, and the formatting machinery of `write!` cost more than the rest of the move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A rank is below 8 (`Cell` packs eight to a rank), so its number is one digit.
        let name = [self.file_char() as u8, b'1' + self.rank()];
        f.write_str(core::str::from_utf8(&name).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for rank in 0..MAX_SIDE {
            for file in 0..MAX_SIDE {
                let cell = Cell::new(file, rank).unwrap();
                assert_eq!(Cell::from_name(&cell.to_string()), Some(cell));
            }
        }
        assert_eq!(Cell::from_name("a1").unwrap().index(), 0);
        assert_eq!(Cell::from_name("f5").unwrap().index(), 4 * 8 + 5);
        assert_eq!(Cell::from_name("h1"), None);
        assert_eq!(Cell::from_name("a8"), None);
    }
}

/// A cell as written: file and rank, 0-based, not yet checked against a board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Coord {
    /// 0 for `a`.
    pub file: u8,
    /// 0 for rank 1.
    pub rank: u8,
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Parsed coordinates have files a to z; one built by hand may have any file and rank,
        // and prints without overflowing.
        let letter = char::from_u32(u32::from(b'a') + u32::from(self.file)).unwrap_or('?');
        write!(f, "{letter}{}", u16::from(self.rank) + 1)
    }
}

// Cells travel as their names (`c3`), as every message about a board writes them.
serialize_as_text!(Cell, Coord);
