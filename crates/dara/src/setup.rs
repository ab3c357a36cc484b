//! The five-field position text, read for syntax alone: what a parser produces before any
//! ruleset has judged it (see [`crate::Position::from_setup`]).

use core::fmt;
use core::str::FromStr;

use crate::bitboard::Bitboard;
use crate::cell::{Cell, MAX_SIDE};
use crate::colour::{ByColour, Colour};
use crate::position_error::{Field, PositionError};
use crate::serde_text::serde_through_text;

/// A position as written, unchecked against any ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Files across the board field.
    pub cols: u8,
    /// Ranks in the board field.
    pub rows: u8,
    /// Each colour's stones.
    pub stones: ByColour<Bitboard>,
    /// The player to move.
    pub side: Colour,
    /// Stones each player still has to place.
    pub hand: ByColour<u8>,
    /// Movement plies since the last capture.
    pub quiet: u32,
}

impl Setup {
    /// The empty board of a size, `side` to move, hands and counter as given.
    pub fn empty(cols: u8, rows: u8, stones: u8) -> Setup {
        Setup {
            cols,
            rows,
            stones: ByColour::default(),
            side: Colour::White,
            hand: ByColour { white: stones, black: stones },
            quiet: 0,
        }
    }

    fn parse_board(text: &str) -> Result<(u8, u8, ByColour<Bitboard>), PositionError> {
        let ranks: Vec<&str> = text.split('/').collect();
        if ranks.len() > MAX_SIDE as usize || ranks.len() < 3 {
            return Err(PositionError::RankCount { ranks: ranks.len() });
        }
        let rows = ranks.len() as u8;
        let mut stones = ByColour::<Bitboard>::default();
        let mut width = None;
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = rows - 1 - i as u8;
            let mut file = 0u8;
            let mut last_digit = false;
            for ch in rank_text.chars() {
                if let Some(colour) = Colour::from_stone_char(ch) {
                    if file >= MAX_SIDE {
                        return Err(PositionError::RankTooWide { rank: rank + 1 });
                    }
                    let cell = Cell::new(file, rank).expect("file and rank checked");
                    stones[colour] = stones[colour].with(cell);
                    file += 1;
                    last_digit = false;
                } else if let Some(run) = ch.to_digit(10).filter(|d| (1..=7).contains(d)) {
                    if last_digit {
                        return Err(PositionError::TwoDigits { rank: rank + 1 });
                    }
                    file = file.saturating_add(run as u8);
                    if file > MAX_SIDE {
                        return Err(PositionError::RankTooWide { rank: rank + 1 });
                    }
                    last_digit = true;
                } else {
                    return Err(PositionError::UnknownLetter { letter: ch, rank: rank + 1 });
                }
            }
            match width {
                None if file < 3 => {
                    return Err(PositionError::RankTooNarrow { rank: rank + 1, width: file })
                }
                None => width = Some(file),
                Some(w) if w != file => {
                    return Err(PositionError::UnevenRanks {
                        rank: rank + 1,
                        width: file,
                        top: rows,
                        top_width: w,
                    })
                }
                Some(_) => {}
            }
        }
        Ok((width.unwrap_or(0), rows, stones))
    }

    /// The board field alone: ranks from the top, `/` between them.
    pub fn board_text(&self) -> String {
        let mut out = String::with_capacity(usize::from(self.rows) * (usize::from(self.cols) + 1));
        for rank in (0..self.rows).rev() {
            let mut empty = 0u32;
            for file in 0..self.cols {
                // A setup built by hand may be larger than any board: its extra cells print empty.
                let stone = Cell::new(file, rank).and_then(|cell| {
                    Colour::ALL.into_iter().find(|&c| self.stones[c].contains(cell))
                });
                match stone {
                    Some(colour) => {
                        push_count(&mut out, empty);
                        empty = 0;
                        out.push(colour.stone_char());
                    }
                    None => empty += 1,
                }
            }
            push_count(&mut out, empty);
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }
}

/// A run of empty cells in the board text: nothing for none, else its number, written without
/// a string of its own (a rank holds at most eight cells, one digit).
fn push_count(out: &mut String, empty: u32) {
    match char::from_digit(empty, 10) {
        Some('0') => {}
        Some(digit) => out.push(digit),
        None => out.push_str(&empty.to_string()),
    }
}

