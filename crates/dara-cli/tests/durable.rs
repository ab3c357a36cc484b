//! Live games survive a crash and a restart: `dara serve` as a real process on its own data
//! directory, killed with SIGKILL in the middle of games or stopped with SIGTERM, then started
//! again on the same directory, with players on real sockets who carry on where they were.

mod stopping;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// A `dara serve` process keeping its games in `data`.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(data: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dara"))
            .args(["serve", "--listen", "127.0.0.1:0", "--instant-computer"])
            .args(["--games-per-address", "1000", "--connections-per-address", "1000"])
            .arg("--data-dir")
            .arg(data)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .stdin(Stdio::null())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let line = lines.next().expect("the server starts").unwrap();
        let addr = line.split("served at http://").nth(1).unwrap().split('/').next().unwrap();
        // Nothing more is printed; the pipe is let go.
        Server { child, addr: addr.parse().unwrap() }
    }

    /// `kill -9`: no warning, nothing flushed that was not already.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A data directory of the test's own, removed afterwards.
struct DataDir(PathBuf);

impl DataDir {
    fn new(name: &str) -> DataDir {
        let dir = std::env::temp_dir().join(format!("dara-durable-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        DataDir(dir)
    }
}

impl Drop for DataDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `POST path` with a JSON body; the answer's JSON.
fn post(addr: SocketAddr, path: &str, body: &Value) -> Value {
    let body = body.to_string();
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {answer}"))
}

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// One seat's socket, or a watcher's.
struct Seat {
    ws: Socket,
}

impl Seat {
    /// Connects to `game` with `token`, says hello (asking for a snapshot) and gives it.
    fn hello(addr: SocketAddr, game: &str, token: Option<&str>) -> std::io::Result<(Seat, Value)> {
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

    fn send(&mut self, msg: &Value) -> std::io::Result<()> {
        self.ws.send(Message::text(msg.to_string())).map_err(std::io::Error::other)
    }

    fn next(&mut self) -> std::io::Result<Value> {
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
    fn until(&mut self, wanted: impl Fn(&Value) -> bool) -> std::io::Result<Value> {
        loop {
            let msg = self.next()?;
            if wanted(&msg) {
                return Ok(msg);
            }
        }
    }
}

/// What a game's two players know of it.
struct Known {
    /// Every turn the server acknowledged, in order.
    moves: Vec<String>,
    legal: Vec<String>,
    side: String,
    ended: bool,
}

impl Known {
    fn from_snapshot(snapshot: &Value) -> Known {
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

/// Where the server is now (it moves to another port at each restart).
type Current = Arc<Mutex<SocketAddr>>;

/// Both seats of one game, connected to the server that is up now: retried until one is.
fn reconnect(current: &Current, game: &str, tokens: &[String; 2]) -> (Seat, Seat, Value) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let addr = *current.lock().unwrap();
        let both = Seat::hello(addr, game, Some(&tokens[0])).and_then(|(white, snapshot)| {
            Ok((white, Seat::hello(addr, game, Some(&tokens[1]))?.0, snapshot))
        });
        match both {
            Ok(seats) => return seats,
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
fn play_game(
    current: Current,
    seed: u64,
    length: usize,
    acked: Arc<AtomicUsize>,
) -> (Vec<String>, String) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let addr = *current.lock().unwrap();
    let created = post(addr, "/api/games", &json!({"opponent": "friend", "first": "me"}));
    let game = created["game"].as_str().unwrap().to_owned();
    let white_token = created["seat"].as_str().unwrap().to_owned();
    // The friend opens the invite link and joins.
    let (mut black, _) = Seat::hello(addr, &game, None).unwrap();
    black.send(&json!({"t": "join"})).unwrap();
    let joined = black.until(|m| m["t"] == "joined").unwrap();
    let tokens = [white_token, joined["d"]["seat"].as_str().unwrap().to_owned()];
    drop(black);

    let (mut white, mut black, snapshot) = reconnect(&current, &game, &tokens);
    let mut known = Known::from_snapshot(&snapshot);
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
                other.until(|m| m["t"] == "end")?;
                known.ended = true;
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
                        return Ok(true);
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
                known = kept;
            }
        }
    }
    // The record, from a fresh look at the game (retried across one more restart, if any).
    let (mut white, _black, snapshot) = reconnect(&current, &game, &tokens);
    let end = &snapshot["d"]["end"];
    assert!(!end.is_null(), "game {game} has ended: {snapshot}");
    let kept = Known::from_snapshot(&snapshot);
    assert!(kept.moves.starts_with(&known.moves) && kept.moves.len() == known.moves.len());
    let _ = white.ws.close(None);
    (known.moves, end["record"].as_str().unwrap().to_owned())
}

/// Twenty games over real sockets while the server is killed with SIGKILL at random moments
/// and started again on the same data: every game goes on to its end, every acknowledged turn
/// is kept once, and every record replays through the rules.
#[test]
fn games_survive_kill_9_at_random_moments() {
    let data = DataDir::new("kill");
    let mut server = Server::start(&data.0);
    let current: Current = Arc::new(Mutex::new(server.addr));
    let acked = Arc::new(AtomicUsize::new(0));
    let mut rng = SmallRng::seed_from_u64(11);
    let games: Vec<_> = (0..20)
        .map(|i| {
            let (current, acked) = (current.clone(), acked.clone());
            let length = rng.gen_range(20..70);
            std::thread::spawn(move || play_game(current, 1000 + i, length, acked))
        })
        .collect();
    // Kills at random numbers of acknowledged turns, so they land while games are going on.
    let mut kills = 0;
    for threshold in [rng.gen_range(30..150), rng.gen_range(200..350), rng.gen_range(400..550)] {
        let deadline = Instant::now() + Duration::from_secs(30);
        while acked.load(Ordering::Relaxed) < threshold && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(rng.gen_range(1..5)));
        }
        if games.iter().all(|g| g.is_finished()) {
            break;
        }
        server.kill();
        kills += 1;
        server = Server::start(&data.0);
        *current.lock().unwrap() = server.addr;
    }
    assert!(kills >= 2, "the server was killed while games went on ({kills} times)");
    for game in games {
        let (moves, record) = game.join().unwrap();
        let replayed: dara::record::Record =
            record.parse().unwrap_or_else(|e| panic!("{e:?}: {record}"));
        let texts: Vec<String> = replayed.moves().iter().map(ToString::to_string).collect();
        assert_eq!(texts, moves, "the record holds exactly the acknowledged turns");
    }
}

/// SIGTERM with live sockets and a half-open request: every socket hears 1012, the process
/// exits within 5 s, and a new process on the same data takes up every game: a game between
/// people where each acknowledged turn is kept, and a game against the computer, which
/// answers again.
#[test]
fn after_sigterm_a_new_process_takes_up_every_game() {
    let data = DataDir::new("term");
    let mut server = Server::start(&data.0);
    let addr = server.addr;
    let mut sockets = Vec::new();
    let mut people = Vec::new();
    for _ in 0..3 {
        let created = post(addr, "/api/games", &json!({"opponent": "friend", "first": "me"}));
        let game = created["game"].as_str().unwrap().to_owned();
        let (mut white, _) = Seat::hello(addr, &game, created["seat"].as_str()).unwrap();
        let (mut black, _) = Seat::hello(addr, &game, None).unwrap();
        black.send(&json!({"t": "join"})).unwrap();
        let dark =
            black.until(|m| m["t"] == "joined").unwrap()["d"]["seat"].as_str().unwrap().to_owned();
        for (white_moves, id, m) in [(true, 1, "c3"), (false, 1, "d3"), (true, 2, "a1")] {
            let seat = if white_moves { &mut white } else { &mut black };
            seat.send(&json!({"t": "move", "d": {"id": id, "m": m}})).unwrap();
            seat.until(|msg| msg["t"] == "accepted").unwrap();
        }
        people.push((game, created["seat"].as_str().unwrap().to_owned(), dark));
        sockets.extend([white, black]);
    }
    let created =
        post(addr, "/api/games", &json!({"opponent": "computer", "level": 1, "first": "me"}));
    let computer_game = created["game"].as_str().unwrap().to_owned();
    let pale = created["seat"].as_str().unwrap().to_owned();
    let (mut player, _) = Seat::hello(addr, &computer_game, Some(&pale)).unwrap();
    player.send(&json!({"t": "move", "d": {"id": 1, "m": "c3"}})).unwrap();
    player.until(|m| m["t"] == "move" && m["d"]["ply"] == 2).unwrap();
    sockets.push(player);
    let mut half_open = TcpStream::connect(addr).unwrap();
    half_open.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();

    stopping::terminate_with_1012(&mut server.child, sockets.iter_mut().map(|seat| &mut seat.ws));

    let server = Server::start(&data.0);
    let addr = server.addr;
    for (game, pale, dark) in &people {
        let (mut white, snapshot) = Seat::hello(addr, game, Some(pale)).unwrap();
        assert_eq!(snapshot["d"]["moves"], json!(["c3", "d3", "a1"]), "{snapshot}");
        assert_eq!(snapshot["d"]["you"], "white");
        let (mut black, _) = Seat::hello(addr, game, Some(dark)).unwrap();
        black.send(&json!({"t": "move", "d": {"id": 2, "m": "f5"}})).unwrap();
        let answer = black.until(|m| m["t"] == "accepted" || m["t"] == "rejected").unwrap();
        assert_eq!(answer["t"], "accepted", "{answer}");
        white.until(|m| m["t"] == "move" && m["d"]["ply"] == 4).unwrap();
    }
    let (mut player, snapshot) = Seat::hello(addr, &computer_game, Some(&pale)).unwrap();
    assert_eq!(snapshot["d"]["moves"].as_array().unwrap().len(), 2, "{snapshot}");
    let legal = snapshot["d"]["pos"]["legal"][0].as_str().unwrap().to_owned();
    player.send(&json!({"t": "move", "d": {"id": 2, "m": legal}})).unwrap();
    // The computer answers in the game taken up.
    player.until(|m| m["t"] == "move" && m["d"]["ply"] == 4).unwrap();
}

/// One server per data directory: a second is refused at once, saying why, and the first
/// says where it keeps its games.
#[test]
fn a_second_server_on_the_same_data_is_refused() {
    let data = DataDir::new("lock");
    let _first = Server::start(&data.0);
    let second = Command::new(env!("CARGO_BIN_EXE_dara"))
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(&data.0)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!second.status.success());
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(said.contains("another dara server is using the data directory"), "{said}");
    let memory = Command::new(env!("CARGO_BIN_EXE_dara"))
        .args(["serve", "--memory-only", "--data-dir", "x"])
        .output()
        .unwrap();
    assert!(!memory.status.success(), "--memory-only and --data-dir contradict each other");
}
