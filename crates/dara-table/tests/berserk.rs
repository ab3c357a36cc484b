//! Berserk at the table: a side's time halved before its first move, as a journal event that
//! replays and that every page is told with both clocks; refused after that side's first move,
//! twice, without a clock, or once the game is over, the table then exactly as it was.

mod common;

use common::*;
use dara::ByColour;
use dara::Colour::{Black, White};
use dara_table::view::{Event, View};
use dara_table::{
    Ask, BerserkRefusal, EndReason, GameEvent, Patience, Reply, Table, TimeControl, TimeLeft,
};

fn five_plus_three() -> Option<TimeControl> {
    Some(TimeControl { initial: 300, increment: 3 })
}

/// Berserk is refused for `why`, and the table is as it was.
fn refused_berserk(table: &mut Table<Key>, seconds: u64, side: dara::Colour, why: BerserkRefusal) {
    let before = table.clone();
    assert_eq!(table.berserk(at(seconds), side), Err(why));
    assert_eq!(*table, before);
}

#[test]
fn berserk_before_the_first_move_halves_that_side_alone_and_is_one_event() {
    let mut table = friends(five_plus_three());
    let outcome = table.berserk(at(3), White).expect("before pale's first move");
    assert_eq!(outcome.reply, Ok(Reply::Done));
    assert_eq!(outcome.events, 2..3);
    assert!(outcome.effects.is_empty());
    let halved = TimeLeft { white: 150_000, black: 300_000 };
    assert_eq!(table.journal()[1], GameEvent::Berserked { colour: White, left: Some(halved) });
    assert_eq!(table.clock().unwrap().left(at(3)), halved);
    assert_eq!(table.berserked(), ByColour { white: true, black: false });
    // Every page is told both clocks, none running, the first move's countdown left alone.
    let view = View { table: &table, date: "2026.12.05" };
    match view.last(2) {
        Event::Berserk { colour, clock: Some(clock) } => {
            assert_eq!(
                (colour, clock.left, clock.running, clock.first_move),
                (White, halved, None, None)
            );
        }
        other => panic!("{other:?}"),
    }
    let snapshot = view.snapshot(Some(Black), at(4));
    assert_eq!(snapshot.berserk, vec![White]);
    assert_eq!(snapshot.clock.unwrap().left, halved);
    // The waiting for pale's first move goes on as before.
    assert_eq!(table.first_move_by(), Some(at(30)));
}

#[test]
fn the_berserker_plays_on_half_its_time_and_keeps_its_increment() {
    let mut table = friends(five_plus_three());
    let _ = play(&mut table, at(1), 1, "c3");
    let _ = table.berserk(at(2), Black).expect("before dark's first move");
    let _ = play(&mut table, at(4), 2, "d3");
    // Pale's clock runs from dark's first move; dark's from pale's second.
    let _ = play(&mut table, at(14), 3, "e3");
    let _ = play(&mut table, at(24), 4, "b3");
    let left = table.clock().unwrap().left(at(24));
    assert_eq!(left, TimeLeft { white: 300_000 - 10_000 + 3_000, black: 150_000 - 10_000 + 3_000 });
}

#[test]
fn berserk_is_refused_after_the_sides_first_move_or_twice() {
    let mut table = friends(five_plus_three());
    let _ = table.berserk(at(1), White).unwrap();
    refused_berserk(&mut table, 2, White, BerserkRefusal::AlreadyBerserk);
    let _ = play(&mut table, at(3), 1, "c3");
    refused_berserk(&mut table, 4, White, BerserkRefusal::AlreadyBerserk);
    let mut table = friends(five_plus_three());
    let _ = play(&mut table, at(3), 1, "c3");
    refused_berserk(&mut table, 4, White, BerserkRefusal::AlreadyMoved);
    // Nor once dark has made its own.
    let _ = play(&mut table, at(6), 2, "d3");
    refused_berserk(&mut table, 7, Black, BerserkRefusal::AlreadyMoved);
}

#[test]
fn berserk_is_refused_without_a_clock_or_once_the_game_is_over() {
    let mut table = friends(None);
    refused_berserk(&mut table, 1, White, BerserkRefusal::NoClock);
    let mut table = friends(five_plus_three());
    let _ = table.handle(at(2), ask(Some(Black), Ask::Resign));
    refused_berserk(&mut table, 3, White, BerserkRefusal::GameOver);
    // Pale let its 30 s for a first move pass: the game is as good as aborted.
    let mut table = friends(five_plus_three());
    refused_berserk(&mut table, 31, White, BerserkRefusal::GameOver);
    let _ = table.handle(at(31), dara_table::Input::Time);
    assert!(matches!(table.ending().unwrap().reason, EndReason::Aborted { idle: White }));
}

#[test]
fn a_berserk_replays_from_the_journal_clocks_and_all() {
    let mut table = friends(five_plus_three());
    let _ = play(&mut table, at(1), 1, "c3");
    let _ = table.berserk(at(2), Black).unwrap();
    let restored = Table::restore(
        table.settings().clone(),
        table.seats().clone(),
        Patience::default(),
        table.journal().to_vec(),
        at(50),
    )
    .expect("the journal replays");
    assert_eq!(restored.berserked(), ByColour { white: false, black: true });
    assert_eq!(restored.clock().unwrap().left(at(50)), TimeLeft { white: 300_000, black: 150_000 });
    let mut restored = restored;
    refused_berserk(&mut restored, 51, Black, BerserkRefusal::AlreadyBerserk);
}
