//! Live games survive a crash and a restart: `dara serve` as a real process on its own data
//! directory, killed with SIGKILL in the middle of games or stopped with SIGTERM, then started
//! again on the same directory, with players on real sockets who carry on where they were.

mod arenas;
mod players;
mod stopping;

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use players::{play_game, post, Seat};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::json;

/// A `dara serve` process keeping its games in `data`.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(data: &Path) -> Server {
        Server::start_with(data, &[])
    }

    /// [`Server::start`] with more options.
    fn start_with(data: &Path, extra: &[&str]) -> Server {
        Server::launch(data, extra, Stdio::null())
    }

    /// [`Server::start_with`], its log written to the file `log`.
    fn start_logging(data: &Path, extra: &[&str], log: &Path) -> Server {
        Server::launch(data, extra, std::fs::File::create(log).unwrap().into())
    }

    fn launch(data: &Path, extra: &[&str], log: Stdio) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dara"))
            .args(["serve", "--listen", "127.0.0.1:0", "--instant-computer"])
            .args(["--games-per-address", "1000", "--connections-per-address", "1000"])
            .arg("--data-dir")
            .arg(data)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(log)
            .stdin(Stdio::null())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let line = lines.next().expect("the server starts").unwrap();
        let addr = line.split("served at http://").nth(1).unwrap().split('/').next().unwrap();
        // Nothing more is printed; the pipe is let go.
        Server { child, addr: addr.parse().unwrap() }
    }

    /// SIGTERM, as an operator stops it, and waits until it has stopped.
    fn stop(mut self) {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().expect("kill");
        assert!(sent.success(), "SIGTERM to {pid}");
        let status = self.child.wait().expect("the server stops");
        assert!(status.success(), "the server stopped with {status}");
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

/// Twenty games over real sockets while the server is killed with SIGKILL at random moments
/// and started again on the same data: every game goes on to its end, every acknowledged turn
/// is kept once, and every record replays through the rules.
#[test]
fn games_survive_kill_9_at_random_moments() {
    let data = DataDir::new("kill");
    let mut server = Server::start(&data.0);
    let current = players::current(&[server.addr]);
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
        *current.lock().unwrap() = vec![server.addr];
    }
    assert!(kills >= 2, "the server was killed while games went on ({kills} times)");
    players::check_records(games);
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

/// A copy of `from` (its files only) in a data directory of its own.
fn copy_of(from: &Path, name: &str) -> DataDir {
    let copy = DataDir::new(name);
    std::fs::create_dir_all(&copy.0).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), copy.0.join(entry.file_name())).unwrap();
    }
    copy
}

/// `dara serve` on `data`, expected to refuse to start: what it said. One that starts after
/// all is stopped, and the test fails.
fn refused_start(data: &Path, extra: &[&str]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dara"))
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(data)
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("dara serve started on the damaged directory {}", data.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut said = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut said).unwrap();
    assert!(!status.success(), "started on a damaged directory: {said}");
    said
}

