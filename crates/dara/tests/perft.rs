//! The perft vectors of `data/perft.txt`, counted by an implementation written apart from ours.

use dara::{perft::perft, Position, Ruleset};

#[test]
fn every_perft_vector_agrees() {
    let data = include_str!("data/perft.txt");
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in data.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('|').collect();
        let [rules, position, depth, nodes] = fields[..] else {
            panic!("malformed vector line: {line}");
        };
        let rules: Ruleset = rules.parse().unwrap();
        let pos = Position::from_text(position, rules).unwrap();
        let depth: u32 = depth.parse().unwrap();
        let nodes: u64 = nodes.parse().unwrap();
        let counted = perft(&pos, depth);
        if counted != nodes {
            failures.push(format!("{line}: counted {counted}"));
        }
        checked += 1;
    }
    assert!(checked >= 44, "only {checked} vectors read");
    assert!(
        failures.is_empty(),
        "{} of {checked} vectors disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
