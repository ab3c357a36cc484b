//! A server started again on the data it kept: the time it was down is nobody's, and a game it
//! forgot is gone from the disk. Each "process" here is a server with a runtime of its own,
//! reached over real sockets; dropping that runtime without stopping the server is its crash
//! (what it had acknowledged was already on disk). The library allows clocks shorter than the
//! site offers, so the test needs no minute of waiting for a clock.

mod common;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{test_config, Client};
use dara::{ByColour, Colour, Ruleset};
use dara_server::game::clock::TimeControl;
use dara_server::game::{self, GameSettings, Opponent, Seat};
use dara_server::seat::{SeatKey, SeatToken};
use dara_server::store::{sqlite, Store, StoreError};
use dara_server::{AppState, Config, Shared};
use serde_json::json;

/// A server keeping its games in a data directory, on a runtime of its own.
struct Process {
    runtime: tokio::runtime::Runtime,
    addr: SocketAddr,
    state: AppState,
}

impl Process {
    /// Opens `dir` (waiting for a crashed predecessor's writer to let go of it) and serves.
    fn start(dir: &Path, config: Config) -> Process {
        let deadline = Instant::now() + Duration::from_secs(10);
        let opened = loop {
            match Store::open(dir) {
                Ok(opened) => break opened,
                Err(StoreError::Locked(_)) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => panic!("{e}"),
            }
        };
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        // Started from the tests' own runtime, which may not block on another.
        let (tx, rx) = std::sync::mpsc::channel();
        runtime.spawn(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            let state = Shared::keeping(config, opened.store, opened.key);
            dara_server::take_up(&state, opened.games);
            tokio::spawn(dara_server::serve(listener, state.clone(), std::future::pending()));
            tx.send((addr, state)).unwrap();
        });
        let (addr, state) = rx.recv().unwrap();
        Process { runtime, addr, state }
    }

    /// Gone at once, mid-flight: nothing more is written.
    fn crash(self) {
        let Process { runtime, state, .. } = self;
        drop(state);
        runtime.shutdown_background();
    }
}

/// A data directory of the test's own, removed afterwards.
struct DataDir(PathBuf);

