//! What the players tell the driver: counters every player adds to, the delays from a game's
//! end to the next pairing (HDR histograms of milliseconds), and what each arena socket was
//! sent. Pairings, turns and messages count only inside the measured window; faults count from
//! the start, as a fault during the ramp is still a fault.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Duration;

use hdrhistogram::Histogram;

use super::waiting_room::Waited;
use crate::loadtest::stats::{histogram, Percentiles};

/// Shared by every player task.
#[derive(Debug)]
pub struct Tally {
    /// Whether the measured window is open.
    pub measuring: AtomicBool,
    /// Players who tried to join (the ramp is over when all have).
    pub attempted: AtomicU64,
    /// Players who joined and whose arena socket is open.
    pub joined: AtomicU64,
    /// Joins the server refused, or whose request failed.
    pub join_failed: AtomicU64,
    /// Arena sockets that could not be opened.
    pub socket_failed: AtomicU64,
    /// Arena or game sockets the server closed or dropped.
    pub dropped: AtomicU64,
    /// Game sockets that could not be opened.
    pub game_socket_failed: AtomicU64,
    /// Pause and resume requests refused or failed.
    pub request_failed: AtomicU64,
    /// Messages that make no sense, or `rejected` / `error` answers (every turn sent is legal).
    pub confused: AtomicU64,
    /// New pairings seen on the arena sockets, in the window.
    pub pairings: AtomicU64,
    /// Of those, seen before the end of the player's previous game on its game socket (the
    /// arena socket was quicker): counted as a delay of zero.
    pub paired_before_end_seen: AtomicU64,
    /// Games that ended (seen on a game socket), in the window.
    pub games_ended: AtomicU64,
    /// Turns answered `accepted`, in the window.
    pub turns: AtomicU64,
    /// Turns answered `accepted` since the start (for progress lines).
    pub turns_ever: AtomicU64,
    /// Pauses asked for, and resumes, in the window.
    pub pauses: AtomicU64,
    pub resumes: AtomicU64,
    /// Standings messages on the arena sockets, in the window.
    pub messages: AtomicU64,
    /// Their bytes.
    pub message_bytes: AtomicU64,
    /// The shortest time between two standings on one socket, in µs (`u64::MAX`: none yet).
    pub shortest_gap_us: AtomicU64,
    // Std mutexes: held only to record one sample, never across an await.
    /// From a game's end (seen on the game socket) to the next game on the arena socket, ms.
    after_end: Mutex<Histogram<u64>>,
    /// The same from the moment another player of the arena was free (see `WaitingRoom`), ms.
    after_end_with_another: Mutex<Histogram<u64>>,
    /// From a resume's answer to the next game, ms.
    after_resume: Mutex<Histogram<u64>>,
    /// Problems printed so far (only the first few are, to stderr).
    told: AtomicU64,
}

