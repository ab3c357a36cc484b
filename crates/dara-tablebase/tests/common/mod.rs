//! What the tablebase tests share: small tables built on the spot, and random positions.

#![allow(dead_code)]

use dara::{ByColour, Colour, Position, Ruleset, Setup, SplitMix64};
use dara_tablebase::{Material, Silent, Tablebase};

/// The tables of `rules` up to `stones` stones, built with both cores.
pub fn build(rules: &str, stones: u8) -> Tablebase {
    let rules: Ruleset = rules.parse().expect("a ruleset");
    let mut tb = Tablebase::new(rules).expect("a solved ruleset");
    tb.build(stones, 2, &Silent, |_, _| {});
    tb
}

/// A random movement position of `material` (side to move first), `side` to move, with
/// `quiet` quiet plies.
pub fn random_position(
    rules: Ruleset,
    material: Material,
    side: Colour,
    quiet: u32,
    rng: &mut SplitMix64,
) -> Position {
    let board = dara::Bitboard::board(rules.cols(), rules.rows());
    let cells: Vec<dara::Cell> = board.into_iter().collect();
    let mut free = cells.clone();
    let mut pick = |n: u8| {
        let mut stones = dara::Bitboard::EMPTY;
        for _ in 0..n {
            let i = (rng.next_u64() % free.len() as u64) as usize;
            stones = stones.with(free.swap_remove(i));
        }
        stones
    };
    let mover = pick(material.mover);
    let other = pick(material.other);
    let mut stones = ByColour::default();
    stones[side] = mover;
    stones[!side] = other;
    let setup = Setup {
        cols: rules.cols(),
        rows: rules.rows(),
        stones,
        side,
        hand: ByColour::default(),
        quiet,
    };
    Position::from_setup(&setup, rules).expect("a movement position")
}
