//! Arenas as the cluster's tests reach them: a request that may answer with no body, and an
//! arena's socket that keeps the last standings heard.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
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
    /// Every game this socket's player was told they play (its id, and the arena's number).
    pub told: BTreeSet<(String, u64)>,
}

impl ArenaSocket {
    /// The socket of arena `arena` on the node at `addr`, as player `player` (or anyone).
    pub fn hello(addr: SocketAddr, arena: &str, player: Option<usize>) -> ArenaSocket {
        let ws = ArenaSocket::connect(addr, arena, player);
        ArenaSocket {
            ws,
            at: (addr, arena.to_owned(), player),
            last: Value::Null,
            told: BTreeSet::new(),
        }
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
                        let game = &value["d"]["game"];
                        if let (Some(id), Some(no)) = (game["id"].as_str(), game["no"].as_u64()) {
                            self.told.insert((id.to_owned(), no));
                        }
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

/// The lines of a Redis answer that are JSON objects: the journal an `LRANGE` of an arena's
/// events gives, event by event (its events are one-line JSON).
pub fn journal_of(answer: &str) -> Vec<Value> {
    answer
        .lines()
        .filter(|line| line.starts_with('{'))
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// The fields and values of a Redis answer to `HGETALL` of an arena's tables: each game's
/// number and its table.
pub fn tables_of(answer: &str) -> BTreeMap<u64, String> {
    let items: Vec<&str> =
        answer.lines().filter(|l| !l.starts_with('*') && !l.starts_with('$')).collect();
    items
        .chunks(2)
        .map(|pair| {
            (
                pair[0].trim().parse().unwrap_or_else(|_| panic!("{answer}")),
                pair[1].trim().to_owned(),
            )
        })
        .collect()
}

/// What an arena's journal says, once checked to be one history.
#[derive(Debug, Default)]
pub struct History {
    /// Each player's name by their id.
    pub names: BTreeMap<String, String>,
    /// The games paired, by number: pale and dark.
    pub paired: BTreeMap<u64, [String; 2]>,
    /// The games still being played.
    pub playing: BTreeSet<u64>,
    /// Each player's score and counted games, by name, as the scoring rules give them for the
    /// wins and losses in the journal (the tests that use this have no draw nor berserk).
    pub scores: BTreeMap<String, (u64, u64)>,
    /// Whether it started.
    pub started: bool,
}

/// Reads an arena's journal as one history, and panics where it is not: a game number paired
/// twice or out of turn, a player paired while in a game, a game ended twice or never paired,
/// a player joined twice, a start twice.
pub fn history(journal: &[Value]) -> History {
    let mut h = History::default();
    // Each player's results, in order (true: a win), for their fire.
    let mut results: BTreeMap<String, Vec<bool>> = BTreeMap::new();
    let mut in_game: BTreeSet<String> = BTreeSet::new();
    for event in journal {
        let player = || event["player"].as_str().unwrap().to_owned();
        match event["e"].as_str().unwrap() {
            "joined" => {
                let name = event["name"].as_str().unwrap().to_owned();
                let joined = h.names.insert(player(), name.clone());
                assert!(joined.is_none(), "joined twice: {event} in {journal:?}");
                h.scores.insert(name, (0, 0));
            }
            "started" => {
                assert!(!h.started, "started twice: {journal:?}");
                h.started = true;
            }
            "paired" => {
                let no = event["game"].as_u64().unwrap();
                let next = h.paired.len() as u64 + 1;
                assert_eq!(no, next, "game {no} paired out of turn (or twice): {journal:?}");
                let pale = event["pale"].as_str().unwrap().to_owned();
                let dark = event["dark"].as_str().unwrap().to_owned();
                for p in [&pale, &dark] {
                    assert!(in_game.insert(p.clone()), "{p} paired in two games: {journal:?}");
                }
                h.paired.insert(no, [pale, dark]);
                h.playing.insert(no);
            }
            "game-ended" => {
                let no = event["game"].as_u64().unwrap();
                assert!(h.playing.remove(&no), "game {no} ended twice or unpaired: {journal:?}");
                let [pale, dark] = h.paired[&no].clone();
                in_game.remove(&pale);
                in_game.remove(&dark);
                let verdict = &event["verdict"];
                let pale_won = match verdict["code"].as_str().unwrap() {
                    "won" => verdict["winner"] == "white",
                    "no-first-move" => verdict["idle"] == "black",
                    "cancelled" => continue,
                    other => panic!("a verdict these tests do not score: {other}"),
                };
                for (p, won) in [(pale, pale_won), (dark, !pale_won)] {
                    let past = results.entry(p.clone()).or_default();
                    let on_fire = past.len() >= 2 && past[past.len() - 2..].iter().all(|w| *w);
                    past.push(won);
                    let points = match (won, on_fire) {
                        (true, true) => 4,
                        (true, false) => 2,
                        (false, _) => 0,
                    };
                    let score = h.scores.get_mut(&h.names[&p]).unwrap();
                    *score = (score.0 + points, score.1 + 1);
                }
            }
            "first-moved" | "paused" | "resumed" | "left" | "finished" => {}
            other => panic!("an event these tests do not read: {other}"),
        }
    }
    h
}

/// Each player's score and counted games in `standings`, by name.
pub fn scores_in(standings: &Value) -> BTreeMap<String, (u64, u64)> {
    let rows = standings["d"]["top"].as_array().unwrap();
    rows.iter()
        .map(|r| {
            let name = r["name"].as_str().unwrap().to_owned();
            (name, (r["score"].as_u64().unwrap(), r["games"].as_u64().unwrap()))
        })
        .collect()
}
