//! The calendar date a game record carries in its `Date` tag (`2026.11.29`, NOTATION.md
//! "Games"): the day, in UTC, that the game began.

use std::time::{SystemTime, UNIX_EPOCH};

/// `moment` as a record's date, `YYYY.MM.DD` in UTC.
pub fn record_date(moment: SystemTime) -> String {
    // Before 1970 only on a clock set very wrong: the epoch will do for such a record.
    let seconds = moment.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_from_days(seconds / 86_400);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The Gregorian date `days` days after 1970-01-01: Howard Hinnant's `civil_from_days`,
/// which counts in 400-year eras starting on 1 March so that leap days fall last.
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 { shifted_month + 3 } else { shifted_month - 9 };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn at(seconds: u64) -> String {
        record_date(UNIX_EPOCH + Duration::from_secs(seconds))
    }

    #[test]
    fn dates_in_utc_as_records_write_them() {
        assert_eq!(at(0), "1970.01.01");
        assert_eq!(at(1_795_910_400), "2026.11.29");
        assert_eq!(at(1_795_910_400 + 86_399), "2026.11.29");
        assert_eq!(at(951_782_400), "2000.02.29");
        assert_eq!(at(1_735_603_200), "2024.12.31");
        assert_eq!(at(1_735_603_200 + 86_400), "2025.01.01");
    }
}
