//! Who plays whom in one pairing wave: the free players, ranked by the standings, paired with
//! their neighbours in rank, as lichess pairs an arena (lila
//! `modules/tournament/src/main/arena/PairingSystem.scala` and `AntmaPairing.scala`), with a
//! plain rule in place of lichess's weighted matching:
//!
//! 1. Two free players and no more are paired, whatever came before: nobody else is free.
//! 2. Otherwise a player is never paired with their last opponent (nor with a player whose last
//!    opponent they were), and, where it can be helped, not so that one of them would play a
//!    colour a fourth time running ([`crate::colours::MAX_RUN`]).
//! 3. From the best-ranked down, each free player not yet paired takes the nearest-ranked free
//!    player below them that rule 2 allows. A pair of players left over because they just met
//!    is split by swapping with a pair already made, when that breaks no rule.
//! 4. With an odd number free, the player who became free last sits this wave out (lichess's
//!    `WaitingUsers.evenNumber`), unless pairing everyone pairs more players. Left alone, they
//!    do not wait for the next wave: the arena pairs again as soon as another comes free.
//!
//! Colours: see [`crate::colours::ColourHistory::takes_pale_against`]; between the same
//! histories, the better-ranked player takes pale.

use crate::colours::ColourHistory;
use crate::time::WallTime;

/// A free player, as a pairing wave sees them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate<K> {
    /// Who.
    pub who: K,
    /// Their rank in the standings (1 is first).
    pub rank: u32,
    /// Since when they have been free to play (joined, came back, or their last game ended).
    pub free_since: WallTime,
    /// Whom they played last.
    pub last_opponent: Option<K>,
    /// Their colours so far.
    pub colours: ColourHistory,
}

/// Two players to meet, with their colours.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair<K> {
    /// Who takes the pale stones (and moves first).
    pub pale: K,
    /// Who takes the dark stones.
    pub dark: K,
}

/// The pairs of one wave, best-ranked first.
pub fn pair<K: Clone + Eq>(free: &[Candidate<K>]) -> Vec<Pair<K>> {
    let mut order: Vec<usize> = (0..free.len()).collect();
    order.sort_by_key(|&i| free[i].rank);
    let matched = match order.len() {
        0 | 1 => Vec::new(),
        2 => vec![(order[0], order[1])],
        n if n % 2 == 0 => neighbours(free, &order),
        _ => {
            let latest = (0..order.len())
                .max_by_key(|&k| (free[order[k]].free_since, free[order[k]].rank))
                .expect("three or more");
            let mut even = order.clone();
            even.remove(latest);
            let without = neighbours(free, &even);
            let with_all = neighbours(free, &order);
            if with_all.len() > without.len() {
                with_all
            } else {
                without
            }
        }
    };
    matched
        .into_iter()
        .map(|(better, worse)| {
            let (a, b) = (&free[better], &free[worse]);
            if a.colours.takes_pale_against(b.colours).unwrap_or(true) {
                Pair { pale: a.who.clone(), dark: b.who.clone() }
            } else {
                Pair { pale: b.who.clone(), dark: a.who.clone() }
            }
        })
        .collect()
}

/// Whether two players just met (either one's last opponent is the other).
fn just_met<K: Eq>(a: &Candidate<K>, b: &Candidate<K>) -> bool {
    a.last_opponent.as_ref() == Some(&b.who) || b.last_opponent.as_ref() == Some(&a.who)
}

/// Rules 2 and 3 over the players of `order` (best-ranked first): pairs of indices into `free`,
/// the better-ranked first, best pairs first.
fn neighbours<K: Eq>(free: &[Candidate<K>], order: &[usize]) -> Vec<(usize, usize)> {
    let n = order.len();
    let p = |k: usize| &free[order[k]];
    let mut taken = vec![false; n];
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for i in 0..n {
        if taken[i] {
            continue;
        }
        // The nearest allowed partner whose colours fit, else the nearest allowed one.
        let partner = (i + 1..n)
            .filter(|&j| !taken[j] && !just_met(p(i), p(j)))
            .min_by_key(|&j| (!p(i).colours.could_meet(p(j).colours), j));
        if let Some(j) = partner {
            taken[i] = true;
            taken[j] = true;
            pairs.push((i, j));
        }
    }
    // Every two players left over just met (else the loop above would have paired them): swap
    // them into a pair already made, when the two new pairs have not just met either.
    'swap: loop {
        let left: Vec<usize> = (0..n).filter(|&k| !taken[k]).collect();
        for (xi, &x) in left.iter().enumerate() {
            for &y in &left[xi + 1..] {
                for q in 0..pairs.len() {
                    let (a, b) = pairs[q];
                    let fits = |u: usize, v: usize| !just_met(p(u), p(v));
                    let new = if fits(a, x) && fits(b, y) {
                        Some(((a, x), (b, y)))
                    } else if fits(a, y) && fits(b, x) {
                        Some(((a, y), (b, x)))
                    } else {
                        None
                    };
                    if let Some((one, two)) = new {
                        let sorted = |(u, v): (usize, usize)| (u.min(v), u.max(v));
                        pairs[q] = sorted(one);
                        pairs.push(sorted(two));
                        taken[x] = true;
                        taken[y] = true;
                        continue 'swap;
                    }
                }
            }
        }
        break;
    }
    pairs.sort_unstable();
    pairs.into_iter().map(|(i, j)| (order[i], order[j])).collect()
}

