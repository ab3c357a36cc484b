//! Whose study the engine takes up next (an analysis, or the review of a whole game): every
//! client address has a queue of its own, and the clients take turns, the one whose last turn
//! is longest ago first. A turn is one analysis or a few positions of a review, about the same
//! time of a thread either way, so that one client's many or long studies wait behind each
//! other and never ahead of another client's single one. How long a refused request would have
//! to wait is read from the same queues.
//! Plain bookkeeping, with the time passed in: `queue` hands out the threads, `computer` runs
//! the searches.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use super::queue::Client;

/// How many turns a client's last turn is remembered for once it has nothing booked: a client
/// asking again at once goes behind those that waited, not to the front as a newcomer would.
const REMEMBERED: u64 = 1024;

/// The studies booked, client by client.
#[derive(Debug)]
pub(super) struct Rotation<W> {
    /// Each client's booked studies, running or waiting, the next to take a turn first.
    queues: HashMap<Client, VecDeque<Study<W>>>,
    /// The turn each client last took (a count of turns; none yet: 0).
    last_turn: HashMap<Client, u64>,
    /// Turns taken so far.
    turns: u64,
    /// How long turns take against their budget, on average lately (1: all of it). Searches
    /// often stop at their node limit first, so the budget alone would overstate every wait.
    pace: f64,
}

#[derive(Debug)]
struct Study<W> {
    id: u64,
    /// Turns still to begin (a study that asks for more than it said gets them).
    turns_left: u32,
    /// The most one turn takes: its budget.
    turn: Duration,
    state: State<W>,
}

#[derive(Debug)]
enum State<W> {
    /// Waiting for its next turn, with what starts it.
    Waiting(W),
    /// In a turn, begun then.
    Running(Instant),
}

impl<W> Default for Rotation<W> {
    fn default() -> Rotation<W> {
        Rotation { queues: HashMap::new(), last_turn: HashMap::new(), turns: 0, pace: 1.0 }
    }
}

impl<W> Rotation<W> {
    /// Books study `id` for `client`: `turns` turns of at most `turn` each, waiting with
    /// `payload` behind the client's other studies.
    pub(super) fn push(&mut self, id: u64, client: Client, turns: u32, turn: Duration, payload: W) {
        let study = Study { id, turns_left: turns.max(1), turn, state: State::Waiting(payload) };
        self.queues.entry(client).or_default().push_back(study);
    }

    /// Books study `id` as [`Rotation::push`] does and begins its first turn now (a thread was
    /// free and nothing waited).
    pub(super) fn push_running(
        &mut self,
        id: u64,
        client: Client,
        turns: u32,
        turn: Duration,
        now: Instant,
    ) {
        let study = Study { id, turns_left: turns.max(1) - 1, turn, state: State::Running(now) };
        self.queues.entry(client).or_default().push_back(study);
        self.took_turn(client);
    }

    /// Studies waiting for a turn.
    pub(super) fn waiting(&self) -> usize {
        let waits = |s: &&Study<W>| matches!(s.state, State::Waiting(_));
        self.queues.values().map(|q| q.iter().filter(waits).count()).sum()
    }

    /// Studies `client` has booked, running or waiting.
    pub(super) fn booked_by(&self, client: Client) -> usize {
        self.queues.get(&client).map_or(0, VecDeque::len)
    }

    /// Begins the next turn: the first waiting study of the client whose last turn is longest
    /// ago (one that never had a turn first; between equals, the study booked first). Its id,
    /// client and what starts it.
    pub(super) fn next(&mut self, now: Instant) -> Option<(u64, Client, W)> {
        let (client, _) = self
            .queues
            .iter()
            .filter_map(|(client, queue)| {
                let first = queue.iter().find(|s| matches!(s.state, State::Waiting(_)))?;
                Some((*client, (self.last_turn.get(client).copied().unwrap_or(0), first.id)))
            })
            .min_by_key(|(_, key)| *key)?;
        let queue = self.queues.get_mut(&client)?;
        let study = queue.iter_mut().find(|s| matches!(s.state, State::Waiting(_)))?;
        let State::Waiting(payload) = std::mem::replace(&mut study.state, State::Running(now))
        else {
            unreachable!("found waiting just above")
        };
        study.turns_left = study.turns_left.saturating_sub(1);
        let id = study.id;
        self.took_turn(client);
        Some((id, client, payload))
    }

