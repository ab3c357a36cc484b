//! What the seekers tell the driver: how many came, met someone, gave up or failed, and how
//! long those who met someone waited (in the simulated time of `--time-scale`, in an HDR
//! histogram of milliseconds).

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Duration;

use hdrhistogram::Histogram;

use crate::loadtest::stats::{histogram, Percentiles};

/// Shared by every seeker task.
#[derive(Debug)]
pub struct Tally {
    /// Seekers that have arrived.
    pub arrived: AtomicU64,
    /// Seekers still looking or waiting at their table, now.
    pub waiting: AtomicI64,
    /// Seekers who met an opponent.
    pub paired: AtomicU64,
    /// Of those, who sat at a table someone was already waiting at as they arrived.
    pub sat_at_once: AtomicU64,
    /// Of those, who play on a clock other than the one they asked for (the waiting table's,
    /// "Play anyone" pairing whatever the clock).
    pub other_clock: AtomicU64,
    /// Seekers whose patience ran out: they called their table off.
    pub gave_up: AtomicU64,
    /// Seekers the server refused, or whose requests or sockets failed.
    pub failed: AtomicU64,
    /// The waits of the seekers who met someone, in simulated milliseconds.
    // A std mutex: held only to record one sample, never across an await.
    waits: Mutex<Histogram<u64>>,
    /// Of those, the waits of who opened a table and waited there until someone sat down: half
    /// of every pair sits at once, so this is the wait a seeker who finds nobody has before them.
    waited_at_own_table: Mutex<Histogram<u64>>,
    /// Problems printed so far (only the first few are, to stderr).
    told: AtomicU64,
}

/// Problems worth a line on stderr; after these, only counts.
const TELL_AT_MOST: u64 = 10;

impl Tally {
    pub fn new() -> Tally {
        Tally {
            arrived: AtomicU64::new(0),
            waiting: AtomicI64::new(0),
            paired: AtomicU64::new(0),
            sat_at_once: AtomicU64::new(0),
            other_clock: AtomicU64::new(0),
            gave_up: AtomicU64::new(0),
            failed: AtomicU64::new(0),
            waits: Mutex::new(histogram()),
            waited_at_own_table: Mutex::new(histogram()),
            told: AtomicU64::new(0),
        }
    }

    /// A seeker met an opponent after `wait` (simulated).
    pub fn paired(&self, wait: Duration, at_once: bool, other_clock: bool) {
        self.paired.fetch_add(1, Relaxed);
        self.sat_at_once.fetch_add(u64::from(at_once), Relaxed);
        self.other_clock.fetch_add(u64::from(other_clock), Relaxed);
        let ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX);
        self.waits.lock().unwrap_or_else(|e| e.into_inner()).saturating_record(ms);
        if !at_once {
            let mut waited = self.waited_at_own_table.lock().unwrap_or_else(|e| e.into_inner());
            waited.saturating_record(ms);
        }
    }

    /// The waits of the seekers who met someone, in simulated seconds.
    pub fn waits(&self) -> Percentiles {
        Percentiles::scaled(&self.waits.lock().unwrap_or_else(|e| e.into_inner()), 1000.0)
    }

    /// The waits of the seekers who waited at their own table until someone sat down, in
    /// simulated seconds.
    pub fn waits_at_own_table(&self) -> Percentiles {
        let waited = self.waited_at_own_table.lock().unwrap_or_else(|e| e.into_inner());
        Percentiles::scaled(&waited, 1000.0)
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
    fn waits_are_told_in_seconds() {
        let tally = Tally::new();
        for s in 1..=100 {
            tally.paired(Duration::from_secs(s), s <= 10, false);
        }
        tally.paired(Duration::ZERO, true, true);
        let waits = tally.waits();
        assert_eq!(waits.samples, 101);
        // Three significant digits.
        assert!((waits.p50 - 50.0).abs() < 0.1, "{}", waits.p50);
        assert!((waits.p95 - 95.0).abs() < 0.1, "{}", waits.p95);
        assert!((waits.max - 100.0).abs() < 0.1, "{}", waits.max);
        assert_eq!(tally.sat_at_once.load(Relaxed), 11);
        let own = tally.waits_at_own_table();
        assert_eq!(own.samples, 90);
        assert!((own.p50 - 55.0).abs() < 0.1, "{}", own.p50);
        assert_eq!(tally.other_clock.load(Relaxed), 1);
    }
}
