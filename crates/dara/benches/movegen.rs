//! Move generation speed: perft leaves per second (bulk counting at the last ply) and random
//! playouts per second. Each benchmark checks its node count first, so a faster but wrong
//! generator cannot pass unnoticed.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dara::{perft::perft, Position, Ruleset, SplitMix64};

/// (ruleset, position, depth, nodes): start positions and a movement position with captures.
const CASES: [(&str, &str, u32, u64); 3] = [
    ("arcade", "6/6/6/6/6 w 12 12 0", 4, 657_720),
    ("wikipedia", "2WW1B/1WBW1B/BBBWBB/2W1B1/4B1 w 0 0 0", 4, 15_712),
    ("jaques", "1BWW1B/WWB2W/BWW1BB/WBWWBB/B1WB1W b 0 0 0", 4, 215_524),
];

fn perft_leaves(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    for (rules, text, depth, nodes) in CASES {
        let rules: Ruleset = rules.parse().unwrap();
        let pos = Position::from_text(text, rules).unwrap();
        assert_eq!(perft(&pos, depth), nodes, "{rules} {text}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{rules} {text} depth {depth}"), |b| {
            b.iter(|| perft(&pos, depth))
        });
    }
    group.finish();
}

/// A fixed random game per iteration (SplitMix64 from a counter), uniform over legal moves.
fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("playout");
    for rules in ["arcade", "wikipedia"] {
        let rules: Ruleset = rules.parse().unwrap();
        let start = Position::start(rules);
        let mut rng = SplitMix64::new(0);
        group.bench_function(rules.to_string(), |b| {
            b.iter(|| {
                let mut pos = start.clone();
                let mut plies = 0;
                while let Some(m) = pos.pick_move(|n| rng.below(n as u64) as usize) {
                    pos.play_unchecked(m);
                    plies += 1;
                    if plies == 1000 {
                        break;
                    }
                }
                plies
            })
        });
    }
    group.finish();
}

criterion_group!(benches, perft_leaves, playouts);
criterion_main!(benches);
