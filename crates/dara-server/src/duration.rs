//! How the server writes a duration down, in one place: whole milliseconds for machines (Redis's
//! expiries, the `…_ms` fields of the protocol) and whole seconds, rounded up, for people and
//! HTTP's `Retry-After` (never "0 seconds" for a wait that is not over), and as a person says it.

use std::time::Duration;

pub use dara_table::clock::millis;

/// `d` in whole seconds, a part of a second counted as one.
pub fn whole_seconds(d: Duration) -> u64 {
    d.as_secs() + u64::from(d.subsec_nanos() > 0)
}

/// `d` as a person says it, in whole seconds rounded up: `10 minutes`, `1 minute`,
/// `45 seconds`.
pub fn spoken(d: Duration) -> String {
    let seconds = whole_seconds(d);
    let (n, unit) = if seconds >= 60 && seconds % 60 == 0 {
        (seconds / 60, "minute")
    } else {
        (seconds, "second")
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
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

    #[test]
    fn durations_are_said_in_whole_units() {
        assert_eq!(spoken(Duration::from_secs(600)), "10 minutes");
        assert_eq!(spoken(Duration::from_secs(60)), "1 minute");
        assert_eq!(spoken(Duration::from_secs(90)), "90 seconds");
        assert_eq!(spoken(Duration::from_millis(200)), "1 second");
    }
}
