//! Perft: the number of move sequences of a given length, the standard check that move
//! generation is exact.

use crate::moves::MoveList;
use crate::position::Position;

/// Counts the move sequences of exactly `depth` plies from `pos`. The last ply is counted in
/// bulk, without playing its moves.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves() as u64,
        _ => {
            let mut moves = MoveList::new();
            pos.legal_moves_into(&mut moves);
            moves.iter().map(|&m| perft(&pos.after(m), depth - 1)).sum()
        }
    }
}

/// Perft for each legal move of `pos`: the move in notation and its count at `depth - 1`.
pub fn divide(pos: &Position, depth: u32) -> Vec<(String, u64)> {
    let mut rows: Vec<(String, u64)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| (m.to_string(), perft(&pos.after(m), depth.saturating_sub(1))))
        .collect();
    rows.sort();
    rows
}
