//! Arenas on a real server: players join over HTTP, hear the standings and their games over
//! the arena's socket, play those games over the game sockets, and are paired again by
//! themselves.

mod common;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Duration;

use common::arena::{ask, berserk, now_ms, token, Watcher};
use common::{post, start, start_with_state, test_config, Client};
use serde_json::{json, Value};

/// A private arena of 3+2 games for 30 minutes, starting now.
async fn arena_now(addr: SocketAddr) -> String {
    let body =
        json!({ "clock": { "initial": 180, "increment": 2 }, "minutes": 30, "starts": now_ms() });
    let (status, made) = post(addr, "/api/arenas", body).await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["secret"].as_str().unwrap().len(), 32);
    made["arena"].as_str().unwrap().to_owned()
}

async fn join(addr: SocketAddr, arena: &str, n: usize, name: &str) -> (u16, Value) {
    ask(addr, &format!("/api/arenas/{arena}/join"), json!({ "player": token(n), "name": name }))
        .await
}

/// Plays one turn each in game `game` (the players seated by `tokens`, by colour), then
/// `loser` resigns.
async fn play_and_resign(
    addr: SocketAddr,
    game: &str,
    tokens: &HashMap<String, String>,
    loser: &str,
) {
    let (mut pale, snapshot) = Client::hello(addr, game, Some(&tokens["white"]), None).await;
    assert_eq!(snapshot["t"], "snapshot", "{snapshot}");
    let (mut dark, _) = Client::hello(addr, game, Some(&tokens["black"]), None).await;
    // Both seated: /watch lists it, an arena's.
    listed_on_watch(addr, game).await;
    let first = snapshot["d"]["pos"]["legal"][0].as_str().unwrap().to_owned();
    assert_eq!(pale.turn(1, &first).await["t"], "accepted");
    let moved = dark.next_of("move").await;
    let reply = moved["d"]["pos"]["legal"][0].as_str().unwrap().to_owned();
    assert_eq!(dark.turn(1, &reply).await["t"], "accepted");
    let resigner = if loser == "white" { &mut pale } else { &mut dark };
    resigner.send(json!({ "t": "resign" })).await;
    assert_eq!(resigner.next_of("end").await["d"]["code"], "resigned");
}

