//! The capture quiescence search at the horizon: only a side with a row-making step has
//! captures to search, and only the best-ordered few of them.

use dara::{Phase, Position};

use super::ordering::bring_best_forward;
use super::Searcher;
use crate::eval;
use crate::score::{Value, MAX_PLY};
use crate::tt::PackedMove;

/// How many captures the quiescence search tries at a node.
const QUIESCENCE_WIDTH: usize = 6;

impl Searcher {
    pub(super) fn quiescence(
        &mut self,
        pos: &Position,
        mut alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Value {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        self.check_limits();
        if self.stopped {
            return 0;
        }
        if let Some(v) = Self::terminal(pos, ply) {
            return v;
        }
        let detail = eval::evaluate_detail(pos);
        if !self.quiescence {
            // A careless look: the mover sees what it can make next, not what it lets the
            // other side make.
            return detail.value - eval::threat_value(pos, detail.ours.threats);
        }
        let stand_pat = detail.value;
        // No step that makes a row: no capture to search.
        if pos.phase() == Phase::Placement || ply >= MAX_PLY || detail.ours.threats == 0 {
            return stand_pat;
        }
        if stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;
        let mut moves = std::mem::take(&mut self.lists[ply]);
        let mut scores = std::mem::take(&mut self.orders[ply]);
        pos.legal_moves_into(&mut moves);
        moves.retain(|m| m.is_capture());
        scores.resize(moves.len(), 0);
        if !moves.is_empty() {
            self.order.score_moves(pos, &moves, PackedMove::NONE, ply, &mut scores);
        }
        // Which stone to take multiplies the captures; the few best-ordered choices suffice here.
        for i in 0..moves.len().min(QUIESCENCE_WIDTH) {
            bring_best_forward(&mut moves, &mut scores, i);
            let child = pos.after(moves[i]);
            let value = -self.quiescence(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                break;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = moves;
        self.orders[ply] = scores;
        best
    }
}
