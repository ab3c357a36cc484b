//! Who the computer thinks for next: the searches running and waiting, and the engine time each
//! client address has used lately. When more searches wait than threads are free, the next to
//! run is the one whose address has used the least engine time recently, so that one client
//! (say, one looping move and takeback, or opening many games) cannot take more than its share.
//! Searches for games in play go before studies (a position someone studies can wait a moment
//! where a game's clock cannot), and studies never take more than half the threads; among
//! studies, the clients take turns (`rotation`).
//! Plain bookkeeping, with the time passed in: `computer` runs the searches.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

use super::rotation::Rotation;

/// Engine time used counts half as much after this long: "recently" is the last minute or two.
const HALF_LIFE: Duration = Duration::from_secs(30);

/// What a search is expected to take before any has finished: level 8's second.
const FIRST_GUESS: Duration = Duration::from_secs(1);

/// A game hears its place at most this often: one client looping move and takeback moves
/// everyone behind it back and forth, and should not make every waiting game's connections
/// carry ten messages a second for it. A change within this time is told when it has passed.
pub(super) const TELL_EVERY: Duration = Duration::from_millis(250);

/// Who a search counts against: the client address its game counts against, or the server.
pub(super) type Client = Option<IpAddr>;

/// What a search is for, which decides who goes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Purpose {
    /// The computer's move in a game being played.
    Play,
    /// A position someone studies (the analysis board, a game's review).
    Analysis,
}

/// The searches running and waiting; `W` is what a waiting search needs to be started and told
/// its place.
#[derive(Debug)]
pub(super) struct Queue<W> {
    threads: usize,
    running: Vec<Running>,
    /// Searches for games in play, in the order they will run once `order` has sorted them.
    waiting: Vec<Waiting<W>>,
    /// Studies, running or waiting, client by client.
    studies: Rotation<W>,
    spent: HashMap<Client, Spent>,
    next_id: u64,
    /// How long a search that ran to its end took, on average lately.
    typical: Duration,
}

#[derive(Debug)]
struct Running {
    id: u64,
    client: Client,
    purpose: Purpose,
    since: Instant,
}

#[derive(Debug)]
struct Waiting<W> {
    id: u64,
    client: Client,
    payload: W,
    /// The place it was last told (searches ahead of it), and when, if ever.
    told: Option<(u32, Instant)>,
}

/// Engine time used by one client, fading by half every `HALF_LIFE`.
#[derive(Debug, Clone, Copy)]
struct Spent {
    seconds: f64,
    at: Instant,
}

impl Spent {
    fn at(self, now: Instant) -> f64 {
        let age = now.saturating_duration_since(self.at).as_secs_f64();
        self.seconds * (-age / HALF_LIFE.as_secs_f64()).exp2()
    }
}

/// What became of a search taken off the queue.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Removed {
    /// It was running: its thread is free.
    Running,
    /// It was still waiting.
    Waiting,
    /// It was not there (already finished or called off).
    Gone,
}

impl<W> Queue<W> {
    /// An empty queue for `threads` searches at once.
    pub(super) fn new(threads: usize) -> Queue<W> {
        Queue {
            threads: threads.max(1),
            running: Vec::new(),
            waiting: Vec::new(),
            studies: Rotation::default(),
            spent: HashMap::new(),
            next_id: 0,
            typical: FIRST_GUESS,
        }
    }

    /// Adds a search for a game in play, for `client`: its id, and whether it runs at once (a
    /// thread is free and no such search waits) rather than waiting with `payload`.
    pub(super) fn push(&mut self, client: Client, payload: W, now: Instant) -> (u64, bool) {
        self.next_id += 1;
        let id = self.next_id;
        if self.waiting.is_empty() && self.may_start(Purpose::Play) {
            self.running.push(Running { id, client, purpose: Purpose::Play, since: now });
            (id, true)
        } else {
            self.waiting.push(Waiting { id, client, payload, told: None });
            (id, false)
        }
    }