#[cfg(test)]
mod tests {
    use dara::Colour;

    use super::*;

    fn free(rank: u32) -> Candidate<u32> {
        Candidate {
            who: rank,
            rank,
            free_since: WallTime::from_millis(0),
            last_opponent: None,
            colours: ColourHistory::default(),
        }
    }

    fn met(mut players: Vec<Candidate<u32>>, pairs: &[(u32, u32)]) -> Vec<Candidate<u32>> {
        for &(a, b) in pairs {
            players[a as usize - 1].last_opponent = Some(b);
            players[b as usize - 1].last_opponent = Some(a);
        }
        players
    }

    fn who_meets(pairs: &[Pair<u32>]) -> Vec<(u32, u32)> {
        pairs.iter().map(|p| (p.pale.min(p.dark), p.pale.max(p.dark))).collect()
    }

    #[test]
    fn neighbours_in_rank_meet() {
        let players: Vec<_> = (1..=6).map(free).collect();
        assert_eq!(who_meets(&pair(&players)), [(1, 2), (3, 4), (5, 6)]);
    }

    #[test]
    fn with_an_odd_number_the_last_to_come_free_waits() {
        let mut players: Vec<_> = (1..=5).map(free).collect();
        players[1].free_since = WallTime::from_millis(9_000);
        assert_eq!(who_meets(&pair(&players)), [(1, 3), (4, 5)]);
        // All free at once: the lowest-ranked waits.
        let players: Vec<_> = (1..=5).map(free).collect();
        assert_eq!(who_meets(&pair(&players)), [(1, 2), (3, 4)]);
    }

    #[test]
    fn last_opponents_do_not_meet_again_while_another_is_free() {
        let players = met((1..=4).map(free).collect(), &[(1, 2), (3, 4)]);
        assert_eq!(who_meets(&pair(&players)), [(1, 3), (2, 4)]);
        let players = met((1..=3).map(free).collect(), &[(1, 2)]);
        assert_eq!(who_meets(&pair(&players)), [(1, 3)]);
    }

    #[test]
    fn a_pair_left_over_is_swapped_into_another() {
        // 1 and 2 meet first; 3 and 4 just met, so they swap with 1 and 2.
        let players = met((1..=4).map(free).collect(), &[(3, 4)]);
        assert_eq!(who_meets(&pair(&players)), [(1, 3), (2, 4)]);
    }

    #[test]
    fn two_free_players_meet_again_when_nobody_else_is_free() {
        let players = met((1..=2).map(free).collect(), &[(1, 2)]);
        assert_eq!(who_meets(&pair(&players)), [(1, 2)]);
    }

    #[test]
    fn nobody_plays_alone() {
        assert!(pair(&[free(1)]).is_empty());
        assert!(pair::<u32>(&[]).is_empty());
    }

    #[test]
    fn who_had_dark_more_takes_pale_and_else_the_better_ranked() {
        let mut players: Vec<_> = (1..=2).map(free).collect();
        assert_eq!(pair(&players), [Pair { pale: 1, dark: 2 }]);
        players[1].colours = players[1].colours.with(Colour::Black);
        players[0].colours = players[0].colours.with(Colour::White);
        assert_eq!(pair(&players), [Pair { pale: 2, dark: 1 }]);
    }

    #[test]
    fn a_fourth_pale_in_a_row_is_avoided_where_it_can_be() {
        let mut players: Vec<_> = (1..=4).map(free).collect();
        for k in [0, 1] {
            players[k].colours =
                (0..3).fold(ColourHistory::default(), |h, _| h.with(Colour::White));
        }
        assert_eq!(who_meets(&pair(&players)), [(1, 3), (2, 4)]);
    }
}
