//! One file per subcommand.

pub mod analyse;
pub mod bench_search;
pub mod engine;
pub mod matches;
pub mod play;
pub mod record;
