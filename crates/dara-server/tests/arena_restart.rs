//! An arena kept in the data directory: a server killed mid-arena comes back with its
//! standings, its pairings and its games (issue 44). Each "process" is a server on a runtime
//! of its own; dropping the runtime without stopping the server is its `kill -9`.

mod common;

use std::collections::HashMap;
use std::time::Duration;

use common::arena::{ask, now_ms, token, Watcher, PATIENCE};
use common::kept::{DataDir, Process};
use common::{post, test_config, Client};
use serde_json::{json, Value};

/// Each player's name and score, by name.
fn scores(standings: &Value) -> Vec<(String, u64)> {
    let mut rows: Vec<(String, u64)> = standings["d"]["top"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["name"].as_str().unwrap().to_owned(), r["score"].as_u64().unwrap()))
        .collect();
    rows.sort();
    rows
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_survives_a_kill_with_its_standings_pairings_and_games() {
    let data = DataDir::new("arena");
    let first = Process::start(&data.0, test_config());
    let addr = first.addr;
    let body =
        json!({ "clock": { "initial": 180, "increment": 2 }, "minutes": 30, "starts": now_ms() });
    let (status, made) = post(addr, "/api/arenas", body).await;
    assert_eq!(status, 201, "{made}");
    let arena = made["arena"].as_str().unwrap().to_owned();
    let names = ["Ama", "Kofi", "Ngozi", "Tunde"];
    for (n, name) in names.iter().enumerate() {
        let joined = json!({ "player": token(n), "name": name });
        assert_eq!(ask(addr, &format!("/api/arenas/{arena}/join"), joined).await.0, 204);
    }
    // Two games paired: each player's game and colour.
    let mut seated: Vec<(String, String)> = Vec::new();
    let mut numbers = HashMap::new();
    for n in 0..names.len() {
        let mut watcher = Watcher::hello(addr, &arena, Some(n)).await;
        let game = watcher.game_other_than(None).await;
        seated.push((
            game["id"].as_str().unwrap().to_owned(),
            game["colour"].as_str().unwrap().to_owned(),
        ));
        numbers.insert(n, game["no"].as_u64().unwrap());
    }
    let mut games: HashMap<String, HashMap<String, String>> = HashMap::new();
    for (n, (id, colour)) in seated.iter().enumerate() {
        games.entry(id.clone()).or_default().insert(colour.clone(), token(n));
    }
    assert_eq!(games.len(), 2, "{games:?}");
    // A turn in each: pale's first.
    let mut played = HashMap::new();
    for (id, tokens) in &games {
        let (mut pale, snapshot) = Client::hello(addr, id, Some(&tokens["white"]), None).await;
        let first = snapshot["d"]["pos"]["legal"][0].as_str().unwrap().to_owned();
        assert_eq!(pale.turn(1, &first).await["t"], "accepted");
        played.insert(id.clone(), first);
    }
    // Dark goes berserk in every game, before their first move.
    let dark_players: Vec<usize> =
        (0..names.len()).filter(|n| games.values().any(|t| t["black"] == token(*n))).collect();
    for &n in &dark_players {
        let path = format!("/api/arenas/{arena}/berserk");
        let asked = json!({ "player": token(n), "game": numbers[&n] });
        assert_eq!(ask(addr, &path, asked).await.0, 204);
    }
    let before = Watcher::hello(addr, &arena, None).await.last;
    assert_eq!(before["d"]["players"], 4, "{before}");
    first.crash();

    let second = Process::start(&data.0, test_config());
    let addr = second.addr;
    // The standings come back: the same players, names and scores.
    let after = Watcher::hello(addr, &arena, None).await.last;
    assert_eq!(after["d"]["players"], 4, "{after}");
    assert_eq!(scores(&after), scores(&before), "{after}");
    // Each player is seated again in the same game, with the same colour.
    let mut watchers = Vec::new();
    for (n, (id, colour)) in seated.iter().enumerate() {
        let mut watcher = Watcher::hello(addr, &arena, Some(n)).await;
        let game = watcher.game_other_than(None).await;
        assert_eq!(
            (game["id"].as_str().unwrap(), game["colour"].as_str().unwrap()),
            (id.as_str(), colour.as_str())
        );
        watchers.push(watcher);
    }
    // The games are served with their turns; the seats' tokens still hold.
    let ids: Vec<String> = games.keys().cloned().collect();
    for id in &ids {
        let (_, snapshot) = Client::hello(addr, id, Some(&games[id]["black"]), None).await;
        assert_eq!(snapshot["d"]["you"], "black", "{snapshot}");
        assert_eq!(snapshot["d"]["moves"], json!([played[id]]), "{snapshot}");
        // Dark's berserk came back with the game: its clock halved.
        assert_eq!(snapshot["d"]["berserk"], json!(["black"]), "{snapshot}");
        assert_eq!(snapshot["d"]["clock"]["black"], 90_000, "{snapshot}");
        assert_eq!(snapshot["d"]["clock"]["white"], 180_000, "{snapshot}");
    }
    // And with the arena: a second berserk is refused.
    for &n in &dark_players {
        let path = format!("/api/arenas/{arena}/berserk");
        let asked = json!({ "player": token(n), "game": numbers[&n] });
        let (status, body) = ask(addr, &path, asked).await;
        assert_eq!((status, body["code"].as_str()), (409, Some("already-berserk")), "{body}");
    }
    // Dark answers in the first game, then resigns: pale scores 2.
    let id = &ids[0];
    let (mut dark, snapshot) = Client::hello(addr, id, Some(&games[id]["black"]), None).await;
    let reply = snapshot["d"]["pos"]["legal"][0].as_str().unwrap().to_owned();
    assert_eq!(dark.turn(1, &reply).await["t"], "accepted");
    dark.send(json!({ "t": "resign" })).await;
    assert_eq!(dark.next_of("end").await["d"]["code"], "resigned");
    let winner = (0..names.len()).find(|&n| token(n) == games[id]["white"]).unwrap();
    let loser = (0..names.len()).find(|&n| token(n) == games[id]["black"]).unwrap();
    let standings = watchers[winner]
        .until(|s| s["d"]["top"].as_array().unwrap().iter().any(|r| r["score"] == 2))
        .await;
    let scored: HashMap<String, u64> = scores(&standings).into_iter().collect();
    assert_eq!(scored[names[winner]], 2, "{standings}");
    assert_eq!(scored[names[loser]], 0, "{standings}");
    // After their rest, the next pairing comes.
    let next = watchers[winner].game_other_than(Some(id)).await;
    assert_ne!(next["id"].as_str().unwrap(), id.as_str());
    second.crash();
}

