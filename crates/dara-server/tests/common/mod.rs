//! A real server on a loopback port, and a small WebSocket client that speaks the protocol.

#![allow(dead_code)]

pub mod arena;
pub mod kept;
pub mod line;

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Settings for tests: no thinking pauses, a short wait before abandonment can be claimed.
pub fn test_config() -> dara_server::Config {
    dara_server::Config {
        human_pause: false,
        patience: dara_table::Patience {
            claim_after: Duration::from_millis(300),
            ..dara_table::Patience::default()
        },
        engine_threads: 1,
        ..dara_server::Config::default()
    }
}

pub async fn start(config: dara_server::Config) -> SocketAddr {
    start_with_state(config).await.0
}

/// A server, and its state for reaching its games through the library as well.
pub async fn start_with_state(config: dara_server::Config) -> (SocketAddr, dara_server::AppState) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let state = dara_server::Shared::new(config);
    tokio::spawn(dara_server::serve(listener, state.clone(), std::future::pending()));
    (addr, state)
}

/// A WebSocket upgrade of `url` as a page of `origin` asks for it (`None`: a program, which
/// says no origin), answered but not taken up: the status tells whether it was allowed.
pub async fn upgrade(url: &str, origin: Option<&str>) -> reqwest::Response {
    let mut request = reqwest::Client::new()
        .get(url)
        .header("connection", "upgrade")
        .header("upgrade", "websocket")
        .header("sec-websocket-version", "13")
        .header("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==");
    if let Some(origin) = origin {
        request = request.header("origin", origin);
    }
    request.send().await.unwrap()
}

pub async fn post(addr: SocketAddr, path: &str, body: Value) -> (u16, Value) {
    post_from(addr, path, body, None).await
}

/// A POST from a chosen loopback address (any of 127.0.0.0/8 reaches the server), so that one
/// test can be several clients.
pub async fn post_from(
    addr: SocketAddr,
    path: &str,
    body: Value,
    from: Option<std::net::IpAddr>,
) -> (u16, Value) {
    let client = reqwest::Client::builder().local_address(from).build().unwrap();
    let response = client.post(format!("http://{addr}{path}")).json(&body).send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

/// Creates a game; returns its id and the creator's seat token.
pub async fn create(addr: SocketAddr, body: Value) -> (String, String, String) {
    let (status, created) = post(addr, "/api/games", body).await;
    assert_eq!(status, 201, "{created}");
    (
        created["game"].as_str().unwrap().to_owned(),
        created["seat"].as_str().unwrap().to_owned(),
        created["colour"].as_str().unwrap().to_owned(),
    )
}

/// A game by link (arcade rules, the creator pale) with both seats connected: its id, the
/// creator's token, and the two players' clients (pale, dark).
pub async fn two_players(addr: SocketAddr) -> (String, String, Client, Client) {
    let (game, seat, _) =
        create(addr, json!({ "opponent": "friend", "rules": "arcade", "first": "me" })).await;
    let (pale, _) = Client::hello(addr, &game, Some(&seat), None).await;
    let (mut dark, _) = Client::hello(addr, &game, None, None).await;
    dark.send(json!({ "t": "join" })).await;
    dark.next_of("joined").await;
    (game, seat, pale, dark)
}

/// Creates a game from a chosen loopback address (see `post_from`).
pub async fn create_from(
    addr: SocketAddr,
    body: Value,
    from: std::net::IpAddr,
) -> (String, String, String) {
    let (status, created) = post_from(addr, "/api/games", body, Some(from)).await;
    assert_eq!(status, 201, "{created}");
    (
        created["game"].as_str().unwrap().to_owned(),
        created["seat"].as_str().unwrap().to_owned(),
        created["colour"].as_str().unwrap().to_owned(),
    )
}

#[derive(Debug)]
pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The highest event version seen.
    pub v: u64,
    /// Messages read while looking for another one, kept for `next`.
    stash: std::collections::VecDeque<Value>,
}

const PATIENCE: Duration = Duration::from_secs(20);

impl Client {
    pub async fn connect(addr: SocketAddr, game: &str) -> Client {
        let (ws, _) =
            tokio_tungstenite::connect_async(format!("ws://{addr}/ws/game/{game}")).await.unwrap();
        Client { ws, v: 0, stash: Default::default() }
    }

    /// Connects and says hello; returns the client and the first message (a snapshot, unless
    /// `since` is given).
    pub async fn hello(
        addr: SocketAddr,
        game: &str,
        seat: Option<&str>,
        since: Option<u64>,
    ) -> (Client, Value) {
        let mut client = Client::connect(addr, game).await;
        client
            .send(json!({ "t": "hello", "d": { "protocol": 1, "seat": seat, "since": since } }))
            .await;
        let first = client.next().await;
        (client, first)
    }

    pub async fn send(&mut self, msg: Value) {
        self.ws.send(Message::Text(msg.to_string().into())).await.unwrap();
    }

    pub async fn send_raw(&mut self, msg: Message) {
        let _ = self.ws.send(msg).await;
    }

    /// The next message of any kind.
    pub async fn next(&mut self) -> Value {
        if let Some(msg) = self.stash.pop_front() {
            return msg;
        }
        self.read().await
    }

    async fn read(&mut self) -> Value {
        loop {
            let msg =
                tokio::time::timeout(PATIENCE, self.ws.next()).await.expect("a message in time");
            match msg.expect("the socket stays open").expect("a readable frame") {
                Message::Text(text) => {
                    let value: Value = serde_json::from_str(text.as_str()).unwrap();
                    if let Some(v) = value["v"].as_u64() {
                        self.v = self.v.max(v);
                    }
                    return value;
                }
                Message::Close(frame) => panic!("closed: {frame:?}"),
                _ => continue,
            }
        }
    }

    /// The next message of type `t`, skipping presence and events of other types.
    pub async fn next_of(&mut self, t: &str) -> Value {
        loop {
            let msg = self.next().await;
            if msg["t"] == t {
                return msg;
            }
        }
    }

    /// The next message of any of these types.
    pub async fn next_of_any(&mut self, types: &[&str]) -> Value {
        loop {
            let msg = self.next().await;
            if types.iter().any(|t| msg["t"] == *t) {
                return msg;
            }
        }
    }

    /// The next message that is not a presence update.
    pub async fn next_not_presence(&mut self) -> Value {
        loop {
            let msg = self.next().await;
            if msg["t"] != "presence" {
                return msg;
            }
        }
    }

    /// Plays a move and waits for its answer (`accepted` or `rejected`).
    pub async fn turn(&mut self, id: u64, m: &str) -> Value {
        self.send(json!({ "t": "move", "d": { "id": id, "m": m } })).await;
        // Events that arrive before the answer stay for `next`.
        loop {
            let msg = self.read().await;
            if (msg["t"] == "accepted" || msg["t"] == "rejected") && msg["d"]["id"] == id {
                return msg;
            }
            self.stash.push_back(msg);
        }
    }

    /// Waits for the close frame (or the end of the stream); returns its code if any.
    pub async fn closed(&mut self) -> Option<u16> {
        loop {
            match tokio::time::timeout(PATIENCE, self.ws.next()).await.expect("closed in time") {
                Some(Ok(Message::Close(frame))) => return frame.map(|f| f.code.into()),
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return None,
            }
        }
    }
}