/// Waits until `/api/watch` lists `game` as an arena's.
async fn listed_on_watch(addr: SocketAddr, game: &str) {
    let deadline = tokio::time::Instant::now() + common::arena::PATIENCE;
    loop {
        let url = format!("http://{addr}/api/watch");
        let list: Value = reqwest::get(url).await.unwrap().json().await.unwrap();
        let listed = list.as_array().unwrap().iter().find(|g| g["game"] == game);
        if let Some(listed) = listed {
            assert_eq!(listed["kind"], "arena", "{list}");
            return;
        }
        assert!(tokio::time::Instant::now() < deadline, "{game} not on /watch: {list}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn score_of(standings: &Value, name: &str) -> u64 {
    let rows = standings["d"]["top"].as_array().unwrap();
    let row = rows.iter().find(|r| r["name"] == name).unwrap_or_else(|| panic!("{standings}"));
    row["score"].as_u64().unwrap()
}

#[tokio::test]
async fn four_players_are_paired_play_score_and_are_paired_again() {
    let addr = start(test_config()).await;
    let arena = arena_now(addr).await;
    let names = ["Ama", "Kofi", "Ngozi", "Tunde"];
    for (n, name) in names.iter().enumerate() {
        assert_eq!(join(addr, &arena, n, name).await.0, 204);
    }
    let mut watchers = Vec::new();
    for n in 0..names.len() {
        watchers.push(Watcher::hello(addr, &arena, Some(n)).await);
    }
    // Each hears their own game, with their own seat in its link.
    let mut games: HashMap<String, HashMap<String, String>> = HashMap::new();
    let mut first_game = Vec::new();
    for (n, watcher) in watchers.iter_mut().enumerate() {
        let game = watcher.game_other_than(None).await;
        let id = game["id"].as_str().unwrap().to_owned();
        assert_eq!(game["url"], format!("/g/{id}#seat={}", token(n)));
        let colour = game["colour"].as_str().unwrap().to_owned();
        games.entry(id.clone()).or_default().insert(colour, token(n));
        first_game.push(id);
    }
    assert_eq!(games.len(), 2, "four players, two games: {games:?}");
    // Nobody else hears a player's seat.
    let mut anyone = Watcher::hello(addr, &arena, None).await;
    assert!(anyone.last["d"]["game"].is_null());
    assert!(anyone.last["d"]["mine"].is_null());
    assert!(!anyone.last.to_string().contains(&token(0)));
    // Anyone may watch the games being played: each one's table, by its number.
    let listed = anyone.until(|s| s["d"]["tables"].as_object().is_some_and(|t| t.len() == 2)).await;
    for playing in listed["d"]["playing"].as_array().unwrap() {
        let table = &listed["d"]["tables"][playing["game"].to_string()];
        assert!(games.contains_key(table.as_str().unwrap()), "{listed}");
    }

    // Pale wins the first game, dark the second.
    let ids: Vec<String> = games.keys().cloned().collect();
    play_and_resign(addr, &ids[0], &games[&ids[0]], "black").await;
    play_and_resign(addr, &ids[1], &games[&ids[1]], "white").await;
    let winners: Vec<String> =
        vec![games[&ids[0]]["white"].clone(), games[&ids[1]]["black"].clone()];
    let name_of = |t: &str| names[(0..names.len()).find(|&n| token(n) == t).unwrap()];

    // A win scores 2, a loss nothing.
    let standings = watchers[0]
        .until(|s| s["d"]["top"].as_array().unwrap().iter().all(|r| r["games"] == 1))
        .await;
    for (n, name) in names.iter().enumerate() {
        let expected = if winners.contains(&token(n)) { 2 } else { 0 };
        assert_eq!(score_of(&standings, name), expected, "{standings}");
    }
    assert_eq!(standings["d"]["top"][0]["score"], 2);
    assert!(winners.iter().any(|w| standings["d"]["top"][0]["name"] == name_of(w)));

    // At the next wave, everyone is paired again by themselves.
    for (n, watcher) in watchers.iter_mut().enumerate() {
        let next = watcher.game_other_than(Some(&first_game[n])).await;
        assert_eq!(next["url"], format!("/g/{}#seat={}", next["id"].as_str().unwrap(), token(n)));
    }
}

#[tokio::test]
async fn an_odd_player_waits() {
    let addr = start(test_config()).await;
    let arena = arena_now(addr).await;
    for (n, name) in ["Ama", "Kofi", "Ngozi"].iter().enumerate() {
        assert_eq!(join(addr, &arena, n, name).await.0, 204);
    }
    let mut watchers = Vec::new();
    for n in 0..3 {
        watchers.push(Watcher::hello(addr, &arena, Some(n)).await);
    }
    let mut anyone = Watcher::hello(addr, &arena, None).await;
    let standings =
        anyone.until(|s| s["d"]["playing"].as_array().is_some_and(|p| p.len() == 1)).await;
    assert_eq!(standings["d"]["phase"], "running");
    // Two more pairing waves: still one game, and the third player has none.
    tokio::time::sleep(Duration::from_secs(5)).await;
    let mut waiting = 0;
    for watcher in &mut watchers {
        // Standings pinned with the wave may come before a slow join is in (the arena pairs
        // whoever is there): wait for the ones with the player's own row.
        let mine = watcher
            .until(|s| {
                s["d"]["playing"].as_array().is_some_and(|p| p.len() == 1)
                    && s["d"]["mine"].is_object()
            })
            .await;
        if mine["d"]["game"].is_null() {
            waiting += 1;
            assert_eq!(mine["d"]["mine"]["playing"], false);
        }
    }
    assert_eq!(waiting, 1);
}

#[tokio::test]
async fn refusals_say_why_and_change_nothing() {
    let addr = start(test_config()).await;
    let arena = arena_now(addr).await;
    assert_eq!(join(addr, &arena, 0, "Ama").await.0, 204);

    let refused = |(status, body): (u16, Value), want_status: u16, code: &str| {
        assert_eq!(status, want_status, "{body}");
        assert_eq!(body["code"], code, "{body}");
        assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()), "{body}");
    };
    refused(join(addr, &arena, 1, "   ").await, 400, "name-empty");
    refused(join(addr, &arena, 1, "aMA").await, 409, "name-taken");
    refused(join(addr, &arena, 0, "Kofi").await, 409, "already-joined");
    refused(join(addr, "0123456789abcdef", 1, "Kofi").await, 404, "unknown-arena");
    refused(join(addr, "not-an-arena", 1, "Kofi").await, 404, "unknown-arena");
    let short = json!({ "player": "short", "name": "Kofi" });
    refused(ask(addr, &format!("/api/arenas/{arena}/join"), short).await, 400, "bad-request");
    let stranger = json!({ "player": token(9) });
    refused(
        ask(addr, &format!("/api/arenas/{arena}/pause"), stranger).await,
        403,
        "unknown-player",
    );
    let berserk = json!({ "player": token(0), "game": 1 });
    refused(ask(addr, &format!("/api/arenas/{arena}/berserk"), berserk).await, 409, "not-in-game");

    // Nothing changed: one player, Ama, who still plays under her name. The board is pinned
    // now and then (at most once a second, held to the pairing wave): Kofi joins after every
    // refusal, and the first board with him holds everything before him.
    assert_eq!(join(addr, &arena, 1, "Kofi").await.0, 204);
    let mut watcher = Watcher::hello(addr, &arena, Some(0)).await;
    let standings = watcher.until(|s| s["d"]["top"].to_string().contains("Kofi")).await;
    assert_eq!(standings["d"]["players"], 2, "{standings}");
    assert_eq!(standings["d"]["mine"]["name"], "Ama");
}

