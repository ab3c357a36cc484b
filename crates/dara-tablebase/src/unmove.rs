//! Steps taken back: the positions from which a quiet step leads to a given one.
//!
//! The retrograde builder needs them, and the rules crate only plays forwards, so the one
//! question asked here is the rules crate's own: would the stone that stepped onto its cell
//! stand in a row of three there (then the step captured and was not quiet), or in a line of four
//! or more under `long=illegal` (then it was no legal step)? `lines` answers both. A test checks
//! the result against the rules crate's move lists.

use dara::{lines, Bitboard, Long};

use crate::rules::TableRules;

/// Calls `f(mover, other)` for every position (masks of table cells, side to move first) from
/// which a quiet step of the side to move gives the position where `mover` (not the stepper) is
/// to move against `stepper`.
#[inline]
pub fn for_each_quiet_predecessor(
    rules: &TableRules,
    mover: u64,
    stepper: u64,
    mut f: impl FnMut(u64, u64),
) {
    let board = rules.board();
    let stepper_bb = board.to_bitboard(stepper);
    let empty_bb = board.to_bitboard(!(mover | stepper) & ((1u64 << board.cells()) - 1));
    let long_illegal = rules.ruleset().long() == Long::Illegal;
    for to in stepper_bb {
        // A stone standing in a row of three got there by a capturing step (the opponent has
        // more than two stones in every table), and one in a longer line by a step that
        // long=illegal forbids.
        if lines::rows_through(stepper_bb, to) > 0
            || (long_illegal && lines::longest_run(stepper_bb, to) > 3)
        {
            continue;
        }
        for &dir in rules.ruleset().step_directions() {
            let from = Bitboard::from_cell(to).shift(dir) & empty_bb;
            if let Some(from) = from.first() {
                let before = stepper_bb.without(to).with(from);
                f(board.to_mask(before), mover);
            }
        }
    }
}
