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

pub mod arena;
mod game;
mod http;
mod pacer;
mod process;
mod progress;
mod redis;
mod report;
pub mod seekers;
mod stats;
mod target;
mod wire;

use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use dara_table::Opponent;
use tokio::time::Instant;

use game::Shared;
use pacer::Pacer;
use process::{Process, Servers};
use progress::Progress;
use report::Report;
use stats::Stats;
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
