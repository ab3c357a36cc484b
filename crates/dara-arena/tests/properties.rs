//! Random sequences of inputs (joins under good and bad names, pauses, returns, departures,
//! berserk, first moves, games ending every way, time passing through the start and the end):
//! a refusal changes nothing, the events are the journal's growth, nobody is in two games at
//! once, nobody is paired with themselves, last opponents meet again only when nobody else is
//! free, every score adds up from the games as an independent count scores them, and the
//! journal, written out and read back, rebuilds the same arena.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use common::*;
use dara::Colour;
use dara_arena::{
    own_moves, Arena, ArenaEvent, Finish, GameNo, Input, PlayerId, Presence, Settings, Verdict,
    WallTime,
};
use proptest::prelude::*;

/// One thing that happens, in the terms proptest draws.
#[derive(Debug, Clone)]
enum Step {
    Join { who: u32, name: usize },
    Pause { who: u32 },
    Resume { who: u32 },
    Leave { who: u32 },
    Berserk { who: u32, pick: usize },
    FirstMove { pick: usize, by: bool },
    End { pick: usize, verdict: u8, plies: u32 },
    Tick { after_ms: u64 },
}

const NAMES: [&str; 10] =
    ["Ana", "ana", "Ƙwaro", "ƙWARO", "Hélène", "  Bello  ", "", "a\u{200B}b", "Ɗan Ɓaƙo", "Zoë"];

fn step() -> impl Strategy<Value = Step> {
    let who = 0u32..8;
    prop_oneof![
        3 => (who.clone(), 0..NAMES.len()).prop_map(|(who, name)| Step::Join { who, name }),
        1 => who.clone().prop_map(|who| Step::Pause { who }),
        1 => who.clone().prop_map(|who| Step::Resume { who }),
        1 => who.clone().prop_map(|who| Step::Leave { who }),
        1 => (who, any::<usize>()).prop_map(|(who, pick)| Step::Berserk { who, pick }),
        2 => (any::<usize>(), any::<bool>()).prop_map(|(pick, by)| Step::FirstMove { pick, by }),
        4 => (any::<usize>(), 0u8..6, 0u32..60)
            .prop_map(|(pick, verdict, plies)| Step::End { pick, verdict, plies }),
        4 => prop_oneof![6 => 0u64..6_000, 1 => 0u64..90_000].prop_map(|after_ms| Step::Tick { after_ms }),
    ]
}

/// A game number: one being played (most often), one that ended, or one never paired.
fn pick_game(arena: &Arena, pick: usize) -> GameNo {
    let playing: Vec<GameNo> = arena.games().filter(|g| g.is_playing()).map(|g| g.game).collect();
    let all: Vec<GameNo> = arena.games().map(|g| g.game).collect();
    match pick % 8 {
        0 => GameNo(u32::try_from(pick % 50).unwrap()),
        1 if !all.is_empty() => all[pick / 8 % all.len()],
        _ if !playing.is_empty() => playing[pick / 8 % playing.len()],
        _ => GameNo(u32::try_from(pick % 50).unwrap()),
    }
}

/// A player of a game being played (most often), or anyone.
fn pick_berserker(arena: &Arena, who: u32, pick: usize) -> PlayerId {
    let game = pick_game(arena, pick);
    match arena.game(game) {
        Some(g) if who % 4 != 0 => {
            g.players[if who % 2 == 0 { Colour::White } else { Colour::Black }].clone()
        }
        _ => p(who),
    }
}

fn verdict(code: u8) -> Verdict {
    match code {
        0 => Verdict::Won { winner: Colour::White },
        1 => Verdict::Won { winner: Colour::Black },
        2 => Verdict::Drawn,
        3 => Verdict::NoFirstMove { idle: Colour::White },
        4 => Verdict::NoFirstMove { idle: Colour::Black },
        _ => Verdict::Cancelled,
    }
}

fn input(arena: &Arena, step: &Step) -> Input {
    match *step {
        Step::Join { who, name } => Input::Join { player: p(who), name: NAMES[name].into() },
        Step::Pause { who } => Input::Pause { player: p(who) },
        Step::Resume { who } => Input::Resume { player: p(who) },
        Step::Leave { who } => Input::Leave { player: p(who) },
        Step::Berserk { who, pick } => Input::Berserk {
            player: pick_berserker(arena, who, pick),
            game: pick_game(arena, pick),
        },
        Step::FirstMove { pick, by } => Input::FirstMove {
            game: pick_game(arena, pick),
            by: if by { Colour::White } else { Colour::Black },
        },
        Step::End { pick, verdict: code, plies } => {
            Input::GameEnded { game: pick_game(arena, pick), verdict: verdict(code), plies }
        }
        Step::Tick { .. } => Input::Tick,
    }
}

/// The points of one player's games, counted here apart from the crate's sheet: 2 a win, 1 a
/// draw, doubled after two wins in a row, a point more for a berserk win of 7 own moves, and
/// nothing for a draw of fewer than 20 plies.
fn points(games: &[(Finish, u32, u32, bool)]) -> u32 {
    let mut total = 0;
    for (k, &(finish, plies, own, berserk)) in games.iter().enumerate() {
        let fire = k >= 2 && games[k - 2].0 == Finish::Win && games[k - 1].0 == Finish::Win;
        let factor = if fire { 2 } else { 1 };
        total += match finish {
            Finish::Win => 2 * factor + u32::from(berserk && own >= 7),
            Finish::Draw if plies < 20 => 0,
            Finish::Draw => factor,
            Finish::Loss => 0,
        };
    }
    total
}

