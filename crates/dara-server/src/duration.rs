//! How the server writes a duration down, in one place: whole milliseconds for machines (Redis's
//! expiries, the `…_ms` fields of the protocol) and whole seconds, rounded up, for people and
//! HTTP's `Retry-After` (never "0 seconds" for a wait that is not over).

use std::time::Duration;

/// `d` in whole milliseconds (truncated; a duration past `u64::MAX` ms, some 584 million
/// years, is held there).
pub fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// `d` in whole seconds, a part of a second counted as one.
pub fn whole_seconds(d: Duration) -> u64 {
    d.as_secs() + u64::from(d.subsec_nanos() > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_written_whole() {
        assert_eq!(millis(Duration::from_micros(1_999)), 1);
        assert_eq!(millis(Duration::from_secs(60 * 60)), 3_600_000);
        assert_eq!(millis(Duration::MAX), u64::MAX);
        assert_eq!(whole_seconds(Duration::ZERO), 0);
        assert_eq!(whole_seconds(Duration::from_millis(200)), 1);
        assert_eq!(whole_seconds(Duration::from_secs(5)), 5);
        assert_eq!(whole_seconds(Duration::from_millis(5_001)), 6);
    }
}
