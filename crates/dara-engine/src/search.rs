//! The search: iterative deepening over a principal-variation alpha-beta search with a
//! transposition table, killer and history move ordering, late-move reductions and a capture
//! quiescence search.
//!
//! Three things about Dara shape it. Zugzwang is real (a player with no step loses), so there is
//! no null-move pruning. Without a quiet-plies limit the rules never end a game by repetition, so
//! a position repeated along the path is scored as a draw to keep the search from looping. And
//! under `quiet=N` a position's value depends on how many quiet plies remain, which the rules
//! crate's hash leaves out: the key mixes in the remaining budget whenever the draw could fall
//! inside the search's reach, so a win stored with plenty of time is never trusted where the
//! draw comes first.
//!
//! With tablebases ([`Searcher::set_tablebase`]), a root position in the tables is answered by
//! them (the move that keeps the best result under the quiet-plies limit, quickest to its
//! capture), and inside the search a position in the tables is a leaf: won or lost `dtc` plies
//! to the next capture when that comes within the quiet plies left, drawn otherwise. Such scores
//! read as `win N` / `loss N`, N counting plies to that capture rather than to the end: the
//! tables' win is as sure as a search's, and the quickest capture is the one to play.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use dara::{lines, Bitboard, Move, MoveList, Phase, Position, Status};
use dara_tablebase::Tablebase;

use crate::eval::{self, prospects};
use crate::limits::{Deadlines, Limits};
use crate::rng::Rng;
use crate::score::{
    from_tt, is_decisive, to_tt, Score, Value, DRAW, INFINITE, MAX_PLY, WIN, WIN_BOUND,
};
use crate::tt::{Bound, PackedMove, Table};

/// How a search departs from full strength (the levels use these) or which evaluation it uses.
#[derive(Clone, Debug, PartialEq)]
pub struct Style {
    /// Each root move's score gets a fixed random amount in `-noise..=noise` (centi-stones):
    /// the weaker levels' misjudgements. Zero searches every root move with a full window only
    /// when noise is on.
    pub noise: Value,
    /// Seed for the noise.
    pub seed: u64,
    /// Leave captures out of the root moves (a beginner not seeing a capture), when a quiet move
    /// exists.
    pub overlook_captures: bool,
    /// Search captures at the horizon. Off: the search neither looks at captures there nor
    /// sees the threats of the side to move there, so it walks into captures it did not see.
    pub quiescence: bool,
    /// With no capture to make and no row-making step for the other side, choose only among
    /// the moves that give the other side a capture (a cell given up that completes its row),
    /// when there are such moves: a beginner's move, looking at its own stones and not at the
    /// other side's. A side that always takes what it is given punishes it every time; one that
    /// moves at random, only sometimes.
    pub careless: bool,
}

impl Default for Style {
    fn default() -> Style {
        Style { noise: 0, seed: 0, overlook_captures: false, quiescence: true, careless: false }
    }
}

/// What one finished iteration found, as `info` lines report it.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    /// The iteration's depth.
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// The best move's score.
    pub score: Score,
    /// Nodes so far in this search.
    pub nodes: u64,
    /// Time so far.
    pub time: Duration,
    /// The principal variation, best move first.
    pub pv: Vec<Move>,
    /// Positions answered by the tablebases so far.
    pub tb_hits: u64,
}

impl Iteration {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        let micros = self.time.as_micros().max(1);
        (u128::from(self.nodes) * 1_000_000 / micros) as u64
    }
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The move to play; `None` when the game is already over.
    pub best: Option<Move>,
    /// Its score.
    pub score: Score,
    /// The last completed depth (0 if none completed).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Positions answered by the tablebases.
    pub tb_hits: u64,
}

/// A searcher with its memory (transposition table, history): one per game being played.
#[derive(Debug)]
pub struct Searcher {
    tt: Table,
    history: Vec<i32>,
    killers: [[PackedMove; 2]; MAX_PLY + 2],
    lists: Vec<MoveList>,
    orders: Vec<Vec<i32>>,
    pv: Vec<Vec<Move>>,
    /// Hashes of the positions before the current node: the game so far, then the search path.
    path: Vec<u64>,
    stop: Arc<AtomicBool>,
    nodes: u64,
    seldepth: usize,
    start: Instant,
    deadlines: Deadlines,
    node_limit: u64,
    stopped: bool,
    quiescence: bool,
    tablebase: Option<Arc<Tablebase>>,
    /// The tables apply to this search's ruleset (judged once at the root).
    tables_apply: bool,
    tb_hits: u64,
}

