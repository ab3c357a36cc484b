//! The calendar's time, which an arena is announced in and ends at (the games' own clocks count
//! from each game's start, see `crate::game`).

use std::time::{SystemTime, UNIX_EPOCH};

use dara_arena::WallTime;
use tokio::time::Instant;

/// Now, on the calendar.
pub fn now() -> WallTime {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    WallTime::from_millis(u64::try_from(since.as_millis()).unwrap_or(u64::MAX))
}

/// The server's instant at wall time `at`, reading the calendar now (`at` in the past: now).
pub fn instant(at: WallTime) -> Instant {
    let now = now();
    Instant::now() + at.saturating_since(now)
}