#[tokio::test]
async fn the_schedule_s_arenas_are_listed_and_a_private_one_is_not() {
    let mut config = test_config();
    config.arena_schedule = "hourly:00 3+2 30m, daily:20:00 10+5 90m".parse().unwrap();
    config.arena_schedule.utc_offset_minutes = 60;
    let addr = start(config).await;
    let private = arena_now(addr).await;
    let listed: Value =
        reqwest::get(format!("http://{addr}/api/arenas")).await.unwrap().json().await.unwrap();
    let listed = listed.as_array().unwrap();
    // Within the hour ahead (and any still running): at least the next hourly one.
    assert!(listed.iter().any(|a| a["clock"] == "3+2" && a["minutes"] == 30), "{listed:?}");
    assert!(listed.iter().all(|a| a["scheduled"] == true && a["id"] != private.as_str()));
    for arena in listed {
        let starts = arena["starts"].as_u64().unwrap();
        assert!(starts <= now_ms() + 3600 * 1000, "{arena}");
    }
}

#[tokio::test]
async fn an_arena_that_waits_for_its_maker_starts_when_pressed() {
    let addr = start(test_config()).await;
    let body = json!({ "clock": { "initial": 180, "increment": 2 }, "minutes": 10 });
    let (status, made) = post(addr, "/api/arenas", body).await;
    assert_eq!(status, 201, "{made}");
    let (arena, secret) = (made["arena"].as_str().unwrap(), made["secret"].as_str().unwrap());
    assert_eq!(join(addr, arena, 0, "Ama").await.0, 204);
    assert_eq!(join(addr, arena, 1, "Kofi").await.0, 204);
    let mut watcher = Watcher::hello(addr, arena, Some(0)).await;
    assert_eq!(watcher.last["d"]["phase"], "waiting");
    assert!(watcher.last["d"]["arena"]["starts"].is_null());
    let wrong = json!({ "secret": "0".repeat(32) });
    let (status, body) = ask(addr, &format!("/api/arenas/{arena}/start"), wrong).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("not-the-maker")));
    let press = json!({ "secret": secret });
    assert_eq!(ask(addr, &format!("/api/arenas/{arena}/start"), press.clone()).await.0, 204);
    let game = watcher.game_other_than(None).await;
    assert!(game["url"].as_str().unwrap().ends_with(&format!("#seat={}", token(0))));
    assert_eq!(watcher.last["d"]["phase"], "running");
    // Pressed twice: it runs already.
    assert_eq!(ask(addr, &format!("/api/arenas/{arena}/start"), press).await.0, 403);
}

