//! Positions of one material as numbers: the full index the builder works in, and the smaller
//! index of the files, which keeps one position of each set of mirror images.
//!
//! A position is the side to move's stones (`mover`) and the other side's (`other`), as masks of
//! table cell numbers ([`Board`]). Full index: `rank(mover) * C(n - m, o) + rank(other squeezed
//! into the cells mover leaves free)`. Stored index: the same, with `rank(mover)` replaced by the
//! number of its class among the mover sets that are the smallest of their mirror images; the
//! other side's stones are stored for every placement, so a probe only needs to mirror the
//! position until the mover's stones are their class's representative.
//!
//! The builder numbers the positions its own way ([`WorkIndex`]): the other side's stones first.

use crate::board::{Board, SYMMETRIES};
use crate::combination::{binomial, next_combination, rank, spread, squeeze, unrank};
use crate::material::Material;

/// The numbering of one material's positions on one board.
#[derive(Clone, Debug)]
pub struct MaterialIndex {
    material: Material,
    cells: usize,
    /// `C(n - mover, other)`: the other side's placements per mover set.
    per_mover: u64,
    /// `image_of[rank(mover)]`: the class of the mover set times [`SYMMETRIES`], plus the
    /// first symmetry that turns it into the class's representative. A table lookup instead of
    /// mirroring and ranking the mover's stones four times at every probe.
    image_of: Vec<u32>,
    /// `representative[class]`: the rank of the class's smallest mover set.
    representative: Vec<u32>,
}

impl MaterialIndex {
    /// The numbering of `material` on `board`.
    pub fn new(board: &Board, material: Material) -> MaterialIndex {
        let n = board.cells();
        let (m, o) = (material.mover as usize, material.other as usize);
        let movers = binomial(n, m);
        let mut image_of = vec![0u32; movers as usize];
        let mut representative = Vec::new();
        let mut class_of_rank = vec![u32::MAX; movers as usize];
        for r in 0..movers {
            let set = unrank(r, m, n);
            // The first symmetry giving the smallest rank: ranks below r were seen already, so
            // the smallest image's class is known unless it is r itself, a new class.
            let (smallest, s) = (0..SYMMETRIES)
                .map(|s| (rank(board.mirror(s, set)), s))
                .min()
                .expect("four symmetries");
            if smallest == r {
                class_of_rank[r as usize] = representative.len() as u32;
                representative.push(r as u32);
            }
            image_of[r as usize] = class_of_rank[smallest as usize] * SYMMETRIES as u32 + s as u32;
        }
        MaterialIndex {
            material,
            cells: n,
            per_mover: binomial(n - m, o),
            image_of,
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
        let image = self.image_of[rank(mover) as usize];
        let (class, s) = (image / SYMMETRIES as u32, image as usize % SYMMETRIES);
        let (mover, other) =
            if s == 0 { (mover, other) } else { (board.mirror(s, mover), board.mirror(s, other)) };
        u64::from(class) * self.per_mover + rank(squeeze(other, mover))
    }

    /// The full indexes of class `class`'s stored entries, in their stored order (the stored
    /// entries are whole runs of the full index, one run per class).
    #[inline]
    pub fn full_of_stored_run(&self, class: usize) -> core::ops::Range<u64> {
        let start = u64::from(self.representative[class]) * self.per_mover;
        start..start + self.per_mover
    }

    /// The mover's stones in class `class`'s representative. Its stored entries hold the other
    /// side's placements among the free cells in colex order, as
    /// [`MaterialIndex::full_of_stored_run`] numbers them.
    pub(crate) fn representative_set(&self, class: usize) -> u64 {
        unrank(u64::from(self.representative[class]), self.material.mover as usize, self.cells)
    }

    /// How many classes of mover sets.
    pub fn classes(&self) -> usize {
        self.representative.len()
    }
}

/// The builder's numbering of one material's positions: `rank(other) * C(n - o, m) +
/// rank(mover squeezed into the cells the other side leaves free)`, every position once.
///
/// The other side's stones come first because of where the retrograde pass writes: the steps
/// taken back from a position where `mover` is to move against `stepper` all lead to positions
/// where the stepper is to move against those same `mover` stones, so in this order they fall in
/// one block of `C(n - m, s)` neighbouring entries. The lists of decided positions use the
/// mover-first numbering ([`WorkIndex::listed`], the full index's), so that a list sorted by
/// number takes back the positions with the same `mover` stones one after the other, while
/// their block is in the cache: one miss per block instead of one per step.
#[derive(Clone, Debug)]
pub(crate) struct WorkIndex {
    /// `C(n - o, m)`: the mover's placements per set of the other side's stones.
    per_other: u64,
    /// `others[r]`: the other side's set of rank `r` (unranking by lookup).
    others: Vec<u64>,
    /// `movers[r]`: the mover's set of rank `r` among the free cells, squeezed.
    movers: Vec<u64>,
    /// `C(n - m, o)`: the other side's placements per mover set, in the listed numbering.
    per_mover: u64,
    /// `all_movers[r]`: the mover's set of rank `r` on the whole board.
    all_movers: Vec<u64>,
    /// `squeezed_others[r]`: the other side's set of rank `r` among the free cells, squeezed.
    squeezed_others: Vec<u64>,
}

impl WorkIndex {
    /// The builder's numbering of `material` on `board`.
    pub(crate) fn new(board: &Board, material: Material) -> WorkIndex {
        let n = board.cells();
        let (m, o) = (material.mover as usize, material.other as usize);
        let sets = |k: usize, cells: usize| {
            let count = binomial(cells, k);
            let mut all = Vec::with_capacity(count as usize);
            let mut set = (1u64 << k) - 1;
            for _ in 0..count {
                all.push(set);
                set = next_combination(set);
            }
            all
        };
        WorkIndex {
            per_other: binomial(n - o, m),
            others: sets(o, n),
            movers: sets(m, n - o),
            per_mover: binomial(n - m, o),
            all_movers: sets(m, n),
            squeezed_others: sets(o, n - m),
        }
    }

