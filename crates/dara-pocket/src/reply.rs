//! The reply to a request: one line in the engine protocol's words, e.g.
//! `bestmove e4-d4 score cp 240 depth 9 nodes 210345 time 1000 pv e4-d4 d5-e5`.

use core::fmt;
use std::time::Duration;

use dara::Move;
use dara_engine::search::Outcome;
use dara_engine::Score;

/// What the search chose, and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The move to play; `None` when the game is already over.
    pub best: Option<Move>,
    /// Its score for the side to move.
    pub score: Score,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken, on the clock the search was handed.
    pub time: Duration,
    /// The principal variation, best move first.
    pub pv: Vec<Move>,
}

impl From<Outcome> for Reply {
    fn from(o: Outcome) -> Reply {
        Reply {
            best: o.best,
            score: o.score,
            depth: o.depth,
            nodes: o.nodes,
            time: o.time,
            pv: o.pv,
        }
    }
}

/// `bestmove <move|none> score <cp N|win N|loss N> depth N nodes N time MS [pv M...]`: the
/// words of the protocol's `bestmove` and `info` lines, in their order.
impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.best {
            Some(m) => write!(f, "bestmove {m}")?,
            None => f.write_str("bestmove none")?,
        }
        write!(
            f,
            " score {} depth {} nodes {} time {}",
            self.score,
            self.depth,
            self.nodes,
            self.time.as_millis()
        )?;
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            for m in &self.pv {
                write!(f, " {m}")?;
            }
        }
        Ok(())
    }
}
