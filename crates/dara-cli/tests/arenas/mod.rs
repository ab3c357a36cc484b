//! Arenas as the cluster's tests reach them: a request that may answer with no body, and an
//! arena's socket that keeps the last standings heard.

#![allow(dead_code)]

use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// How long a test waits for what it reads.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// Player `n`'s token, which their browser would keep.
pub fn token(n: usize) -> String {
    format!("arena-cluster-player-{n}")
}

/// `POST path` with a JSON body: the status code and the answer's JSON (null if none). A
/// request relayed to another node may wait up to 12 s for its answer.
pub fn ask(addr: SocketAddr, path: &str, body: &Value) -> (u16, Value) {
    let (code, body) = super::players::post_raw(addr, path, body, Duration::from_secs(30));
    (code, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// An arena's socket, after its hello, connected again whenever it closes (as a page does: a
/// test leaves it unread for longer than the server waits for a pong).
pub struct ArenaSocket {
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    at: (SocketAddr, String, Option<usize>),
    /// The last standings heard.
    pub last: Value,
}

impl ArenaSocket {
    /// The socket of arena `arena` on the node at `addr`, as player `player` (or anyone).
    pub fn hello(addr: SocketAddr, arena: &str, player: Option<usize>) -> ArenaSocket {
        let ws = ArenaSocket::connect(addr, arena, player);
        ArenaSocket { ws, at: (addr, arena.to_owned(), player), last: Value::Null }
    }

    fn connect(
        addr: SocketAddr,
        arena: &str,
        player: Option<usize>,
    ) -> WebSocket<MaybeTlsStream<TcpStream>> {
        let (mut ws, _) = tungstenite::connect(format!("ws://{addr}/ws/arena/{arena}")).unwrap();
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        }
        let hello = json!({ "t": "hello", "d": { "player": player.map(token) } });
        ws.send(Message::text(hello.to_string())).unwrap();
        ws
    }

    /// Standings until `fits` holds of them (within [`PATIENCE`]).
    pub fn until(&mut self, fits: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if self.last["t"] == "standings" && fits(&self.last) {
                return self.last.clone();
            }
            assert!(Instant::now() < deadline, "the standings never came to that: {}", self.last);
            match self.ws.read() {
                Ok(Message::Text(text)) => {
                    let value: Value = serde_json::from_str(text.as_str()).unwrap();
                    if value["t"] == "standings" {
                        self.last = value;
                    }
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(e) => {
                    eprintln!("an arena's socket closed ({e}): connected again");
                    let (addr, arena, player) = &self.at;
                    self.ws = ArenaSocket::connect(*addr, arena, *player);
                }
            }
        }
    }

    /// The player's game being played, once they have one other than `not`.
    pub fn game_other_than(&mut self, not: Option<&str>) -> Value {
        let standings =
            self.until(|s| !s["d"]["game"].is_null() && s["d"]["game"]["id"].as_str() != not);
        standings["d"]["game"].clone()
    }
}

/// The score of the player named `name` in `standings`.
pub fn score_of(standings: &Value, name: &str) -> u64 {
    let rows = standings["d"]["top"].as_array().unwrap();
    let row = rows.iter().find(|r| r["name"] == name).unwrap_or_else(|| panic!("{standings}"));
    row["score"].as_u64().unwrap()
}
