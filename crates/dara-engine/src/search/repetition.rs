//! Repetition draws and the quiet-plies horizon: a position repeated along the game or the search
//! path is a draw, and under `quiet=N` the table key carries the quiet plies left where the draw
//! could fall inside the search's reach.

use dara::{Phase, Position};

use super::Searcher;
use crate::score::MAX_PLY;

/// Mixes the remaining quiet budget into the key where the draw is within the search's reach.
#[inline]
pub(super) fn key(pos: &Position) -> u64 {
    match pos.rules().quiet() {
        Some(limit) => {
            let left = u64::from(limit.saturating_sub(pos.quiet()));
            if pos.phase() == Phase::Movement && left <= MAX_PLY as u64 {
                pos.hash() ^ (left + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
            } else {
                pos.hash()
            }
        }
        None => pos.hash(),
    }
}

impl Searcher {
    /// Whether `pos` stands earlier on the path within the quiet-plies window (nothing
    /// irreversible since), with the same side to move.
    #[inline]
    pub(super) fn repeated(&self, pos: &Position) -> bool {
        let n = self.path.len();
        let back = (pos.quiet() as usize).min(n);
        let hash = pos.hash();
        (2..=back).step_by(2).any(|i| self.path[n - i] == hash)
    }
}