/// Problems worth a line on stderr; after these, only counts.
const TELL_AT_MOST: u64 = 10;

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl Tally {
    pub fn new() -> Tally {
        Tally {
            measuring: AtomicBool::new(false),
            attempted: AtomicU64::new(0),
            joined: AtomicU64::new(0),
            join_failed: AtomicU64::new(0),
            socket_failed: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
            game_socket_failed: AtomicU64::new(0),
            request_failed: AtomicU64::new(0),
            confused: AtomicU64::new(0),
            pairings: AtomicU64::new(0),
            paired_before_end_seen: AtomicU64::new(0),
            games_ended: AtomicU64::new(0),
            turns: AtomicU64::new(0),
            turns_ever: AtomicU64::new(0),
            pauses: AtomicU64::new(0),
            resumes: AtomicU64::new(0),
            messages: AtomicU64::new(0),
            message_bytes: AtomicU64::new(0),
            shortest_gap_us: AtomicU64::new(u64::MAX),
            after_end: Mutex::new(histogram()),
            after_end_with_another: Mutex::new(histogram()),
            after_resume: Mutex::new(histogram()),
            told: AtomicU64::new(0),
        }
    }

    pub fn measuring(&self) -> bool {
        self.measuring.load(Relaxed)
    }

    /// A new pairing, after the player `waited` since the end of its last game (or its
    /// resume).
    pub fn paired(&self, waited: Waited) {
        if !self.measuring() {
            return;
        }
        self.pairings.fetch_add(1, Relaxed);
        let record = |delays: &Mutex<Histogram<u64>>, wait: Duration| {
            delays.lock().unwrap_or_else(|e| e.into_inner()).saturating_record(millis(wait));
        };
        if waited.resumed {
            record(&self.after_resume, waited.whole);
        } else {
            record(&self.after_end, waited.whole);
            record(&self.after_end_with_another, waited.with_another());
        }
    }

    /// A standings message of `bytes`, `gap` after the socket's previous one (if any).
    pub fn standings(&self, bytes: usize, gap: Option<Duration>) {
        if !self.measuring() {
            return;
        }
        self.messages.fetch_add(1, Relaxed);
        self.message_bytes.fetch_add(bytes as u64, Relaxed);
        if let Some(gap) = gap {
            let us = u64::try_from(gap.as_micros()).unwrap_or(u64::MAX);
            self.shortest_gap_us.fetch_min(us, Relaxed);
        }
    }

    /// The delays from a game's end to the next pairing, in seconds.
    pub fn after_end(&self) -> Percentiles {
        Percentiles::scaled(&self.after_end.lock().unwrap_or_else(|e| e.into_inner()), 1000.0)
    }

    /// The delays from a game's end to the next pairing, counted from the moment another
    /// player of the arena was free, in seconds.
    pub fn after_end_with_another(&self) -> Percentiles {
        Percentiles::scaled(
            &self.after_end_with_another.lock().unwrap_or_else(|e| e.into_inner()),
            1000.0,
        )
    }

    /// The delays from a resume to the next pairing, in seconds.
    pub fn after_resume(&self) -> Percentiles {
        Percentiles::scaled(&self.after_resume.lock().unwrap_or_else(|e| e.into_inner()), 1000.0)
    }

    /// Every fault counted.
    pub fn errors(&self) -> u64 {
        [
            &self.join_failed,
            &self.socket_failed,
            &self.dropped,
            &self.game_socket_failed,
            &self.request_failed,
            &self.confused,
        ]
        .iter()
        .map(|n| n.load(Relaxed))
        .sum()
    }

    /// Prints `what` to stderr if few problems have been told yet.
    pub fn tell(&self, what: impl FnOnce() -> String) {
        let n = self.told.fetch_add(1, Relaxed);
        if n < TELL_AT_MOST {
            eprintln!("loadtest: {}", what());
        } else if n == TELL_AT_MOST {
            eprintln!("loadtest: (further problems are only counted)");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_are_told_in_seconds_and_only_in_the_window() {
        let tally = Tally::new();
        let end = |ms: u64| Waited {
            whole: Duration::from_millis(ms),
            alone: Duration::from_millis(ms / 3),
            resumed: false,
        };
        tally.paired(end(9_000));
        tally.measuring.store(true, Relaxed);
        for ms in 1..=100 {
            tally.paired(end(ms * 30));
        }
        tally.paired(Waited { resumed: true, ..end(500) });
        let after = tally.after_end();
        assert_eq!(after.samples, 100);
        assert!((after.p50 - 1.5).abs() < 0.01, "{}", after.p50);
        assert!((after.max - 3.0).abs() < 0.01, "{}", after.max);
        let with_another = tally.after_end_with_another();
        assert_eq!(with_another.samples, 100);
        assert!((with_another.max - 2.0).abs() < 0.01, "{}", with_another.max);
        assert_eq!(tally.after_resume().samples, 1);
        assert_eq!(tally.pairings.load(Relaxed), 101);
    }

    #[test]
    fn the_shortest_gap_between_standings_is_kept() {
        let tally = Tally::new();
        tally.measuring.store(true, Relaxed);
        tally.standings(100, None);
        tally.standings(100, Some(Duration::from_millis(1200)));
        tally.standings(100, Some(Duration::from_millis(998)));
        assert_eq!(tally.shortest_gap_us.load(Relaxed), 998_000);
        assert_eq!((tally.messages.load(Relaxed), tally.message_bytes.load(Relaxed)), (3, 300));
    }
}