/// An arena of the server's own on a fresh process over `data`, running now, with games of
/// `seconds` a side (shorter than any page may ask for); Ama and Kofi joined and paired. Gives
/// the process, the arena, its game, and the pale and dark players' names and tokens.
async fn two_paired(
    data: &DataDir,
    seconds: u32,
) -> (Process, String, String, [(&'static str, String); 2]) {
    let process = Process::start(&data.0, test_config());
    let state = process.state.clone();
    let arena = process
        .runtime
        .spawn(async move {
            let plan = dara_server::arena::Plan {
                rules: dara::Ruleset::default(),
                clock: dara_server::game::clock::TimeControl { initial: seconds, increment: 0 },
                starts: Some(dara_arena::WallTime::from_millis(now_ms())),
                length: Duration::from_secs(30 * 60),
                maker: None,
            };
            dara_server::arena::open(&state, &state.arenas, plan).unwrap().id.to_string()
        })
        .await
        .unwrap();
    let addr = process.addr;
    for (n, name) in ["Ama", "Kofi"].iter().enumerate() {
        let joined = json!({ "player": token(n), "name": name });
        assert_eq!(ask(addr, &format!("/api/arenas/{arena}/join"), joined).await.0, 204);
    }
    let mut watcher = Watcher::hello(addr, &arena, Some(0)).await;
    let game = watcher.game_other_than(None).await;
    let id = game["id"].as_str().unwrap().to_owned();
    let sides = if game["colour"] == "white" {
        [("Ama", token(0)), ("Kofi", token(1))]
    } else {
        [("Kofi", token(1)), ("Ama", token(0))]
    };
    (process, arena, id, sides)
}

/// Pale, dark, pale: one turn each and pale's second, so that dark's clock runs.
async fn three_turns(
    addr: std::net::SocketAddr,
    id: &str,
    [pale, dark]: &[(&str, String); 2],
) -> (Client, Client) {
    let (mut pale, snapshot) = Client::hello(addr, id, Some(&pale.1), None).await;
    let (mut dark, _) = Client::hello(addr, id, Some(&dark.1), None).await;
    let first = snapshot["d"]["pos"]["legal"][0].as_str().unwrap().to_owned();
    assert_eq!(pale.turn(1, &first).await["t"], "accepted");
    let moved = dark.next_of("move").await;
    let reply = moved["d"]["pos"]["legal"][0].as_str().unwrap().to_owned();
    assert_eq!(dark.turn(1, &reply).await["t"], "accepted");
    // Pale hears its own turn, then dark's.
    pale.next_of("move").await;
    let moved = pale.next_of("move").await;
    let again = moved["d"]["pos"]["legal"][0].as_str().unwrap().to_owned();
    assert_eq!(pale.turn(2, &again).await["t"], "accepted");
    (pale, dark)
}

/// Waits for the standings after the one game: pale's win, 2 to 0.
async fn pale_won_once(
    addr: std::net::SocketAddr,
    arena: &str,
    [pale, dark]: &[(&str, String); 2],
) {
    let mut watcher = Watcher::hello(addr, arena, Some(0)).await;
    let standings =
        watcher.until(|s| s["d"]["top"].as_array().unwrap().iter().any(|r| r["games"] == 1)).await;
    let scored: HashMap<String, u64> = scores(&standings).into_iter().collect();
    assert_eq!(scored[pale.0], 2, "{standings}");
    assert_eq!(scored[dark.0], 0, "{standings}");
}

/// Dark's clock runs when the server is killed, and dark never comes back. The time the
/// server was down is charged to nobody (`game::restore`: the clocks wait for the side to move,
/// here for a second), then dark's time runs out on the server that took the game up, and
/// the arena it also took up scores the game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_that_runs_out_after_a_restart_ends_a_game_that_counts() {
    let data = DataDir::new("arena-flag");
    let (first, arena, id, sides) = two_paired(&data, 8).await;
    let _players = three_turns(first.addr, &id, &sides).await;
    first.crash();

    tokio::time::sleep(Duration::from_secs(3)).await;
    let mut config = test_config();
    config.patience.clocks_held_for = Duration::from_secs(1);
    let second = Process::start(&data.0, config);
    let addr = second.addr;
    let (mut pale, snapshot) = Client::hello(addr, &id, Some(&sides[0].1), None).await;
    assert!(snapshot["d"]["end"].is_null(), "the time down was charged to nobody: {snapshot}");
    let end = pale.next_of("end").await;
    assert_eq!(end["d"]["code"], "out-of-time", "{end}");
    pale_won_once(addr, &arena, &sides).await;
    second.crash();
}

/// The server is killed after a game's end was kept and before the arena's note of it was:
/// here made certain by taking the arena's journal back to before the end. The game taken up
/// is over, tells the arena so, and the arena scores it as if nothing had happened.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_that_ended_as_the_server_died_counts_when_it_comes_back() {
    let data = DataDir::new("arena-ended-down");
    let (first, arena, id, sides) = two_paired(&data, 180).await;
    let (_pale, mut dark) = three_turns(first.addr, &id, &sides).await;
    dark.send(json!({ "t": "resign" })).await;
    assert_eq!(dark.next_of("end").await["d"]["code"], "resigned");
    let mut watcher = Watcher::hello(first.addr, &arena, Some(0)).await;
    watcher.until(|s| s["d"]["top"].as_array().unwrap().iter().any(|r| r["score"] == 2)).await;
    let store = first.state.store.clone();
    first.runtime.spawn(async move { store.close().await }).await.unwrap();
    first.crash();

    // The arena's journal as it was before the end (and whatever followed it) was kept.
    let conn =
        rusqlite::Connection::open(data.0.join(dara_server::store::sqlite::DATABASE)).unwrap();
    let forgotten = conn
        .execute(
            "DELETE FROM arena_events WHERE arena = ?1 AND v >= (SELECT min(v) FROM arena_events
                WHERE arena = ?1 AND instr(event, '\"game-ended\"') > 0)",
            [&arena],
        )
        .unwrap();
    assert!(forgotten >= 1, "the end was in the journal");
    drop(conn);

    let second = Process::start(&data.0, test_config());
    pale_won_once(second.addr, &arena, &sides).await;
    second.crash();
}

