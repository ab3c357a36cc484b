//! The steps a stone can take on the board, as shifts of cell indices.

/// A step on the board, as a shift of cell indices. Only the eight steps below exist: a shift
/// built by hand could carry a stone across the guard bits or past the 64-bit range.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Direction(i8);

impl Direction {
    /// One rank up (towards Black).
    pub const NORTH: Direction = Direction(8);
    /// One rank down (towards White).
    pub const SOUTH: Direction = Direction(-8);
    /// One file right.
    pub const EAST: Direction = Direction(1);
    /// One file left.
    pub const WEST: Direction = Direction(-1);
    /// Diagonal steps.
    pub const NORTH_EAST: Direction = Direction(9);
    /// Diagonal steps.
    pub const NORTH_WEST: Direction = Direction(7);
    /// Diagonal steps.
    pub const SOUTH_EAST: Direction = Direction(-7);
    /// Diagonal steps.
    pub const SOUTH_WEST: Direction = Direction(-9);

    /// The four orthogonal steps.
    pub const ORTHOGONAL: [Direction; 4] =
        [Direction::NORTH, Direction::SOUTH, Direction::EAST, Direction::WEST];
    /// All eight steps.
    pub const ALL: [Direction; 8] = [
        Direction::NORTH,
        Direction::SOUTH,
        Direction::EAST,
        Direction::WEST,
        Direction::NORTH_EAST,
        Direction::NORTH_WEST,
        Direction::SOUTH_EAST,
        Direction::SOUTH_WEST,
    ];

    /// The change of a cell's bit index ([`crate::Cell::index`]) along this step.
    #[inline]
    pub const fn offset(self) -> i8 {
        self.0
    }

    /// The step back the other way.
    #[inline]
    pub const fn opposite(self) -> Direction {
        Direction(-self.0)
    }
}
