//! What an arena is, fixed when it is announced: the games it plays and when it runs.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::time::{millis, WallTime};

/// How often free players are paired: often enough that nobody waits long, seldom enough that
/// each wave has several players to pair by rank (lichess pairs every couple of seconds).
pub const PAIR_EVERY: Duration = Duration::from_secs(2);

/// How long a player rests after a game before the next pairing: time to see the result; the
/// page counts it down, then the next game starts by itself.
pub const REST: Duration = Duration::from_secs(5);

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
    /// How often free players are paired.
    #[serde(with = "millis", default = "pair_every")]
    pub pair_every: Duration,
    /// How long a player rests after a game before the next pairing.
    #[serde(with = "millis", default = "rest")]
    pub rest: Duration,
}

fn pair_every() -> Duration {
    PAIR_EVERY
}

fn rest() -> Duration {
    REST
}

impl Settings {
    /// An arena of these games from `starts` for `length`, paired every [`PAIR_EVERY`] with a
    /// [`REST`] between games.
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
            rest: REST,
        }
    }

    /// When the arena ends.
    pub fn ends(&self) -> WallTime {
        self.starts + self.length
    }
}
