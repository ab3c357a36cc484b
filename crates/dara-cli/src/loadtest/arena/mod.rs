//! `dara loadtest --arena`: arenas full of players. K private arenas are made at once, N
//! players join them (N/K each, each with its own token and name, from the loopback addresses
//! in turn), each holds the arena's socket as its page does and plays every game it is paired
//! in with quick random legal turns; a share of them pause now and then after a game and come
//! back a while later. It measures the delay from a game's end (the `end` on the game socket)
//! to the player's next game appearing on the arena socket, turns a second, the standings each
//! socket is sent (a second, and the shortest time between two), and with `--server-pid` the
//! server's CPU and its memory per player.
//!
//! The window opens once every player has joined and a warm-up has passed (the first games
//! are all paired at once; the window sees the arenas in their stride), and every arena runs
//! past its end.

mod player;
mod report;
mod requests;
mod tally;
mod waiting_room;

use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context, Result};
use dara_table::clock::TimeControl;
use hdrhistogram::Histogram;
use tokio::time::Instant;

use self::waiting_room::WaitingRoom;
use super::game::seat::connect;
use super::http::{exchange, Request};
use super::pacer::Pacer;
use super::process::{Process, Servers};
use super::stats::{histogram, Percentiles};
use super::target;
use player::{Club, Player};
pub use report::Report;
use requests::Made;
use tally::Tally;

/// A run, in plain values (the command line fills it in).
#[derive(Debug, Clone)]
pub struct Plan {
    pub server: String,
    pub allow_remote: bool,
    pub players: usize,
    pub arenas: usize,
    pub rules: String,
    pub clock: TimeControl,
    /// The measured window.
    pub duration: Duration,
    /// Played before the window opens, once every player has joined.
    pub warmup: Duration,
    /// The mean pause before each turn.
    pub think: Duration,
    /// The share of players who pause now and then.
    pub pause_share: f64,
    /// How long a pause lasts, on average.
    pub pause: Duration,
    pub connect_rate: f64,
    pub seed: u64,
    pub spread_sources: Option<u32>,
    pub server_pid: Option<u32>,
    pub protocol: Option<u32>,
}

/// Between two progress lines on stderr.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);
/// Every arena runs this much past the window, so none ends inside it.
const ARENA_SLACK: Duration = Duration::from_secs(60);

