//! One test for each reason the rules give for an illegal move: the reason's fields, and its
//! English (unchanged from when the reason was only a sentence).

use dara::record::{GameResult, Record};
use dara::{Bitboard, Cell, Colour, Coord, Illegal, Move, MoveError, Position, Ruleset};

fn cell(name: &str) -> Cell {
    Cell::from_name(name).unwrap()
}

/// The reason `text` is refused in `fen` under `rules`, checked against its English.
fn why(rules: &str, fen: &str, text: &str, english: &str) -> Illegal {
    let pos = Position::from_text(fen, rules.parse::<Ruleset>().unwrap()).unwrap();
    let MoveError::Illegal(e) = pos.parse_move(text).unwrap_err() else {
        panic!("{text} should be read as notation");
    };
    assert_eq!(e.reason(), english, "{text} in {fen}");
    assert_eq!(e.to_string(), format!("{:?}: {english}", e.text()));
    e.why().clone()
}

const START: &str = "6/6/6/6/6 w 12 12 0";
/// Movement: d5-d4 makes the row d4 e4 f4; a1 b1 c1 is a standing row.
const ROW: &str = "B2W2/4WW/BB4/3W2/WWW2B w 0 0 0";

#[test]
fn game_over() {
    let pos = Position::from_text("6/6/6/6/WW1BBB w 0 0 0", Ruleset::default()).unwrap();
    let status = pos.status();
    let english = format!("the game is over ({status})");
    assert_eq!(
        why("arcade", "6/6/6/6/WW1BBB w 0 0 0", "a1-a2", &english),
        Illegal::GameOver { status }
    );
}

#[test]
fn record_finished() {
    let mut record: Record = "1. c3 d4 1-0".parse().unwrap();
    let e = record.push(Move::Put(cell("a1"))).unwrap_err();
    assert_eq!(e.why(), &Illegal::RecordFinished { result: GameResult::WhiteWins });
    assert_eq!(e.reason(), "the game is over (1-0)");
}

#[test]
fn pass_not_allowed() {
    let english = "a pass is only allowed when a player cannot place";
    assert_eq!(why("arcade", START, "pass", english), Illegal::PassNotAllowed);
}

#[test]
fn placement_over() {
    let english = "stones are no longer placed: every stone is down, so step one (as in c3-c4)";
    assert_eq!(why("arcade", ROW, "c3", english), Illegal::PlacementOver);
}

#[test]
fn still_placing() {
    let english = "white is still placing stones (as in c3)";
    assert_eq!(
        why("arcade", START, "c3-c4", english),
        Illegal::StillPlacing { side: Colour::White }
    );
}

#[test]
fn no_such_cell() {
    let pos = Position::start(Ruleset::default());
    let MoveError::Illegal(e) = pos.parse_move("c9").unwrap_err() else { panic!() };
    assert_eq!(e.text(), "c9");
    assert_eq!(e.reason(), "no such cell on 6x5");
    assert_eq!(
        e.why(),
        &Illegal::NoSuchCell { cell: Coord { file: 2, rank: 8 }, cols: 6, rows: 5 }
    );
}

#[test]
fn off_board() {
    // A `Cell` may name any cell of 7 x 7: g1 is off a board of six files.
    let mut pos = Position::start(Ruleset::default());
    let e = pos.play(Move::Put(cell("g1"))).unwrap_err();
    assert_eq!(e.why(), &Illegal::OffBoard { cell: cell("g1") });
    assert_eq!(e.reason(), "g1 is not on the board");
}

#[test]
fn occupied() {
    let placed = why("arcade", "6/6/2W3/6/6 b 11 12 0", "c3", "c3 is not empty");
    assert_eq!(placed, Illegal::Occupied { cell: cell("c3") });
    let stepped = why("arcade", ROW, "e4-f4", "f4 is not empty");
    assert_eq!(stepped, Illegal::Occupied { cell: cell("f4") });
}

#[test]
fn corner_opening() {
    let english = "the first stone of the game goes in a corner";
    assert_eq!(
        why("arcade,opening=corner", START, "c3", english),
        Illegal::CornerOpening { cell: cell("c3") }
    );
}

#[test]
fn centre_opening() {
    let english = "no stone on the middle files during a player's first four placements";
    assert_eq!(
        why("arcade,opening=centre", START, "d2", english),
        Illegal::CentreOpening { cell: cell("d2") }
    );
}

