//! Players over real sockets, shared by the tests that stop, kill and restart servers: they
//! create games, join them, play random legal turns and reconnect whenever a server goes,
//! checking each time that every acknowledged turn is kept once.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// `POST path` with a JSON body; the answer's JSON.
pub fn post(addr: SocketAddr, path: &str, body: &Value) -> Value {
    post_status(addr, path, body).1
}

/// `POST path` with a JSON body: the status code and the answer's JSON.
pub fn post_status(addr: SocketAddr, path: &str, body: &Value) -> (u16, Value) {
    let (code, answer) = post_raw(addr, path, body, Duration::from_secs(10));
    (code, serde_json::from_str(&answer).unwrap_or_else(|e| panic!("{e}: {answer}")))
}

/// `POST path` with a JSON body, waiting at most `patience` for the answer: the status code and
/// the answer's body, as text.
pub fn post_raw(addr: SocketAddr, path: &str, body: &Value, patience: Duration) -> (u16, String) {
    let body = body.to_string();
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(patience)).unwrap();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let code = answer.split(' ').nth(1).and_then(|code| code.parse().ok()).unwrap_or(0);
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default().to_owned();
    (code, body)
}

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// One seat's socket, or a watcher's.
pub struct Seat {
    /// The socket.
    pub ws: Socket,
}

impl Seat {
    /// Connects to `game` with `token`, says hello (asking for a snapshot) and gives it.
    pub fn hello(
        addr: SocketAddr,
        game: &str,
        token: Option<&str>,
    ) -> std::io::Result<(Seat, Value)> {
        let url = format!("ws://{addr}/ws/game/{game}");
        let (ws, _) = tungstenite::connect(url).map_err(std::io::Error::other)?;
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(10)))?;
        }
        let mut seat = Seat { ws };
        seat.send(&json!({"t": "hello", "d": {"protocol": 1, "seat": token, "since": null}}))?;
        let snapshot = seat.until(|m| m["t"] == "snapshot")?;
        Ok((seat, snapshot))
    }

    pub fn send(&mut self, msg: &Value) -> std::io::Result<()> {
        self.ws.send(Message::text(msg.to_string())).map_err(std::io::Error::other)
    }

    pub fn next(&mut self) -> std::io::Result<Value> {
        loop {
            match self.ws.read().map_err(std::io::Error::other)? {
                Message::Text(text) => return Ok(serde_json::from_str(text.as_str()).unwrap()),
                Message::Close(frame) => {
                    return Err(std::io::Error::other(format!("closed: {frame:?}")));
                }
                _ => {}
            }
        }
    }

    /// Reads until a message `wanted` says yes to.
    pub fn until(&mut self, wanted: impl Fn(&Value) -> bool) -> std::io::Result<Value> {
        loop {
            let msg = self.next()?;
            if wanted(&msg) {
                return Ok(msg);
            }
        }
    }
}

/// What a game's two players know of it.
pub struct Known {
    /// Every turn the server acknowledged, in order.
    moves: Vec<String>,
    legal: Vec<String>,
    side: String,
    ended: bool,
}