#[tokio::test]
async fn a_player_who_makes_no_first_move_loses_and_is_paused() {
    let mut config = test_config();
    // Long enough for the board to tell the players their game first (it is pinned at most
    // once a second).
    config.patience.first_move_within = Duration::from_secs(3);
    let addr = start(config).await;
    let arena = arena_now(addr).await;
    assert_eq!(join(addr, &arena, 0, "Ama").await.0, 204);
    assert_eq!(join(addr, &arena, 1, "Kofi").await.0, 204);
    let mut watcher = Watcher::hello(addr, &arena, Some(0)).await;
    let game = watcher.game_other_than(None).await;
    let id = game["id"].as_str().unwrap().to_owned();
    // Both come to the table; pale, who moves first, never does.
    let (mut ama, _) = Client::hello(addr, &id, Some(&token(0)), None).await;
    let (_kofi, _) = Client::hello(addr, &id, Some(&token(1)), None).await;
    let end = ama.next_of("end").await;
    assert_eq!(end["d"]["code"], "aborted", "{end}");
    let pale = if game["colour"] == "white" { "Ama" } else { "Kofi" };
    let dark = if pale == "Ama" { "Kofi" } else { "Ama" };
    let standings =
        watcher.until(|s| s["d"]["top"].as_array().unwrap().iter().any(|r| r["games"] == 1)).await;
    assert_eq!(score_of(&standings, dark), 2, "{standings}");
    assert_eq!(score_of(&standings, pale), 0, "{standings}");
    let rows = standings["d"]["top"].as_array().unwrap();
    let idle = rows.iter().find(|r| r["name"] == pale).unwrap();
    assert_eq!(idle["presence"], "paused", "{standings}");
}

#[tokio::test]
async fn one_address_makes_a_few_private_arenas_and_the_schedule_s_keep_their_room() {
    let mut config = test_config();
    config.arena_schedule = "hourly:00 3+2 30m".parse().unwrap();
    config.max_arenas = 4;
    let addr = start(config).await;
    for _ in 0..3 {
        arena_now(addr).await;
    }
    let body = json!({ "clock": { "initial": 180, "increment": 2 }, "minutes": 30 });
    let (status, refused) = post(addr, "/api/arenas", body.clone()).await;
    assert_eq!((status, refused["code"].as_str()), (429, Some("too-many-arenas-from-you")));
    assert_eq!(refused["limit"], 3);
    // Another address may make one more, then the server holds as many as it will.
    let other = Some("127.0.0.2".parse().unwrap());
    let (status, _) = common::post_from(addr, "/api/arenas", body.clone(), other).await;
    assert_eq!(status, 201);
    let other = Some("127.0.0.3".parse().unwrap());
    let (status, refused) = common::post_from(addr, "/api/arenas", body, other).await;
    assert_eq!((status, refused["code"].as_str()), (503, Some("too-many-arenas")));
    // The schedule's arena is there all the same.
    let listed: Value =
        reqwest::get(format!("http://{addr}/api/arenas")).await.unwrap().json().await.unwrap();
    assert!(!listed.as_array().unwrap().is_empty(), "{listed}");
}