    fn took_turn(&mut self, client: Client) {
        self.turns += 1;
        self.last_turn.insert(client, self.turns);
        if self.last_turn.len() as u64 > REMEMBERED {
            let (turns, queues) = (self.turns, &self.queues);
            self.last_turn.retain(|c, at| turns - *at < REMEMBERED || queues.contains_key(c));
        }
    }

    /// Ends the turn of study `id`, which has more to do: it waits again with `payload`, behind
    /// its client's other studies. False if it was not in a turn (it was called off).
    pub(super) fn pause(&mut self, id: u64, payload: W, now: Instant) -> bool {
        let Some((client, i)) = self.find(id) else { return false };
        let queue = self.queues.get_mut(&client).expect("found just above");
        let State::Running(since) = queue[i].state else { return false };
        let mut study = queue.remove(i).expect("found just above");
        let turn = study.turn;
        study.state = State::Waiting(payload);
        study.turns_left = study.turns_left.max(1);
        queue.push_back(study);
        self.learn(now.saturating_duration_since(since), turn);
        true
    }

    /// Takes study `id` off (it ended, or was called off); the last turn of one that ran to its
    /// end teaches how long turns take. False if it was not booked.
    pub(super) fn remove(&mut self, id: u64, finished: bool, now: Instant) -> bool {
        let Some((client, i)) = self.find(id) else { return false };
        let queue = self.queues.get_mut(&client).expect("found just above");
        let study = queue.remove(i).expect("found just above");
        if queue.is_empty() {
            self.queues.remove(&client);
        }
        if let (State::Running(since), true) = (study.state, finished) {
            self.learn(now.saturating_duration_since(since), study.turn);
        }
        true
    }

    fn find(&self, id: u64) -> Option<(Client, usize)> {
        self.queues
            .iter()
            .find_map(|(client, queue)| queue.iter().position(|s| s.id == id).map(|i| (*client, i)))
    }

    fn learn(&mut self, ran: Duration, turn: Duration) {
        let share = (ran.as_secs_f64() / turn.as_secs_f64().max(1e-3)).clamp(0.05, 2.0);
        self.pace = (self.pace * 7.0 + share) / 8.0;
    }

    /// About how long until one of the studies booked has ended (a place in the queue is
    /// free), were nothing more booked, on `threads` threads.
    pub(super) fn until_one_ends(&self, now: Instant, threads: usize) -> Duration {
        self.until(now, threads, |_| true)
    }

    /// About how long until one of `client`'s studies has ended (it may book another), were
    /// nothing more booked, on `threads` threads.
    pub(super) fn until_one_of_ends(
        &self,
        client: Client,
        now: Instant,
        threads: usize,
    ) -> Duration {
        self.until(now, threads, |c| c == client)
    }