    /// The number of a position in the lists of decided positions: the mover's stones first,
    /// as [`MaterialIndex::full`].
    #[inline]
    pub(crate) fn listed(&self, mover: u64, other: u64) -> u64 {
        rank(mover) * self.per_mover + rank(squeeze(other, mover))
    }

    /// The position (mover, other) of a listed number.
    #[inline]
    pub(crate) fn unlisted(&self, listed: u64) -> (u64, u64) {
        let mover = self.all_movers[(listed / self.per_mover) as usize];
        (mover, spread(self.squeezed_others[(listed % self.per_mover) as usize], mover))
    }

    /// Positions: all of them, mirror images apart.
    pub(crate) fn len(&self) -> u64 {
        self.others.len() as u64 * self.per_other
    }

    /// The number of a position.
    #[inline]
    pub(crate) fn index(&self, mover: u64, other: u64) -> u64 {
        rank(other) * self.per_other + rank(squeeze(mover, other))
    }

    /// The positions of a run of numbers, in order, with their numbers.
    pub(crate) fn positions(
        &self,
        range: core::ops::Range<u64>,
    ) -> impl Iterator<Item = (u64, u64, u64)> + '_ {
        let mut block = (range.start / self.per_other) as usize;
        let mut within = (range.start % self.per_other) as usize;
        range.map(move |i| {
            let other = self.others[block];
            let here = (i, spread(self.movers[within], other), other);
            within += 1;
            if within == self.movers.len() {
                within = 0;
                block += 1;
            }
            here
        })
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

    #[test]
    fn work_numbers_round_trip_and_cover_every_position_once() {
        let rules: Ruleset = "arcade,rows=4,cols=4,stones=8".parse().unwrap();
        let board = Board::of(&rules);
        for material in [Material::new(3, 2), Material::new(2, 4)] {
            let index = MaterialIndex::new(&board, material);
            let work = WorkIndex::new(&board, material);
            assert_eq!(work.len(), index.full_len());
            let mut seen = vec![false; work.len() as usize];
            let walked: Vec<(u64, u64, u64)> = work.positions(0..work.len()).collect();
            for &(i, mover, other) in &walked {
                assert_eq!(work.index(mover, other), i);
                assert_eq!(mover & other, 0);
                assert_eq!(
                    (mover.count_ones(), other.count_ones()),
                    (u32::from(material.mover), u32::from(material.other))
                );
                assert!(mover | other < 1 << 16);
                let full = index.full(mover, other) as usize;
                assert_eq!(work.listed(mover, other), full as u64);
                assert_eq!(work.unlisted(full as u64), (mover, other));
                assert!(!seen[full], "{mover:b} {other:b} twice");
                seen[full] = true;
            }
            // Starting in the middle of a block walks the same positions.
            let start = work.len() / 3 + 1;
            for here in work.positions(start..start + 50) {
                assert_eq!(walked[here.0 as usize], here);
            }
        }
    }
}
