//! The load driver behind `dara loadtest`: games kept in play against a running Arcade over real
//! WebSockets, written from the server's protocol document (`crates/dara-server/PROTOCOL.md`),
//! and what they measure.
//!
//! Games between people (the driver holds both seats) or against the server's computer (the
//! driver holds the pale seat, the computer answers each of its turns).
//!
//! Light by design, so that on a shared machine the server is what runs out first: one task
//! per game holding its seats' sockets, messages read in place from each frame, counters in
//! atomics and the round trips in HDR histograms.

mod game;
mod http;
mod pacer;
mod process;
mod redis;
mod stats;
mod target;
mod wire;

use core::fmt;
use std::collections::BTreeMap;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use dara_table::Opponent;
use serde::Serialize;
use tokio::time::Instant;

use crate::open_files::OpenFiles;
use game::Shared;
use pacer::Pacer;
use process::Process;
use stats::{Percentiles, Stats};
pub use wire::PROTOCOL_VERSION;

/// A load test, in plain values (the command line fills it in).
#[derive(Debug, Clone)]
pub struct Plan {
    /// `http://host:port` of each server: one, or the nodes of a cluster.
    pub servers: Vec<String>,
    /// Whether a server off this machine's loopback may be loaded.
    pub allow_remote: bool,
    /// Games kept in play.
    pub games: usize,
    /// The ruleset text sent with each new game.
    pub rules: String,
    /// Who the games are against: a friend (the driver's second seat) or the computer at a
    /// level. Open tables are not loaded (they are seated through the lobby).
    pub opponent: Opponent,
    /// Turns per second per game; 0: as fast as the server answers.
    pub rate: f64,
    /// The measured window, after the connection ramp and the warm-up.
    pub seconds: f64,
    pub warmup: f64,
    /// Connections opened per second; 0: no pacing.
    pub connect_rate: f64,
    pub seed: u64,
    /// Loopback source addresses to spread the sockets over.
    pub spread_sources: Option<u32>,
    /// The servers' processes (every node's, in a cluster), to measure their CPU time and
    /// memory.
    pub server_pids: Vec<u32>,
    /// A cluster's Redis (`host:port`), to count the commands it ran per turn.
    pub redis: Option<String>,
    /// Its process, to measure its CPU time.
    pub redis_pid: Option<u32>,
    /// Keep-alives only.
    pub idle: bool,
    /// The `protocol` field of `hello`.
    pub protocol: Option<u32>,
}

