//! The game clock: the table alone decides how much time each player has left.
//!
//! Fair to a player on a slow line: each move's charge is reduced by the lag that player's
//! browser reports (at most [`MAX_LAG_CREDIT`] a move, so claiming a huge lag buys nothing).

use std::time::Duration;

use dara::{ByColour, Colour};
use serde::{Deserialize, Serialize};

use crate::moment::Moment;

/// `d` in whole milliseconds, as the journal and the wire write time (truncated; a duration
/// past `u64::MAX` ms, some 584 million years, is held there).
pub fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The most time one move can be credited for network lag.
pub const MAX_LAG_CREDIT: Duration = Duration::from_millis(500);

/// A time control: minutes for the game, seconds added after each move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Each player's time at the start, in seconds.
    pub initial: u32,
    /// Seconds added to a player's clock after each of their moves.
    pub increment: u32,
}

impl TimeControl {
    /// Whether the control is within what the site offers (a minute to an hour, up to a minute
    /// added per move).
    pub fn is_reasonable(&self) -> bool {
        (30..=3600).contains(&self.initial) && self.increment <= 60
    }

    /// As players say it: `5+3`.
    pub fn label(&self) -> String {
        if self.initial % 60 == 0 {
            format!("{}+{}", self.initial / 60, self.increment)
        } else {
            format!("{}s+{}", self.initial, self.increment)
        }
    }
}

/// Both players' remaining time, and whose is running since when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    remaining: ByColour<Duration>,
    running: Option<(Colour, Moment)>,
}

/// Both players' time left at one moment, in whole milliseconds: what the journal keeps of a
/// clock.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeLeft {
    /// White's time left, in ms.
    pub white: u64,
    /// Black's time left, in ms.
    pub black: u64,
}

impl Clock {
    /// A clock with both players at the control's starting time, stopped.
    pub fn new(control: TimeControl) -> Clock {
        let start = Duration::from_secs(u64::from(control.initial));
        Clock { control, remaining: ByColour { white: start, black: start }, running: None }
    }

    /// A stopped clock with `left` on it (as the journal last said).
    pub fn resumed(control: TimeControl, left: TimeLeft) -> Clock {
        let remaining = ByColour {
            white: Duration::from_millis(left.white),
            black: Duration::from_millis(left.black),
        };
        Clock { control, remaining, running: None }
    }

    /// The time control it keeps.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Starts `colour`'s clock.
    pub fn start(&mut self, colour: Colour, now: Moment) {
        self.running = Some((colour, now));
    }

    /// Stops the running clock after its player moved, charging the time used less the lag
    /// credit, then adds the increment. Returns false if the player had already run out.
    pub fn punch(&mut self, now: Moment, reported_lag: Duration) -> bool {
        let Some((colour, since)) = self.running.take() else { return true };
        let used = now.saturating_since(since).saturating_sub(reported_lag.min(MAX_LAG_CREDIT));
        let left = self.remaining[colour].checked_sub(used);
        match left {
            Some(left) if !left.is_zero() => {
                self.remaining[colour] =
                    left + Duration::from_secs(u64::from(self.control.increment));
                true
            }
            _ => {
                self.remaining[colour] = Duration::ZERO;
                false
            }
        }
    }

    /// Halves `colour`'s time left: it went berserk, before its first move (so its clock is
    /// not running). The increment is kept: the arena asks for the halving alone, where
    /// lichess also drops a berserker's increment.
    pub fn halve(&mut self, colour: Colour) {
        self.remaining[colour] /= 2;
    }

    /// Stops the clock without charging (the game ended some other way).
    pub fn stop(&mut self, now: Moment) {
        if let Some((colour, since)) = self.running.take() {
            let used = now.saturating_since(since);
            let left = self.remaining[colour].saturating_sub(used);
            self.remaining[colour] = left;
        }
    }

    /// When the running player's time runs out, and who that is. A move that arrives with lag
    /// credit can still beat this instant, so the flag falls [`MAX_LAG_CREDIT`] late.
    pub fn flag_at(&self) -> Option<(Colour, Moment)> {
        self.running
            .map(|(colour, since)| (colour, since + self.remaining[colour] + MAX_LAG_CREDIT))
    }

    /// The running player's colour, if their clock runs.
    pub fn running(&self) -> Option<Colour> {
        self.running.map(|(c, _)| c)
    }

    /// Both players' time left at `now`.
    pub fn left(&self, now: Moment) -> TimeLeft {
        let left = |colour: Colour| {
            let mut d = self.remaining[colour];
            if let Some((c, since)) = self.running {
                if c == colour {
                    d = d.saturating_sub(now.saturating_since(since));
                }
            }
            millis(d)
        };
        TimeLeft { white: left(Colour::White), black: left(Colour::Black) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn control() -> TimeControl {
        TimeControl { initial: 60, increment: 2 }
    }

    #[test]
    fn a_move_is_charged_less_its_lag_and_earns_the_increment() {
        let t0 = Moment::ORIGIN + Duration::from_secs(7);
        let mut clock = Clock::new(control());
        clock.start(Colour::White, t0);
        assert!(clock.punch(t0 + Duration::from_secs(10), Duration::from_millis(300)));
        let left = clock.left(t0 + Duration::from_secs(10));
        assert_eq!(left.white, 60_000 - 10_000 + 300 + 2_000);
        assert_eq!(left.black, 60_000);
        assert_eq!(clock.running(), None);
    }

    #[test]
    fn lag_credit_is_capped() {
        let t0 = Moment::ORIGIN + Duration::from_secs(7);
        let mut clock = Clock::new(control());
        clock.start(Colour::Black, t0);
        clock.punch(t0 + Duration::from_secs(5), Duration::from_secs(30));
        assert_eq!(clock.left(t0).black, 60_000 - 5_000 + 500 + 2_000);
    }

    #[test]
    fn halving_leaves_the_other_side_and_the_increment() {
        let t0 = Moment::ORIGIN + Duration::from_secs(7);
        let mut clock = Clock::new(control());
        clock.halve(Colour::Black);
        assert_eq!(clock.left(t0), TimeLeft { white: 60_000, black: 30_000 });
        clock.start(Colour::Black, t0);
        assert!(clock.punch(t0 + Duration::from_secs(10), Duration::ZERO));
        assert_eq!(clock.left(t0).black, 30_000 - 10_000 + 2_000);
    }

    #[test]
    fn a_player_out_of_time_flags() {
        let t0 = Moment::ORIGIN + Duration::from_secs(7);
        let mut clock = Clock::new(control());
        clock.start(Colour::White, t0);
        let (who, at) = clock.flag_at().unwrap();
        assert_eq!(who, Colour::White);
        assert_eq!(at, t0 + Duration::from_secs(60) + MAX_LAG_CREDIT);
        assert!(!clock.punch(t0 + Duration::from_secs(61), Duration::ZERO));
        assert_eq!(clock.left(t0).white, 0);
    }
}