/// Runs the arenas and reports.
///
/// # Errors
/// A server address that is unreadable or not allowed, a `--server-pid` that cannot be read,
/// or an arena the server would not make. Whatever goes wrong for a player is counted in the
/// report, not an error.
pub async fn run(plan: Plan) -> Result<Report> {
    anyhow::ensure!(
        plan.arenas > 0 && plan.players >= 2 * plan.arenas,
        "two players an arena at least"
    );
    let target = target::resolve(&plan.server, plan.allow_remote).await?;
    let sources = match plan.spread_sources {
        Some(n) => target::spread_sources(&target, n)?,
        None => Vec::new(),
    };
    let open_files =
        crate::open_files::raise_open_files().context("raising the open-files limit")?;
    let needed = 2 * plan.players as u64 + 256;
    if open_files.soft < needed {
        eprintln!(
            "loadtest: {} players need about {needed} open files; this process may open {} (its \
             hard limit): raise it (ulimit -Hn) or expect connection failures",
            plan.players, open_files.soft
        );
    }
    let server = Servers(plan.server_pid.into_iter().map(Process::Pid).collect());
    let rss_before = server.resident_kib().context("reading the server's memory (--server-pid)")?;
    let club = Arc::new(Club {
        target,
        sources,
        pacer: Pacer::new(plan.connect_rate),
        think: plan.think,
        pause: plan.pause,
        protocol: plan.protocol,
        tally: Tally::new(),
        received: (0..plan.players).map(|_| AtomicU64::new(0)).collect(),
    });
    let tally = &club.tally;
    let start = Instant::now();

    // The arenas: long enough to outlast the ramp, the warm-up and the window.
    let ramp_allowance =
        Duration::from_secs_f64(plan.players as f64 / plan.connect_rate.max(1.0) * 3.0 + 30.0);
    let length = ramp_allowance + plan.warmup + plan.duration + ARENA_SLACK;
    let minutes = length.as_secs().div_ceil(60);
    let now_ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
    let body = requests::new_arena(&plan.rules, plan.clock, minutes, now_ms);
    let mut arenas = Vec::with_capacity(plan.arenas);
    for i in 0..plan.arenas {
        let source = (!club.sources.is_empty()).then(|| club.sources[i % club.sources.len()]);
        arenas.push(
            make_arena(&club, source, &body)
                .await
                .with_context(|| format!("making arena {}", i + 1))?,
        );
    }

    let rooms: Vec<Arc<WaitingRoom>> = (0..plan.arenas).map(|_| Arc::default()).collect();
    let pausers = (plan.pause_share * plan.players as f64).round() as usize;
    let tasks: Vec<_> = (0..plan.players)
        .map(|index| {
            let me = Player {
                index,
                arena: arenas[index % plan.arenas].clone(),
                room: rooms[index % plan.arenas].clone(),
                pauses: pauses(index, plan.players, plan.arenas, pausers),
                seed: plan.seed,
            };
            tokio::spawn(player::play(club.clone(), me))
        })
        .collect();
    let mut told = Instant::now();
    while tally.attempted.load(Relaxed) < plan.players as u64 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        if told.elapsed() >= PROGRESS_EVERY {
            told = Instant::now();
            progress(start, tally, "joining");
        }
    }
    let ramp_seconds = start.elapsed().as_secs_f64();
    let warm_until = Instant::now() + plan.warmup;
    sleep_until(warm_until, start, &mut told, tally, "warm-up").await;

    let server_cpu_before = server.cpu_seconds()?;
    let driver_cpu_before = Process::Me.cpu_seconds()?;
    let window_start = Instant::now();
    tally.measuring.store(true, Relaxed);
    sleep_until(window_start + plan.duration, start, &mut told, tally, "measuring").await;
    tally.measuring.store(false, Relaxed);
    let window = window_start.elapsed().as_secs_f64();
    let server_cpu = server.cpu_seconds()?.zip(server_cpu_before).map(|(a, b)| a - b);
    let driver_cpu = Process::Me.cpu_seconds()? - driver_cpu_before;
    let rss_after = server.resident_kib()?;
    for task in &tasks {
        task.abort();
    }

    let joined = tally.joined.load(Relaxed);
    let mut per_socket: Histogram<u64> = histogram();
    for n in &club.received {
        per_socket.saturating_record(n.load(Relaxed));
    }
    let turns = tally.turns.load(Relaxed);
    let messages = tally.messages.load(Relaxed);
    let shortest_gap = tally.shortest_gap_us.load(Relaxed);
    Ok(Report {
        server: plan.server,
        arenas: plan.arenas,
        players: plan.players,
        rules: plan.rules,
        clock: plan.clock.label(),
        think_ms: plan.think.as_millis() as u64,
        pause_share: plan.pause_share,
        pause_seconds: plan.pause.as_secs_f64(),
        ramp_seconds,
        warmup_seconds: plan.warmup.as_secs_f64(),
        seconds: window,
        joined,
        pairings: tally.pairings.load(Relaxed),
        pairing_delay_seconds: tally.after_end(),
        pairing_delay_with_another_seconds: tally.after_end_with_another(),
        pairing_after_resume_seconds: tally.after_resume(),
        paired_before_end_seen: tally.paired_before_end_seen.load(Relaxed),
        games_ended: tally.games_ended.load(Relaxed),
        turns,
        turns_per_second: turns as f64 / window,
        pauses: tally.pauses.load(Relaxed),
        resumes: tally.resumes.load(Relaxed),
        standings_per_second: Percentiles::scaled(&per_socket, window),
        standings_bytes_mean: (messages > 0)
            .then(|| tally.message_bytes.load(Relaxed) as f64 / messages as f64),
        standings_shortest_gap_ms: (shortest_gap != u64::MAX).then(|| shortest_gap as f64 / 1e3),
        errors: tally.errors(),
        join_failed: tally.join_failed.load(Relaxed),
        socket_failed: tally.socket_failed.load(Relaxed),
        game_socket_failed: tally.game_socket_failed.load(Relaxed),
        dropped: tally.dropped.load(Relaxed),
        request_failed: tally.request_failed.load(Relaxed),
        confused: tally.confused.load(Relaxed),
        server_pid: plan.server_pid,
        server_cpu_percent: server_cpu.map(|c| 100.0 * c / window),
        server_rss_kib_before: rss_before,
        server_rss_kib_after: rss_after,
        server_kib_per_player: rss_before
            .zip(rss_after)
            .filter(|_| joined > 0)
            .map(|(b, a)| (a as f64 - b as f64) / joined as f64),
        driver_cpu_percent: 100.0 * driver_cpu / window,
        load_average: load_average(),
        open_files,
        sources: club.sources.len(),
    })
}

