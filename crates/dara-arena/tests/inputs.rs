//! One test per rule of the arena, through its inputs: joining and its refusals, pausing and
//! leaving, each scoring case played through, berserk, the first-move rule, pairing (odd
//! numbers, last opponents, colours, free again as soon as a game ends), the tie-break, the end with
//! games still being played, the standings, and the journal read back.

mod common;

use std::time::Duration;

use common::*;
use dara::Colour;
use dara_arena::{
    Arena, ArenaEvent, Effect, Input, Phase, Presence, Refusal, Settings, Verdict, TIE_BREAK,
    TOP_GAMES,
};

fn join_as(n: u32, name: &str) -> Input {
    Input::Join { player: p(n), name: name.into() }
}

#[test]
fn a_player_joins_under_a_name_in_any_script() {
    let mut arena = arena();
    for (n, name) in [(1, "Ɗan Ƙwaro"), (2, "ɓaƴa"), (3, "Hélène"), (4, "محمد")] {
        let outcome = arena.handle(START, join_as(n, name)).unwrap();
        assert_eq!(outcome.events.end - outcome.events.start, 1);
        assert_eq!(outcome.effects, [Effect::TellStandings]);
        assert_eq!(arena.player(&p(n)).unwrap().name.as_str(), name);
    }
}

#[test]
fn bad_names_are_refused_and_nothing_is_kept() {
    let mut arena = arena();
    refused(&mut arena, START, join_as(1, "   "), Refusal::NameEmpty);
    refused(&mut arena, START, join_as(1, &"ƙ".repeat(21)), Refusal::NameTooLong { max: 20 });
    refused(&mut arena, START, join_as(1, "Ana\u{0007}"), Refusal::NameInvisible);
    refused(&mut arena, START, join_as(1, "A\u{200B}na"), Refusal::NameInvisible);
    refused(&mut arena, START, join_as(1, "\u{202E}anA"), Refusal::NameInvisible);
    assert!(arena.journal().is_empty());
}

#[test]
fn a_name_taken_is_refused_whatever_its_case_or_spacing() {
    let mut arena = arena();
    let _ = arena.handle(START, join_as(1, "Ƙwaro Bello")).unwrap();
    refused(&mut arena, START, join_as(2, "ƙwaro  bello"), Refusal::NameTaken);
    refused(&mut arena, START, join_as(2, " ƘWARO BELLO "), Refusal::NameTaken);
}

#[test]
fn joining_twice_is_refused_and_the_place_is_kept() {
    let mut arena = arena();
    let _ = arena.handle(START, join_as(1, "Ana")).unwrap();
    refused(&mut arena, START, join_as(1, "Ana"), Refusal::AlreadyJoined);
    refused(&mut arena, START, join_as(1, "Someone else"), Refusal::AlreadyJoined);
    // A reload is the same token: the page finds its row.
    assert_eq!(arena.standings(START, Some(&p(1))).mine.unwrap().name.as_str(), "Ana");
}

#[test]
fn joining_after_the_end_is_refused_even_before_the_last_tick() {
    let mut arena = arena();
    let end = START + LENGTH;
    refused(&mut arena, end, join_as(1, "Ana"), Refusal::ArenaOver);
    tick(&mut arena, end);
    assert_eq!(arena.phase(), Phase::Finished);
    refused(&mut arena, end + Duration::from_secs(1), join_as(1, "Ana"), Refusal::ArenaOver);
    refused(&mut arena, end, Input::Pause { player: p(1) }, Refusal::ArenaOver);
}

#[test]
fn joining_a_running_arena_is_allowed() {
    let (mut arena, games) = running(2);
    assert_eq!(games.len(), 1);
    assert!(started(&join(&mut arena, at(10), 3)).is_empty(), "alone: waits");
    // The second to join meets the one waiting alone at once, not at the next wave.
    assert_eq!(started(&join(&mut arena, at(10), 4)).len(), 1);
    assert!(tick(&mut arena, at(11)).is_empty());
}

#[test]
fn requests_from_strangers_are_refused() {
    let (mut arena, games) = running(2);
    let stranger = p(9);
    refused(&mut arena, at(1), Input::Pause { player: stranger.clone() }, Refusal::UnknownPlayer);
    refused(&mut arena, at(1), Input::Resume { player: stranger.clone() }, Refusal::UnknownPlayer);
    refused(&mut arena, at(1), Input::Leave { player: stranger.clone() }, Refusal::UnknownPlayer);
    let game = games[0].0;
    refused(&mut arena, at(1), Input::Berserk { player: stranger, game }, Refusal::UnknownPlayer);
    let unknown = dara_arena::GameNo(99);
    refused(
        &mut arena,
        at(1),
        Input::FirstMove { game: unknown, by: Colour::White },
        Refusal::UnknownGame,
    );
    refused(
        &mut arena,
        at(1),
        Input::GameEnded { game: unknown, verdict: Verdict::Drawn, plies: 30 },
        Refusal::UnknownGame,
    );
}