    /// Plays the turns forward as [`Rotation::next`] would give them, each taking its budget
    /// at the pace turns have taken lately: the turns in progress first, then the clients in
    /// turn, until a study of a client that `mine` picks takes its last turn. The work that
    /// comes before, shared among `threads` (zero when no such study is booked).
    fn until(&self, now: Instant, threads: usize, mine: impl Fn(Client) -> bool) -> Duration {
        let threads = threads.max(1) as f64;
        let cost = |s: &Study<W>| s.turn.as_secs_f64() * self.pace;
        let mut work = 0.0;
        let mut soonest: Option<f64> = None;
        for (client, queue) in &self.queues {
            for study in queue {
                if let State::Running(since) = study.state {
                    let ran = now.saturating_duration_since(since).as_secs_f64();
                    let rest = (cost(study) - ran).max(0.0);
                    work += rest;
                    if study.turns_left == 0 && mine(*client) {
                        soonest = Some(soonest.map_or(rest, |s: f64| s.min(rest)));
                    }
                }
            }
        }
        if let Some(rest) = soonest {
            // It ends with the turn it is in, on a thread of its own.
            return Duration::from_secs_f64(rest);
        }
        // Each client's turns to come: the waiting studies in order, then the rest of those in
        // a turn now (they go back behind the others when it ends).
        let mut ahead: Vec<Ahead> = self
            .queues
            .iter()
            .filter_map(|(client, queue)| {
                let waiting = queue.iter().filter(|s| matches!(s.state, State::Waiting(_)));
                let running = queue.iter().filter(|s| matches!(s.state, State::Running(_)));
                let turns: VecDeque<(u32, f64)> = waiting
                    .map(|s| (s.turns_left.max(1), cost(s)))
                    .chain(running.filter(|s| s.turns_left > 0).map(|s| (s.turns_left, cost(s))))
                    .collect();
                let first = queue.front()?.id;
                let last = self.last_turn.get(client).copied().unwrap_or(0);
                (!turns.is_empty()).then_some(Ahead { last, first, client: *client, turns })
            })
            .collect();
        let mut clock = self.turns;
        loop {
            let Some(i) = (0..ahead.len()).min_by_key(|&i| (ahead[i].last, ahead[i].first)) else {
                return Duration::ZERO;
            };
            let next = &mut ahead[i];
            let (left, turn) = next.turns.pop_front().expect("no client without turns is kept");
            work += turn;
            if left == 1 {
                if mine(next.client) {
                    return Duration::from_secs_f64(work / threads);
                }
            } else {
                next.turns.push_back((left - 1, turn));
            }
            clock += 1;
            next.last = clock;
            if next.turns.is_empty() {
                ahead.swap_remove(i);
            }
        }
    }
}

/// A client's turns to come, as [`Rotation::until`] plays them forward.
struct Ahead {
    /// The turn it last took.
    last: u64,
    /// Its first study's id, which settles a tie.
    first: u64,
    client: Client,
    /// Its studies' turns left and the time each takes, the next first.
    turns: VecDeque<(u32, f64)>,
}

#[cfg(test)]
mod tests {
    use std::net::IpAddr;

    use super::*;

    fn ip(n: u8) -> Client {
        Some(IpAddr::from([127, 0, 0, n]))
    }

    const TURN: Duration = Duration::from_millis(500);

