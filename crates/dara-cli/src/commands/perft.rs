//! `dara perft`: count move sequences, the check that move generation is exact.

use std::time::Instant;

use anyhow::Result;

use crate::game_input::PositionArgs;

/// Count the move sequences of exactly DEPTH plies; the last line ends with the count.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Plies to count.
    #[arg(long)]
    depth: u32,
    /// Also print each legal move with its own count.
    #[arg(long)]
    divide: bool,
}

pub fn run(args: Args) -> Result<()> {
    let pos = args.position.load()?;
    let started = Instant::now();
    let nodes = if args.divide {
        let rows = dara::perft::divide(&pos, args.depth);
        for (m, n) in &rows {
            println!("{m} {n}");
        }
        rows.iter().map(|(_, n)| n).sum()
    } else {
        dara::perft::perft(&pos, args.depth)
    };
    let secs = started.elapsed().as_secs_f64();
    eprintln!("{:.3} s, {:.0} leaves per second", secs, nodes as f64 / secs.max(1e-9));
    println!("nodes {nodes}");
    Ok(())
}
