//! The computer opponent: the engine's search, run off the async runtime on blocking threads,
//! never more searches at once than the server allows. The rest wait in a queue (`queue`) that
//! runs next the search of the client who used the engine least lately, and tells each waiting
//! game how many searches are ahead of it. Studies (an analysis, a review) come after the games
//! and take turns client by client (`rotation`): a review gives its thread up every few
//! positions. A search that is no longer wanted (a takeback, the game's end, its owner
//! stopping) is called off at once, waiting or running.

use std::future::Future;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Once, Weak};
use std::time::Duration;

use dara::{Move, Position};
use dara_engine::level::{Level, PLAY_HASH_MIB};
use dara_engine::rng::Rng;
use dara_engine::{Limits, Searcher};
use dara_tablebase::Tablebase;
use rand::Rng as _;
use tokio::sync::oneshot;
use tokio::time::Instant;

use super::queue::{Queue, Removed, TELL_EVERY};
use crate::protocol::{Answer, Wire, WireAnswer};

/// A search for one booking: its own table of [`PLAY_HASH_MIB`], called off by `stop`,
/// answering from `tablebase` where it has one.
pub(super) fn searcher(stop: Arc<AtomicBool>, tablebase: Option<Arc<Tablebase>>) -> Searcher {
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
    /// Searches booked since the server started (games' moves and studies' turns): what the
    /// computer costs the server, which a game played in the page does not add to.
    booked: AtomicU64,
}

/// What a waiting search needs: the signal that starts it, and its game's connections.
#[derive(Debug)]
pub(super) struct Waiting {
    start: oneshot::Sender<()>,
    tell: Option<Tell>,
}

/// How a waiting search's game hears its place in the queue: handed the `queue` message to
/// tell its connections.
pub struct Tell(pub Box<dyn Fn(Wire) + Send + Sync>);

impl std::fmt::Debug for Tell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tell")
    }
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
    pub tell: Option<Tell>,
}

/// What cannot happen.
enum Never {}

/// Who a search is for, and where its game hears its place.
pub(super) struct Booking {
    pub(super) kind: Kind,
    pub(super) client: Option<IpAddr>,
    pub(super) tell: Option<Tell>,
}

/// What a search is for, which decides when it runs.
pub(super) enum Kind {
    /// The computer's move in a game in play: one search, before any study.
    Play,
    /// A study: `turns` turns of at most `turn`, taken in turn with other clients' studies.
    Study { turns: u32, turn: Duration },
}

/// What one turn of a job came to.
pub(super) enum Turn<T> {
    /// More turns are needed.
    More,
    /// The job's answer.
    Done(T),
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

    /// Ends a turn of study `id`, which has more to do: it waits for its client's next turn,
    /// started by `start`, and whoever is next starts. If it was called off meanwhile, `start`
    /// is dropped, which the study hears.
    fn pause(&self, id: u64, start: oneshot::Sender<()>) {
        let mut queue = self.lock();
        let now = std::time::Instant::now();
        if queue.pause(id, Waiting { start, tell: None }, now) {
            Pool::advance(&mut queue, now);
        }
    }

    /// Tells the waiting games their places; a change too soon after the last one is left to
    /// the ticker.
    fn tell(queue: &mut Queue<Waiting>, now: std::time::Instant) -> bool {
        queue.tell_places(now, |waiting, ahead| {
            if let Some(tell) = &waiting.tell {
                tell.0(Answer::Queue { ahead }.wire());
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
        let pool = Pool {
            queue: Mutex::new(Queue::new(threads)),
            bound,
            ticker: Once::new(),
            booked: AtomicU64::new(0),
        };
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

    /// Most searches that may wait (games' for new games, studies' for new studies).
    pub(super) fn bound(&self) -> usize {
        self.pool.bound
    }

    /// Searches booked since the server started.
    pub fn booked(&self) -> u64 {
        self.pool.booked.load(Ordering::Relaxed)
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
        let booking = Booking { kind: Kind::Play, client, tell };
        let admitted = self.book(
            booking,
            |_| Ok::<(), Never>(()),
            move |stop| {
                let mut searcher = searcher(Arc::clone(stop), tablebase.clone());
                let mut rng = Rng::new(rand::thread_rng().gen::<u64>());
                let (limits, style) = level.plan(&Limits::default(), &mut rng);
                searcher.search(&pos, &history, &limits, &style, &mut |_| {}).best.map(Turn::Done)
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

    /// Books `job` on the pool (running at once or waiting its turn) if `admit` lets it in,
    /// looking at the queue under the same lock, and runs it on a blocking thread when its turn
    /// comes, turn after turn until it is done; `job` is given the flag that calls it off.
    #[allow(clippy::type_complexity)]
    pub(super) fn book<T: Send + 'static, R>(
        &self,
        booking: Booking,
        admit: impl FnOnce(&Queue<Waiting>) -> Result<(), R>,
        mut job: impl FnMut(&Arc<AtomicBool>) -> Option<Turn<T>> + Send + 'static,
    ) -> Result<(Search, impl Future<Output = Option<T>> + Send), R> {
        self.pool.ticker.call_once(|| {
            tokio::spawn(Pool::tick(Arc::downgrade(&self.pool)));
        });
        let stop = Arc::new(AtomicBool::new(false));
        let (start, started) = oneshot::channel();
        let (id, runs) = {
            let mut queue = self.pool.lock();
            admit(&queue)?;
            self.pool.booked.fetch_add(1, Ordering::Relaxed);
            let now = std::time::Instant::now();
            let Booking { kind, client, tell } = booking;
            let waiting = Waiting { start, tell };
            let (id, runs) = match kind {
                Kind::Play => queue.push(client, waiting, now),
                Kind::Study { turns, turn } => queue.push_study(client, turns, turn, waiting, now),
            };
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
            let (mut runs, mut started) = (runs, started);
            loop {
                if !runs {
                    // The sender is dropped when the search is called off while it waits.
                    started.await.ok()?;
                }
                let stopped = Arc::clone(&stop);
                let (back, turn) = tokio::task::spawn_blocking(move || {
                    let turn = job(&stopped);
                    (job, turn)
                })
                .await
                .ok()?;
                job = back;
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                match turn? {
                    Turn::Done(found) => {
                        booked.finished();
                        return Some(found);
                    }
                    Turn::More => {
                        let (start, next) = oneshot::channel();
                        booked.pool.pause(id, start);
                        (runs, started) = (false, next);
                    }
                }
            }
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
        let (tell, mut heard) = tokio::sync::mpsc::unbounded_channel();
        let tell = Tell(Box::new(move |wire| {
            let _ = tell.send(wire);
        }));
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
