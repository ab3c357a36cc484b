//! `dara engine`: the engine protocol (ENGINE.md) on standard input and output.

use std::path::PathBuf;

/// Speak the engine protocol on standard input and output (see crates/dara-engine/PROTOCOL.md).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Answer from the movement-phase tablebases in this directory (`dara tablebase build`),
    /// as `setoption name Tablebases value DIR` does.
    #[arg(long)]
    tablebases: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    dara_engine::protocol::run_with_tablebases(stdin.lock(), std::io::stdout(), args.tablebases)?;
    Ok(())
}
