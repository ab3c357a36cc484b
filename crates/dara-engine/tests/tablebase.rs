//! The search against the tablebases: where the search proves a forced result within its
//! horizon the tables say the same, and a search given the tables answers from them.

use std::sync::Arc;

use dara::{Bitboard, ByColour, Colour, Position, Ruleset, Setup, SplitMix64};
use dara_engine::{Limits, Score, Searcher, Style};
use dara_tablebase::{Material, Outcome, Silent, Tablebase};

/// A small board with a short quiet-plies limit: tables in seconds, and many positions whose
/// result a shallow search can prove.
const RULES: &str = "arcade,rows=4,cols=4,stones=8,quiet=12";

fn tables() -> Tablebase {
    let mut tb = Tablebase::new(RULES.parse().unwrap()).unwrap();
    tb.build(7, 2, &Silent, |_, _| {});
    tb
}

fn random_position(rules: Ruleset, material: Material, rng: &mut SplitMix64) -> Position {
    let mut free: Vec<dara::Cell> =
        Bitboard::board(rules.cols(), rules.rows()).into_iter().collect();
    let mut pick = |n: u8| {
        (0..n).fold(Bitboard::EMPTY, |stones, _| {
            stones.with(free.swap_remove(rng.below(free.len() as u64) as usize))
        })
    };
    let (mover, other) = (pick(material.mover), pick(material.other));
    let side = if rng.below(2) == 0 { Colour::White } else { Colour::Black };
    let mut stones = ByColour::default();
    stones[side] = mover;
    stones[!side] = other;
    let quiet = rng.below(12) as u32;
    let setup = Setup {
        cols: rules.cols(),
        rows: rules.rows(),
        stones,
        side,
        hand: ByColour::default(),
        quiet,
    };
    Position::from_setup(&setup, rules).unwrap()
}

#[test]
fn every_result_the_search_proves_is_the_tables_result() {
    let tb = tables();
    let rules: Ruleset = RULES.parse().unwrap();
    let mut rng = SplitMix64::new(5);
    let mut searcher = Searcher::new(4);
    let limits = Limits { depth: Some(5), ..Limits::default() };
    let mut proved = 0;
    for k in 0..1500 {
        let material = [Material::new(3, 3), Material::new(4, 3), Material::new(3, 4)][k % 3];
        let pos = random_position(rules, material, &mut rng);
        if pos.is_over() {
            continue;
        }
        searcher.clear();
        let found = searcher.search(&pos, &[], &limits, &Style::default(), &mut |_| {});
        let outcome = tb.probe_outcome(&pos).unwrap();
        match found.score {
            Score::Win(_) => assert!(matches!(outcome, Outcome::Win(_)), "{pos}: {outcome:?}"),
            Score::Loss(_) => assert!(matches!(outcome, Outcome::Loss(_)), "{pos}: {outcome:?}"),
            Score::Cp(_) => continue,
        }
        proved += 1;
    }
    assert!(proved > 100, "only {proved} positions proved");
}

#[test]
fn a_search_with_tables_answers_from_them() {
    let tb = Arc::new(tables());
    let rules: Ruleset = RULES.parse().unwrap();
    let mut rng = SplitMix64::new(6);
    let mut searcher = Searcher::new(4);
    searcher.set_tablebase(Some(Arc::clone(&tb)));
    let limits = Limits { depth: Some(3), ..Limits::default() };
    for _ in 0..200 {
        let pos = random_position(rules, Material::new(4, 3), &mut rng);
        if pos.is_over() {
            continue;
        }
        let found = searcher.search(&pos, &[], &limits, &Style::default(), &mut |_| {});
        let best = tb.rank_moves(&pos).unwrap()[0];
        assert_eq!(found.tb_hits, 1);
        let expected = match best.outcome {
            Outcome::Win(d) => Score::Win(u32::from(d)),
            Outcome::Loss(d) => Score::Loss(u32::from(d)),
            Outcome::Draw => Score::Cp(0),
        };
        assert_eq!(found.score, expected, "{pos}");
        // The move played keeps the tables' result.
        let m = found.best.unwrap();
        let kept = tb.rank_moves(&pos).unwrap().into_iter().find(|v| v.mv == m).unwrap();
        assert_eq!(kept.outcome, best.outcome, "{pos}: {m}");
    }
    // Inside the search too: 4 against 4 is not in these tables, but its captures lead into them.
    let mut hits = 0;
    for _ in 0..20 {
        let pos = random_position(rules, Material::new(4, 4), &mut rng);
        if !pos.is_over() {
            hits += searcher.search(&pos, &[], &limits, &Style::default(), &mut |_| {}).tb_hits;
        }
    }
    assert!(hits > 0);
}