    /// The payloads in the order their turns begin, each study ending with its turn.
    fn served(rotation: &mut Rotation<&'static str>, now: Instant) -> Vec<&'static str> {
        let mut order = Vec::new();
        while let Some((id, _, payload)) = rotation.next(now) {
            order.push(payload);
            rotation.remove(id, true, now);
        }
        order
    }

    #[test]
    fn the_clients_take_turns() {
        let now = Instant::now();
        let mut r = Rotation::default();
        // One client books three, then two others one each: they go between its studies.
        r.push(1, ip(1), 1, TURN, "a1");
        r.push(2, ip(1), 1, TURN, "a2");
        r.push(3, ip(1), 1, TURN, "a3");
        r.push(4, ip(2), 1, TURN, "b1");
        r.push(5, ip(3), 1, TURN, "c1");
        r.push(6, ip(3), 1, TURN, "c2");
        assert_eq!(r.waiting(), 6);
        assert_eq!(r.booked_by(ip(1)), 3);
        assert_eq!(served(&mut r, now), ["a1", "b1", "c1", "a2", "c2", "a3"]);
        assert_eq!(r.waiting(), 0);
        assert_eq!(r.booked_by(ip(1)), 0);
    }

    #[test]
    fn a_long_study_takes_its_turns_between_the_others() {
        let t0 = Instant::now();
        let mut r = Rotation::default();
        // A review of three turns, running when another client asks for an analysis.
        r.push_running(1, ip(1), 3, TURN, t0);
        r.push(2, ip(2), 1, TURN, "analysis");
        let t1 = t0 + TURN;
        assert!(r.pause(1, "review", t1));
        // The analysis goes first: the review had the last turn.
        assert_eq!(r.next(t1).map(|n| n.2), Some("analysis"));
        assert_eq!(r.next(t1).map(|n| n.2), Some("review"), "threads permitting");
        assert!(r.remove(2, true, t1));
        assert!(r.pause(1, "review", t1));
        assert_eq!(r.next(t1).map(|n| (n.0, n.2)), Some((1, "review")));
        // The review asks for more turns than it said it would need: it gets them.
        assert!(r.pause(1, "review", t1));
        assert_eq!(r.next(t1).map(|n| n.0), Some(1));
        assert!(r.remove(1, true, t1));
        assert!(!r.remove(1, true, t1));
        assert!(!r.pause(1, "review", t1), "called off: nothing to pause");
    }

    #[test]
    fn a_client_that_just_had_a_turn_goes_behind_those_that_waited() {
        let now = Instant::now();
        let mut r = Rotation::default();
        r.push(1, ip(1), 1, TURN, "a1");
        assert_eq!(served(&mut r, now), ["a1"]);
        // Its queue is empty now; asking again, it still goes behind a client that waited.
        r.push(2, ip(2), 1, TURN, "b1");
        r.push(3, ip(1), 1, TURN, "a2");
        r.push(4, ip(3), 1, TURN, "c1");
        assert_eq!(served(&mut r, now), ["b1", "c1", "a2"]);
    }

    #[test]
    fn the_wait_is_read_from_the_turns_ahead() {
        let t0 = Instant::now();
        let mut r = Rotation::default();
        // Client 1 has two reviews of ten turns booked, one in a turn begun now.
        r.push_running(1, ip(1), 10, TURN, t0);
        r.push(2, ip(1), 10, TURN, "second");
        // Alone, its first review ends after its 19 turns to come (both reviews alternate)
        // plus the one in progress: 10 s on one thread, 5 s on two.
        assert_eq!(r.until_one_of_ends(ip(1), t0, 1), TURN * 20 - TURN);
        assert_eq!(r.until_one_of_ends(ip(1), t0, 2), (TURN * 20 - TURN) / 2);
        // Half a turn later, half a turn less.
        let t1 = t0 + TURN / 2;
        assert_eq!(r.until_one_of_ends(ip(1), t1, 1), TURN * 20 - TURN - TURN / 2);
        // Two more clients with a long review each: every turn of client 1 now comes after one
        // of each (they have not had one yet, so they go first), and the wait nearly triples.
        r.push(3, ip(2), 30, TURN, "b");
        r.push(4, ip(3), 30, TURN, "c");
        let crowded = r.until_one_of_ends(ip(1), t1, 1);
        assert_eq!(crowded, TURN * 18 * 3 + TURN / 2);
        // The first study of anyone to end is still client 1's.
        assert_eq!(r.until_one_ends(t1, 1), crowded);
        // A client with nothing booked waits for nothing; one whose analysis is in its turn
        // waits for that turn only.
        assert_eq!(r.until_one_of_ends(ip(9), t1, 1), Duration::ZERO);
        r.push_running(5, ip(4), 1, TURN, t1);
        assert_eq!(r.until_one_of_ends(ip(4), t1, 1), TURN);
        assert_eq!(r.until_one_ends(t1, 1), TURN);
    }

    #[test]
    fn the_wait_follows_how_long_turns_really_take() {
        let t0 = Instant::now();
        let mut r = Rotation::default();
        // Turns that stop at a quarter of their budget (the node limit comes first).
        for id in 1..=40 {
            r.push(id, ip(1), 1, TURN, "");
            let (id, _, _) = r.next(t0).unwrap();
            r.remove(id, true, t0 + TURN / 4);
        }
        r.push(50, ip(1), 4, TURN, "");
        let wait = r.until_one_of_ends(ip(1), t0, 1);
        assert!(wait < TURN * 2, "{wait:?} for four turns of a quarter budget");
        assert!(wait > TURN * 4 / 5, "{wait:?}");
    }
}
