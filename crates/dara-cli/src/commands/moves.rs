//! `dara moves`: the legal moves of a position, sorted, then the game's status.

use anyhow::Result;

use crate::game_input::PositionArgs;

/// Print the legal moves in canonical notation (byte order, one line), then the status.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
}

pub fn run(args: Args) -> Result<()> {
    let pos = args.position.load()?;
    let mut moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    moves.sort();
    println!("{}", moves.join(" "));
    println!("{}", pos.status());
    Ok(())
}