#[test]
fn nothing_is_paired_before_the_start() {
    let mut arena = arena();
    for n in 1..=4 {
        let _ = join(&mut arena, START - Duration::from_secs(30), n);
    }
    assert!(tick(&mut arena, START - Duration::from_secs(1)).is_empty());
    assert_eq!(arena.phase(), Phase::Waiting);
    assert_eq!(arena.next_tick(START - Duration::from_secs(1)), Some(START));
    assert_eq!(tick(&mut arena, START).len(), 2);
    assert_eq!(arena.phase(), Phase::Running);
    assert_eq!(arena.next_tick(START), Some(START + arena.settings().pair_every));
}

// Scoring, played through the arena: with two players only, they meet game after game.

/// Two players; `results` are the winner of each game in turn (`None`: a draw of 40 plies).
fn two_play(results: &[Option<u32>]) -> Arena {
    let (mut arena, mut games) = running(2);
    let mut now = START;
    for result in results {
        assert_eq!(games.len(), 1, "two free players always meet");
        let game = games[0].0;
        now = now + Duration::from_secs(60);
        let _ = match result {
            Some(n) => win(&mut arena, now, game, &p(*n)),
            None => end(&mut arena, now, game, Verdict::Drawn, 40),
        };
        games = tick(&mut arena, now);
    }
    arena
}

#[test]
fn a_win_scores_2_a_draw_1_a_loss_0() {
    let arena = two_play(&[Some(1)]);
    assert_eq!((score(&arena, &p(1)), score(&arena, &p(2))), (2, 0));
    let arena = two_play(&[None]);
    assert_eq!((score(&arena, &p(1)), score(&arena, &p(2))), (1, 1));
}

#[test]
fn after_two_wins_in_a_row_a_win_scores_4_and_the_fire_shows() {
    let arena = two_play(&[Some(1), Some(1), Some(1), Some(1)]);
    assert_eq!(sheet(&arena, &p(1)), "2 2 4 4");
    assert_eq!(sheet(&arena, &p(2)), "0 0 0 0");
    let row = arena.standings(at(9999), Some(&p(1))).mine.unwrap();
    assert!(row.fire);
    assert_eq!((row.score, row.games, row.wins), (12, 4, 4));
}

#[test]
fn on_fire_a_draw_scores_2_and_puts_the_fire_out() {
    let arena = two_play(&[Some(1), Some(1), None, Some(1)]);
    assert_eq!(sheet(&arena, &p(1)), "2 2 2 2");
    assert_eq!(sheet(&arena, &p(2)), "0 0 1 0");
}

#[test]
fn a_loss_puts_the_fire_out() {
    let arena = two_play(&[Some(1), Some(1), Some(2), Some(1), Some(1), Some(1)]);
    assert_eq!(sheet(&arena, &p(1)), "2 2 0 2 2 4");
    assert!(arena.standings(at(9999), Some(&p(1))).mine.unwrap().fire);
    assert!(!arena.standings(at(9999), Some(&p(2))).mine.unwrap().fire);
}

#[test]
fn a_draw_in_fewer_than_20_plies_scores_nothing() {
    let (mut arena, games) = running(2);
    let _ = end(&mut arena, at(30), games[0].0, Verdict::Drawn, 19);
    assert_eq!((score(&arena, &p(1)), score(&arena, &p(2))), (0, 0));
    assert_eq!(arena.player(&p(1)).unwrap().sheet.marks().len(), 1, "it is on the sheet");
    let games = tick(&mut arena, at(30));
    let _ = end(&mut arena, at(90), games[0].0, Verdict::Drawn, 20);
    assert_eq!((score(&arena, &p(1)), score(&arena, &p(2))), (1, 1));
}

