//! The computer opponent: the engine's search, run off the async runtime on blocking threads,
//! never more searches at once than the server allows. The rest wait in a queue (`queue`) that
//! runs next the search of the client who used the engine least lately, and tells each waiting
//! game how many searches are ahead of it. A search that is no longer wanted (a takeback, the
//! game's end, its actor stopping) is called off at once, waiting or running.

use std::future::Future;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once, Weak};
use std::time::Duration;

use dara::{Move, Position};
use dara_engine::level::{Level, PLAY_HASH_MIB};
use dara_engine::rng::Rng;
use dara_engine::search::{Outcome, Style};
use dara_engine::{Limits, Searcher};
use dara_tablebase::Tablebase;
use rand::Rng as _;
use tokio::sync::{broadcast, oneshot};
use tokio::time::Instant;

use super::queue::{Purpose, Queue, Removed, TELL_EVERY};
use crate::protocol::{Answer, Wire};

/// A search for one booking: its own table of [`PLAY_HASH_MIB`], called off by `stop`,
/// answering from `tablebase` where it has one.
fn searcher(stop: Arc<AtomicBool>, tablebase: Option<Arc<Tablebase>>) -> Searcher {
    let mut searcher = Searcher::new(PLAY_HASH_MIB);
    searcher.set_stop_flag(stop);
    searcher.set_tablebase(tablebase);
    searcher
}

/// The engine, shared by every game against the computer.
#[derive(Debug, Clone)]
pub struct Computer {
    pool: Arc<Pool>,
    human_pause: bool,
    /// Endgame tables for the analysis, the review and level 8's play.
    tablebase: Option<Arc<Tablebase>>,
}

#[derive(Debug)]
struct Pool {
    // A std mutex: held only to book a search in or out, never across an await or a search.
    queue: Mutex<Queue<Waiting>>,
    /// Most searches waiting before new games against the computer are refused.
    bound: usize,
    /// Starts the ticker that tells the places left to tell, with the first search (inside the
    /// runtime, which making the pool need not be).
    ticker: Once,
}

/// What a waiting search needs: the signal that starts it, and its game's connections.
#[derive(Debug)]
struct Waiting {
    start: oneshot::Sender<()>,
    tell: Option<broadcast::Sender<Wire>>,
}

/// One search asked of the computer.
#[derive(Debug)]
pub struct Request {
    /// The position to move in.
    pub pos: Position,
    /// The hashes of the game's earlier positions.
    pub history: Vec<u64>,
    /// How well to play.
    pub level: Level,
    /// The client address the game counts against (`None`: the server's own game).
    pub client: Option<IpAddr>,
    /// Where the game's connections hear how many searches wait ahead of this one.
    pub tell: Option<broadcast::Sender<Wire>>,
}

/// A position to study: the analysis board's, or one of a finished game's for its review.
#[derive(Debug)]
pub struct Study {
    /// The position.
    pub pos: Position,
    /// The hashes of the positions before it, in the game or line that led there (so that a
    /// repetition counts as it would in play).
    pub history: Vec<u64>,
    /// The client address it counts against.
    pub client: Option<IpAddr>,
}

/// What the engine found in a studied position.
#[derive(Debug)]
pub struct Analysis {
    /// Its best move, score (for the side to move), depth and line.
    pub outcome: Outcome,
    /// How long it waited for a thread.
    pub waited: Duration,
}

/// The most one analysis may take: a few hundred milliseconds of a thread, so that a page
/// stepping through a game is answered briskly and nobody can buy a long search with one
/// request.
#[derive(Debug, Clone, Copy)]
pub struct AnalysisBudget {
    /// Time.
    pub time: Duration,
    /// Nodes, whichever comes first.
    pub nodes: u64,
}

impl AnalysisBudget {
    /// The search limits of this budget: whichever of time and nodes comes first.
    fn limits(self) -> Limits {
        Limits { movetime: Some(self.time), nodes: Some(self.nodes), ..Limits::default() }
    }
}

/// The budget of each position of a review: a twelfth of an analysis's, so that a game of a
/// hundred turns is reviewed in about five seconds of one thread.
pub const REVIEW_BUDGET: AnalysisBudget =
    AnalysisBudget { time: Duration::from_millis(80), nodes: 60_000 };

/// A whole game to review: its start, its turns (each checked against the rules), and the
/// client address it counts against.
#[derive(Debug)]
pub struct Line {
    /// The position the turns start from.
    pub start: Position,
    /// The turns.
    pub moves: Vec<Move>,
    /// Who asks.
    pub client: Option<IpAddr>,
}

/// The budget of every analysis.
pub const ANALYSIS_BUDGET: AnalysisBudget =
    AnalysisBudget { time: Duration::from_millis(700), nodes: 1_500_000 };

