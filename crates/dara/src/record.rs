//! Game records, PGN-like: tag lines, a blank line, numbered moves and the result. Importing
//! replays and checks every move.
//!
//! ```
//! use dara::record::Record;
//! let text = "[Rules \"arcade\"]\n[Result \"*\"]\n\n1. c3 d4 2. a1 *\n";
//! let record: Record = text.parse().unwrap();
//! assert_eq!(record.moves().len(), 3);
//! assert_eq!(record.to_string(), text);
//! ```

use core::fmt;
use core::str::FromStr;

use crate::colour::Colour;
use crate::illegal::Illegal;
use crate::moves::Move;
use crate::notation::MoveText;
use crate::position::{IllegalMoveError, Position};
use crate::position_error::PositionError;
use crate::ruleset::{Ruleset, RulesetError};
pub use crate::status::GameResult;

/// Why a record was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The text is not a record: a malformed tag line or movetext token.
    Syntax {
        /// 1-based line of the text.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The `Rules` tag is not a valid ruleset.
    Rules(RulesetError),
    /// The `Position` tag is not a valid position of the ruleset.
    Position(PositionError),
    /// A move that cannot be played where it stands.
    IllegalMove {
        /// Its number as a record writes it, as in `13.` or `13...`.
        number: String,
        /// The move as written.
        text: String,
        /// Why.
        reason: String,
    },
    /// The stated result contradicts the tag or the rules.
    Result(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Syntax { line, message } => write!(f, "record line {line}: {message}"),
            RecordError::Rules(e) => write!(f, "record Rules tag: {e}"),
            RecordError::Position(e) => write!(f, "record Position tag: {e}"),
            RecordError::IllegalMove { number, text, reason } => {
                write!(f, "move {number} {text} is illegal: {reason}")
            }
            RecordError::Result(message) => write!(f, "record result: {message}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// The tags written first, in this order (the rest follow in the order they were given).
const ROSTER: [&str; 4] = ["Event", "Date", "White", "Black"];

/// A game: its tags, its start position, its moves (all legal) and its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    tags: Vec<(String, String)>,
    start: Position,
    moves: Vec<Move>,
    end: Position,
    /// How the game ended; [`GameResult::Unfinished`] while it goes on.
    pub result: GameResult,
}

impl Record {
    /// A record with no moves yet, starting from `start`.
    pub fn new(start: Position) -> Record {
        let result = GameResult::of_status(start.status());
        Record { tags: Vec::new(), end: start.clone(), start, moves: Vec::new(), result }
    }

    /// The ruleset (the `Rules` tag).
    pub fn rules(&self) -> &Ruleset {
        self.start.rules()
    }

    /// The position before the first move.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position after the last move.
    pub fn final_position(&self) -> &Position {
        &self.end
    }

    /// The tags other than `Rules`, `Position` and `Result` (which the record derives).
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Sets a tag (`Rules`, `Position` and `Result` come from the game itself and are ignored).
    pub fn set_tag(&mut self, name: &str, value: &str) {
        if matches!(name, "Rules" | "Position" | "Result") {
            return;
        }
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(tag) => tag.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
        let rank = |n: &str| ROSTER.iter().position(|r| *r == n).unwrap_or(ROSTER.len());
        self.tags.sort_by_key(|(n, _)| rank(n));
    }

    /// Plays `m` at the end of the game, after checking it is legal. The result follows the
    /// rules: it becomes the winner or the draw once the game is over.
    ///
    /// # Errors
    /// Why the move is illegal; the record is unchanged.
    pub fn push(&mut self, m: Move) -> Result<(), IllegalMoveError> {
        self.push_listed(m, &self.end.legal_moves())
    }

    /// [`Record::push`] against `legal`, the legal moves of [`Record::final_position`] that the
    /// caller already listed: nothing is listed again (see [`Position::play_listed`]).
    ///
    /// # Errors
    /// Why the move is illegal; the record is unchanged.
    pub fn push_listed(&mut self, m: Move, legal: &[Move]) -> Result<(), IllegalMoveError> {
        if self.result != GameResult::Unfinished {
            return Err(IllegalMoveError::new(
                m.to_string(),
                Illegal::RecordFinished { result: self.result },
            ));
        }
        self.end.play_listed(m, legal)?;
        self.moves.push(m);
        self.result = GameResult::of_status(self.end.status());
        Ok(())
    }

    /// Every position of the game, from the start to after the last move.
    pub fn positions(&self) -> Vec<Position> {
        let mut pos = self.start.clone();
        let mut all = vec![pos.clone()];
        for &m in &self.moves {
            pos.play_unchecked(m);
            all.push(pos.clone());
        }
        all
    }

    /// The move number of each move as a record writes it (`13.` or `13...`), paired with
    /// whether the number is printed before the move (a black move straight after White's
    /// goes without one).
    fn numbering(&self) -> Vec<(String, bool)> {
        let mut numbering = self.numbering_state();
        let mut pos = self.start.clone();
        let mut previous_white = false;
        let mut out = Vec::with_capacity(self.moves.len());
        for &m in &self.moves {
            let white = pos.side() == Colour::White;
            out.push((numbering.label(), white || !previous_white));
            previous_white = white;
            pos.play_unchecked(m);
            numbering.advance(pos.side());
        }
        out
    }
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

impl fmt::Display for Record {
    /// Tags, a blank line, then the moves wrapped at 80 columns, ending with the result.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (roster, others): (Vec<_>, Vec<_>) =
            self.tags.iter().partition(|(n, _)| ROSTER.contains(&n.as_str()));
        for (name, value) in &roster {
            writeln!(f, "[{name} \"{}\"]", escape(value))?;
        }
        writeln!(f, "[Rules \"{}\"]", self.rules())?;
        if self.start != Position::start(*self.rules()) {
            writeln!(f, "[Position \"{}\"]", self.start)?;
        }
        writeln!(f, "[Result \"{}\"]", self.result)?;
        for (name, value) in &others {
            writeln!(f, "[{name} \"{}\"]", escape(value))?;
        }
        writeln!(f)?;
        let mut tokens = Vec::new();
        for ((number, shown), m) in self.numbering().into_iter().zip(&self.moves) {
            if shown {
                tokens.push(number);
            }
            tokens.push(m.to_string());
        }
        tokens.push(self.result.to_string());
        let mut line = String::new();
        for token in tokens {
            if !line.is_empty() && line.len() + 1 + token.len() > 80 {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        writeln!(f, "{line}")
    }
}

/// Reads `[Name "value"]`.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(' ')?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let quoted = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            c => value.push(c),
        }
    }
    Some((name.to_string(), value))
}

impl FromStr for Record {
    type Err = RecordError;

    fn from_str(text: &str) -> Result<Record, RecordError> {
        let syntax = |line: usize, message: String| RecordError::Syntax { line, message };
        let mut tags = Vec::new();
        let mut lines = text.lines().enumerate().peekable();
        while let Some((i, line)) = lines.peek().copied() {
            let line = line.trim();
            if line.is_empty() && tags.is_empty() {
                lines.next();
                continue;
            }
            if !line.starts_with('[') {
                break;
            }
            let tag = parse_tag(line).ok_or_else(|| {
                syntax(i + 1, format!("{line:?} is not a tag line like [Name \"value\"]"))
            })?;
            if tags.iter().any(|(n, _): &(String, String)| *n == tag.0) {
                return Err(syntax(i + 1, format!("tag {} is given twice", tag.0)));
            }
            tags.push(tag);
            lines.next();
        }
        let tag = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
        let rules: Ruleset =
            tag("Rules").unwrap_or("arcade").parse().map_err(RecordError::Rules)?;
        let start = match tag("Position") {
            Some(text) => Position::from_text(text, rules).map_err(RecordError::Position)?,
            None => Position::start(rules),
        };
        let tagged_result = match tag("Result") {
            Some(r) => Some(r.parse::<GameResult>().map_err(|()| {
                RecordError::Result(format!("tag {r:?} is not 1-0, 0-1, 1/2-1/2 or *"))
            })?),
            None => None,
        };
        let mut record = Record::new(start);
        for (name, value) in &tags {
            record.set_tag(name, value);
        }
        let mut written_result = None;
        let mut expected = record.numbering_state();
        for (i, line) in lines {
            for token in line.split_whitespace() {
                if written_result.is_some() {
                    return Err(syntax(i + 1, format!("{token:?} after the result")));
                }
                if let Ok(result) = token.parse::<GameResult>() {
                    written_result = Some(result);
                    continue;
                }
                if let Some(number) = token.strip_suffix('.') {
                    let number = number.trim_end_matches("..");
                    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
                        return Err(syntax(i + 1, format!("{token:?} is not a move number")));
                    }
                    let want = expected.label();
                    if token != want {
                        return Err(syntax(
                            i + 1,
                            format!("move number {token} where {want} was expected"),
                        ));
                    }
                    continue;
                }
                let number = expected.label();
                let illegal = |reason: String| RecordError::IllegalMove {
                    number: number.clone(),
                    text: token.to_string(),
                    reason,
                };
                // One listing of the legal moves serves both reading and playing the move.
                let legal = record.final_position().legal_moves();
                let m = token
                    .parse::<MoveText>()
                    .map_err(|e| illegal(e.to_string()))?
                    .to_move_in(record.final_position(), &legal)
                    .map_err(|e| illegal(e.to_string()))?;
                record.push_listed(m, &legal).map_err(|e| illegal(e.to_string()))?;
                expected.advance(record.final_position().side());
            }
        }
        let by_rules = GameResult::of_status(record.final_position().status());
        let result = match (written_result, tagged_result) {
            (Some(written), Some(tagged)) if written != tagged => {
                return Err(RecordError::Result(format!(
                    "the Result tag says {tagged} but the moves end with {written}"
                )))
            }
            (Some(written), _) => written,
            (None, Some(tagged)) => tagged,
            (None, None) => by_rules,
        };
        if by_rules != GameResult::Unfinished && result != by_rules {
            return Err(RecordError::Result(format!(
                "the game ended by the rules ({}) so the result is {by_rules}, not {result}",
                record.final_position().status()
            )));
        }
        record.result = result;
        Ok(record)
    }
}

