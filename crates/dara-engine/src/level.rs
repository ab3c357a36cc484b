//! Playing levels 1 to 8: how deep, how long and how carefully the engine looks. Low levels
//! search shallowly, misjudge moves by a random amount, sometimes look only one ply ahead and
//! only at their own chances (walking into a capture the other side is ready to make), and
//! sometimes do not see a capture they could make: the mistakes a beginner makes, rather than
//! random moves. Level 1 is also careless: it gives stones away. Level 8 is full strength
//! within one second.
//!
//! | level | depth cap | node cap | time (no limit given) | noise (cp) | one-ply blunder | overlooked capture | careless |
//! | --- | --- | --- | --- | --- | --- | --- | --- |
//! | 1 | 1 | 2 000 | - | 400 | 100% | 28% | 100% |
//! | 2 | 2 | 2 000 | - | 250 | 30% | 30% | 0 |
//! | 3 | 2 | 4 000 | - | 70 | 32% | 27% | 0 |
//! | 4 | 3 | 15 000 | - | 70 | 13% | 8% | 0 |
//! | 5 | 4 | 40 000 | - | 40 | 6% | 0 | 0 |
//! | 6 | - | 4 500 | - | 0 | 0 | 0 | 0 |
//! | 7 | - | 60 000 | - | 0 | 0 | 0 | 0 |
//! | 8 | - | - | 1000 ms | 0 | 0 | 0 | 0 |
//!
//! Level 8 run by the page (WebAssembly, on a phone that may be slower than the server) also
//! searches at least [`Level::node_floor`] nodes, what the server searches in its second.
//!
//! Caps apply to every search at that level; a `go` with its own limits adds them. Levels 1-7
//! stop on nodes, so they play the same on a busy machine as on an idle one. Level 1 plays
//! every move one ply deep, seeing its own chances and not the other side's: it makes rows and
//! takes stones (not all of them), and whenever the other side has no row to make and a step
//! of its own would give it one, it takes that step (`Style::careless`). A player who takes
//! every stone they are given beats it; one who moves at random mostly does not: someone who
//! has just read the rules can win their first games (measured in the engine README, with each
//! level against the one below). Levels 6 and 7 are the full search with fewer nodes and no
//! noise: noise has every root move searched with a full window, which under a node cap costs
//! whole plies (20 000 nodes without noise beat 25 000 with 15 cp of it 75% of the time), so
//! fewer nodes is the steadier way to weaken the top levels.

use core::fmt;
use core::str::FromStr;

use crate::budget::{budget, Budget};
use crate::limits::Limits;
use crate::rng::Rng;
use crate::search::Style;

/// The transposition table of one move against the computer, in MiB, wherever it is searched
/// (the server, the page): small, as games are short-lived and many, and the levels that people
/// play mostly stop on a node budget long before a larger table would pay. A search starts with
/// a fresh one, so that a move depends on its position and level alone.
pub const PLAY_HASH_MIB: usize = 8;

/// Level 8's node floor ([`Level::node_floor`]): the median nodes of the server's level-8
/// search, rounded down. Measured natively, as the server searches (one search at a time, a
/// fresh table of [`PLAY_HASH_MIB`], the level's second), over the 94 positions of 14 games
/// between the levels, all seven rulesets of the sample (2026-12-04, the development machine:
/// x86-64, 2 cores, otherwise idle):
///
/// ```text
/// dara pocket sample --level 8 --nodes 0 --games 14 --every 10 | dara pocket answer \
///   | awk '{for (i = 1; i < NF; i++) if ($i == "nodes") print $(i+1)}' | sort -n
/// ```
///
/// Median 3 115 422 nodes (quartiles 2.63 M and 3.87 M; the same median on a second run, as the
/// searches near it end on an iteration, not mid-way). With the floor, the page's level 8 thinks
/// the same second where it searches as fast as the server, and longer where it does not.
const LEVEL_8_NODE_FLOOR: u64 = 3_100_000;

/// A playing level, 1 (beginner) to 8 (full strength).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

const BUDGETS: [Budget; 8] = [
    budget(Some(1), Some(2_000), None, 400, 1.0, 0.28, 1.0),
    budget(Some(2), Some(2_000), None, 250, 0.30, 0.30, 0.0),
    budget(Some(2), Some(4_000), None, 70, 0.32, 0.27, 0.0),
    budget(Some(3), Some(15_000), None, 70, 0.13, 0.08, 0.0),
    budget(Some(4), Some(40_000), None, 40, 0.06, 0.0, 0.0),
    budget(None, Some(4_500), None, 0, 0.0, 0.0, 0.0),
    budget(None, Some(60_000), None, 0, 0.0, 0.0, 0.0),
    budget(None, None, Some(1000), 0, 0.0, 0.0, 0.0),
];

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// Full strength.
    pub const MAX: Level = Level(8);

    /// The level `n`, if 1..=8.
    pub const fn new(n: u8) -> Option<Level> {
        if n >= 1 && n <= 8 {
            Some(Level(n))
        } else {
            None
        }
    }

    /// The level's number.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The level's budget and habits.
    pub const fn budget(self) -> Budget {
        BUDGETS[self.0 as usize - 1]
    }

    /// The nodes a search at this level gets at least when its time runs out first: for level 8
    /// (a second a move), what the server searches in its second, so that on a slower machine
    /// (a phone running the page's engine) the level thinks longer rather than plays weaker.
    /// Levels 1 to 7 stop on nodes alone and need none. The server does not apply it: its second
    /// is the measure.
    pub const fn node_floor(self) -> Option<u64> {
        match self.0 {
            8 => Some(LEVEL_8_NODE_FLOOR),
            _ => None,
        }
    }

    /// The limits of one search at this level, given what the driver asked for.
    pub fn limits(self, requested: &Limits) -> Limits {
        self.budget().limits(requested)
    }

    /// The limits and style of one move at this level: a blunder searches one ply only.
    pub fn plan(self, requested: &Limits, rng: &mut Rng) -> (Limits, Style) {
        self.budget().plan(requested, rng)
    }
}

impl Default for Level {
    fn default() -> Level {
        Level::MAX
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A level outside 1..=8, or not a number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelError(String);

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "level must be a number from 1 to 8, not {:?}", self.0)
    }
}

impl std::error::Error for LevelError {}

impl FromStr for Level {
    type Err = LevelError;
    fn from_str(s: &str) -> Result<Level, LevelError> {
        s.parse::<u8>().ok().and_then(Level::new).ok_or_else(|| LevelError(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn levels_parse_and_cap() {
        assert_eq!("3".parse::<Level>().unwrap().get(), 3);
        assert!("9".parse::<Level>().is_err());
        assert!("x".parse::<Level>().is_err());
        let l1 = Level::new(1).unwrap().limits(&Limits::movetime(500));
        assert_eq!((l1.depth, l1.nodes), (Some(1), Some(2_000)));
        let l7 = Level::new(7).unwrap().limits(&Limits::default());
        assert_eq!((l7.movetime, l7.nodes, l7.depth), (None, Some(60_000), None));
        let l8 = Level::MAX.limits(&Limits::default());
        assert_eq!(l8.movetime, Some(Duration::from_millis(1000)));
        let l8 = Level::MAX.limits(&Limits::depth(5));
        assert_eq!((l8.depth, l8.movetime), (Some(5), None));
    }
}
