//! What `dara loadtest --seekers` found: how long strangers waited to meet, how many gave up,
//! and what the lobby's onlookers cost the server, as text for people and as one JSON line.

use core::fmt;
use std::collections::BTreeMap;

use serde::Serialize;

use super::Matching;
use crate::loadtest::stats::Percentiles;
use crate::open_files::OpenFiles;

/// The results of one run.
#[derive(Debug, Serialize)]
pub struct Report {
    pub server: String,
    pub nodes: usize,
    pub matching: Matching,
    /// Arrivals a minute, in simulated time.
    pub arrivals_per_minute: f64,
    /// Simulated seconds per real second (1: real time).
    pub time_scale: f64,
    /// Each seeker's patience, simulated.
    pub patience_seconds: f64,
    /// The choices drawn from, with their shares.
    pub mix: Vec<(String, f64)>,
    /// Real seconds of arrivals (the measured window).
    pub seconds: f64,
    /// Real seconds from the first arrival until the last seeker was done.
    pub ran_seconds: f64,

    pub seekers: u64,
    pub paired: u64,
    /// Of the paired, who sat at a table already waiting as they came.
    pub sat_at_once: u64,
    /// Of the paired, who play on a clock they did not ask for.
    pub other_clock: u64,
    pub gave_up: u64,
    pub failed: u64,
    /// Seekers still waiting when the driver stopped (0 unless the drain was cut short).
    pub still_waiting: i64,
    /// Seekers who arrived after the window while the last counted ones waited: not counted.
    pub late_arrivals: u64,
    /// The paired seekers' waits from arrival to meeting someone, in simulated seconds.
    pub wait_seconds: Percentiles,
    /// Of those, the waits of who opened a table and waited there (the other half of each pair
    /// sat down at once).
    pub wait_at_own_table_seconds: Percentiles,

    pub lobby_sockets: usize,
    pub lobby_sockets_open: u64,
    pub lobby_sockets_failed: u64,
    pub lobby_sockets_dropped: u64,
    /// Messages each lobby socket received a second, over the window (one sample a socket).
    pub lobby_messages_per_second: Option<Percentiles>,
    /// Messages in the window, by type, all sockets together.
    pub lobby_message_types: BTreeMap<String, u64>,
    pub lobby_unreadable: u64,

    pub server_pids: Vec<u32>,
    /// The server's CPU over the window, in % of one core.
    pub server_cpu_percent: Option<f64>,
    pub server_rss_kib_before: Option<u64>,
    pub server_rss_kib_with_sockets: Option<u64>,
    pub server_rss_kib_after: Option<u64>,
    /// (resident with the sockets open - before) / sockets open.
    pub server_kib_per_lobby_socket: Option<f64>,
    pub driver_cpu_percent: f64,
    pub open_files: OpenFiles,
    pub sources: usize,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "seekers            {} matching on {} ({} node{}), {:.2} arrivals a minute, patience {:.0} s{}",
            match self.matching {
                Matching::Exact => "exact",
                Matching::Pools => "pools",
            },
            self.server,
            self.nodes,
            if self.nodes == 1 { "" } else { "s" },
            self.arrivals_per_minute,
            self.patience_seconds,
            if (self.time_scale - 1.0).abs() > f64::EPSILON {
                format!(" (simulated: time scaled x{})", self.time_scale)
            } else {
                String::new()
            }
        )?;
        writeln!(
            f,
            "ran                {:.1} s of arrivals counted, {:.1} s until the last of them was done \
             (real time; {} more arrived meanwhile, not counted)",
            self.seconds, self.ran_seconds, self.late_arrivals
        )?;
        let share = |n: u64| 100.0 * n as f64 / self.seekers.max(1) as f64;
        writeln!(
            f,
            "arrived            {}: paired {} ({:.1} %; {} sat at a waiting table, {} on another \
             clock), gave up {} ({:.1} %), failed {}{}",
            self.seekers,
            self.paired,
            share(self.paired),
            self.sat_at_once,
            self.other_clock,
            self.gave_up,
            share(self.gave_up),
            self.failed,
            if self.still_waiting > 0 {
                format!(", still waiting {}", self.still_waiting)
            } else {
                String::new()
            }
        )?;
        let w = &self.wait_seconds;
        if w.samples > 0 {
            writeln!(
                f,
                "wait until paired  p50 {:.1} s, p95 {:.1} s, max {:.1} s ({} seekers)",
                w.p50, w.p95, w.max, w.samples
            )?;
        } else {
            writeln!(f, "wait until paired  nobody was paired")?;
        }
        let w = &self.wait_at_own_table_seconds;
        if w.samples > 0 {
            writeln!(
                f,
                "  at their table   p50 {:.1} s, p95 {:.1} s, max {:.1} s ({} who opened one and were joined)",
                w.p50, w.p95, w.max, w.samples
            )?;
        }
        if self.lobby_sockets > 0 {
            write!(
                f,
                "lobby sockets      {} asked, {} open, {} failed, {} dropped",
                self.lobby_sockets,
                self.lobby_sockets_open,
                self.lobby_sockets_failed,
                self.lobby_sockets_dropped
            )?;
            if let Some(m) = &self.lobby_messages_per_second {
                write!(f, "; messages a second per socket: median {:.2}, max {:.2}", m.p50, m.max)?;
            }
            writeln!(f)?;
            if !self.lobby_message_types.is_empty() || self.lobby_unreadable > 0 {
                let types: Vec<String> =
                    self.lobby_message_types.iter().map(|(t, n)| format!("{t} {n}")).collect();
                writeln!(
                    f,
                    "                   by type: {}{}",
                    types.join(", "),
                    if self.lobby_unreadable > 0 {
                        format!(", unreadable {}", self.lobby_unreadable)
                    } else {
                        String::new()
                    }
                )?;
            }
        }
        if let Some(cpu) = self.server_cpu_percent {
            writeln!(f, "server             CPU {cpu:.1} % of a core over the arrivals")?;
        }
        if let (Some(before), Some(with)) =
            (self.server_rss_kib_before, self.server_rss_kib_with_sockets)
        {
            write!(
                f,
                "                   resident {:.1} MiB before the lobby sockets, {:.1} MiB with them",
                before as f64 / 1024.0,
                with as f64 / 1024.0
            )?;
            if let Some(after) = self.server_rss_kib_after {
                write!(f, ", {:.1} MiB at the end", after as f64 / 1024.0)?;
            }
            if let Some(per) = self.server_kib_per_lobby_socket {
                write!(f, ": {per:.1} KiB per lobby socket")?;
            }
            writeln!(f)?;
        }
        writeln!(
            f,
            "load driver        CPU {:.1} % of a core; open files: soft limit {} (was {}), hard {}{}",
            self.driver_cpu_percent,
            self.open_files.soft,
            self.open_files.soft_before,
            self.open_files.hard,
            if self.sources > 0 {
                format!("; {} source addresses", self.sources)
            } else {
                String::new()
            }
        )
    }
}