/// How often a progress line goes to stderr.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// Runs the load test and reports.
///
/// # Errors
/// A server address that is unreadable or not allowed, or a `--server-pid` that cannot be
/// read. Whatever goes wrong in the games is counted in the report, not an error.
pub async fn run(plan: Plan) -> Result<Report> {
    anyhow::ensure!(!plan.servers.is_empty(), "no server to load");
    anyhow::ensure!(
        plan.opponent != Opponent::Open,
        "games at open tables are not loaded: a friend's or the computer's"
    );
    let mut targets = Vec::new();
    for server in &plan.servers {
        targets.push(target::resolve(server, plan.allow_remote).await?);
    }
    let sources = match plan.spread_sources {
        Some(n) => target::spread_sources(&targets[0], n)?,
        None => Vec::new(),
    };
    let open_files =
        crate::open_files::raise_open_files().context("raising the open-files limit")?;
    let seats_per_game = if matches!(plan.opponent, Opponent::Computer(_)) { 1 } else { 2 };
    let sockets = plan.games as u64 * seats_per_game + 64;
    if open_files.soft < sockets {
        eprintln!(
            "loadtest: {} games need about {sockets} open files; this process may open {} (its \
             hard limit): raise it (ulimit -Hn) or expect connection failures",
            plan.games, open_files.soft
        );
    }
    let server = Servers(plan.server_pids.iter().copied().map(Process::Pid).collect());
    let rss_before = server.resident_kib().context("reading the server's memory (--server-pid)")?;
    let redis_process = plan.redis_pid.map(Process::Pid);
    let shared = Arc::new(Shared {
        targets,
        opponent: plan.opponent,
        new_game: wire::new_game(&plan.rules, plan.opponent),
        turn_every: (plan.rate > 0.0).then(|| Duration::from_secs_f64(1.0 / plan.rate)),
        idle: plan.idle,
        protocol: plan.protocol,
        sources,
        seed: plan.seed,
        pacer: Pacer::new(plan.connect_rate),
        stats: Stats::new(),
    });
    let stats = &shared.stats;
    let mut progress = Progress::new(plan.games, shared.against_computer());
    let tasks: Vec<_> = (0..plan.games)
        .map(|slot| tokio::spawn(game::keep_in_play(slot, shared.clone())))
        .collect();

    // The ramp: until every game has been connected once (or failed to).
    while stats.first_attempts.load(Relaxed) < plan.games as u64 {
        tokio::time::sleep(Duration::from_millis(20)).await;
        progress.maybe_print(stats, "connecting");
    }
    let connect_seconds = progress.start.elapsed().as_secs_f64();
    let warm_until = Instant::now() + Duration::from_secs_f64(plan.warmup);
    progress.until(stats, "warm-up", warm_until).await;

    let server_cpu_before = server.cpu_seconds()?;
    let server_wait_before = server.cpu_wait_seconds()?;
    let redis_cpu_before = redis_process.map(Process::cpu_seconds).transpose()?;
    let redis_commands_before = match &plan.redis {
        Some(redis) => Some(redis::commands_processed(redis).await?),
        None => None,
    };
    let driver_cpu_before = Process::Me.cpu_seconds()?;
    let driver_wait_before = Process::Me.cpu_wait_seconds()?;
    let window_start = Instant::now();
    stats.measuring.store(true, Relaxed);
    progress.until(stats, "measuring", window_start + Duration::from_secs_f64(plan.seconds)).await;
    stats.measuring.store(false, Relaxed);
    let window = window_start.elapsed().as_secs_f64();
    let server_cpu = server.cpu_seconds()?.zip(server_cpu_before).map(|(a, b)| a - b);
    let server_wait = server.cpu_wait_seconds()?.zip(server_wait_before).map(|(a, b)| a - b);
    let redis_cpu = match (redis_process, redis_cpu_before) {
        (Some(p), Some(before)) => Some(p.cpu_seconds()? - before),
        _ => None,
    };
    let redis_commands = match (&plan.redis, redis_commands_before) {
        (Some(redis), Some(before)) => Some(redis::commands_processed(redis).await? - before),
        _ => None,
    };
    let driver_cpu = Process::Me.cpu_seconds()? - driver_cpu_before;
    let driver_wait = Process::Me.cpu_wait_seconds()? - driver_wait_before;
    let rss_after = server.resident_kib()?;
    for task in &tasks {
        task.abort();
    }

    let turns = stats.turns.load(Relaxed);
    let created = stats.created.load(Relaxed);
    let (accepted_ms, delivered_ms) = stats.percentiles();
    let per_game = |before: u64, after: u64| (after as f64 - before as f64) / created.max(1) as f64;
    let close_codes = stats.closes.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let refused_statuses = stats.statuses.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let per_turn = |x: f64| (turns > 0).then(|| x / turns as f64);
    let replies = stats.replies.load(Relaxed);
    let against_computer = shared.against_computer();
    Ok(Report {
        server: plan.servers.join(" "),
        nodes: plan.servers.len(),
        games: plan.games,
        rules: plan.rules,
        opponent: plan.opponent,
        level: match plan.opponent {
            Opponent::Computer(level) => Some(level.get()),
            Opponent::Friend | Opponent::Open => None,
        },
        rate: plan.rate,
        idle: plan.idle,
        connect_seconds,
        warmup: plan.warmup,
        seconds: window,
        games_in_play: stats.in_play.load(Relaxed),
        games_created: created,
        games_finished: stats.finished.load(Relaxed),
        turns,
        turns_per_second: turns as f64 / window,
        accepted_ms,
        delivered_ms,
        rejected: stats.rejected.load(Relaxed),
        desynced: stats.desynced.load(Relaxed),
        disconnected: stats.disconnected.load(Relaxed),
        close_codes,
        timed_out: stats.timed_out.load(Relaxed),
        refused: stats.refused.load(Relaxed),
        refused_statuses,
        connect_failed: stats.connect_failed.load(Relaxed),
        protocol_sent: plan.protocol.filter(|_| !stats.protocol_refused.load(Relaxed)),
        sources: shared.sources.len(),
        server_pid: plan.server_pids.first().copied(),
        server_pids: plan.server_pids.clone(),
        server_cpu_seconds: server_cpu,
        server_cpu_percent: server_cpu.map(|c| 100.0 * c / window),
        server_cpu_us_per_turn: server_cpu.and_then(|c| per_turn(c * 1e6)),
        redis_cpu_us_per_turn: redis_cpu.and_then(|c| per_turn(c * 1e6)),
        redis_commands_per_turn: redis_commands.and_then(|c| per_turn(c as f64)),
        server_cpu_wait_seconds: server_wait,
        server_rss_kib_before: rss_before,
        server_rss_kib_after: rss_after,
        server_rss_kib_per_game: rss_before.zip(rss_after).map(|(b, a)| per_game(b, a)),
        driver_cpu_percent: 100.0 * driver_cpu / window,
        driver_cpu_wait_seconds: driver_wait,
        open_files,
        computer_replies: against_computer.then_some(replies),
        computer_replies_per_second: against_computer.then(|| replies as f64 / window),
        reply_ms: against_computer.then(|| stats.reply_percentiles()),
        server_cpu_ms_per_reply: server_cpu
            .filter(|_| against_computer && replies > 0)
            .map(|c| c * 1e3 / replies as f64),
        queue_told: against_computer.then(|| stats.queue_told.load(Relaxed)),
        queue_ahead_max: against_computer.then(|| stats.queue_ahead_max.load(Relaxed)),
    })
}

