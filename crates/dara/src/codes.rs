//! Every code the rules give, listed from the types themselves. Each type's serde derive writes
//! its code (the variant's name in kebab case) with its figures; [`Coded::one_of_each`] gives
//! one value of every variant, so a program lists the codes and their figures by serialising
//! them (`dara codes`, which the pages' translations are checked against) and no list of codes
//! is ever written by hand.

use crate::bitboard::Bitboard;
use crate::cell::{Cell, Coord};
use crate::closed_cell::ClosedCell;
use crate::colour::Colour;
use crate::illegal::Illegal;
use crate::moves::Move;
use crate::notation::{MoveError, MoveText};
use crate::position::IllegalMoveError;
use crate::position_error::{Field, PositionError};
use crate::ruleset::{Preset, RulesetError};
use crate::status::{DrawReason, GameResult, Status, WinReason};

/// A type whose values travel as a code (with their figures, if any).
pub trait Coded: serde::Serialize + Sized {
    /// One value of every variant that has a code, its figures made up. Each implementation
    /// names every variant in a `match`, so a variant added without a value here does not
    /// compile.
    fn one_of_each() -> Vec<Self>;
}

fn cell(name: &str) -> Cell {
    Cell::from_name(name).expect("the names below are cells")
}

impl Coded for Illegal {
    fn one_of_each() -> Vec<Illegal> {
        let (a5, c3, c4) = (cell("a5"), cell("c3"), cell("c4"));
        let all = vec![
            Illegal::GameOver {
                status: Status::Won { winner: Colour::White, reason: WinReason::NoMoves },
            },
            Illegal::RecordFinished { result: GameResult::WhiteWins },
            Illegal::PassNotAllowed,
            Illegal::PlacementOver,
            Illegal::StillPlacing { side: Colour::Black },
            Illegal::NoSuchCell { cell: Coord { file: 6, rank: 8 }, cols: 6, rows: 5 },
            Illegal::OffBoard { cell: cell("g7") },
            Illegal::Occupied { cell: c3 },
            Illegal::NoStonesInHand,
            Illegal::CornerOpening { cell: c3 },
            Illegal::CentreOpening { cell: c3 },
            Illegal::LineTooLong { cell: cell("c1"), run: 3, limit: 3 },
            Illegal::MustPass {
                side: Colour::Black,
                because: Box::new(Illegal::Occupied { cell: c3 }),
            },
            Illegal::NoStoneOfYours { side: Colour::White, cell: c3 },
            Illegal::NotAStep { from: c3, to: cell("e3"), diagonal: false },
            Illegal::LongLine { from: c3, to: c4 },
            Illegal::NoRowMade { from: c3, to: c4 },
            Illegal::CaptureRequired {
                from: c3,
                to: c4,
                example: Move::Step { from: c3, to: c4, captures: Bitboard::EMPTY.with(a5) },
            },
            Illegal::NothingToTake { side: Colour::Black, cell: a5 },
            Illegal::CapturedTwice { cell: a5 },
            Illegal::WrongCaptureCount { from: c3, to: c4, takes: 1, named: 2 },
            Illegal::Protected { cell: cell("b3") },
            Illegal::NotListed { cell: c3 },
        ];
        for why in &all {
            match why {
                Illegal::GameOver { .. }
                | Illegal::RecordFinished { .. }
                | Illegal::PassNotAllowed
                | Illegal::PlacementOver
                | Illegal::StillPlacing { .. }
                | Illegal::NoSuchCell { .. }
                | Illegal::OffBoard { .. }
                | Illegal::Occupied { .. }
                | Illegal::NoStonesInHand
                | Illegal::CornerOpening { .. }
                | Illegal::CentreOpening { .. }
                | Illegal::LineTooLong { .. }
                | Illegal::MustPass { .. }
                | Illegal::NoStoneOfYours { .. }
                | Illegal::NotAStep { .. }
                | Illegal::LongLine { .. }
                | Illegal::NoRowMade { .. }
                | Illegal::CaptureRequired { .. }
                | Illegal::NothingToTake { .. }
                | Illegal::CapturedTwice { .. }
                | Illegal::WrongCaptureCount { .. }
                | Illegal::Protected { .. }
                | Illegal::NotListed { .. } => {}
            }
        }
        all
    }
}