/// At most this many analyses booked (running or waiting) per client address: a page asks for
/// one position at a time, and a review walks a game one position after another.
const ANALYSES_PER_CLIENT: usize = 2;

/// Why an analysis was not booked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnalysisRefused {
    /// As many analyses wait as the server lets wait.
    Busy {
        /// Analyses waiting.
        waiting: usize,
        /// About when to come back.
        retry_after: Duration,
    },
    /// The client already has its share of analyses booked.
    OneAtATime,
}

/// What cannot happen.
enum Never {}

/// Who a search is for, and where its game hears its place.
struct Booking {
    purpose: Purpose,
    client: Option<IpAddr>,
    tell: Option<broadcast::Sender<Wire>>,
}

/// A search asked for, waiting or running. Dropping it calls the search off: a waiting search
/// leaves the queue, a running one stops within a few hundred nodes and its thread is counted
/// free at once.
#[derive(Debug)]
pub struct Search {
    pool: Arc<Pool>,
    id: u64,
    stop: Arc<AtomicBool>,
}

impl Search {
    /// How many searches wait ahead of this one, if it waits.
    pub fn ahead(&self) -> Option<u32> {
        self.pool.lock().ahead(self.id)
    }
}

impl Drop for Search {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.pool.take_off(self.id, false);
    }
}

impl Pool {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queue<Waiting>> {
        // Nothing panics while holding it; a poisoned lock still holds consistent books.
        self.queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Books search `id` out (finished or called off) and starts whoever is next.
    fn take_off(&self, id: u64, finished: bool) {
        let mut queue = self.lock();
        let now = std::time::Instant::now();
        if queue.remove(id, finished, now) != Removed::Gone {
            Pool::advance(&mut queue, now);
        }
    }

    /// Starts waiting searches while threads are free, then tells the rest their places. Under
    /// the lock, so that a game never hears a place after its search was called off.
    fn advance(queue: &mut Queue<Waiting>, now: std::time::Instant) {
        loop {
            queue.order(now);
            let Some((id, waiting)) = queue.start_next(now) else { break };
            if waiting.start.send(()).is_err() {
                // Whoever waited for it is gone: free the thread again.
                queue.remove(id, false, now);
            }
        }
        Pool::tell(queue, now);
    }

    /// Tells the waiting games their places; a change too soon after the last one is left to
    /// the ticker.
    fn tell(queue: &mut Queue<Waiting>, now: std::time::Instant) -> bool {
        queue.tell_places(now, |waiting, ahead| {
            if let Some(tell) = &waiting.tell {
                let _ = tell.send(Answer::Queue { ahead }.wire());
            }
        })
    }

    /// Tells the places left to tell, every `TELL_EVERY`, for as long as the pool lives.
    async fn tick(pool: Weak<Pool>) {
        let mut every = tokio::time::interval(TELL_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            let Some(pool) = pool.upgrade() else { break };
            let mut queue = pool.lock();
            let now = std::time::Instant::now();
            queue.order(now);
            Pool::tell(&mut queue, now);
        }
    }
}

impl Computer {
    /// At most `threads` searches at once; new games against the computer are refused while
    /// `bound` searches wait; `human_pause` makes low levels wait a moment.
    pub fn new(threads: usize, bound: usize, human_pause: bool) -> Computer {
        let pool = Pool { queue: Mutex::new(Queue::new(threads)), bound, ticker: Once::new() };
        Computer { pool: Arc::new(pool), human_pause, tablebase: None }
    }

    /// The same computer answering from `tablebase` where it holds the position.
    pub fn with_tablebase(mut self, tablebase: Option<Arc<Tablebase>>) -> Computer {
        self.tablebase = tablebase;
        self
    }

    /// The endgame tables, if the server has them.
    pub fn tablebase(&self) -> Option<&Arc<Tablebase>> {
        self.tablebase.as_ref()
    }

    /// Searches waiting for a thread now.
    pub fn waiting(&self) -> usize {
        self.pool.lock().waiting()
    }

    /// How long until the computer could take a new game, when it is too busy to: as many
    /// searches wait as the server lets wait.
    pub fn busy(&self) -> Option<(usize, Duration)> {
        let queue = self.pool.lock();
        let waiting = queue.waiting();
        (waiting >= self.pool.bound).then(|| (waiting, queue.wait_estimate()))
    }

