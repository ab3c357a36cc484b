//! The engine's random numbers: reproducible noise for the levels, openings for matches, and
//! random baselines. The generator is the rules crate's one SplitMix64 (which also draws the
//! Zobrist keys), kept under the engine's short name.

/// SplitMix64, seeded: see [`dara::SplitMix64`].
pub use dara::SplitMix64 as Rng;
