//! A request for the computer's move, as the page writes it: one line in the engine protocol's
//! words (`ENGINE.md`), e.g.
//! `rules arcade position start moves c3 d4 level 5 seed 17 go nodes 20000`.

use core::fmt;
use core::str::FromStr;

use dara::{Position, Ruleset};
use dara_engine::level::Level;
use dara_engine::protocol::{parse_go, parse_position};
use dara_engine::Limits;

/// What to search and how well to play.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The position to move in.
    pub pos: Position,
    /// The hashes of the positions before it, oldest first (repetitions are draws).
    pub history: Vec<u64>,
    /// How well to play.
    pub level: Level,
    /// The seed of the level's dice (its noise, blunders, overlooked captures): the page draws a
    /// new one for every move, as the server does.
    pub seed: u64,
    /// Limits of the request's own (`go` words); none lets the level decide, as on the server.
    pub limits: Limits,
}

/// A request that could not be read, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestError(String);

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RequestError {}

/// The words that start a part of a request, in the order they are written.
const PARTS: [&str; 5] = ["rules", "position", "level", "seed", "go"];

/// Reads `[rules R] position (start | five fields) [moves M...] [level N] [seed N] [go W...]`.
/// Left out: the `arcade` rules, level 8, seed 0, no limits of its own. Everything after `go` is
/// the protocol's `go` words (`nodes`, `depth`, `movetime`, the clocks).
impl FromStr for Request {
    type Err = RequestError;
    fn from_str(line: &str) -> Result<Request, RequestError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        // Each part's words, found by the word that starts it; a part comes after the ones
        // before it in PARTS, and at most once.
        let mut parts: [Option<&[&str]>; 5] = [None; 5];
        let mut i = 0;
        let mut last = None;
        while i < words.len() {
            let Some(part) = PARTS.iter().position(|p| *p == words[i]) else {
                return Err(RequestError(format!(
                    "unexpected {:?}: a request is [rules R] position ... [level N] [seed N] [go ...]",
                    words[i]
                )));
            };
            if last.is_some_and(|l| l >= part) {
                return Err(RequestError(format!("{} comes too late or twice", PARTS[part])));
            }
            // `go` takes the rest of the line; the others run to the next part's word.
            let end = if PARTS[part] == "go" {
                words.len()
            } else {
                words[i + 1..]
                    .iter()
                    .position(|w| PARTS.contains(w))
                    .map_or(words.len(), |n| i + 1 + n)
            };
            parts[part] = Some(&words[i + 1..end]);
            last = Some(part);
            i = end;
        }
        let [rules, position, level, seed, go] = parts;
        let one = |name: &str, words: Option<&[&str]>| match words {
            None => Ok(None),
            Some([word]) => Ok(Some(word.to_string())),
            Some(_) => Err(RequestError(format!("{name} takes one word"))),
        };
        let rules: Ruleset = match one("rules", rules)? {
            Some(text) => text.parse().map_err(|e| RequestError(format!("rules: {e}")))?,
            None => Ruleset::default(),
        };
        let position = position.ok_or_else(|| RequestError("no position".into()))?;
        let (pos, history) = parse_position(position, rules).map_err(RequestError)?;
        let level = match one("level", level)? {
            Some(text) => text.parse().map_err(|e| RequestError(format!("level: {e}")))?,
            None => Level::MAX,
        };
        let seed = match one("seed", seed)? {
            Some(text) => text
                .parse()
                .map_err(|_| RequestError(format!("seed: a whole number, not {text:?}")))?,
            None => 0,
        };
        let limits = parse_go(go.unwrap_or(&[]), pos.side()).map_err(RequestError)?;
        Ok(Request { pos, history, level, seed, limits })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_reads_each_part() {
        let r: Request = "rules jaques position start moves c3 d4 level 5 seed 17 go nodes 20000"
            .parse()
            .unwrap();
        assert_eq!(r.pos.rules().to_string(), "jaques");
        assert_eq!(r.history.len(), 2);
        let mut pos = Position::start(*r.pos.rules());
        for text in ["c3", "d4"] {
            pos.play(pos.parse_move(text).unwrap()).unwrap();
        }
        assert_eq!(r.pos, pos);
        assert_eq!((r.level.get(), r.seed, r.limits.nodes), (5, 17, Some(20_000)));
    }

    #[test]
    fn left_out_parts_are_the_servers_defaults() {
        let r: Request = "position 6/6/6/6/6 w 12 12 0".parse().unwrap();
        assert_eq!(*r.pos.rules(), Ruleset::default());
        assert!(r.history.is_empty());
        assert_eq!((r.level, r.seed), (Level::MAX, 0));
        assert!(r.limits.is_unbounded());
    }

    #[test]
    fn a_bad_request_says_what_is_wrong() {
        let err = |s: &str| s.parse::<Request>().unwrap_err().to_string();
        assert!(err("level 3").contains("no position"), "{}", err("level 3"));
        assert!(err("position start level 9").contains("level"));
        assert!(err("position start moves c3 z9").contains("z9"));
        assert!(err("level 3 position start").contains("too late"));
        assert!(err("position start go nodes x").contains("go"));
        assert!(err("rules arcade arcade position start").contains("one word"));
        assert!(err("hello").contains("unexpected \"hello\""));
        assert!(err("rules nonsense position start").contains("rules"));
    }
}