#[test]
fn berserk_halves_the_clock_and_adds_a_point_to_a_win_of_seven_own_moves() {
    let (mut arena, games) = running(2);
    let (game, pale, dark) = games[0].clone();
    let outcome = arena.handle(at(1), Input::Berserk { player: dark.clone(), game }).unwrap();
    assert_eq!(
        outcome.effects,
        [Effect::HalveClock { game, side: Colour::Black }, Effect::TellStandings]
    );
    // 14 plies: dark made its 7 moves.
    let _ = end(&mut arena, at(60), game, Verdict::Won { winner: Colour::Black }, 14);
    assert_eq!(score(&arena, &dark), 3);
    assert_eq!(score(&arena, &pale), 0);
    let row = arena.standings(at(60), Some(&dark)).mine.unwrap();
    assert_eq!(row.berserks, 1);
    assert!(row.sheet.marks()[0].berserk);
}

#[test]
fn a_berserk_win_of_six_own_moves_earns_no_extra_point() {
    let (mut arena, games) = running(2);
    let (game, _, dark) = games[0].clone();
    let _ = arena.handle(at(1), Input::Berserk { player: dark.clone(), game }).unwrap();
    // 13 plies: pale made 7 moves, dark 6.
    let _ = end(&mut arena, at(60), game, Verdict::Won { winner: Colour::Black }, 13);
    assert_eq!(score(&arena, &dark), 2);
}

#[test]
fn berserk_after_ones_first_move_or_twice_or_elsewhere_is_refused() {
    let (mut arena, games) = running(4);
    let (game, pale, dark) = games[0].clone();
    let _ = arena.handle(at(1), Input::FirstMove { game, by: Colour::White }).unwrap();
    refused(
        &mut arena,
        at(2),
        Input::Berserk { player: pale.clone(), game },
        Refusal::BerserkTooLate,
    );
    // Dark has not moved: pale's first move does not stop it.
    let _ = arena.handle(at(2), Input::Berserk { player: dark.clone(), game }).unwrap();
    refused(
        &mut arena,
        at(3),
        Input::Berserk { player: dark.clone(), game },
        Refusal::AlreadyBerserk,
    );
    let elsewhere = games[1].0;
    refused(
        &mut arena,
        at(3),
        Input::Berserk { player: dark, game: elsewhere },
        Refusal::NotInGame,
    );
    let _ = end(&mut arena, at(30), game, Verdict::Drawn, 30);
    refused(&mut arena, at(31), Input::Berserk { player: pale, game }, Refusal::NotInGame);
}

#[test]
fn a_first_move_told_twice_is_one_event() {
    let (mut arena, games) = running(2);
    let game = games[0].0;
    let once = arena.handle(at(1), Input::FirstMove { game, by: Colour::White }).unwrap();
    assert_eq!(once.events.end - once.events.start, 1);
    let again = arena.handle(at(2), Input::FirstMove { game, by: Colour::White }).unwrap();
    assert!(again.events.is_empty());
    assert!(again.effects.is_empty());
}

#[test]
fn a_player_who_makes_no_first_move_loses_and_is_paused() {
    let (mut arena, games) = running(3);
    let (game, pale, dark) = games[0].clone();
    let ended = end(&mut arena, at(30), game, Verdict::NoFirstMove { idle: Colour::White }, 0);
    assert_eq!(score(&arena, &pale), 0);
    assert_eq!(score(&arena, &dark), 2);
    assert_eq!(arena.player(&pale).unwrap().presence, Presence::Paused);
    assert_eq!(arena.player(&dark).unwrap().presence, Presence::Active);
    // The winner meets the one who waited alone at once; the idle player waits until they
    // come back.
    let next = started(&ended);
    assert_eq!(next.len(), 1);
    assert!(next[0].1 != pale && next[0].2 != pale);
    let _ = arena.handle(at(40), Input::Resume { player: pale.clone() }).unwrap();
    assert_eq!(arena.player(&pale).unwrap().presence, Presence::Active);
}

#[test]
fn a_paused_player_is_not_paired_until_back() {
    let mut arena = arena();
    for n in 1..=3 {
        let _ = join(&mut arena, START, n);
    }
    let _ = arena.handle(START, Input::Pause { player: p(1) }).unwrap();
    // Pausing twice (another tab) changes nothing more.
    assert!(arena.handle(START, Input::Pause { player: p(1) }).unwrap().events.is_empty());
    let games = tick(&mut arena, START);
    assert_eq!(games.len(), 1);
    assert!(games[0].1 != p(1) && games[0].2 != p(1));
    let _ = arena.handle(at(1), Input::Resume { player: p(1) }).unwrap();
    let games = started(&join(&mut arena, at(1), 4));
    assert_eq!(games.len(), 1);
    assert!(games[0].1 == p(1) || games[0].2 == p(1));
}