/// Whether player `index` (of `players`, in arena `index % arenas`) is one of the `pausers`:
/// spread evenly over the arenas, and within each over its players, as if the players were
/// counted arena by arena.
fn pauses(index: usize, players: usize, arenas: usize, pausers: usize) -> bool {
    let per_arena = players.div_ceil(arenas.max(1));
    let counted = index % arenas.max(1) * per_arena + index / arenas.max(1);
    let places = per_arena * arenas.max(1);
    counted * pausers / places != (counted + 1) * pausers / places
}

/// One private arena, starting at once: its id.
async fn make_arena(club: &Club, source: Option<IpAddr>, body: &str) -> Result<String> {
    let stream = connect(&club.pacer, &club.target, source).await?;
    let answer = exchange(stream, &club.target.authority, Request::Post("/api/arenas", body)).await;
    let answer = match answer {
        Ok(answer) => answer,
        Err(e) => bail!("{e:?}"),
    };
    match answer.read::<Made>(201) {
        Ok(made) => Ok(made.arena),
        Err(e) => bail!(
            "{e:?} (a server's private arenas per address are few: start it with a large \
             --arenas-per-address, or give --spread-sources)"
        ),
    }
}

/// The machine's load average over the last minute, from /proc.
fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg").ok()?.split_whitespace().next()?.parse().ok()
}

/// Sleeps until `at`, with a progress line on stderr every [`PROGRESS_EVERY`].
async fn sleep_until(at: Instant, start: Instant, told: &mut Instant, tally: &Tally, what: &str) {
    while Instant::now() < at {
        tokio::time::sleep_until(at.min(*told + PROGRESS_EVERY)).await;
        if told.elapsed() >= PROGRESS_EVERY {
            *told = Instant::now();
            progress(start, tally, what);
        }
    }
}

fn progress(start: Instant, tally: &Tally, what: &str) {
    eprintln!(
        "loadtest: {:>6.0} s  {what}: joined {}, turns {}, pairings {}, errors {}",
        start.elapsed().as_secs_f64(),
        tally.joined.load(Relaxed),
        tally.turns_ever.load(Relaxed),
        tally.pairings.load(Relaxed),
        tally.errors()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pausers_are_spread_over_the_arenas() {
        let count = |players: usize, arenas: usize, pausers: usize| {
            let mut by_arena = vec![0; arenas];
            for index in 0..players {
                if pauses(index, players, arenas, pausers) {
                    by_arena[index % arenas] += 1;
                }
            }
            by_arena
        };
        // One in ten of 1 000 players in 100 arenas: one in each (not all of ten arenas).
        assert_eq!(count(1000, 100, 100), vec![1; 100]);
        assert_eq!(count(1000, 1, 100), vec![100]);
        assert_eq!(count(1000, 100, 0), vec![0; 100]);
        assert_eq!(count(1000, 10, 1000), vec![100; 10]);
    }
}