/// Turns acknowledged in games whose journal is still in the write-ahead log when the server is
/// killed; then, on copies of that data directory: the log deleted, cut to half its length, a
/// byte flipped in its middle, the database emptied, the log and the mark deleted together. Each
/// copy is refused at start, naming the files and the commits missing, where it used to start
/// and serve fewer turns than were acknowledged; `--accept-loss` serves what is left; the undamaged directory serves every turn.
#[test]
fn a_damaged_data_directory_is_refused_not_served_short() {
    let data = DataDir::new("damage");
    let mut server = Server::start(&data.0);
    let addr = server.addr;
    let mut games = Vec::new();
    for _ in 0..6 {
        let created = post(addr, "/api/games", &json!({"opponent": "friend", "first": "me"}));
        let game = created["game"].as_str().unwrap().to_owned();
        let (mut white, _) = Seat::hello(addr, &game, created["seat"].as_str()).unwrap();
        let (mut black, _) = Seat::hello(addr, &game, None).unwrap();
        black.send(&json!({"t": "join"})).unwrap();
        black.until(|m| m["t"] == "joined").unwrap();
        for (white_moves, id, m) in [(true, 1, "c3"), (false, 1, "d3"), (true, 2, "a1")] {
            let seat = if white_moves { &mut white } else { &mut black };
            seat.send(&json!({"t": "move", "d": {"id": id, "m": m}})).unwrap();
            seat.until(|msg| msg["t"] == "accepted").unwrap();
        }
        games.push(game);
    }
    server.kill();
    let wal = |dir: &Path| dir.join("live-games.sqlite-wal");
    let length = std::fs::metadata(wal(&data.0)).expect("the journal is in the log").len();
    assert!(length > 0);

    let deleted = copy_of(&data.0, "damage-deleted");
    std::fs::remove_file(wal(&deleted.0)).unwrap();
    let halved = copy_of(&data.0, "damage-halved");
    std::fs::OpenOptions::new()
        .write(true)
        .open(wal(&halved.0))
        .unwrap()
        .set_len(length / 2)
        .unwrap();
    let flipped = copy_of(&data.0, "damage-flipped");
    let mut bytes = std::fs::read(wal(&flipped.0)).unwrap();
    bytes[length as usize / 2] ^= 0x40;
    std::fs::write(wal(&flipped.0), bytes).unwrap();
    let emptied = copy_of(&data.0, "damage-emptied");
    std::fs::write(emptied.0.join("live-games.sqlite"), b"").unwrap();
    std::fs::remove_file(wal(&emptied.0)).unwrap();
    // The log deleted with the mark that would have shown it: the database says it is kept
    // with a mark, so a missing one is a loss too (it used to read as a store from before
    // marks, and start with none of the turns).
    let unmarked = copy_of(&data.0, "damage-unmarked");
    std::fs::remove_file(wal(&unmarked.0)).unwrap();
    std::fs::remove_file(unmarked.0.join("journal-mark")).unwrap();
    let said = refused_start(&unmarked.0, &[]);
    assert!(said.contains("journal-mark"), "names the mark: {said}");
    assert!(said.contains("the journal's mark is missing"), "{said}");
    assert!(said.contains("--accept-loss"), "says how to go on: {said}");
    assert!(refused_start(&unmarked.0, &[]).contains("the journal's mark is missing"));
    for damaged in [&deleted, &halved, &flipped, &emptied] {
        let said = refused_start(&damaged.0, &[]);
        assert!(said.contains("live-games.sqlite-wal"), "names the log: {said}");
        assert!(said.contains("journal-mark"), "names the mark: {said}");
        assert!(said.contains("--accept-loss"), "says how to go on: {said}");
        // Refused again at the next start: nothing was repaired behind the operator's back.
        assert!(refused_start(&damaged.0, &[]).contains("was committed and acknowledged"));
    }

    // Accepted, what is left is served, and the log names every game served that may have lost
    // turns. (A game that went whole with the log cannot be named: nothing of it is left.)
    // Deleted, the games went with the log: they began after the last checkpoint. Halved, the
    // games whose turns were in the first half are left, short.
    for (damaged, name) in [(&deleted, "deleted"), (&halved, "halved")] {
        let log = damaged.0.with_extension("log");
        let accepted = Server::start_logging(&damaged.0, &["--accept-loss"], &log);
        let mut served = Vec::new();
        for game in &games {
            match Seat::hello(accepted.addr, game, None) {
                Ok((_, snapshot)) => {
                    assert!(snapshot["d"]["moves"].as_array().unwrap().len() <= 3);
                    served.push(game);
                }
                Err(e) => assert!(e.to_string().contains("4004"), "{e}"),
            }
        }
        drop(accepted);
        let said = std::fs::read_to_string(&log).unwrap();
        let _ = std::fs::remove_file(&log);
        assert!(
            said.contains("accepted (--accept-loss)"),
            "{name}: says what was accepted: {said}"
        );
        assert!(said.contains("live-games.sqlite-wal"), "{name}: names the file: {said}");
        for game in served {
            assert!(said.contains(game.as_str()), "{name}: names the game {game}: {said}");
        }
    }
    // The undamaged directory serves every acknowledged turn.
    let server = Server::start(&data.0);
    for game in &games {
        let (_, snapshot) = Seat::hello(server.addr, game, None).unwrap();
        assert_eq!(snapshot["d"]["moves"], json!(["c3", "d3", "a1"]), "{snapshot}");
    }
}

