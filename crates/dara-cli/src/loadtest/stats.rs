//! What the games tell the driver: counters every game task adds to, and the round trips (a
//! turn's two, and against the computer the wait for its reply) as HDR histograms.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Duration;

use hdrhistogram::Histogram;
use serde::Serialize;

/// Shared by every game task. Turns and round trips count only inside the measured window;
/// faults count from the start, as a fault during warm-up is still a fault.
#[derive(Debug)]
pub struct Stats {
    /// Whether the measured window is open.
    pub measuring: AtomicBool,
    /// Games whose both seats are seated, now.
    pub in_play: AtomicI64,
    /// Games the server made for the driver (each held by the server until it forgets it).
    pub created: AtomicU64,
    /// Games that ended by the rules.
    pub finished: AtomicU64,
    /// Turns answered `accepted` inside the window.
    pub turns: AtomicU64,
    /// Turns answered `accepted` since the start (for progress lines).
    pub turns_ever: AtomicU64,
    /// `rejected` answers (every turn sent was in the position's legal list).
    pub rejected: AtomicU64,
    /// Answers or events that make no sense.
    pub desynced: AtomicU64,
    /// Sockets the server closed or dropped while their game was on.
    pub disconnected: AtomicU64,
    /// Games that stopped answering for [`super::game::SILENCE`].
    pub timed_out: AtomicU64,
    /// `POST /api/games` answered with an error status.
    pub refused: AtomicU64,
    /// Connections or handshakes that failed.
    pub connect_failed: AtomicU64,
    /// Slots that have made their first attempt at a game (the ramp is over when all have).
    pub first_attempts: AtomicU64,
    /// The computer's moves inside the window (games against it only).
    pub replies: AtomicU64,
    /// The computer's moves since the start (for progress lines).
    pub replies_ever: AtomicU64,
    /// `queue` messages heard: a game's search waited for an engine thread.
    pub queue_told: AtomicU64,
    /// The most searches a `queue` message said were ahead of a game's.
    pub queue_ahead_max: AtomicU64,
    /// Whether the server refused `hello` with a `protocol` field, so it is no longer sent.
    pub protocol_refused: AtomicBool,
    /// Close codes of `disconnected` sockets (0: closed with no code or no close frame) and
    /// statuses of refused requests.
    pub closes: Mutex<BTreeMap<u16, u64>>,
    /// See `closes`.
    pub statuses: Mutex<BTreeMap<u16, u64>>,
    /// Round trips in µs.
    // A std mutex: held only to record one sample, never across an await.
    pub latency: Mutex<Latency>,
    /// Problems printed so far (only the first few are, to stderr).
    pub told: AtomicU64,
}

/// The two round trips of a turn, and the computer's replies.
#[derive(Debug)]
pub struct Latency {
    /// From sending `move` to its `accepted`.
    pub accepted: Histogram<u64>,
    /// From sending `move` to the opponent's socket receiving its `move` event.
    pub delivered: Histogram<u64>,
    /// From sending `move` to the computer's `move` event that answers it: its search, the
    /// wait for an engine thread, and at the low levels its human-looking pause.
    pub replied: Histogram<u64>,
}

/// Problems worth a line on stderr; after these, only counts.
const TELL_AT_MOST: u64 = 10;

impl Stats {
    pub fn new() -> Stats {
        Stats {
            measuring: AtomicBool::new(false),
            in_play: AtomicI64::new(0),
            created: AtomicU64::new(0),
            finished: AtomicU64::new(0),
            turns: AtomicU64::new(0),
            turns_ever: AtomicU64::new(0),
            rejected: AtomicU64::new(0),
            desynced: AtomicU64::new(0),
            disconnected: AtomicU64::new(0),
            timed_out: AtomicU64::new(0),
            refused: AtomicU64::new(0),
            connect_failed: AtomicU64::new(0),
            first_attempts: AtomicU64::new(0),
            replies: AtomicU64::new(0),
            replies_ever: AtomicU64::new(0),
            queue_told: AtomicU64::new(0),
            queue_ahead_max: AtomicU64::new(0),
            protocol_refused: AtomicBool::new(false),
            closes: Mutex::new(BTreeMap::new()),
            statuses: Mutex::new(BTreeMap::new()),
            latency: Mutex::new(Latency {
                accepted: histogram(),
                delivered: histogram(),
                replied: histogram(),
            }),
            told: AtomicU64::new(0),
        }
    }

