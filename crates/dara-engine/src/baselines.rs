//! Fixed opponents to measure the engine against: `random` (a uniformly random legal move),
//! `greedy` (a capture whenever there is one, otherwise a random move) and `material4` (a plain
//! depth-4 alpha-beta that counts stones and nothing else). They share no code with the search,
//! so that improving the engine never moves the yardstick.

use dara::{Move, Position, Status};

use crate::eval::material;
use crate::rng::Rng;
use crate::score::{Value, INFINITE, WIN};

/// A uniformly random legal move (`None` when the game is over).
pub fn random_move(pos: &Position, rng: &mut Rng) -> Option<Move> {
    let moves = pos.legal_moves();
    (!moves.is_empty()).then(|| moves[rng.below(moves.len() as u64) as usize])
}

/// A capture whenever the position offers one, otherwise any legal move; uniformly at random
/// among those (`None` when the game is over). One ply deep and blind to the reply: the step
/// between `random` and `material4`.
pub fn greedy_move(pos: &Position, rng: &mut Rng) -> Option<Move> {
    let moves = pos.legal_moves();
    let captures = moves.iter().filter(|m| m.is_capture()).count() as u64;
    if captures == 0 {
        return (!moves.is_empty()).then(|| moves[rng.below(moves.len() as u64) as usize]);
    }
    let pick = rng.below(captures) as usize;
    moves.iter().filter(|m| m.is_capture()).nth(pick).copied()
}

/// The best move by a depth-`depth` alpha-beta on material, ties broken at random.
pub fn material_move(pos: &Position, depth: u32, rng: &mut Rng) -> Option<Move> {
    let mut moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    // Shuffle, then captures first: equal moves are picked at random, cut-offs stay quick.
    for i in (1..moves.len()).rev() {
        moves.swap(i, rng.below(i as u64 + 1) as usize);
    }
    moves.sort_by_key(|m| !m.is_capture());
    let mut best = moves[0];
    let mut alpha = -INFINITE;
    for m in moves {
        let v = -alphabeta(&pos.after(m), depth.saturating_sub(1), -INFINITE, -alpha, 1);
        if v > alpha {
            alpha = v;
            best = m;
        }
    }
    Some(best)
}

fn alphabeta(pos: &Position, depth: u32, mut alpha: Value, beta: Value, ply: i32) -> Value {
    match pos.status() {
        Status::Won { winner, .. } if winner == pos.side() => return WIN - ply,
        Status::Won { .. } => return -(WIN - ply),
        Status::Drawn(_) => return 0,
        Status::Ongoing => {}
    }
    if depth == 0 {
        return material(pos);
    }
    let mut moves = pos.legal_moves();
    moves.sort_by_key(|m| !m.is_capture());
    let mut best = -INFINITE;
    for m in moves {
        let v = -alphabeta(&pos.after(m), depth - 1, -beta, -alpha, ply + 1);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use dara::Ruleset;

    #[test]
    fn material_takes_a_free_stone() {
        let pos = Position::from_text("6/6/6/2W2B/WW2BB w 0 0 0", Ruleset::default()).unwrap();
        let m = material_move(&pos, 4, &mut Rng::new(1)).unwrap();
        assert!(m.is_capture());
        assert!(random_move(&pos, &mut Rng::new(1)).is_some());
    }

    #[test]
    fn greedy_always_captures_when_it_can_and_otherwise_moves_at_random() {
        // Pale's c2-c1 makes a1 b1 c1 and may take any of the three dark stones; every other
        // step takes nothing.
        let pos = Position::from_text("6/6/6/2W2B/WW2BB w 0 0 0", Ruleset::default()).unwrap();
        let captures: Vec<Move> =
            pos.legal_moves().iter().copied().filter(|m| m.is_capture()).collect();
        assert!(!captures.is_empty() && captures.len() < pos.legal_moves().len());
        let mut rng = Rng::new(7);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200 {
            let m = greedy_move(&pos, &mut rng).unwrap();
            assert!(m.is_capture(), "{m}");
            seen.insert(m);
        }
        // Every capture choice is taken sometimes: the pick among them is random.
        assert_eq!(seen.len(), captures.len());

        // No capture on offer: any legal move, more than one of them over many tries.
        let quiet = Position::from_text("1B2W1/6/2WB2/6/W4B w 0 0 0", Ruleset::default()).unwrap();
        assert!(quiet.legal_moves().iter().all(|m| !m.is_capture()));
        let picked: std::collections::HashSet<Move> =
            (0..100).map(|_| greedy_move(&quiet, &mut rng).unwrap()).collect();
        assert!(picked.len() > 1);
        assert!(picked.iter().all(|m| quiet.legal_moves().contains(m)));
    }
}
