//! `dara loadtest --seekers`: strangers meeting in the lobby. Seekers arrive at random (a
//! Poisson process at `--arrivals-per-minute`), each wanting a game with rules and a clock drawn
//! from a mix, and either meet someone or give up after their patience; meanwhile N more
//! sockets sit on the lobby as visitors of the home page do, counting what it sends them. It
//! measures the wait until paired, how many gave up, and what the lobby's messages cost the
//! server (CPU over the window, memory per lobby socket).
//!
//! Only the seekers who arrive within `--duration` are counted; arrivals go on, uncounted,
//! until the last of them is done, so that they meet the same crowd as the first. The first
//! find an empty lobby, as on a site just started.
//!
//! Real time by default. `--time-scale K` runs K times faster (arrivals K times as often,
//! patience K times shorter, waits multiplied back by K): the pairing depends only on the order
//! of arrivals and on patience, as the server's own time limits (a table unjoined for 10
//! minutes, the 30 s for a first move) lie beyond a seeker's patience or after it has met
//! someone; only the server's answer times (milliseconds) are stretched K times.

mod arrivals;
mod listeners;
mod mix;
mod report;
mod requests;
mod seeker;
mod tally;

use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde::Serialize;
use tokio::time::Instant;

use super::pacer::Pacer;
use super::process::{Process, Servers};
use super::target;
use arrivals::Arrivals;
use listeners::{Listeners, Phase};
pub use mix::{clock, Mix, Weighted};
pub use report::Report;
use seeker::{Lobby, Seeker};
use tally::Tally;

/// How seekers find each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Matching {
    /// The lobby before pools: sit at a listed table with exactly the same rules and clock
    /// (`GET /api/tables`, `POST /api/tables/<id>/sit`), else open one's own and wait there.
    Exact,
    /// "Play anyone" (`POST /api/seek`): the longest-waiting table with the same rules,
    /// whatever its clock, else one's own.
    Pools,
}

/// A run, in plain values (the command line fills it in).
#[derive(Debug, Clone)]
pub struct Plan {
    pub servers: Vec<String>,
    pub allow_remote: bool,
    pub matching: Matching,
    /// Simulated arrivals a minute.
    pub arrivals_per_minute: f64,
    /// Simulated seconds per real second.
    pub time_scale: f64,
    /// Real time during which seekers arrive.
    pub duration: Duration,
    /// Simulated.
    pub patience: Duration,
    pub mix: Mix,
    pub lobby_sockets: usize,
    pub connect_rate: f64,
    pub seed: u64,
    pub spread_sources: Option<u32>,
    pub server_pids: Vec<u32>,
}

/// Once the lobby sockets are open, before measuring their memory: the server's allocator
/// settles, the first lists are sent.
const SETTLE: Duration = Duration::from_secs(3);
/// Beyond the last seeker's patience, the most the driver waits for it to be done.
const DRAIN_SLACK: Duration = Duration::from_secs(15);
/// Told apart from the arrivals' seed for the choices' generator (any constant does).
const CHOICES_STREAM: u64 = 0x9E37_79B9_7F4A_7C15;
/// Between two progress lines on stderr.
const PROGRESS_EVERY: Duration = Duration::from_secs(30);

