//! `dara pocket`: the page's engine (`dara-pocket`) run natively, to hold the WebAssembly build
//! to the same moves and to measure it.

use std::io::{self, BufRead, Write};

use anyhow::Context;
use dara::{Position, Ruleset};
use dara_engine::rng::Rng;
use dara_engine::stopwatch::system_now;
use dara_pocket::{think, Request};

/// The page's engine, natively: answer its requests, or write some from games it plays.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(Debug, clap::Subcommand)]
enum What {
    /// Read requests (`[rules R] position ... [level N] [seed N] [go ...]`), one a line, from
    /// standard input; print a reply line for each (`bestmove M score .. depth .. nodes ..
    /// time .. pv ..`, or `error ...`), as the WebAssembly module answers them.
    Answer,
    /// Play the engine against itself over several rulesets and print a request for positions
    /// along those games: the positions of the same-moves test.
    Sample(SampleArgs),
    /// Print the search benchmark's positions (`dara bench search`) as requests searched to a
    /// fixed depth: the speed measurement's.
    Bench(BenchArgs),
}

#[derive(Debug, clap::Args)]
struct BenchArgs {
    /// Depth of every search.
    #[arg(long, default_value_t = 9)]
    depth: u32,
}

#[derive(Debug, clap::Args)]
struct SampleArgs {
    /// Games to play.
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// A request every this many plies.
    #[arg(long, default_value_t = 5)]
    every: u32,
    /// Seed of the games and of the requests' seeds and budgets.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Every request at this level (default: levels 1 to 8 in turn).
    #[arg(long)]
    level: Option<u8>,
    /// Level 8's requests search this many nodes (`go nodes N`; default a random 10 000 to
    /// 100 000 each, so they stop the same everywhere); 0 leaves them the level's second.
    #[arg(long)]
    nodes: Option<u64>,
}

/// The rulesets of the games, in turn: the four presets and three variants.
const RULESETS: [&str; 7] = [
    "arcade",
    "jaques",
    "ninja",
    "wikipedia",
    "arcade,diagonal=yes",
    "jaques,captures=per-row",
    "arcade,rows=6,stones=15",
];

/// The longest game played, in plies.
const MAX_PLIES: usize = 160;

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.what {
        What::Answer => answer(),
        What::Sample(args) => sample(args),
        What::Bench(args) => {
            for (rules, position) in dara_engine::bench::POSITIONS {
                println!("rules {rules} position {position} level 8 go depth {}", args.depth);
            }
            Ok(())
        }
    }
}

fn answer() -> anyhow::Result<()> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for line in io::stdin().lock().lines() {
        let line = line.context("reading a request")?;
        if line.trim().is_empty() {
            continue;
        }
        match line.parse::<Request>() {
            Ok(request) => writeln!(out, "{}", think(&request, system_now))?,
            Err(e) => writeln!(out, "error {e}")?,
        }
        // A driver may wait for each reply before it writes the next request.
        out.flush()?;
    }
    Ok(())
}

fn sample(args: SampleArgs) -> anyhow::Result<()> {
    if let Some(level) = args.level {
        anyhow::ensure!((1..=8).contains(&level), "--level must be 1 to 8");
    }
    anyhow::ensure!(args.every > 0, "--every must be at least 1");
    let mut rng = Rng::new(args.seed);
    let mut requests = 0u64;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for game in 0..args.games {
        let rules_text = RULESETS[game as usize % RULESETS.len()];
        let rules: Ruleset = rules_text.parse().expect("the sample's rulesets are valid");
        // The games are played at levels 3 to 6, so that they go different ways.
        let play_level = 3 + game % 4;
        let mut pos = Position::start(rules);
        let mut moves: Vec<String> = Vec::new();
        while moves.len() < MAX_PLIES && !pos.is_over() {
            let mut line = format!("rules {rules_text} position start");
            if !moves.is_empty() {
                line = format!("{line} moves {}", moves.join(" "));
            }
            if moves.len() % args.every as usize == 0 {
                let level = args.level.map_or(1 + (requests % 8) as u8, |l| l);
                let go = match (level, args.nodes) {
                    (8, Some(0)) => String::new(),
                    (8, Some(n)) => format!(" go nodes {n}"),
                    (8, None) => format!(" go nodes {}", 10_000 + rng.below(90_001)),
                    _ => String::new(),
                };
                writeln!(out, "{line} level {level} seed {}{go}", rng.next_u64())?;
                requests += 1;
            }
            let request: Request =
                format!("{line} level {play_level} seed {}", rng.next_u64()).parse()?;
            let m = think(&request, system_now).0.best.expect("a game not over has a move");
            moves.push(m.to_string());
            pos.play_unchecked(m);
        }
    }
    Ok(())
}