#[test]
fn a_pause_lets_the_game_being_played_go_on() {
    let (mut arena, games) = running(2);
    let (game, pale, _) = games[0].clone();
    let _ = arena.handle(at(1), Input::Pause { player: pale.clone() }).unwrap();
    let _ = win(&mut arena, at(60), game, &pale);
    assert_eq!(score(&arena, &pale), 2);
    assert!(tick(&mut arena, at(60)).is_empty());
}

#[test]
fn leaving_before_the_start_frees_the_name() {
    let mut arena = arena();
    let _ = arena.handle(START, join_as(1, "Ana")).unwrap();
    let _ = arena.handle(START, Input::Leave { player: p(1) }).unwrap();
    assert!(arena.player(&p(1)).is_none());
    let _ = arena.handle(START, join_as(2, "ana")).unwrap();
    // And the one who left may come again.
    let _ = arena.handle(START, join_as(1, "Ana B")).unwrap();
}

#[test]
fn leaving_a_running_arena_keeps_the_row_and_stops_the_pairings() {
    let (mut arena, games) = running(2);
    let (game, pale, dark) = games[0].clone();
    let _ = win(&mut arena, at(60), game, &pale);
    let _ = arena.handle(at(61), Input::Leave { player: pale.clone() }).unwrap();
    let row = arena.standings(at(61), Some(&pale)).mine.unwrap();
    assert_eq!((row.rank, row.score, row.presence), (1, 2, Presence::Left));
    assert!(tick(&mut arena, at(70)).is_empty());
    refused(
        &mut arena,
        at(70),
        Input::Join { player: pale.clone(), name: "Again".into() },
        Refusal::AlreadyJoined,
    );
    // Back, and the one waiting alone is met at once.
    let games = started(&arena.handle(at(71), Input::Resume { player: pale.clone() }).unwrap());
    assert_eq!(games.len(), 1);
    assert!(games[0].1 == dark || games[0].2 == dark);
}

// Pairing.

#[test]
fn with_an_odd_number_of_players_one_waits() {
    let (mut arena, games) = running(5);
    assert_eq!(games.len(), 2);
    let waiting: Vec<_> =
        (1..=5).map(p).filter(|x| games.iter().all(|(_, a, b)| a != x && b != x)).collect();
    assert_eq!(waiting.len(), 1);
    // The next game to end frees two: with the one waiting, three are free, and two play at
    // once, not at the next wave.
    let (game, pale, dark) = games[0].clone();
    let next = started(&win(&mut arena, at(60), game, &pale));
    assert_eq!(next.len(), 1);
    let (_, a, b) = &next[0];
    assert!(a == &waiting[0] || b == &waiting[0], "the one who waited plays");
    assert!(!((a == &pale && b == &dark) || (a == &dark && b == &pale)));
    assert!(tick(&mut arena, at(61)).is_empty());
    // The one of the two left over now waits alone, and meets the next to come free at once.
    let (game, pale, _) = games[1].clone();
    let left = [&pale, &dark]
        .into_iter()
        .find(|x| *x != a && *x != b)
        .cloned()
        .expect("one of the two waits");
    let next = started(&win(&mut arena, at(70), game, &pale));
    assert_eq!(next.len(), 1);
    assert!(next[0].1 == left || next[0].2 == left, "the one who waited plays");
}

#[test]
fn two_coming_free_with_nobody_waiting_wait_for_the_wave() {
    // Pairing at once is only for a player left waiting alone: two who come free together
    // wait for the wave, where another may join them, rather than meet again at once.
    let (mut arena, games) = running(4);
    assert!(started(&win(&mut arena, at(60), games[0].0, &games[0].1)).is_empty());
    assert_eq!(tick(&mut arena, at(60)).len(), 1);
}

#[test]
fn last_opponents_do_not_meet_again_while_another_is_free() {
    let (mut arena, games) = running(4);
    for (game, pale, _) in &games {
        let _ = win(&mut arena, at(60), *game, pale);
    }
    let next = tick(&mut arena, at(60));
    assert_eq!(next.len(), 2);
    for (_, a, b) in &next {
        assert!(games.iter().all(|(_, x, y)| !((x == a && y == b) || (x == b && y == a))));
    }
}

#[test]
fn two_players_alone_meet_again() {
    let (mut arena, games) = running(4);
    let (game, pale, dark) = games[0].clone();
    let _ = win(&mut arena, at(60), game, &pale);
    // The other game goes on: nobody else is free.
    let next = tick(&mut arena, at(60));
    assert_eq!(next.len(), 1);
    assert_eq!((&next[0].1, &next[0].2), (&dark, &pale), "colours swap");
}