fn parse_count(text: &str, field: Field, max: u32) -> Result<u32, PositionError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(PositionError::NotANumber { field, text: text.to_owned() });
    }
    match text.parse::<u32>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(PositionError::TooLarge { field, text: text.to_owned(), max }),
    }
}

impl FromStr for Setup {
    type Err = PositionError;

    /// Reads `<board> <side> <white in hand> <black in hand> <quiet plies>`.
    fn from_str(text: &str) -> Result<Setup, PositionError> {
        let fields: Vec<&str> = text.split(' ').collect();
        if fields.len() != 5 {
            return Err(PositionError::FieldCount { found: fields.len() });
        }
        let (cols, rows, stones) = Setup::parse_board(fields[0])?;
        let mut side_chars = fields[1].chars();
        let side = match (side_chars.next().and_then(Colour::from_side_char), side_chars.next()) {
            (Some(colour), None) => colour,
            _ => return Err(PositionError::UnknownSide { text: fields[1].to_owned() }),
        };
        let white = parse_count(fields[2], Field::WhiteHand, 24)? as u8;
        let black = parse_count(fields[3], Field::BlackHand, 24)? as u8;
        let quiet = parse_count(fields[4], Field::Quiet, crate::ruleset::MAX_QUIET)?;
        Ok(Setup { cols, rows, stones, side, hand: ByColour { white, black }, quiet })
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {} {}",
            self.board_text(),
            self.side.side_char(),
            self.hand.white,
            self.hand.black,
            self.quiet
        )
    }
}

serde_through_text!(Setup);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_prints_the_examples() {
        for text in ["6/6/6/6/6 w 12 12 0", "4W1/5B/WWW1W1/4WB/1B2WB w 0 0 1"] {
            let setup: Setup = text.parse().unwrap();
            assert_eq!(setup.to_string(), text);
        }
        let setup: Setup = "4W1/5B/WWW1W1/4WB/1B2WB w 0 0 1".parse().unwrap();
        assert_eq!((setup.cols, setup.rows), (6, 5));
        assert!(setup.stones.white.contains(Cell::from_name("e5").unwrap()));
        assert!(setup.stones.black.contains(Cell::from_name("b1").unwrap()));
    }

    #[test]
    fn errors_name_the_field() {
        let field = |t: &str| t.parse::<Setup>().unwrap_err().field();
        assert_eq!(field("6/6/6/6/6 w 12 12"), Field::Fields);
        assert_eq!(field("6/6/6/6/6  w 12 12 0"), Field::Fields);
        assert_eq!(field("6/6/6/6/5 w 12 12 0"), Field::Board);
        assert_eq!(field("6/6/6/6/5X w 12 12 0"), Field::Board);
        assert_eq!(field("6/6/6/6/33 w 12 12 0"), Field::Board);
        assert_eq!(field("8/8/8 w 12 12 0"), Field::Board);
        assert_eq!(field("6/6/6/6/6 x 12 12 0"), Field::Side);
        assert_eq!(field("6/6/6/6/6 w -1 12 0"), Field::WhiteHand);
        assert_eq!(field("6/6/6/6/6 w 12 +3 0"), Field::BlackHand);
        assert_eq!(field("6/6/6/6/6 w 12 12 q"), Field::Quiet);
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_goes_through_the_notation() {
        let setup: Setup = "4W1/5B/WWW1W1/4WB/1B2WB w 0 0 1".parse().unwrap();
        let json = serde_json::to_string(&setup).unwrap();
        assert_eq!(json, "\"4W1/5B/WWW1W1/4WB/1B2WB w 0 0 1\"");
        assert_eq!(serde_json::from_str::<Setup>(&json).unwrap(), setup);
        assert!(serde_json::from_str::<Setup>("\"6/6 w 0 0 0\"").is_err());
        let rules: crate::ruleset::Ruleset = "jaques,diagonal=yes".parse().unwrap();
        assert_eq!(serde_json::to_string(&rules).unwrap(), "\"jaques,diagonal=yes\"");
        assert_eq!(
            serde_json::from_str::<crate::ruleset::Ruleset>("\"jaques,diagonal=yes\"").unwrap(),
            rules
        );
    }
}
