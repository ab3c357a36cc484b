//! `dara loadtest`: games kept in play against a running Arcade, over real WebSockets.

use anyhow::{ensure, Context, Result};
use clap::{Parser, ValueEnum};
use dara::Ruleset;
use dara_engine::level::Level;
use dara_table::clock::TimeControl;
use dara_table::Opponent;

use std::time::Duration;

use crate::loadtest::seekers::{self, Matching, Mix, Weighted};
use crate::loadtest::{self, arena, Plan};

/// Load a running Arcade (`dara serve`) with games played over real WebSockets, and measure it.
///
/// Each game is asked for with `POST /api/games` (a game against a friend); its creator's socket
/// says hello with the seat, a second socket takes the free seat with `join`, and each seat plays
/// a random legal turn (from the server's own list) when it is its side to move. A game that ends
/// is replaced by a new one. After the games have connected and warmed up, it measures for
/// `--seconds`: games in play, turns accepted per second, the round trip of a turn to its
/// `accepted` and to the opponent's `move` event (p50/p95/p99/max), and what went wrong. With
/// `--server-pid` also the server's CPU time per turn and its memory per game.
///
/// With `--opponent computer` each game is against the server's computer at `--level`: the
/// driver holds the pale stones (which move first) on one socket and plays its random turns,
/// and the computer answers each one. It then also measures the computer's replies per second,
/// the time from a turn to the computer's reply (p50/p95/p99/max), and with `--server-pid` the
/// server's CPU time per reply: the capacity of a node's engine, e.g.
///
///     dara loadtest --opponent computer --level 8 --games 20 --rate 0 --server-pid $!
///
/// The server limits games per client address (20): start it with a large
/// `--games-per-address` for a load test, e.g.
///
///     taskset -c 0 dara serve --listen 127.0.0.1:8080 --games-per-address 100000 &
///     taskset -c 1 dara loadtest --games 1000 --rate 1 --server-pid $!
///
/// Only a server on this machine (127.0.0.0/8, ::1, localhost) is loaded unless
/// `--allow-remote` is given.
///
/// With `--seekers`, strangers meeting in the lobby instead: seekers arrive at random (a
/// Poisson process at `--arrivals-per-minute`), each wanting the rules and clock drawn from
/// `--mix`, and take a seat as `--matching` says: `exact`, the lobby before "Play anyone" (a
/// listed table with exactly the same rules and clock, else a table of their own), or `pools`,
/// "Play anyone" (`POST /api/seek`: the longest-waiting table with the same rules whatever its
/// clock, else their own). A seeker at its own table holds its game socket until someone sits
/// down (then it calls the game off at once: the wait is measured, not the game) or its
/// `--patience` runs out (then it calls the table off). Meanwhile `--lobby-sockets N` sockets
/// sit on `GET /ws/lobby` counting every message they are sent, whatever its type. The seekers
/// arriving within `--duration` are counted; arrivals go on, uncounted, until the last of them
/// has met someone or given up. It reports the wait until paired (p50, p95, max), how many gave
/// up, the lobby's messages a second per socket (median, max), and with `--server-pid` the
/// server's CPU and its memory per lobby socket. Real time unless `--time-scale`, e.g.
///
///     dara serve --listen 127.0.0.1:8080 --memory-only --connections-per-address 100000 \
///         --games-per-address 100000 --seats-per-address 100000 &
///     dara loadtest --seekers --matching exact --arrivals-per-minute 10 --duration 20m \
///         --spread-sources 64 --server-pid $!
///     dara loadtest --seekers --lobby-sockets 10000 --arrivals-per-minute 600 --duration 60s \
///         --spread-sources 64 --server-pid $!
///
/// With `--arena`, arenas full of players instead: `--arenas K` private arenas made at once
/// (`POST /api/arenas`, starting now), `--players N` joining them (N/K each, each with its own
/// token and name), each holding its arena socket as the page does and playing every game it
/// is paired in with a random legal turn `--think` after each of the opponent's; `--pause-share`
/// of them pause after some games for about `--pause` and come back. After every player has
/// joined and `--warmup` has passed, it measures for `--duration`: the delay from a game's end
/// (on the game socket) to the player's next game (on the arena socket), p50/p95/p99/max, turns
/// a second, the standings each arena socket is sent a second (and the shortest gap between
/// two), errors, and with `--server-pid` the server's CPU and its memory per player, e.g.
///
///     taskset -c 0 dara serve --listen 127.0.0.1:8080 --memory-only \
///         --connections-per-address 100000 --games-per-address 100000 \
///         --seats-per-address 100000 --arenas-per-address 1000 &
///     taskset -c 1 dara loadtest --arena --players 1000 --arenas 1 --duration 150s \
///         --spread-sources 64 --server-pid $!
#[derive(Debug, Parser)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The server, as http://host:port. Given more than once (the nodes of one cluster), each
    /// game is created on one and its second seat sits on the next.
    /// With `--seekers`, each seeker (and each lobby socket) uses the nodes in turn.
    #[arg(long, visible_alias = "target", default_value = "http://127.0.0.1:8080")]
    server: Vec<String>,
    /// Load a server that is not on this machine's loopback: only one you run and may load.
    #[arg(long)]
    allow_remote: bool,
    /// Games kept in play at once (two sockets each; one against the computer).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Who the games are against: a friend (the driver plays both seats) or the server's
    /// computer (the driver plays pale, the computer answers each turn).
    #[arg(long, value_enum, default_value_t = OpponentKind::Friend)]
    opponent: OpponentKind,
    /// The computer's level, 1 to 8, with `--opponent computer` [default: 8].
    #[arg(long)]
    level: Option<Level>,
    /// The ruleset of every game.
    #[arg(long, default_value = "arcade")]
    rules: String,
    /// Turns per second in each game; 0: each turn as soon as the server has answered the last.
    /// The server closes a socket that sends more than 10 messages a second (after a burst of
    /// 40), so a game played faster than about 19 turns a second is soon disconnected; against
    /// the computer, whose moves the driver does not send, about 9 (rate 0 is safe against it
    /// only where its replies take a tenth of a second or more: not with `--instant-computer`).
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Seconds measured, after the games have connected and warmed up.
    #[arg(long, default_value_t = 30.0)]
    seconds: f64,
    /// Seconds played before measuring, once every game has connected.
    #[arg(long, default_value_t = 5.0)]
    warmup: f64,
    /// New connections per second (HTTP and WebSocket), so the server's listen backlog is not
    /// what is measured; 0: all at once.
    #[arg(long, default_value_t = 2000.0)]
    connect_rate: f64,
    /// Seed of the random turns (each game's own generator is derived from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Bind the sockets to N loopback source addresses (127.0.0.2, 127.0.0.3, ...), one per
    /// game in turn, past the server's per-address limits and the 28k ephemeral ports of one
    /// address.
    #[arg(long, value_name = "N")]
    spread_sources: Option<u32>,
    /// The server's process id: report its CPU time per accepted turn and its resident memory
    /// per game (from /proc).
    /// Given more than once (every node's), the figures are their sums.
    #[arg(long, value_name = "PID")]
    server_pid: Vec<u32>,
    /// A cluster's Redis (host:port): report the commands it ran per accepted turn.
    #[arg(long, value_name = "HOST:PORT")]
    redis: Option<String>,
    /// The Redis server's process id: report its CPU time per accepted turn.
    #[arg(long, value_name = "PID")]
    redis_pid: Option<u32>,
    /// Connect both seats of every game and send nothing but keep-alives: for the memory an
    /// idle game holds (with --server-pid).
    #[arg(long)]
    idle: bool,
    /// The `protocol` field of `hello`; 0 leaves it out. Dropped by itself when the server
    /// answers such a hello with an error (a server that does not know it yet).
    #[arg(long, default_value_t = loadtest::PROTOCOL_VERSION)]
    protocol_version: u32,
    /// Print the results as one line of JSON, to compare runs with a script.
    #[arg(long)]
    json: bool,

    /// Strangers meeting in the lobby instead of games in play (see above).
    #[arg(
        long,
        conflicts_with_all = ["games", "opponent", "level", "rate", "seconds", "warmup", "idle", "redis", "redis_pid"]
    )]
    seekers: bool,
    /// How seekers find each other: `exact` rules and clock (the lobby before pools), or
    /// `pools` ("Play anyone": the same rules, whatever the clock).
    #[arg(long, value_enum, default_value_t = Matching::Pools, requires = "seekers")]
    matching: Matching,
    /// Seekers arriving a minute, on average (simulated time).
    #[arg(long, default_value_t = 10.0, requires = "seekers")]
    arrivals_per_minute: f64,
    /// How long the seekers counted arrive, in real time (`90s`, `20m`, `1h`; a bare number is
    /// seconds); then more arrive, uncounted, until the last of them is done.
    /// With `--arena`, the measured window.
    #[arg(long, default_value = "5m", value_parser = span)]
    duration: Duration,
    /// How long a seeker waits at its own table before calling it off (simulated time).
    #[arg(long, default_value = "300s", value_parser = span, requires = "seekers")]
    patience: Duration,
    /// Simulated seconds per real second: K makes arrivals K times as frequent and patience K
    /// times shorter, and reports waits K times longer. Pairing depends only on the order of
    /// arrivals and on patience, so the waits hold; the lobby's messages a second and the
    /// server's CPU are then those of the faster crowd: measure them at 1.
    #[arg(long, default_value_t = 1.0, requires = "seekers")]
    time_scale: f64,
    /// A choice seekers make, WEIGHT:RULES@CLOCK (`30:arcade@5+3`, `4:jaques@none`), given once
    /// per choice [default: a small site's, mostly arcade on 3+2, 5+3, 10+5, 15+10 and no
    /// clock, some a 6x6 board, ninja, jaques or wikipedia].
    #[arg(long = "mix", value_name = "WEIGHT:RULES@CLOCK", requires = "seekers")]
    mix: Vec<Weighted>,
    /// Sockets on the lobby (`GET /ws/lobby`), as visitors of the home page hold, each counting
    /// the messages it is sent while the seekers come and go.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "seekers")]
    lobby_sockets: usize,

    /// Arenas full of players instead of games in play (see above).
    #[arg(
        long,
        conflicts_with_all = ["seekers", "games", "opponent", "level", "rate", "seconds", "idle", "redis", "redis_pid"]
    )]
    arena: bool,
    /// Players in all, spread evenly over the arenas.
    #[arg(long, default_value_t = 100, requires = "arena")]
    players: usize,
    /// Private arenas made at once.
    #[arg(long, default_value_t = 1, requires = "arena")]
    arenas: usize,
    /// The clock of the arenas' games, MINUTES+SECONDS.
    #[arg(long, default_value = "3+0", value_parser = arena_clock, requires = "arena")]
    clock: TimeControl,
    /// The mean pause before each turn (each drawn from half to one and a half times it).
    #[arg(long, default_value = "0.3s", value_parser = span_or_zero, requires = "arena")]
    think: Duration,
    /// The share of players who, after some of their games (half), pause and come back.
    #[arg(long, default_value_t = 0.1, requires = "arena")]
    pause_share: f64,
    /// How long a pause lasts, on average.
    #[arg(long, default_value = "10s", value_parser = span, requires = "arena")]
    pause: Duration,
}

