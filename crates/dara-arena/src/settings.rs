//! What an arena is, fixed when it is announced: the games it plays and when it runs.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::time::{millis, WallTime};

/// How often free players are paired: often enough that nobody waits long, seldom enough that
/// each wave has several players to pair by rank (lichess pairs every couple of seconds).
pub const PAIR_EVERY: Duration = Duration::from_secs(2);

/// An arena's settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The ruleset of every game, as the table names it: the arena plays no game itself, so it
    /// keeps the name for its shell.
    pub rules: String,
    /// The clock of every game, as the table writes it (`3+2`): the same.
    pub clock: String,
    /// When the arena starts.
    pub starts: WallTime,
    /// How long it runs.
    #[serde(with = "millis")]
    pub length: Duration,
    /// How often free players are paired. A player is free for the next wave as soon as their
    /// game ends, as on lichess: the short countdown before the next game is the page's. (Settings
    /// kept before this had a `rest` after each game; serde passes over it.)
    #[serde(with = "millis", default = "pair_every")]
    pub pair_every: Duration,
}

fn pair_every() -> Duration {
    PAIR_EVERY
}

impl Settings {
    /// An arena of these games from `starts` for `length`, paired every [`PAIR_EVERY`].
    pub fn new(
        rules: impl Into<String>,
        clock: impl Into<String>,
        starts: WallTime,
        length: Duration,
    ) -> Settings {
        Settings {
            rules: rules.into(),
            clock: clock.into(),
            starts,
            length,
            pair_every: PAIR_EVERY,
        }
    }

    /// When the arena ends.
    pub fn ends(&self) -> WallTime {
        self.starts + self.length
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Arenas kept before the rest between games went still read: their `rest` is passed over.
    #[test]
    fn settings_kept_with_a_rest_still_read() {
        let kept = r#"{"rules":"arcade","clock":"3+2","starts":1000,"length":1800000,
            "pair_every":2000,"rest":5000}"#;
        let settings: Settings = serde_json::from_str(kept).unwrap();
        assert_eq!(
            settings,
            Settings::new("arcade", "3+2", WallTime::from_millis(1000), Duration::from_secs(1800))
        );
    }
}
