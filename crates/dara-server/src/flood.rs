//! The flood guard: a token bucket per connection, so one browser (or one script) cannot keep a
//! game's actor busy. Honest pages send a few messages a minute.

use std::time::Duration;

use tokio::time::Instant;

/// Messages allowed now, refilled steadily up to the burst size.
#[derive(Debug)]
pub struct Bucket {
    tokens: f64,
    burst: f64,
    per_second: f64,
    last: Instant,
}

impl Bucket {
    /// A full bucket.
    pub fn new(burst: u32, per_second: u32) -> Bucket {
        Bucket {
            tokens: f64::from(burst),
            burst: f64::from(burst),
            per_second: f64::from(per_second),
            last: Instant::now(),
        }
    }

    /// Takes one message's token; false when the connection is flooding.
    pub fn take(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last);
        self.last = now;
        self.tokens = (self.tokens + elapsed.as_secs_f64() * self.per_second).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// How long a new connection has to say hello before it is closed.
pub const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_a_steady_trickle() {
        let t0 = Instant::now();
        let mut bucket = Bucket::new(3, 2);
        assert!((0..3).all(|_| bucket.take(t0)));
        assert!(!bucket.take(t0));
        assert!(bucket.take(t0 + Duration::from_millis(500)));
        assert!(!bucket.take(t0 + Duration::from_millis(500)));
    }
}
