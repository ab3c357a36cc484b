//! `dara puzzles generate`: puzzles from the engine's self-play, written as the puzzle file the
//! Arcade embeds (`crates/dara-server/data/puzzles.txt`).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use dara::Ruleset;
use dara_engine::puzzles::{self, PuzzleConfig, DEEPER};

/// Puzzles for the Arcade's puzzle page.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(Debug, clap::Subcommand)]
enum What {
    /// Play self-play games and keep the positions with one clearly best move: found at
    /// --depth, kept only if a search 4 plies deeper agrees by --margin.
    Generate(GenerateArgs),
}

#[derive(Debug, clap::Args)]
struct GenerateArgs {
    /// The ruleset of the games.
    #[arg(long, default_value = "arcade")]
    rules: String,
    /// Self-play games to look through.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Seed of the games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Depth at which a puzzle is found.
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// How far the solution must lead every other move, in centi-stones (100 = a stone).
    #[arg(long, default_value_t = 100)]
    margin: i32,
    /// Stop after this many puzzles.
    #[arg(long, default_value_t = 200)]
    limit: usize,
    /// Where to write the puzzle file (default: standard output).
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<()> {
    match args.what {
        What::Generate(args) => generate(args),
    }
}

fn generate(args: GenerateArgs) -> Result<()> {
    let rules: Ruleset = args.rules.parse().context("--rules")?;
    let config = PuzzleConfig {
        rules,
        games: args.games,
        seed: args.seed,
        depth: args.depth,
        margin: args.margin,
        limit: args.limit,
    };
    let found = puzzles::generate(&config, &mut |p| eprintln!("{}", p.to_record()));
    let mut text = format!(
        "# Dara puzzles: dara puzzles generate --rules {} --games {} --seed {} --depth {} --margin {} --limit {}\n\
         # Each solution leads every other move (each choice of stone to take its own move) by at least {} centi-stones\n\
         # at depth {} and again at depth {} ({} plies deeper).\n\
         # theme\tdifficulty\tmargin\tdepths\trules\tposition\tline (the solution first)\n",
        rules, args.games, args.seed, args.depth, args.margin, args.limit,
        args.margin, args.depth, args.depth + DEEPER, DEEPER,
    );
    for p in &found {
        text.push_str(&p.to_record());
        text.push('\n');
    }
    match &args.out {
        Some(path) => std::fs::write(path, text).with_context(|| format!("{}", path.display()))?,
        None => std::io::stdout().write_all(text.as_bytes())?,
    }
    eprintln!("{} puzzles from {} games", found.len(), args.games);
    Ok(())
}
