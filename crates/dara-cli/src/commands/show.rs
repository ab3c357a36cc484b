//! `dara show`: draw a position, or the end of a game record, in the terminal.

use std::path::PathBuf;

use anyhow::{bail, Result};

use crate::game_input::{load_record, PositionArgs};

/// Draw the board with coordinates, whose turn, stones in hand, quiet plies and status.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// A game record (PGN-like) to replay; the final position is drawn.
    #[arg(long, conflicts_with = "position")]
    record: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<()> {
    if let Some(path) = &args.record {
        if args.position.rules != "arcade" {
            bail!("--rules does not go with --record: the record's Rules tag sets the ruleset");
        }
        let record = load_record(path)?;
        let pos = record.final_position();
        print!("{}", crate::diagram::draw(pos, record.moves().last().copied()));
        println!("moves: {}", record.moves().len());
        println!("result: {}", record.result);
        return Ok(());
    }
    let pos = args.position.load()?;
    print!("{}", crate::diagram::draw(&pos, None));
    Ok(())
}
