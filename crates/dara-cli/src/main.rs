//! The `dara` command: the rules, the engine and the Arcade from one binary.

// `unsafe` is denied everywhere but in `cpu`, which says why it needs it.
#![deny(unsafe_code)]

mod commands;
mod cpu;
mod diagram;
mod game_input;
mod loadtest;
mod open_files;

use clap::{Parser, Subcommand};

/// Dara, the alignment game of the Sahel: rules, analysis and play.
#[derive(Debug, Parser)]
#[command(name = "dara", version)]
struct Cli {
    /// With no subcommand, `dara` serves the Arcade (as `dara serve`).
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    Perft(commands::perft::Args),
    Moves(commands::moves::Args),
    Show(commands::show::Args),
    Bench(commands::bench::Args),
    Serve(commands::serve::Args),
    Engine(commands::engine::Args),
    Analyse(commands::analyse::Args),
    Play(commands::play::Args),
    Pocket(commands::pocket::Args),
    Match(commands::matches::Args),
    Loadtest(commands::loadtest::Args),
    Puzzles(commands::puzzles::Args),
    Tablebase(commands::tablebase::Args),
    Codes(commands::codes::Args),
}

fn main() {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            // One line that says what is wrong; `--help` has the rest.
            let text = e.to_string();
            let first: Vec<&str> =
                text.lines().take_while(|l| !l.trim().is_empty()).map(str::trim).collect();
            eprintln!("{} (see dara --help)", first.join(" "));
            std::process::exit(2);
        }
    };
    let result = match cli.command.unwrap_or_else(|| Command::Serve(Default::default())) {
        Command::Serve(args) => commands::serve::run(args),
        Command::Perft(args) => commands::perft::run(args),
        Command::Moves(args) => commands::moves::run(args),
        Command::Show(args) => commands::show::run(args),
        Command::Bench(args) => commands::bench::run(args),
        Command::Engine(args) => commands::engine::run(args),
        Command::Analyse(args) => commands::analyse::run(args),
        Command::Play(args) => commands::play::run(args),
        Command::Pocket(args) => commands::pocket::run(args),
        Command::Match(args) => commands::matches::run(args),
        Command::Loadtest(args) => commands::loadtest::run(args),
        Command::Puzzles(args) => commands::puzzles::run(args),
        Command::Tablebase(args) => commands::tablebase::run(args),
        Command::Codes(args) => commands::codes::run(args),
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}
