//! Random games of every preset and several variants, with the engine asked for a move at tiny
//! node limits in every position: every answer must be legal, and `None` exactly when the game
//! is over.

use dara::{Position, Preset, Ruleset};
use dara_engine::level::Level;
use dara_engine::rng::Rng;
use dara_engine::{Limits, Searcher};

#[test]
fn every_bestmove_is_legal() {
    let mut rulesets: Vec<Ruleset> = Preset::ALL.iter().map(|p| p.ruleset()).collect();
    for text in [
        "arcade,diagonal=yes",
        "jaques,captures=per-row",
        "wikipedia,place=3",
        "ninja,lose-at=3",
        "arcade,rows=6,stones=15",
        "jaques,opening=centre,quiet=20",
        "arcade,rows=3,cols=4,stones=5",
    ] {
        rulesets.push(text.parse().unwrap());
    }
    let mut rng = Rng::new(2026);
    let mut searched = 0;
    for rules in rulesets {
        for game in 0..3 {
            let mut searcher = Searcher::new(1);
            let mut pos = Position::start(rules);
            let mut history = Vec::new();
            for _ in 0..200 {
                let level = Level::new(1 + rng.below(8) as u8).unwrap();
                let (mut limits, style) = level.plan(&Limits::nodes(1 + rng.below(300)), &mut rng);
                limits.movetime = None;
                let out = searcher.search(&pos, &history, &limits, &style, &mut |_| {});
                searched += 1;
                let legal = pos.legal_moves();
                match out.best {
                    None => {
                        assert!(legal.is_empty(), "{rules} {pos}: no move but {legal:?}");
                        break;
                    }
                    Some(m) => assert!(legal.contains(&m), "{rules} {pos}: illegal {m}"),
                }
                // Mostly random play, so the positions are varied; sometimes the engine's move.
                let m = if game == 0 || rng.chance(0.7) {
                    legal[rng.below(legal.len() as u64) as usize]
                } else {
                    out.best.unwrap()
                };
                history.push(pos.hash());
                pos.play_unchecked(m);
            }
        }
    }
    assert!(searched > 1000, "{searched}");
}