    /// Adds a study for `client` of `turns` turns of at most `turn` each: its id, and whether
    /// its first turn begins at once (a thread is free and nothing waits) rather than waiting
    /// with `payload` for the client's turn.
    pub(super) fn push_study(
        &mut self,
        client: Client,
        turns: u32,
        turn: Duration,
        payload: W,
        now: Instant,
    ) -> (u64, bool) {
        self.next_id += 1;
        let id = self.next_id;
        let nobody_before = self.waiting.is_empty() && self.studies.waiting() == 0;
        if nobody_before && self.may_start(Purpose::Analysis) {
            self.running.push(Running { id, client, purpose: Purpose::Analysis, since: now });
            self.studies.push_running(id, client, turns, turn, now);
            (id, true)
        } else {
            self.studies.push(id, client, turns, turn, payload);
            (id, false)
        }
    }

    /// Ends the turn of study `id`, which has more to do: its thread is free, its client is
    /// charged the time, and it waits with `payload` for the client's next turn. False if it
    /// was not running (it was called off).
    pub(super) fn pause(&mut self, id: u64, payload: W, now: Instant) -> bool {
        let Some(i) = self.running.iter().position(|r| r.id == id) else { return false };
        let run = self.running.swap_remove(i);
        self.charge(run.client, now.saturating_duration_since(run.since), now);
        self.studies.pause(id, payload, now)
    }

    /// Whether a search for `purpose` may start now: a thread is free, and analysis keeps to
    /// half of them (at least one), so that a game in play always finds one soon.
    fn may_start(&self, purpose: Purpose) -> bool {
        let free = self.running.len() < self.threads;
        match purpose {
            Purpose::Play => free,
            Purpose::Analysis => {
                let analysing = self.running.iter().filter(|r| r.purpose == purpose).count();
                free && analysing < (self.threads / 2).max(1)
            }
        }
    }

    /// Takes search `id` off the queue (it finished, or was called off), charging its client
    /// the time it ran; `finished` says it ran to its end, which teaches how long searches take.
    pub(super) fn remove(&mut self, id: u64, finished: bool, now: Instant) -> Removed {
        if let Some(i) = self.running.iter().position(|r| r.id == id) {
            let run = self.running.swap_remove(i);
            let ran = now.saturating_duration_since(run.since);
            self.charge(run.client, ran, now);
            match run.purpose {
                // Studies run on budgets of their own: only games' searches teach the typical
                // time.
                Purpose::Play if finished => self.typical = (self.typical * 7 + ran) / 8,
                Purpose::Play => {}
                Purpose::Analysis => {
                    self.studies.remove(id, finished, now);
                }
            }
            Removed::Running
        } else if let Some(i) = self.waiting.iter().position(|w| w.id == id) {
            self.waiting.remove(i);
            Removed::Waiting
        } else if self.studies.remove(id, false, now) {
            Removed::Waiting
        } else {
            Removed::Gone
        }
    }

    /// Charges `client` the engine time `ran`.
    fn charge(&mut self, client: Client, ran: Duration, now: Instant) {
        let spent = self.spent.entry(client).or_insert(Spent { seconds: 0.0, at: now });
        *spent = Spent { seconds: spent.at(now) + ran.as_secs_f64(), at: now };
        // Forget clients whose use has faded to nothing, so the table stays small.
        if self.spent.len() > 1024 {
            self.spent.retain(|_, s| s.at(now) > 0.001);
        }
    }

    /// Sorts the waiting searches for games in play into the order they will run: least engine
    /// time used lately by their client first (a running search counts for the time it has run
    /// so far), and among equals, first come first served.
    pub(super) fn order(&mut self, now: Instant) {
        if self.waiting.len() < 2 {
            return;
        }
        let mut used: HashMap<Client, f64> = HashMap::new();
        for w in &self.waiting {
            used.entry(w.client)
                .or_insert_with(|| self.spent.get(&w.client).map_or(0.0, |s| s.at(now)));
        }
        for r in &self.running {
            if let Some(u) = used.get_mut(&r.client) {
                *u += now.saturating_duration_since(r.since).as_secs_f64();
            }
        }
        self.waiting
            .sort_by(|a, b| used[&a.client].total_cmp(&used[&b.client]).then(a.id.cmp(&b.id)));
    }

