//! Arenas as a test sees them: a player's token, a POST that may answer with no body, and an
//! arena's socket that keeps the last standings heard.

use std::net::SocketAddr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub const PATIENCE: Duration = Duration::from_secs(20);

pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis() as u64
}

pub fn token(n: usize) -> String {
    format!("arena-test-player-{n}")
}

/// A POST that may answer with no body.
pub async fn ask(addr: SocketAddr, path: &str, body: Value) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(format!("http://{addr}{path}"))
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (status, if text.is_empty() { Value::Null } else { serde_json::from_str(&text).unwrap() })
}

/// Player `n` goes berserk in the arena's game number `no`.
pub async fn berserk(addr: SocketAddr, arena: &str, n: usize, no: u64) -> (u16, Value) {
    ask(addr, &format!("/api/arenas/{arena}/berserk"), json!({ "player": token(n), "game": no }))
        .await
}

/// An arena's socket, after its hello.
pub struct Watcher {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The last standings heard.
    pub last: Value,
}

impl Watcher {
    pub async fn hello(addr: SocketAddr, arena: &str, player: Option<usize>) -> Watcher {
        let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/arena/{arena}"))
            .await
            .unwrap();
        let hello = json!({ "t": "hello", "d": { "player": player.map(token) } });
        ws.send(Message::Text(hello.to_string().into())).await.unwrap();
        let mut watcher = Watcher { ws, last: Value::Null };
        watcher.next().await;
        watcher
    }

    /// The next message; standings are kept as the last heard.
    pub async fn next(&mut self) -> Value {
        // One deadline for the message, whatever pings come meanwhile.
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let frame = tokio::time::timeout_at(deadline, self.ws.next()).await.expect("in time");
            match frame.expect("open").expect("readable") {
                Message::Text(text) => {
                    let value: Value = serde_json::from_str(text.as_str()).unwrap();
                    if value["t"] == "standings" {
                        self.last = value.clone();
                    }
                    return value;
                }
                Message::Close(frame) => panic!("closed: {frame:?}"),
                _ => continue,
            }
        }
    }

    /// Standings until `fits` holds of them.
    pub async fn until(&mut self, fits: impl Fn(&Value) -> bool) -> Value {
        if fits(&self.last) {
            return self.last.clone();
        }
        loop {
            let msg = self.next().await;
            if msg["t"] == "standings" && fits(&msg) {
                return msg;
            }
        }
    }

    /// The player's game being played, once they have one other than `not`.
    pub async fn game_other_than(&mut self, not: Option<&str>) -> Value {
        let standings =
            self.until(|s| !s["d"]["game"].is_null() && s["d"]["game"]["id"].as_str() != not).await;
        standings["d"]["game"].clone()
    }
}

impl Watcher {
    /// The podium, once the arena ends within `within` (the standings heard meanwhile are
    /// kept; an arena's socket may be quiet for longer than [`PATIENCE`] while nothing changes).
    pub async fn podium(&mut self, within: Duration) -> Value {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let frame = tokio::time::timeout_at(deadline, self.ws.next()).await.expect("in time");
            let Message::Text(text) = frame.expect("open").expect("readable") else { continue };
            let value: Value = serde_json::from_str(text.as_str()).unwrap();
            match value["t"].as_str() {
                Some("podium") => return value,
                Some("standings") => self.last = value,
                _ => {}
            }
        }
    }
}
