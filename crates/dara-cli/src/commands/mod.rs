//! One file per subcommand: each parses its options with clap and calls the libraries.

pub mod analyse;
pub mod bench;
pub mod bench_search;
pub mod codes;
pub mod engine;
pub mod loadtest;
pub mod matches;
pub mod moves;
pub mod perft;
pub mod play;
pub mod pocket;
pub mod puzzles;
pub mod serve;
pub mod show;
pub mod tablebase;