    /// The next search to start, if a thread is free and one waits (a game's first, then the
    /// next study's turn): it counts as running from now. Call `order` first.
    pub(super) fn start_next(&mut self, now: Instant) -> Option<(u64, W)> {
        if !self.waiting.is_empty() {
            if !self.may_start(Purpose::Play) {
                return None;
            }
            let next = self.waiting.remove(0);
            let (id, client, purpose) = (next.id, next.client, Purpose::Play);
            self.running.push(Running { id, client, purpose, since: now });
            return Some((id, next.payload));
        }
        if !self.may_start(Purpose::Analysis) {
            return None;
        }
        let (id, client, payload) = self.studies.next(now)?;
        self.running.push(Running { id, client, purpose: Purpose::Analysis, since: now });
        Some((id, payload))
    }

    /// Tells every waiting search whose place changed since it was last told (call `order`
    /// first), `tell(payload, searches ahead of it)`: a new one at once, the others no more
    /// often than `TELL_EVERY`. True when a change is left to tell later.
    pub(super) fn tell_places(&mut self, now: Instant, mut tell: impl FnMut(&W, u32)) -> bool {
        let mut later = false;
        for (ahead, w) in (0u32..).zip(&mut self.waiting) {
            match w.told {
                Some((told, _)) if told == ahead => {}
                Some((_, at)) if now.saturating_duration_since(at) < TELL_EVERY => later = true,
                _ => {
                    w.told = Some((ahead, now));
                    tell(&w.payload, ahead);
                }
            }
        }
        later
    }

    /// How many searches wait ahead of search `id` as it was last told, if it waits.
    pub(super) fn ahead(&self, id: u64) -> Option<u32> {
        self.waiting.iter().find(|w| w.id == id).and_then(|w| w.told).map(|(ahead, _)| ahead)
    }

    /// How many studies wait for a turn.
    pub(super) fn studies_waiting(&self) -> usize {
        self.studies.waiting()
    }

    /// How many studies `client` has booked, running or waiting.
    pub(super) fn studies_of(&self, client: Client) -> usize {
        self.studies.booked_by(client)
    }

    /// How many searches for games in play wait (studies wait behind them).
    pub(super) fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// The threads studies may have: half of them, at least one.
    fn study_threads(&self) -> usize {
        (self.threads / 2).max(1)
    }

    /// The delay the games waiting now put before any study's turn.
    fn games_first(&self) -> Duration {
        self.typical * self.waiting() as u32 / self.threads as u32
    }

    /// About how long until one study of those booked has ended (a place in the queue frees),
    /// were nothing more asked: what a refused study is told to wait.
    pub(super) fn until_a_study_ends(&self, now: Instant) -> Duration {
        self.games_first() + self.studies.until_one_ends(now, self.study_threads())
    }

    /// About how long until one of `client`'s studies has ended (it may ask for another), were
    /// nothing more asked.
    pub(super) fn until_a_study_of_ends(&self, client: Client, now: Instant) -> Duration {
        self.games_first() + self.studies.until_one_of_ends(client, now, self.study_threads())
    }

    /// About when a search for a game asked for now would be done: every such search waiting,
    /// and it, at the typical time each, shared among the threads.
    pub(super) fn wait_estimate(&self) -> Duration {
        let searches = self.waiting() as u32 + 1;
        self.typical * searches / self.threads as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u8) -> Client {
        Some(IpAddr::from([127, 0, 0, n]))
    }

    #[test]
    fn searches_run_at_once_while_threads_are_free() {
        let now = Instant::now();
        let mut q = Queue::new(2);
        assert!(q.push(ip(1), (), now).1);
        assert!(q.push(ip(1), (), now).1);
        let (third, runs) = q.push(ip(1), (), now);
        assert!(!runs);
        assert_eq!(q.waiting(), 1);
        q.order(now);
        assert_eq!(q.start_next(now).map(|s| s.0), None, "both threads are busy");
        assert_eq!(q.remove(1, true, now + Duration::from_secs(1)), Removed::Running);
        q.order(now);
        assert_eq!(q.start_next(now).map(|s| s.0), Some(third));
        assert_eq!(q.remove(third, false, now), Removed::Running);
        assert_eq!(q.remove(third, false, now), Removed::Gone);
    }

