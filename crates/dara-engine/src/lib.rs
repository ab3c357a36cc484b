//! The computer opponent for Dara: a game-tree search over the rules crate's positions, its
//! evaluation, playing levels from beginner to full strength, its answer to a draw offer, the
//! engine protocol (`ENGINE.md`) that drives it, baselines to measure it against, the match
//! runner that measures it, and the node-count benchmark that fingerprints it.

#![forbid(unsafe_code)]

pub mod baselines;
pub mod bench;
pub mod budget;
pub mod draw;
pub mod eval;
pub mod level;
pub mod limits;
pub mod matches;
pub mod protocol;
pub mod puzzles;
pub mod rng;
pub mod score;
pub mod search;
pub mod stopwatch;
pub mod tt;

pub use limits::Limits;
pub use score::Score;
pub use search::{Iteration, Outcome, Searcher, Style};
