//! Sets of k cells out of n as numbers: the colexicographic rank of a combination, and back.

/// The most cells any board has (7 x 7).
pub(crate) const MAX_CELLS: usize = 49;

/// `BINOMIAL[n][k]` = n choose k, for n up to 49 and k up to 16 (no material has more stones a
/// side: a table of 16 stones a side would not fit in any memory anyway).
static BINOMIAL: [[u64; 17]; MAX_CELLS + 1] = build_binomials();

const fn build_binomials() -> [[u64; 17]; MAX_CELLS + 1] {
    let mut table = [[0u64; 17]; MAX_CELLS + 1];
    let mut n = 0;
    while n <= MAX_CELLS {
        table[n][0] = 1;
        let mut k = 1;
        while k <= 16 {
            table[n][k] = if n == 0 { 0 } else { table[n - 1][k - 1] + table[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    table
}

/// n choose k (0 when k > n).
#[inline]
pub(crate) fn binomial(n: usize, k: usize) -> u64 {
    BINOMIAL[n][k]
}

/// The colexicographic rank of the set bits of `set` (a combination of positions below 64):
/// the sum over the i-th lowest set bit `p` of `p choose i + 1`. Every k-subset of n positions
/// gets a distinct rank below `n choose k`.
#[inline]
pub(crate) fn rank(set: u64) -> u64 {
    let mut bits = set;
    let mut rank = 0;
    let mut i = 1;
    while bits != 0 {
        let p = bits.trailing_zeros() as usize;
        rank += BINOMIAL[p][i];
        bits &= bits - 1;
        i += 1;
    }
    rank
}

/// The combination of `k` positions below `n` with colexicographic rank `rank` (the inverse of
/// [`rank`]).
#[inline]
pub(crate) fn unrank(mut rank: u64, k: usize, n: usize) -> u64 {
    let mut set = 0;
    let mut p = n.min(MAX_CELLS);
    for i in (1..=k).rev() {
        // The largest p with p choose i <= rank.
        while BINOMIAL[p][i] > rank {
            p -= 1;
        }
        rank -= BINOMIAL[p][i];
        set |= 1 << p;
    }
    set
}

/// The combination after `set` in colexicographic order, which for sets of one size is the
/// order of their masks as numbers (Gosper's hack): walking a run of indexes one by one costs a
/// few instructions a position instead of an unranking.
#[inline]
pub(crate) fn next_combination(set: u64) -> u64 {
    let lowest = set & set.wrapping_neg();
    let ripple = set.wrapping_add(lowest);
    (((ripple ^ set) >> 2) / lowest) | ripple
}

/// `set` with the positions that are in `holes` taken out and the ones above moved down to fill
/// them: the black stones' places among the cells the white stones leave free.
///
/// One shift per hole (a side has at most a few stones), highest hole first so that the holes
/// below still stand where they were.
#[inline]
pub(crate) fn squeeze(set: u64, holes: u64) -> u64 {
    let mut out = set & !holes;
    let mut left = holes;
    while left != 0 {
        let p = 63 - left.leading_zeros();
        let below = (1u64 << p) - 1;
        out = (out & below) | ((out >> 1) & !below);
        left &= below;
    }
    out
}

/// The inverse of [`squeeze`]: spreads `set` over the positions that are not in `holes`.
///
/// One shift per hole, lowest first: opening the hole at `p` moves everything at `p` and above
/// up by one, and the holes above are numbered as they stand once every hole is open.
#[inline]
pub(crate) fn spread(set: u64, holes: u64) -> u64 {
    let mut out = set;
    let mut left = holes;
    while left != 0 {
        let below = (left & left.wrapping_neg()) - 1;
        out = (out & below) | ((out & !below) << 1);
        left &= left - 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_round_trip_and_are_dense() {
        for k in 0..=4 {
            let count = binomial(12, k);
            let mut seen = vec![false; count as usize];
            for set in 0u64..(1 << 12) {
                if set.count_ones() as usize != k {
                    continue;
                }
                let r = rank(set);
                assert!(r < count);
                assert!(!seen[r as usize]);
                seen[r as usize] = true;
                assert_eq!(unrank(r, k, 12), set);
                if r + 1 < count {
                    assert_eq!(rank(next_combination(set)), r + 1);
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn squeeze_and_spread_are_inverse() {
        let holes = 0b1011_0010u64;
        for set in 0u64..(1 << 8) {
            let spread_set = spread(set, holes);
            assert_eq!(spread_set & holes, 0);
            assert_eq!(squeeze(spread_set, holes), set);
        }
        assert_eq!(binomial(30, 4), 27_405);
    }

    /// Position `i` of a squeezed set is the `i`-th position not in `holes`, counted plainly.
    #[test]
    fn spread_puts_each_position_on_its_free_cell() {
        for holes in [0u64, 1, 0b1011_0010, 1 << 29 | 1 << 3 | 1, 0b1111 << 10, 0x2aa_aaaa] {
            let free: Vec<u64> = (0..30).filter(|p| holes & (1 << p) == 0).collect();
            for set in [0u64, 1, 0b1011, 0b1_0000_0110_0001, (1 << free.len()) - 1] {
                let mut expected = 0;
                for (i, &p) in free.iter().enumerate() {
                    if set & (1 << i) != 0 {
                        expected |= 1 << p;
                    }
                }
                assert_eq!(spread(set, holes), expected, "{set:b} over {holes:b}");
                assert_eq!(squeeze(expected, holes), set, "{expected:b} without {holes:b}");
            }
        }
    }
}
