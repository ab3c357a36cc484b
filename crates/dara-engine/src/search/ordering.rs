//! Move ordering: the transposition table's move, then captures (the enemy's most dangerous
//! stones first), killers, steps that block an enemy row or leave an own row to make it again,
//! then the history of quiet moves that cut off. Alpha-beta prunes the more the sooner the best
//! move comes, and most nodes cut off after a move or two.

use dara::{lines, Bitboard, Colour, Move, Phase, Position};

use crate::eval::prospects;
use crate::score::MAX_PLY;
use crate::tt::PackedMove;

const TT_SCORE: i32 = 1 << 30;
const CAPTURE_SCORE: i32 = 1 << 28;
/// The first killer's score; the second's is one less. Late-move reductions spare both.
pub(super) const KILLER_SCORE: i32 = 1 << 27;

const HISTORY_SIZE: usize = 2 * 65 * 64;
const HISTORY_MAX: i32 = 16_384;

/// What the search learns about quiet moves: two killers per ply (quiet moves that cut off
/// there) and a history score per side, origin and destination. The history outlives a search,
/// halved at each new one; the killers are per search.
#[derive(Debug)]
pub(super) struct MoveOrder {
    history: Vec<i32>,
    killers: [[PackedMove; 2]; MAX_PLY + 2],
}

impl MoveOrder {
    pub(super) fn new() -> MoveOrder {
        MoveOrder { history: vec![0; HISTORY_SIZE], killers: [[PackedMove::NONE; 2]; MAX_PLY + 2] }
    }

    /// Forgets everything: a new game.
    pub(super) fn clear(&mut self) {
        self.history.fill(0);
        self.killers = [[PackedMove::NONE; 2]; MAX_PLY + 2];
    }

    /// A new search in the same game: the killers go, the history counts half.
    pub(super) fn new_search(&mut self) {
        self.killers = [[PackedMove::NONE; 2]; MAX_PLY + 2];
        for h in &mut self.history {
            *h /= 2;
        }
    }

    /// A quiet move cut off: remember it as a killer and in the history; the quiet moves tried
    /// before it lose credit.
    pub(super) fn reward(
        &mut self,
        pos: &Position,
        m: Move,
        tried: &[Move],
        depth: i32,
        ply: usize,
    ) {
        let packed = PackedMove::new(m);
        if self.killers[ply][0] != packed {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = packed;
        }
        let bonus = (depth * depth).min(400);
        let side = pos.side();
        let mut update = |index: Option<usize>, delta: i32| {
            if let Some(i) = index {
                let h = &mut self.history[i];
                *h += delta - *h * delta.abs() / HISTORY_MAX;
            }
        };
        update(history_index(side, m), bonus);
        for &t in tried.iter().filter(|t| !t.is_capture()) {
            update(history_index(side, t), -bonus);
        }
    }

    /// Ordering scores: the table's move, then captures (taking the enemy's most dangerous
    /// stones first), killers, moves that block an enemy row or step out of an own row to make it
    /// again, then history.
    pub(super) fn score_moves(
        &self,
        pos: &Position,
        moves: &[Move],
        tt_move: PackedMove,
        ply: usize,
        scores: &mut [i32],
    ) {
        let side = pos.side();
        let movement = pos.phase() == Phase::Movement;
        let (danger, blocks, own_rows) = if movement && moves.len() > 1 {
            let theirs = prospects(pos, !side);
            let enemy = pos.stones(!side);
            (
                theirs.threat_stones | lines::in_rows(enemy),
                theirs.threat_cells,
                lines::in_rows(pos.stones(side)),
            )
        } else {
            (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY)
        };
        let killers = self.killers[ply.min(MAX_PLY)];
        for (m, s) in moves.iter().zip(scores.iter_mut()) {
            let packed = PackedMove::new(*m);
            *s = if packed == tt_move {
                TT_SCORE
            } else if m.is_capture() {
                CAPTURE_SCORE
                    + 1000 * (m.captures() & danger).count() as i32
                    + 100 * m.captures().count() as i32
            } else if packed == killers[0] {
                KILLER_SCORE
            } else if packed == killers[1] {
                KILLER_SCORE - 1
            } else {
                let mut s = history_index(side, *m).map_or(0, |i| self.history[i]);
                if let Move::Step { from, to, .. } = *m {
                    if blocks.contains(to) {
                        s += 6000;
                    }
                    if own_rows.contains(from) {
                        s += 4000;
                    }
                }
                s
            };
        }
    }
}

#[inline]
fn history_index(side: Colour, m: Move) -> Option<usize> {
    let (from, to) = match m {
        Move::Put(c) => (64, c.index() as usize),
        Move::Step { from, to, .. } => (from.index() as usize, to.index() as usize),
        Move::Pass => return None,
    };
    Some((side.index() * 65 + from) * 64 + to)
}

/// One step of a selection sort: the best-scored move from `i` on is swapped to `i`. Sorting
/// lazily pays, as most nodes cut off after a move or two.
pub(super) fn bring_best_forward(moves: &mut [Move], scores: &mut [i32], i: usize) {
    let mut best = i;
    for k in i + 1..moves.len() {
        if scores[k] > scores[best] {
            best = k;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
}

#[cfg(test)]
mod tests {
    use super::*;
    use dara::Ruleset;

    #[test]
    fn a_capture_first_then_the_killer_then_the_other_quiet_moves() {
        // Pale can capture (c2-c1 makes a row); a quiet step that cut off at this ply is tried
        // right after the captures, before the other quiet steps.
        let pos = Position::from_text("6/6/6/2W2B/WW2BB w 0 0 0", Ruleset::default()).unwrap();
        let moves = pos.legal_moves();
        let killer = *moves.iter().find(|m| !m.is_capture()).unwrap();
        let mut order = MoveOrder::new();
        order.reward(&pos, killer, &[], 4, 3);
        let mut moves: Vec<Move> = moves.to_vec();
        let mut scores = vec![0; moves.len()];
        order.score_moves(&pos, &moves, PackedMove::NONE, 3, &mut scores);
        for i in 0..moves.len() {
            bring_best_forward(&mut moves, &mut scores, i);
        }
        let captures = moves.iter().take_while(|m| m.is_capture()).count();
        assert!(captures > 0 && moves[captures..].iter().all(|m| !m.is_capture()), "{moves:?}");
        assert_eq!(moves[captures], killer);
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
        // At another ply the killer is only a quiet move with some history.
        order.score_moves(&pos, &moves, PackedMove::NONE, 4, &mut scores);
        assert!(scores[captures] < KILLER_SCORE - 1);
    }
}