/// Every player's games, from the journal alone: the berserks, then each game's end.
fn games_from_journal(journal: &[ArenaEvent]) -> BTreeMap<PlayerId, Vec<(Finish, u32, u32, bool)>> {
    let mut seats: BTreeMap<GameNo, [PlayerId; 2]> = BTreeMap::new();
    let mut berserk: BTreeSet<(GameNo, Colour)> = BTreeSet::new();
    let mut games: BTreeMap<PlayerId, Vec<_>> = BTreeMap::new();
    for event in journal {
        match event {
            ArenaEvent::Paired { game, pale, dark } => {
                seats.insert(*game, [pale.clone(), dark.clone()]);
            }
            ArenaEvent::Berserked { game, by } => {
                berserk.insert((*game, *by));
            }
            ArenaEvent::GameEnded { game, verdict, plies, .. } => {
                for (side, player) in Colour::ALL.into_iter().zip(&seats[game]) {
                    let finish = match *verdict {
                        Verdict::Won { winner } if winner == side => Finish::Win,
                        Verdict::Won { .. } => Finish::Loss,
                        Verdict::NoFirstMove { idle } if idle == side => Finish::Loss,
                        Verdict::NoFirstMove { .. } => Finish::Win,
                        Verdict::Drawn => Finish::Draw,
                        Verdict::Cancelled => continue,
                    };
                    let own = own_moves(*plies, side);
                    games.entry(player.clone()).or_default().push((
                        finish,
                        *plies,
                        own,
                        berserk.contains(&(*game, side)),
                    ));
                }
            }
            _ => {}
        }
    }
    games
}

fn check_invariants(arena: &Arena) {
    // Nobody in two games at once, nobody paired with themselves.
    let mut playing: BTreeMap<&PlayerId, GameNo> = BTreeMap::new();
    for game in arena.games() {
        assert_ne!(game.players.white, game.players.black, "{game:?}");
        if game.is_playing() {
            for player in [&game.players.white, &game.players.black] {
                assert!(playing.insert(player, game.game).is_none(), "{player:?} in two games");
                assert_eq!(arena.player(player).unwrap().playing, Some(game.game));
            }
        }
    }
    for (id, player) in arena.ranked() {
        if player.playing.is_some() {
            assert!(playing.contains_key(id));
        }
    }
    // Scores add up from the games.
    let games = games_from_journal(arena.journal());
    let standings = arena.standings(START, None);
    for (id, player) in arena.ranked() {
        let mine = games.get(id).map(Vec::as_slice).unwrap_or_default();
        assert_eq!(player.sheet.total(), points(mine), "{id:?}: {:?}", player.sheet);
        assert_eq!(player.sheet.marks().len(), mine.len());
        let marks: u32 = player.sheet.marks().iter().map(|m| m.points).sum();
        assert_eq!(marks, player.sheet.total());
    }
    // The standings are in order.
    for pair in standings.top.windows(2) {
        assert!(pair[0].score >= pair[1].score);
        assert_eq!(pair[0].rank + 1, pair[1].rank);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn an_arena_keeps_its_invariants(steps in proptest::collection::vec(step(), 1..200)) {
        let starts = START;
        let settings = Settings::new("arcade", "3+2", starts, Duration::from_secs(240));
        let mut arena = Arena::new(settings.clone());
        let mut now: WallTime = starts - Duration::from_secs(10);
        for step in &steps {
            if let Step::Tick { after_ms } = step {
                now = now + Duration::from_millis(*after_ms);
            }
            let input = input(&arena, step);
            let before = arena.clone();
            let free_before: BTreeSet<PlayerId> =
                arena.free_players().into_iter().cloned().collect();
            // Those the input itself may free: a pairing at once may take them too.
            let freed: Vec<PlayerId> = match &input {
                Input::Join { player, .. } | Input::Resume { player } => vec![player.clone()],
                Input::GameEnded { game, .. } => arena
                    .game(*game)
                    .filter(|g| g.is_playing())
                    .map(|g| Colour::ALL.map(|c| g.players[c].clone()).to_vec())
                    .unwrap_or_default(),
                _ => Vec::new(),
            };
            match arena.handle(now, input.clone()) {
                Err(_) => prop_assert_eq!(&arena, &before, "a refusal kept something: {:?}", input),
                Ok(outcome) => {
                    let grown = (before.journal().len() as u64 + 1)..(arena.journal().len() as u64 + 1);
                    prop_assert_eq!(outcome.events.clone(), grown);
                    // Last opponents meet again only when they were the only two free.
                    let free: BTreeSet<&PlayerId> = free_before
                        .iter()
                        .chain(&freed)
                        .filter(|x| arena.player(x).is_some_and(|p| p.presence == Presence::Active))
                        .collect();
                    for event in &arena.journal()[before.journal().len()..] {
                        if let ArenaEvent::Paired { pale, dark, .. } = event {
                            prop_assert!(free.contains(pale) && free.contains(dark));
                            let last = |x: &PlayerId| before.player(x).and_then(|p| p.last_opponent.clone());
                            if last(pale).as_ref() == Some(dark) || last(dark).as_ref() == Some(pale) {
                                prop_assert_eq!(free.len(), 2, "{:?} met {:?} again", pale, dark);
                            }
                        }
                    }
                }
            }
            check_invariants(&arena);
        }
        // The journal, written out and read back, is the arena.
        let text = serde_json::to_string(arena.journal()).unwrap();
        let restored = Arena::restore(settings, serde_json::from_str(&text).unwrap()).unwrap();
        prop_assert_eq!(restored, arena);
    }
}
