//! Tables to test with, and the checks every test makes of an input.

#![allow(dead_code)] // each test file uses its own share

use std::time::Duration;

use dara::{ByColour, Colour};
use dara_engine::level::Level;
use dara_table::{
    Ask, Effect, GameSettings, Input, Moment, Opponent, Outcome, Patience, Refusal, Reply, Seat,
    Table, TimeControl,
};

/// A person, as the tests stand them in a seat.
pub type Key = u32;

pub const PALE: Key = 1;
pub const DARK: Key = 2;

pub fn at(seconds: u64) -> Moment {
    Moment::ORIGIN + Duration::from_secs(seconds)
}

pub fn settings(opponent: Opponent, clock: Option<TimeControl>) -> GameSettings {
    GameSettings { rules: "arcade".parse().unwrap(), opponent, creator: Colour::White, clock }
}

/// A game by link, pale waiting for dark, begun at `at(0)`.
pub fn waiting(clock: Option<TimeControl>) -> Table<Key> {
    let seats = ByColour { white: Seat::Human(PALE), black: Seat::Open };
    let mut table = Table::new(settings(Opponent::Friend, clock), seats, Patience::default());
    let outcome = table.begin(at(0));
    assert_eq!(outcome.reply, Ok(Reply::Done));
    assert!(outcome.effects.is_empty());
    table
}

/// A game by link with both seated at `at(0)`.
pub fn friends(clock: Option<TimeControl>) -> Table<Key> {
    let mut table = waiting(clock);
    let outcome = table.handle(at(0), ask(None, Ask::Sit { key: DARK }));
    assert_eq!(outcome.reply, Ok(Reply::Seated(Colour::Black)));
    table
}

/// A 1+0 clock.
pub fn minute() -> Option<TimeControl> {
    Some(TimeControl { initial: 60, increment: 0 })
}

/// A game against the computer at level 1, the person playing `human`; begun at `at(0)`, with
/// what the beginning asked for.
pub fn against_computer(human: Colour) -> (Table<Key>, Outcome) {
    let level = Level::new(1).unwrap();
    let mut seats = ByColour { white: Seat::Computer(level), black: Seat::Computer(level) };
    seats[human] = Seat::Human(PALE);
    let mut settings = settings(Opponent::Computer(level), None);
    settings.creator = human;
    let mut table = Table::new(settings, seats, Patience::default());
    let outcome = table.begin(at(0));
    (table, outcome)
}

pub fn ask(by: Option<Colour>, ask: Ask<Key>) -> Input<Key> {
    Input::Ask { by, ask }
}

pub fn turn(id: u64, text: &str) -> Ask<Key> {
    Ask::Turn { id, text: text.to_owned(), lag: None }
}

/// Plays `text` for the side to move at `now`, which must be accepted.
pub fn play(table: &mut Table<Key>, now: Moment, id: u64, text: &str) -> Outcome {
    let side = table.played().pos().side();
    let outcome = table.handle(now, ask(Some(side), turn(id, text)));
    assert_eq!(outcome.reply, Ok(Reply::Accepted { id }), "{text}");
    outcome
}

/// Asks, and checks it is refused for `why` with nothing changed and nothing to do.
pub fn refused(table: &mut Table<Key>, now: Moment, input: Input<Key>, why: Refusal) {
    let before = table.clone();
    let outcome = table.handle(now, input.clone());
    assert_eq!(outcome.reply, Err(why), "{input:?}");
    assert!(outcome.events.is_empty(), "{input:?} recorded {:?}", outcome.events);
    assert!(outcome.effects.is_empty(), "{input:?} asked for {:?}", outcome.effects);
    assert_eq!(*table, before, "{input:?} changed the table");
}

/// The search the outcome asked the computer for.
pub fn think(outcome: &Outcome) -> Option<&dara_table::Think> {
    outcome.effects.iter().find_map(|e| match e {
        Effect::Think(think) => Some(think),
        _ => None,
    })
}
