//! Measures the server (not a test: figures, not verdicts).
//!
//! 1. The round trip of a move on loopback: from a player sending a turn to that player's
//!    `accepted`, and to the opponent receiving the `move` event. 40 games by link of 24
//!    placements each, over real WebSockets.
//! 2. The same round trip while 100 games against the computer at level 8 keep the engine's
//!    pool busy (their players answer every computer move at once).
//! 3. The memory an idle game holds: resident memory before and after creating 5 000 games
//!    waiting for their second player.
//!
//!     cargo run --release -p dara-server --example bench

use std::time::{Duration, Instant};

use dara::ByColour;
use dara_server::game::NewGame;
use dara_server::game::{self, Seat};
use dara_server::seat::SeatToken;
use dara_server::{Config, Shared};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn recv(ws: &mut Socket) -> Value {
    loop {
        if let Some(Ok(Message::Text(t))) = ws.next().await {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

async fn until(ws: &mut Socket, t: &str) -> Value {
    loop {
        let msg = recv(ws).await;
        if msg["t"] == t {
            return msg;
        }
    }
}

fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm.split_whitespace().nth(1).and_then(|p| p.parse().ok()).unwrap_or(0);
    pages * 4096
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    samples[((samples.len() - 1) as f64 * p).round() as usize]
}

#[tokio::main]
async fn main() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    // Every game here comes from this one loopback address.
    let config = Config { games_per_address: usize::MAX, ..Config::default() };
    tokio::spawn(dara_server::run(listener, config, std::future::pending()));
    let http = reqwest::Client::new();

    round_trips(addr, &http, "quiet server").await;
    let answers = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let load: Vec<_> = (0..100)
        .map(|_| tokio::spawn(computer_game(addr, http.clone(), answers.clone())))
        .collect();
    // Let every load game get its first search going.
    tokio::time::sleep(Duration::from_secs(2)).await;
    round_trips(addr, &http, "100 games against level 8 thinking").await;
    // Level 8 thinks for a second a move, two searches at a time on two cores: the pool is full
    // throughout, and the moves made show it was really working.
    let made = answers.load(std::sync::atomic::Ordering::Relaxed);
    println!("  (the computer made {made} moves in those games since they started)");
    for game in load {
        game.abort();
    }

    // Idle games, created straight through the library so nothing else allocates meanwhile.
    let state = Shared::new(Config::default());
    let games = 5_000;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let before = resident_bytes();
    for _ in 0..games {
        let request: NewGame =
            serde_json::from_value(json!({ "opponent": "friend", "first": "me" })).unwrap();
        let setup = request.check().unwrap();
        let seats = ByColour {
            white: Seat::Human(state.seat_key.seal(&SeatToken::random())),
            black: Seat::Open,
        };
        game::spawn(&state, setup, seats, None).unwrap();
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = resident_bytes();
    assert_eq!(state.live_games(), games);
    println!(
        "idle game waiting for its second player: {:.1} KiB resident each ({games} games, {:.1} MiB in all)",
        (after - before) as f64 / games as f64 / 1024.0,
        (after - before) as f64 / 1048576.0
    );
}

/// Games by link between two clients on this process, timing each turn.
async fn round_trips(addr: std::net::SocketAddr, http: &reqwest::Client, label: &str) {
    let mut accepted = Vec::new();
    let mut delivered = Vec::new();
    for _ in 0..40 {
        let created = create_game(addr, http, json!({ "opponent": "friend", "first": "me" })).await;
        let id = created["game"].as_str().unwrap();
        let url = format!("ws://{addr}/ws/game/{id}");
        let (mut pale, _) =
            tokio_tungstenite::connect_async_with_config(&url, None, true).await.unwrap();
        let (mut dark, _) =
            tokio_tungstenite::connect_async_with_config(&url, None, true).await.unwrap();
        let hello =
            json!({ "t": "hello", "d": { "protocol": 1, "seat": created["seat"] } }).to_string();
        pale.send(Message::Text(hello.into())).await.unwrap();
        let mut legal = until(&mut pale, "snapshot").await["d"]["pos"]["legal"].clone();
        dark.send(Message::Text(
            json!({ "t": "hello", "d": { "protocol": 1 } }).to_string().into(),
        ))
        .await
        .unwrap();
        until(&mut dark, "snapshot").await;
        dark.send(Message::Text(json!({ "t": "join" }).to_string().into())).await.unwrap();
        until(&mut dark, "joined").await;
        for ply in 0..24u64 {
            let (mover, other) =
                if ply % 2 == 0 { (&mut pale, &mut dark) } else { (&mut dark, &mut pale) };
            let m = legal[0].as_str().unwrap().to_owned();
            let turn = json!({ "t": "move", "d": { "id": ply, "m": m } }).to_string();
            let sent = Instant::now();
            mover.send(Message::Text(turn.into())).await.unwrap();
            let answer = loop {
                let msg = recv(mover).await;
                if msg["t"] == "accepted" || msg["t"] == "rejected" {
                    break msg;
                }
            };
            assert_eq!(answer["t"], "accepted", "{answer}");
            accepted.push(sent.elapsed());
            // Each side also hears its own moves: wait for this one.
            let event = loop {
                let event = until(other, "move").await;
                if event["d"]["ply"] == ply + 1 {
                    break event;
                }
            };
            delivered.push(sent.elapsed());
            legal = event["d"]["pos"]["legal"].clone();
        }
    }
    let n = accepted.len();
    println!("move round trip on loopback, {n} moves, {label}:");
    for (name, samples) in
        [("sender's accepted", &mut accepted), ("opponent's move event", &mut delivered)]
    {
        println!(
            "  {name:>22}: median {:>6.0} us, p99 {:>6.0} us",
            percentile(samples, 0.5).as_secs_f64() * 1e6,
            percentile(samples, 0.99).as_secs_f64() * 1e6
        );
    }
}

/// A game against the computer at level 8 whose player answers at once, for ever: it keeps one
/// engine search queued or running at all times.
async fn computer_game(
    addr: std::net::SocketAddr,
    http: reqwest::Client,
    answers: std::sync::Arc<std::sync::atomic::AtomicU64>,
) {
    let setup = json!({ "opponent": "computer", "first": "them", "level": 8 });
    let created = create_game(addr, &http, setup).await;
    let id = created["game"].as_str().unwrap();
    let me = created["colour"].as_str().unwrap().to_owned();
    let url = format!("ws://{addr}/ws/game/{id}");
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(&url, None, true).await.unwrap();
    let hello =
        json!({ "t": "hello", "d": { "protocol": 1, "seat": created["seat"] } }).to_string();
    ws.send(Message::Text(hello.into())).await.unwrap();
    let mut id = 0u64;
    loop {
        let msg = recv(&mut ws).await;
        let pos = &msg["d"]["pos"];
        if msg["t"] == "move" && pos["side"].as_str() == Some(me.as_str()) {
            answers.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        if pos["side"].as_str() == Some(me.as_str()) {
            if let Some(m) = pos["legal"].get(0).and_then(Value::as_str) {
                id += 1;
                let turn = json!({ "t": "move", "d": { "id": id, "m": m } }).to_string();
                ws.send(Message::Text(turn.into())).await.unwrap();
            }
        }
    }
}

/// Creates a game through the HTTP API: its id, the creator's seat token and colour.
async fn create_game(addr: std::net::SocketAddr, http: &reqwest::Client, setup: Value) -> Value {
    let response = http.post(format!("http://{addr}/api/games")).json(&setup).send().await;
    response.unwrap().json().await.unwrap()
}
