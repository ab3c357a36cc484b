//! The time a search reads, from a clock it is handed: the system's monotonic clock natively, or
//! the host's where the standard library has none (WebAssembly in a page, whose clock is
//! `performance.now()`, and where `std::time::Instant` panics).

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A monotonic clock: the time since an origin of its own, fixed for the process.
pub type Now = fn() -> Duration;

/// The system's monotonic clock, counted from its first reading in the process.
pub fn system_now() -> Duration {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed()
}

/// Time since a start, read on a clock.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Stopwatch {
    now: Now,
    start: Duration,
}

impl Stopwatch {
    /// A stopwatch on `now`, not started: making one reads no clock (a searcher can be made
    /// before its clock is set).
    pub(crate) fn new(now: Now) -> Stopwatch {
        Stopwatch { now, start: Duration::ZERO }
    }

    /// The same stopwatch, reading another clock from now on.
    pub(crate) fn set_clock(&mut self, now: Now) {
        self.now = now;
    }

    /// Starts counting from now.
    pub(crate) fn restart(&mut self) {
        self.start = (self.now)();
    }

    /// Time since the last start.
    pub(crate) fn elapsed(&self) -> Duration {
        (self.now)().saturating_sub(self.start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    static MILLIS: AtomicU64 = AtomicU64::new(0);

    fn test_clock() -> Duration {
        Duration::from_millis(MILLIS.load(Ordering::Relaxed))
    }

    #[test]
    fn a_stopwatch_reads_the_clock_it_is_given() {
        MILLIS.store(1_000, Ordering::Relaxed);
        let mut watch = Stopwatch::new(test_clock);
        watch.restart();
        MILLIS.store(1_250, Ordering::Relaxed);
        assert_eq!(watch.elapsed(), Duration::from_millis(250));
        // A clock that goes back (another host's) reads as no time passed, not a panic.
        MILLIS.store(900, Ordering::Relaxed);
        assert_eq!(watch.elapsed(), Duration::ZERO);
    }

    #[test]
    fn the_system_clock_goes_forward() {
        let a = system_now();
        let b = system_now();
        assert!(b >= a);
    }
}
