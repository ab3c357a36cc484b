//! Static evaluation: how good a quiet position looks for the side to move, in centi-stones
//! (100 = one stone). Material first; then the shape of things to come: steps that would make a
//! row (a capture next turn), rows a stone can leave and re-make, mobility, and stones that
//! cannot move. Placement and movement weigh these differently.

use dara::{lines, Bitboard, Colour, Direction, Phase, Position};

use crate::score::Value;

/// What one colour's stones can do next, by the steps available to them.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Prospects {
    /// Legal steps, ignoring capture choices.
    pub steps: u32,
    /// Steps that would form a row of three through the moved stone.
    pub threats: u32,
    /// The empty cells such steps go to (where the other side would block).
    pub threat_cells: Bitboard,
    /// The stones that would make those steps.
    pub threat_stones: Bitboard,
    /// Stones with no empty neighbour.
    pub stuck: u32,
}

/// The directions a stone steps in under the position's ruleset (the rules crate's table).
#[inline]
pub fn directions(pos: &Position) -> &'static [Direction] {
    pos.rules().step_directions()
}

/// Counts what `colour` could do if it were to move.
pub fn prospects(pos: &Position, colour: Colour) -> Prospects {
    let own = pos.stones(colour);
    let empty = pos.empty();
    let mut p = Prospects::default();
    let mut movable = Bitboard::EMPTY;
    for &dir in directions(pos) {
        let back = dir.opposite();
        let targets = own.shift(dir) & empty;
        p.steps += targets.count();
        movable |= targets.shift(back);
        for to in targets {
            let from = Bitboard::from_cell(to).shift(back);
            let after = (own & !from).with(to);
            if lines::rank_run(after, to) == 3 || lines::file_run(after, to) == 3 {
                p.threats += 1;
                p.threat_cells = p.threat_cells.with(to);
                p.threat_stones |= from;
            }
        }
    }
    p.stuck = (own & !movable).count();
    p
}

/// Stones of `colour` standing in a row that can step out of it, and so step back to take again.
fn remakeable(pos: &Position, colour: Colour) -> u32 {
    let rows = lines::in_rows(pos.stones(colour));
    let empty = pos.empty();
    let mut can_leave = Bitboard::EMPTY;
    for &dir in directions(pos) {
        can_leave |= empty.shift(dir.opposite());
    }
    (rows & can_leave).count()
}

/// Weights of one phase.
#[derive(Copy, Clone, Debug)]
struct Weights {
    stone: Value,
    step: Value,
    threat: Value,
    /// Extra for the side not to move having a threat: it lands unless answered.
    pending: Value,
    remake: Value,
    stuck: Value,
}

const PLACEMENT: Weights =
    Weights { stone: 100, step: 2, threat: 14, pending: 0, remake: 6, stuck: -3 };
const MOVEMENT: Weights =
    Weights { stone: 100, step: 4, threat: 35, pending: 50, remake: 12, stuck: -4 };

/// An evaluation with what was learned on the way: the search reuses the prospects (no
/// row-making step for the side to move means no capture to look at).
#[derive(Copy, Clone, Debug)]
pub struct Detail {
    /// The evaluation for the side to move.
    pub value: Value,
    /// The side to move's prospects.
    pub ours: Prospects,
    /// The other side's prospects.
    pub theirs: Prospects,
}

/// The evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Position) -> Value {
    evaluate_detail(pos).value
}

/// The evaluation of `pos` for the side to move, with both sides' prospects.
pub fn evaluate_detail(pos: &Position) -> Detail {
    let us = pos.side();
    let them = !us;
    let w = if pos.phase() == Phase::Placement { PLACEMENT } else { MOVEMENT };
    let stones = |c: Colour| (pos.stones(c).count() + u32::from(pos.hand(c))) as Value;
    let mut v = w.stone * (stones(us) - stones(them));
    let ours = prospects(pos, us);
    let theirs = prospects(pos, them);
    v += w.step * (ours.steps as Value - theirs.steps as Value);
    v += w.threat * (ours.threats.min(4) as Value - theirs.threats.min(4) as Value);
    if theirs.threats > 0 {
        v -= w.pending;
    }
    v += w.remake * (remakeable(pos, us) as Value - remakeable(pos, them) as Value);
    v += w.stuck * (ours.stuck as Value - theirs.stuck as Value);
    Detail { value: v, ours, theirs }
}

/// What `threats` row-making steps of the side to move are worth in `pos`'s phase, as
/// [`evaluate`] counts them.
pub fn threat_value(pos: &Position, threats: u32) -> Value {
    let w = if pos.phase() == Phase::Placement { PLACEMENT } else { MOVEMENT };
    w.threat * threats.min(4) as Value
}

/// Stones on the board and in hand only: the `material4` baseline's view of the game.
pub fn material(pos: &Position) -> Value {
    let us = pos.side();
    let stones = |c: Colour| (pos.stones(c).count() + u32::from(pos.hand(c))) as Value;
    100 * (stones(us) - stones(!us))
}

#[cfg(test)]
mod tests {
    use super::*;
    use dara::Ruleset;

    #[test]
    fn symmetric_at_the_start() {
        let pos = Position::start(Ruleset::default());
        assert_eq!(evaluate(&pos), 0);
    }

    #[test]
    fn threats_are_seen() {
        // White: a1 b1 and c2, which steps down to c1 to make a1-b1-c1.
        let pos = Position::from_text("6/6/6/2W2B/WW2BB w 0 0 0", Ruleset::default()).unwrap();
        let p = prospects(&pos, Colour::White);
        assert_eq!(p.threats, 1);
        assert!(evaluate(&pos) > 0);
    }
}
