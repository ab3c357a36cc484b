//! The reply to a request: one line in the engine protocol's words, e.g.
//! `bestmove e4-d4 score cp 240 depth 9 nodes 210345 time 1000 pv e4-d4 d5-e5`.

use core::fmt;

use dara_engine::search::Outcome;

/// What the search chose and what it cost, as the page is told it: the search's own
/// [`Outcome`], written as one line. (The tablebase hits it counts are never more than 0 here:
/// the page has no tables.)
#[derive(Clone, Debug, PartialEq)]
pub struct Reply(pub Outcome);

impl From<Outcome> for Reply {
    fn from(outcome: Outcome) -> Reply {
        Reply(outcome)
    }
}

/// `bestmove <move|none> score <cp N|win N|loss N> depth N nodes N time MS [pv M...]`: the
/// words of the protocol's `bestmove` and `info` lines, in their order.
impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let outcome = &self.0;
        match outcome.best {
            Some(m) => write!(f, "bestmove {m}")?,
            None => f.write_str("bestmove none")?,
        }
        write!(
            f,
            " score {} depth {} nodes {} time {}",
            outcome.score,
            outcome.depth,
            outcome.nodes,
            outcome.time.as_millis()
        )?;
        if !outcome.pv.is_empty() {
            f.write_str(" pv")?;
            for m in &outcome.pv {
                write!(f, " {m}")?;
            }
        }
        Ok(())
    }
}
