//! Time as the table sees it: moments passed in by its shell, never read from a clock. The
//! server counts them from its start; a page from its own `performance.now()`. Only their
//! differences mean anything.

use core::ops::{Add, Sub};
use std::time::Duration;

/// A moment, as the time since an origin the shell chose.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Moment(Duration);

impl Moment {
    /// The shell's origin.
    pub const ORIGIN: Moment = Moment(Duration::ZERO);

    /// The moment `since` after the origin.
    pub const fn from_origin(since: Duration) -> Moment {
        Moment(since)
    }

    /// The time since the origin.
    pub const fn since_origin(self) -> Duration {
        self.0
    }

    /// How long after `earlier` this is; zero if it is not after it.
    pub fn saturating_since(self, earlier: Moment) -> Duration {
        self.0.saturating_sub(earlier.0)
    }
}

impl Add<Duration> for Moment {
    type Output = Moment;

    fn add(self, d: Duration) -> Moment {
        Moment(self.0.saturating_add(d))
    }
}

impl Sub<Duration> for Moment {
    type Output = Moment;

    fn sub(self, d: Duration) -> Moment {
        Moment(self.0.saturating_sub(d))
    }
}