/// Runs `sql` on the database of the stopped server's data directory `data`, with the
/// `sqlite3` shell (Debian's `sqlite3` package): a row damaged behind the server's back.
fn damage(data: &Path, sql: &str) {
    let out = Command::new("sqlite3")
        .arg(data.join("live-games.sqlite"))
        .arg(sql)
        .output()
        .expect("sqlite3 (Debian's sqlite3 package)");
    assert!(out.status.success(), "{sql}: {}", String::from_utf8_lossy(&out.stderr));
}

/// Three arenas kept, each with its game paired and begun, and a friend's game; the server is
/// killed, and two arenas are damaged in the database: one event of the first made unreadable,
/// the first event of the second deleted (its journal no longer replays: a pairing of a player
/// who never joined). The server starts all the same, says in its log which arenas it dropped
/// and why, and serves the third arena (its standings, its game with its turn) and the friend's
/// game; a damaged arena's join and socket are told clearly it is not there (404
/// `unknown-arena`, a close `4004`), never a 500; and at the next start the damaged arenas are
/// gone for good (erased), with nothing more said of them.
#[test]
fn a_damaged_arena_is_dropped_and_said_and_the_rest_served() {
    use arenas::{ask, token, ArenaSocket};

    let data = DataDir::new("arena-damage");
    let mut server = Server::start(&data.0);
    let addr = server.addr;
    let mut arenas_made = Vec::new();
    let mut games = Vec::new();
    for a in 0..3 {
        let body =
            json!({ "clock": { "initial": 180, "increment": 2 }, "minutes": 30, "starts": 0 });
        let (code, made) = ask(addr, "/api/arenas", &body);
        assert_eq!(code, 201, "{made}");
        let arena = made["arena"].as_str().unwrap().to_owned();
        for n in [2 * a, 2 * a + 1] {
            let joined = json!({ "player": token(n), "name": format!("Player {n}") });
            let (code, why) = ask(addr, &format!("/api/arenas/{arena}/join"), &joined);
            assert_eq!(code, 204, "{why}");
        }
        let mut watcher = ArenaSocket::hello(addr, &arena, Some(2 * a));
        let game = watcher.game_other_than(None);
        let id = game["id"].as_str().unwrap().to_owned();
        let (white, black) =
            if game["colour"] == "white" { (2 * a, 2 * a + 1) } else { (2 * a + 1, 2 * a) };
        let (mut pale, _) = Seat::hello(addr, &id, Some(&token(white))).unwrap();
        let (mut dark, _) = Seat::hello(addr, &id, Some(&token(black))).unwrap();
        pale.send(&json!({"t": "move", "d": {"id": 1, "m": "c3"}})).unwrap();
        pale.until(|m| m["t"] == "accepted").unwrap();
        dark.until(|m| m["t"] == "move").unwrap();
        arenas_made.push(arena);
        games.push(id);
    }
    let created = post(addr, "/api/games", &json!({"opponent": "friend", "first": "me"}));
    let friendly = created["game"].as_str().unwrap().to_owned();
    let (mut white, _) = Seat::hello(addr, &friendly, created["seat"].as_str()).unwrap();
    let (mut black, _) = Seat::hello(addr, &friendly, None).unwrap();
    black.send(&json!({"t": "join"})).unwrap();
    black.until(|m| m["t"] == "joined").unwrap();
    white.send(&json!({"t": "move", "d": {"id": 1, "m": "c3"}})).unwrap();
    white.until(|m| m["t"] == "accepted").unwrap();
    let kept = ArenaSocket::hello(addr, &arenas_made[2], None)
        .until(|s| s["d"]["playing"].as_array().unwrap().len() == 1);
    server.kill();

    let [unreadable, unreplayable, whole] = [&arenas_made[0], &arenas_made[1], &arenas_made[2]];
    damage(
        &data.0,
        &format!(
            "UPDATE arena_events SET event = '{{\"e\":\"paired\",\"ga' WHERE arena = '{unreadable}' \
             AND v = (SELECT MAX(v) FROM arena_events WHERE arena = '{unreadable}')"
        ),
    );
    damage(&data.0, &format!("DELETE FROM arena_events WHERE arena = '{unreplayable}' AND v = 1"));
    let log = data.0.with_extension("log");
    let server = Server::start_logging(&data.0, &[], &log);
    let addr = server.addr;
    // The whole arena and the games are served as they were.
    let standings = ArenaSocket::hello(addr, whole, None)
        .until(|s| s["d"]["playing"].as_array().unwrap().len() == 1);
    assert_eq!(standings["d"]["top"], kept["d"]["top"], "{standings}");
    for game in [&games[2], &friendly] {
        let (_, snapshot) = Seat::hello(addr, game, None).unwrap();
        assert_eq!(snapshot["d"]["moves"], json!(["c3"]), "{snapshot}");
    }
    // The damaged ones are not there, and say so clearly.
    for arena in [unreadable, unreplayable] {
        let joined = json!({ "player": token(9), "name": "Late" });
        let (code, why) = ask(addr, &format!("/api/arenas/{arena}/join"), &joined);
        assert_eq!((code, why["code"].as_str()), (404, Some("unknown-arena")), "{why}");
        let (mut ws, _) = tungstenite::connect(format!("ws://{addr}/ws/arena/{arena}")).unwrap();
        ws.send(tungstenite::Message::text(r#"{"t":"hello"}"#)).unwrap();
        let closed = loop {
            match ws.read() {
                Ok(tungstenite::Message::Close(frame)) => break frame,
                Ok(_) => {}
                Err(e) => panic!("the socket of a dropped arena was not closed clearly: {e}"),
            }
        };
        let code = closed.map(|f| u16::from(f.code));
        assert_eq!(code, Some(4004), "the socket of a dropped arena");
    }
    let said = std::fs::read_to_string(&log).unwrap();
    for (arena, why) in [(unreadable, "an event does not read"), (unreplayable, "is erased")] {
        let line = said
            .lines()
            .find(|l| l.contains(arena.as_str()))
            .unwrap_or_else(|| panic!("the log does not name {arena}: {said}"));
        assert!(line.contains("not taken up") && line.contains(why), "{line}");
    }
    let dropped = said.lines().filter(|l| l.contains("not taken up"));
    assert!(dropped.clone().all(|l| !l.contains(whole.as_str())), "{said}");
    // Erased: at the next start they are gone, and nothing more is said of them. The erasure
    // is written in the background once the server has started, so it is stopped as an
    // operator stops it (SIGTERM), which commits what is pending: killed at once, its next
    // start would drop the two again, as harmlessly.
    server.stop();
    let again = Server::start_logging(&data.0, &[], &log);
    let standings = ArenaSocket::hello(again.addr, whole, None)
        .until(|s| s["d"]["playing"].as_array().unwrap().len() == 1);
    assert_eq!(standings["d"]["top"], kept["d"]["top"], "{standings}");
    let said = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    assert!(!said.contains(unreadable.as_str()) && !said.contains(unreplayable.as_str()), "{said}");
}
