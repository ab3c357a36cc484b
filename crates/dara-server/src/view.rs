//! A position as the browser sees it: the board text, hands, counters, every legal move in
//! notation, and why each closed cell is closed. The page holds no rules: it draws this.

use std::collections::BTreeMap;

use dara::{Bitboard, Cell, Colour, Move, Opening, Phase, Place, Position};
use serde::Serialize;

use crate::game::clock::colour_name;

/// One position, ready to draw.
#[derive(Debug, Clone, Serialize)]
pub struct PositionView {
    /// The five-field position text.
    pub fen: String,
    /// Who is to move: `white` or `black`.
    pub side: &'static str,
    /// `placement` or `movement`.
    pub phase: String,
    /// Stones in hand, per colour.
    pub hand: Hands,
    /// Movement plies since the last capture.
    pub quiet: u32,
    /// The ruleset's quiet-plies limit, if it has one.
    pub quiet_limit: Option<u32>,
    /// Every legal move in canonical notation, each capture choice its own move.
    pub legal: Vec<String>,
    /// Empty cells the side to move may not place on, with the reason in words.
    pub forbidden: BTreeMap<String, String>,
}

/// Stones in hand.
#[derive(Debug, Clone, Serialize)]
pub struct Hands {
    /// White's (pale) stones in hand.
    pub white: u8,
    /// Black's (dark) stones in hand.
    pub black: u8,
}

impl PositionView {
    /// The view of `pos`.
    pub fn of(pos: &Position) -> PositionView {
        let legal: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
        PositionView {
            fen: pos.to_string(),
            side: colour_name(pos.side()),
            phase: pos.phase().to_string(),
            hand: Hands { white: pos.hand(Colour::White), black: pos.hand(Colour::Black) },
            quiet: pos.quiet(),
            quiet_limit: pos.rules().quiet(),
            forbidden: forbidden_placements(pos),
            legal,
        }
    }
}

/// Why each empty cell is closed to the placer, when the game is placing.
fn forbidden_placements(pos: &Position) -> BTreeMap<String, String> {
    let mut reasons = BTreeMap::new();
    if pos.phase() != Phase::Placement || pos.is_over() {
        return reasons;
    }
    let open: Bitboard = pos
        .legal_moves()
        .iter()
        .filter_map(|m| match m {
            Move::Put(cell) => Some(*cell),
            _ => None,
        })
        .collect();
    let rules = pos.rules();
    let side = pos.side();
    let placed = rules.stones() - pos.hand(side);
    let nothing_placed =
        pos.hand(Colour::White) == rules.stones() && pos.hand(Colour::Black) == rules.stones();
    for cell in pos.empty() {
        if open.contains(cell) {
            continue;
        }
        let reason = if pos.hand(side) == 0 {
            "you have no stones left in hand".to_owned()
        } else if rules.opening() == Opening::Corner
            && nothing_placed
            && !is_corner(cell, rules.cols(), rules.rows())
        {
            "the first stone of the game goes in a corner".to_owned()
        } else if rules.opening() == Opening::Centre
            && placed < 4
            && is_middle_file(cell, rules.cols())
        {
            "no stone in the middle files during your first four placements".to_owned()
        } else {
            match rules.place() {
                Place::Three => "a stone here would line up three or more of your own".to_owned(),
                Place::Four => "a stone here would line up four or more of your own".to_owned(),
                Place::Free => "this cell is closed".to_owned(),
            }
        };
        reasons.insert(cell.to_string(), reason);
    }
    reasons
}

fn is_corner(cell: Cell, cols: u8, rows: u8) -> bool {
    (cell.file() == 0 || cell.file() == cols - 1) && (cell.rank() == 0 || cell.rank() == rows - 1)
}

fn is_middle_file(cell: Cell, cols: u8) -> bool {
    if cols % 2 == 0 {
        cell.file() == cols / 2 - 1 || cell.file() == cols / 2
    } else {
        cell.file() == cols / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_has_thirty_placements_and_nothing_closed() {
        let view = PositionView::of(&Position::start("arcade".parse().unwrap()));
        assert_eq!(view.legal.len(), 30);
        assert!(view.forbidden.is_empty());
        assert_eq!(view.quiet_limit, Some(80));
    }

    #[test]
    fn a_cell_that_would_make_three_says_why() {
        let rules = "arcade".parse().unwrap();
        let pos = Position::from_text("6/6/6/BB4/WW4 w 10 10 0", rules).unwrap();
        let view = PositionView::of(&pos);
        assert!(view.forbidden["c1"].contains("three or more"));
        assert!(!view.legal.contains(&"c1".to_owned()));
    }

    #[test]
    fn corner_opening_says_why() {
        let pos = Position::start("arcade,opening=corner".parse().unwrap());
        let view = PositionView::of(&pos);
        assert_eq!(view.legal.len(), 4);
        assert_eq!(view.forbidden["c3"], "the first stone of the game goes in a corner");
    }
}
