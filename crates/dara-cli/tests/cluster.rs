//! Several Arcade nodes over one Redis: `dara serve --redis … --node-id …` as real processes
//! beside a real `redis-server` of the test's own, players on real sockets spread over the
//! nodes, and nodes killed, stopped and paused under them.

mod arenas;
mod players;
mod stopping;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use players::{play_game, post, post_status, FriendGame, Seat};
use serde_json::json;

/// A `redis-server` on a free port, in a folder of its own, with every write fsynced (as the
/// deploy example runs it).
struct Redis {
    child: Child,
    port: u16,
    dir: PathBuf,
}

impl Redis {
    fn start(name: &str) -> Redis {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let dir = std::env::temp_dir().join(format!("dara-redis-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let child = Redis::launch(port, &dir);
        Redis { child, port, dir }
    }

    /// `redis-server` on `port` in `dir`, once it answers.
    fn launch(port: u16, dir: &std::path::Path) -> Child {
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", ""])
            .args(["--appendonly", "yes", "--appendfsync", "always"])
            .arg("--dir")
            .arg(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server (Debian's redis-server package; .ci/run installs it)");
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let pong = TcpStream::connect(("127.0.0.1", port)).ok().and_then(|mut s| {
                s.write_all(b"PING\r\n").ok()?;
                let mut answer = [0u8; 7];
                s.read_exact(&mut answer).ok()?;
                Some(answer == *b"+PONG\r\n")
            });
            if pong == Some(true) {
                break;
            }
            assert!(Instant::now() < deadline, "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        child
    }

    /// Kills Redis as a crash would (SIGKILL): what it acknowledged is in its append-only
    /// file, fsynced.
    fn crash(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Pauses Redis (SIGSTOP): its sockets stay open, and nothing it is sent is answered.
    fn pause(&self) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-STOP", &pid]).status().unwrap().success());
    }

    /// Wakes a paused Redis (SIGCONT).
    fn resume(&self) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-CONT", &pid]).status().unwrap().success());
    }

    /// Starts Redis again on its port, from its folder (its append-only file).
    fn restart(&mut self) {
        let again = Redis::launch(self.port, &self.dir);
        self.child = again;
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Every key Redis holds, as `KEYS *` lists them.
    fn keys(&self) -> String {
        self.command("KEYS *")
    }

    /// Redis's answer to `command` (inline, as typed at `redis-cli`), as it says it.
    fn command(&self, command: &str) -> String {
        redis_command(self.port, command)
    }
}

/// The answer of the Redis on `port` to `command` (inline, as typed at `redis-cli`). A line or
/// a bulk string is read as soon as it has come; anything else (an array) until Redis has been
/// silent for 300 ms.
fn redis_command(port: u16, command: &str) -> String {
    let s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_millis(300))).unwrap();
    (&s).write_all(format!("{command}\r\n").as_bytes()).unwrap();
    let mut reader = BufReader::new(&s);
    let mut answer = String::new();
    let _ = reader.read_line(&mut answer);
    match answer.strip_prefix('$').and_then(|n| n.trim_end().parse::<usize>().ok()) {
        Some(len) => {
            let mut bulk = vec![0u8; len + 2];
            let _ = reader.read_exact(&mut bulk);
            answer.push_str(&String::from_utf8_lossy(&bulk));
        }
        None if answer.starts_with('*') => {
            let mut rest = Vec::new();
            let _ = reader.read_to_end(&mut rest);
            answer.push_str(&String::from_utf8_lossy(&rest));
        }
        None => {}
    }
    answer
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One node of the cluster.
struct Node {
    child: Child,
    addr: SocketAddr,
}

impl Node {
    fn start(redis: &Redis, name: &str) -> Node {
        Node::start_with(redis, name, &["--games-per-address", "1000"])
    }

    fn start_with(redis: &Redis, name: &str, args: &[&str]) -> Node {
        Node::start_release(env!("CARGO_BIN_EXE_dara").as_ref(), redis, name, args)
    }

    /// A node run by the `dara` binary at `dara` (this release's, or the previous one's).
    fn start_release(dara: &std::path::Path, redis: &Redis, name: &str, args: &[&str]) -> Node {
        Node::start_at(dara, &redis.url(), name, args)
    }

    /// A node run by the `dara` binary at `dara`, with its Redis at `url`.
    fn start_at(dara: &std::path::Path, url: &str, name: &str, args: &[&str]) -> Node {
        let mut child = Command::new(dara)
            .args(["serve", "--listen", "127.0.0.1:0", "--instant-computer"])
            .args(["--connections-per-address", "1000"])
            .args(args)
            .args(["--redis", url, "--node-id", name])
            .env("RUST_LOG", std::env::var("DARA_NODE_LOG").unwrap_or_else(|_| "warn".into()))
            .stdout(Stdio::piped())
            .stderr(if std::env::var_os("DARA_NODE_LOG").is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdin(Stdio::null())
            .spawn()
            .unwrap();
        // Each line of a node's log named with its node, as the nodes of a test write at once.
        if let Some(log) = child.stderr.take() {
            let name = name.to_owned();
            std::thread::spawn(move || {
                for line in BufReader::new(log).lines().map_while(Result::ok) {
                    eprintln!("[{name}] {line}");
                }
            });
        }
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let line = lines.next().expect("the node starts").unwrap();
        let addr = line.split("served at http://").nth(1).unwrap().split('/').next().unwrap();
        Node { child, addr: addr.parse().unwrap() }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn signal(&self, signal: &str) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args([signal, &pid]).status().unwrap().success());
    }

    /// SIGSTOP, and waits until every thread of the node has stopped: the signal is only
    /// delivered as each thread next runs, which on a busy machine may be a while.
    fn pause(&self) {
        self.signal("-STOP");
        let tasks = format!("/proc/{}/task", self.child.id());
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let stopped = std::fs::read_dir(&tasks).unwrap().flatten().all(|task| {
                let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
                let state =
                    stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().next());
                matches!(state, Some("T" | "t"))
            });
            if stopped {
                return;
            }
            assert!(Instant::now() < deadline, "the node did not stop");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        // A paused node is woken first, or SIGKILL would wait; a node already gone is fine.
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-CONT", &pid]).stderr(Stdio::null()).status();
        self.kill();
    }
}

/// `GET path`: the status code and the body (0 and what came, if the answer broke off).
fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let code = answer.split(' ').nth(1).and_then(|code| code.parse().ok()).unwrap_or(0);
    (code, answer.split("\r\n\r\n").nth(1).unwrap_or_default().to_owned())
}

/// `GET path`: the status code.
fn status(addr: SocketAddr, path: &str) -> u16 {
    get(addr, path).0
}

/// Games whose two seats are on different nodes (a third node watching one), while the node
/// that runs a third of them is killed with SIGKILL: every game goes on, on another node, to
/// its end, with every acknowledged turn kept once, and every record replays.
#[test]
fn games_span_nodes_and_outlive_a_killed_node() {
    let redis = Redis::start("kill");
    let mut nodes: Vec<Node> = ["n1", "n2", "n3"].iter().map(|n| Node::start(&redis, n)).collect();
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    let current = players::current(&addrs);
    let acked = Arc::new(AtomicUsize::new(0));
    // Game `i` is created on node `i % 3` and joined through node `i + 1`.
    let games: Vec<_> = (0..9u64)
        .map(|i| {
            let (current, acked) = (current.clone(), acked.clone());
            std::thread::spawn(move || play_game(current, i, 30 + 4 * i as usize, acked))
        })
        .collect();
    while acked.load(Ordering::Relaxed) < 60 {
        std::thread::sleep(Duration::from_millis(5));
    }
    let killed_at = Instant::now();
    nodes[0].kill();
    current.lock().unwrap().retain(|a| *a != addrs[0]);
    players::check_records(games);
    eprintln!("every game finished {:?} after the kill", killed_at.elapsed());
}

/// Redis paused (SIGSTOP) twice for longer than a node's lease, while games go on with their
/// seats on different nodes of three: every node's liveness lapses, and every write in flight
/// waits or fails. Every game keeps one history (each acknowledged turn once, nothing played
/// that was not acknowledged but the turn in flight) and goes on to its end.
///
/// It found a node that never knew it had lapsed: its renewal, sent while Redis was stopped,
/// ran when Redis woke, after another node had taken its games, and said "still alive"; the
/// node kept serving those games' sockets, which then heard none of their turns.
#[test]
fn games_keep_one_history_through_redis_paused_twice() {
    let redis = Redis::start("stopped");
    let nodes: Vec<Node> = ["s1", "s2", "s3"].iter().map(|n| Node::start(&redis, n)).collect();
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    let current = players::current(&addrs);
    let acked = Arc::new(AtomicUsize::new(0));
    let games: Vec<_> = (0..6u64)
        .map(|i| {
            let (current, acked) = (current.clone(), acked.clone());
            std::thread::spawn(move || play_game(current, 100 + i, 40 + 2 * i as usize, acked))
        })
        .collect();
    let played = |n: usize| {
        let deadline = Instant::now() + Duration::from_secs(60);
        while acked.load(Ordering::Relaxed) < n {
            assert!(Instant::now() < deadline, "the games stopped at {n} turns");
            std::thread::sleep(Duration::from_millis(5));
        }
    };
    played(30);
    // And a game on a minute's clock, pale to move once both have made their first move: the
    // time Redis is stopped is nobody's.
    let created = post(
        addrs[0],
        "/api/games",
        &json!({"opponent": "friend", "first": "me", "clock": {"initial": 60, "increment": 0}}),
    );
    let clocked = created["game"].as_str().unwrap().to_owned();
    let (mut pale, _) = Seat::hello(addrs[0], &clocked, created["seat"].as_str()).unwrap();
    let (mut dark, _) = Seat::hello(addrs[1], &clocked, None).unwrap();
    dark.send(&json!({"t": "join"})).unwrap();
    dark.until(|m| m["t"] == "joined").unwrap();
    open_with_two_turns(&mut pale, &mut dark);
    drop((pale, dark));
    for _ in 0..2 {
        let before = acked.load(Ordering::Relaxed);
        redis.pause();
        std::thread::sleep(Duration::from_secs(7));
        redis.resume();
        played(before + 12);
    }
    players::check_records(games);
    let deadline = Instant::now() + Duration::from_secs(20);
    let snapshot = loop {
        match Seat::hello(addrs[2], &clocked, created["seat"].as_str()) {
            Ok((_, snapshot)) => break snapshot,
            Err(e) => {
                assert!(Instant::now() < deadline, "the clocked game was never served again: {e}");
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    };
    let d = &snapshot["d"];
    assert!(d["end"].is_null(), "{d}");
    let left = d["clock"]["white"].as_u64().unwrap_or_else(|| panic!("{d}"));
    assert!(left >= 55_000, "pale's clock ran while Redis was stopped: {left} ms left");
}

/// A node that has not heard back from Redis for a lease may have lapsed without knowing it,
/// and another node taken its games: it serves none of them, not even the snapshot of a game it
/// runs, until its renewal comes back. Then the game is served as Redis keeps it. (It used to
/// serve the life it ran: in the paused-twice test, a reconnecting player got an older snapshot
/// than the game going on elsewhere.)
#[test]
fn a_node_unsure_it_is_alive_serves_no_game() {
    let redis = Redis::start("unsure");
    let node = Node::start(&redis, "unsure");
    let FriendGame { game, tokens: [pale, _], mut white, mut black } =
        FriendGame::start(node.addr, node.addr);
    open_with_two_turns(&mut white, &mut black);

    redis.pause();
    std::thread::sleep(LEASE + Duration::from_secs(1));
    let refused = Seat::hello(node.addr, &game, Some(&pale)).map(|(_, snapshot)| snapshot);
    redis.resume();
    let why = refused.expect_err("a node unsure it is alive served a game");
    assert!(why.to_string().contains("cannot be reached just now"), "{why}");

    let deadline = Instant::now() + Duration::from_secs(20);
    let snapshot = loop {
        match Seat::hello(node.addr, &game, Some(&pale)) {
            Ok((_, snapshot)) => break snapshot,
            Err(e) => {
                assert!(Instant::now() < deadline, "the game was never served again: {e}");
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    };
    assert_eq!(snapshot["d"]["moves"], json!(["c3", "d3"]), "{snapshot}");
}

/// A watcher on a third node sees every turn of a game whose players are on the other two.
#[test]
fn a_watcher_on_a_third_node_sees_every_turn() {
    let redis = Redis::start("watch");
    let nodes: Vec<Node> = ["a", "b", "c"].iter().map(|n| Node::start(&redis, n)).collect();
    let FriendGame { game, mut white, mut black, .. } =
        FriendGame::start(nodes[0].addr, nodes[1].addr);
    let (mut watcher, snapshot) = Seat::hello(nodes[2].addr, &game, None).unwrap();
    assert!(snapshot["d"]["you"].is_null(), "{snapshot}");
    let mut legal: Vec<String> =
        serde_json::from_value(snapshot["d"]["pos"]["legal"].clone()).unwrap();
    let mut played = Vec::new();
    for ply in 1..=12u64 {
        let mover = if ply % 2 == 1 { &mut white } else { &mut black };
        let m = legal[(ply as usize * 7) % legal.len()].clone();
        mover.send(&json!({"t": "move", "d": {"id": ply, "m": m}})).unwrap();
        let event = mover.until(|msg| msg["t"] == "move" && msg["d"]["ply"] == ply).unwrap();
        legal = serde_json::from_value(event["d"]["pos"]["legal"].clone()).unwrap();
        let seen = watcher.until(|msg| msg["t"] == "move" && msg["d"]["ply"] == ply).unwrap();
        assert_eq!(seen["d"]["m"], json!(m), "{seen}");
        played.push(m);
    }
    // A player's own node and the others agree on the game.
    let (_, again) = Seat::hello(nodes[2].addr, &game, None).unwrap();
    assert_eq!(again["d"]["moves"], json!(played));
}

/// An arena on three nodes: made on one (which pairs it), its players joining through every
/// node and watching the standings on the two others, its games played through any node. Then
/// its node is killed (SIGKILL) mid-arena: another node takes it up from Redis, with its
/// standings as they were; a game being played goes on on another node and its end is counted;
/// and its players are paired again.
#[test]
fn an_arena_outlives_its_killed_node() {
    use arenas::{ask, score_of, token, ArenaSocket};

    let redis = Redis::start("arena");
    let mut nodes: Vec<Node> = ["r1", "r2", "r3"].iter().map(|n| Node::start(&redis, n)).collect();
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    let (code, made) = ask(
        addrs[0],
        "/api/arenas",
        &json!({ "clock": { "initial": 180, "increment": 2 }, "minutes": 30 }),
    );
    assert_eq!(code, 201, "{made}");
    let arena = made["arena"].as_str().unwrap().to_owned();
    let names = ["Ama", "Kofi", "Ngozi", "Tunde"];
    for (n, name) in names.iter().enumerate() {
        let path = format!("/api/arenas/{arena}/join");
        let (code, why) = ask(addrs[n % 3], &path, &json!({ "player": token(n), "name": name }));
        assert_eq!(code, 204, "{name} joins through node {}: {why}", n % 3);
    }
    // A refusal comes back from the arena's node as the arena said it.
    let again = json!({ "player": token(1), "name": "Kofi" });
    let (code, why) = ask(addrs[2], &format!("/api/arenas/{arena}/join"), &again);
    assert_eq!((code, why["code"].as_str()), (409, Some("already-joined")), "{why}");
    let start = format!("/api/arenas/{arena}/start");
    assert_eq!(ask(addrs[1], &start, &json!({ "secret": "not-the-secret" })).0, 403);
    let (code, why) = ask(addrs[1], &start, &json!({ "secret": made["secret"] }));
    assert_eq!(code, 204, "the maker starts it through another node: {why}");

    // The players watch on the nodes that do not hold the arena.
    let mut watchers: Vec<ArenaSocket> =
        (0..4).map(|n| ArenaSocket::hello(addrs[1 + n % 2], &arena, Some(n))).collect();
    let mut seats: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for (n, watcher) in watchers.iter_mut().enumerate() {
        let game = watcher.game_other_than(None);
        let id = game["id"].as_str().unwrap().to_owned();
        assert_eq!(game["url"], format!("/g/{id}#seat={}", token(n)), "{game}");
        seats.entry(id).or_default().insert(game["colour"].as_str().unwrap().to_owned(), n);
    }
    assert_eq!(seats.len(), 2, "four players, two games: {seats:?}");
    let games: Vec<String> = seats.keys().cloned().collect();
    let (first, second) = (&seats[&games[0]], &seats[&games[1]]);
    let seat = |addr: SocketAddr, game: &str, n: usize| {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            match Seat::hello(addr, game, Some(&token(n))) {
                Ok((seat, _)) => return seat,
                Err(e) => {
                    assert!(Instant::now() < deadline, "game {game} was never served: {e}");
                    std::thread::sleep(Duration::from_millis(200));
                }
            }
        }
    };

    // The second begins (its first turns made at once: a game with none is called off), and
    // goes on when its node dies.
    let mut white = seat(addrs[2], &games[1], second["white"]);
    let mut black = seat(addrs[2], &games[1], second["black"]);
    open_with_two_turns(&mut white, &mut black);
    drop((white, black));
    // The first game is played to its end through another node: dark resigns.
    let mut white = seat(addrs[1], &games[0], first["white"]);
    let mut black = seat(addrs[2], &games[0], first["black"]);
    open_with_two_turns(&mut white, &mut black);
    black.send(&json!({ "t": "resign" })).unwrap();
    black.until(|m| m["t"] == "end").unwrap();
    drop((white, black));
    let mut anyone = ArenaSocket::hello(addrs[2], &arena, None);
    let standings = anyone.until(|s| {
        let rows = s["d"]["top"].as_array().unwrap();
        rows.iter().filter(|r| r["games"] == 1).count() == 2
    });
    assert_eq!(score_of(&standings, names[first["white"]]), 2, "{standings}");
    assert_eq!(score_of(&standings, names[first["black"]]), 0, "{standings}");

    let killed_at = Instant::now();
    nodes[0].kill();
    // The second game is taken up by another node, and pale resigns there.
    let mut white = seat(addrs[2], &games[1], second["white"]);
    white.send(&json!({ "t": "resign" })).unwrap();
    white.until(|m| m["t"] == "end").unwrap();
    // Its end is counted by the arena's new node, the standings as they were besides.
    let standings = anyone.until(|s| {
        let rows = s["d"]["top"].as_array().unwrap();
        rows.iter().filter(|r| r["games"] == 1).count() == 4
    });
    eprintln!("the arena counted a game {:?} after its node was killed", killed_at.elapsed());
    assert_eq!(score_of(&standings, names[first["white"]]), 2, "{standings}");
    assert_eq!(score_of(&standings, names[second["black"]]), 2, "{standings}");
    assert_eq!(score_of(&standings, names[second["white"]]), 0, "{standings}");
    assert_eq!(standings["d"]["phase"], "running", "{standings}");
    // Its players are paired again, by the node that holds it now.
    for n in [second["white"], second["black"]] {
        let next = watchers[n].game_other_than(Some(&games[1]));
        let id = next["id"].as_str().unwrap();
        assert_eq!(next["url"], format!("/g/{id}#seat={}", token(n)), "{next}");
        let (_, snapshot) = Seat::hello(addrs[1], id, Some(&token(n))).unwrap();
        assert_eq!(snapshot["t"], "snapshot", "{snapshot}");
    }
    // The player's own row came with each standings, whichever node they watch on.
    let mine = &watchers[second["black"]].last["d"]["mine"];
    assert_eq!(mine["score"], 2, "{mine}");
    // The schedule's arenas, which every node makes, are made once for the cluster (the first
    // node's taken up with the rest), and every node lists the same; the private one, none.
    let listed = |addr: SocketAddr| {
        let (code, body) = get(addr, "/api/arenas");
        assert_eq!(code, 200, "{body}");
        let listed: Vec<serde_json::Value> = serde_json::from_str(&body).unwrap();
        listed.iter().map(|a| a["id"].as_str().unwrap().to_owned()).collect::<Vec<_>>()
    };
    let ids = listed(addrs[1]);
    assert!(!ids.is_empty(), "the schedule's arenas are not listed");
    assert_eq!(ids.iter().collect::<BTreeSet<_>>().len(), ids.len(), "listed twice: {ids:?}");
    assert!(!ids.contains(&arena), "a private arena is listed: {ids:?}");
    assert_eq!(listed(addrs[2]), ids);
}

/// A node stopped with SIGTERM closes its sockets with 1012 and gives its leases up: its games
/// go on on another node at once, not when the leases would have lapsed.
#[test]
fn a_stopped_node_hands_its_games_over_at_once() {
    let redis = Redis::start("term");
    let mut first = Node::start(&redis, "first");
    let second = Node::start(&redis, "second");
    let FriendGame { game, tokens: [pale, dark], mut white, mut black } =
        FriendGame::start(first.addr, first.addr);
    white.send(&json!({"t": "move", "d": {"id": 1, "m": "c3"}})).unwrap();
    white.until(|m| m["t"] == "accepted").unwrap();

    let stopped = Instant::now();
    stopping::terminate_with_1012(&mut first.child, [&mut white.ws, &mut black.ws]);
    let (mut black, snapshot) = Seat::hello(second.addr, &game, Some(&dark)).unwrap();
    assert_eq!(snapshot["d"]["moves"], json!(["c3"]), "{snapshot}");
    black.send(&json!({"t": "move", "d": {"id": 1, "m": "d3"}})).unwrap();
    let answer = black.until(|m| m["t"] == "accepted" || m["t"] == "rejected").unwrap();
    assert_eq!(answer["t"], "accepted", "{answer}");
    let handed_over = stopped.elapsed();
    assert!(handed_over < Duration::from_secs(4), "the game moved on after {handed_over:?}");
    let (_, snapshot) = Seat::hello(second.addr, &game, Some(&pale)).unwrap();
    assert_eq!(snapshot["d"]["you"], "white");
    assert_eq!(snapshot["d"]["moves"], json!(["c3", "d3"]));
}

/// How long a node's word that it is alive lasts (`dara_server::redis::LEASE`).
const LEASE: Duration = Duration::from_secs(5);

/// The node that runs a game is paused (SIGSTOP) for three leases; within a lease and 10 s of
/// the pause another node has taken the game up and it goes on there. When the paused node
/// wakes, the turn it had been sent meanwhile is never written nor acknowledged: its lease's
/// epoch is gone. And with Redis gone, a node is not ready and acknowledges nothing.
#[test]
fn a_paused_node_cannot_write_once_another_took_its_game() {
    let redis = Redis::start("pause");
    let owner = Node::start(&redis, "owner");
    let other = Node::start(&redis, "other");
    let FriendGame { game, tokens: [pale, dark], mut white, mut black } =
        FriendGame::start(owner.addr, other.addr);
    open_with_two_turns(&mut white, &mut black);

    owner.pause();
    let paused = Instant::now();
    // Sent to the paused node: it sits unread in its socket.
    white.send(&json!({"t": "move", "d": {"id": 3, "m": "a1"}})).unwrap();
    // Once the lease has lapsed the other node takes the game up for whoever comes; until
    // then a socket is carried to the paused node, and closed once it is seen not alive.
    let served_within = LEASE + Duration::from_secs(10);
    let (mut black, snapshot) = loop {
        assert!(paused.elapsed() < served_within, "the game was not served elsewhere in time");
        match Seat::hello(other.addr, &game, Some(&dark)) {
            Ok(served) => break served,
            Err(_) => std::thread::sleep(Duration::from_millis(100)),
        }
    };
    assert_eq!(snapshot["d"]["moves"], json!(["c3", "d3"]), "{snapshot}");
    let (mut white_again, _) = Seat::hello(other.addr, &game, Some(&pale)).unwrap();
    white_again.send(&json!({"t": "move", "d": {"id": 4, "m": "f5"}})).unwrap();
    let answer = white_again.until(|m| m["t"] == "accepted" || m["t"] == "rejected").unwrap();
    assert_eq!(answer["t"], "accepted", "{answer}");
    let served = paused.elapsed();
    assert!(
        served < served_within,
        "a turn was first accepted elsewhere {served:?} after the pause"
    );
    eprintln!("the paused node's game was served elsewhere {served:?} after the pause");
    black.until(|m| m["t"] == "move" && m["d"]["ply"] == 3).unwrap();

    // Paused for three leases in all.
    if let Some(left) = (3 * LEASE).checked_sub(paused.elapsed()) {
        std::thread::sleep(left);
    }
    owner.signal("-CONT");
    // The woken node reads the old turn, cannot write it, and acknowledges nothing.
    let mut heard = Vec::new();
    while let Ok(msg) = white.next() {
        heard.push(msg);
    }
    assert!(!heard.iter().any(|m| m["t"] == "accepted"), "{heard:?}");
    std::thread::sleep(Duration::from_millis(1500));
    let (_, snapshot) = Seat::hello(other.addr, &game, Some(&pale)).unwrap();
    assert_eq!(snapshot["d"]["moves"], json!(["c3", "d3", "f5"]), "{snapshot}");

    // Without Redis nothing is acknowledged (the turn is refused, or, if it reached the game
    // before the node knew, its socket is told to reconnect), and the node is not ready.
    assert_eq!(status(other.addr, "/readyz"), 200);
    drop(redis);
    white_again.send(&json!({"t": "move", "d": {"id": 5, "m": "b2"}})).ok();
    black.send(&json!({"t": "move", "d": {"id": 5, "m": "e4"}})).ok();
    if let Ok(answer) = black.until(|m| m["t"] == "accepted" || m["t"] == "rejected") {
        assert_eq!(answer["t"], "rejected", "a turn was acknowledged without Redis: {answer}");
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    while status(other.addr, "/readyz") != 503 {
        assert!(Instant::now() < deadline, "/readyz still says ready without Redis");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The arena's journal as Redis keeps it, checked to be one history, with its tables.
fn arena_in_redis(redis: &Redis, arena: &str) -> (arenas::History, BTreeMap<u64, String>) {
    let journal =
        arenas::journal_of(&redis.command(&format!("LRANGE dara:arena:{{{arena}}}:events 0 -1")));
    let tables =
        arenas::tables_of(&redis.command(&format!("HGETALL dara:arena:{{{arena}}}:tables")));
    (arenas::history(&journal), tables)
}

/// The holder of an arena is paused (SIGSTOP) for three leases just before the arena's start,
/// with a fifth player's join waiting in its socket. Another node takes the arena up, starts it
/// and pairs it. When the paused node wakes, its start is long due and it has a join to answer:
/// it must pair nobody, open no table, tell no player of a game, and acknowledge no join it
/// could not keep (its lease's epoch is gone). Seen from outside: the journal in Redis is one
/// history, every game any socket was told of is one of its tables, every game in Redis is one
/// of them too, the join is in the journal if and only if it was acknowledged, the players are
/// paired again after a game ends, and every node shows the scores the journal gives.
#[test]
fn a_paused_arena_holder_cannot_pair_once_another_took_it() {
    use arenas::{ask, scores_in, token, ArenaSocket};

    let redis = Redis::start("arena-pause");
    let holder = Node::start(&redis, "p1");
    let others: Vec<Node> = ["p2", "p3"].iter().map(|n| Node::start(&redis, n)).collect();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
    // It starts in 10 s: the joins and the pause come well before.
    let starts = u64::try_from(now.as_millis()).unwrap() + 10_000;
    let (code, made) = ask(
        holder.addr,
        "/api/arenas",
        &json!({ "clock": { "initial": 180, "increment": 2 }, "minutes": 30, "starts": starts }),
    );
    assert_eq!(code, 201, "{made}");
    let arena = made["arena"].as_str().unwrap().to_owned();
    let join = format!("/api/arenas/{arena}/join");
    let names = ["Ama", "Kofi", "Ngozi", "Tunde", "Zainab"];
    for (n, name) in names.iter().enumerate().take(4) {
        let (code, why) = ask(holder.addr, &join, &json!({ "player": token(n), "name": name }));
        assert_eq!(code, 204, "{name} joins: {why}");
    }
    // Two players watch on the holder, two elsewhere; each has heard the standings.
    let mut watchers: Vec<ArenaSocket> = (0..4)
        .map(|n| {
            let addr = if n < 2 { holder.addr } else { others[n % 2].addr };
            ArenaSocket::hello(addr, &arena, Some(n))
        })
        .collect();
    for watcher in &mut watchers {
        watcher.until(|s| s["d"]["players"] == 4);
    }
    let (before, _) = arena_in_redis(&redis, &arena);
    assert!(!before.started, "the arena started before its holder was paused: {before:?}");

    holder.pause();
    let paused = Instant::now();
    // The fifth player's join, sent to the paused holder: it waits unread in its socket.
    let late = {
        let (addr, join) = (holder.addr, join.clone());
        std::thread::spawn(move || {
            ask(addr, &join, &json!({ "player": token(4), "name": names[4] }))
        })
    };
    // Another node takes the arena up, starts it at its time and pairs the four.
    let mut anyone = ArenaSocket::hello(others[0].addr, &arena, None);
    anyone.until(|s| {
        s["d"]["phase"] == "running" && s["d"]["playing"].as_array().unwrap().len() == 2
    });
    let (taken, _) = arena_in_redis(&redis, &arena);
    assert_eq!(taken.paired.len(), 2, "{taken:?}");
    // Paused three leases in all, and past the start it had due.
    if let Some(left) = (3 * LEASE).checked_sub(paused.elapsed()) {
        std::thread::sleep(left);
    }
    holder.signal("-CONT");
    let (code, why) = late.join().unwrap();
    eprintln!("the join sent to the paused holder was answered {code} {why}");

    // Every player is told of the game the new holder paired, wherever they watch.
    for watcher in &mut watchers {
        watcher.game_other_than(None);
    }
    // A game is played to its end; its players are free and paired again by the new holder.
    let (_, tables) = arena_in_redis(&redis, &arena);
    let first = &tables[&1];
    let (players, _) = arena_in_redis(&redis, &arena);
    let [pale, dark] = players.paired[&1].clone();
    let seat_of = |id: &str| {
        let name = &players.names[id];
        names.iter().position(|n| n == name).unwrap()
    };
    let seat = |n: usize| Seat::hello(others[1].addr, first, Some(&token(n))).unwrap().0;
    let (mut white, mut black) = (seat(seat_of(&pale)), seat(seat_of(&dark)));
    open_with_two_turns(&mut white, &mut black);
    black.send(&json!({ "t": "resign" })).unwrap();
    black.until(|m| m["t"] == "end").unwrap();
    anyone.until(|s| {
        let playing = s["d"]["playing"].as_array().unwrap();
        playing.iter().any(|g| g["game"].as_u64() > Some(2))
    });

    // One history: the journal reads as one, and everything told or begun is in it.
    let (history, tables) = arena_in_redis(&redis, &arena);
    assert_eq!(history.paired.len(), tables.len(), "{history:?} {tables:?}");
    for watcher in &mut watchers {
        for (game, no) in &watcher.told {
            assert_eq!(tables.get(no), Some(game), "a player was told of a game the arena never paired: {game} ({no}), tables {tables:?}");
        }
    }
    let games = redis.command("KEYS dara:{*}:meta");
    let begun = games.lines().filter(|l| l.starts_with("dara:")).count();
    assert_eq!(
        begun,
        tables.len(),
        "games begun in Redis besides the arena's tables: {games} {tables:?}"
    );
    // Every node shows the scores the journal gives (the old holder's sockets find the arena
    // on the new one).
    for addr in [holder.addr, others[0].addr, others[1].addr] {
        let mut socket = ArenaSocket::hello(addr, &arena, None);
        // Read again each time: a game may end meanwhile.
        socket.until(|s| scores_in(s) == arena_in_redis(&redis, &arena).0.scores);
    }
    assert_eq!(history.scores[names[seat_of(&pale)]], (2, 1), "{history:?}");
    // The join the paused holder read on waking was acknowledged only if kept; refused, it is
    // `not-now` (the holder could not write it) and asked again succeeds.
    let joined = history.names.values().any(|n| n == names[4]);
    assert_eq!(code == 204, joined, "the late join answered {code} {why}, joined: {joined}");
    if code != 204 {
        assert_eq!((code, why["code"].as_str()), (503, Some("not-now")), "{why}");
        let again = json!({ "player": token(4), "name": names[4] });
        let (code, why) = ask(holder.addr, &join, &again);
        assert_eq!(code, 204, "{why}");
    }
}

/// Seat `n` of `game` on the node at `addr`, once a node serves the game (after a takeover it
/// may take a while).
fn arena_seat(addr: SocketAddr, game: &str, n: usize) -> Seat {
    let deadline = Instant::now() + arenas::PATIENCE;
    loop {
        match Seat::hello(addr, game, Some(&arenas::token(n))) {
            Ok((seat, _)) => return seat,
            Err(e) => {
                assert!(Instant::now() < deadline, "game {game} was never served: {e}");
                std::thread::sleep(Duration::from_millis(200));
            }
        }
    }
}

/// Plays game `no` of the arena (paired, not begun) through the node at `addr` until dark
/// resigns; `names` are the players' names, each player `n` named `names[n]`.
fn resign_arena_game(redis: &Redis, arena: &str, no: u64, addr: SocketAddr, names: &[&str]) {
    let (history, tables) = arena_in_redis(redis, arena);
    let seat_of = |id: &str| names.iter().position(|n| *n == history.names[id]).unwrap();
    let [pale, dark] = &history.paired[&no];
    let mut white = arena_seat(addr, &tables[&no], seat_of(pale));
    let mut black = arena_seat(addr, &tables[&no], seat_of(dark));
    open_with_two_turns(&mut white, &mut black);
    black.send(&json!({ "t": "resign" })).unwrap();
    black.until(|m| m["t"] == "end").unwrap();
}

/// Redis is paused (SIGSTOP) for longer than a lease mid-arena, with two players joining
/// meanwhile: one at the node that holds the arena, one at another (relayed). Each is answered
/// within the wait the protocol gives (12 s, and the test's patience is 30), either done or
/// `not-now`; when Redis is back, the arena comes back with its journal as it was, every join
/// answered done is in it and none refused, every node shows the scores it gives, and it pairs
/// again.
#[test]
fn an_arena_comes_back_after_redis_is_paused() {
    use arenas::{ask, scores_in, token, ArenaSocket};

    let redis = Redis::start("arena-redis-pause");
    let nodes: Vec<Node> = ["q1", "q2"].iter().map(|n| Node::start(&redis, n)).collect();
    let (code, made) = ask(
        nodes[0].addr,
        "/api/arenas",
        &json!({ "clock": { "initial": 180, "increment": 2 }, "minutes": 30 }),
    );
    assert_eq!(code, 201, "{made}");
    let arena = made["arena"].as_str().unwrap().to_owned();
    let join = format!("/api/arenas/{arena}/join");
    let names = ["Ama", "Kofi", "Ngozi", "Tunde", "Zainab", "Bello"];
    for (n, name) in names.iter().enumerate().take(4) {
        let (code, why) =
            ask(nodes[n % 2].addr, &join, &json!({ "player": token(n), "name": name }));
        assert_eq!(code, 204, "{name} joins: {why}");
    }
    let start = format!("/api/arenas/{arena}/start");
    let (code, why) = ask(nodes[0].addr, &start, &json!({ "secret": made["secret"] }));
    assert_eq!(code, 204, "{why}");
    // Game 1 is played to its end, its players paired again (game 3); game 2 is begun.
    let mut anyone = ArenaSocket::hello(nodes[1].addr, &arena, None);
    anyone.until(|s| s["d"]["playing"].as_array().unwrap().len() == 2);
    resign_arena_game(&redis, &arena, 1, nodes[1].addr, &names);
    let (history, tables) = arena_in_redis(&redis, &arena);
    let [pale, dark] = &history.paired[&2];
    let seat_of = |id: &str| names.iter().position(|n| *n == history.names[id]).unwrap();
    let mut white = arena_seat(nodes[1].addr, &tables[&2], seat_of(pale));
    let mut black = arena_seat(nodes[1].addr, &tables[&2], seat_of(dark));
    open_with_two_turns(&mut white, &mut black);
    drop((white, black));
    anyone.until(|s| s["d"]["playing"].as_array().unwrap().iter().any(|g| g["game"] == 3));
    let before =
        arenas::journal_of(&redis.command(&format!("LRANGE dara:arena:{{{arena}}}:events 0 -1")));

    redis.pause();
    let paused = Instant::now();
    let joins: Vec<_> = [(4, nodes[0].addr), (5, nodes[1].addr)]
        .into_iter()
        .map(|(n, addr)| {
            let join = join.clone();
            std::thread::spawn(move || {
                let asked = Instant::now();
                let answer = ask(addr, &join, &json!({ "player": token(n), "name": names[n] }));
                (n, answer, asked.elapsed())
            })
        })
        .collect();
    if let Some(left) = Duration::from_secs(7).checked_sub(paused.elapsed()) {
        std::thread::sleep(left);
    }
    redis.resume();
    let answers: Vec<_> = joins.into_iter().map(|j| j.join().unwrap()).collect();
    for (n, (code, why), took) in &answers {
        eprintln!("{}'s join while Redis was paused: {code} {why} after {took:?}", names[*n]);
        assert!(
            *code == 204 || (*code, why["code"].as_str()) == (503, Some("not-now")),
            "{}'s join: {code} {why}",
            names[*n]
        );
    }

    // It pairs again: game 3 is played to its end, and a later game is paired.
    resign_arena_game(&redis, &arena, 3, nodes[1].addr, &names);
    let mut anyone = ArenaSocket::hello(nodes[0].addr, &arena, None);
    anyone.until(|s| {
        s["d"]["playing"].as_array().unwrap().iter().any(|g| g["game"].as_u64() > Some(3))
    });
    let after =
        arenas::journal_of(&redis.command(&format!("LRANGE dara:arena:{{{arena}}}:events 0 -1")));
    assert_eq!(after[..before.len()], before[..], "the journal before the pause was changed");
    let (history, tables) = arena_in_redis(&redis, &arena);
    assert_eq!(history.paired.len(), tables.len(), "{history:?} {tables:?}");
    for (n, (code, _), _) in &answers {
        let joined = history.names.values().any(|name| name == names[*n]);
        eprintln!("{} answered {code}, joined: {joined}", names[*n]);
        assert!(*code != 204 || joined, "{}'s join was answered done and lost", names[*n]);
        // Refused, it changed nothing. At the holder itself: its write, read by Redis when it
        // woke, found the node lapsed (Redis was stopped past a lease) and was fenced. Relayed:
        // the request was never left in Redis (no connection for it could be made), or, left
        // when Redis woke, it was answered within the 12 s the asking node waits, as the
        // arena's new holder takes it up within a few seconds of Redis waking (the asking node
        // used to give up after 5 s, and the request was carried out when Redis woke).
        assert!(*code == 204 || !joined, "{}'s join was refused and done", names[*n]);
    }
    // Games 1 and 3 counted, each for its two players.
    let counted: u64 = history.scores.values().map(|(_, games)| games).sum();
    assert_eq!(counted, 4, "{history:?}");
    for node in &nodes {
        let mut socket = ArenaSocket::hello(node.addr, &arena, None);
        socket.until(|s| scores_in(s) == arena_in_redis(&redis, &arena).0.scores);
    }
}

/// `GET path`: the answer's JSON.
fn get_json(addr: SocketAddr, path: &str) -> serde_json::Value {
    let (_, body) = get(addr, path);
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// Two people who ask to play anyone on different nodes are seated at one table; a third
/// node's lobby lists the table while it waits, and forgets it once taken.
#[test]
fn play_anyone_pairs_people_on_different_nodes() {
    let redis = Redis::start("pair");
    let nodes: Vec<Node> = ["p", "q", "r"].iter().map(|n| Node::start(&redis, n)).collect();
    let seek = json!({"rules": "arcade", "clock": null, "browser": "second-browser-0001"});
    let mine = json!({"rules": "arcade", "clock": null, "browser": "first-browser-00001"});
    let first = post(nodes[0].addr, "/api/seek", &mine);
    let game = first["game"].as_str().unwrap().to_owned();
    // The table is listed once the person waiting at it is there.
    let (mut waiting, _) = Seat::hello(nodes[0].addr, &game, first["seat"].as_str()).unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    for node in &nodes {
        while get_json(node.addr, "/api/tables").as_array().unwrap().is_empty() {
            assert!(Instant::now() < deadline, "node {} does not list the table", node.addr);
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    // The same browser in another tab, through another node, is not paired with its own table:
    // it opens one of its own (listed at once, behind the first).
    let again = post(nodes[2].addr, "/api/seek", &mine);
    assert_ne!(again["game"], json!(game), "a browser paired with itself: {again}");
    let second = post(nodes[1].addr, "/api/seek", &seek);
    assert_eq!(second["game"], json!(game), "paired at the waiting table: {second}");
    assert_ne!(second["colour"], first["colour"]);
    let (mut arriving, snapshot) =
        Seat::hello(nodes[1].addr, &game, second["seat"].as_str()).unwrap();
    assert_eq!(snapshot["d"]["you"], second["colour"], "{snapshot}");
    // Whoever is white moves first; the other hears it.
    let (white, black) = if first["colour"] == "white" {
        (&mut waiting, &mut arriving)
    } else {
        (&mut arriving, &mut waiting)
    };
    white.send(&json!({"t": "move", "d": {"id": 1, "m": "c3"}})).unwrap();
    white.until(|m| m["t"] == "accepted").unwrap();
    black.until(|m| m["t"] == "move" && m["d"]["ply"] == 1).unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while get_json(nodes[2].addr, "/api/tables")
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["game"] == game)
    {
        assert!(Instant::now() < deadline, "the taken table is still listed");
        std::thread::sleep(Duration::from_millis(20));
    }
    // The third node's lobby counts the people on every node (the two players' sockets and its
    // own) and their game, in its pool.
    let (mut lobby, _) = tungstenite::connect(format!("ws://{}/ws/lobby", nodes[2].addr)).unwrap();
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = lobby.get_ref() {
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    }
    loop {
        let tungstenite::Message::Text(text) = lobby.read().unwrap() else { continue };
        let msg: serde_json::Value = serde_json::from_str(text.as_str()).unwrap();
        assert_eq!(msg["t"], "lobby", "{msg}");
        if msg["d"]["here"] == 3 && msg["d"]["playing"] == 1 {
            break;
        }
    }
}

/// Many people ask to play anyone with the same rules at the same moment, half through each
/// node. Pairing is one at a time in a pool, over Redis: each is seated once, never opposite
/// their own browser, and whoever finds nobody waiting opens a table the next seeker finds at
/// once. With every browser its own, everyone is paired (twelve at once, then two at once five
/// times); with tabs sharing a browser, the tables left waiting are one browser's.
#[test]
fn seekers_arriving_at_once_on_two_nodes_are_paired_once_each() {
    let redis = Redis::start("crowd");
    let nodes: Vec<Node> = ["c1", "c2"].iter().map(|n| Node::start(&redis, n)).collect();
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    let browsers: Vec<String> = (0..12).map(|i| format!("crowd-browser-{i:04}")).collect();
    let (seekers, _waiting) = seek_at_once(&addrs, &browsers);
    let alone = check_pairing(&seekers);
    assert!(alone.is_empty(), "tables left waiting with every browser its own: {alone:?}");
    wait_listed(&addrs, &alone);
    // Two at once, one through each node, again and again: each node alone would find nobody
    // waiting (neither has the other's table yet), so only the cluster's hold pairs them.
    for round in 0..5 {
        let browsers: Vec<String> = (0..2).map(|i| format!("two-at-once-{round}-{i:04}")).collect();
        let (seekers, _waiting) = seek_at_once(&addrs, &browsers);
        let alone = check_pairing(&seekers);
        assert!(alone.is_empty(), "two seekers missed each other: {alone:?}");
    }

    // Eight browsers of their own, and two that each seek in two tabs, one through each node.
    let mut browsers: Vec<String> = (0..8).map(|i| format!("tabs-browser-{i:04}")).collect();
    for shared in ["shared-browser-0001", "shared-browser-0002"] {
        browsers.extend([shared.to_owned(), shared.to_owned()]);
    }
    let (seekers, _waiting) = seek_at_once(&addrs, &browsers);
    let alone = check_pairing(&seekers);
    let waiting: BTreeSet<&str> = alone.iter().map(|s| s.browser.as_str()).collect();
    assert!(waiting.len() <= 1, "tables left waiting for more than one browser: {alone:?}");
    wait_listed(&addrs, &alone);
}

/// Someone who asked to play anyone, and what they were given.
#[derive(Debug)]
struct Seeker {
    browser: String,
    game: String,
    colour: String,
}

/// Every browser of `browsers` asks to play anyone with the arcade rules at the same moment
/// (the `i`th through node `i % 2`, on one of two clocks), then connects to its game as the
/// page does, and finds itself in the seat it was given. Their sockets stay open, so that the
/// tables they wait at stay listed.
fn seek_at_once(addrs: &[SocketAddr], browsers: &[String]) -> (Vec<Seeker>, Vec<Seat>) {
    let start = Arc::new(std::sync::Barrier::new(browsers.len()));
    let threads: Vec<_> = browsers
        .iter()
        .enumerate()
        .map(|(i, browser)| {
            let (addr, browser, start) = (addrs[i % addrs.len()], browser.clone(), start.clone());
            std::thread::spawn(move || {
                let clock =
                    if i % 3 == 0 { json!(null) } else { json!({"initial": 180, "increment": 2}) };
                let seek = json!({"rules": "arcade", "clock": clock, "browser": browser});
                start.wait();
                let (code, answer) = post_status(addr, "/api/seek", &seek);
                assert_eq!(code, 200, "{answer}");
                let game = answer["game"].as_str().unwrap().to_owned();
                let colour = answer["colour"].as_str().unwrap().to_owned();
                let (seat, snapshot) = Seat::hello(addr, &game, answer["seat"].as_str()).unwrap();
                assert_eq!(snapshot["d"]["you"], json!(colour), "{browser}: {snapshot}");
                (Seeker { browser, game, colour }, seat)
            })
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).unzip()
}

/// Checks that no seat was given twice and no game has one browser in both seats; gives the
/// seekers left alone at a table of their own.
fn check_pairing(seekers: &[Seeker]) -> Vec<&Seeker> {
    let mut games: BTreeMap<&str, Vec<&Seeker>> = BTreeMap::new();
    for seeker in seekers {
        games.entry(seeker.game.as_str()).or_default().push(seeker);
    }
    let mut alone = Vec::new();
    for (game, seated) in games {
        match seated[..] {
            [one] => alone.push(one),
            [a, b] => {
                assert_ne!(a.colour, b.colour, "one seat of {game} given twice: {seated:?}");
                assert_ne!(a.browser, b.browser, "a browser on both seats of {game}");
            }
            _ => panic!("more than two seekers at {game}: {seated:?}"),
        }
    }
    alone
}

/// Waits until both nodes list exactly the tables of the seekers left `alone`.
fn wait_listed(addrs: &[SocketAddr], alone: &[&Seeker]) {
    let waiting: BTreeSet<&str> = alone.iter().map(|s| s.game.as_str()).collect();
    let deadline = Instant::now() + Duration::from_secs(10);
    for addr in addrs {
        loop {
            let tables = get_json(*addr, "/api/tables");
            let listed: BTreeSet<&str> =
                tables.as_array().unwrap().iter().filter_map(|t| t["game"].as_str()).collect();
            if listed == waiting {
                break;
            }
            assert!(Instant::now() < deadline, "{addr} lists {listed:?}, not {waiting:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// A game played at an open table on one node is listed to watch on another (through the
/// shared list in Redis), with its turns and watchers, and leaves every node's list when it
/// ends; a friend's game on either node is never listed.
#[test]
fn a_game_played_on_one_node_is_listed_to_watch_on_another() {
    let redis = Redis::start("watch");
    let nodes: Vec<Node> = ["w", "x"].iter().map(|n| Node::start(&redis, n)).collect();
    let mut friend = FriendGame::start(nodes[0].addr, nodes[1].addr);
    friend.white.send(&json!({"t": "move", "d": {"id": 1, "m": "c3"}})).unwrap();
    friend.white.until(|m| m["t"] == "accepted").unwrap();
    let seek = |browser: &str| json!({"rules": "arcade", "clock": null, "browser": browser});
    let first = post(nodes[0].addr, "/api/seek", &seek("watch-browser-00001"));
    let game = first["game"].as_str().unwrap().to_owned();
    let (mut waiting, _) = Seat::hello(nodes[0].addr, &game, first["seat"].as_str()).unwrap();
    // Listed only once both sit: wait for the table to reach the lobby of the node that pairs.
    let deadline = Instant::now() + Duration::from_secs(5);
    while get_json(nodes[0].addr, "/api/tables").as_array().unwrap().is_empty() {
        assert!(Instant::now() < deadline, "the table is not listed");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(get_json(nodes[1].addr, "/api/watch"), json!([]));
    let second = post(nodes[0].addr, "/api/seek", &seek("watch-browser-00002"));
    assert_eq!(second["game"], json!(game));
    let (mut arriving, _) = Seat::hello(nodes[0].addr, &game, second["seat"].as_str()).unwrap();
    let white = if first["colour"] == "white" { &mut waiting } else { &mut arriving };
    white.send(&json!({"t": "move", "d": {"id": 1, "m": "c3"}})).unwrap();
    white.until(|m| m["t"] == "accepted").unwrap();
    // A watcher on node A; node B lists the game with its turn and its watcher.
    let (_watcher, _) = Seat::hello(nodes[0].addr, &game, None).unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let listed = loop {
        let list = get_json(nodes[1].addr, "/api/watch");
        if list.as_array().unwrap().iter().any(|g| g["watchers"] == 1 && g["turns"] == 1) {
            break list;
        }
        assert!(Instant::now() < deadline, "node B does not list the game: {list}");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(listed.as_array().unwrap().len(), 1, "only the open table's game: {listed}");
    assert_eq!(listed[0]["game"], json!(game));
    // Resigned: gone from both nodes' lists, and from Redis.
    waiting.send(&json!({"t": "resign"})).unwrap();
    waiting.until(|m| m["t"] == "end").unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    for node in &nodes {
        while !get_json(node.addr, "/api/watch").as_array().unwrap().is_empty() {
            assert!(Instant::now() < deadline, "the ended game is still listed");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    assert_eq!(redis.command("HLEN dara:watch"), ":0\r\n");
}

/// A client address's games are counted across the nodes (as a keyed hash in Redis, never the
/// address): starting them on several nodes gains nothing.
#[test]
fn games_per_address_are_counted_across_nodes() {
    let redis = Redis::start("limits");
    let limit = ["--games-per-address", "3"];
    let nodes: Vec<Node> = ["x", "y"].iter().map(|n| Node::start_with(&redis, n, &limit)).collect();
    let friend = json!({"opponent": "friend", "first": "me"});
    for node in [&nodes[0], &nodes[1], &nodes[0]] {
        let created = post(node.addr, "/api/games", &friend);
        assert!(created["game"].is_string(), "{created}");
    }
    let refused = post(nodes[1].addr, "/api/games", &friend);
    let reason = refused["error"].as_str().unwrap_or_default();
    assert!(reason.contains("already 3 games"), "{refused}");
    let keys = redis.keys();
    assert!(keys.contains("dara:address:"), "{keys}");
    assert!(!keys.contains("127.0.0.1"), "an address is in Redis: {keys}");
}

/// A rolling restart, as a deploy does it: each node in turn is stopped with SIGTERM and a new
/// process started under its name, while games go on across the nodes. Every game finishes
/// with every acknowledged turn, and every record replays.
#[test]
fn a_rolling_restart_loses_no_game() {
    let redis = Redis::start("rolling");
    let names = ["r1", "r2", "r3"];
    let mut nodes: Vec<Node> = names.iter().map(|n| Node::start(&redis, n)).collect();
    let current = players::current(&nodes.iter().map(|n| n.addr).collect::<Vec<_>>());
    let acked = Arc::new(AtomicUsize::new(0));
    let games: Vec<_> = (0..6u64)
        .map(|i| {
            let (current, acked) = (current.clone(), acked.clone());
            std::thread::spawn(move || play_game(current, 100 + i, 60, acked))
        })
        .collect();
    for (i, name) in names.iter().enumerate() {
        let threshold = 40 * (i + 1);
        while acked.load(Ordering::Relaxed) < threshold && !games.iter().all(|g| g.is_finished()) {
            std::thread::sleep(Duration::from_millis(5));
        }
        replace(&mut nodes[i], &current, &redis, name);
    }
    players::check_records(games);
}

/// How long a game waits when its node dies: from `kill -9` of the node that runs it to the
/// first turn accepted on the node that takes it up (about a lease: 5 s), players retrying
/// as pages do.
#[test]
fn failover_after_kill_9_takes_about_a_lease() {
    let redis = Redis::start("failover");
    let mut owner = Node::start(&redis, "doomed");
    let other = Node::start(&redis, "heir");
    let FriendGame { game, tokens: [_, dark], mut white, .. } =
        FriendGame::start(owner.addr, other.addr);
    white.send(&json!({"t": "move", "d": {"id": 1, "m": "c3"}})).unwrap();
    white.until(|m| m["t"] == "accepted").unwrap();

    owner.kill();
    let killed = Instant::now();
    let accepted = loop {
        assert!(killed.elapsed() < Duration::from_secs(20), "the game never moved on");
        let answer = Seat::hello(other.addr, &game, Some(&dark)).and_then(|(mut black, _)| {
            black.send(&json!({"t": "move", "d": {"id": 1, "m": "d3"}}))?;
            black.until(|m| m["t"] == "accepted" || m["t"] == "rejected")
        });
        match answer {
            Ok(answer) if answer["t"] == "accepted" => break killed.elapsed(),
            Ok(answer) => panic!("{answer}"),
            Err(_) => std::thread::sleep(Duration::from_millis(150)),
        }
    };
    eprintln!("failover: kill -9 to the first turn accepted on the new node took {accepted:?}");
    assert!(accepted < Duration::from_secs(8), "{accepted:?}");
}

/// A game against the computer, played from another node than the one that runs it: the
/// search runs on the owner, and its answer crosses back.
#[test]
fn the_computer_answers_a_player_on_another_node() {
    let redis = Redis::start("computer");
    let owner = Node::start(&redis, "engine");
    let edge = Node::start(&redis, "edge");
    let created =
        post(owner.addr, "/api/games", &json!({"opponent": "computer", "level": 2, "first": "me"}));
    let game = created["game"].as_str().unwrap().to_owned();
    let (mut player, _) = Seat::hello(edge.addr, &game, created["seat"].as_str()).unwrap();
    player.send(&json!({"t": "move", "d": {"id": 1, "m": "c3"}})).unwrap();
    player.until(|m| m["t"] == "accepted").unwrap();
    let reply = player.until(|m| m["t"] == "move" && m["d"]["ply"] == 2).unwrap();
    assert!(reply["d"]["m"].is_string(), "{reply}");
}

/// Seats one client address takes at open tables are counted across the nodes, like its
/// games: tables on two nodes, sat at through either, and the address is refused (429, saying
/// why) at the same total one node allows.
#[test]
fn seats_per_address_are_counted_across_nodes() {
    let redis = Redis::start("seats");
    let limit = ["--seats-per-address", "3"];
    let nodes: Vec<Node> = ["s", "t"].iter().map(|n| Node::start_with(&redis, n, &limit)).collect();
    // Five open tables, each opened on one node, its creator waiting there.
    let tables: Vec<(String, Seat)> = (0..5)
        .map(|i| {
            let at = nodes[i % 2].addr;
            let created = post(at, "/api/games", &json!({"opponent": "open", "first": "me"}));
            let game = created["game"].as_str().unwrap().to_owned();
            let (waiting, _) = Seat::hello(at, &game, created["seat"].as_str()).unwrap();
            (game, waiting)
        })
        .collect();
    // Sat at through the other node, then through the table's own.
    for (i, (game, _)) in tables.iter().enumerate().take(3) {
        let through = nodes[if i < 2 { (i + 1) % 2 } else { i % 2 }].addr;
        let (code, sat) = post_status(through, &format!("/api/tables/{game}/sit"), &json!({}));
        assert_eq!(code, 200, "seat {i}: {sat}");
        assert!(sat["seat"].is_string(), "{sat}");
    }
    for (i, (game, _)) in tables.iter().enumerate().skip(3) {
        let through = nodes[i % 2].addr;
        let (code, refused) = post_status(through, &format!("/api/tables/{game}/sit"), &json!({}));
        assert_eq!(code, 429, "a fourth seat across the nodes: {refused}");
        let reason = refused["error"].as_str().unwrap_or_default();
        assert!(reason.contains("already 3 seats"), "{refused}");
    }
    let keys = redis.keys();
    assert!(keys.contains(":seats"), "{keys}");
    assert!(!keys.contains("127.0.0.1"), "an address is in Redis: {keys}");
}

/// Waits until `addr`'s `/readyz` answers `code`.
fn wait_ready(addr: SocketAddr, code: u16) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while status(addr, "/readyz") != code {
        assert!(Instant::now() < deadline, "/readyz never answered {code}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Redis crashes mid-game: the node says it is not ready, and refuses turns (and any other
/// change) with a reason, `store-unreachable`, never `accepted`. Redis comes back on its port
/// from its append-only file: the same turn is accepted and the game plays to its end, its
/// record holding every acknowledged turn once.
#[test]
fn turns_are_refused_while_redis_is_unreachable() {
    let mut redis = Redis::start("unreachable");
    let node = Node::start(&redis, "keeper");
    let FriendGame { game, tokens: [pale, dark], mut white, mut black } =
        FriendGame::start(node.addr, node.addr);
    open_with_two_turns(&mut white, &mut black);

    redis.crash();
    wait_ready(node.addr, 503);
    white.send(&json!({"t": "move", "d": {"id": 3, "m": "a1"}})).unwrap();
    let answer = white.until(|m| m["t"] == "accepted" || m["t"] == "rejected").unwrap();
    assert_eq!(answer["t"], "rejected", "{answer}");
    assert_eq!(answer["d"]["code"], "store-unreachable", "{answer}");
    assert!(answer["d"]["reason"].as_str().unwrap().contains("try again"), "{answer}");
    black.send(&json!({"t": "resign"})).unwrap();
    let answer = black.until(|m| m["t"] == "ok" || m["t"] == "error").unwrap();
    assert_eq!(answer["d"]["code"], "store-unreachable", "{answer}");
    // The operator sees both refusals.
    let (_, metrics) = get(node.addr, "/metrics");
    assert!(metrics.lines().any(|l| l == "dara_refused_unkept_total 2"), "{metrics}");

    redis.restart();
    wait_ready(node.addr, 200);
    // The same turn again, as the page sends it: accepted now (through a new socket if the
    // node had lapsed meanwhile and told its sockets to reconnect).
    resend_until_accepted(&mut white, node.addr, &game, &pale);
    let (mut black, _) = Seat::hello(node.addr, &game, Some(&dark)).unwrap();
    black.send(&json!({"t": "resign"})).unwrap();
    black.until(|m| m["t"] == "ok").unwrap();
    let (_, snapshot) = Seat::hello(node.addr, &game, None).unwrap();
    let record = snapshot["d"]["end"]["record"].as_str().unwrap_or_else(|| panic!("{snapshot}"));
    let played = ["c3", "d3", "a1"].map(String::from);
    players::check_record(&played, record);
}

/// Redis out of memory (`maxmemory` below what it holds) refuses every write with `OOM`: a
/// pause, not an end (see [`refused_writes_pause_the_game`]).
#[test]
fn a_redis_that_refuses_writes_pauses_the_game() {
    refused_writes_pause_the_game(
        "oom",
        |redis| assert!(redis.command("CONFIG SET maxmemory 1").starts_with("+OK")),
        |redis| assert!(redis.command("CONFIG SET maxmemory 0").starts_with("+OK")),
    );
}

/// Redis made a replica (`REPLICAOF` a primary that is not there, as after a failover that
/// left the nodes pointed at the old primary) refuses every write with `READONLY`: a pause, not
/// an end, until it is a primary again (`REPLICAOF NO ONE`).
#[test]
fn a_redis_turned_replica_pauses_the_game() {
    let nowhere = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    refused_writes_pause_the_game(
        "readonly",
        |redis| {
            let made = redis.command(&format!("REPLICAOF 127.0.0.1 {nowhere}"));
            assert!(made.starts_with("+OK"), "{made}");
            let refused = redis.command("SET dara:probe 1");
            assert!(refused.starts_with("-READONLY"), "{refused}");
        },
        |redis| assert!(redis.command("REPLICAOF NO ONE").starts_with("+OK")),
    );
}

/// Redis that cannot save its snapshot (`stop-writes-on-bgsave-error`, its default) refuses
/// every write with `MISCONF`: a pause, not an end, until a snapshot is saved again. (The
/// snapshot fails here because a folder stands where its file goes, which stops root too.)
#[test]
fn a_redis_that_cannot_save_pauses_the_game() {
    let bgsave_until = |redis: &Redis, status: &str| {
        assert!(redis.command("BGSAVE").starts_with('+'), "BGSAVE");
        let deadline = Instant::now() + Duration::from_secs(10);
        while !redis
            .command("INFO persistence")
            .contains(&format!("rdb_last_bgsave_status:{status}"))
        {
            assert!(Instant::now() < deadline, "the snapshot's status never became {status}");
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    refused_writes_pause_the_game(
        "misconf",
        |redis| {
            std::fs::create_dir_all(redis.dir.join("dump.rdb").join("in-the-way")).unwrap();
            assert!(redis.command("CONFIG SET save \"3600 1\"").starts_with("+OK"));
            bgsave_until(redis, "err");
            let refused = redis.command("SET dara:probe 1");
            assert!(refused.starts_with("-MISCONF"), "{refused}");
        },
        |redis| {
            std::fs::remove_dir_all(redis.dir.join("dump.rdb")).unwrap();
            bgsave_until(redis, "ok");
        },
    );
}

/// A Redis that refuses writes (`refuse` makes it, `accept` mends it): a pause, not an end. The
/// turn is refused (its write refused; or, if the node's renewal was refused first, before it
/// is written, as while Redis is unreachable) with `store-unreachable` on the same socket, never `accepted`, and the game
/// stays where it was; a new game cannot begin, and its lease, noted as its beginning was sent,
/// is let go of. Once Redis takes writes again the same turn is accepted and the game plays to
/// its end, its record holding every acknowledged turn once.
fn refused_writes_pause_the_game(name: &str, refuse: impl Fn(&Redis), accept: impl Fn(&Redis)) {
    let redis = Redis::start(name);
    let node = Node::start(&redis, "starved");
    let FriendGame { game, tokens: [pale, _], mut white, mut black } =
        FriendGame::start(node.addr, node.addr);
    open_with_two_turns(&mut white, &mut black);

    refuse(&redis);
    white.send(&json!({"t": "move", "d": {"id": 3, "m": "a1"}})).unwrap();
    let answer = white.until(|m| m["t"] == "accepted" || m["t"] == "rejected").unwrap();
    assert_eq!(answer["t"], "rejected", "{answer}");
    assert_eq!(answer["d"]["code"], "store-unreachable", "{answer}");
    // Still here, as it was: the other side hears nothing, and its own requests are answered.
    black.send(&json!({"t": "ping", "d": {"lag": 0}})).unwrap();
    let heard = black.until(|m| m["t"] == "pong" || m["d"]["ply"] == 3).unwrap();
    assert_eq!(heard["t"], "pong", "{heard}");

    // A new game cannot begin: refused, and its lease, noted as the beginning was sent, let
    // go of (the node held it, renewed it and counted it as its own before).
    let (code, refused) = post_status(node.addr, "/api/games", &json!({"opponent": "friend"}));
    assert_eq!(code, 503, "{refused}");

    accept(&redis);
    let (_, metrics) = get(node.addr, "/metrics");
    assert!(metrics.lines().any(|l| l == "dara_leases 1"), "one game, one lease: {metrics}");
    resend_until_accepted(&mut white, node.addr, &game, &pale);
    black.until(|m| m["t"] == "move" && m["d"]["ply"] == 3).unwrap();
    black.send(&json!({"t": "resign"})).unwrap();
    black.until(|m| m["t"] == "ok").unwrap();
    let (_, snapshot) = Seat::hello(node.addr, &game, None).unwrap();
    let record = snapshot["d"]["end"]["record"].as_str().unwrap_or_else(|| panic!("{snapshot}"));
    players::check_record(&["c3", "d3", "a1"].map(String::from), record);
}

/// A game forgotten here whose erasure Redis refuses (its lease is another node's by then)
/// leaves no lease behind: with room for one game, a finished game is forgotten to make room
/// for a new one, and `dara_leases` then counts the new game alone.
#[test]
fn a_refused_erasure_leaves_no_lease_behind() {
    let redis = Redis::start("refused-erase");
    let node =
        Node::start_with(&redis, "eraser", &["--games-per-address", "100", "--max-games", "1"]);
    let FriendGame { game, mut black, .. } = FriendGame::start(node.addr, node.addr);
    black.send(&json!({"t": "resign"})).unwrap();
    black.until(|m| m["t"] == "ok").unwrap();
    let taken = redis.command(&format!("SET dara:{{{game}}}:lease intruder.0:9"));
    assert!(taken.starts_with("+OK"), "{taken}");
    let created = post(node.addr, "/api/games", &json!({"opponent": "friend", "first": "me"}));
    assert!(created["game"].is_string(), "{created}");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (_, metrics) = get(node.addr, "/metrics");
        if metrics.lines().any(|l| l == "dara_leases 1") {
            break;
        }
        assert!(Instant::now() < deadline, "a refused erasure's lease is still held: {metrics}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A proxy between a node and Redis that loses the answer to a new game's `BEGIN` (the only
/// request that names a game's `epoch` key here): it passes the request on, waits until Redis
/// has the game, gives the game's lease to another node (so that the erasure which follows is
/// refused, as when Redis is out of reach), and drops the connection. Every other connection,
/// before and after, is passed through.
fn lose_the_begins_answer(redis: &Redis) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (redis_port, lost) = (redis.port, Arc::new(AtomicUsize::new(0)));
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let server = TcpStream::connect(("127.0.0.1", redis_port)).unwrap();
            let (mut to_client, mut from_server) =
                (client.try_clone().unwrap(), server.try_clone().unwrap());
            // Set before the `BEGIN` is passed on: no answer from then on reaches the node.
            let deaf = Arc::new(AtomicUsize::new(0));
            let deafened = deaf.clone();
            std::thread::spawn(move || {
                let mut buf = vec![0u8; 1 << 16];
                while let Ok(n @ 1..) = from_server.read(&mut buf) {
                    if deafened.load(Ordering::SeqCst) > 0
                        || to_client.write_all(&buf[..n]).is_err()
                    {
                        return;
                    }
                }
            });
            let lost = lost.clone();
            std::thread::spawn(move || {
                let (mut client, mut server, mut buf) = (client, server, vec![0u8; 1 << 16]);
                while let Ok(n @ 1..) = client.read(&mut buf) {
                    let text = String::from_utf8_lossy(&buf[..n]).into_owned();
                    let begin =
                        text.find("}:epoch").filter(|_| lost.fetch_add(1, Ordering::SeqCst) == 0);
                    if begin.is_some() {
                        deaf.store(1, Ordering::SeqCst);
                    }
                    let _ = server.write_all(&buf[..n]);
                    let Some(at) = begin else { continue };
                    let id = &text[text[..at].rfind('{').unwrap() + 1..at];
                    while redis_command(redis_port, &format!("EXISTS dara:{{{id}}}:meta"))
                        != ":1\r\n"
                    {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    redis_command(redis_port, &format!("SET dara:{{{id}}}:lease intruder.0:9"));
                    let _ = client.shutdown(std::net::Shutdown::Both);
                    let _ = server.shutdown(std::net::Shutdown::Both);
                    return;
                }
            });
        }
    });
    port
}

/// The answer to a new game's `BEGIN` never comes: the game may be in Redis (here it is), so
/// its count against its client's address is kept, not given back as if it never was, while
/// its erasure is not acknowledged (here it is refused): with a share of one game, a second
/// is refused.
#[test]
fn a_new_game_of_unknown_outcome_stays_counted() {
    let redis = Redis::start("unknown-begin");
    let proxy = format!("redis://127.0.0.1:{}", lose_the_begins_answer(&redis));
    let dara = env!("CARGO_BIN_EXE_dara").as_ref();
    let node = Node::start_at(dara, &proxy, "unsure", &["--games-per-address", "1"]);
    let friend = json!({"opponent": "friend", "first": "me"});
    let (code, answer) = post_status(node.addr, "/api/games", &friend);
    assert_eq!(code, 503, "{answer}");
    let keys = redis.keys();
    assert!(keys.contains(":meta"), "the game is not in Redis: {keys}");
    wait_ready(node.addr, 200);
    // Its lease, noted as the beginning was sent, is not kept as this node's: the game runs
    // nowhere.
    let (_, metrics) = get(node.addr, "/metrics");
    assert!(metrics.lines().any(|l| l == "dara_leases 0"), "a stale lease is held: {metrics}");
    let (code, answer) = post_status(node.addr, "/api/games", &friend);
    assert_eq!(code, 429, "{answer}");
    assert!(answer["error"].as_str().unwrap_or_default().contains("already 1 game"), "{answer}");
}

/// Redis forgets its scripts (`SCRIPT FLUSH`; a restart or a failover to a replica does the
/// same): the next turn's script, sent by its hash, is loaded again and the turn accepted at
/// once, on the same socket, neither refused nor lost.
#[test]
fn a_turn_is_kept_when_redis_has_forgotten_its_scripts() {
    let redis = Redis::start("flush");
    let node = Node::start(&redis, "forgetful");
    let FriendGame { game, mut white, mut black, .. } = FriendGame::start(node.addr, node.addr);
    open_with_two_turns(&mut white, &mut black);
    assert!(redis.command("SCRIPT FLUSH").starts_with("+OK"), "Redis forgets its scripts");
    white.send(&json!({"t": "move", "d": {"id": 3, "m": "a1"}})).unwrap();
    let answer = white.until(|m| m["t"] == "accepted" || m["t"] == "rejected").unwrap();
    assert_eq!(answer["t"], "accepted", "{answer}");
    black.send(&json!({"t": "resign"})).unwrap();
    black.until(|m| m["t"] == "ok").unwrap();
    let (_, snapshot) = Seat::hello(node.addr, &game, None).unwrap();
    let record = snapshot["d"]["end"]["record"].as_str().unwrap_or_else(|| panic!("{snapshot}"));
    players::check_record(&["c3", "d3", "a1"].map(String::from), record);
}

/// The cluster's seat key deleted from Redis while Redis holds a game: a node refuses to
/// start, naming the key and the games, and makes no new key (one would lock every player out
/// of every stored game, silently). With no games stored, a missing key is a new cluster's,
/// made at start.
#[test]
fn a_missing_seat_key_with_stored_games_is_refused() {
    let redis = Redis::start("no-seat-key");
    let mut first = Node::start(&redis, "first");
    let created = post(first.addr, "/api/games", &json!({"opponent": "friend", "first": "me"}));
    assert!(created["game"].is_string(), "{created}");
    first.kill();
    assert_eq!(redis.command("DEL dara:seat-key"), ":1\r\n");

    let mut refused = Command::new(env!("CARGO_BIN_EXE_dara"))
        .args(["serve", "--listen", "127.0.0.1:0", "--redis", &redis.url(), "--node-id", "second"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = refused.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = refused.kill();
            panic!("a node started without the seat key of the games Redis holds");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut said = String::new();
    refused.stderr.take().unwrap().read_to_string(&mut said).unwrap();
    assert!(!status.success(), "{said}");
    assert!(said.contains("dara:seat-key") && said.contains("1 live games"), "{said}");
    assert_eq!(redis.command("GET dara:seat-key"), "$-1\r\n", "a new key was made");

    assert!(redis.command("FLUSHALL").starts_with("+OK"));
    let fresh = Node::start(&redis, "fresh");
    let created = post(fresh.addr, "/api/games", &json!({"opponent": "friend", "first": "me"}));
    assert!(created["game"].is_string(), "{created}");
    assert!(redis.command("GET dara:seat-key").starts_with('$'), "a new cluster has a key");
}

/// A proxy between a node and Redis that counts the takeovers the node asks for (the `TAKE`
/// script, by its hash), and passes everything through.
fn count_takeovers(redis: &Redis) -> (u16, Arc<AtomicUsize>) {
    const TAKE: &[u8] = b"bc14ea6c45aae0aada3d78e05ad439a6221d1341";
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (redis_port, takes) = (redis.port, Arc::new(AtomicUsize::new(0)));
    let counted = takes.clone();
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let server = TcpStream::connect(("127.0.0.1", redis_port)).unwrap();
            let (mut to_client, mut from_server) =
                (client.try_clone().unwrap(), server.try_clone().unwrap());
            std::thread::spawn(move || {
                let mut buf = vec![0u8; 1 << 16];
                while let Ok(n @ 1..) = from_server.read(&mut buf) {
                    if to_client.write_all(&buf[..n]).is_err() {
                        return;
                    }
                }
            });
            let takes = counted.clone();
            std::thread::spawn(move || {
                let (mut client, mut server) = (client, server);
                // The end of what came before, so that a hash split between two reads counts.
                let (mut seen, mut buf) = (Vec::new(), vec![0u8; 1 << 16]);
                while let Ok(n @ 1..) = client.read(&mut buf) {
                    seen.extend_from_slice(&buf[..n]);
                    let found = seen.windows(TAKE.len()).filter(|w| *w == TAKE).count();
                    takes.fetch_add(found, Ordering::SeqCst);
                    let kept = seen.len().min(TAKE.len() - 1);
                    seen.drain(..seen.len() - kept);
                    if server.write_all(&buf[..n]).is_err() {
                        return;
                    }
                }
            });
        }
    });
    (port, takes)
}

/// A node dies and the players of all its games reconnect at once to another node, which must
/// take each game up from Redis: it takes them up side by side, not one game at a time behind
/// one lock (each waiting out the Redis round trips of every game before it). Redis is paused
/// while the sockets arrive, so that no takeover can finish: every game's takeover is asked of
/// Redis all the same.
#[test]
fn a_reconnect_storm_is_taken_up_side_by_side() {
    const GAMES: usize = 8;
    let redis = Redis::start("storm");
    let mut doomed = Node::start(&redis, "doomed");
    let (port, takes) = count_takeovers(&redis);
    let dara = env!("CARGO_BIN_EXE_dara").as_ref();
    let args = ["--games-per-address", "1000"];
    let heir = Node::start_at(dara, &format!("redis://127.0.0.1:{port}"), "heir", &args);
    let friend = json!({"opponent": "friend", "first": "me"});
    let games: Vec<String> = (0..GAMES)
        .map(|_| post(doomed.addr, "/api/games", &friend)["game"].as_str().unwrap().to_owned())
        .collect();
    doomed.kill();
    // Its word that it is alive goes at once, rather than a lease later.
    let keys = redis.command("KEYS dara:node:doomed.*");
    let alive = keys.lines().find(|l| l.starts_with("dara:node:")).expect(&keys);
    assert_eq!(redis.command(&format!("DEL {alive}")), ":1\r\n");

    redis.pause();
    let at = heir.addr;
    let storm: Vec<_> = games
        .iter()
        .map(|game| {
            let game = game.clone();
            std::thread::spawn(move || Seat::hello(at, &game, None).map(|(_, s)| s))
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(3);
    while takes.load(Ordering::SeqCst) < GAMES && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    let asked = takes.load(Ordering::SeqCst);
    redis.resume();
    assert_eq!(asked, GAMES, "takeovers asked of Redis at once, of {GAMES} games' sockets");
    for socket in storm {
        let snapshot = socket.join().unwrap().expect("the game is served");
        assert!(snapshot["d"]["end"].is_null(), "{snapshot}");
    }
}

/// The previous release's `dara`, which `scripts/previous-release` builds (`scripts/test`
/// names it in `DARA_PREVIOUS_RELEASE`).
fn previous_release() -> PathBuf {
    let path = std::env::var_os("DARA_PREVIOUS_RELEASE").unwrap_or_else(|| {
        panic!(
            "DARA_PREVIOUS_RELEASE is not set: this test runs nodes of the previous release \
             beside this one's. Build it and name it with \
             `export DARA_PREVIOUS_RELEASE=$(scripts/previous-release)` (scripts/test does)"
        )
    });
    let path = PathBuf::from(path);
    assert!(path.is_file(), "DARA_PREVIOUS_RELEASE names no file: {}", path.display());
    path
}

/// A rolling upgrade, as a deploy of a new release does it: two nodes of the previous release
/// serve friend games (each game's seats on both nodes, one game watched), then each node in
/// turn is stopped with SIGTERM and replaced by a node of this release. For a while every game
/// is played across an old and a new node at once. Every game is played to its end with every
/// acknowledged turn kept once, the watcher sees every turn, and every record replays.
#[test]
fn a_rolling_upgrade_from_the_previous_release_loses_no_game() {
    let previous = previous_release();
    let redis = Redis::start("upgrade");
    let names = ["u1", "u2"];
    let args = ["--games-per-address", "1000"];
    let mut nodes: Vec<Node> =
        names.iter().map(|n| Node::start_release(&previous, &redis, n, &args)).collect();
    let current = players::current(&nodes.iter().map(|n| n.addr).collect::<Vec<_>>());
    let acked = Arc::new(AtomicUsize::new(0));
    let (told, watched) = std::sync::mpsc::channel();
    let games: Vec<_> = (0..6u64)
        .map(|i| {
            let (current, acked, told) = (current.clone(), acked.clone(), told.clone());
            std::thread::spawn(move || {
                players::play_game_told(current, 300 + i, 90, acked, |game| {
                    if i == 0 {
                        told.send(game.to_owned()).unwrap();
                    }
                })
            })
        })
        .collect();
    let watched: String = watched.recv().unwrap();
    let watcher = {
        let current = current.clone();
        std::thread::spawn(move || players::watch_to_the_end(&current, &watched))
    };
    let mut upgraded_at = 0;
    for (i, name) in names.iter().enumerate() {
        // The first node is upgraded after 60 turns; the second once 60 more were played
        // across the old node and the new one.
        let threshold = upgraded_at + 60;
        while acked.load(Ordering::Relaxed) < threshold && !games.iter().all(|g| g.is_finished()) {
            std::thread::sleep(Duration::from_millis(5));
        }
        let turns = acked.load(Ordering::Relaxed);
        assert!(turns >= threshold, "the games ended before node {name} was upgraded");
        replace(&mut nodes[i], &current, &redis, name);
        upgraded_at = acked.load(Ordering::Relaxed);
    }
    let played: Vec<(Vec<String>, String)> = games.into_iter().map(|g| g.join().unwrap()).collect();
    for (moves, record) in &played {
        players::check_record(moves, record);
    }
    assert_eq!(watcher.join().unwrap(), played[0].0, "the watcher saw every turn of its game");
}

/// Sends pale's third turn (`a1`, id 3) again and again, as the page does while the store
/// cannot keep it, until it is accepted: through a new socket at `addr` whenever the old one
/// is closed (a node that lapsed tells its sockets to reconnect).
fn resend_until_accepted(white: &mut Seat, addr: SocketAddr, game: &str, pale: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        assert!(Instant::now() < deadline, "the turn was never accepted once Redis took it");
        let answer = white
            .send(&json!({"t": "move", "d": {"id": 3, "m": "a1"}}))
            .and_then(|()| white.until(|m| m["t"] == "accepted" || m["t"] == "rejected"));
        match answer {
            Ok(answer) if answer["t"] == "accepted" => return,
            Ok(answer) => {
                assert_eq!(answer["d"]["code"], "store-unreachable", "{answer}");
                std::thread::sleep(Duration::from_millis(100));
            }
            Err(_) => match Seat::hello(addr, game, Some(pale)) {
                Ok((again, _)) => *white = again,
                Err(_) => std::thread::sleep(Duration::from_millis(100)),
            },
        }
    }
}

/// Pale places on c3, dark on d3, each acknowledged.
fn open_with_two_turns(white: &mut Seat, black: &mut Seat) {
    for (ply, m) in [(1u64, "c3"), (2, "d3")] {
        let mover = if ply == 1 { &mut *white } else { &mut *black };
        mover.send(&json!({"t": "move", "d": {"id": ply, "m": m}})).unwrap();
        mover.until(|msg| msg["t"] == "accepted").unwrap();
    }
}

/// Stops `node` with SIGTERM (players stop being sent to it first) and starts a node of this
/// release named `name` in its place, which players are then sent to.
fn replace(node: &mut Node, current: &players::Current, redis: &Redis, name: &str) {
    let old = node.addr;
    current.lock().unwrap().retain(|a| *a != old);
    node.signal("-TERM");
    let _ = node.child.wait();
    *node = Node::start(redis, name);
    current.lock().unwrap().push(node.addr);
}
