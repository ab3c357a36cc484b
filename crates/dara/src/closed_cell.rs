//! Why a cell is closed to a placement: the reasons the placement rules give, for error
//! messages and for a board that shows them, judged by the same masks that generate the moves.

use core::fmt;

use crate::bitboard::Bitboard;
use crate::cell::Cell;
use crate::options::{Opening, Place};
use crate::position::Position;
use crate::status::Phase;

/// Why the player to move may not place a stone on a cell. With the `serde` feature it
/// serialises as its code, the variant's name in kebab case: `"would-make-three"`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "kebab-case"))]
pub enum ClosedCell {
    /// The cell is outside this ruleset's board (a [`Cell`] names any cell of 7 x 7).
    OffBoard,
    /// The game is in its movement phase: stones step, nothing is placed.
    PlacementOver,
    /// A stone stands on the cell.
    Occupied,
    /// The player to move has no stones left in hand (under `blocked=pass` they pass).
    NoStonesInHand,
    /// `opening=corner`: the first stone of the game goes in a corner.
    CornerOpening,
    /// `opening=centre`: no stone on the middle files during a player's first four placements.
    CentreOpening,
    /// `place=3`: the stone would stand in a line of three or more of its colour.
    WouldMakeThree,
    /// `place=4`: the stone would stand in a line of four or more of its colour.
    WouldMakeFour,
}

impl fmt::Display for ClosedCell {
    /// The reason in plain English, without the cell's name (a board shows it on the cell).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ClosedCell::OffBoard => "the cell is not on the board",
            ClosedCell::PlacementOver => "stones are no longer placed: every stone is down",
            ClosedCell::Occupied => "the cell is not empty",
            ClosedCell::NoStonesInHand => "no stones are left in hand",
            ClosedCell::CornerOpening => "the first stone of the game goes in a corner",
            ClosedCell::CentreOpening => {
                "no stone on the middle files during a player's first four placements"
            }
            ClosedCell::WouldMakeThree => "placements may not make three or more in a line",
            ClosedCell::WouldMakeFour => "placements may not make four or more in a line",
        })
    }
}

impl Position {
    /// Why the player to move may not place a stone on `cell`, or `None` if placing there is a
    /// legal move. Where several rules close a cell, an opening restriction is named before the
    /// placement limit.
    ///
    /// Judged from the masks that generate the placements, so it agrees with
    /// [`Position::legal_moves`] (a cell is open exactly when placing on it is a legal move),
    /// without listing the moves.
    ///
    /// # Examples
    /// ```
    /// use dara::{Cell, ClosedCell, Position, Ruleset};
    /// let pos = Position::start("arcade,opening=corner".parse::<Ruleset>().unwrap());
    /// let (a1, c3) = (Cell::from_name("a1").unwrap(), Cell::from_name("c3").unwrap());
    /// assert_eq!(pos.closed_reason(a1), None);
    /// assert_eq!(pos.closed_reason(c3), Some(ClosedCell::CornerOpening));
    /// assert_eq!(ClosedCell::CornerOpening.to_string(), "the first stone of the game goes in a corner");
    /// ```
    pub fn closed_reason(&self, cell: Cell) -> Option<ClosedCell> {
        if !self.board().contains(cell) {
            return Some(ClosedCell::OffBoard);
        }
        if self.phase() == Phase::Movement {
            return Some(ClosedCell::PlacementOver);
        }
        if self.occupied().contains(cell) {
            return Some(ClosedCell::Occupied);
        }
        if self.placement_choices().contains(cell) {
            return None;
        }
        let side = self.side();
        if self.hand(side) == 0 {
            return Some(ClosedCell::NoStonesInHand);
        }
        // An empty cell that is not a choice is closed by one of these two masks, since the
        // choices are the empty cells outside both.
        let closed = self.placement_closures(side);
        if closed.by_opening.contains(cell) {
            Some(match self.rules().opening() {
                Opening::Corner => ClosedCell::CornerOpening,
                _ => ClosedCell::CentreOpening,
            })
        } else if closed.by_run.contains(cell) {
            Some(match self.rules().place() {
                Place::Four => ClosedCell::WouldMakeFour,
                _ => ClosedCell::WouldMakeThree,
            })
        } else {
            None
        }
    }

    /// Every empty cell closed to the player to move while placing, with the reason; nothing
    /// once the game is moving (then every cell is closed for the same reason).
    ///
    /// # Examples
    /// ```
    /// use dara::{ClosedCell, Position, Ruleset};
    /// let pos = Position::from_text("6/6/6/BB4/WW4 w 10 10 0", Ruleset::default()).unwrap();
    /// let closed: Vec<_> = pos.closed_cells().map(|(cell, why)| (cell.to_string(), why)).collect();
    /// assert_eq!(closed, [("c1".to_string(), ClosedCell::WouldMakeThree)]);
    /// ```
    pub fn closed_cells(&self) -> impl Iterator<Item = (Cell, ClosedCell)> + '_ {
        let closed = match self.phase() {
            Phase::Placement => self.empty() & !self.placement_choices(),
            Phase::Movement => Bitboard::EMPTY,
        };
        closed.into_iter().filter_map(|cell| Some((cell, self.closed_reason(cell)?)))
    }
}
