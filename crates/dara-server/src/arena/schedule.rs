//! The server's own arenas: when they start, at what clock and for how long, in the operator's
//! words (`dara serve --arenas`). The issue's schedule is the default: a 30-minute arena every
//! hour at 3+2, and a longer 10+5 one in the evening, West Africa Time (UTC+1).

use core::fmt;
use core::str::FromStr;
use std::time::Duration;

use dara_arena::WallTime;
use dara_table::clock::TimeControl;

/// The default schedule, as the operator would write it.
pub const DEFAULT_SCHEDULE: &str = "hourly:00 3+2 30m, daily:20:00 10+5 90m";

/// The default time zone of a schedule: West Africa Time, UTC+1, in minutes east of UTC.
pub const DEFAULT_UTC_OFFSET_MINUTES: i32 = 60;

const MINUTE: u64 = 60_000;
const HOUR: u64 = 60 * MINUTE;
const DAY: u64 = 24 * HOUR;

/// When the server makes arenas.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Schedule {
    /// Each kind of arena.
    pub entries: Vec<Entry>,
    /// The time zone the entries' times are in, minutes east of UTC.
    pub utc_offset_minutes: i32,
}

/// One kind of arena in a schedule: `hourly:MM CLOCK LENGTH` or `daily:HH:MM CLOCK LENGTH`,
/// the clock as players say it (`3+2`: minutes and seconds added a move), the length in
/// minutes (`30m`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// How often, and when.
    pub every: Every,
    /// The games' clock.
    pub clock: TimeControl,
    /// How long each runs.
    pub length: Duration,
}

/// How often an entry's arenas start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Every {
    /// Every hour, at this minute.
    Hour {
        /// 0 to 59.
        minute: u32,
    },
    /// Every day, at this time.
    Day {
        /// 0 to 23.
        hour: u32,
        /// 0 to 59.
        minute: u32,
    },
}

impl Every {
    /// The period and the start's place in it, in milliseconds of local time.
    fn period_and_phase(self) -> (u64, u64) {
        match self {
            Every::Hour { minute } => (HOUR, u64::from(minute) * MINUTE),
            Every::Day { hour, minute } => {
                (DAY, u64::from(hour) * HOUR + u64::from(minute) * MINUTE)
            }
        }
    }
}

impl Schedule {
    /// The issue's schedule.
    pub fn issue_default() -> Schedule {
        let mut schedule: Schedule = DEFAULT_SCHEDULE.parse().expect("the default schedule reads");
        schedule.utc_offset_minutes = DEFAULT_UTC_OFFSET_MINUTES;
        schedule
    }

    /// Every arena the schedule starts in `[from, to)`: its entry's place in the list, and its
    /// start, oldest first.
    pub fn starts_between(&self, from: WallTime, to: WallTime) -> Vec<(usize, WallTime)> {
        let offset = i64::from(self.utc_offset_minutes) * 60_000;
        let mut starts = Vec::new();
        for (n, entry) in self.entries.iter().enumerate() {
            let (period, phase) = entry.every.period_and_phase();
            // A local time of `phase` is UTC `phase - offset`, taken round into the period.
            let phase =
                (i64::try_from(phase).unwrap_or(0) - offset).rem_euclid(period as i64) as u64;
            let first = from.as_millis().saturating_sub(phase).div_ceil(period) * period + phase;
            let mut at = first;
            while at < to.as_millis() {
                starts.push((n, WallTime::from_millis(at)));
                at += period;
            }
        }
        starts.sort_by_key(|&(n, at)| (at, n));
        starts
    }
}

/// A schedule that does not read, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduleError(String);

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScheduleError {}

fn bad(what: &str, text: &str) -> ScheduleError {
    ScheduleError(format!("{what}: `{text}`"))
}

impl FromStr for Schedule {
    type Err = ScheduleError;