/// The end of an arena while a game is still being played: the game goes on as an ordinary
/// game, to its own end, and does not count (lichess's rule, `TournamentApi.finish`: the podium
/// is known the moment the time is up, and nobody changes it by playing slowly).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_still_played_at_the_end_goes_on_and_does_not_count() {
    let (addr, state) = start_with_state(test_config()).await;
    // An arena of ten seconds (the server's own may be any length; a page asks for minutes).
    let plan = dara_server::arena::Plan {
        rules: dara::Ruleset::default(),
        clock: dara_server::game::clock::TimeControl { initial: 180, increment: 2 },
        starts: Some(dara_arena::WallTime::from_millis(now_ms())),
        length: Duration::from_secs(10),
        maker: None,
    };
    let arena = dara_server::arena::open(&state, &state.arenas, plan).unwrap().id.to_string();
    assert_eq!(join(addr, &arena, 0, "Ama").await.0, 204);
    assert_eq!(join(addr, &arena, 1, "Kofi").await.0, 204);
    let mut watcher = Watcher::hello(addr, &arena, Some(0)).await;
    let game = watcher.game_other_than(None).await;
    let (id, no) = (game["id"].as_str().unwrap().to_owned(), game["no"].clone());
    let (pale_token, dark_token) =
        if game["colour"] == "white" { (token(0), token(1)) } else { (token(1), token(0)) };
    // Both make their first moves: nobody loses for not starting.
    let (mut pale, snapshot) = Client::hello(addr, &id, Some(&pale_token), None).await;
    let (mut dark, _) = Client::hello(addr, &id, Some(&dark_token), None).await;
    let first = snapshot["d"]["pos"]["legal"][0].as_str().unwrap().to_owned();
    assert_eq!(pale.turn(1, &first).await["t"], "accepted");
    let moved = dark.next_of("move").await;
    let reply = moved["d"]["pos"]["legal"][0].as_str().unwrap().to_owned();
    assert_eq!(dark.turn(1, &reply).await["t"], "accepted");

    // The time runs out with the game on the board.
    let podium = watcher.podium(Duration::from_secs(60)).await;
    assert_eq!(podium["d"]["uncounted"], json!([no]), "{podium}");
    assert_eq!(podium["d"]["podium"], json!([]), "nobody finished a game: {podium}");

    // The game goes on, an ordinary game (the players come back to it, as a page does after
    // a while away): a turn, then a resignation.
    drop((pale, dark));
    let (mut pale, snapshot) = Client::hello(addr, &id, Some(&pale_token), None).await;
    let (mut dark, _) = Client::hello(addr, &id, Some(&dark_token), None).await;
    assert!(snapshot["d"]["end"].is_null(), "{snapshot}");
    let next = snapshot["d"]["pos"]["legal"][0].as_str().unwrap().to_owned();
    assert_eq!(pale.turn(2, &next).await["t"], "accepted");
    dark.send(json!({ "t": "resign" })).await;
    assert_eq!(dark.next_of("end").await["d"]["code"], "resigned");
    assert_eq!(pale.next_of("end").await["d"]["code"], "resigned");

    // And it did not count: no score, no game on anyone's sheet, even a while later.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let after = Watcher::hello(addr, &arena, Some(1)).await.last;
    assert_eq!(after["d"]["phase"], "finished", "{after}");
    for name in ["Ama", "Kofi"] {
        assert_eq!(score_of(&after, name), 0, "{after}");
    }
    let rows = after["d"]["top"].as_array().unwrap();
    assert!(rows.iter().all(|r| r["games"] == 0), "{after}");
}

/// A flood of joins and leaves from one address: refused with a code once its burst is spent,
/// and nothing is kept from a refusal. The arena starts in an hour, so a leave that went through
/// takes its player out for good: those left in are exactly those whose join went through and
/// whose leave was refused.
#[tokio::test]
async fn a_flood_of_joins_and_leaves_from_one_address_is_refused_and_changes_nothing() {
    let addr = start(test_config()).await;
    let body = json!({ "clock": { "initial": 180, "increment": 2 }, "minutes": 30,
        "starts": now_ms() + 3_600_000 });
    let (status, made) = post(addr, "/api/arenas", body).await;
    assert_eq!(status, 201, "{made}");
    let arena = made["arena"].as_str().unwrap().to_owned();
    let (mut joined, mut refused, mut stayed) = (0_u64, 0_u64, 0_u64);
    for n in 0..45 {
        let (status, body) = join(addr, &arena, n, &format!("Pupil {n}")).await;
        match status {
            204 => joined += 1,
            429 => {
                assert_eq!(body["code"], "too-many-requests", "{body}");
                refused += 1;
            }
            _ => panic!("{status} {body}"),
        }
        let leave = json!({ "player": token(n) });
        let (left, body) = ask(addr, &format!("/api/arenas/{arena}/leave"), leave).await;
        match (status, left) {
            (204, 429) => stayed += 1,
            (204, 204) | (429, 403 | 429) => {}
            _ => panic!("join {status}, leave {left} {body}"),
        }
    }
    assert!(refused > 0, "ninety requests at once are more than a burst");
    assert!(joined >= 30, "a classroom's joins go through: {joined}");
    // One more joins once the bucket has a token again: the first board with her holds
    // everything before her.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(join(addr, &arena, 99, "Last").await.0, 204);
    let mut watcher = Watcher::hello(addr, &arena, Some(99)).await;
    let standings = watcher.until(|s| s["d"]["mine"]["name"] == "Last").await;
    assert_eq!(standings["d"]["players"], stayed + 1, "{standings}");
}

