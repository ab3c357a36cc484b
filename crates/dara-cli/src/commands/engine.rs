//! `dara engine`: the engine protocol (ENGINE.md) on standard input and output.

/// Speak the engine protocol on standard input and output (see crates/dara-engine/PROTOCOL.md).
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_: Args) -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    dara_engine::protocol::run(stdin.lock(), std::io::stdout())?;
    Ok(())
}
