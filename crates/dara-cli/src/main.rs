//! The `dara` command.
#![forbid(unsafe_code)]

use clap::{Parser, Subcommand};

mod commands;

/// Dara, the alignment game: rules tools, the engine, and matches.
#[derive(Parser, Debug)]
#[command(name = "dara", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Speak the engine protocol (ENGINE.md) on standard input and output.
    Engine(commands::engine::Args),
    /// Search a position and print each iteration.
    Analyse(commands::analyse::Args),
    /// Play against the engine in the terminal.
    Play(commands::play::Args),
    /// Play two players against each other over many games.
    Match(commands::matches::Args),
    /// Benchmarks.
    #[command(subcommand)]
    Bench(Bench),
}

#[derive(Subcommand, Debug)]
enum Bench {
    /// Search fixed positions to a fixed depth: a node-count signature and nodes/s.
    Search(commands::bench_search::Args),
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Engine(args) => commands::engine::run(args),
        Command::Analyse(args) => commands::analyse::run(args),
        Command::Play(args) => commands::play::run(args),
        Command::Match(args) => commands::matches::run(args),
        Command::Bench(Bench::Search(args)) => commands::bench_search::run(args),
    }
}
