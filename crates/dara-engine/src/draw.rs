//! Whether the engine agrees to a draw offered to it: only when its search finds the position
//! drawn, that is when best play by both sides ends in a draw by the rules (the quiet-plies
//! limit) or in a repetition that neither side can avoid without doing worse. An even
//! estimate is not enough: the line the search expects must reach that draw.

use dara::{Move, Phase, Position, Status};

use crate::limits::Limits;
use crate::score::Score;
use crate::search::{Searcher, Style};

/// How hard the engine looks before it answers an offer, at every level: a fraction of a
/// second of one thread (and no deeper than a small board needs to see its repetitions). A
/// weak level misjudges moves on purpose, but a beginner who offers a draw still deserves a
/// true answer.
pub fn draw_limits() -> Limits {
    Limits { nodes: Some(300_000), depth: Some(24), ..Limits::default() }
}

/// Whether the engine, searching `pos` within `limits` (`history`: the hashes of the game's
/// earlier positions, oldest first), finds it drawn. A game already over is drawn only if the
/// rules drew it.
pub fn agrees_to_draw(
    searcher: &mut Searcher,
    pos: &Position,
    history: &[u64],
    limits: &Limits,
) -> bool {
    if pos.is_over() {
        return matches!(pos.status(), Status::Drawn(_));
    }
    let outcome = searcher.search(pos, history, limits, &Style::default(), &mut |_| {});
    outcome.score == Score::Cp(0) && ends_drawn(pos, history, &outcome.pv)
}

/// Whether `line`, played from `pos`, reaches a draw by the rules or a repetition as the search
/// counts one (the same position, same side to move, within the plies since the last capture).
fn ends_drawn(pos: &Position, history: &[u64], line: &[Move]) -> bool {
    let mut path = history.to_vec();
    let mut pos = pos.clone();
    for &m in line {
        if !pos.legal_moves().contains(&m) {
            return false;
        }
        path.push(pos.hash());
        pos.play_unchecked(m);
        if matches!(pos.status(), Status::Drawn(_)) {
            return true;
        }
        let back = (pos.quiet() as usize).min(path.len());
        let n = path.len();
        if pos.phase() == Phase::Movement
            && (2..=back).step_by(2).any(|i| path[n - i] == pos.hash())
        {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use dara::Ruleset;

    fn judge(text: &str, rules: &str) -> bool {
        let pos = Position::from_text(text, rules.parse::<Ruleset>().unwrap()).unwrap();
        agrees_to_draw(&mut Searcher::new(1), &pos, &[], &draw_limits())
    }

    #[test]
    fn a_draw_is_agreed_only_where_the_search_finds_one() {
        // Three stones each, spread so that no row can be forced: play goes round and round.
        assert!(judge("W4B/6/2WB2/6/B4W w 0 0 0", "ninja"), "a dead-even ending");
        // The same, one ply before the quiet-plies limit of the arcade rules: a draw by the rules.
        assert!(judge("W4B/6/2WB2/6/B4W w 0 0 79", "arcade"), "the quiet limit");
        // Pale steps into a row and takes a stone: won, not drawn.
        assert!(!judge("6/6/6/2W2B/WW2BB w 0 0 0", "ninja"), "a won position");
        // The smallest board: placed out, three stones each cannot force a row; with four the
        // side that places first loses.
        assert!(judge("3/3/3 w 3 3 0", "arcade,rows=3,cols=3,stones=3,quiet=none"), "3x3");
        assert!(!judge("3/3/3 w 4 4 0", "arcade,rows=3,cols=3,stones=4,quiet=none"), "3x3, 4");
        // Even, but nothing is decided yet.
        assert!(!judge("6/6/6/6/6 w 12 12 0", "arcade"), "the start");
    }

    #[test]
    fn an_even_score_without_a_drawn_line_is_not_a_draw() {
        let pos =
            Position::from_text("W4B/6/2WB2/6/B4W w 0 0 0", "ninja".parse().unwrap()).unwrap();
        assert!(!ends_drawn(&pos, &[], &[]));
        // Two steps there and two back: the position repeats.
        let mut at = pos.clone();
        let line: Vec<Move> = ["f1-f2", "a1-a2", "f2-f1", "a2-a1"]
            .iter()
            .map(|text| {
                let m = at.parse_move(text).unwrap();
                at.play_unchecked(m);
                m
            })
            .collect();
        assert!(!ends_drawn(&pos, &[], &line[..3]));
        assert!(ends_drawn(&pos, &[], &line));
    }
}
