//! Measures whether the computer is fair to everyone (not a test: figures, not verdicts).
//!
//! 40 games against level 8 keep the engine busy: each player answers every computer move at
//! once with the first legal move listed (a fixed stream of moves; a finished game is replaced
//! by a new one), so a search is always waiting. The reply times of those games (the player's
//! move sent to the computer's `move` event) are measured twice, each time in a fresh process
//! with a fresh server: alone, and while one more client, from another address, loops move and
//! takeback against the computer as fast as the message limit allows (its burst, then 10
//! messages a second) from the start. Both runs follow the same timeline, so that the games
//! are at the same stages (placement, then movement, then their ends) in both.
//!
//!     cargo run --release -p dara-server --example fairness [-- --warm 30 --measure 120 --rounds 1]
//!
//! Replies arriving in the first `--warm` seconds (while the queue fills) are left out.
//! `--rounds 2` runs alone, loop, alone, loop, to show how much two runs of the same kind differ
//! on a machine shared with others.

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use dara_server::Config;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

const GAMES: usize = 40;

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map_or(default, |v| v.parse().expect("a number"))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let warm = arg(&args, "--warm", 30);
    let measure = arg(&args, "--measure", 120);
    if let Some(i) = args.iter().position(|a| a == "--run") {
        let with_loop = args[i + 1] == "loop";
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(one_run(
            with_loop,
            Duration::from_secs(warm),
            Duration::from_secs(measure),
        ));
        return;
    }
    let rounds = arg(&args, "--rounds", 1);
    println!(
        "{GAMES} games against level 8 answered at once; {warm} s to fill the queue, then {measure} s \
         measured; a fresh server each run"
    );
    let mut results: Vec<(bool, f64, f64)> = Vec::new();
    for _ in 0..rounds {
        for with_loop in [false, true] {
            let kind = if with_loop { "loop" } else { "alone" };
            let out = std::process::Command::new(std::env::current_exe().unwrap())
                .args([
                    "--run",
                    kind,
                    "--warm",
                    &warm.to_string(),
                    "--measure",
                    &measure.to_string(),
                ])
                .output()
                .expect("the run starts");
            let text = String::from_utf8_lossy(&out.stdout);
            for line in text.lines().filter(|l| !l.starts_with("figures ")) {
                println!("{line}");
            }
            let figures: Vec<f64> = text
                .lines()
                .find_map(|l| l.strip_prefix("figures "))
                .expect("the run's figures")
                .split(' ')
                .map(|f| f.parse().unwrap())
                .collect();
            results.push((with_loop, figures[0], figures[1]));
        }
    }
    let mean = |with_loop: bool, k: usize| {
        let picked: Vec<f64> = results
            .iter()
            .filter(|r| r.0 == with_loop)
            .map(|r| if k == 0 { r.1 } else { r.2 })
            .collect();
        picked.iter().sum::<f64>() / picked.len() as f64
    };
    println!(
        "the loop changes the busy games' replies by: median {:+.1}%, p90 {:+.1}%",
        (mean(true, 0) / mean(false, 0) - 1.0) * 100.0,
        (mean(true, 1) / mean(false, 1) - 1.0) * 100.0
    );
}

async fn one_run(with_loop: bool, warm: Duration, measure: Duration) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let config = Config { games_per_address: usize::MAX, human_pause: false, ..Config::default() };
    let threads = config.engine_threads;
    tokio::spawn(dara_server::run(listener, config, std::future::pending()));

    let started = Instant::now();
    let measuring = (started + warm, started + warm + measure);
    let samples = Arc::new(Mutex::new(Vec::new()));
    for _ in 0..GAMES {
        tokio::spawn(busy_player(addr, samples.clone(), measuring));
    }
    let sent = Arc::new(AtomicU64::new(0));
    let queue_heard = Arc::new(AtomicU64::new(0));
    if with_loop {
        tokio::spawn(looper(addr, sent.clone(), queue_heard.clone()));
    }
    tokio::time::sleep_until(measuring.1.into()).await;
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let mut replies = samples.lock().unwrap().clone();
    replies.sort();
    let at = |p: f64| replies[((replies.len() - 1) as f64 * p).round() as usize].as_secs_f64();
    let label = if with_loop { "while another client loops move + takeback" } else { "alone" };
    println!(
        "  {label:<44} {:>4} replies ({:.2}/s), median {:>5.2} s, p90 {:>5.2} s \
         ({threads} engine threads; load average {})",
        replies.len(),
        replies.len() as f64 / measure.as_secs_f64(),
        at(0.5),
        at(0.9),
        load.split(' ').take(3).collect::<Vec<_>>().join(" ")
    );
    if with_loop {
        let sent = sent.load(Ordering::Relaxed);
        println!(
            "  {:<44} {sent} messages ({:.1}/s); {} queue messages heard",
            "  the loop sent",
            sent as f64 / started.elapsed().as_secs_f64(),
            queue_heard.load(Ordering::Relaxed)
        );
    }
    println!("figures {} {}", at(0.5), at(0.9));
}