/// Each player's game as the board tells it: its id, number and their colour.
async fn seated(watcher: &mut Watcher) -> (String, u64, String) {
    let game = watcher.game_other_than(None).await;
    let id = game["id"].as_str().unwrap().to_owned();
    (id, game["no"].as_u64().unwrap(), game["colour"].as_str().unwrap().to_owned())
}

/// Plays `plies` turns from the position `pos` (each side's first legal one), pale's client
/// reading every turn; gives the position then.
async fn play_plies(pale: &mut Client, dark: &mut Client, mut pos: Value, plies: u64) -> Value {
    for ply in 1..=plies {
        let m = pos["legal"][0].as_str().unwrap().to_owned();
        let mover = if pos["side"] == "white" { &mut *pale } else { &mut *dark };
        assert_eq!(mover.turn(ply, &m).await["t"], "accepted", "{m}");
        pos = pale.next_of("move").await["d"]["pos"].clone();
    }
    pos
}

#[tokio::test]
async fn berserk_halves_the_clock_both_players_see_and_is_refused_after_one_s_first_move() {
    let addr = start(test_config()).await;
    let arena = arena_now(addr).await;
    assert_eq!(join(addr, &arena, 0, "Ama").await.0, 204);
    assert_eq!(join(addr, &arena, 1, "Kofi").await.0, 204);
    let mut watchers =
        [Watcher::hello(addr, &arena, Some(0)).await, Watcher::hello(addr, &arena, Some(1)).await];
    let (id, no, colour) = seated(&mut watchers[0]).await;
    let (pale_n, dark_n) = if colour == "white" { (0, 1) } else { (1, 0) };
    let (mut pale, snapshot) = Client::hello(addr, &id, Some(&token(pale_n)), None).await;
    let (mut dark, _) = Client::hello(addr, &id, Some(&token(dark_n)), None).await;
    let (mut onlooker, _) = Client::hello(addr, &id, None, None).await;
    assert_eq!(snapshot["d"]["clock"]["white"], 180_000, "{snapshot}");

    // Pale moves first: too late for pale, and nothing changes.
    let first = snapshot["d"]["pos"]["legal"][0].as_str().unwrap().to_owned();
    assert_eq!(pale.turn(1, &first).await["t"], "accepted");
    let (status, body) = berserk(addr, &arena, pale_n, no).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("berserk-too-late")), "{body}");
    // A player berserks in their own game only.
    let (status, body) = berserk(addr, &arena, dark_n, no + 1).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("not-in-game")), "{body}");

    // Dark, before their first move: their 3 minutes become 1:30, told to everyone at once.
    assert_eq!(berserk(addr, &arena, dark_n, no).await.0, 204);
    for client in [&mut pale, &mut dark, &mut onlooker] {
        let told = client.next_of("berserk").await;
        assert_eq!(told["d"]["colour"], "black", "{told}");
        assert_eq!(told["d"]["clock"]["black"], 90_000, "{told}");
        assert_eq!(told["d"]["clock"]["white"], 180_000, "{told}");
    }
    let (status, body) = berserk(addr, &arena, dark_n, no).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("already-berserk")), "{body}");
    // A page opened now sees it too, and pale's clock whole.
    let (_, again) = Client::hello(addr, &id, Some(&token(pale_n)), None).await;
    assert_eq!(again["d"]["berserk"], json!(["black"]), "{again}");
    assert_eq!(again["d"]["clock"]["black"], 90_000, "{again}");
    assert_eq!(again["d"]["clock"]["white"], 180_000, "{again}");
    // Once the game ends, the board marks it on dark's sheet; pale's refused berserk left none.
    dark.send(json!({ "t": "resign" })).await;
    assert_eq!(dark.next_of("end").await["d"]["code"], "resigned");
    let standings = watchers[1]
        .until(|s| s["d"]["top"].as_array().unwrap().iter().all(|r| r["games"] == 1))
        .await;
    let dark_name = ["Ama", "Kofi"][dark_n];
    for row in standings["d"]["top"].as_array().unwrap() {
        let berserk = row["name"] == dark_name;
        assert_eq!(row["berserks"], u64::from(berserk), "{standings}");
        assert_eq!(row["sheet"][0]["berserk"], berserk, "{standings}");
    }
}