/// The server processes measured, summed.
struct Servers(Vec<Process>);

impl Servers {
    fn sum<T: std::iter::Sum>(
        &self,
        each: impl Fn(Process) -> std::io::Result<T>,
    ) -> std::io::Result<Option<T>> {
        if self.0.is_empty() {
            return Ok(None);
        }
        let values = self.0.iter().map(|p| each(*p)).collect::<std::io::Result<Vec<T>>>()?;
        Ok(Some(values.into_iter().sum()))
    }

    fn cpu_seconds(&self) -> std::io::Result<Option<f64>> {
        self.sum(Process::cpu_seconds)
    }

    fn cpu_wait_seconds(&self) -> std::io::Result<Option<f64>> {
        self.sum(Process::cpu_wait_seconds)
    }

    fn resident_kib(&self) -> std::io::Result<Option<u64>> {
        self.sum(Process::resident_kib)
    }
}

/// One line on stderr every few seconds.
struct Progress {
    games: usize,
    /// Whether the computer's replies are counted too.
    against_computer: bool,
    start: Instant,
    last: Instant,
    last_turns: u64,
    last_replies: u64,
}

impl Progress {
    fn new(games: usize, against_computer: bool) -> Progress {
        let now = Instant::now();
        Progress { games, against_computer, start: now, last: now, last_turns: 0, last_replies: 0 }
    }

    /// Sleeps until `end`, printing progress lines on the way.
    async fn until(&mut self, stats: &Stats, phase: &str, end: Instant) {
        while Instant::now() < end {
            let next = (self.last + PROGRESS_EVERY).min(end);
            tokio::time::sleep_until(next).await;
            self.maybe_print(stats, phase);
        }
    }

    fn maybe_print(&mut self, stats: &Stats, phase: &str) {
        let now = Instant::now();
        let since = now - self.last;
        if since < PROGRESS_EVERY {
            return;
        }
        let turns = stats.turns_ever.load(Relaxed);
        let rate = (turns - self.last_turns) as f64 / since.as_secs_f64();
        let replies = stats.replies_ever.load(Relaxed);
        let (accepted, delivered) = stats.percentiles();
        let latency = match (accepted.samples > 0, self.against_computer) {
            (false, _) => String::new(),
            (true, false) => format!(
                ", accepted p50 {:.2} p99 {:.2} ms, opponent's move p99 {:.2} ms",
                accepted.p50, accepted.p99, delivered.p99
            ),
            (true, true) => {
                let replied = stats.reply_percentiles();
                format!(
                    ", accepted p50 {:.2} p99 {:.2} ms, the computer's reply p50 {:.0} p99 {:.0} ms",
                    accepted.p50, accepted.p99, replied.p50, replied.p99
                )
            }
        };
        let replies_rate = if self.against_computer {
            format!(
                ", {:.1} computer replies/s",
                (replies - self.last_replies) as f64 / since.as_secs_f64()
            )
        } else {
            String::new()
        };
        eprintln!(
            "[{:5.0} s {phase}] {} of {} games in play, {rate:.0} turns/s{replies_rate}{latency}; {} rejected, \
             {} desynced, {} disconnected, {} refused, {} connect failures",
            (now - self.start).as_secs_f64(),
            stats.in_play.load(Relaxed),
            self.games,
            stats.rejected.load(Relaxed),
            stats.desynced.load(Relaxed),
            stats.disconnected.load(Relaxed),
            stats.refused.load(Relaxed),
            stats.connect_failed.load(Relaxed),
        );
        self.last = now;
        self.last_turns = turns;
        self.last_replies = replies;
    }
}

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
