//! The principal-variation alpha-beta search below the root, with late-move reductions; at the
//! horizon it hands over to the quiescence search.

use dara::{Phase, Position, Status};

use super::ordering::{bring_best_forward, KILLER_SCORE};
use super::repetition::key;
use super::Searcher;
use crate::score::{from_tt, to_tt, Value, DRAW, INFINITE, MAX_PLY, WIN};
use crate::tt::{Bound, PackedMove};

impl Searcher {
    /// The value of a position that may have ended, or `None` if play goes on.
    #[inline]
    pub(super) fn terminal(pos: &Position, ply: usize) -> Option<Value> {
        match pos.status() {
            Status::Ongoing => None,
            Status::Won { winner, .. } if winner == pos.side() => Some(WIN - ply as Value),
            Status::Won { .. } => Some(-(WIN - ply as Value)),
            Status::Drawn(_) => Some(DRAW),
        }
    }

    pub(super) fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: Value,
        beta: Value,
        ply: usize,
        pv_node: bool,
    ) -> Value {
        self.pv[ply].clear();
        if let Some(v) = Self::terminal(pos, ply) {
            return v;
        }
        if pos.phase() == Phase::Movement && self.repeated(pos) {
            return DRAW;
        }
        if let Some(v) = self.probe_tables(pos, ply) {
            return v;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiescence(pos, alpha, beta, ply);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        self.check_limits();
        if self.stopped {
            return 0;
        }
        // No line from here can beat a win already within reach.
        let alpha_floor = -(WIN - ply as Value);
        let beta_ceiling = WIN - ply as Value - 1;
        if alpha_floor >= beta {
            return alpha_floor;
        }
        let beta = beta.min(beta_ceiling);
        if alpha >= beta {
            return alpha;
        }

        let key = key(pos);
        let mut tt_move = PackedMove::NONE;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.best;
            if !pv_node && i32::from(e.depth) >= depth {
                let v = from_tt(e.value(), ply);
                let usable = match e.bound() {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                    Bound::None => false,
                };
                if usable {
                    return v;
                }
            }
        }

        let mut moves = std::mem::take(&mut self.lists[ply]);
        let mut scores = std::mem::take(&mut self.orders[ply]);
        pos.legal_moves_into(&mut moves);
        scores.resize(moves.len(), 0);
        self.order.score_moves(pos, &moves, tt_move, ply, &mut scores);

        let original_alpha = alpha;
        let mut best_value = -INFINITE;
        let mut best_move = PackedMove::NONE;
        self.path.push(pos.hash());
        for i in 0..moves.len() {
            bring_best_forward(&mut moves, &mut scores, i);
            let m = moves[i];
            let quiet = !m.is_capture();
            let child = pos.after(m);
            let mut value;
            if i == 0 {
                value = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, pv_node);
            } else {
                let reduction = if depth >= 3 && i >= 3 && quiet && scores[i] < KILLER_SCORE - 1 {
                    late_move_reduction(depth, i).min(depth - 2)
                } else {
                    0
                };
                value = -self.negamax(
                    &child,
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                );
                if value > alpha && reduction > 0 && !self.stopped {
                    value = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, false);
                }
                if value > alpha && value < beta && pv_node && !self.stopped {
                    value = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true);
                }
            }
            if self.stopped {
                break;
            }
            if value > best_value {
                best_value = value;
                if value > alpha {
                    alpha = value;
                    best_move = PackedMove::new(m);
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(m);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if value >= beta {
                        if quiet {
                            self.order.reward(pos, m, &moves[..i], depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        self.path.pop();
        self.lists[ply] = moves;
        self.orders[ply] = scores;
        if self.stopped {
            return 0;
        }
        let bound = if best_value >= beta {
            Bound::Lower
        } else if best_value > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move, to_tt(best_value, ply), depth, bound);
        best_value
    }
}

/// How much a late quiet move is reduced: more the deeper the node and the later the move
/// (the logarithmic rule of modern chess engines), at least one ply.
#[inline]
fn late_move_reduction(depth: i32, index: usize) -> i32 {
    let r = 0.75 + f64::from(depth).ln() * (index as f64).ln() / 2.25;
    (r as i32).max(1)
}