/// Runs the seekers and reports.
///
/// # Errors
/// A server address that is unreadable or not allowed, or a `--server-pid` that cannot be read.
/// Whatever goes wrong for a seeker is counted in the report, not an error.
pub async fn run(plan: Plan) -> Result<Report> {
    anyhow::ensure!(!plan.servers.is_empty(), "no server to load");
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
    // The lobby sockets, the seekers waiting at once (a few hundred at most), and some spare.
    let needed = plan.lobby_sockets as u64 + 1024;
    if open_files.soft < needed {
        eprintln!(
            "loadtest: {} lobby sockets need about {needed} open files; this process may open {} \
             (its hard limit): raise it (ulimit -Hn) or expect connection failures",
            plan.lobby_sockets, open_files.soft
        );
    }
    let server = Servers(plan.server_pids.iter().copied().map(Process::Pid).collect());
    let rss_before = server.resident_kib().context("reading the server's memory (--server-pid)")?;

    let pacer = Arc::new(Pacer::new(plan.connect_rate));
    let listeners = Arc::new(Listeners::new());
    let started = Instant::now();
    let listener_tasks: Vec<_> = (0..plan.lobby_sockets)
        .map(|i| {
            let target = targets[i % targets.len()].clone();
            let source = (!sources.is_empty()).then(|| sources[i % sources.len()]);
            tokio::spawn(listeners::listen(listeners.clone(), pacer.clone(), target, source))
        })
        .collect();
    let mut told = Instant::now();
    while listeners.attempted.load(Relaxed) < plan.lobby_sockets as u64 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        if told.elapsed() >= Duration::from_secs(5) {
            told = Instant::now();
            eprintln!(
                "loadtest: {:>5.1} s  lobby sockets: {} open, {} failed",
                started.elapsed().as_secs_f64(),
                listeners.open.load(Relaxed),
                listeners.failed.load(Relaxed)
            );
        }
    }
    if plan.lobby_sockets > 0 {
        tokio::time::sleep(SETTLE).await;
    }
    let rss_with_sockets = server.resident_kib()?;
    let sockets_open = listeners.open.load(Relaxed);

    let lobby = Arc::new(Lobby {
        targets,
        sources,
        matching: plan.matching,
        patience: plan.patience.div_f64(plan.time_scale),
        time_scale: plan.time_scale,
        pacer: Pacer::new(plan.connect_rate),
        tally: Tally::new(),
        late: Tally::new(),
    });
    let tally = &lobby.tally;
    let real_per_second = plan.arrivals_per_minute / 60.0 * plan.time_scale;
    // The choices' generator apart from the arrivals' (both from the seed): from the same seed
    // they would draw one stream, each seeker's choice tied to some arrival's gap.
    let mut rng = SmallRng::seed_from_u64(plan.seed ^ CHOICES_STREAM);

    let server_cpu_before = server.cpu_seconds()?;
    let driver_cpu_before = Process::Me.cpu_seconds()?;
    listeners.enter(Phase::Measuring);
    let start = Instant::now();
    let end = start + plan.duration;
    let mut told = start;
    let mut arrivals = Arrivals::new(real_per_second, plan.seed)
        .enumerate()
        .map(|(index, offset)| (index, start + offset))
        .peekable();
    let mut arrive = |index: usize, at: Instant, counted: bool| {
        let seeker = Seeker {
            index,
            choice: plan.mix.draw(&mut rng),
            browser: requests::browser(&mut rng),
            arrived: at,
            counted,
        };
        let lobby = lobby.clone();
        tokio::spawn(async move { seeker::visit(&lobby, seeker).await });
    };
    while let Some(&(index, at)) = arrivals.peek() {
        if at >= end {
            break;
        }
        sleep_until(at, start, &mut told, tally).await;
        arrivals.next();
        arrive(index, at, true);
    }
    sleep_until(end, start, &mut told, tally).await;
    listeners.enter(Phase::After);
    let window = start.elapsed().as_secs_f64();
    let server_cpu = server.cpu_seconds()?.zip(server_cpu_before).map(|(a, b)| a - b);
    let driver_cpu = Process::Me.cpu_seconds()? - driver_cpu_before;

    // The last seekers wait out their patience, and people go on arriving meanwhile (not
    // counted): had the crowd stopped with the window, those who came near its end would meet
    // nobody and give up more often than anyone does on a site that stays open.
    let drain_until = Instant::now() + lobby.patience + DRAIN_SLACK;
    while tally.waiting.load(Relaxed) > 0 && Instant::now() < drain_until {
        let &(index, at) = arrivals.peek().expect("arrivals never end");
        let step = at.min(Instant::now() + Duration::from_millis(200)).min(drain_until);
        sleep_until(step, start, &mut told, tally).await;
        if Instant::now() >= at {
            arrivals.next();
            arrive(index, at, false);
        }
    }
    let ran = start.elapsed().as_secs_f64();
    // Each socket records its count as the window closes; give them a moment.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_after = server.resident_kib()?;
    for task in &listener_tasks {
        task.abort();
    }

    let per_socket = rss_before
        .zip(rss_with_sockets)
        .filter(|_| sockets_open > 0)
        .map(|(b, w)| (w as f64 - b as f64) / sockets_open as f64);
    Ok(Report {
        server: plan.servers.join(" "),
        nodes: plan.servers.len(),
        matching: plan.matching,
        arrivals_per_minute: plan.arrivals_per_minute,
        time_scale: plan.time_scale,
        patience_seconds: plan.patience.as_secs_f64(),
        mix: plan.mix.shares().map(|(c, s)| (c.to_string(), s)).collect(),
        seconds: window,
        ran_seconds: ran,
        seekers: tally.arrived.load(Relaxed),
        paired: tally.paired.load(Relaxed),
        sat_at_once: tally.sat_at_once.load(Relaxed),
        other_clock: tally.other_clock.load(Relaxed),
        gave_up: tally.gave_up.load(Relaxed),
        failed: tally.failed.load(Relaxed),
        still_waiting: tally.waiting.load(Relaxed),
        late_arrivals: lobby.late.arrived.load(Relaxed),
        wait_seconds: tally.waits(),
        wait_at_own_table_seconds: tally.waits_at_own_table(),
        lobby_sockets: plan.lobby_sockets,
        lobby_sockets_open: sockets_open,
        lobby_sockets_failed: listeners.failed.load(Relaxed),
        lobby_sockets_dropped: listeners.dropped.load(Relaxed),
        lobby_messages_per_second: (plan.lobby_sockets > 0).then(|| listeners.per_second(window)),
        lobby_message_types: listeners.types(),
        lobby_unreadable: listeners.unreadable.load(Relaxed),
        server_pids: plan.server_pids,
        server_cpu_percent: server_cpu.map(|c| 100.0 * c / window),
        server_rss_kib_before: rss_before,
        server_rss_kib_with_sockets: rss_with_sockets,
        server_rss_kib_after: rss_after,
        server_kib_per_lobby_socket: per_socket,
        driver_cpu_percent: 100.0 * driver_cpu / window,
        open_files,
        sources: lobby.sources.len(),
    })
}

/// Sleeps until `at`, with a progress line on stderr every [`PROGRESS_EVERY`].
async fn sleep_until(at: Instant, start: Instant, told: &mut Instant, tally: &Tally) {
    while Instant::now() < at {
        tokio::time::sleep_until(at.min(*told + PROGRESS_EVERY)).await;
        if told.elapsed() >= PROGRESS_EVERY {
            *told = Instant::now();
            progress(start, tally);
        }
    }
}

fn progress(start: Instant, tally: &Tally) {
    eprintln!(
        "loadtest: {:>6.0} s  arrived {}, paired {}, gave up {}, failed {}, waiting {}",
        start.elapsed().as_secs_f64(),
        tally.arrived.load(Relaxed),
        tally.paired.load(Relaxed),
        tally.gave_up.load(Relaxed),
        tally.failed.load(Relaxed),
        tally.waiting.load(Relaxed)
    );
}
