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
//!
//! One concept a file: `root` drives the iterations, `alphabeta` searches below the root,
//! `quiescence` at the horizon, `ordering` decides which move is tried first, `repetition` finds
//! the draws and keys the table under the quiet-plies limit, `tables` asks the tablebases; this
//! file holds the searcher, its limits and what a search reports.

mod alphabeta;
mod ordering;
mod quiescence;
mod repetition;
mod root;
mod tables;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use dara::{Move, MoveList};
use dara_tablebase::Tablebase;

use crate::limits::Deadlines;
use crate::score::{Score, Value, MAX_PLY, WIN_BOUND};
use crate::stopwatch::{system_now, Now, Stopwatch};
use crate::tt::Table;
use ordering::MoveOrder;

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
    /// Killers and history: which quiet moves to try first.
    order: MoveOrder,
    lists: Vec<MoveList>,
    orders: Vec<Vec<i32>>,
    pv: Vec<Vec<Move>>,
    /// Hashes of the positions before the current node: the game so far, then the search path.
    path: Vec<u64>,
    stop: Arc<AtomicBool>,
    nodes: u64,
    seldepth: usize,
    /// Started with each search; reads the system's clock unless given another.
    clock: Stopwatch,
    deadlines: Deadlines,
    node_limit: u64,
    /// No time limit ends the search before this many nodes.
    node_floor: u64,
    stopped: bool,
    quiescence: bool,
    tablebase: Option<Arc<Tablebase>>,
    /// The tables apply to this search's ruleset (judged once at the root).
    tables_apply: bool,
    tb_hits: u64,
}

impl Searcher {
    /// A searcher with a transposition table of `hash_mib` mebibytes.
    pub fn new(hash_mib: usize) -> Searcher {
        Searcher {
            tt: Table::new(hash_mib),
            order: MoveOrder::new(),
            lists: (0..MAX_PLY + 2).map(|_| MoveList::with_capacity(64)).collect(),
            orders: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            pv: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            path: Vec::with_capacity(1024),
            stop: Arc::new(AtomicBool::new(false)),
            nodes: 0,
            seldepth: 0,
            clock: Stopwatch::new(system_now),
            deadlines: Deadlines::default(),
            node_limit: u64::MAX,
            node_floor: 0,
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

    /// Makes `now` the clock that time limits are read on: for a host whose standard library
    /// has no clock (WebAssembly in a page hands in `performance.now()`). Where the search reads
    /// it does not change, so neither does what a search bounded by nodes or depth finds.
    pub fn set_clock(&mut self, now: Now) {
        self.clock.set_clock(now);
    }

    /// Resizes the transposition table (forgetting it).
    pub fn resize(&mut self, hash_mib: usize) {
        self.tt = Table::new(hash_mib);
    }

    /// Forgets everything learned: a new game.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.order.clear();
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

    /// Ends the search at its node limit; every 1024 nodes, also when the stop flag is set or the
    /// hard deadline has passed and the node floor is reached (reading the clock and the flag at
    /// every node costs too much).
    #[inline]
    pub(super) fn check_limits(&mut self) {
        if self.nodes >= self.node_limit {
            self.stopped = true;
        } else if self.nodes & 1023 == 0 {
            if self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            } else if let Some(hard) = self.deadlines.hard {
                if self.nodes >= self.node_floor && self.clock.elapsed() >= hard {
                    self.stopped = true;
                }
            }
        }
    }
}

/// Whether a value proves a win for the side to move.
pub fn is_win(v: Value) -> bool {
    v >= WIN_BOUND
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use dara::{Position, Ruleset};

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

    /// A clock on which a whole second passes between any two readings: every time limit is
    /// past at its first check.
    fn racing_clock() -> Duration {
        use std::sync::atomic::AtomicU64;
        static SECONDS: AtomicU64 = AtomicU64::new(0);
        Duration::from_secs(SECONDS.fetch_add(1, Ordering::Relaxed))
    }

    #[test]
    fn time_is_read_on_the_clock_handed_in_and_a_node_floor_outlasts_it() {
        let pos = Position::start("arcade".parse().unwrap());
        let search = |min_nodes| {
            let mut searcher = Searcher::new(1);
            searcher.set_clock(racing_clock);
            let limits = Limits { min_nodes, ..Limits::movetime(1000) };
            searcher.search(&pos, &[], &limits, &Style::default(), &mut |_| {})
        };
        // The time is up at the first check, after 1024 nodes.
        assert!(search(None).nodes <= 1024, "{:?}", search(None));
        // With a floor, the search goes on to it and stops at the next check past it.
        let floored = search(Some(30_000));
        assert!((30_000..=31_024).contains(&floored.nodes), "{floored:?}");
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