/// Move numbers: White's moves are `N.`, Black's `N...`; the number goes up after each black
/// move, and between two white moves in a row (White always starts the movement phase, even
/// when White placed last).
struct Numbering {
    number: u32,
    side: Colour,
}

impl Numbering {
    fn label(&self) -> String {
        match self.side {
            Colour::White => format!("{}.", self.number),
            Colour::Black => format!("{}...", self.number),
        }
    }

    fn advance(&mut self, next_side: Colour) {
        if self.side == Colour::Black || next_side == Colour::White {
            self.number += 1;
        }
        self.side = next_side;
    }
}

impl Record {
    fn numbering_state(&self) -> Numbering {
        Numbering { number: 1, side: self.start.side() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_is_its_winner() {
        for winner in Colour::ALL {
            assert_eq!(GameResult::from_winner(winner).winner(), Some(winner));
        }
        assert_eq!(GameResult::from_winner(Colour::Black).to_string(), "0-1");
    }

    #[test]
    fn a_short_game_round_trips() {
        let mut record = Record::new(Position::start(Ruleset::default()));
        record.set_tag("White", "Anonymous");
        record.set_tag("Event", "Casual game");
        for text in ["c3", "d4", "a1", "f5"] {
            let m = record.final_position().parse_move(text).unwrap();
            record.push(m).unwrap();
        }
        let text = record.to_string();
        assert_eq!(
            text,
            "[Event \"Casual game\"]\n[White \"Anonymous\"]\n[Rules \"arcade\"]\n[Result \"*\"]\n\n1. c3 d4 2. a1 f5 *\n"
        );
        assert_eq!(text.parse::<Record>().unwrap(), record);
    }

    #[test]
    fn an_illegal_move_names_its_number_and_text() {
        let err = "[Rules \"arcade\"]\n\n1. c3 d4 2. c3 *\n".parse::<Record>().unwrap_err();
        assert_eq!(err.to_string(), "move 2. c3 is illegal: \"c3\": c3 is not empty");
        let err = "1. c3 d4 2. a1 a1 *".parse::<Record>().unwrap_err();
        assert!(err.to_string().starts_with("move 2... a1 is illegal"), "{err}");
    }

    #[test]
    fn black_to_move_first_is_numbered_with_dots() {
        let start = Position::from_text("1W4/6/6/6/6 b 11 12 0", Ruleset::default()).unwrap();
        let mut record = Record::new(start);
        record.push(Move::Put(crate::cell::Cell::from_name("a1").unwrap())).unwrap();
        record.push(Move::Put(crate::cell::Cell::from_name("f1").unwrap())).unwrap();
        let text = record.to_string();
        assert!(text.ends_with("\n\n1... a1 2. f1 *\n"), "{text}");
        assert_eq!(text.parse::<Record>().unwrap(), record);
    }

    #[test]
    fn results_must_agree() {
        assert!("[Result \"1-0\"]\n\n1. c3 0-1".parse::<Record>().is_err());
        assert!("1. c3 d4 2. x9 *".parse::<Record>().is_err());
        assert!("[Rules \"chess\"]\n\n*".parse::<Record>().is_err());
        assert!("1. c3 * d4".parse::<Record>().is_err());
        assert!("3. c3 *".parse::<Record>().is_err());
        let resigned: Record = "1. c3 d4 0-1".parse().unwrap();
        assert_eq!(resigned.result, GameResult::BlackWins);
    }
}
