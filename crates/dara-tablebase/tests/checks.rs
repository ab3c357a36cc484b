//! The tables checked against the rules crate: each entry against its moves (consistency), every
//! position of small materials against a naive minimax over (position, quiet plies) that shares
//! no code with the tables, mirror images, taken-back steps, and the file format.

mod common;

use std::collections::HashMap;
use std::sync::OnceLock;

use dara::{Bitboard, Colour, Move, MoveList, Position, Ruleset, SplitMix64, Status};
use dara_tablebase::board::SYMMETRIES;
use dara_tablebase::unmove::for_each_quiet_predecessor;
use dara_tablebase::{Material, Outcome, Tablebase, Value, Wdl};

use common::{build, random_position};

/// A 4 x 4 arcade board with a short quiet-plies limit, so that cursed wins and blessed losses
/// occur and the naive search stays small.
const SMALL_ARCADE: &str = "arcade,rows=4,cols=4,stones=8,quiet=12";
/// The same for wikipedia's rules (protection, no lines of four).
const SMALL_WIKIPEDIA: &str = "wikipedia,rows=4,cols=4,stones=8,quiet=10";

fn small_arcade() -> &'static Tablebase {
    static TB: OnceLock<Tablebase> = OnceLock::new();
    TB.get_or_init(|| build(SMALL_ARCADE, 7))
}

fn small_wikipedia() -> &'static Tablebase {
    static TB: OnceLock<Tablebase> = OnceLock::new();
    TB.get_or_init(|| build(SMALL_WIKIPEDIA, 7))
}

/// A 4 x 3 board, where a naive search reaches a material that captures into another quickly.
const TINY_ARCADE: &str = "arcade,rows=3,cols=4,stones=6,quiet=12";
/// The same under wikipedia's rules.
const TINY_WIKIPEDIA: &str = "wikipedia,rows=3,cols=4,stones=6,quiet=12";

/// What a move is worth to its player by the tables: the Bellman step the builder must satisfy,
/// written here from the rules crate's positions alone.
fn move_value(tb: &Tablebase, pos: &Position, m: Move, limit: Option<u32>) -> Value {
    let child = pos.after(m);
    if child.stones_on_board(child.side()) <= pos.rules().lose_at() {
        return Value { wdl: Wdl::Win, dtc: 1 };
    }
    let after = tb.probe(&child).expect("a smaller or equal material is solved");
    let wdl = after.wdl.flipped();
    if wdl == Wdl::Draw {
        return Value::DRAW;
    }
    let dtc = if !m.is_capture() {
        after.dtc + 1
    } else if after.under_limit(0, limit) == Outcome::Draw {
        // A capture into a cursed win or blessed loss keeps its result only without the limit.
        limit.map_or(1, |l| l as u16 + 1)
    } else {
        1
    };
    Value { wdl, dtc }
}

/// The value the position must have given its moves' values.
fn best_of_moves(tb: &Tablebase, pos: &Position) -> Value {
    let limit = pos.rules().quiet();
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    if moves.is_empty() {
        return Value { wdl: Wdl::Loss, dtc: 1 };
    }
    let values: Vec<Value> = moves.iter().map(|&m| move_value(tb, pos, m, limit)).collect();
    if let Some(d) = values.iter().filter(|v| v.wdl == Wdl::Win).map(|v| v.dtc).min() {
        Value { wdl: Wdl::Win, dtc: d }
    } else if values.iter().any(|v| v.wdl == Wdl::Draw) {
        Value::DRAW
    } else {
        Value { wdl: Wdl::Loss, dtc: values.iter().map(|v| v.dtc).max().unwrap_or(1) }
    }
}

fn check_consistency(tb: &Tablebase, samples: usize, seed: u64) {
    let rules = *tb.rules().ruleset();
    let mut rng = SplitMix64::new(seed);
    for material in tb.materials().collect::<Vec<_>>() {
        for k in 0..samples {
            let side = if k % 2 == 0 { Colour::White } else { Colour::Black };
            let pos = random_position(rules, material, side, 0, &mut rng);
            let stored = tb.probe(&pos).unwrap();
            assert_eq!(stored, best_of_moves(tb, &pos), "{material}: {pos}");
        }
    }
}

#[test]
fn every_entry_is_the_best_of_its_moves_on_a_small_board() {
    check_consistency(small_arcade(), 3000, 1);
    check_consistency(small_wikipedia(), 3000, 2);
}

#[test]
fn every_entry_is_the_best_of_its_moves_on_the_real_board() {
    // 3 against 3 only: the smallest material of the real board takes seconds to build, and
    // wikipedia's rules are checked on the small board.
    let tb = build("arcade", 6);
    check_consistency(&tb, 5000, 3);
    let counts = tb.table(Material::new(3, 3)).unwrap().counts();
    assert!(counts.iter().all(|&c| c > 0), "{counts:?}");
}

