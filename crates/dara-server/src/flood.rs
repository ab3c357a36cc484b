//! The flood guard: a token bucket per connection (governor's GCRA), so one browser (or one
//! script) cannot keep a game busy. Honest pages send a few messages a minute.

use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};

/// Messages allowed now, refilled steadily up to the burst size.
#[derive(Debug)]
pub struct Bucket<C: Clock = DefaultClock> {
    limiter: RateLimiter<NotKeyed, InMemoryState, C, NoOpMiddleware<C::Instant>>,
}

/// A burst of `burst` messages, then `per_second` (both at least one).
fn quota(burst: u32, per_second: u32) -> Quota {
    let one = NonZeroU32::MIN;
    Quota::per_second(NonZeroU32::new(per_second).unwrap_or(one))
        .allow_burst(NonZeroU32::new(burst).unwrap_or(one))
}

impl Bucket {
    /// A full bucket.
    pub fn new(burst: u32, per_second: u32) -> Bucket {
        Bucket { limiter: RateLimiter::direct(quota(burst, per_second)) }
    }
}

impl<C: Clock> Bucket<C> {
    /// A full bucket on another clock (for tests).
    pub fn with_clock(burst: u32, per_second: u32, clock: C) -> Bucket<C> {
        Bucket { limiter: RateLimiter::direct_with_clock(quota(burst, per_second), clock) }
    }

    /// Takes one message's token; false when the connection is flooding.
    pub fn take(&mut self) -> bool {
        self.limiter.check().is_ok()
    }
}

/// How long a new connection has to say hello before it is closed.
pub const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

#[cfg(test)]
mod tests {
    use governor::clock::FakeRelativeClock;

    use super::*;

    #[test]
    fn a_burst_then_a_steady_trickle() {
        let clock = FakeRelativeClock::default();
        let mut bucket = Bucket::with_clock(3, 2, clock.clone());
        assert!((0..3).all(|_| bucket.take()));
        assert!(!bucket.take());
        clock.advance(Duration::from_millis(500));
        assert!(bucket.take());
        assert!(!bucket.take());
    }
}
