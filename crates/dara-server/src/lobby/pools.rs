//! The pools: the few standing choices of "play anyone" that the home page shows as buttons,
//! as lichess's quick pairing does. A small crowd split over every ruleset and clock never
//! meets; a few well-known choices, each with how many wait and play in it, gather it.
//!
//! A pool is only a ruleset and a clock: pressing its button is "play anyone" with them (the
//! table that has waited longest with the same rules, whatever its clock, else a table of
//! one's own at the pool's clock). How many wait and play in each is counted from the lobby's
//! tables and the games being watched, which every node of a cluster shares already.

use dara::Ruleset;
use dara_table::clock::TimeControl;
use serde::Serialize;

/// One standing choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pool {
    /// The ruleset.
    pub rules: Ruleset,
    /// The clock.
    pub clock: TimeControl,
}

/// The pools, fastest first: the Arcade rules at the three clocks lichess players reach for
/// most (blitz to rapid). A game without a clock stays a choice of "Open a table".
pub fn pools() -> [Pool; 3] {
    let arcade = Ruleset::default();
    let at = |minutes: u32, increment: u32| Pool {
        rules: arcade,
        clock: TimeControl { initial: minutes * 60, increment },
    };
    [at(3, 2), at(5, 3), at(10, 5)]
}

/// A pool as the lobby's message shows it: its settings, how many tables wait in it and how
/// many of its games are being played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PoolCount {
    /// The ruleset, in notation.
    #[serde(serialize_with = "dara_table::view::display")]
    pub rules: Ruleset,
    /// The clock.
    pub clock: TimeControl,
    /// Tables open at this clock with these rules, waiting for someone.
    pub waiting: u32,
    /// Games being played at this clock with these rules, between people who met in the lobby.
    pub playing: u32,
}

/// How many wait and play in each pool, from the settings of the tables waiting and of the
/// games being played.
pub fn count(
    waiting: impl IntoIterator<Item = (Ruleset, Option<TimeControl>)>,
    playing: impl IntoIterator<Item = (Ruleset, Option<TimeControl>)>,
) -> Vec<PoolCount> {
    let mut counts: Vec<PoolCount> = pools()
        .into_iter()
        .map(|p| PoolCount { rules: p.rules, clock: p.clock, waiting: 0, playing: 0 })
        .collect();
    let mut tally = |settings: (Ruleset, Option<TimeControl>), playing: bool| {
        let (rules, clock) = settings;
        let found = counts.iter_mut().find(|c| c.rules == rules && Some(c.clock) == clock);
        if let Some(count) = found {
            let n = if playing { &mut count.playing } else { &mut count.waiting };
            *n += 1;
        }
    };
    for settings in waiting {
        tally(settings, false);
    }
    for settings in playing {
        tally(settings, true);
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(minutes: u32, increment: u32) -> Option<TimeControl> {
        Some(TimeControl { initial: minutes * 60, increment })
    }

    #[test]
    fn each_pool_counts_only_its_own_rules_and_clock() {
        let arcade = Ruleset::default();
        let jaques: Ruleset = "jaques".parse().unwrap();
        let waiting = [(arcade, clock(3, 2)), (arcade, clock(3, 2)), (jaques, clock(3, 2))];
        let playing = [(arcade, clock(10, 5)), (arcade, None), (arcade, clock(15, 10))];
        let counts = count(waiting, playing);
        let shown: Vec<_> =
            counts.iter().map(|c| (c.clock.label(), c.waiting, c.playing)).collect();
        assert_eq!(
            shown,
            [("3+2".to_owned(), 2, 0), ("5+3".to_owned(), 0, 0), ("10+5".to_owned(), 0, 1)]
        );
    }

    #[test]
    fn the_pools_are_clocks_the_site_offers() {
        for pool in pools() {
            assert!(pool.clock.is_reasonable(), "{}", pool.clock.label());
        }
    }
}
