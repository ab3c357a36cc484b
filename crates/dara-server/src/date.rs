//! The calendar date a game record carries in its `Date` tag (`2026.11.29`, NOTATION.md
//! "Games"): the day, in UTC, that the game began.

use std::time::SystemTime;

use time::OffsetDateTime;

/// `moment` as a record's date, `YYYY.MM.DD` in UTC.
pub fn record_date(moment: SystemTime) -> String {
    let date = OffsetDateTime::from(moment).date();
    format!("{:04}.{:02}.{:02}", date.year(), u8::from(date.month()), date.day())
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

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