#[test]
fn line_too_long() {
    let english =
        "a stone on c1 would stand in a line of 3; placements may not make three or more in a line";
    assert_eq!(
        why("arcade", "6/6/6/BB4/WW4 w 10 10 0", "c1", english),
        Illegal::LineTooLong { cell: cell("c1"), run: 3, limit: 3 }
    );
    let english =
        "a stone on d1 would stand in a line of 4; placements may not make four or more in a line";
    assert_eq!(
        why("wikipedia", "6/6/6/BBB3/WWW3 w 9 9 0", "d1", english),
        Illegal::LineTooLong { cell: cell("d1"), run: 4, limit: 4 }
    );
}

#[test]
fn must_pass_and_no_stones_in_hand() {
    // Under `blocked=pass`, white's hand is empty while dark still places: white passes.
    let english =
        "white has no stone that may be placed and must pass (no stones are left in hand)";
    assert_eq!(
        why("jaques,stones=4", "6/6/6/B1B1B1/W1W1WW w 0 1 0", "c3", english),
        Illegal::MustPass { side: Colour::White, because: Box::new(Illegal::NoStonesInHand) }
    );
}

#[test]
fn no_stone_of_yours() {
    let english = "there is no white stone on a5";
    assert_eq!(
        why("arcade", ROW, "a5-b5", english),
        Illegal::NoStoneOfYours { side: Colour::White, cell: cell("a5") }
    );
}

#[test]
fn not_a_step() {
    let english = "d5 to d3 is not a step: stones move one step up, down, left or right";
    assert_eq!(
        why("arcade", ROW, "d5-d3", english),
        Illegal::NotAStep { from: cell("d5"), to: cell("d3"), diagonal: false }
    );
    let english = "d5 to d3 is not a step: stones move one step in any direction";
    assert_eq!(
        why("arcade,diagonal=yes", ROW, "d5-d3", english),
        Illegal::NotAStep { from: cell("d5"), to: cell("d3"), diagonal: true }
    );
}

#[test]
fn long_line() {
    let english = "d2-d1 would make a line of four or more, which this ruleset forbids";
    assert_eq!(
        why("wikipedia", ROW, "d2-d1", english),
        Illegal::LongLine { from: cell("d2"), to: cell("d1") }
    );
}

#[test]
fn no_row_made() {
    let english = "d2-e2 makes no row of three, so it captures nothing";
    assert_eq!(
        why("arcade", ROW, "d2-e2xa5", english),
        Illegal::NoRowMade { from: cell("d2"), to: cell("e2") }
    );
}

#[test]
fn capture_required() {
    let english = "d5-d4 makes a row of three: name the stone to capture, as in d5-d4xf1";
    let example =
        Move::Step { from: cell("d5"), to: cell("d4"), captures: Bitboard::from_cell(cell("f1")) };
    assert_eq!(
        why("arcade", ROW, "d5-d4", english),
        Illegal::CaptureRequired { from: cell("d5"), to: cell("d4"), example }
    );
}

#[test]
fn nothing_to_take() {
    let english = "there is no black stone on a1 to capture";
    assert_eq!(
        why("arcade", ROW, "d5-d4xa1", english),
        Illegal::NothingToTake { side: Colour::Black, cell: cell("a1") }
    );
}

#[test]
fn captured_twice() {
    assert_eq!(
        why("arcade", ROW, "d5-d4xf1xf1", "f1 is captured twice"),
        Illegal::CapturedTwice { cell: cell("f1") }
    );
}

#[test]
fn wrong_capture_count() {
    let english = "d5-d4 captures 1 stone(s), not 2";
    assert_eq!(
        why("arcade", ROW, "d5-d4xa5xf1", english),
        Illegal::WrongCaptureCount { from: cell("d5"), to: cell("d4"), takes: 1, named: 2 }
    );
}

#[test]
fn protected() {
    // Dark's a3 b3 c3 is a row; a5 and f1 stand outside rows.
    let english =
        "that stone is in a row of three and protected while the enemy has stones outside rows";
    assert_eq!(
        why("ninja", "B2W2/4WW/BBB3/3W2/WWW2B w 0 0 0", "d5-d4xb3", english),
        Illegal::Protected { cell: cell("b3") }
    );
}

#[test]
fn not_listed() {
    let mut pos = Position::start(Ruleset::default());
    let e = pos.play_listed(Move::Put(cell("c3")), &[]).unwrap_err();
    assert_eq!(e.why(), &Illegal::NotListed { cell: cell("c3") });
    assert_eq!(e.reason(), "c3 is a legal placement");
}
