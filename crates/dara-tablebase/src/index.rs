//! Positions of one material as numbers: the full index the builder works in, and the smaller
//! index of the files, which keeps one position of each set of mirror images.
//!
//! A position is the side to move's stones (`mover`) and the other side's (`other`), as masks of
//! table cell numbers ([`Board`]). Full index: `rank(mover) * C(n - m, o) + rank(other squeezed
//! into the cells mover leaves free)`. Stored index: the same, with `rank(mover)` replaced by the
//! number of its class among the mover sets that are the smallest of their mirror images; the
//! other side's stones are stored for every placement, so a probe only needs to mirror the
//! position until the mover's stones are their class's representative.

use crate::board::{Board, SYMMETRIES};
use crate::combination::{binomial, next_combination, rank, spread, squeeze, unrank};
use crate::material::Material;

/// No class: the mover set is not the smallest of its images.
const NOT_CANONICAL: u32 = u32::MAX;

/// The numbering of one material's positions on one board.
#[derive(Clone, Debug)]
pub struct MaterialIndex {
    material: Material,
    cells: usize,
    /// `C(n - mover, other)`: the other side's placements per mover set.
    per_mover: u64,
    /// `class_of[rank(mover)]`: the mover set's class, or [`NOT_CANONICAL`].
    class_of: Vec<u32>,
    /// `representative[class]`: the rank of the class's smallest mover set.
    representative: Vec<u32>,
}

impl MaterialIndex {
    /// The numbering of `material` on `board`.
    pub fn new(board: &Board, material: Material) -> MaterialIndex {
        let n = board.cells();
        let (m, o) = (material.mover as usize, material.other as usize);
        let movers = binomial(n, m);
        let mut class_of = vec![NOT_CANONICAL; movers as usize];
        let mut representative = Vec::new();
        for r in 0..movers {
            let set = unrank(r, m, n);
            let smallest = (0..SYMMETRIES).map(|s| rank(board.mirror(s, set))).min();
            if smallest == Some(r) {
                class_of[r as usize] = representative.len() as u32;
                representative.push(r as u32);
            }
        }
        MaterialIndex {
            material,
            cells: n,
            per_mover: binomial(n - m, o),
            class_of,
            representative,
        }
    }

    /// The material.
    pub fn material(&self) -> Material {
        self.material
    }

    /// Positions in the full index.
    pub fn full_len(&self) -> u64 {
        binomial(self.cells, self.material.mover as usize) * self.per_mover
    }

    /// Positions in the stored index.
    pub fn stored_len(&self) -> u64 {
        self.representative.len() as u64 * self.per_mover
    }

    /// The full index of a position.
    #[inline]
    pub fn full(&self, mover: u64, other: u64) -> u64 {
        rank(mover) * self.per_mover + rank(squeeze(other, mover))
    }

    /// The position of a full index.
    #[inline]
    pub fn unfull(&self, index: u64) -> (u64, u64) {
        let (mover, squeezed) = self.unfull_squeezed(index);
        (mover, spread(squeezed, mover))
    }

    /// The mover's stones and the other side's squeezed into the free cells.
    #[inline]
    fn unfull_squeezed(&self, index: u64) -> (u64, u64) {
        let (m, o) = (self.material.mover as usize, self.material.other as usize);
        let mover = unrank(index / self.per_mover, m, self.cells);
        (mover, unrank(index % self.per_mover, o, self.cells - m))
    }

    /// The positions of a run of full indexes, in order, with their indexes.
    pub fn positions(
        &self,
        range: core::ops::Range<u64>,
    ) -> impl Iterator<Item = (u64, u64, u64)> + '_ {
        let (mut mover, mut squeezed) = self.unfull_squeezed(range.start);
        let free_cells = 1u64 << (self.cells - self.material.mover as usize);
        let first_other = (1u64 << self.material.other) - 1;
        range.map(move |i| {
            let here = (i, mover, spread(squeezed, mover));
            squeezed = next_combination(squeezed);
            if squeezed >= free_cells {
                squeezed = first_other;
                mover = next_combination(mover);
            }
            here
        })
    }

    /// The stored index of a position: mirrored so that the mover's stones are their class's
    /// representative.
    #[inline]
    pub fn stored(&self, board: &Board, mover: u64, other: u64) -> u64 {
        let mut best = (u64::MAX, 0);
        for s in 0..SYMMETRIES {
            let r = rank(board.mirror(s, mover));
            if r < best.0 {
                best = (r, s);
            }
        }
        let (r, s) = best;
        let mover = board.mirror(s, mover);
        let other = board.mirror(s, other);
        u64::from(self.class_of[r as usize]) * self.per_mover + rank(squeeze(other, mover))
    }

    /// The full indexes of class `class`'s stored entries, in their stored order (the stored
    /// entries are whole runs of the full index, one run per class).
    #[inline]
    pub fn full_of_stored_run(&self, class: usize) -> core::ops::Range<u64> {
        let start = u64::from(self.representative[class]) * self.per_mover;
        start..start + self.per_mover
    }

    /// How many classes of mover sets.
    pub fn classes(&self) -> usize {
        self.representative.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dara::Ruleset;

    #[test]
    fn indexes_round_trip_and_mirror_images_share_a_class() {
        let rules: Ruleset = "arcade,rows=4,cols=4,stones=8".parse().unwrap();
        let board = Board::of(&rules);
        let index = MaterialIndex::new(&board, Material::new(3, 2));
        assert_eq!(index.full_len(), 560 * 78);
        // About a quarter of the mover sets, plus those that are their own image.
        assert!(index.stored_len() * 4 >= index.full_len());
        assert!(index.stored_len() * 3 < index.full_len());
        let walked: Vec<(u64, u64, u64)> = index.positions(0..index.full_len()).collect();
        for i in (0..index.full_len()).step_by(7) {
            let (mover, other) = index.unfull(i);
            assert_eq!(walked[i as usize], (i, mover, other));
            assert_eq!(mover & other, 0);
            assert_eq!(index.full(mover, other), i);
            let stored = index.stored(&board, mover, other);
            assert!(stored < index.stored_len());
            // Every image lands on the same class of mover sets (and, where the mover's stones
            // are their own image, possibly on another entry holding the same position).
            for s in 0..SYMMETRIES {
                let (m, o) = (board.mirror(s, mover), board.mirror(s, other));
                assert_eq!(index.stored(&board, m, o) / index.per_mover, stored / index.per_mover);
            }
        }
    }
}
