//! How many times each way of reading and playing a move lists the legal moves (with the
//! `count-generations` feature): the documented counts, so that a caller can rely on them.
#![cfg(feature = "count-generations")]

use dara::record::Record;
use dara::{generations, MoveText, Position, Ruleset};

/// The generations `f` makes on this thread.
fn generations_of(f: impl FnOnce()) -> u64 {
    let before = generations();
    f();
    generations() - before
}

#[test]
fn each_way_of_playing_a_move_lists_the_moves_as_documented() {
    let start = Position::start(Ruleset::default());
    let text: MoveText = "c3".parse().unwrap();
    assert_eq!(generations_of(|| drop(start.legal_moves())), 1);
    assert_eq!(generations_of(|| drop(start.parse_move("c3"))), 1);
    assert_eq!(generations_of(|| drop(text.to_move(&start))), 1);
    let m = start.parse_move("c3").unwrap();
    assert_eq!(generations_of(|| drop(start.clone().play(m))), 1);
    // Counting and picking by index list nothing.
    let count_and_pick = || {
        let _ = (start.count_moves(), start.pick_move(|n| n - 1));
    };
    assert_eq!(generations_of(count_and_pick), 0);
    // With the list in hand: nothing more, refusals included.
    let legal = start.legal_moves();
    assert_eq!(
        generations_of(|| {
            let m = start.parse_move_in("c3", &legal).unwrap();
            assert!(text.to_move_in(&start, &legal).is_ok());
            assert!(start.parse_move_in("c3-c4", &legal).is_err());
            assert!(start.clone().play_listed(m, &legal).is_ok());
        }),
        0
    );
}

#[test]
fn a_game_read_from_text_lists_the_moves_once_a_turn() {
    let mut pos = Position::start(Ruleset::default());
    let turns = ["c3", "d3", "a1", "f5", "b4", "e2"];
    let used = generations_of(|| {
        for text in turns {
            // The one listing of the turn: sent to the players, then used to resolve their move.
            let legal = pos.legal_moves();
            assert!(pos.parse_move_in("z9", &legal).is_err(), "a refusal costs nothing more");
            let m = pos.parse_move_in(text, &legal).unwrap();
            pos.play_listed(m, &legal).unwrap();
        }
    });
    assert_eq!(used, turns.len() as u64);
}

#[test]
fn a_record_lists_the_moves_once_a_move() {
    let text = "[Rules \"arcade\"]\n[Result \"*\"]\n\n1. c3 d4 2. a1 *\n";
    assert_eq!(generations_of(|| drop(text.parse::<Record>().unwrap())), 3);
    let mut record = Record::new(Position::start(Ruleset::default()));
    let legal = record.final_position().legal_moves();
    let m = record.final_position().parse_move_in("c3", &legal).unwrap();
    assert_eq!(generations_of(|| record.push_listed(m, &legal).unwrap()), 0);
    let m = record.final_position().parse_move("d4").unwrap();
    assert_eq!(generations_of(|| record.push(m).unwrap()), 1);
}
