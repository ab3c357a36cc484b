//! Zobrist keys: a position's hash is the exclusive-or of one random key per stone, per hand
//! size and for the side to move, so a move updates it with a few exclusive-ors.
//!
//! The quiet-plies counter is left out on purpose, as chess leaves out its fifty-move clock:
//! positions that differ only in it are the same position for repetition and for a search's
//! transposition table.

use crate::colour::Colour;
use crate::splitmix::SplitMix64;

/// Most stones a hand can hold: half of a 7 x 7 board.
const MAX_HAND: usize = 24;

struct Keys {
    stones: [[u64; 64]; 2],
    hands: [[u64; MAX_HAND + 1]; 2],
    black_to_move: u64,
}

const fn build_keys() -> Keys {
    let mut rng = SplitMix64::new(0x0D0A_4A4A_D1A1);
    let mut keys = Keys { stones: [[0; 64]; 2], hands: [[0; MAX_HAND + 1]; 2], black_to_move: 0 };
    let mut colour = 0;
    while colour < 2 {
        let mut i = 0;
        while i < 64 {
            keys.stones[colour][i] = rng.next_u64();
            i += 1;
        }
        let mut n = 0;
        while n <= MAX_HAND {
            keys.hands[colour][n] = rng.next_u64();
            n += 1;
        }
        colour += 1;
    }
    keys.black_to_move = rng.next_u64();
    keys
}

static KEYS: Keys = build_keys();

/// The key of a stone of `colour` on the cell with bit index `index`.
#[inline]
pub(crate) fn stone(colour: Colour, index: u8) -> u64 {
    // Every bit index is below 64; the mask says so to the compiler, which then drops the
    // bounds check from every played move.
    KEYS.stones[colour.index()][usize::from(index) & 63]
}

/// The key of `colour` holding `count` stones in hand.
#[inline]
pub(crate) fn hand(colour: Colour, count: u8) -> u64 {
    KEYS.hands[colour.index()][count as usize]
}

/// The key toggled when the side to move changes.
#[inline]
pub(crate) fn side() -> u64 {
    KEYS.black_to_move
}
