//! What one level does: how deep and how long it looks, and the mistakes it makes. The levels'
//! own budgets are in `level.rs`; a budget can also be written out
//! (`nodes=50000,depth=4,noise=35,blunder=0.05`), so that `dara match` can try one against the
//! levels before it becomes a level.

use core::fmt;
use core::str::FromStr;
use std::time::Duration;

use crate::limits::Limits;
use crate::rng::Rng;
use crate::score::Value;
use crate::search::Style;

/// What a level does.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Budget {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Most nodes per move.
    pub nodes: Option<u64>,
    /// Time per move when the driver gives no limit.
    pub movetime_ms: Option<u64>,
    /// Random misjudgement of each root move, in centi-stones.
    pub noise: Value,
    /// Chance of a move chosen one ply deep seeing only its own chances: no capture searched
    /// at the horizon, and the other side's threats there unseen.
    pub blunder: f64,
    /// Chance of not seeing the captures available.
    pub overlook: f64,
    /// Chance, when there is no capture to make and the other side has no row-making step, of
    /// choosing among the moves that give it a capture.
    pub careless: f64,
}

/// A budget, in the order of the level table's columns.
pub(crate) const fn budget(
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime_ms: Option<u64>,
    noise: Value,
    blunder: f64,
    overlook: f64,
    careless: f64,
) -> Budget {
    Budget { depth, nodes, movetime_ms, noise, blunder, overlook, careless }
}

impl Budget {
    /// The limits of one search within this budget, given what the driver asked for.
    pub fn limits(&self, requested: &Limits) -> Limits {
        let mut limits = requested.clone();
        if limits.is_unbounded() {
            limits.movetime = self.movetime_ms.map(Duration::from_millis);
        }
        let min = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        limits.nodes = min(limits.nodes, self.nodes);
        limits.depth =
            min(limits.depth.map(u64::from), self.depth.map(u64::from)).map(|d| d as u32);
        limits
    }

    /// How one move is searched; draws its dice from `rng`. Also says whether this move is a
    /// blunder.
    fn style(&self, rng: &mut Rng) -> (Style, bool) {
        let blunder = self.blunder > 0.0 && rng.chance(self.blunder);
        let style = Style {
            noise: self.noise,
            seed: rng.next_u64(),
            overlook_captures: self.overlook > 0.0 && rng.chance(self.overlook),
            quiescence: !blunder,
            // Drawn last, and only where the level has it, so that the other levels' dice fall
            // as they did before it existed.
            careless: self.careless > 0.0 && rng.chance(self.careless),
        };
        (style, blunder)
    }

    /// The limits and style of one move: a blunder searches one ply only.
    pub fn plan(&self, requested: &Limits, rng: &mut Rng) -> (Limits, Style) {
        let mut limits = self.limits(requested);
        let (style, blunder) = self.style(rng);
        if blunder {
            limits.depth = Some(1);
        }
        (limits, style)
    }
}

/// Written as its fields that are set, e.g. `depth=4,nodes=50000,noise=35,blunder=0.05`.
impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut fields = Vec::new();
        if let Some(d) = self.depth {
            fields.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            fields.push(format!("nodes={n}"));
        }
        if let Some(ms) = self.movetime_ms {
            fields.push(format!("movetime={ms}"));
        }
        if self.noise != 0 {
            fields.push(format!("noise={}", self.noise));
        }
        for (name, chance) in
            [("blunder", self.blunder), ("overlook", self.overlook), ("careless", self.careless)]
        {
            if chance != 0.0 {
                fields.push(format!("{name}={chance}"));
            }
        }
        f.write_str(&fields.join(","))
    }
}

/// A budget that could not be read, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BudgetError(String);

impl fmt::Display for BudgetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BudgetError {}

/// Reads `name=value` fields separated by commas: `depth`, `nodes`, `movetime` (ms), `noise`
/// (centi-stones), and the chances `blunder`, `overlook`, `careless` (0 to 1). A field left out
/// is no limit, or no mistake; a search with no limit at all would never stop, so at least one
/// of `depth`, `nodes` and `movetime` is required.
impl FromStr for Budget {
    type Err = BudgetError;
    fn from_str(s: &str) -> Result<Budget, BudgetError> {
        let mut b = budget(None, None, None, 0, 0.0, 0.0, 0.0);
        for field in s.split(',') {
            let Some((name, value)) = field.split_once('=') else {
                return Err(BudgetError(format!("{field:?} is not name=value")));
            };
            let bad = || BudgetError(format!("{name}={value:?} is not a valid {name}"));
            let whole = |v: &str| v.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(bad);
            let chance =
                |v: &str| v.parse::<f64>().ok().filter(|c| (0.0..=1.0).contains(c)).ok_or_else(bad);
            match name {
                "depth" => b.depth = Some(u32::try_from(whole(value)?).map_err(|_| bad())?),
                "nodes" => b.nodes = Some(whole(value)?),
                "movetime" => b.movetime_ms = Some(whole(value)?),
                "noise" => b.noise = value.parse::<Value>().ok().filter(|n| *n >= 0).ok_or_else(bad)?,
                "blunder" => b.blunder = chance(value)?,
                "overlook" => b.overlook = chance(value)?,
                "careless" => b.careless = chance(value)?,
                _ => {
                    return Err(BudgetError(format!(
                        "unknown field {name:?}: expected depth, nodes, movetime, noise, blunder, overlook or careless"
                    )))
                }
            }
        }
        if b.depth.is_none() && b.nodes.is_none() && b.movetime_ms.is_none() {
            return Err(BudgetError(format!(
                "{s:?} sets no depth, nodes or movetime: its search would never stop"
            )));
        }
        Ok(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

    #[test]
    fn every_level_budget_reads_back_as_written() {
        for n in 1..=8 {
            let b = Level::new(n).unwrap().budget();
            assert_eq!(b.to_string().parse::<Budget>(), Ok(b), "level {n}");
        }
    }

    #[test]
    fn a_budget_written_out_is_read_field_by_field() {
        let b: Budget = "depth=4,nodes=50000,noise=35,blunder=0.05".parse().unwrap();
        assert_eq!(b, budget(Some(4), Some(50_000), None, 35, 0.05, 0.0, 0.0));
        let b: Budget = "movetime=1000".parse().unwrap();
        assert_eq!(b, budget(None, None, Some(1000), 0, 0.0, 0.0, 0.0));
    }

    #[test]
    fn a_budget_that_is_not_one_says_what_is_wrong() {
        let err = |s: &str| s.parse::<Budget>().unwrap_err().to_string();
        assert!(err("noise=30").contains("never stop"), "{}", err("noise=30"));
        assert!(err("nodes=0").contains("nodes"));
        assert!(err("nodes=1000,blunder=1.5").contains("blunder"));
        assert!(err("nodes=1000,noise=-3").contains("noise"));
        assert!(err("nodes=1000,speed=3").contains("unknown field \"speed\""));
        assert!(err("nodes").contains("not name=value"));
        assert!(err("").contains("not name=value"));
    }
}
