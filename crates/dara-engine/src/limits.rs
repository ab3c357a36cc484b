//! What bounds one search (the `go` command's words), and time management: turning a clock into
//! a soft deadline (start no new iteration after it) and a hard one (stop wherever the search is).

use std::time::Duration;

/// Bounds for one search. Every bound that is set applies; none set means "until stopped".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Exactly this long (less a safety margin).
    pub movetime: Option<Duration>,
    /// At most this many iterations.
    pub depth: Option<u32>,
    /// At most this many nodes (checked often, so the count may go a little past it).
    pub nodes: Option<u64>,
    /// At least this many nodes before a time limit may end the search (it is checked as
    /// seldom as the time is, so the count may go a little past it): on a slow machine, a level
    /// bounded by time then thinks longer rather than plays weaker.
    pub min_nodes: Option<u64>,
    /// The clock of the side to move, and its increment.
    pub clock: Option<ClockReading>,
    /// Search until told to stop (`go infinite`).
    pub infinite: bool,
}

/// What the side to move's game clock reads, as `go wtime .. btime .. winc .. binc ..` gives it:
/// a reading taken when the search starts, not a running clock.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ClockReading {
    /// Time left.
    pub time: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// When a search must end, worked out when it starts.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Deadlines {
    /// Start no new iteration once this much time has passed.
    pub soft: Option<Duration>,
    /// Stop at once when this much time has passed.
    pub hard: Option<Duration>,
}

impl Limits {
    /// A search bounded by time alone.
    pub fn movetime(ms: u64) -> Limits {
        Limits { movetime: Some(Duration::from_millis(ms)), ..Limits::default() }
    }

    /// A search bounded by depth alone.
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// A search bounded by nodes alone.
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }

    /// Whether no bound at all is set (the level then decides).
    pub fn is_unbounded(&self) -> bool {
        self.movetime.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
            && self.clock.is_none()
            && !self.infinite
    }

    /// The deadlines, given about how many moves the game may still last for this player.
    pub fn deadlines(&self, moves_to_go: u32) -> Deadlines {
        if self.infinite {
            return Deadlines::default();
        }
        let mut d = Deadlines::default();
        if let Some(t) = self.movetime {
            // A margin for reading, writing and thread start-up: a move must never arrive late.
            let margin = (t / 20).min(Duration::from_millis(20));
            let t = t.saturating_sub(margin).max(Duration::from_millis(1));
            d.soft = Some(t);
            d.hard = Some(t);
        }
        if let Some(clock) = self.clock {
            let left = clock.time.saturating_sub(Duration::from_millis(30));
            let share = left / moves_to_go.max(1) + clock.increment * 3 / 4;
            let hard = (share * 3).min(left / 3).max(Duration::from_millis(1));
            let soft = (share / 2).min(hard);
            d.soft = Some(d.soft.map_or(soft, |s| s.min(soft)));
            d.hard = Some(d.hard.map_or(hard, |h| h.min(hard)));
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_keeps_a_margin() {
        let d = Limits::movetime(100).deadlines(20);
        assert_eq!(d.hard, Some(Duration::from_millis(95)));
    }

    #[test]
    fn clock_spends_a_share() {
        let limits = Limits {
            clock: Some(ClockReading { time: Duration::from_secs(60), increment: Duration::ZERO }),
            ..Limits::default()
        };
        let d = limits.deadlines(30);
        assert!(d.soft.unwrap() < Duration::from_secs(2));
        assert!(d.hard.unwrap() <= Duration::from_secs(20));
        assert!(Limits::default().is_unbounded());
    }
}
