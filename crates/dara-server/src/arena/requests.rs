//! How often one client address may ask things of arenas (join, pause, come back, leave,
//! berserk, start): a token bucket per address, like the flood guard of a game's socket
//! (`crate::flood`), so that a script cannot churn an arena's journal with joins and leaves.
//! The burst is a classroom's: thirty pupils behind one address join at once and pause and
//! come back, well within it.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU32, Ordering};

use governor::clock::DefaultClock;
use governor::state::keyed::HashMapStateStore;
use governor::{Quota, RateLimiter};

/// Requests one address may make at once.
pub const BURST: u32 = 60;
/// Then this many a second.
pub const PER_SECOND: u32 = 1;
/// Every this many requests, addresses whose buckets are full again are forgotten.
const FORGET_EVERY: u32 = 4096;

/// The buckets of the addresses heard lately.
#[derive(Debug)]
pub struct Requests {
    buckets: RateLimiter<IpAddr, HashMapStateStore<IpAddr>, DefaultClock>,
    heard: AtomicU32,
}

impl Default for Requests {
    fn default() -> Requests {
        let quota = Quota::per_second(NonZeroU32::new(PER_SECOND).unwrap_or(NonZeroU32::MIN))
            .allow_burst(NonZeroU32::new(BURST).unwrap_or(NonZeroU32::MIN));
        Requests { buckets: RateLimiter::hashmap(quota), heard: AtomicU32::new(0) }
    }
}

impl Requests {
    /// Takes a request's token from `from`'s bucket; false when it is empty.
    pub fn allow(&self, from: IpAddr) -> bool {
        if self.heard.fetch_add(1, Ordering::Relaxed) % FORGET_EVERY == FORGET_EVERY - 1 {
            self.buckets.retain_recent();
        }
        self.buckets.check_key(&from).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_has_a_burst_and_another_is_not_held_to_it() {
        let requests = Requests::default();
        let busy: IpAddr = "192.0.2.1".parse().unwrap();
        let other: IpAddr = "192.0.2.2".parse().unwrap();
        let allowed = (0..BURST + 20).filter(|_| requests.allow(busy)).count();
        // A token or two may come back while the loop runs.
        assert!((BURST as usize..BURST as usize + 3).contains(&allowed), "{allowed}");
        assert!(requests.allow(other));
    }
}