impl Coded for MoveError {
    /// Text that is no move, then each reason a move is illegal.
    fn one_of_each() -> Vec<MoveError> {
        let unreadable = "c3-".parse::<MoveText>().expect_err("c3- is not a move");
        let mut all = vec![MoveError::Parse(unreadable)];
        all.extend(
            Illegal::one_of_each()
                .into_iter()
                .map(|why| MoveError::Illegal(IllegalMoveError::new("c3", why))),
        );
        for e in &all {
            match e {
                MoveError::Parse(_) | MoveError::Illegal(_) => {}
            }
        }
        all
    }
}

impl Coded for ClosedCell {
    fn one_of_each() -> Vec<ClosedCell> {
        let all = vec![
            ClosedCell::OffBoard,
            ClosedCell::PlacementOver,
            ClosedCell::Occupied,
            ClosedCell::NoStonesInHand,
            ClosedCell::CornerOpening,
            ClosedCell::CentreOpening,
            ClosedCell::WouldMakeThree,
            ClosedCell::WouldMakeFour,
        ];
        for why in &all {
            match why {
                ClosedCell::OffBoard
                | ClosedCell::PlacementOver
                | ClosedCell::Occupied
                | ClosedCell::NoStonesInHand
                | ClosedCell::CornerOpening
                | ClosedCell::CentreOpening
                | ClosedCell::WouldMakeThree
                | ClosedCell::WouldMakeFour => {}
            }
        }
        all
    }
}

impl Coded for Status {
    /// Each way the rules end a game (an ongoing game has no code).
    fn one_of_each() -> Vec<Status> {
        let all = vec![
            Status::Won { winner: Colour::White, reason: WinReason::FewStones },
            Status::Won { winner: Colour::Black, reason: WinReason::NoMoves },
            Status::Drawn(DrawReason::QuietPlies),
        ];
        for status in &all {
            match status {
                Status::Ongoing
                | Status::Won { reason: WinReason::FewStones | WinReason::NoMoves, .. }
                | Status::Drawn(DrawReason::QuietPlies) => {}
            }
        }
        all
    }
}

impl Coded for RulesetError {
    fn one_of_each() -> Vec<RulesetError> {
        let all = vec![
            RulesetError::UnknownPreset { preset: "chess".to_owned() },
            RulesetError::NotOptionValue { text: "diagonal".to_owned() },
            RulesetError::UnknownOption { option: "colour".to_owned() },
            RulesetError::OptionTwice { option: "rows" },
            RulesetError::NotANumber { option: "rows", value: "x".to_owned() },
            RulesetError::QuietNotANumber { value: "-3".to_owned() },
            RulesetError::UnknownValue {
                option: "place",
                value: "5".to_owned(),
                expected: vec!["3", "4", "free"],
            },
            RulesetError::BoardSide { option: "rows", value: 9 },
            RulesetError::StonesOutOfRange { stones: 40, most: 15, cols: 6, rows: 5 },
            RulesetError::LoseAtOutOfRange { lose_at: 4 },
            RulesetError::LostBeforeFirstMove { lose_at: 3, stones: 3 },
            RulesetError::QuietOutOfRange { quiet: 0 },
        ];
        for e in &all {
            match e {
                RulesetError::UnknownPreset { .. }
                | RulesetError::NotOptionValue { .. }
                | RulesetError::UnknownOption { .. }
                | RulesetError::OptionTwice { .. }
                | RulesetError::NotANumber { .. }
                | RulesetError::QuietNotANumber { .. }
                | RulesetError::UnknownValue { .. }
                | RulesetError::BoardSide { .. }
                | RulesetError::StonesOutOfRange { .. }
                | RulesetError::LoseAtOutOfRange { .. }
                | RulesetError::LostBeforeFirstMove { .. }
                | RulesetError::QuietOutOfRange { .. } => {}
            }
        }
        all
    }
}