#[test]
fn players_are_free_for_the_next_wave_as_soon_as_their_game_ends() {
    let (mut arena, games) = running(2);
    let _ = win(&mut arena, at(60), games[0].0, &games[0].1);
    // The wave at the very moment of the end pairs them again: no rest in between (the page
    // shows its own short countdown).
    assert_eq!(tick(&mut arena, at(60)).len(), 1);
}

#[test]
fn colours_alternate_between_two_players() {
    let (mut arena, mut games) = running(2);
    let mut now = START;
    let mut pales = Vec::new();
    for _ in 0..6 {
        let (game, pale, _) = games[0].clone();
        pales.push(pale.clone());
        now = now + Duration::from_secs(60);
        let _ = win(&mut arena, now, game, &pale);
        games = tick(&mut arena, now);
    }
    assert_eq!(pales, [p(1), p(2), p(1), p(2), p(1), p(2)]);
}

#[test]
fn the_first_wave_pairs_neighbours_in_the_join_order() {
    let (_, games) = running(6);
    let who: Vec<_> = games.iter().map(|(_, a, b)| (a.clone(), b.clone())).collect();
    assert_eq!(who, [(p(1), p(2)), (p(3), p(4)), (p(5), p(6))]);
}

// The tie-break.

#[test]
fn equal_scores_rank_by_fewer_games_then_who_got_there_first_then_who_joined_first() {
    // 1 beats 2, then 3 and 4 draw twice: 1 has 2 from one game, 3 and 4 have 2 from two.
    let (mut arena, games) = running(4);
    let _ = win(&mut arena, at(60), games[0].0, &p(1));
    let _ = end(&mut arena, at(70), games[1].0, Verdict::Drawn, 40);
    let _ = arena.handle(at(71), Input::Pause { player: p(1) }).unwrap();
    let _ = arena.handle(at(71), Input::Pause { player: p(2) }).unwrap();
    let again = tick(&mut arena, at(80));
    assert_eq!(again.len(), 1);
    let _ = end(&mut arena, at(140), again[0].0, Verdict::Drawn, 40);
    let names: Vec<_> = arena
        .standings(at(141), None)
        .top
        .iter()
        .map(|r| (r.name.to_string(), r.score, r.games))
        .collect();
    assert_eq!(
        names,
        [
            ("Player 1".to_string(), 2, 1),
            ("Player 3".to_string(), 2, 2),
            ("Player 4".to_string(), 2, 2),
            ("Player 2".to_string(), 0, 1)
        ]
    );
    assert!(TIE_BREAK.contains("fewer games"));
}

#[test]
fn who_reached_the_score_first_ranks_first() {
    let (mut arena, games) = running(4);
    // 4 wins first, then 1.
    let _ = win(&mut arena, at(50), games[1].0, &games[1].2);
    let _ = win(&mut arena, at(60), games[0].0, &games[0].1);
    let top = arena.standings(at(61), None).top;
    assert_eq!(top[0].name.to_string(), arena.player(&games[1].2).unwrap().name.to_string());
}

// The end.

#[test]
fn games_still_played_at_the_end_do_not_count() {
    let (mut arena, games) = running(4);
    let (counted, pale, _) = games[0].clone();
    let _ = win(&mut arena, at(60), counted, &pale);
    let end_time = START + LENGTH;
    let outcome = arena.handle(end_time, Input::Tick).unwrap();
    assert_eq!(arena.phase(), Phase::Finished);
    let Some(Effect::Finished { podium, uncounted }) = outcome.effects.last() else {
        panic!("the arena ends: {:?}", outcome.effects);
    };
    assert_eq!(uncounted, &[games[1].0]);
    assert_eq!(podium.len(), 2, "only players who played a game counted stand on the podium");
    assert_eq!(podium[0].name.to_string(), arena.player(&pale).unwrap().name.to_string());
    assert_eq!(outcome.effects[outcome.effects.len() - 2], Effect::TellStandings);
    // The game ends later: nothing changes.
    let (late, late_pale, _) = games[1].clone();
    let before = arena.clone();
    let outcome = win(&mut arena, end_time + Duration::from_secs(30), late, &late_pale);
    assert!(outcome.events.is_empty());
    assert_eq!(arena, before);
    assert_eq!(arena.next_tick(end_time), None);
}

