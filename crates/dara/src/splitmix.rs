//! SplitMix64: the project's one small seeded random number generator. The Zobrist keys are
//! drawn from it at compile time; the engine's noise, match openings and random baselines, the
//! benchmarks' and tests' random games all use it.

/// SplitMix64 (Steele, Lea and Flood): fast, statistically fine for games, identical on every
/// platform, and a `const fn`, so that tables can be filled at compile time.
///
/// # Examples
/// ```
/// use dara::SplitMix64;
/// let mut rng = SplitMix64::new(7);
/// let first = rng.next_u64();
/// assert_eq!(SplitMix64::new(7).next_u64(), first);
/// assert!(rng.below(6) < 6);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator whose whole sequence is fixed by `seed`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    #[inline]
    pub const fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0), by one multiplication: no division, and no index favoured
    /// by more than `n` in 2^64.
    #[inline]
    pub const fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// A number in `[0, 1)`.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// True with probability `p`.
    #[inline]
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_sequence() {
        // The first outputs for seed 1234567 of the reference implementation (splitmix64.c).
        let mut rng = SplitMix64::new(1_234_567);
        assert_eq!(rng.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(rng.next_u64(), 3_203_168_211_198_807_973);
    }

    #[test]
    fn below_stays_below() {
        let mut rng = SplitMix64::new(1);
        assert!((0..1000).all(|_| rng.below(6) < 6));
        assert!((0..1000).all(|_| (0.0..1.0).contains(&rng.unit())));
    }
}