    /// Entries separated by commas (none: no arenas); the time zone is set apart.
    fn from_str(text: &str) -> Result<Schedule, ScheduleError> {
        let entries = text
            .split(',')
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .map(str::parse)
            .collect::<Result<_, _>>()?;
        Ok(Schedule { entries, utc_offset_minutes: 0 })
    }
}

impl FromStr for Entry {
    type Err = ScheduleError;

    fn from_str(text: &str) -> Result<Entry, ScheduleError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let [when, clock, length] = words[..] else {
            return Err(bad("an arena is `hourly:MM CLOCK LENGTH` or `daily:HH:MM ...`", text));
        };
        let every = match when.split(':').collect::<Vec<_>>()[..] {
            ["hourly", m] => Every::Hour { minute: number(m, 59, text)? },
            ["daily", h, m] => {
                Every::Day { hour: number(h, 23, text)?, minute: number(m, 59, text)? }
            }
            _ => return Err(bad("when is `hourly:MM` or `daily:HH:MM`", text)),
        };
        let clock = time_control(clock).ok_or_else(|| bad("a clock is like `3+2`", text))?;
        let minutes = length
            .strip_suffix('m')
            .and_then(|m| m.parse::<u64>().ok())
            .filter(|m| (1..=24 * 60).contains(m))
            .ok_or_else(|| bad("a length is minutes, like `30m`", text))?;
        Ok(Entry { every, clock, length: Duration::from_secs(minutes * 60) })
    }
}

fn number(text: &str, max: u32, entry: &str) -> Result<u32, ScheduleError> {
    text.parse().ok().filter(|n| *n <= max).ok_or_else(|| bad("a time out of range", entry))
}

/// The clock players write `M+S` (minutes, then seconds added a move), as the site offers it.
pub fn time_control(text: &str) -> Option<TimeControl> {
    let (minutes, increment) = text.split_once('+')?;
    let control = TimeControl {
        initial: minutes.parse::<u32>().ok()?.checked_mul(60)?,
        increment: increment.parse().ok()?,
    };
    control.is_reasonable().then_some(control)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_reads() {
        let schedule = Schedule::issue_default();
        assert_eq!(schedule.entries.len(), 2);
        assert_eq!(schedule.entries[0].clock, TimeControl { initial: 180, increment: 2 });
        assert_eq!(schedule.entries[1].every, Every::Day { hour: 20, minute: 0 });
        assert_eq!(schedule.entries[1].length, Duration::from_secs(90 * 60));
    }

    #[test]
    fn a_bad_schedule_says_why() {
        assert!("weekly:1 3+2 30m".parse::<Schedule>().is_err());
        assert!("hourly:60 3+2 30m".parse::<Schedule>().is_err());
        assert!("hourly:00 3-2 30m".parse::<Schedule>().is_err());
        assert!("hourly:00 3+2 30".parse::<Schedule>().is_err());
        assert_eq!("".parse::<Schedule>().unwrap().entries, vec![]);
    }

    #[test]
    fn starts_are_in_the_schedule_s_time_zone() {
        let schedule = Schedule::issue_default();
        // 2026-12-05 18:10 UTC is 19:10 in Lagos.
        let now = WallTime::from_millis(1_796_494_200_000);
        let starts = schedule.starts_between(now, now + Duration::from_secs(2 * 3600));
        let hourly: Vec<u64> = starts
            .iter()
            .filter(|(n, _)| *n == 0)
            .map(|(_, at)| at.as_millis() % DAY / MINUTE)
            .collect();
        // 19:00 and 20:00 UTC: 20:00 and 21:00 in Lagos.
        assert_eq!(hourly, vec![19 * 60, 20 * 60]);
        let evening: Vec<u64> = starts
            .iter()
            .filter(|(n, _)| *n == 1)
            .map(|(_, at)| at.as_millis() % DAY / MINUTE)
            .collect();
        // 20:00 in Lagos is 19:00 UTC.
        assert_eq!(evening, vec![19 * 60]);
    }
}