/// An arena forgotten after its end (an hour; here 300 ms) leaves no row in the store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forgotten_arena_leaves_no_row() {
    let data = DataDir::new("arena-erase");
    let config =
        dara_server::Config { arena_kept_after: Duration::from_millis(300), ..test_config() };
    let process = Process::start(&data.0, config);
    let state = process.state.clone();
    let id = process
        .runtime
        .spawn(async move {
            let plan = dara_server::arena::Plan {
                rules: dara::Ruleset::default(),
                clock: dara_server::game::clock::TimeControl { initial: 60, increment: 0 },
                starts: Some(dara_arena::WallTime::from_millis(now_ms())),
                length: Duration::from_secs(1),
                maker: None,
            };
            dara_server::arena::open(&state, &state.arenas, plan).unwrap().id
        })
        .await
        .unwrap();
    // While it lives, it is in the store.
    let kept = |id: &str| dara_server::store::sqlite::files_contain(&data.0, id.as_bytes());
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while !kept(id.as_str()) && process.state.arenas.get(&id).is_some() {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(kept(id.as_str()), "the arena was never kept");
    while process.state.arenas.get(&id).is_some() {
        assert!(tokio::time::Instant::now() < deadline, "the arena was never forgotten");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let store = process.state.store.clone();
    process.runtime.spawn(async move { store.close().await }).await.unwrap();
    process.crash();
    let conn =
        rusqlite::Connection::open(data.0.join(dara_server::store::sqlite::DATABASE)).unwrap();
    let rows: i64 = conn
        .query_row(
            "SELECT (SELECT count(*) FROM arenas) + (SELECT count(*) FROM arena_events)
                + (SELECT count(*) FROM arena_tables)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(rows, 0);
    drop(conn);
    assert!(!kept(id.as_str()), "its id is gone from every file");
}