async fn recv(ws: &mut Socket) -> Option<Value> {
    loop {
        match ws.next().await? {
            Ok(Message::Text(t)) => return serde_json::from_str(t.as_str()).ok(),
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

async fn send(ws: &mut Socket, msg: Value) {
    let _ = ws.send(Message::Text(msg.to_string().into())).await;
}

/// Creates a game against level 8, the player moving first, from `from`; says hello.
async fn computer_game(addr: SocketAddr, from: IpAddr) -> (Socket, String) {
    let http = reqwest::Client::builder().local_address(from).build().unwrap();
    let setup = json!({ "opponent": "computer", "level": 8, "first": "me" });
    let response = http.post(format!("http://{addr}/api/games")).json(&setup).send().await;
    let created: Value = response.unwrap().json().await.unwrap();
    let id = created["game"].as_str().expect("a game").to_owned();
    let url = format!("ws://{addr}/ws/game/{id}");
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(&url, None, true).await.unwrap();
    send(&mut ws, json!({ "t": "hello", "d": { "seat": created["seat"] } })).await;
    (ws, created["colour"].as_str().unwrap().to_owned())
}

/// One busy game after another: answers each computer move at once with the first legal move,
/// timing the computer's replies that arrive within `measuring`.
async fn busy_player(
    addr: SocketAddr,
    samples: Arc<Mutex<Vec<Duration>>>,
    measuring: (Instant, Instant),
) {
    let home: IpAddr = [127, 0, 0, 1].into();
    let mut id = 0u64;
    loop {
        let (mut ws, me) = computer_game(addr, home).await;
        let mut asked: Option<Instant> = None;
        while let Some(msg) = recv(&mut ws).await {
            if msg["t"] == "end" {
                break;
            }
            let pos = &msg["d"]["pos"];
            if pos["side"].as_str() != Some(me.as_str()) {
                continue;
            }
            // The computer's reply (or the opening snapshot): time it, and answer.
            if msg["t"] == "move" {
                if let Some(at) = asked.take() {
                    let now = Instant::now();
                    if now >= measuring.0 && now < measuring.1 {
                        samples.lock().unwrap().push(now - at);
                    }
                }
            }
            if let Some(m) = pos["legal"].get(0).and_then(Value::as_str) {
                id += 1;
                let m = m.to_owned();
                send(&mut ws, json!({ "t": "move", "d": { "id": id, "m": m } })).await;
                asked = Some(Instant::now());
            }
        }
    }
}

/// Another client: move, takeback, move, takeback... against level 8, as fast as the server's
/// message limit allows (a burst of 40, then 10 a second; a little under, so as not to be cut
/// off).
async fn looper(addr: SocketAddr, sent: Arc<AtomicU64>, queue_heard: Arc<AtomicU64>) {
    let (ws, _) = computer_game(addr, [127, 0, 0, 2].into()).await;
    let (mut sink, mut stream) = ws.split();
    tokio::spawn(async move {
        while let Some(Ok(frame)) = stream.next().await {
            match frame {
                Message::Text(t) if t.as_str().starts_with(r#"{"t":"queue""#) => {
                    queue_heard.fetch_add(1, Ordering::Relaxed);
                }
                Message::Close(frame) => println!("  the loop was cut off: {frame:?}"),
                _ => {}
            }
        }
    });
    // The hello was the first message of the burst.
    let mut budget = 38u32;
    let mut tick = tokio::time::interval(Duration::from_millis(105));
    let mut id = 0u64;
    loop {
        if budget == 0 {
            tick.tick().await;
        } else {
            budget -= 1;
        }
        let msg = if sent.load(Ordering::Relaxed) % 2 == 0 {
            id += 1;
            // The start position's first placement: after each takeback the game is back there.
            json!({ "t": "move", "d": { "id": id, "m": "a1" } })
        } else {
            json!({ "t": "takeback" })
        };
        if sink.send(Message::Text(msg.to_string().into())).await.is_err() {
            break;
        }
        sent.fetch_add(1, Ordering::Relaxed);
    }
}
