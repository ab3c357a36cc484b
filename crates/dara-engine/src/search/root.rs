//! Iterative deepening at the root: the root's moves (a level's noise, overlooked captures and
//! careless offers applied to them), one iteration after another until a limit or a proven result,
//! and each iteration's principal-variation search over the root moves.

use std::time::Duration;

use dara::{Move, MoveList, Phase, Position, Status};

use super::repetition::key;
use super::{Iteration, Outcome, Searcher, Style};
use crate::eval::prospects;
use crate::limits::Limits;
use crate::rng::Rng;
use crate::score::{is_decisive, to_tt, Score, Value, INFINITE, MAX_PLY, WIN};
use crate::tt::{Bound, PackedMove};

impl Searcher {
    /// Searches `pos` within `limits`. `history` holds the hashes of the game's earlier
    /// positions, oldest first, so that repetitions are seen. `report` hears of every finished
    /// iteration. A set stop flag ends it at once: whoever sets the flag clears it before the next
    /// search (so that a `stop` arriving before the search starts is not lost).
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        style: &Style,
        report: &mut dyn FnMut(&Iteration),
    ) -> Outcome {
        self.clock.restart();
        self.nodes = 0;
        self.tb_hits = 0;
        self.tables_apply = self.tablebase.as_ref().is_some_and(|tb| tb.applies_to(pos.rules()));
        self.seldepth = 0;
        self.stopped = false;
        self.quiescence = style.quiescence;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.node_floor = limits.min_nodes.unwrap_or(0);
        let moves_left = match pos.phase() {
            Phase::Placement => 30,
            Phase::Movement => 25,
        };
        self.deadlines = limits.deadlines(moves_left);
        self.tt.new_search();
        self.path.clear();
        self.path.extend_from_slice(history);
        self.order.new_search();

        let mut root: MoveList = pos.legal_moves();
        if root.is_empty() {
            let score = match pos.status() {
                Status::Won { winner, .. } if winner == pos.side() => Score::Win(0),
                Status::Won { .. } => Score::Loss(0),
                _ => Score::Cp(0),
            };
            return Outcome {
                best: None,
                score,
                depth: 0,
                nodes: 0,
                time: self.clock.elapsed(),
                pv: Vec::new(),
                tb_hits: 0,
            };
        }
        if let Some((m, score)) = self.root_from_tables(pos) {
            self.tb_hits = 1;
            let time = self.clock.elapsed();
            let pv = vec![m];
            let iteration = Iteration {
                depth: 1,
                seldepth: 1,
                score,
                nodes: 0,
                time,
                pv: pv.clone(),
                tb_hits: 1,
            };
            report(&iteration);
            return Outcome { best: Some(m), score, depth: 1, nodes: 0, time, pv, tb_hits: 1 };
        }
        if style.overlook_captures && root.iter().any(|m| !m.is_capture()) {
            root.retain(|m| !m.is_capture());
        }
        // A row already standing against the careless side is left to the rest of its play (it
        // may not see it); a new one is offered only when none stands, so that an offer the other
        // side does not take costs nothing more.
        if style.careless
            && !root.iter().any(|m| m.is_capture())
            && prospects(pos, !pos.side()).threats == 0
        {
            let offers: Vec<Move> = root
                .iter()
                .copied()
                .filter(|&m| pos.after(m).legal_moves().iter().any(|r| r.is_capture()))
                .collect();
            if !offers.is_empty() {
                root = offers;
            }
        }
        let mut rng = Rng::new(style.seed ^ pos.hash());
        let noise: Vec<Value> = root
            .iter()
            .map(|_| {
                if style.noise > 0 {
                    rng.below(2 * style.noise as u64 + 1) as Value - style.noise
                } else {
                    0
                }
            })
            .collect();
        // Root moves with their latest scores, best first.
        let mut order: Vec<(Move, Value, Value)> = {
            let mut scores = vec![0; root.len()];
            self.order.score_moves(pos, &root, PackedMove::NONE, 0, &mut scores);
            let mut v: Vec<(Move, Value, Value, i32)> =
                root.iter().zip(&noise).zip(&scores).map(|((&m, &n), &s)| (m, 0, n, s)).collect();
            v.sort_by_key(|e| -e.3);
            v.into_iter().map(|(m, s, n, _)| (m, s, n)).collect()
        };

        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1).clamp(1, MAX_PLY as u32 - 1);
        let mut best = Outcome {
            best: Some(order[0].0),
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
            pv: vec![order[0].0],
            tb_hits: 0,
        };
        for depth in 1..=max_depth {
            let Some((value, pv, complete)) =
                self.root_search(pos, &mut order, depth as i32, style.noise > 0)
            else {
                break;
            };
            if !complete {
                // What the unfinished iteration proved about the moves it finished still beats the
                // last iteration's choice.
                best.best = Some(pv[0]);
                best.score = Score::from_value(value);
                best.pv = pv;
                break;
            }
            let iteration = Iteration {
                depth,
                seldepth: self.seldepth.max(1) as u32,
                score: Score::from_value(value),
                nodes: self.nodes,
                time: self.clock.elapsed(),
                pv: pv.clone(),
                tb_hits: self.tb_hits,
            };
            report(&iteration);
            best = Outcome {
                best: Some(pv[0]),
                score: iteration.score,
                depth,
                nodes: self.nodes,
                time: iteration.time,
                pv,
                tb_hits: self.tb_hits,
            };
            let past_soft = |soft| self.clock.elapsed() >= soft * 6 / 10;
            if self.nodes >= self.node_floor && self.deadlines.soft.is_some_and(past_soft) {
                break;
            }
            // A proven result will not change with more depth (noise aside).
            if is_decisive(value) && style.noise == 0 && depth as Value >= WIN - value.abs() + 2 {
                break;
            }
        }
        best.nodes = self.nodes;
        best.time = self.clock.elapsed();
        best.tb_hits = self.tb_hits;
        best
    }

    /// One iteration at the root. With `exact`, every move gets a full window so that its score
    /// (plus its noise) can be compared with the others'. `None` when stopped before the first
    /// move finished; otherwise the best value, its line, and whether every move was searched.
    fn root_search(
        &mut self,
        pos: &Position,
        order: &mut [(Move, Value, Value)],
        depth: i32,
        exact: bool,
    ) -> Option<(Value, Vec<Move>, bool)> {
        let mut alpha = -INFINITE;
        let mut best_index = None;
        let mut best_pv = Vec::new();
        let mut best_noisy = -INFINITE;
        self.path.push(pos.hash());
        for (i, entry) in order.iter_mut().enumerate() {
            let m = entry.0;
            let child = pos.after(m);
            let value = if i == 0 || exact {
                -self.negamax(&child, depth - 1, -INFINITE, INFINITE, 1, true)
            } else {
                let v = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1, false);
                if v > alpha && !self.stopped {
                    -self.negamax(&child, depth - 1, -INFINITE, -alpha, 1, true)
                } else {
                    v
                }
            };
            if self.stopped {
                break;
            }
            entry.1 = value;
            let noisy = if exact && !is_decisive(value) { value + entry.2 } else { value };
            if best_index.is_none() || noisy > best_noisy {
                best_noisy = noisy;
                best_index = Some(i);
                best_pv.clear();
                best_pv.push(m);
                best_pv.extend_from_slice(&self.pv[1]);
                alpha = alpha.max(value);
            }
        }
        self.path.pop();
        let i = best_index?;
        let value = order[i].1;
        // The best move goes first for the next iteration; the others keep their order.
        order[..=i].rotate_right(1);
        if !self.stopped {
            let best = PackedMove::new(order[0].0);
            self.tt.store(key(pos), best, to_tt(value, 0), depth, Bound::Exact);
        }
        Some((value, best_pv, !self.stopped))
    }
}
