//! Reading game records (NOTATION.md "Games") far enough to replay them: the `Rules` and
//! `Position` tags and the moves. Used by `analyse --record`.

use anyhow::{anyhow, bail, Context};
use dara::{Move, Position, Ruleset};

/// A replayed record.
#[derive(Debug)]
pub struct Replayed {
    /// The position after the last move.
    pub position: Position,
    /// Hashes of the positions before it.
    pub history: Vec<u64>,
    /// The moves.
    pub moves: Vec<Move>,
}

/// Replays `text`; `rules` applies unless the record has a `Rules` tag.
pub fn replay(text: &str, mut rules: Ruleset) -> anyhow::Result<Replayed> {
    let mut start = None;
    let mut movetext = String::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(tag) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let (name, value) = tag.split_once(' ').ok_or_else(|| anyhow!("bad tag [{tag}]"))?;
            let value = value.trim().trim_matches('"');
            match name {
                "Rules" => rules = value.parse().context("the Rules tag")?,
                "Position" => start = Some(value.to_owned()),
                _ => {}
            }
        } else {
            movetext.push_str(line);
            movetext.push(' ');
        }
    }
    let mut pos = match start {
        Some(text) => Position::from_text(&text, rules).context("the Position tag")?,
        None => Position::start(rules),
    };
    let (mut history, mut moves) = (Vec::new(), Vec::new());
    let mut number = 0;
    for token in movetext.split_whitespace() {
        if let Some(n) = token.strip_suffix('.') {
            number = n.parse().unwrap_or(number);
            continue;
        }
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
            break;
        }
        let m = pos.parse_move(token).with_context(|| format!("move {number} {token}"))?;
        history.push(pos.hash());
        if let Err(e) = pos.play(m) {
            bail!("move {number} {token}: {e}");
        }
        moves.push(m);
    }
    Ok(Replayed { position: pos, history, moves })
}

/// A record of `moves` from the start of `rules`, with tags.
pub fn write(rules: Ruleset, white: &str, black: &str, moves: &[Move], result: &str) -> String {
    let mut out = String::new();
    out.push_str("[Event \"Casual game\"]\n");
    out.push_str(&format!("[White \"{white}\"]\n[Black \"{black}\"]\n"));
    out.push_str(&format!("[Rules \"{rules}\"]\n[Result \"{result}\"]\n\n"));
    let mut line = String::new();
    for (i, m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            line.push_str(&format!("{}. ", i / 2 + 1));
        }
        line.push_str(&m.to_string());
        line.push(' ');
    }
    line.push_str(result);
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_a_short_record() {
        let text = "[Rules \"jaques\"]\n\n1. c3 d4 2. a1 *\n";
        let r = replay(text, Ruleset::default()).unwrap();
        assert_eq!(r.moves.len(), 3);
        assert_eq!(r.position.rules().to_string(), "jaques");
        let written = write(*r.position.rules(), "a", "b", &r.moves, "*");
        assert_eq!(replay(&written, Ruleset::default()).unwrap().moves, r.moves);
        assert!(replay("1. c3 c3", Ruleset::default()).is_err());
    }
}