    /// Asks for the engine's move: the search is booked at once (running or waiting) and
    /// called off when the returned [`Search`] is dropped. The future gives the move, or `None`
    /// if the search was called off or the game is over in that position.
    pub fn think(&self, request: Request) -> (Search, impl Future<Output = Option<Move>> + Send) {
        let asked = Instant::now();
        let pause = self.pause(request.level);
        let Request { pos, history, level, client, tell } = request;
        // Only full strength plays from the tables: the lower levels' mistakes are their point.
        let tablebase = self.tablebase.clone().filter(|_| level == Level::MAX);
        let booking = Booking { purpose: Purpose::Play, client, tell };
        let admitted = self.book(
            booking,
            |_| Ok::<(), Never>(()),
            move |stop| {
                let mut searcher = searcher(stop, tablebase);
                let mut rng = Rng::new(rand::thread_rng().gen::<u64>());
                let (limits, style) = level.plan(&Limits::default(), &mut rng);
                searcher.search(&pos, &history, &limits, &style, &mut |_| {}).best
            },
        );
        let Ok((search, answer)) = admitted;
        let answer = async move {
            let best = answer.await?;
            tokio::time::sleep_until(asked + pause).await;
            Some(best)
        };
        (search, answer)
    }

    /// Asks the engine to study a position, after the searches of games in play and within a
    /// bounded budget ([`ANALYSIS_BUDGET`]); booked and called off as [`Computer::think`]. The
    /// future gives what the search found, or `None` if it was called off. Refused while as many
    /// analyses wait as the server lets wait, or when the client already has its share booked.
    #[allow(clippy::type_complexity)]
    pub fn analyse(
        &self,
        study: Study,
    ) -> Result<(Search, impl Future<Output = Option<Analysis>> + Send), AnalysisRefused> {
        let asked = Instant::now();
        let Study { pos, history, client } = study;
        let tablebase = self.tablebase.clone();
        let admit = self.admit_analysis(client);
        let booking = Booking { purpose: Purpose::Analysis, client, tell: None };
        let (search, answer) = self.book(booking, admit, move |stop| {
            let mut searcher = searcher(stop, tablebase);
            let limits = ANALYSIS_BUDGET.limits();
            let outcome = searcher.search(&pos, &history, &limits, &Style::default(), &mut |_| {});
            Some(Analysis { outcome, waited: Duration::ZERO })
        })?;
        let answer = async move {
            let mut analysis = answer.await?;
            analysis.waited = asked.elapsed().saturating_sub(analysis.outcome.time);
            Some(analysis)
        };
        Ok((search, answer))
    }

    /// Asks the engine to go through a whole game for its review: every position from the
    /// start, each within [`REVIEW_BUDGET`], in one booking as an analysis (one search table
    /// serves the whole game, and a review does not queue once per position behind others).
    /// The future gives each position with its outcome (none where the game is over), or
    /// `None` if the review was called off.
    #[allow(clippy::type_complexity)]
    pub fn review(
        &self,
        line: Line,
    ) -> Result<
        (Search, impl Future<Output = Option<Vec<(Position, Option<Outcome>)>>> + Send),
        AnalysisRefused,
    > {
        let Line { start, moves, client } = line;
        let tablebase = self.tablebase.clone();
        let booking = Booking { purpose: Purpose::Analysis, client, tell: None };
        self.book(booking, self.admit_analysis(client), move |stop| {
            let mut searcher = searcher(Arc::clone(&stop), tablebase);
            let limits = REVIEW_BUDGET.limits();
            let (mut pos, mut history) = (start, Vec::with_capacity(moves.len()));
            let mut found = Vec::with_capacity(moves.len() + 1);
            for i in 0..=moves.len() {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                let outcome = (!pos.is_over()).then(|| {
                    searcher.search(&pos, &history, &limits, &Style::default(), &mut |_| {})
                });
                found.push((pos.clone(), outcome));
                if let Some(&m) = moves.get(i) {
                    history.push(pos.hash());
                    // Every turn was checked against the rules before the review was booked.
                    pos.play_unchecked(m);
                }
            }
            Some(found)
        })
    }

    /// Lets an analysis (or a review) in unless as many wait as the server lets wait, or the
    /// client already has its share booked: looked at under the queue's lock.
    fn admit_analysis(
        &self,
        client: Option<IpAddr>,
    ) -> impl FnOnce(&Queue<Waiting>) -> Result<(), AnalysisRefused> + 'static {
        let bound = self.pool.bound;
        move |queue| {
            let waiting = queue.waiting_for(Purpose::Analysis);
            if waiting >= bound {
                let retry_after = queue.wait_estimate() + ANALYSIS_BUDGET.time * waiting as u32;
                return Err(AnalysisRefused::Busy { waiting, retry_after });
            }
            if queue.booked_by(client, Purpose::Analysis) >= ANALYSES_PER_CLIENT {
                return Err(AnalysisRefused::OneAtATime);
            }
            Ok(())
        }
    }

