//! The board drawn for a terminal: coordinates on every side, whose turn, hands, quiet plies
//! and how the game stands.

use std::fmt::Write;

use dara::{Cell, Colour, Move, Phase, Position};

/// The board of `pos`, with `last` (if any) marked, as lines of text.
pub fn draw(pos: &Position, last: Option<Move>) -> String {
    let rules = pos.rules();
    let files: String = (0..rules.cols()).map(|f| format!(" {}", (b'a' + f) as char)).collect();
    let marked = match last {
        Some(Move::Put(cell)) => vec![cell],
        Some(Move::Step { from, to, .. }) => vec![from, to],
        _ => vec![],
    };
    let mut out = String::new();
    let _ = writeln!(out, "   {files}");
    for rank in (0..rules.rows()).rev() {
        let _ = write!(out, "{:>2} ", rank + 1);
        for file in 0..rules.cols() {
            let cell = Cell::new(file, rank).expect("boards are at most 7 x 7");
            let mark = if marked.contains(&cell) { '>' } else { ' ' };
            let stone = if pos.stones(Colour::White).contains(cell) {
                'W'
            } else if pos.stones(Colour::Black).contains(cell) {
                'B'
            } else {
                '.'
            };
            out.push(mark);
            out.push(stone);
        }
        let _ = writeln!(out, "  {}", rank + 1);
    }
    let _ = writeln!(out, "   {files}");
    let side = pos.side();
    let _ = writeln!(out, "rules: {}", rules);
    let _ = writeln!(
        out,
        "{} to move ({} stones, {}), {} phase",
        side,
        side.stone_word(),
        side.stone_char(),
        pos.phase()
    );
    let _ = writeln!(
        out,
        "in hand: white {}, black {}; on the board: white {}, black {}",
        pos.hand(Colour::White),
        pos.hand(Colour::Black),
        pos.stones(Colour::White).count(),
        pos.stones(Colour::Black).count()
    );
    if pos.phase() == Phase::Movement {
        let _ = match rules.quiet() {
            Some(limit) => writeln!(out, "quiet plies: {} of {limit}", pos.quiet()),
            None => writeln!(out, "quiet plies: {} (no limit)", pos.quiet()),
        };
    }
    if let Some(m) = last {
        let _ = writeln!(out, "last move: {m}");
    }
    let _ = writeln!(out, "status: {}", pos.status());
    let _ = writeln!(out, "position: {pos}");
    out
}
