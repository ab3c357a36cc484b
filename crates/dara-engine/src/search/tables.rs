//! The tablebases inside the search: a root position they hold is answered by them, and any
//! other position they hold is a leaf.

use dara::{Move, Position};

use super::Searcher;
use crate::score::{Score, Value, DRAW, MAX_PLY, WIN};

impl Searcher {
    /// The tables' result for `pos` as a search value at `ply`, if the tables hold it.
    #[inline]
    pub(super) fn probe_tables(&mut self, pos: &Position, ply: usize) -> Option<Value> {
        if !self.tables_apply {
            return None;
        }
        let outcome = self.tablebase.as_ref()?.lookup(pos)?;
        self.tb_hits += 1;
        let at = |dtc: u16| WIN - (ply + usize::from(dtc)).min(MAX_PLY) as Value;
        Some(match outcome {
            dara_tablebase::Outcome::Win(dtc) => at(dtc),
            dara_tablebase::Outcome::Loss(dtc) => -at(dtc),
            dara_tablebase::Outcome::Draw => DRAW,
        })
    }

    /// The tables' best move at the root, with its score, if the tables hold the position.
    pub(super) fn root_from_tables(&self, pos: &Position) -> Option<(Move, Score)> {
        let tb = self.tablebase.as_ref().filter(|_| self.tables_apply)?;
        let best = *tb.rank_moves(pos).ok()?.first()?;
        let score = match best.outcome {
            dara_tablebase::Outcome::Win(dtc) => Score::Win(u32::from(dtc)),
            dara_tablebase::Outcome::Loss(dtc) => Score::Loss(u32::from(dtc)),
            dara_tablebase::Outcome::Draw => Score::Cp(0),
        };
        Some((best.mv, score))
    }
}