/// The game's value by plain minimax over the rules crate's positions, the quiet-plies counter
/// included (the rules crate judges the draw), memoised by stones, side and counter.
struct Naive {
    memo: HashMap<(u64, u64, Colour, u32), i8>,
}

impl Naive {
    /// +1 the side to move wins, 0 draw, -1 loses.
    fn value(&mut self, pos: &Position) -> i8 {
        match pos.status() {
            Status::Won { winner, .. } => return if winner == pos.side() { 1 } else { -1 },
            Status::Drawn(_) => return 0,
            Status::Ongoing => {}
        }
        let key =
            (pos.stones(Colour::White).0, pos.stones(Colour::Black).0, pos.side(), pos.quiet());
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut best = -1;
        for m in pos.legal_moves() {
            best = best.max(-self.value(&pos.after(m)));
            if best == 1 {
                break;
            }
        }
        self.memo.insert(key, best);
        best
    }
}

fn check_against_naive(tb: &Tablebase, material: Material) {
    let rules = *tb.rules().ruleset();
    let limit = rules.quiet().expect("the small rulesets have a limit");
    let board = Bitboard::board(rules.cols(), rules.rows());
    let cells: Vec<u64> = board.into_iter().map(|c| Bitboard::from_cell(c).0).collect();
    let mut naive = Naive { memo: HashMap::new() };
    let mut checked = 0;
    // Every placement of the stones, by walking all subsets of the right sizes.
    let subsets = |k: u8| -> Vec<u64> {
        (0u32..1 << cells.len())
            .filter(|s| s.count_ones() == u32::from(k))
            .map(|s| (0..cells.len()).filter(|i| s & 1 << i != 0).map(|i| cells[i]).sum())
            .collect()
    };
    let (movers, others) = (subsets(material.mover), subsets(material.other));
    for &mover in &movers {
        for &other in others.iter().filter(|&&o| o & mover == 0) {
            for quiet in [0, limit / 2, limit - 1, limit] {
                let text_board = dara::Setup {
                    cols: rules.cols(),
                    rows: rules.rows(),
                    stones: dara::ByColour { white: Bitboard(mover), black: Bitboard(other) },
                    side: Colour::White,
                    hand: dara::ByColour::default(),
                    quiet,
                };
                let pos = Position::from_setup(&text_board, rules).unwrap();
                let expected = naive.value(&pos);
                let got = match tb.probe_outcome(&pos).unwrap() {
                    Outcome::Win(_) => 1,
                    Outcome::Draw => 0,
                    Outcome::Loss(_) => -1,
                };
                assert_eq!(got, expected, "{pos} under {rules}");
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000);
}

#[test]
fn a_naive_minimax_with_the_quiet_counter_agrees_on_every_position() {
    check_against_naive(small_arcade(), Material::new(3, 3));
    let tiny = build(TINY_WIKIPEDIA, 6);
    check_against_naive(&tiny, Material::new(3, 3));
}

#[test]
fn a_naive_minimax_agrees_on_a_material_that_captures_into_another() {
    let tiny = build(TINY_ARCADE, 7);
    check_against_naive(&tiny, Material::new(4, 3));
    check_against_naive(&tiny, Material::new(3, 4));
}

#[test]
fn cursed_wins_and_blessed_losses_occur_under_a_short_limit() {
    let tb = small_arcade();
    let limit = Some(12);
    let values: Vec<Value> = tb
        .materials()
        .flat_map(|m| {
            let table = tb.table(m).unwrap();
            (0..table.len()).map(|i| table.value(i)).collect::<Vec<_>>()
        })
        .collect();
    assert!(values.iter().any(|v| v.is_cursed_win(limit)));
    assert!(values.iter().any(|v| v.is_blessed_loss(limit)));
}

/// The builder never used the mirror images: entries of a position and its image, where the
/// side to move's stones are their own image, are stored apart and must agree.
#[test]
fn mirror_images_agree() {
    for tb in [small_arcade(), small_wikipedia()] {
        let board = tb.rules().board();
        let mut compared = 0;
        for material in tb.materials().collect::<Vec<_>>() {
            let table = tb.table(material).unwrap();
            let index = table.index();
            for i in 0..index.full_len() {
                let (mover, other) = index.unfull(i);
                for s in 1..SYMMETRIES {
                    if board.mirror(s, mover) != mover {
                        continue;
                    }
                    let image = board.mirror(s, other);
                    let a = tb.value_of_masks(material, mover, other);
                    let b = tb.value_of_masks(material, mover, image);
                    assert_eq!(a, b, "{material}: {mover:#x} {other:#x} under symmetry {s}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 1000);
    }
}

/// Taking a step back gives exactly the positions whose quiet steps (by the rules crate) lead
/// to the position.
#[test]
fn steps_taken_back_are_the_rules_crates_quiet_steps() {
    for tb in [small_arcade(), small_wikipedia()] {
        let rules = tb.rules();
        let ruleset = *rules.ruleset();
        let mut rng = SplitMix64::new(9);
        for k in 0..3000 {
            let material = if k % 2 == 0 { Material::new(4, 3) } else { Material::new(3, 4) };
            let pos = random_position(ruleset, material, Colour::White, 0, &mut rng);
            let (mover, stepper) = rules.masks(&pos);
            let mut taken_back = Vec::new();
            for_each_quiet_predecessor(rules, mover, stepper, |q_mover, q_other| {
                taken_back.push((q_mover, q_other));
            });
            // Each one steps quietly into the position.
            for &(q_mover, q_other) in &taken_back {
                let q = rules.position(q_mover, q_other);
                let leads_here = q
                    .legal_moves()
                    .into_iter()
                    .any(|m| !m.is_capture() && rules.masks(&q.after(m)) == (mover, stepper));
                assert!(leads_here, "{q} does not step into {pos}");
            }
            // And each quiet step of the position is taken back from where it leads.
            for m in pos.legal_moves().into_iter().filter(|m| !m.is_capture()) {
                let (c_mover, c_stepper) = rules.masks(&pos.after(m));
                let mut found = false;
                for_each_quiet_predecessor(rules, c_mover, c_stepper, |a, b| {
                    found |= (a, b) == (mover, stepper);
                });
                assert!(found, "{m} from {pos} is not taken back");
            }
        }
    }
}

#[test]
fn files_round_trip_and_refuse_what_does_not_match() {
    let tb = small_wikipedia();
    let dir = std::env::temp_dir().join(format!("dara-tb-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for material in tb.materials().collect::<Vec<_>>() {
        tb.save(&dir, tb.table(material).unwrap()).unwrap();
    }
    let rules: Ruleset = SMALL_WIKIPEDIA.parse().unwrap();
    let mut loaded = Tablebase::new(rules).unwrap();
    assert_eq!(loaded.load_dir(&dir, 7).unwrap(), 3);
    assert_eq!(loaded.stones(), 7);
    for material in tb.materials() {
        assert_eq!(loaded.table(material).unwrap().counts(), tb.table(material).unwrap().counts());
    }
    // A damaged entry is caught by the checksum.
    let path = tb.path(&dir, Material::new(3, 3));
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&path, &bytes).unwrap();
    let err = Tablebase::new(rules).unwrap().load_dir(&dir, 7).unwrap_err().to_string();
    assert!(err.contains("checksum"), "{err}");
    // A file for another material, under this material's name, is refused.
    std::fs::copy(tb.path(&dir, Material::new(3, 4)), &path).unwrap();
    let err = Tablebase::new(rules).unwrap().load_dir(&dir, 7).unwrap_err().to_string();
    assert!(err.contains("holds 3v4, not 3v3"), "{err}");
    // Tables of another ruleset are refused.
    let other: Ruleset = "wikipedia,rows=4,cols=4,stones=8,quiet=11".parse().unwrap();
    let other_tb = Tablebase::new(other).unwrap();
    std::fs::copy(tb.path(&dir, Material::new(3, 4)), other_tb.path(&dir, Material::new(3, 3)))
        .unwrap();
    let err = Tablebase::new(other).unwrap().load_dir(&dir, 7).unwrap_err().to_string();
    assert!(err.contains("not 3v3") || err.contains("not wikipedia"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn rulesets_outside_the_two_presets_are_refused_with_a_reason() {
    for (text, why) in [
        ("jaques", "jaques preset is not solved"),
        ("arcade,diagonal=yes", "diagonal"),
        ("arcade,captures=per-row", "captures=one"),
        ("arcade,lose-at=3", "lose-at"),
    ] {
        let err = Tablebase::new(text.parse().unwrap()).unwrap_err().to_string();
        assert!(err.contains(why), "{text}: {err}");
    }
}

#[test]
fn probes_say_why_a_position_is_not_in_the_tables() {
    let tb = small_wikipedia();
    let rules: Ruleset = SMALL_WIKIPEDIA.parse().unwrap();
    let placing = Position::start(rules);
    assert!(tb.probe(&placing).unwrap_err().to_string().contains("placed"));
    let big = Position::from_text("WWWW/BBBB/W3/B3 w 0 0 0", rules).unwrap();
    assert!(tb.probe(&big).unwrap_err().to_string().contains("no table for 5v5"));
    let other = Position::from_text(
        "WWW1/BBB1/4/4 w 0 0 0",
        "arcade,rows=4,cols=4,stones=8".parse().unwrap(),
    )
    .unwrap();
    assert!(tb.probe(&other).unwrap_err().to_string().contains("tables are for"));
}