impl DataDir {
    fn new(name: &str) -> DataDir {
        let dir = std::env::temp_dir().join(format!("dara-restart-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        DataDir(dir)
    }
}

impl Drop for DataDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A game between two people on a short clock, spawned through the library; its id.
async fn spawn_clock_game(
    process: &Process,
    initial: u32,
    pale: &SeatToken,
    dark: &SeatToken,
) -> String {
    let settings = GameSettings {
        rules: Ruleset::default(),
        opponent: Opponent::Friend,
        creator: Colour::White,
        clock: Some(TimeControl { initial, increment: 0 }),
    };
    let key = &process.state.seat_key;
    let seats = ByColour { white: Seat::Human(key.seal(pale)), black: Seat::Human(key.seal(dark)) };
    let state = process.state.clone();
    let spawned = process.runtime.spawn(async move {
        let (handle, stored) = game::spawn(&state, settings, seats, None).unwrap();
        stored.wait().await.unwrap();
        handle.id.to_string()
    });
    spawned.await.unwrap()
}

/// The mover's clock shows 5 s before a 20 s outage and 5 s after it (give or take the lag
/// allowance); it stays stopped until the mover is back, then runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_time_the_server_was_down_is_nobodys() {
    let data = DataDir::new("clock");
    let (pale, dark) = (SeatToken::random(), SeatToken::random());
    let first = Process::start(&data.0, test_config());
    let game = spawn_clock_game(&first, 8, &pale, &dark).await;
    let addr = first.addr;
    let (mut white, _) = Client::hello(addr, &game, Some(pale.as_str()), None).await;
    let (mut black, _) = Client::hello(addr, &game, Some(dark.as_str()), None).await;
    // Pale thinks 3 s: 5 s left. Dark answers at once.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(white.turn(1, "c3").await["t"], "accepted");
    assert_eq!(black.turn(1, "d3").await["t"], "accepted");
    let moved = black.next_of("move").await;
    let moved = if moved["d"]["ply"] == 2 { moved } else { black.next_of("move").await };
    let left = moved["d"]["clock"]["white"].as_i64().unwrap();
    assert!((4_800..=5_200).contains(&left), "pale has {left} ms");
    assert_eq!(moved["d"]["clock"]["running"], "white");

    first.crash();
    drop((white, black));
    tokio::time::sleep(Duration::from_secs(20)).await;
    let second = Process::start(&data.0, test_config());
    let addr = second.addr;

    // Dark (not to move) comes back first: the clocks stay stopped.
    let (_black, snapshot) = Client::hello(addr, &game, Some(dark.as_str()), None).await;
    assert_eq!(snapshot["t"], "snapshot", "{snapshot}");
    let clock = &snapshot["d"]["clock"];
    assert_eq!(clock["running"], serde_json::Value::Null, "{clock}");
    assert_eq!(clock["white"].as_i64().unwrap(), left, "{clock}");
    // Pale comes back: pale's clock runs again from the 5 s it had.
    let (mut white, snapshot) = Client::hello(addr, &game, Some(pale.as_str()), None).await;
    let clock = &snapshot["d"]["clock"];
    assert_eq!(clock["running"], "white", "{clock}");
    let now = clock["white"].as_i64().unwrap();
    assert!((left - 600..=left).contains(&now), "pale had {left} ms, now {now}: {clock}");
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(white.turn(2, "a1").await["t"], "accepted");
    let moved = white.next_of("move").await;
    let after = moved["d"]["clock"]["white"].as_i64().unwrap();
    assert!((left - 1_600..=left - 400).contains(&after), "pale had {left} ms, then {after}");
    second.crash();
}

/// A finished game, once forgotten, is erased: no row of it, and neither its id nor its seats'
/// token hashes anywhere in the data directory's files.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forgotten_game_leaves_nothing_on_disk() {
    let data = DataDir::new("erase");
    let config = Config { finished_grace: Duration::from_millis(300), ..test_config() };
    let process = Process::start(&data.0, config.clone());
    let addr = process.addr;
    let (game, pale, _) =
        common::create(addr, json!({ "opponent": "friend", "first": "me" })).await;
    let (mut white, _) = Client::hello(addr, &game, Some(&pale), None).await;
    let (mut black, _) = Client::hello(addr, &game, None, None).await;
    black.send(json!({ "t": "join" })).await;
    let dark = black.next_of("joined").await["d"]["seat"].as_str().unwrap().to_owned();
    assert_eq!(white.turn(1, "c3").await["t"], "accepted");
    let key = std::fs::read(data.0.join(sqlite::SEAT_KEY)).unwrap();
    let key = SeatKey::from_bytes(key.try_into().unwrap());
    let hashes = [key.hash(&pale).to_hex(), key.hash(&dark).to_hex()];
    // While the game lives, it is in the store.
    let live = |needle: &str| sqlite::files_contain(&data.0, needle.as_bytes());
    let deadline = Instant::now() + Duration::from_secs(5);
    while !(live(&game) && hashes.iter().all(|h| live(h))) {
        assert!(Instant::now() < deadline, "the live game is in the store");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    white.send(json!({ "t": "resign" })).await;
    white.next_of("end").await;
    // Forgotten a moment later: its socket closes with 4004.
    assert_eq!(white.closed().await, Some(4004));
    drop((white, black));
    tokio::time::sleep(Duration::from_millis(200)).await;
    // A server that stops empties its log; the hourly checkpoint does the same while it runs.
    let store = process.state.store.clone();
    process.runtime.spawn(async move { store.close().await }).await.unwrap();
    process.crash();
    let conn = rusqlite::Connection::open(data.0.join(sqlite::DATABASE)).unwrap();
    let rows: i64 = conn
        .query_row("SELECT (SELECT count(*) FROM games) + (SELECT count(*) FROM events)", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(rows, 0);
    drop(conn);
    assert!(!live(&game), "the game's id is gone from every file");
    for hash in &hashes {
        assert!(!live(hash), "its seats' token hashes are gone from every file");
    }
}