impl Coded for PositionError {
    fn one_of_each() -> Vec<PositionError> {
        let rules = Preset::Arcade.ruleset();
        let all = vec![
            PositionError::FieldCount { found: 4 },
            PositionError::RankCount { ranks: 8 },
            PositionError::RankTooWide { rank: 2 },
            PositionError::TwoDigits { rank: 1 },
            PositionError::UnknownLetter { letter: 'X', rank: 1 },
            PositionError::RankTooNarrow { rank: 5, width: 2 },
            PositionError::UnevenRanks { rank: 1, width: 5, top: 5, top_width: 6 },
            PositionError::UnknownSide { text: "x".to_owned() },
            PositionError::NotANumber { field: Field::WhiteHand, text: "x".to_owned() },
            PositionError::TooLarge {
                field: Field::Quiet,
                text: "100001".to_owned(),
                max: 100_000,
            },
            PositionError::WrongSize { cols: 3, rows: 3, rules },
            PositionError::StonesOffBoard,
            PositionError::BothColours,
            PositionError::HandTooLarge { colour: Colour::White, in_hand: 13, rules },
            PositionError::TooManyStones { colour: Colour::Black, on_board: 4, in_hand: 10, rules },
            PositionError::QuietWhilePlacing,
            PositionError::OutOfTurn { side: Colour::White, white: 2, black: 0 },
            PositionError::PastQuietLimit { quiet: 81, limit: 80 },
        ];
        for e in &all {
            match e {
                PositionError::FieldCount { .. }
                | PositionError::RankCount { .. }
                | PositionError::RankTooWide { .. }
                | PositionError::TwoDigits { .. }
                | PositionError::UnknownLetter { .. }
                | PositionError::RankTooNarrow { .. }
                | PositionError::UnevenRanks { .. }
                | PositionError::UnknownSide { .. }
                | PositionError::NotANumber { .. }
                | PositionError::TooLarge { .. }
                | PositionError::WrongSize { .. }
                | PositionError::StonesOffBoard
                | PositionError::BothColours
                | PositionError::HandTooLarge { .. }
                | PositionError::TooManyStones { .. }
                | PositionError::QuietWhilePlacing
                | PositionError::OutOfTurn { .. }
                | PositionError::PastQuietLimit { .. } => {}
            }
        }
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each value of `T::one_of_each` as JSON, beside the JSON it must be: the wire's promise.
    fn pinned<T: Coded + core::fmt::Debug>(expected: &[&str]) {
        let all = T::one_of_each();
        let json: Vec<String> = all.iter().map(|v| serde_json::to_string(v).unwrap()).collect();
        assert_eq!(json, expected);
        // One code for each value: no two variants share a code.
        let mut codes: Vec<String> = all
            .iter()
            .map(|v| match serde_json::to_value(v).unwrap() {
                serde_json::Value::String(code) => code,
                object => object["code"].as_str().expect("a code").to_owned(),
            })
            .collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), all.len(), "two values share a code");
    }

    const ILLEGAL: [&str; 23] = [
        r#"{"code":"game-over"}"#,
        r#"{"code":"record-finished","result":"1-0"}"#,
        r#"{"code":"pass-not-allowed"}"#,
        r#"{"code":"placement-over"}"#,
        r#"{"code":"still-placing","side":"black"}"#,
        r#"{"code":"no-such-cell","cell":"g9","cols":6,"rows":5}"#,
        r#"{"code":"off-board","cell":"g7"}"#,
        r#"{"code":"occupied","cell":"c3"}"#,
        r#"{"code":"no-stones-in-hand"}"#,
        r#"{"code":"corner-opening","cell":"c3"}"#,
        r#"{"code":"centre-opening","cell":"c3"}"#,
        r#"{"code":"line-too-long","cell":"c1","run":3,"limit":3}"#,
        r#"{"code":"must-pass","side":"black","because":{"code":"occupied","cell":"c3"}}"#,
        r#"{"code":"no-stone-of-yours","side":"white","cell":"c3"}"#,
        r#"{"code":"not-a-step","from":"c3","to":"e3","diagonal":false}"#,
        r#"{"code":"long-line","from":"c3","to":"c4"}"#,
        r#"{"code":"no-row-made","from":"c3","to":"c4"}"#,
        r#"{"code":"capture-required","from":"c3","to":"c4","example":"c3-c4xa5"}"#,
        r#"{"code":"nothing-to-take","side":"black","cell":"a5"}"#,
        r#"{"code":"captured-twice","cell":"a5"}"#,
        r#"{"code":"wrong-capture-count","from":"c3","to":"c4","takes":1,"named":2}"#,
        r#"{"code":"protected","cell":"b3"}"#,
        r#"{"code":"not-listed","cell":"c3"}"#,
    ];

    #[test]
    fn illegal_moves() {
        pinned::<Illegal>(&ILLEGAL);
    }

    #[test]
    fn move_errors_are_unreadable_or_the_illegal_reason() {
        let mut expected = vec![r#"{"code":"unreadable"}"#];
        expected.extend(ILLEGAL);
        pinned::<MoveError>(&expected);
    }

    #[test]
    fn closed_cells() {
        pinned::<ClosedCell>(&[
            r#""off-board""#,
            r#""placement-over""#,
            r#""occupied""#,
            r#""no-stones-in-hand""#,
            r#""corner-opening""#,
            r#""centre-opening""#,
            r#""would-make-three""#,
            r#""would-make-four""#,
        ]);
    }

    #[test]
    fn statuses() {
        pinned::<Status>(&[
            r#"{"result":"1-0","winner":"white","code":"few-stones"}"#,
            r#"{"result":"0-1","winner":"black","code":"no-moves"}"#,
            r#"{"result":"1/2-1/2","winner":null,"code":"quiet-plies"}"#,
        ]);
        assert_eq!(
            serde_json::to_string(&Status::Ongoing).unwrap(),
            r#"{"result":"*","winner":null}"#
        );
    }

    #[test]
    fn ruleset_errors() {
        pinned::<RulesetError>(&[
            r#"{"code":"unknown-preset","preset":"chess"}"#,
            r#"{"code":"not-option-value","text":"diagonal"}"#,
            r#"{"code":"unknown-option","option":"colour"}"#,
            r#"{"code":"option-twice","option":"rows"}"#,
            r#"{"code":"not-a-number","option":"rows","value":"x"}"#,
            r#"{"code":"quiet-not-a-number","value":"-3"}"#,
            r#"{"code":"unknown-value","option":"place","value":"5","expected":["3","4","free"]}"#,
            r#"{"code":"board-side","option":"rows","value":9}"#,
            r#"{"code":"stones-out-of-range","stones":40,"most":15,"cols":6,"rows":5}"#,
            r#"{"code":"lose-at-out-of-range","lose_at":4}"#,
            r#"{"code":"lost-before-first-move","lose_at":3,"stones":3}"#,
            r#"{"code":"quiet-out-of-range","quiet":0}"#,
        ]);
    }

    #[test]
    fn position_errors() {
        pinned::<PositionError>(&[
            r#"{"code":"field-count","found":4}"#,
            r#"{"code":"rank-count","ranks":8}"#,
            r#"{"code":"rank-too-wide","rank":2}"#,
            r#"{"code":"two-digits","rank":1}"#,
            r#"{"code":"unknown-letter","letter":"X","rank":1}"#,
            r#"{"code":"rank-too-narrow","rank":5,"width":2}"#,
            r#"{"code":"uneven-ranks","rank":1,"width":5,"top":5,"top_width":6}"#,
            r#"{"code":"unknown-side","text":"x"}"#,
            r#"{"code":"not-a-number","field":"white-hand","text":"x"}"#,
            r#"{"code":"too-large","field":"quiet","text":"100001","max":100000}"#,
            r#"{"code":"wrong-size","cols":3,"rows":3,"rules":"arcade"}"#,
            r#"{"code":"stones-off-board"}"#,
            r#"{"code":"both-colours"}"#,
            r#"{"code":"hand-too-large","colour":"white","in_hand":13,"rules":"arcade"}"#,
            r#"{"code":"too-many-stones","colour":"black","on_board":4,"in_hand":10,"rules":"arcade"}"#,
            r#"{"code":"quiet-while-placing"}"#,
            r#"{"code":"out-of-turn","side":"white","white":2,"black":0}"#,
            r#"{"code":"past-quiet-limit","quiet":81,"limit":80}"#,
        ]);
    }

    /// The English each error has always given, kept by the typed variants (a bad request's
    /// `detail` carries it to any client).
    #[test]
    fn errors_keep_their_english() {
        let english = |e: &dyn core::fmt::Display| e.to_string();
        let ruleset: Vec<String> = RulesetError::one_of_each().iter().map(|e| english(e)).collect();
        assert_eq!(
            ruleset,
            [
                r#"invalid ruleset: unknown preset "chess" (presets: arcade, ninja, jaques, wikipedia)"#,
                r#"invalid ruleset: "diagonal" is not option=value"#,
                r#"invalid ruleset: unknown option "colour" (options: rows, cols, stones, place, blocked, diagonal, long, captures, protect, lose-at, quiet, opening)"#,
                "invalid ruleset: option rows is given twice",
                "invalid ruleset: rows=x: expected a number",
                "invalid ruleset: quiet=-3: expected a number or none",
                "invalid ruleset: place=5: expected 3, 4 or free",
                "invalid ruleset: rows=9: boards are 3 to 7 cells a side",
                "invalid ruleset: stones=40: each player has 3 to 15 stones on 6x5 (at most half of its 30 cells)",
                "invalid ruleset: lose-at=4: must be 2 or 3",
                "invalid ruleset: lose-at=3 with stones=3: a player would have lost before the first move",
                "invalid ruleset: quiet=0: must be 1 to 100000, or none",
            ]
        );
        let position: Vec<String> =
            PositionError::one_of_each().iter().map(|e| english(e)).collect();
        assert_eq!(
            position,
            [
                "invalid position: fields: expected 5 fields separated by single spaces (board side white-hand black-hand quiet), found 4",
                "invalid position: board: 8 ranks; boards have 3 to 7",
                "invalid position: board: rank 2 is wider than 7 cells",
                "invalid position: board: rank 1: two digits in a row; write one digit for a run of empty cells",
                "invalid position: board: unknown letter 'X' in rank 1 (W white stone, B black stone, 1-7 empty cells)",
                "invalid position: board: rank 5 is 2 cells wide; boards have 3 to 7",
                "invalid position: board: rank 1 is 5 cells wide but rank 5 is 6",
                r#"invalid position: side: "x": expected w or b"#,
                r#"invalid position: white in hand: "x" is not a number"#,
                "invalid position: quiet plies: 100001 is too large (at most 100000)",
                "invalid position: board: the board is 3x3 but the ruleset arcade plays on 6x5",
                "invalid position: board: there are stones off the board",
                "invalid position: board: a cell holds stones of both colours",
                "invalid position: white in hand: 13 stones in hand, but arcade gives each player 12",
                "invalid position: board: black has 4 stones on the board and 10 in hand, more than the 12 of arcade",
                "invalid position: quiet plies: must be 0 while stones are being placed (it counts movement plies)",
                "invalid position: side: white to place with 2 white and 0 black stones in hand: under blocked=any the players place in turn, White first",
                "invalid position: quiet plies: 81 is past the draw at 80 quiet plies",
            ]
        );
    }
}