impl Known {
    pub fn from_snapshot(snapshot: &Value) -> Known {
        let d = &snapshot["d"];
        Known {
            moves: d["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_owned())
                .collect(),
            legal: d["pos"]["legal"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_owned())
                .collect(),
            side: d["pos"]["side"].as_str().unwrap().to_owned(),
            ended: !d["end"].is_null() || d["pos"]["legal"].as_array().unwrap().is_empty(),
        }
    }
}

/// The servers up now: one that restarts moves to another port, and a node of a cluster
/// that is killed leaves the list. Each game's two players use two of them in turn, so that in
/// a cluster their seats are on different nodes.
pub type Current = Arc<Mutex<Vec<SocketAddr>>>;

/// The servers in `addrs`, to be changed as they come and go.
pub fn current(addrs: &[SocketAddr]) -> Current {
    Arc::new(Mutex::new(addrs.to_vec()))
}

/// Both seats of one game, connected to servers that are up now: retried until they are.
/// Checks that both are shown the same game (a server serving an older life of it to one of
/// them would show fewer turns, and refuse that player's next turn as not theirs).
fn reconnect(current: &Current, game: &str, tokens: &[String; 2]) -> (Seat, Seat, Value) {
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut attempt = 0;
    loop {
        let (white_at, black_at) = {
            let up = current.lock().unwrap();
            assert!(!up.is_empty(), "no server is up");
            (up[attempt % up.len()], up[(attempt + 1) % up.len()])
        };
        attempt += 1;
        let both = Seat::hello(white_at, game, Some(&tokens[0])).and_then(|(white, snapshot)| {
            let (black, seen) = Seat::hello(black_at, game, Some(&tokens[1]))?;
            Ok((white, black, snapshot, seen))
        });
        match both {
            Ok((white, black, snapshot, seen)) => {
                let turns = |snapshot: &Value| snapshot["d"]["moves"].clone();
                assert_eq!(
                    turns(&snapshot),
                    turns(&seen),
                    "game {game}: pale was shown {white_at}'s snapshot, dark {black_at}'s"
                );
                return (white, black, snapshot);
            }
            Err(e) => {
                assert!(Instant::now() < deadline, "no server to reconnect to: {e}");
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

/// Plays one game between two people to its end, random legal turns, resigning after `length`
/// turns; reconnects whenever the server goes. Checks at every reconnect that every
/// acknowledged turn is there, once, and at most the one turn in flight besides. Gives the
/// turns played and the record.
pub fn play_game(
    current: Current,
    seed: u64,
    length: usize,
    acked: Arc<AtomicUsize>,
) -> (Vec<String>, String) {
    play_game_told(current, seed, length, acked, |_| {})
}

/// [`play_game`], telling `told` the game's id once it is created (for a watcher to follow).
pub fn play_game_told(
    current: Current,
    seed: u64,
    length: usize,
    acked: Arc<AtomicUsize>,
    told: impl FnOnce(&str),
) -> (Vec<String>, String) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let (addr, friend_at) = {
        let up = current.lock().unwrap();
        (up[seed as usize % up.len()], up[(seed as usize + 1) % up.len()])
    };
    let created = post(addr, "/api/games", &json!({"opponent": "friend", "first": "me"}));
    let game = created["game"].as_str().unwrap().to_owned();
    told(&game);
    let white_token = created["seat"].as_str().unwrap().to_owned();
    // The friend opens the invite link and joins (in a cluster, through another node).
    let (mut black, _) = Seat::hello(friend_at, &game, None).unwrap();
    black.send(&json!({"t": "join"})).unwrap();
    let joined = black.until(|m| m["t"] == "joined").unwrap();
    let tokens = [white_token, joined["d"]["seat"].as_str().unwrap().to_owned()];
    drop(black);

    let (mut white, mut black, snapshot) = reconnect(&current, &game, &tokens);
    let mut known = Known::from_snapshot(&snapshot);
    // What told the players the game had ended, for a failure to show.
    let mut ended_by = known.ended.then(|| format!("the first snapshot: {snapshot}"));
    let mut in_flight: Option<String> = None;
    let mut id = 0u64;
    loop {
        let step = (|| -> std::io::Result<bool> {
            if known.ended {
                return Ok(true);
            }
            let (mover, other) = if known.side == "white" {
                (&mut white, &mut black)
            } else {
                (&mut black, &mut white)
            };
            if known.moves.len() >= length {
                in_flight = Some("resign".into());
                mover.send(&json!({"t": "resign"}))?;
                mover.until(|m| m["t"] == "ok")?;
                let end = other.until(|m| m["t"] == "end")?;
                known.ended = true;
                ended_by = Some(format!("resigned after {length} turns: {end}"));
                return Ok(true);
            }
            let m = known.legal[rng.gen_range(0..known.legal.len())].clone();
            id += 1;
            in_flight = Some(m.clone());
            mover.send(&json!({"t": "move", "d": {"id": id, "m": m}}))?;
            let ply = known.moves.len() + 1;
            let mut accepted = false;
            let mut event = None;
            while !accepted || event.is_none() {
                let msg = mover.next()?;
                match msg["t"].as_str() {
                    Some("accepted") if msg["d"]["id"] == id => accepted = true,
                    // The rules ended the game with the turn before (an `end` came after it).
                    Some("rejected") if msg["d"]["code"] == "game-over" => {
                        known.ended = true;
                        ended_by = Some(format!("turn {m} refused: {msg}"));
                        return Ok(true);
                    }
                    // Not kept, so not played: the store cannot be reached (a cluster's Redis
                    // paused or gone). Looked at again shortly, as a page would.
                    Some("rejected") if msg["d"]["code"] == "store-unreachable" => {
                        std::thread::sleep(Duration::from_millis(200));
                        return Err(std::io::Error::other("the store cannot be reached"));
                    }
                    Some("rejected") => panic!("a random legal turn {m} was rejected: {msg}"),
                    Some("move") if msg["d"]["ply"] == ply => event = Some(msg),
                    _ => {}
                }
            }
            // The opponent hears of it too (and must read, or fall behind).
            other.until(|msg| msg["t"] == "move" && msg["d"]["ply"] == ply)?;
            known.moves.push(m);
            in_flight = None;
            acked.fetch_add(1, Ordering::Relaxed);
            let event = event.unwrap();
            let pos = &event["d"]["pos"];
            known.side = pos["side"].as_str().unwrap().to_owned();
            known.legal = pos["legal"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_owned())
                .collect();
            // No turn left: the rules ended the game (its `end` is in the final look).
            known.ended = known.legal.is_empty();
            if known.ended {
                ended_by = Some(format!("no turn left after {event}"));
            }
            Ok(false)
        })();
        match step {
            Ok(true) => break,
            Ok(false) => {}
            Err(_) => {
                // The server went: back to whichever is up, and check what it kept.
                let (w, b, snapshot) = reconnect(&current, &game, &tokens);
                (white, black) = (w, b);
                let kept = Known::from_snapshot(&snapshot);
                assert!(
                    kept.moves.starts_with(&known.moves),
                    "game {game}: acknowledged {:?}, kept {:?}",
                    known.moves,
                    kept.moves
                );
                let extra = &kept.moves[known.moves.len()..];
                assert!(
                    extra.is_empty() || (extra.len() == 1 && in_flight.as_deref() == Some(&extra[0])),
                    "game {game}: kept {extra:?} beyond what was acknowledged ({in_flight:?} in flight)"
                );
                if kept.ended {
                    ended_by = Some(format!("the snapshot after a reconnect: {snapshot}"));
                }
                known = kept;
            }
        }
    }
    // The record, from a fresh look at the game (retried across one more restart, if any).
    let (mut white, _black, snapshot) = reconnect(&current, &game, &tokens);
    let end = &snapshot["d"]["end"];
    assert!(
        !end.is_null(),
        "game {game} has ended ({}), yet now: {snapshot}",
        ended_by.as_deref().unwrap_or("?")
    );
    let kept = Known::from_snapshot(&snapshot);
    assert!(kept.moves.starts_with(&known.moves) && kept.moves.len() == known.moves.len());
    let _ = white.ws.close(None);
    (known.moves, end["record"].as_str().unwrap().to_owned())
}

/// A game between two people by invite link: created on `creator_at` (the creator takes the
/// pale stones), joined by the friend through `friend_at`.
pub struct FriendGame {
    pub game: String,
    /// The creator's seat token (pale stones) and the friend's (dark stones).
    pub tokens: [String; 2],
    pub white: Seat,
    pub black: Seat,
}

impl FriendGame {
    pub fn start(creator_at: SocketAddr, friend_at: SocketAddr) -> FriendGame {
        let created = post(creator_at, "/api/games", &json!({"opponent": "friend", "first": "me"}));
        let game = created["game"].as_str().unwrap().to_owned();
        let pale = created["seat"].as_str().unwrap().to_owned();
        let (white, _) = Seat::hello(creator_at, &game, Some(&pale)).unwrap();
        let (mut black, _) = Seat::hello(friend_at, &game, None).unwrap();
        black.send(&json!({"t": "join"})).unwrap();
        let joined = black.until(|m| m["t"] == "joined").unwrap();
        let dark = joined["d"]["seat"].as_str().unwrap().to_owned();
        FriendGame { game, tokens: [pale, dark], white, black }
    }
}

/// Waits for games played by [`play_game`] and checks that each record replays through the
/// rules crate to exactly the acknowledged turns.
pub fn check_records(games: Vec<std::thread::JoinHandle<(Vec<String>, String)>>) {
    for game in games {
        let (moves, record) = game.join().unwrap();
        check_record(&moves, &record);
    }
}

/// Checks that `record` replays through the rules crate to exactly the turns `moves`.
pub fn check_record(moves: &[String], record: &str) {
    let replayed: dara::record::Record =
        record.parse().unwrap_or_else(|e| panic!("{e:?}: {record}"));
    let texts: Vec<String> = replayed.moves().iter().map(ToString::to_string).collect();
    assert_eq!(texts, moves, "the record holds exactly the acknowledged turns");
}

/// Watches `game` through the servers up now, reconnecting whenever one goes, until it ends:
/// gives every turn seen, in order. Checks that a turn is never skipped nor seen twice, and
/// that every reconnect's snapshot keeps every turn seen before.
pub fn watch_to_the_end(current: &Current, game: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut seen: Vec<String> = Vec::new();
    for attempt in 0.. {
        assert!(Instant::now() < deadline, "game {game} did not end for its watcher");
        let addr = {
            let up = current.lock().unwrap();
            up[attempt % up.len()]
        };
        let Ok((mut watcher, snapshot)) = Seat::hello(addr, game, None) else {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        let kept = Known::from_snapshot(&snapshot).moves;
        assert!(kept.starts_with(&seen), "game {game}: seen {seen:?}, kept {kept:?}");
        seen = kept;
        if !snapshot["d"]["end"].is_null() {
            return seen;
        }
        while let Ok(msg) = watcher.next() {
            match msg["t"].as_str() {
                Some("move") => {
                    assert_eq!(msg["d"]["ply"], seen.len() + 1, "game {game}: {msg}");
                    seen.push(msg["d"]["m"].as_str().unwrap().to_owned());
                }
                Some("end") => return seen,
                _ => {}
            }
        }
    }
    unreachable!()
}
