//! A position as the browser sees it: the board text, hands, counters, every legal move in
//! notation, and why each closed cell is closed. The page holds no rules: it draws this.

use std::fmt::Write as _;

use dara::{Cell, ClosedCell, Colour, MoveList, Phase, Position};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use super::display::display;

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
    /// Every legal move, each capture choice its own move: in canonical notation on the wire.
    #[serde(serialize_with = "notation")]
    pub legal: MoveList,
    /// Empty cells the side to move may not place on, with the reason: on the wire, each
    /// cell's name with the reason in words.
    #[serde(serialize_with = "reasons")]
    pub forbidden: Vec<(Cell, ClosedCell)>,
    /// The same closed cells with a code for each reason (`{"c1": "would-make-three"}`), for
    /// a page to word in its own language.
    #[serde(serialize_with = "codes")]
    pub closed: Vec<(Cell, ClosedCell)>,
}

/// Moves as notation: each written into one reused buffer and given whole to the serializer
/// (written straight into the message, a move came out in a handful of pieces, each checked for
/// characters to escape on its own).
fn notation<S: Serializer>(moves: &MoveList, s: S) -> Result<S::Ok, S::Error> {
    use std::fmt::Write;
    let mut list = s.serialize_seq(Some(moves.len()))?;
    let mut text = String::with_capacity(16);
    for m in moves {
        text.clear();
        write!(text, "{m}").map_err(serde::ser::Error::custom)?;
        list.serialize_element(text.as_str())?;
    }
    list.end()
}

/// Closed cells as `{"c3": "reason"}`.
fn reasons<S: Serializer>(closed: &[(Cell, ClosedCell)], s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(closed.len()))?;
    for (cell, why) in closed {
        map.serialize_entry(cell, &DisplayAsStr(why))?;
    }
    map.end()
}

/// Closed cells as `{"c3": "code"}`: each reason's code as the rules write it.
fn codes<S: Serializer>(closed: &[(Cell, ClosedCell)], s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(closed.len()))?;
    for (cell, why) in closed {
        map.serialize_entry(cell, why)?;
    }
    map.end()
}

/// Serialises a value as the string its `Display` writes.
struct DisplayAsStr<'a, T>(&'a T);

impl<T: core::fmt::Display> Serialize for DisplayAsStr<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self.0)
    }
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
        // Asked of the rules once: each empty cell is tried as a placement.
        let closed = forbidden_placements(pos);
        // Room for the longest position text at once: grown a push at a time it took four
        // allocations, one of them each turn in the allocator's slow way.
        let mut fen = String::with_capacity(64);
        write!(fen, "{pos}").expect("a String takes every write");
        PositionView {
            fen,
            side: pos.side(),
            phase: pos.phase(),
            hand: Hands { white: pos.hand(Colour::White), black: pos.hand(Colour::Black) },
            quiet: pos.quiet(),
            quiet_limit: pos.rules().quiet(),
            forbidden: closed.clone(),
            closed,
            legal: legal.clone(),
        }
    }
}

/// Why each empty cell is closed to the placer, when the game is placing (the rules say).
fn forbidden_placements(pos: &Position) -> Vec<(Cell, ClosedCell)> {
    if pos.is_over() {
        return Vec::new();
    }
    pos.closed_cells().collect()
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    /// The view of `pos` as the wire carries it.
    fn wire(pos: &Position) -> Value {
        serde_json::to_value(PositionView::of(pos, &pos.legal_moves())).unwrap()
    }

    #[test]
    fn the_start_has_thirty_placements_and_nothing_closed() {
        let view = wire(&Position::start("arcade".parse().unwrap()));
        assert_eq!(view["legal"].as_array().unwrap().len(), 30);
        assert_eq!(view["legal"][0], "a1");
        assert_eq!(view["forbidden"], serde_json::json!({}));
        assert_eq!(view["quiet_limit"], 80);
        assert_eq!(view["side"], "white");
        assert_eq!(view["phase"], "placement");
    }

    #[test]
    fn a_cell_that_would_make_three_says_why() {
        let rules = "arcade".parse().unwrap();
        let view = wire(&Position::from_text("6/6/6/BB4/WW4 w 10 10 0", rules).unwrap());
        assert_eq!(view["forbidden"]["c1"], "placements may not make three or more in a line");
        assert_eq!(view["closed"]["c1"], "would-make-three");
        assert!(!view["legal"].as_array().unwrap().contains(&Value::from("c1")));
    }

    #[test]
    fn corner_opening_says_why() {
        let view = wire(&Position::start("arcade,opening=corner".parse().unwrap()));
        assert_eq!(view["legal"].as_array().unwrap().len(), 4);
        assert_eq!(view["forbidden"]["c3"], "the first stone of the game goes in a corner");
        assert_eq!(view["closed"]["c3"], "corner-opening");
    }
}