const HISTORY_SIZE: usize = 2 * 65 * 64;
const HISTORY_MAX: i32 = 16_384;

/// Mixes the remaining quiet budget into the key where the draw is within the search's reach.
#[inline]
fn key(pos: &Position) -> u64 {
    match pos.rules().quiet() {
        Some(limit) => {
            let left = u64::from(limit.saturating_sub(pos.quiet()));
            if pos.phase() == Phase::Movement && left <= MAX_PLY as u64 {
                pos.hash() ^ (left + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
            } else {
                pos.hash()
            }
        }
        None => pos.hash(),
    }
}

#[inline]
fn history_index(side: dara::Colour, m: Move) -> Option<usize> {
    let (from, to) = match m {
        Move::Put(c) => (64, c.index() as usize),
        Move::Step { from, to, .. } => (from.index() as usize, to.index() as usize),
        Move::Pass => return None,
    };
    Some((side.index() * 65 + from) * 64 + to)
}

impl Searcher {
    /// A searcher with a transposition table of `hash_mib` mebibytes.
    pub fn new(hash_mib: usize) -> Searcher {
        Searcher {
            tt: Table::new(hash_mib),
            history: vec![0; HISTORY_SIZE],
            killers: [[PackedMove::NONE; 2]; MAX_PLY + 2],
            lists: (0..MAX_PLY + 2).map(|_| MoveList::with_capacity(64)).collect(),
            orders: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            pv: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            path: Vec::with_capacity(1024),
            stop: Arc::new(AtomicBool::new(false)),
            nodes: 0,
            seldepth: 0,
            start: Instant::now(),
            deadlines: Deadlines::default(),
            node_limit: u64::MAX,
            stopped: false,
            quiescence: true,
            tablebase: None,
            tables_apply: false,
            tb_hits: 0,
        }
    }

    /// Movement-phase tables to answer from (at the root and inside the search); `None` to
    /// search without them. Tables of another ruleset are simply not used.
    pub fn set_tablebase(&mut self, tablebase: Option<Arc<Tablebase>>) {
        self.tablebase = tablebase;
    }

    /// The tables' result for `pos` as a search value at `ply`, if the tables hold it.
    #[inline]
    fn probe_tables(&mut self, pos: &Position, ply: usize) -> Option<Value> {
        if !self.tables_apply {
            return None;
        }
        let outcome = self.tablebase.as_ref()?.lookup(pos)?;
        self.tb_hits += 1;
        let at = |dtc: u16| WIN - (ply + usize::from(dtc)).min(MAX_PLY) as Value;
        Some(match outcome {
            dara_tablebase::Outcome::Win(dtc) => at(dtc),
            dara_tablebase::Outcome::Loss(dtc) => -at(dtc),
            dara_tablebase::Outcome::Draw => DRAW,
        })
    }

    /// The tables' best move at the root, with its score, if the tables hold the position.
    fn root_from_tables(&self, pos: &Position) -> Option<(Move, Score)> {
        let tb = self.tablebase.as_ref().filter(|_| self.tables_apply)?;
        let best = *tb.rank_moves(pos).ok()?.first()?;
        let score = match best.outcome {
            dara_tablebase::Outcome::Win(dtc) => Score::Win(u32::from(dtc)),
            dara_tablebase::Outcome::Loss(dtc) => Score::Loss(u32::from(dtc)),
            dara_tablebase::Outcome::Draw => Score::Cp(0),
        };
        Some((best.mv, score))
    }

    /// Resizes the transposition table (forgetting it).
    pub fn resize(&mut self, hash_mib: usize) {
        self.tt = Table::new(hash_mib);
    }

    /// Forgets everything learned: a new game.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.fill(0);
        self.killers = [[PackedMove::NONE; 2]; MAX_PLY + 2];
    }

    /// The flag that ends a running search when set (from another thread).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Makes `stop` the flag that ends this searcher's searches: for a driver that hands out the
    /// flag before the searcher exists (a search waiting in a queue can be called off too).
    pub fn set_stop_flag(&mut self, stop: Arc<AtomicBool>) {
        self.stop = stop;
    }

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
        self.start = Instant::now();
        self.nodes = 0;
        self.tb_hits = 0;
        self.tables_apply = self.tablebase.as_ref().is_some_and(|tb| tb.applies_to(pos.rules()));
        self.seldepth = 0;
        self.stopped = false;
        self.quiescence = style.quiescence;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        let moves_left = match pos.phase() {
            Phase::Placement => 30,
            Phase::Movement => 25,
        };
        self.deadlines = limits.deadlines(moves_left);
        self.tt.new_search();
        self.path.clear();
        self.path.extend_from_slice(history);
        self.killers = [[PackedMove::NONE; 2]; MAX_PLY + 2];
        for h in &mut self.history {
            *h /= 2;
        }

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
                time: self.start.elapsed(),
                pv: Vec::new(),
                tb_hits: 0,
            };
        }
        if let Some((m, score)) = self.root_from_tables(pos) {
            self.tb_hits = 1;
            let time = self.start.elapsed();
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
            self.score_moves(pos, &root, PackedMove::NONE, 0, &mut scores);
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
                time: self.start.elapsed(),
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
            if self.deadlines.soft.is_some_and(|soft| self.start.elapsed() >= soft * 6 / 10) {
                break;
            }
            // A proven result will not change with more depth (noise aside).
            if is_decisive(value) && style.noise == 0 && depth as Value >= WIN - value.abs() + 2 {
                break;
            }
        }
        best.nodes = self.nodes;
        best.time = self.start.elapsed();
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

    #[inline]
    fn check_limits(&mut self) {
        if self.nodes >= self.node_limit {
            self.stopped = true;
        } else if self.nodes & 1023 == 0 {
            if self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            } else if let Some(hard) = self.deadlines.hard {
                if self.start.elapsed() >= hard {
                    self.stopped = true;
                }
            }
        }
    }

    /// The value of a position that may have ended, or `None` if play goes on.
    #[inline]
    fn terminal(pos: &Position, ply: usize) -> Option<Value> {
        match pos.status() {
            Status::Ongoing => None,
            Status::Won { winner, .. } if winner == pos.side() => Some(WIN - ply as Value),
            Status::Won { .. } => Some(-(WIN - ply as Value)),
            Status::Drawn(_) => Some(DRAW),
        }
    }

    #[inline]
    fn repeated(&self, pos: &Position) -> bool {
        let n = self.path.len();
        let back = (pos.quiet() as usize).min(n);
        let hash = pos.hash();
        (2..=back).step_by(2).any(|i| self.path[n - i] == hash)
    }

    fn negamax(
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
        self.score_moves(pos, &moves, tt_move, ply, &mut scores);

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
                            self.reward(pos, m, &moves[..i], depth, ply);
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

    /// A quiet move cut off: remember it as a killer and in the history; the quiet moves tried
    /// before it lose credit.
    fn reward(&mut self, pos: &Position, m: Move, tried: &[Move], depth: i32, ply: usize) {
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
    fn score_moves(
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

    fn quiescence(&mut self, pos: &Position, mut alpha: Value, beta: Value, ply: usize) -> Value {
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
            self.score_moves(pos, &moves, PackedMove::NONE, ply, &mut scores);
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

/// How much a late quiet move is reduced: more the deeper the node and the later the move
/// (the logarithmic rule of modern chess engines), at least one ply.
#[inline]
fn late_move_reduction(depth: i32, index: usize) -> i32 {
    let r = 0.75 + f64::from(depth).ln() * (index as f64).ln() / 2.25;
    (r as i32).max(1)
}

const TT_SCORE: i32 = 1 << 30;
const CAPTURE_SCORE: i32 = 1 << 28;
const KILLER_SCORE: i32 = 1 << 27;
const QUIESCENCE_WIDTH: usize = 6;

/// Whether a value proves a win for the side to move.
pub fn is_win(v: Value) -> bool {
    v >= WIN_BOUND
}

/// One step of a selection sort: the best-scored move from `i` on is swapped to `i`. Sorting
/// lazily pays, as most nodes cut off after a move or two.
fn bring_best_forward(moves: &mut [Move], scores: &mut [i32], i: usize) {
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

    fn best(rules: &str, fen: &str, limits: Limits) -> Outcome {
        let rules: Ruleset = rules.parse().unwrap();
        let pos = Position::from_text(fen, rules).unwrap();
        Searcher::new(4).search(&pos, &[], &limits, &Style::default(), &mut |_| {})
    }

    #[test]
    fn takes_the_winning_capture() {
        let out = best("arcade", "6/6/6/2W2B/WW2BB w 0 0 0", Limits::depth(4));
        assert_eq!(out.best.unwrap().to_string().split('x').next(), Some("c2-c1"));
        assert_eq!(out.score, Score::Win(1));
    }

    #[test]
    fn wins_by_remaking_a_row() {
        let out = best("arcade", "B1B1B1/6/B3B1/6/WWW3 w 0 0 0", Limits::depth(14));
        assert!(matches!(out.score, Score::Win(n) if n <= 13), "{:?}", out);
    }

    #[test]
    fn blocks_the_only_threat() {
        let out = best("arcade", "BB1B2/2W3/6/6/W1W2B w 0 0 0", Limits::depth(5));
        assert_eq!(out.best.unwrap().to_string(), "c4-c5", "{:?}", out);
        assert!(!matches!(out.score, Score::Loss(_)));
    }

    #[test]
    fn a_careless_move_gives_the_other_side_a_capture() {
        // Pale's c2 stands where dark's c3 would complete a2 b2 c2: stepping it away (c2-c1 or
        // c2-d2) gives dark a capture, the other steps do not.
        let pos = Position::from_text("4WW/6/2B3/BBW3/6 w 0 0 0", Ruleset::default()).unwrap();
        let search = |style: &Style| {
            let out = Searcher::new(4).search(&pos, &[], &Limits::depth(1), style, &mut |_| {});
            out.best.unwrap()
        };
        for seed in 0..8 {
            let m = search(&Style { careless: true, noise: 400, seed, ..Style::default() });
            assert!(m.to_string().starts_with("c2-"), "{m}");
            assert!(pos.after(m).legal_moves().iter().any(|r| r.is_capture()), "{m}");
        }
        // Careful, it keeps c2.
        assert!(!search(&Style::default()).to_string().starts_with("c2-"));
    }

    #[test]
    fn a_careless_move_offers_nothing_while_a_row_stands_against_it() {
        // Dark threatens d5-c5 (a row a5 b5 c5), and only c4-c5 stops it: careless but seeing
        // the threat, pale blocks it as a careful search does.
        let pos = Position::from_text("BB1B2/2W3/6/6/W1W2B w 0 0 0", Ruleset::default()).unwrap();
        let style = Style { careless: true, ..Style::default() };
        let out = Searcher::new(4).search(&pos, &[], &Limits::depth(1), &style, &mut |_| {});
        assert_eq!(out.best.unwrap().to_string(), "c4-c5");
    }

    #[test]
    fn no_move_when_the_game_is_over() {
        let out = best("arcade", "6/6/6/5B/WW2BB w 0 0 0", Limits::depth(3));
        assert_eq!(out.best, None);
    }

    #[test]
    fn a_quiet_limit_turns_a_slow_win_into_a_draw() {
        // The same re-making win, but only two quiet plies remain before the draw.
        let out = best("arcade", "B1B1B1/6/B3B1/6/WWW3 w 0 0 78", Limits::depth(8));
        assert_eq!(out.score, Score::Cp(0), "{:?}", out);
    }

    #[test]
    fn a_node_limit_is_deterministic() {
        let run = || best("jaques", "6/6/6/6/6 w 12 12 0", Limits::nodes(20_000));
        let (a, b) = (run(), run());
        assert_eq!((a.best, a.nodes), (b.best, b.nodes));
        assert!(a.nodes <= 20_001);
    }

    #[test]
    fn a_stop_flag_handed_in_ends_even_an_endless_search() {
        // Set before the search starts, as when a search is called off while it waits its turn:
        // the search still answers with a legal move, after a few hundred nodes.
        let pos = Position::start("arcade".parse().unwrap());
        let mut searcher = Searcher::new(1);
        let stop = Arc::new(AtomicBool::new(true));
        searcher.set_stop_flag(Arc::clone(&stop));
        let limits = Limits { infinite: true, ..Limits::default() };
        let out = searcher.search(&pos, &[], &limits, &Style::default(), &mut |_| {});
        assert!(pos.legal_moves().contains(&out.best.unwrap()));
        assert!(out.nodes <= 1024, "{} nodes", out.nodes);
        assert!(Arc::ptr_eq(&searcher.stop_flag(), &stop));
    }
}