    #[test]
    fn the_client_that_used_least_goes_first() {
        let t0 = Instant::now();
        let mut q = Queue::new(1);
        let (a1, _) = q.push(ip(1), "a1", t0);
        let (_, _) = q.push(ip(1), "a2", t0);
        let (_, _) = q.push(ip(1), "a3", t0);
        // The flood's first search has run a while when another client asks.
        let t1 = t0 + Duration::from_millis(500);
        let (b, _) = q.push(ip(2), "b", t1);
        q.order(t1);
        let mut places = Vec::new();
        q.tell_places(t1, |w, ahead| places.push((*w, ahead)));
        assert_eq!(places, [("b", 0), ("a2", 1), ("a3", 2)]);
        assert_eq!(q.ahead(b), Some(0));
        // The running search ends: the other client's runs next, then the flood's, in order.
        let t2 = t0 + Duration::from_secs(1);
        q.remove(a1, true, t2);
        q.order(t2);
        assert_eq!(q.start_next(t2).map(|s| s.1), Some("b"));
        places.clear();
        q.tell_places(t2, |w, ahead| places.push((*w, ahead)));
        assert_eq!(places, [("a2", 0), ("a3", 1)]);
    }

    #[test]
    fn a_place_changing_fast_is_told_no_more_often_than_it_may() {
        let t0 = Instant::now();
        let mut q = Queue::new(1);
        q.push(ip(1), "running", t0);
        q.push(ip(1), "waiting", t0);
        let mut told = Vec::new();
        assert!(!q.tell_places(t0, |w, ahead| told.push((*w, ahead))));
        // Another client comes and goes, and comes again, within the interval: nothing is told
        // until it has passed, then the latest place only.
        let t1 = t0 + TELL_EVERY / 4;
        let (loop1, _) = q.push(ip(2), "loop", t1);
        q.order(t1);
        assert!(q.tell_places(t1, |w, ahead| told.push((*w, ahead))));
        q.remove(loop1, false, t1);
        q.push(ip(2), "loop", t1);
        q.order(t1);
        assert!(q.tell_places(t1, |w, ahead| told.push((*w, ahead))));
        assert_eq!(q.ahead(2), Some(0), "the place last told");
        assert!(!q.tell_places(t0 + TELL_EVERY, |w, ahead| told.push((*w, ahead))));
        assert_eq!(told, [("waiting", 0), ("loop", 0), ("loop", 0), ("waiting", 1)]);
    }

    #[test]
    fn used_time_fades() {
        let t0 = Instant::now();
        let mut q = Queue::new(1);
        let (a, _) = q.push(ip(1), "", t0);
        q.remove(a, true, t0 + Duration::from_secs(2));
        // Two seconds used two half-lives ago weigh half a second now, less than another
        // client's one second just used: the first client goes first.
        let later = t0 + Duration::from_secs(2) + HALF_LIFE * 2;
        let (b, _) = q.push(ip(2), "", later - Duration::from_secs(1));
        q.remove(b, true, later);
        let (c, _) = q.push(ip(3), "busy", later);
        q.push(ip(2), "two", later);
        q.push(ip(1), "one", later);
        q.order(later);
        let mut order = Vec::new();
        q.tell_places(later, |w, _| order.push(*w));
        assert_eq!(order, ["one", "two"]);
        assert_eq!(q.remove(c, false, later), Removed::Running);
    }

    const TURN: Duration = Duration::from_millis(700);

