//! What a load test found, as JSON (`--json`) or as lines for a person.

use core::fmt;
use std::collections::BTreeMap;

use dara_table::Opponent;
use serde::Serialize;

use super::stats::Percentiles;
use crate::open_files::OpenFiles;

/// What a load test found. Turns and round trips are over the measured window; the fault
/// counts over the whole run.
#[derive(Debug, Serialize)]
pub struct Report {
    /// The servers loaded, space-separated.
    pub server: String,
    /// How many (the nodes of a cluster; 1 for one server).
    pub nodes: usize,
    pub games: usize,
    pub rules: String,
    /// `friend` (the driver holds both seats) or `computer` (the driver holds the pale seat).
    pub opponent: Opponent,
    /// The computer's level, against the computer.
    pub level: Option<u8>,
    /// Turns per second per game asked for; 0: unlimited.
    pub rate: f64,
    pub idle: bool,
    /// Seconds until every game had connected once.
    pub connect_seconds: f64,
    pub warmup: f64,
    /// The measured window, in seconds.
    pub seconds: f64,
    /// Games with both seats seated at the end.
    pub games_in_play: i64,
    /// Games the server created for this run (it holds each until it forgets it: 10 minutes
    /// after its end, an hour after everyone has left).
    pub games_created: u64,
    pub games_finished: u64,
    /// Turns `accepted` in the window.
    pub turns: u64,
    pub turns_per_second: f64,
    /// From sending `move` to its `accepted`.
    pub accepted_ms: Percentiles,
    /// From sending `move` to the opponent's socket receiving its `move` event.
    pub delivered_ms: Percentiles,
    /// Legal turns answered `rejected`.
    pub rejected: u64,
    /// Answers or events that made no sense (a version gap, a turn nobody sent, an `error`).
    pub desynced: u64,
    /// Sockets the server closed or dropped.
    pub disconnected: u64,
    /// Of `disconnected`: by WebSocket close code (0: none given, or no close frame).
    pub close_codes: BTreeMap<u16, u64>,
    /// Games silent for 30 s.
    pub timed_out: u64,
    /// `POST /api/games` refused.
    pub refused: u64,
    /// Of `refused`: by HTTP status.
    pub refused_statuses: BTreeMap<u16, u64>,
    /// Connections or WebSocket handshakes that failed.
    pub connect_failed: u64,
    /// The `protocol` field sent in `hello` (none if the server refused it).
    pub protocol_sent: Option<u32>,
    /// Loopback source addresses used (0: the system's choice).
    pub sources: usize,
    /// The first server's process.
    pub server_pid: Option<u32>,
    /// Every server process measured: the CPU and memory figures are their sums.
    pub server_pids: Vec<u32>,
    /// Server CPU time (user + system) in the window.
    pub server_cpu_seconds: Option<f64>,
    /// Of one core.
    pub server_cpu_percent: Option<f64>,
    pub server_cpu_us_per_turn: Option<f64>,
    /// A cluster's Redis: its CPU per accepted turn (with --redis-pid).
    pub redis_cpu_us_per_turn: Option<f64>,
    /// And the commands it ran per accepted turn (with --redis).
    pub redis_commands_per_turn: Option<f64>,
    /// Time the server's threads were ready to run but waited for a CPU, in the window: large,
    /// and other programs (or the load driver) shared its core, so its throughput and round
    /// trips say more about them than about the server.
    pub server_cpu_wait_seconds: Option<f64>,
    /// Server resident memory before the games connected.
    pub server_rss_kib_before: Option<u64>,
    /// And at the end of the window.
    pub server_rss_kib_after: Option<u64>,
    /// The difference divided by `games_created`.
    pub server_rss_kib_per_game: Option<f64>,
    /// This process's CPU in the window, of one core: near 100 the driver, not the server, is
    /// the limit.
    pub driver_cpu_percent: f64,
    /// This process's threads waiting for a CPU in the window.
    pub driver_cpu_wait_seconds: f64,
    pub open_files: OpenFiles,
    /// Against the computer: its moves received in the window.
    pub computer_replies: Option<u64>,
    pub computer_replies_per_second: Option<f64>,
    /// Against the computer: from sending a turn to the computer's `move` event answering it
    /// (the wait for an engine thread, the search, and at levels 1 to 7 the human-looking pause
    /// unless the server has `--instant-computer`).
    pub reply_ms: Option<Percentiles>,
    /// Against the computer: server CPU time in the window per reply (with --server-pid), in
    /// milliseconds; the driver's turns are in it too, a few tens of µs each.
    pub server_cpu_ms_per_reply: Option<f64>,
    /// Against the computer: `queue` messages heard (a search waited for an engine thread).
    pub queue_told: Option<u64>,
    /// And the most searches one said were ahead.
    pub queue_ahead_max: Option<u64>,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rate = if self.rate > 0.0 {
            format!("{} turns/s per game", self.rate)
        } else {
            "turns as fast as the server answers".to_owned()
        };
        let what = if self.idle { "idle (keep-alives only)".to_owned() } else { rate };
        let against = match self.level {
            Some(level) => format!(" against the computer at level {level},"),
            None => String::new(),
        };
        writeln!(
            f,
            "dara loadtest: {} games ({}),{against} {what}, against {}",
            self.games, self.rules, self.server
        )?;
        writeln!(
            f,
            "  connected in {:.1} s, warmed up {} s, measured {:.1} s",
            self.connect_seconds, self.warmup, self.seconds
        )?;
        writeln!(
            f,
            "games in play      {} (created {}, finished {})",
            self.games_in_play, self.games_created, self.games_finished
        )?;
        writeln!(f, "turns accepted     {} ({:.1} a second)", self.turns, self.turns_per_second)?;
        writeln!(f, "move to accepted   {}", self.accepted_ms)?;
        match (self.computer_replies, self.computer_replies_per_second, &self.reply_ms) {
            (Some(replies), Some(per_second), Some(reply_ms)) => {
                writeln!(f, "computer replies   {replies} ({per_second:.2} a second)")?;
                writeln!(f, "move to reply      {reply_ms}")?;
                if let (Some(told), Some(ahead)) = (self.queue_told, self.queue_ahead_max) {
                    writeln!(
                        f,
                        "engine queue       {told} queue messages, at most {ahead} searches ahead"
                    )?;
                }
            }
            _ => writeln!(f, "move to opponent   {}", self.delivered_ms)?,
        }
        let codes: Vec<String> =
            self.close_codes.iter().map(|(c, n)| format!("{c}: {n}")).collect();
        let statuses: Vec<String> =
            self.refused_statuses.iter().map(|(s, n)| format!("{s}: {n}")).collect();
        writeln!(
            f,
            "faults             {} rejected, {} desynced, {} disconnected{}, {} timed out, \
             {} refused{}, {} connect failures",
            self.rejected,
            self.desynced,
            self.disconnected,
            if codes.is_empty() {
                String::new()
            } else {
                format!(" (close codes {})", codes.join(", "))
            },
            self.timed_out,
            self.refused,
            if statuses.is_empty() {
                String::new()
            } else {
                format!(" (status {})", statuses.join(", "))
            },
            self.connect_failed,
        )?;
        if let Some(pid) = self.server_pid {
            if let (Some(cpu), Some(percent)) = (self.server_cpu_seconds, self.server_cpu_percent) {
                let label = match self.nodes {
                    1 => format!("server (pid {pid})"),
                    n => format!("{n} nodes (sum)"),
                };
                write!(
                    f,
                    "{label:<19}CPU {cpu:.2} s in {:.1} s ({percent:.1} % of a core)",
                    self.seconds
                )?;
                if let Some(us) = self.server_cpu_us_per_turn {
                    write!(f, ", {us:.1} µs per accepted turn")?;
                }
                if let Some(ms) = self.server_cpu_ms_per_reply {
                    write!(f, ", {ms:.1} ms per computer reply")?;
                }
                writeln!(f)?;
                if let Some(wait) = self.server_cpu_wait_seconds {
                    writeln!(f, "                   waited {wait:.2} s for a CPU (other programs on its core)")?;
                }
            }
            if let (Some(before), Some(after), Some(per_game)) = (
                self.server_rss_kib_before,
                self.server_rss_kib_after,
                self.server_rss_kib_per_game,
            ) {
                writeln!(
                    f,
                    "                   resident {:.1} MiB before the games, {:.1} MiB after: \
                     {per_game:.1} KiB per game created",
                    before as f64 / 1024.0,
                    after as f64 / 1024.0
                )?;
            }
        }
        if self.redis_cpu_us_per_turn.is_some() || self.redis_commands_per_turn.is_some() {
            write!(f, "redis             ")?;
            if let Some(us) = self.redis_cpu_us_per_turn {
                write!(f, " CPU {us:.1} µs per accepted turn")?;
            }
            if let Some(commands) = self.redis_commands_per_turn {
                write!(f, " {commands:.2} commands per accepted turn")?;
            }
            writeln!(f)?;
        }
        writeln!(
            f,
            "load driver        CPU {:.1} % of a core, waited {:.2} s for a CPU; open files: soft \
             limit {} (was {}), hard {}{}",
            self.driver_cpu_percent,
            self.driver_cpu_wait_seconds,
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
