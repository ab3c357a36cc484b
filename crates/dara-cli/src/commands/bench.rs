//! `dara bench`: speed measurements printed as figures.

use std::time::{Duration, Instant};

use anyhow::Result;
use dara::{Position, Ruleset, Status};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Measure speed.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(Debug, clap::Subcommand)]
enum What {
    /// Random games from the start position on one thread; the last line is
    /// `playouts_per_second N`.
    Playouts(PlayoutArgs),
    /// Search fixed positions to a fixed depth: a node-count signature and nodes/s.
    Search(super::bench_search::Args),
}

#[derive(Debug, clap::Args)]
struct PlayoutArgs {
    /// The ruleset.
    #[arg(long, default_value = "arcade")]
    rules: String,
    /// How long to play, in seconds.
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// `uniform`: every legal move (each capture choice its own move) equally likely.
    /// `two-stage`: a step chosen uniformly, then one of its capture choices.
    #[arg(long, value_enum, default_value = "uniform")]
    policy: Policy,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Policy {
    Uniform,
    TwoStage,
}

pub fn run(args: Args) -> Result<()> {
    match args.what {
        What::Playouts(args) => playouts(args),
        What::Search(args) => super::bench_search::run(args),
    }
}

fn playouts(args: PlayoutArgs) -> Result<()> {
    let rules: Ruleset = args.rules.parse()?;
    anyhow::ensure!(
        args.seconds.is_finite() && args.seconds > 0.0 && args.seconds <= 86_400.0,
        "--seconds must be more than 0 and at most a day"
    );
    let start = Position::start(rules);
    let mut rng = SmallRng::seed_from_u64(args.seed);
    let budget = Duration::from_secs_f64(args.seconds);
    let began = Instant::now();
    let (mut games, mut plies) = (0u64, 0u64);
    let mut results = [0u64; 3];
    while began.elapsed() < budget {
        // Check the clock every 64 games: reading it is slower than a ply.
        crate::cpu::with_best_instructions(
            #[inline(always)]
            || {
                for _ in 0..64 {
                    let (end, length) = playout(&start, &mut rng, args.policy);
                    plies += length;
                    games += 1;
                    results[match end {
                        Status::Won { winner: dara::Colour::White, .. } => 0,
                        Status::Won { .. } => 1,
                        _ => 2,
                    }] += 1;
                }
            },
        );
    }
    let secs = began.elapsed().as_secs_f64();
    let policy = match args.policy {
        Policy::Uniform => "uniform",
        Policy::TwoStage => "two-stage",
    };
    println!("rules {rules}, policy {policy}, seed {}", args.seed);
    println!("games {games}, plies {plies}, {secs:.2} s");
    println!(
        "white wins {}, black wins {}, draws or unfinished {}",
        results[0], results[1], results[2]
    );
    println!("average_game_length {:.1}", plies as f64 / games as f64);
    println!("plies_per_second {:.0}", plies as f64 / secs);
    println!("playouts_per_second {:.0}", games as f64 / secs);
    Ok(())
}

/// Longest game played out: `quiet=none` rulesets can go on for ever.
const MAX_PLIES: u64 = 1000;

/// One random game; returns how it ended and its length in plies. Always inlined, so that it
/// is compiled for the instructions [`crate::cpu`] finds.
#[inline(always)]
fn playout(start: &Position, rng: &mut SmallRng, policy: Policy) -> (Status, u64) {
    let mut pos = start.clone();
    for ply in 0..MAX_PLIES {
        let m = match policy {
            // Counting the moves and decoding the chosen one is the same uniform choice over the
            // full legal list as listing them, at a fraction of the cost.
            Policy::Uniform => pos.pick_move(|count| rng.gen_range(0..count)),
            // Ludii's way of playing at random: a step uniformly among distinct steps, then a
            // capture uniformly among that step's choices; also by index, without a list.
            Policy::TwoStage => pos.pick_move_by_step(|count| rng.gen_range(0..count)),
        };
        let Some(m) = m else {
            return (pos.status(), ply);
        };
        pos.play_unchecked(m);
    }
    (Status::Ongoing, MAX_PLIES)
}
