//! When seekers arrive: a Poisson process, people turning up independently of each other at a
//! steady average rate, so the gaps between two arrivals are exponentially distributed. Drawn
//! from a seed, so two runs (`--matching exact` and `pools`) can meet the very same crowd.

use std::time::Duration;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The arrival times, counted from the start, of a Poisson process.
#[derive(Debug)]
pub struct Arrivals {
    rng: SmallRng,
    /// Mean arrivals per second.
    rate: f64,
    /// The last arrival's time, in seconds from the start.
    at: f64,
}

impl Arrivals {
    /// Arrivals at `per_second` on average (more than 0), drawn from `seed`.
    pub fn new(per_second: f64, seed: u64) -> Arrivals {
        assert!(per_second > 0.0 && per_second.is_finite(), "a rate above 0");
        Arrivals { rng: SmallRng::seed_from_u64(seed), rate: per_second, at: 0.0 }
    }
}

impl Iterator for Arrivals {
    type Item = Duration;

    /// The next arrival, from the start: the last one plus an exponential gap.
    fn next(&mut self) -> Option<Duration> {
        // 1 - U lies in (0, 1]: its logarithm is finite.
        let u: f64 = self.rng.gen();
        self.at += -(1.0 - u).ln() / self.rate;
        Some(Duration::from_secs_f64(self.at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_brings_the_same_crowd() {
        let a: Vec<_> = Arrivals::new(0.5, 9).take(50).collect();
        let b: Vec<_> = Arrivals::new(0.5, 9).take(50).collect();
        let c: Vec<_> = Arrivals::new(0.5, 10).take(50).collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(a.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn arrivals_come_at_the_rate_with_exponential_gaps() {
        // 10 a minute for 1000 hours: about 600 000 arrivals.
        let rate = 10.0 / 60.0;
        let hours = 1000.0;
        let times: Vec<f64> = Arrivals::new(rate, 1)
            .map(|d| d.as_secs_f64())
            .take_while(|&t| t < hours * 3600.0)
            .collect();
        let expected = rate * hours * 3600.0;
        assert!((times.len() as f64 / expected - 1.0).abs() < 0.01, "{}", times.len());
        // Exponential gaps: about 1/e of them longer than the mean gap (6 s), and no rhythm.
        let gaps: Vec<f64> = times.windows(2).map(|w| w[1] - w[0]).collect();
        let longer = gaps.iter().filter(|&&g| g > 1.0 / rate).count() as f64 / gaps.len() as f64;
        assert!((longer - (-1.0f64).exp()).abs() < 0.01, "{longer}");
    }
}
