//! What the arena's tests share: an arena an hour from a fixed start, players by number, and
//! short ways to play a game through.

#![allow(dead_code)]

use std::time::Duration;

use dara_arena::{
    Arena, Effect, GameNo, Input, Outcome, PlayerId, Refusal, Settings, Verdict, WallTime,
};

/// The arena's start.
pub const START: WallTime = WallTime::from_millis(1_800_000_000_000);

/// How long the arenas of the tests run.
pub const LENGTH: Duration = Duration::from_secs(3600);

/// `secs` seconds after the start.
pub fn at(secs: u64) -> WallTime {
    START + Duration::from_secs(secs)
}

/// A new arena.
pub fn arena() -> Arena {
    Arena::new(Settings::new("arcade", "3+2", START, LENGTH))
}

/// Player `n`.
pub fn p(n: u32) -> PlayerId {
    PlayerId::new(format!("token-{n}"))
}

/// Player `n` joins as `Player n` at `now`.
pub fn join(arena: &mut Arena, now: WallTime, n: u32) -> Outcome {
    arena.handle(now, Input::Join { player: p(n), name: format!("Player {n}") }).expect("joins")
}

/// An arena with players `1..=n`, started at [`START`] (and its first pairings made).
pub fn running(n: u32) -> (Arena, Vec<(GameNo, PlayerId, PlayerId)>) {
    let mut arena = arena();
    for k in 1..=n {
        let _ = join(&mut arena, START - Duration::from_secs(60), k);
    }
    let started = tick(&mut arena, START);
    (arena, started)
}

/// A tick at `now`: the games it started, `(game, pale, dark)`.
pub fn tick(arena: &mut Arena, now: WallTime) -> Vec<(GameNo, PlayerId, PlayerId)> {
    let outcome = arena.handle(now, Input::Tick).expect("a tick is never refused");
    started(&outcome)
}

/// The games an outcome starts.
pub fn started(outcome: &Outcome) -> Vec<(GameNo, PlayerId, PlayerId)> {
    outcome
        .effects
        .iter()
        .filter_map(|e| match e {
            Effect::StartGame { game, pale, dark } => Some((*game, pale.clone(), dark.clone())),
            _ => None,
        })
        .collect()
}

/// The game ends at `now`.
pub fn end(
    arena: &mut Arena,
    now: WallTime,
    game: GameNo,
    verdict: Verdict,
    plies: u32,
) -> Outcome {
    arena.handle(now, Input::GameEnded { game, verdict, plies }).expect("a game ends")
}

/// `player` wins `game` (of 40 plies) at `now`.
pub fn win(arena: &mut Arena, now: WallTime, game: GameNo, player: &PlayerId) -> Outcome {
    let winner = arena.game(game).unwrap().colour_of(player).expect("plays in it");
    end(arena, now, game, Verdict::Won { winner }, 40)
}

/// A player's score.
pub fn score(arena: &Arena, player: &PlayerId) -> u32 {
    arena.player(player).expect("joined").sheet.total()
}

/// A player's sheet as lichess writes it.
pub fn sheet(arena: &Arena, player: &PlayerId) -> String {
    arena.player(player).expect("joined").sheet.points_text()
}

/// The input is refused with `why`, and the arena is as it was.
pub fn refused(arena: &mut Arena, now: WallTime, input: Input, why: Refusal) {
    let before = arena.clone();
    assert_eq!(arena.handle(now, input.clone()), Err(why), "{input:?}");
    assert_eq!(*arena, before, "a refusal kept something: {input:?}");
}