#[tokio::test]
async fn a_berserk_win_of_seven_own_moves_scores_three_and_a_shorter_one_two() {
    let addr = start(test_config()).await;
    let arena = arena_now(addr).await;
    let names = ["Ama", "Kofi", "Ngozi", "Tunde"];
    for (n, name) in names.iter().enumerate() {
        assert_eq!(join(addr, &arena, n, name).await.0, 204);
    }
    let mut games: HashMap<String, (u64, HashMap<String, usize>)> = HashMap::new();
    let mut watchers = Vec::new();
    for n in 0..names.len() {
        let mut watcher = Watcher::hello(addr, &arena, Some(n)).await;
        let (id, no, colour) = seated(&mut watcher).await;
        games.entry(id).or_insert_with(|| (no, HashMap::new())).1.insert(colour, n);
        watchers.push(watcher);
    }
    assert_eq!(games.len(), 2, "{games:?}");
    // In each game pale goes berserk and wins, dark resigning: after 16 turns (8 of pale's
    // own) in one, after 2 (1 of pale's own) in the other.
    let mut winners = Vec::new();
    for ((id, (no, seats)), plies) in games.iter().zip([16, 2]) {
        let (mut pale, snapshot) =
            Client::hello(addr, id, Some(&token(seats["white"])), None).await;
        let (mut dark, _) = Client::hello(addr, id, Some(&token(seats["black"])), None).await;
        assert_eq!(berserk(addr, &arena, seats["white"], *no).await.0, 204);
        assert_eq!(pale.next_of("berserk").await["d"]["clock"]["white"], 90_000);
        play_plies(&mut pale, &mut dark, snapshot["d"]["pos"].clone(), plies).await;
        dark.send(json!({ "t": "resign" })).await;
        assert_eq!(dark.next_of("end").await["d"]["code"], "resigned");
        winners.push(names[seats["white"]]);
    }
    let standings = watchers[0]
        .until(|s| s["d"]["top"].as_array().unwrap().iter().all(|r| r["games"] == 1))
        .await;
    assert_eq!(score_of(&standings, winners[0]), 3, "{standings}");
    assert_eq!(score_of(&standings, winners[1]), 2, "{standings}");
}

/// An arena seats both players before either opens the game: the one who comes first hears
/// the other come (a presence with them online), and never that they have gone.
#[tokio::test]
async fn the_player_who_comes_first_hears_the_other_come() {
    let addr = start(test_config()).await;
    let arena = arena_now(addr).await;
    assert_eq!(join(addr, &arena, 0, "Ama").await.0, 204);
    assert_eq!(join(addr, &arena, 1, "Kofi").await.0, 204);
    let mut watcher = Watcher::hello(addr, &arena, Some(0)).await;
    let (id, _, colour) = seated(&mut watcher).await;
    let other = if colour == "white" { "black" } else { "white" };
    let (mut ama, snapshot) = Client::hello(addr, &id, Some(&token(0)), None).await;
    assert_eq!(snapshot["t"], "snapshot", "{snapshot}");
    let (_kofi, _) = Client::hello(addr, &id, Some(&token(1)), None).await;
    // Ama's own coming may be told first; then Kofi's (before the fix, never).
    let mut presence = ama.next_of("presence").await;
    while presence["d"][other]["online"] != true {
        assert!(presence["d"][other]["awayMs"].is_null(), "not yet come is not gone: {presence}");
        presence = ama.next_of("presence").await;
    }
}