    #[test]
    fn games_in_play_go_before_studies_which_keep_to_half_the_threads() {
        let t0 = Instant::now();
        let mut q = Queue::new(2);
        // A study takes one thread of two, not both.
        let (a1, runs) = q.push_study(ip(1), 1, TURN, "a1", t0);
        assert!(runs);
        assert!(!q.push_study(ip(2), 1, TURN, "a2", t0).1, "the other thread is kept");
        // A game's search takes the free thread at once, though a study waits.
        assert!(q.push(ip(3), "g1", t0).1);
        // With both threads busy, a later game's search still goes before the waiting study,
        // even for a client that has used more engine time.
        let (_, runs) = q.push(ip(1), "g2", t0);
        assert!(!runs);
        q.order(t0);
        let mut order = Vec::new();
        q.tell_places(t0, |w, ahead| order.push((*w, ahead)));
        assert_eq!(order, [("g2", 0)], "only games are told their place");
        assert_eq!(q.waiting(), 1, "studies do not count against new games");
        assert_eq!(q.studies_waiting(), 1);
        assert_eq!((q.studies_of(ip(1)), q.studies_of(ip(2))), (1, 1));
        // The study ends: its thread goes to the game, not to the other study.
        q.remove(a1, true, t0 + Duration::from_secs(1));
        q.order(t0);
        assert_eq!(q.start_next(t0).map(|s| s.1), Some("g2"));
        assert_eq!(q.start_next(t0), None);
        assert_eq!(q.studies_of(ip(1)), 0);
    }

    #[test]
    fn a_long_study_gives_its_thread_up_between_turns() {
        let t0 = Instant::now();
        let mut q = Queue::new(1);
        // One client's review of forty turns runs; its second waits; another client asks.
        let (review, runs) = q.push_study(ip(1), 40, TURN, "review", t0);
        assert!(runs);
        let (_, runs) = q.push_study(ip(1), 40, TURN, "second", t0);
        assert!(!runs);
        let (analysis, _) = q.push_study(ip(2), 1, TURN, "analysis", t0);
        // The review's first turn ends: the other client's analysis has the thread next.
        let t1 = t0 + TURN;
        assert!(q.pause(review, "review", t1));
        assert_eq!(q.start_next(t1), Some((analysis, "analysis")));
        assert_eq!(q.start_next(t1), None, "one thread");
        assert_eq!(q.remove(analysis, true, t1), Removed::Running);
        assert_eq!(q.start_next(t1).map(|s| s.1), Some("second"));
        // A study called off while it waits between turns is gone.
        assert_eq!(q.remove(review, false, t1), Removed::Waiting);
        assert_eq!(q.remove(review, false, t1), Removed::Gone);
        assert!(!q.pause(review, "review", t1));
    }

    #[test]
    fn a_study_is_told_to_wait_for_the_turns_ahead() {
        let t0 = Instant::now();
        let mut q = Queue::<()>::new(2);
        q.push_study(ip(1), 10, TURN, (), t0);
        q.push_study(ip(1), 10, TURN, (), t0);
        let alone = q.until_a_study_of_ends(ip(1), t0);
        assert_eq!(alone, TURN * 19);
        for n in 2..=6 {
            q.push_study(ip(n), 10, TURN, (), t0);
        }
        // Five more clients, a review of ten turns each: each of client 1's turns comes after
        // one of each of theirs while they last (10 rounds of six turns, then its last eight).
        let crowded = q.until_a_study_of_ends(ip(1), t0);
        assert_eq!(crowded, TURN * 69);
        // The first study to end is theirs: in the tenth round.
        assert_eq!(q.until_a_study_ends(t0), TURN * 56);
        // Games waiting for the computer come first: two waiting, at a second each, on two
        // threads.
        for _ in 0..3 {
            q.push(ip(9), (), t0);
        }
        assert_eq!(q.until_a_study_ends(t0), TURN * 56 + FIRST_GUESS);
    }

    #[test]
    fn the_wait_is_estimated_from_searches_that_finished() {
        let t0 = Instant::now();
        let mut q = Queue::<()>::new(2);
        assert_eq!(q.wait_estimate(), FIRST_GUESS / 2);
        for _ in 0..5 {
            q.push(None, (), t0);
        }
        // Three wait; a called-off search teaches nothing about how long searches take.
        q.remove(1, false, t0 + Duration::from_millis(10));
        assert_eq!(q.wait_estimate(), FIRST_GUESS * 2);
    }
}