/// An arena's clock: `M+S`, as the home page offers them.
fn arena_clock(text: &str) -> Result<TimeControl, String> {
    seekers::clock(text)?.ok_or_else(|| "an arena's games have a clock: MINUTES+SECONDS".to_owned())
}

/// A span, or nothing at all (`0`).
fn span_or_zero(text: &str) -> Result<Duration, String> {
    if text.trim_end_matches(['s', 'm']).parse::<f64>() == Ok(0.0) {
        return Ok(Duration::ZERO);
    }
    span(text)
}

/// A span of time as given on the command line: `300s`, `5m`, `5min`, `1h`, or seconds.
fn span(text: &str) -> Result<Duration, String> {
    let digits = text.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let number: f64 =
        number.parse().map_err(|_| format!("{text:?} is not a span like 90s or 20m"))?;
    let seconds = match unit.trim() {
        "" | "s" => number,
        "m" | "min" => number * 60.0,
        "h" => number * 3600.0,
        other => return Err(format!("{other:?}: a span is in s, m (min) or h")),
    };
    if !(seconds > 0.0 && seconds <= 7.0 * 86_400.0) {
        return Err(format!("{text:?}: from more than 0 to a week"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// Who the games of a load test are against, as the command line names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum OpponentKind {
    /// A game between people: the driver holds both seats.
    Friend,
    /// A game against the server's computer at `--level`.
    Computer,
}

pub fn run(args: Args) -> Result<()> {
    if args.seekers {
        return run_seekers(args);
    }
    if args.arena {
        return run_arena(args);
    }
    let _: Ruleset = args.rules.parse().context("--rules")?;
    let opponent = match (args.opponent, args.level) {
        (OpponentKind::Friend, None) => Opponent::Friend,
        (OpponentKind::Friend, Some(_)) => {
            anyhow::bail!("--level is the computer's: give it with --opponent computer")
        }
        (OpponentKind::Computer, level) => Opponent::Computer(level.unwrap_or(Level::MAX)),
    };
    ensure!(args.games > 0, "--games must be at least 1");
    let seconds_ok = |s: f64| s.is_finite() && (0.0..=86_400.0).contains(&s);
    ensure!(
        seconds_ok(args.seconds) && args.seconds > 0.0,
        "--seconds must be more than 0 and at most a day"
    );
    ensure!(seconds_ok(args.warmup), "--warmup must be 0 to a day");
    ensure!(args.rate.is_finite() && args.rate >= 0.0, "--rate must be 0 or more");
    ensure!(
        args.connect_rate.is_finite() && args.connect_rate >= 0.0,
        "--connect-rate must be 0 or more"
    );
    ensure!(args.spread_sources != Some(0), "--spread-sources must be at least 1");
    let plan = Plan {
        servers: args.server,
        allow_remote: args.allow_remote,
        games: args.games,
        rules: args.rules,
        opponent,
        rate: args.rate,
        seconds: args.seconds,
        warmup: args.warmup,
        connect_rate: args.connect_rate,
        seed: args.seed,
        spread_sources: args.spread_sources,
        server_pids: args.server_pid,
        redis: args.redis,
        redis_pid: args.redis_pid,
        idle: args.idle,
        protocol: (args.protocol_version > 0).then_some(args.protocol_version),
    };
    // The game tasks are stopped, not waited for: their sockets close with the process.
    run_and_report(loadtest::run(plan), args.json)
}

/// Runs a load test on a runtime of its own and prints its report, as JSON or as text. What
/// it left running (game tasks, lobby sockets, seekers) is stopped, not waited for.
fn run_and_report<R: serde::Serialize + std::fmt::Display>(
    test: impl std::future::Future<Output = Result<R>>,
    json: bool,
) -> Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let report = runtime.block_on(test)?;
    if json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print!("{report}");
    }
    runtime.shutdown_background();
    Ok(())
}

/// `--seekers`.
fn run_seekers(args: Args) -> Result<()> {
    ensure!(
        args.arrivals_per_minute.is_finite() && args.arrivals_per_minute > 0.0,
        "--arrivals-per-minute must be more than 0"
    );
    ensure!(
        args.time_scale.is_finite() && (1.0..=1000.0).contains(&args.time_scale),
        "--time-scale must be 1 to 1000"
    );
    ensure!(
        args.connect_rate.is_finite() && args.connect_rate >= 0.0,
        "--connect-rate must be 0 or more"
    );
    ensure!(args.spread_sources != Some(0), "--spread-sources must be at least 1");
    let mix = if args.mix.is_empty() {
        Mix::small_site()
    } else {
        Mix::new(args.mix).map_err(anyhow::Error::msg).context("--mix")?
    };
    let plan = seekers::Plan {
        servers: args.server,
        allow_remote: args.allow_remote,
        matching: args.matching,
        arrivals_per_minute: args.arrivals_per_minute,
        time_scale: args.time_scale,
        duration: args.duration,
        patience: args.patience,
        mix,
        lobby_sockets: args.lobby_sockets,
        connect_rate: args.connect_rate,
        seed: args.seed,
        spread_sources: args.spread_sources,
        server_pids: args.server_pid,
    };
    // The lobby sockets and any seeker left are stopped, not waited for.
    run_and_report(seekers::run(plan), args.json)
}

/// `--arena`.
fn run_arena(args: Args) -> Result<()> {
    let _: Ruleset = args.rules.parse().context("--rules")?;
    ensure!(args.arenas > 0, "--arenas must be at least 1");
    ensure!(args.players >= 2 * args.arenas, "--players must be at least two an arena");
    ensure!(
        args.pause_share.is_finite() && (0.0..=1.0).contains(&args.pause_share),
        "--pause-share must be 0 to 1"
    );
    ensure!(
        args.warmup.is_finite() && (0.0..=86_400.0).contains(&args.warmup),
        "--warmup must be 0 to a day"
    );
    ensure!(
        args.connect_rate.is_finite() && args.connect_rate >= 0.0,
        "--connect-rate must be 0 or more"
    );
    ensure!(args.spread_sources != Some(0), "--spread-sources must be at least 1");
    ensure!(args.server.len() == 1, "--arena loads one server");
    ensure!(args.server_pid.len() <= 1, "--arena loads one server: one --server-pid");
    let plan = arena::Plan {
        server: args.server[0].clone(),
        allow_remote: args.allow_remote,
        players: args.players,
        arenas: args.arenas,
        rules: args.rules,
        clock: args.clock,
        duration: args.duration,
        warmup: Duration::from_secs_f64(args.warmup),
        think: args.think,
        pause_share: args.pause_share,
        pause: args.pause,
        connect_rate: args.connect_rate,
        seed: args.seed,
        spread_sources: args.spread_sources,
        server_pid: args.server_pid.first().copied(),
        protocol: (args.protocol_version > 0).then_some(args.protocol_version),
    };
    // The players are stopped, not waited for.
    run_and_report(arena::run(plan), args.json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_are_read_in_seconds_minutes_and_hours() {
        assert_eq!(span("300s"), Ok(Duration::from_secs(300)));
        assert_eq!(span("90"), Ok(Duration::from_secs(90)));
        assert_eq!(span("20m"), Ok(Duration::from_secs(1200)));
        assert_eq!(span("1.5min"), Ok(Duration::from_secs(90)));
        assert_eq!(span("1h"), Ok(Duration::from_secs(3600)));
        for bad in ["", "0s", "m", "5 weeks", "-3s", "9999h"] {
            assert!(span(bad).is_err(), "{bad}");
        }
    }
}
