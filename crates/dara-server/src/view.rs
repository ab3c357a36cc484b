//! A position as the browser sees it: the board text, hands, counters, every legal move in
//! notation, and why each closed cell is closed. The page holds no rules: it draws this.

use std::collections::BTreeMap;

use dara::{Colour, MoveList, Phase, Position};
use serde::Serialize;

use crate::protocol::display;

/// One position, ready to draw.
#[derive(Debug, Clone, Serialize)]
pub struct PositionView {
    /// The five-field position text.
    pub fen: String,
    /// Who is to move: `white` or `black`.
    pub side: Colour,
    /// `placement` or `movement`.
    #[serde(serialize_with = "display")]
    pub phase: Phase,
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
    /// The view of `pos`, whose legal moves are `legal` (listed once by the caller, who
    /// also checks turns against them).
    pub fn of(pos: &Position, legal: &MoveList) -> PositionView {
        PositionView {
            fen: pos.to_string(),
            side: pos.side(),
            phase: pos.phase(),
            hand: Hands { white: pos.hand(Colour::White), black: pos.hand(Colour::Black) },
            quiet: pos.quiet(),
            quiet_limit: pos.rules().quiet(),
            forbidden: forbidden_placements(pos),
            legal: legal.iter().map(ToString::to_string).collect(),
        }
    }
}

/// Why each empty cell is closed to the placer, when the game is placing (the rules say).
fn forbidden_placements(pos: &Position) -> BTreeMap<String, String> {
    if pos.is_over() {
        return BTreeMap::new();
    }
    pos.closed_cells().map(|(cell, why)| (cell.to_string(), why.to_string())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_has_thirty_placements_and_nothing_closed() {
        let view = {
            let pos = Position::start("arcade".parse().unwrap());
            PositionView::of(&pos, &pos.legal_moves())
        };
        assert_eq!(view.legal.len(), 30);
        assert!(view.forbidden.is_empty());
        assert_eq!(view.quiet_limit, Some(80));
    }

    #[test]
    fn a_cell_that_would_make_three_says_why() {
        let rules = "arcade".parse().unwrap();
        let pos = Position::from_text("6/6/6/BB4/WW4 w 10 10 0", rules).unwrap();
        let view = PositionView::of(&pos, &pos.legal_moves());
        assert_eq!(view.forbidden["c1"], "placements may not make three or more in a line");
        assert!(!view.legal.contains(&"c1".to_owned()));
    }

    #[test]
    fn corner_opening_says_why() {
        let pos = Position::start("arcade,opening=corner".parse().unwrap());
        let view = PositionView::of(&pos, &pos.legal_moves());
        assert_eq!(view.legal.len(), 4);
        assert_eq!(view.forbidden["c3"], "the first stone of the game goes in a corner");
    }
}
