//! The search benchmark: fixed positions of several rulesets searched to a fixed depth. The total
//! node count is the search's signature (any change to what it searches changes it); the speed is
//! nodes per second.

use std::time::{Duration, Instant};

use dara::{Position, Ruleset};

use crate::limits::Limits;
use crate::search::{Outcome, Searcher, Style};

/// The depth `dara bench search` uses unless told otherwise.
pub const DEFAULT_DEPTH: u32 = 7;

/// The benchmark positions: ruleset and position text. Placement and movement, four presets and
/// three variants.
pub const POSITIONS: [(&str, &str); 12] = [
    ("arcade", "6/6/6/6/6 w 12 12 0"),
    ("arcade", "6/B3W1/1WWBB1/3B1W/2WWB1 b 6 7 0"),
    ("arcade", "WBBWWW/B3B1/B2B1W/BW1BB1/1BWBWW w 0 0 0"),
    ("arcade", "WB1WW1/BW3B/BBB1BB/1W1WWW/BW2B1 w 0 0 4"),
    ("jaques", "W1BWBB/WBW1WB/1B1W1W/BW1WW1/1BBW1B w 0 0 1"),
    ("jaques", "4W1/WW1BWB/1W4/3B1B/2WB2 b 6 7 0"),
    ("ninja", "BBBWWW/WB1B1B/1WB1W1/2B1W1/1BWWWB w 0 0 0"),
    ("wikipedia", "BWWBBB/1BB1BW/B3BW/1WBBWW/2WB2 w 0 0 0"),
    ("arcade,diagonal=yes", "2W1WB/BBW3/1B1BBB/W1WBWW/WB1W1B w 0 0 0"),
    ("jaques,captures=per-row", "1W2B1/BBWW1B/2WWWW/1WBBB1/B3WW w 0 0 2"),
    ("arcade,rows=6,stones=15", "BWWBWB/WB1W1W/WBWWB1/1WWBB1/BBW1BW/BB4 w 0 0 0"),
    ("arcade,rows=6,stones=15", "2WBBW/6/1B3W/B1BBW1/2BW1W/W1WB1W b 6 7 0"),
];

/// One benchmark position's result.
#[derive(Clone, Debug)]
pub struct Line {
    /// The ruleset.
    pub rules: &'static str,
    /// The position.
    pub position: &'static str,
    /// What the search found.
    pub outcome: Outcome,
}

/// The whole benchmark's result.
#[derive(Clone, Debug)]
pub struct Report {
    /// Per position.
    pub lines: Vec<Line>,
    /// Total nodes: the signature.
    pub nodes: u64,
    /// Total time.
    pub time: Duration,
}

impl Report {
    /// Nodes per second over the whole run.
    pub fn nps(&self) -> u64 {
        (u128::from(self.nodes) * 1_000_000 / self.time.as_micros().max(1)) as u64
    }
}

/// Searches every benchmark position to `depth`, each with a fresh searcher (so the count does
/// not depend on the order), calling `each` after each one.
pub fn run(depth: u32, mut each: impl FnMut(&Line)) -> Report {
    let start = Instant::now();
    let mut lines = Vec::new();
    let mut nodes = 0;
    for (rules, position) in POSITIONS {
        let ruleset: Ruleset = rules.parse().expect("benchmark rulesets are valid");
        let pos = Position::from_text(position, ruleset).expect("benchmark positions are valid");
        let mut searcher = Searcher::new(16);
        let outcome =
            searcher.search(&pos, &[], &Limits::depth(depth), &Style::default(), &mut |_| {});
        nodes += outcome.nodes;
        let line = Line { rules, position, outcome };
        each(&line);
        lines.push(line);
    }
    Report { lines, nodes, time: start.elapsed() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_is_valid_and_searchable() {
        let report = run(2, |_| {});
        assert_eq!(report.lines.len(), POSITIONS.len());
        assert!(report.lines.iter().all(|l| l.outcome.best.is_some()));
        // Same depth, same count.
        assert_eq!(run(2, |_| {}).nodes, report.nodes);
    }

    /// The signature `dara bench search` prints. A change of what the search does changes this
    /// number: update it in the same commit, which then shows that the search changed.
    #[test]
    fn signature_at_the_default_depth() {
        let report = run(DEFAULT_DEPTH, |_| {});
        assert_eq!(report.nodes, 2_864_311);
    }
}
