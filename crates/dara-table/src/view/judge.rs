//! The rules' answers about one position, for the pages that teach (the guided first game, the
//! puzzles, the analysis board): they set up positions no game reached and ask what may be
//! played there, why a cell is closed, whether a move is legal (and why not) and what it leads
//! to; the rules crate answers, so the pages judge nothing themselves. The server answers
//! `POST /api/position` with it, and the page's WebAssembly module the same question offline.

use dara::{Illegal, MoveError, Position, Ruleset, Status};
use serde::{Deserialize, Serialize};

use super::PositionView;

/// Longer texts are not positions or rulesets of any board the rules allow.
const LONGEST_POSITION: usize = 120;
const LONGEST_RULES: usize = 200;
const LONGEST_MOVE: usize = 40;

/// What a page asks about a position.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// The position in notation.
    pub position: String,
    /// The ruleset in notation; `arcade` when absent.
    #[serde(default)]
    pub rules: Option<String>,
    /// A move to judge and, if it is legal, to play.
    #[serde(default, rename = "move")]
    pub try_move: Option<String>,
}

/// The rules' answer: the position ready to draw, how the game stands there, and the verdict
/// on the move asked about.
#[derive(Debug, Serialize)]
pub struct Answer {
    /// The position as a game's page gets it: legal moves, closed cells with their reasons.
    pub pos: PositionView,
    /// Whether the game is over there, and how: as the rules write it, `{"result": "1-0",
    /// "winner": "white", "code": "no-moves"}` (the codes of an `end` event's rules endings).
    pub status: Status,
    /// The move asked about, judged; absent when none was asked about.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
}

/// A move judged by the rules.
#[derive(Debug, Serialize)]
#[serde(tag = "verdict", rename_all = "lowercase")]
pub enum Verdict {
    /// The move may be played: in canonical notation, and the position it leads to.
    Legal {
        /// The move as the rules write it.
        m: String,
        /// The position after it.
        pos: PositionView,
        /// How the game stands after it.
        status: Status,
    },
    /// Well written, but the rules do not allow it here; the reason says why.
    Illegal {
        /// The rules' reason, without the move's text.
        reason: String,
        /// The same as a code with its cells and numbers (as in an `illegal-move` refusal).
        why: Illegal,
    },
    /// Not a move in notation at all.
    Unreadable {
        /// What is wrong with the text.
        reason: String,
    },
}

impl Question {
    /// The rules' answer, or why the question cannot be asked (a position or ruleset that is
    /// not notation, or not valid under those rules).
    ///
    /// # Errors
    /// Which text is wrong and how, in English.
    pub fn answer(&self) -> Result<Answer, String> {
        let rules: Ruleset = match &self.rules {
            Some(text) if text.len() > LONGEST_RULES => {
                return Err("the ruleset is too long".to_owned())
            }
            Some(text) => text.parse().map_err(|e| format!("ruleset: {e}"))?,
            None => Ruleset::default(),
        };
        if self.position.len() > LONGEST_POSITION {
            return Err("the position is too long".to_owned());
        }
        let pos = Position::from_text(&self.position, rules).map_err(|e| e.to_string())?;
        // Listed once: sent with the position, and the move is judged against the same list.
        let legal = pos.legal_moves();
        let verdict = self.try_move.as_deref().map(|text| {
            if text.len() > LONGEST_MOVE {
                return Verdict::Unreadable { reason: "the move is too long".to_owned() };
            }
            match pos.parse_move_in(text, &legal) {
                Ok(m) => {
                    let next = pos.after(m);
                    Verdict::Legal {
                        m: m.to_string(),
                        pos: PositionView::of(&next, &next.legal_moves()),
                        status: next.status(),
                    }
                }
                Err(MoveError::Illegal(e)) => {
                    Verdict::Illegal { reason: e.reason(), why: e.why().clone() }
                }
                Err(e @ MoveError::Parse(_)) => Verdict::Unreadable { reason: e.to_string() },
            }
        });
        Ok(Answer { status: pos.status(), pos: PositionView::of(&pos, &legal), verdict })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(position: &str, m: Option<&str>) -> serde_json::Value {
        let question =
            Question { position: position.to_owned(), rules: None, try_move: m.map(str::to_owned) };
        serde_json::to_value(question.answer().unwrap()).unwrap()
    }

    #[test]
    fn a_closed_cell_is_named_with_the_rules_reason() {
        let answer = ask("6/6/6/BB4/WW4 w 10 10 0", Some("c1"));
        assert_eq!(
            answer["pos"]["forbidden"]["c1"],
            "placements may not make three or more in a line"
        );
        assert_eq!(answer["move"]["verdict"], "illegal");
        assert_eq!(answer["move"]["why"]["code"], "line-too-long");
        assert_eq!(
            answer["move"]["reason"],
            "a stone on c1 would stand in a line of 3; placements may not make three or more in a line"
        );
    }
}
