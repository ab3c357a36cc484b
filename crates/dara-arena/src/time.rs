//! Time as the arena sees it: the calendar's, passed in by its shell.
//!
//! The table's `Moment` counts from the start of one server run, which is enough for a game of
//! minutes. An arena is announced for a time of day and must end at its hour even across a
//! restart of the server, so its times are wall-clock ones, kept in its journal as numbers.

use core::fmt;
use core::ops::{Add, Sub};
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// A wall-clock time: milliseconds since the Unix epoch, as the shell read them.
#[derive(Copy, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct WallTime(u64);

impl WallTime {
    /// The time `millis` milliseconds after the Unix epoch.
    pub const fn from_millis(millis: u64) -> WallTime {
        WallTime(millis)
    }

    /// Milliseconds since the Unix epoch.
    pub const fn as_millis(self) -> u64 {
        self.0
    }

    /// How long after `earlier` this is; zero if it is not after it.
    pub fn saturating_since(self, earlier: WallTime) -> Duration {
        Duration::from_millis(self.0.saturating_sub(earlier.0))
    }
}

impl Add<Duration> for WallTime {
    type Output = WallTime;

    fn add(self, d: Duration) -> WallTime {
        WallTime(self.0.saturating_add(u64::try_from(d.as_millis()).unwrap_or(u64::MAX)))
    }
}

impl Sub<Duration> for WallTime {
    type Output = WallTime;

    fn sub(self, d: Duration) -> WallTime {
        WallTime(self.0.saturating_sub(u64::try_from(d.as_millis()).unwrap_or(u64::MAX)))
    }
}

impl fmt::Debug for WallTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "WallTime({} ms)", self.0)
    }
}

/// A [`Duration`] in the journal and the settings: whole milliseconds, which every shell can
/// write and read.
pub(crate) mod millis {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        u64::deserialize(d).map(Duration::from_millis)
    }
}
