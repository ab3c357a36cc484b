//! One file per subcommand: each parses its options with clap and calls the libraries.

pub mod bench;
pub mod moves;
pub mod perft;
pub mod show;