    pub fn measuring(&self) -> bool {
        self.measuring.load(Relaxed)
    }

    /// A turn's `accepted`, `elapsed` after it was sent.
    pub fn accepted(&self, elapsed: Duration) {
        self.turns_ever.fetch_add(1, Relaxed);
        if self.measuring() {
            self.turns.fetch_add(1, Relaxed);
            let mut latency = self.latency.lock().unwrap_or_else(|e| e.into_inner());
            latency.accepted.saturating_record(micros(elapsed));
        }
    }

    /// A turn's `move` event reaching the opponent, `elapsed` after it was sent.
    pub fn delivered(&self, elapsed: Duration) {
        if self.measuring() {
            let mut latency = self.latency.lock().unwrap_or_else(|e| e.into_inner());
            latency.delivered.saturating_record(micros(elapsed));
        }
    }

    /// The computer's `move` event, `elapsed` after the turn it answers was sent.
    pub fn replied(&self, elapsed: Duration) {
        self.replies_ever.fetch_add(1, Relaxed);
        if self.measuring() {
            self.replies.fetch_add(1, Relaxed);
            let mut latency = self.latency.lock().unwrap_or_else(|e| e.into_inner());
            latency.replied.saturating_record(micros(elapsed));
        }
    }

    /// A `queue` message: `ahead` searches run before this game's.
    pub fn queued(&self, ahead: u32) {
        self.queue_told.fetch_add(1, Relaxed);
        self.queue_ahead_max.fetch_max(u64::from(ahead), Relaxed);
    }

    pub fn closed(&self, code: u16) {
        self.disconnected.fetch_add(1, Relaxed);
        *self.closes.lock().unwrap_or_else(|e| e.into_inner()).entry(code).or_default() += 1;
    }

    pub fn refused(&self, status: u16) {
        self.refused.fetch_add(1, Relaxed);
        *self.statuses.lock().unwrap_or_else(|e| e.into_inner()).entry(status).or_default() += 1;
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

    /// Percentiles of both round trips recorded so far.
    pub fn percentiles(&self) -> (Percentiles, Percentiles) {
        let latency = self.latency.lock().unwrap_or_else(|e| e.into_inner());
        (Percentiles::of(&latency.accepted), Percentiles::of(&latency.delivered))
    }

    /// Percentiles of the computer's replies recorded so far.
    pub fn reply_percentiles(&self) -> Percentiles {
        let latency = self.latency.lock().unwrap_or_else(|e| e.into_inner());
        Percentiles::of(&latency.replied)
    }
}

/// A histogram of values from 0 to an hour in µs (or anything below 3.6e9), to 3 significant
/// digits.
pub fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 3_600_000_000, 3).expect("valid bounds")
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX).max(1)
}

/// A distribution: a round trip's, in milliseconds (or, with [`Percentiles::scaled`], of any
/// other quantity recorded).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Percentiles {
    pub samples: u64,
    pub p50: f64,
    pub p95: f64,
    pub p99: f64,
    pub max: f64,
}

impl Percentiles {
    fn of(h: &Histogram<u64>) -> Percentiles {
        Percentiles::scaled(h, 1000.0)
    }

    /// The distribution of the values recorded in `h`, each divided by `unit` (1000 from µs to
    /// ms, or from ms to seconds).
    pub fn scaled(h: &Histogram<u64>, unit: f64) -> Percentiles {
        let ms = |v: u64| v as f64 / unit;
        Percentiles {
            samples: h.len(),
            p50: ms(h.value_at_quantile(0.50)),
            p95: ms(h.value_at_quantile(0.95)),
            p99: ms(h.value_at_quantile(0.99)),
            max: ms(h.max()),
        }
    }
}

impl core::fmt::Display for Percentiles {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.samples == 0 {
            return f.write_str("no samples");
        }
        write!(
            f,
            "p50 {:.3} ms, p95 {:.3} ms, p99 {:.3} ms, max {:.3} ms ({} turns)",
            self.p50, self.p95, self.p99, self.max, self.samples
        )
    }
}