#[test]
fn a_game_ending_after_the_time_but_before_the_last_tick_does_not_count() {
    let (mut arena, games) = running(2);
    let end_time = START + LENGTH;
    let outcome = win(&mut arena, end_time, games[0].0, &games[0].1);
    assert!(outcome.events.is_empty());
    tick(&mut arena, end_time);
    assert_eq!(score(&arena, &games[0].1), 0);
}

#[test]
fn an_arena_where_nobody_played_has_an_empty_podium() {
    let mut arena = arena();
    let _ = join(&mut arena, START, 1);
    let outcome = arena.handle(START + LENGTH, Input::Tick).unwrap();
    assert!(outcome.effects.contains(&Effect::Finished { podium: vec![], uncounted: vec![] }));
    assert_eq!(
        arena
            .journal()
            .iter()
            .filter(|e| matches!(e, ArenaEvent::Started | ArenaEvent::Finished))
            .count(),
        2
    );
}

#[test]
fn a_cancelled_game_is_on_nobodys_sheet() {
    let (mut arena, games) = running(3);
    // Not even the one waiting alone is paired at once: the shell could not open the game,
    // and would fail again at once.
    assert!(started(&end(&mut arena, at(5), games[0].0, Verdict::Cancelled, 0)).is_empty());
    assert!(arena.player(&p(1)).unwrap().sheet.marks().is_empty());
    assert_eq!(tick(&mut arena, at(6)).len(), 1, "paired again at the next wave");
}

// The standings and the journal.

#[test]
fn the_standings_show_the_top_ten_the_viewers_row_the_games_and_the_time_left() {
    let (arena, games) = running(12);
    let standings = arena.standings(at(600), Some(&p(12)));
    assert_eq!(standings.top.len(), 10);
    assert_eq!(standings.players, 12);
    assert_eq!(standings.mine.as_ref().unwrap().rank, 12);
    assert_eq!(standings.playing.len(), games.len());
    assert_eq!(standings.time_left, LENGTH - Duration::from_secs(600));
    assert_eq!(standings.tie_break, TIE_BREAK);
    assert!(arena.standings(at(600), Some(&p(99))).mine.is_none());
    let json = serde_json::to_value(&standings).unwrap();
    assert_eq!(json["phase"], "running");
    assert_eq!(json["time_left"], 3_000_000);
    assert_eq!(json["playing"][0]["pale"]["name"], "Player 1");
    assert_eq!(json["playing"][0]["dark"]["rank"], 2);
    assert_eq!(json["top"][0]["presence"], "active");
}

#[test]
fn the_standings_list_only_the_best_ranked_games() {
    let (arena, games) = running(2 * TOP_GAMES as u32 + 6);
    assert_eq!(games.len(), TOP_GAMES + 3);
    let playing = arena.standings(at(600), None).playing;
    assert_eq!(playing.len(), TOP_GAMES);
    let best: Vec<u32> = playing.iter().map(|g| g.pale.rank.min(g.dark.rank)).collect();
    assert_eq!(best, (0..TOP_GAMES as u32).map(|k| 2 * k + 1).collect::<Vec<_>>());
}

#[test]
fn the_journal_read_back_rebuilds_the_arena() {
    let (mut arena, games) = running(5);
    let _ = arena
        .handle(at(1), Input::Berserk { player: games[0].1.clone(), game: games[0].0 })
        .unwrap();
    let _ = arena.handle(at(2), Input::FirstMove { game: games[0].0, by: Colour::White }).unwrap();
    let _ = win(&mut arena, at(60), games[0].0, &games[0].1);
    let _ = end(&mut arena, at(61), games[1].0, Verdict::NoFirstMove { idle: Colour::Black }, 1);
    let _ = arena.handle(at(62), Input::Pause { player: p(1) }).unwrap();
    tick(&mut arena, at(70));
    let text = serde_json::to_string(arena.journal()).unwrap();
    let events = serde_json::from_str(&text).unwrap();
    let restored = Arena::restore(arena.settings().clone(), events).unwrap();
    assert_eq!(restored, arena);
    let settings: Settings =
        serde_json::from_str(&serde_json::to_string(arena.settings()).unwrap()).unwrap();
    assert_eq!(&settings, arena.settings());
}

#[test]
fn a_journal_that_does_not_fit_is_an_error() {
    let (arena, _) = running(2);
    let mut events = arena.journal().to_vec();
    events.push(events[0].clone());
    let error = Arena::restore(arena.settings().clone(), events).unwrap_err();
    assert_eq!(error.v, arena.journal().len() as u64 + 1);
}