    /// Books `job` on the pool (running at once or waiting its turn) if `admit` lets it in,
    /// looking at the queue under the same lock, and runs it on a blocking thread when its turn
    /// comes; `job` is given the flag that calls it off.
    #[allow(clippy::type_complexity)]
    fn book<T: Send + 'static, R>(
        &self,
        booking: Booking,
        admit: impl FnOnce(&Queue<Waiting>) -> Result<(), R>,
        job: impl FnOnce(Arc<AtomicBool>) -> Option<T> + Send + 'static,
    ) -> Result<(Search, impl Future<Output = Option<T>> + Send), R> {
        self.pool.ticker.call_once(|| {
            tokio::spawn(Pool::tick(Arc::downgrade(&self.pool)));
        });
        let stop = Arc::new(AtomicBool::new(false));
        let (start, started) = oneshot::channel();
        let (id, runs) = {
            let mut queue = self.pool.lock();
            admit(&queue)?;
            let now = std::time::Instant::now();
            let Booking { purpose, client, tell } = booking;
            let (id, runs) = queue.push_for(purpose, client, Waiting { start, tell }, now);
            if !runs {
                // Tells it (and any it went ahead of) its place.
                Pool::advance(&mut queue, now);
            }
            (id, runs)
        };
        let search = Search { pool: Arc::clone(&self.pool), id, stop: Arc::clone(&stop) };
        let pool = Arc::clone(&self.pool);
        let answer = async move {
            // Booked out however this ends, even if this future is dropped midway.
            let booked = Booked { pool, id };
            if !runs {
                // The sender is dropped when the search is called off while it waits.
                started.await.ok()?;
            }
            let stopped = Arc::clone(&stop);
            let found = tokio::task::spawn_blocking(move || job(stopped)).await.ok()??;
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            booked.finished();
            Some(found)
        };
        Ok((search, answer))
    }

    /// The engine's move in `pos` at `level`, `history` being the hashes of the game's earlier
    /// positions, asked for the server itself. `None` only if the game is over there.
    pub async fn choose(&self, pos: Position, history: Vec<u64>, level: Level) -> Option<Move> {
        let request = Request { pos, history, level, client: None, tell: None };
        let (_search, answer) = self.think(request);
        answer.await
    }

    /// How long a person at this level would seem to think: beginners hesitate a little, strong
    /// levels take what their search takes.
    fn pause(&self, level: Level) -> Duration {
        if !self.human_pause {
            return Duration::ZERO;
        }
        let (low, high) = match level.get() {
            1..=3 => (700, 1600),
            4..=5 => (400, 1000),
            _ => (0, 300),
        };
        Duration::from_millis(rand::thread_rng().gen_range(low..=high))
    }
}

/// A search's place in the pool, waiting or running: booked out when dropped, or, once
/// `finished`, as one that ran to its end (so that its time teaches how long searches take).
struct Booked {
    pool: Arc<Pool>,
    id: u64,
}

impl Booked {
    fn finished(self) {
        self.pool.take_off(self.id, true);
        std::mem::forget(self);
    }
}

impl Drop for Booked {
    fn drop(&mut self) {
        self.pool.take_off(self.id, false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_computer_plays_a_legal_move() {
        let computer = Computer::new(1, 64, false);
        let pos = Position::start("arcade".parse().unwrap());
        let m = computer.choose(pos.clone(), vec![], Level::new(1).unwrap()).await.unwrap();
        assert!(pos.legal_moves().contains(&m));
    }

    #[tokio::test]
    async fn a_search_called_off_frees_its_thread_at_once() {
        let computer = Computer::new(1, 64, false);
        let pos = Position::start("arcade".parse().unwrap());
        let request = |client| Request {
            pos: pos.clone(),
            history: vec![],
            level: Level::MAX,
            client,
            tell: None,
        };
        let (first, first_answer) = computer.think(request(None));
        let (tell, mut heard) = broadcast::channel(8);
        let second = Request { tell: Some(tell), ..request(None) };
        let (second, second_answer) = computer.think(second);
        assert_eq!(second.ahead(), Some(0));
        assert_eq!(&*heard.recv().await.unwrap(), r#"{"t":"queue","d":{"ahead":0}}"#);
        // A level-8 search takes a second; calling it off starts the next one now.
        drop(first);
        assert_eq!(second.ahead(), None);
        assert_eq!(first_answer.await, None);
        assert!(pos.legal_moves().contains(&second_answer.await.unwrap()));
        // The bound: one search waiting is as many as this pool lets wait.
        let small = Computer::new(1, 1, false);
        let (_running, _) = small.think(request(None));
        assert!(small.busy().is_none());
        let (_waiting, _) = small.think(request(None));
        assert_eq!(small.busy(), Some((1, Duration::from_secs(2))));
    }
}
