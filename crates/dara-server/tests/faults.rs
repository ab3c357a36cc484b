//! Faults of the machine under a server that keeps its games: a disk that fills mid-game.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use common::kept::{DataDir, Process};
use common::{test_config, Client};
use dara_server::game::{GameEvent, GameSettings, Opponent, Seat};
use dara_server::seat::new_game_id;
use dara_server::store::{GameRecord, Store, StoreError, StoredSeats, Write};
use serde_json::json;

/// A small tmpfs mounted for the test, unmounted afterwards: a disk that can really fill.
struct SmallDisk(PathBuf);

impl SmallDisk {
    /// Mounts a tmpfs of `size` at a directory of the test's own. Needs root (as `.ci/run` is);
    /// elsewhere `None`, said on stderr.
    fn mount(name: &str, size: &str) -> Option<SmallDisk> {
        let dir = std::env::temp_dir().join(format!("dara-disk-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&dir)
            .status()
            .is_ok_and(|s| s.success());
        if !mounted {
            // Only root may mount: the check runs where the tests run as root (.ci/run).
            let root = Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout == b"0\n");
            assert!(!root, "root could not mount a tmpfs at {}", dir.display());
            eprintln!("not root: the full-disk test needs to mount a tmpfs, and is skipped");
            let _ = std::fs::remove_dir(&dir);
            return None;
        }
        Some(SmallDisk(dir))
    }

    /// Fills the disk to its last byte with a file of its own.
    fn fill(&self) -> PathBuf {
        use std::io::Write;
        let path = self.0.join("filler");
        let mut file = std::fs::File::create(&path).unwrap();
        let block = vec![0u8; 64 * 1024];
        let mut size = block.len();
        // Smaller and smaller writes, down to a byte, until none fits.
        while size > 0 {
            match file.write(&block[..size]) {
                Ok(0) | Err(_) => size /= 2,
                Ok(_) => {}
            }
        }
        let _ = file.sync_all();
        path
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
        let _ = std::fs::remove_dir(&self.0);
    }
}

/// What `GET /readyz` answers.
async fn ready(addr: std::net::SocketAddr) -> (u16, String) {
    let response = reqwest::get(format!("http://{addr}/readyz")).await.unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

/// The disk fills mid-game: the next turn is refused with `store-unreachable` (never
/// acknowledged, never shown to the opponent), the sockets stay open, `/readyz` says saving is
/// paused; once there is room again the same turn is accepted and the game goes on; and after a
/// crash every acknowledged turn is there, and no other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_pauses_the_games_and_loses_nothing() {
    let Some(disk) = SmallDisk::mount("full", "2m") else { return };
    let data = DataDir(disk.0.join("data"));
    let process = Process::start(&data.0, test_config());
    let addr = process.addr;
    let (game, _, mut white, mut black) = common::two_players(addr).await;
    for (seat, id, m) in [(&mut white, 1, "c3"), (&mut black, 1, "d3")] {
        let answer = seat.turn(id, m).await;
        assert_eq!(answer["t"], "accepted", "{answer}");
    }
    assert_eq!(ready(addr).await.0, 200);

    let filler = disk.fill();
    let refused = white.turn(2, "a1").await;
    assert_eq!(refused["t"], "rejected", "{refused}");
    assert_eq!(refused["d"]["code"], "store-unreachable", "{refused}");
    assert_eq!(ready(addr).await, (503, "saving paused\n".to_owned()));
    // Asked again while the disk is still full: refused again, the game as it was.
    tokio::time::sleep(Duration::from_millis(2_100)).await;
    let refused = white.turn(2, "a1").await;
    assert_eq!(refused["d"]["code"], "store-unreachable", "{refused}");
    let (_, snapshot) = Client::hello(addr, &game, None, None).await;
    assert_eq!(snapshot["d"]["moves"], json!(["c3", "d3"]), "nothing unkept is shown");
    // A game asked for meanwhile is refused, and leaves nothing behind to count.
    let (status, refused) = common::post(addr, "/api/games", json!({ "opponent": "friend" })).await;
    assert_eq!((status, refused["code"].as_str()), (503, Some("unkept")), "{refused}");
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while process.state.live_games() != 1 {
        assert!(std::time::Instant::now() < deadline, "the unkept game is forgotten");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    std::fs::remove_file(&filler).unwrap();
    tokio::time::sleep(Duration::from_millis(2_100)).await;
    let accepted = white.turn(2, "a1").await;
    assert_eq!(accepted["t"], "accepted", "{accepted}");
    let mut heard = Vec::new();
    while heard.last().is_none_or(|m| m != "a1") {
        heard.push(black.next_of("move").await["d"]["m"].as_str().unwrap().to_owned());
    }
    assert_eq!(heard, ["c3", "d3", "a1"], "the opponent hears each turn once, none unkept");
    assert_eq!(black.turn(2, "f5").await["t"], "accepted");
    assert_eq!(ready(addr).await.0, 200, "saving goes on");
    process.crash();

    let process = Process::start(&data.0, test_config());
    let (_, snapshot) = Client::hello(process.addr, &game, None, None).await;
    assert_eq!(snapshot["d"]["moves"], json!(["c3", "d3", "a1", "f5"]), "{snapshot}");
    process.crash();
    drop(data);
    drop(disk);
}

/// An arena while the disk is full: a join is refused `arena-unkept` (503) and joins nobody; the
/// start and its pairing, due meanwhile, wait: nobody is told of a game the disk did not keep.
/// Once there is room the arena starts, pairs, its games are played, the refused player joins
/// as if for the first time, and a start its maker pressed meanwhile (refused `arena-unkept`)
/// is pressed again; and after a crash each player is seated again in the same game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_acknowledges_nothing_a_full_disk_did_not_keep() {
    use common::arena::{ask, now_ms, token, Watcher};

    let Some(disk) = SmallDisk::mount("arena", "2m") else { return };
    let data = DataDir(disk.0.join("data"));
    let process = Process::start(&data.0, test_config());
    let addr = process.addr;
    // It starts in 5 s: the joins and the filling of the disk come well before.
    let starts = now_ms() + 5_000;
    let body =
        json!({ "clock": { "initial": 180, "increment": 2 }, "minutes": 30, "starts": starts });
    let (status, made) = ask(addr, "/api/arenas", body).await;
    assert_eq!(status, 201, "{made}");
    let arena = made["arena"].as_str().unwrap().to_owned();
    let join = format!("/api/arenas/{arena}/join");
    for (n, name) in ["Ama", "Kofi"].iter().enumerate() {
        let (status, why) = ask(addr, &join, json!({ "player": token(n), "name": name })).await;
        assert_eq!(status, 204, "{why}");
    }
    Watcher::hello(addr, &arena, None).await.until(|s| s["d"]["players"] == 2).await;
    // And one that waits for its maker's press.
    let body = json!({ "clock": { "initial": 180, "increment": 2 }, "minutes": 30 });
    let (status, pressed) = ask(addr, "/api/arenas", body).await;
    assert_eq!(status, 201, "{pressed}");
    let start = format!("/api/arenas/{}/start", pressed["arena"].as_str().unwrap());
    let press = json!({ "secret": pressed["secret"] });

    let filler = disk.fill();
    // Its press is refused as not kept (it used to be `not-the-maker`), and it still waits.
    let (status, why) = ask(addr, &start, press.clone()).await;
    assert_eq!((status, why["code"].as_str()), (503, Some("arena-unkept")), "{why}");
    let (status, why) = ask(addr, &join, json!({ "player": token(2), "name": "Ngozi" })).await;
    assert_eq!((status, why["code"].as_str()), (503, Some("arena-unkept")), "{why}");
    let now = Watcher::hello(addr, &arena, None).await.last;
    assert_eq!(now["d"]["phase"], "waiting", "it started before the disk was full: {now}");
    // Past its start, and two pairing waves: nobody is told of a game, nobody more joined.
    let wait = Duration::from_millis(starts.saturating_sub(now_ms())) + Duration::from_secs(4);
    tokio::time::sleep(wait).await;
    for n in 0..2 {
        let seen = Watcher::hello(addr, &arena, Some(n)).await.last;
        assert!(seen["d"]["game"].is_null(), "a game the disk did not keep: {seen}");
        assert_eq!(seen["d"]["players"], 2, "{seen}");
        assert_eq!(seen["d"]["phase"], "waiting", "{seen}");
    }

    std::fs::remove_file(&filler).unwrap();
    // The arena goes on: it starts, and pairs the two.
    let mut seated = Vec::new();
    for n in 0..2 {
        let game = Watcher::hello(addr, &arena, Some(n)).await.game_other_than(None).await;
        seated.push((game["id"].as_str().unwrap().to_owned(), game["colour"].clone()));
    }
    assert_eq!(seated[0].0, seated[1].0, "{seated:?}");
    let game = seated[0].0.clone();
    let pale = if seated[0].1 == "white" { 0 } else { 1 };
    let (mut white, snapshot) = Client::hello(addr, &game, Some(&token(pale)), None).await;
    let first = snapshot["d"]["pos"]["legal"][0].as_str().unwrap().to_owned();
    assert_eq!(white.turn(1, &first).await["t"], "accepted");
    // The press goes through now.
    let (status, why) = ask(addr, &start, press).await;
    assert_eq!(status, 204, "{why}");
    // The refused join changed nothing: it goes through now.
    let (status, why) = ask(addr, &join, json!({ "player": token(2), "name": "Ngozi" })).await;
    assert_eq!(status, 204, "{why}");
    // A socket opened now: the first one, unread while the test waited, may be let go for
    // its silence (its pongs are only sent as it is read).
    Watcher::hello(addr, &arena, None).await.until(|s| s["d"]["players"] == 3).await;
    process.crash();

    let process = Process::start(&data.0, test_config());
    for (n, (id, colour)) in seated.iter().enumerate() {
        let mut watcher = Watcher::hello(process.addr, &arena, Some(n)).await;
        let again = watcher.game_other_than(None).await;
        assert_eq!((&again["id"], &again["colour"]), (&json!(id), colour), "{again}");
    }
    let (_, snapshot) = Client::hello(process.addr, &game, None, None).await;
    assert_eq!(snapshot["d"]["moves"], json!([first]), "{snapshot}");
    process.crash();
    drop(data);
    drop(disk);
}

/// What `GET /healthz` answers.
async fn healthy(addr: std::net::SocketAddr) -> u16 {
    reqwest::get(format!("http://{addr}/healthz")).await.unwrap().status().as_u16()
}

/// `/readyz` answers 200 again within `within`, with no game writing meanwhile.
async fn ready_again(addr: std::net::SocketAddr, within: Duration) {
    let deadline = std::time::Instant::now() + within;
    loop {
        let (status, said) = ready(addr).await;
        if status == 200 {
            return;
        }
        assert!(std::time::Instant::now() < deadline, "/readyz still says {status} {said}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A game on a clock while the disk is full: the clock of the side to move does not run down
/// while saving is paused (a turn refused, four seconds waited, and the clock shows what it
/// did before, give or take a second), `/healthz` stays 200 (the process is alive) while
/// `/readyz` answers 503; and once the disk has room again `/readyz` is 200 by itself, no game
/// having written anything (it used to wait for a game's commit, for ever on a quiet server).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clocks_are_held_while_saving_is_paused_and_readyz_recovers_alone() {
    let Some(disk) = SmallDisk::mount("clock", "2m") else { return };
    let data = DataDir(disk.0.join("data"));
    let process = Process::start(&data.0, test_config());
    let addr = process.addr;
    let (game, seat, _) = common::create(
        addr,
        json!({ "opponent": "friend", "first": "me", "clock": { "initial": 60, "increment": 0 } }),
    )
    .await;
    let (mut white, _) = Client::hello(addr, &game, Some(&seat), None).await;
    let (mut black, _) = Client::hello(addr, &game, None, None).await;
    black.send(json!({ "t": "join" })).await;
    black.next_of("joined").await;
    assert_eq!(white.turn(1, "c3").await["t"], "accepted");
    assert_eq!(black.turn(1, "d3").await["t"], "accepted");
    assert_eq!(white.turn(2, "e3").await["t"], "accepted");
    assert_eq!(black.turn(2, "f3").await["t"], "accepted");
    let (_, snapshot) = Client::hello(addr, &game, None, None).await;
    let before = &snapshot["d"]["clock"];
    assert_eq!(before["running"], "white", "{before}");
    let left = before["white"].as_i64().unwrap();

    let filler = disk.fill();
    let refused = white.turn(3, "a1").await;
    assert_eq!(refused["d"]["code"], "store-unreachable", "{refused}");
    assert_eq!(ready(addr).await.0, 503);
    assert_eq!(healthy(addr).await, 200, "the process is alive: /healthz is not /readyz");
    tokio::time::sleep(Duration::from_secs(4)).await;
    let (_, snapshot) = Client::hello(addr, &game, None, None).await;
    let during = &snapshot["d"]["clock"];
    let now = during["white"].as_i64().unwrap();
    assert!(now > left - 1_000, "pale had {left} ms, {now} ms after 4 s paused: {during}");
    assert_eq!(during["running"], serde_json::Value::Null, "no clock runs: {during}");
    assert_eq!(ready(addr).await.0, 503);
    assert_eq!(healthy(addr).await, 200);

    std::fs::remove_file(&filler).unwrap();
    ready_again(addr, Duration::from_secs(6)).await;
    assert_eq!(healthy(addr).await, 200);
    let accepted = white.turn(3, "a1").await;
    assert_eq!(accepted["t"], "accepted", "{accepted}");
    let moved = loop {
        let moved = black.next_of("move").await;
        if moved["d"]["m"] == "a1" {
            break moved;
        }
    };
    let after = moved["d"]["clock"]["white"].as_i64().unwrap();
    assert!(after > left - 1_000, "pale had {left} ms before the pause, {after} ms after it");
    process.crash();
    drop(data);
    drop(disk);
}

/// The write that begins `game`, both seats open.
fn begin(game: &dara_server::seat::GameId) -> Write {
    let settings = GameSettings {
        rules: dara::Ruleset::default(),
        opponent: Opponent::Friend,
        creator: dara::Colour::White,
        clock: None,
    };
    let seats = dara::ByColour { white: Seat::Open, black: Seat::Open };
    Write::Begin {
        game: game.clone(),
        record: GameRecord::new(&settings, "2026.12.04"),
        seats: StoredSeats::new(&seats),
    }
}

/// `n` draw offers of `game` from version `from` on, enough to need new pages.
fn offers(game: &dara_server::seat::GameId, from: u64, n: u64) -> Vec<Write> {
    (from..from + n)
        .map(|v| Write::Append {
            game: game.clone(),
            v,
            event: GameEvent::DrawOffered { by: dara::Colour::White },
        })
        .collect()
}

/// A crash of the store open on `data`, now: its files as they are, copied into a directory
/// named `name` for another process to open.
fn crashed_copy(data: &DataDir, name: &str) -> DataDir {
    let crashed = DataDir::new(name);
    std::fs::create_dir_all(&crashed.0).unwrap();
    for entry in std::fs::read_dir(&data.0).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), crashed.0.join(entry.file_name())).unwrap();
    }
    crashed
}

/// Opens `dir` once a store opened before has let go of it.
fn open(dir: &std::path::Path) -> dara_server::store::Opened {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        match Store::open(dir) {
            Err(StoreError::Locked(_)) if std::time::Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(20));
            }
            other => return other.unwrap(),
        }
    }
}

/// A commit that finds the disk full is [`StoreError::Full`], told apart from other failures
/// (an I/O error, a failed sync: `StoreError::Unwritten`), and from damage.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_is_reported_as_full() {
    let Some(disk) = SmallDisk::mount("typed", "2m") else { return };
    let data = DataDir(disk.0.join("data"));
    let store = open(&data.0).store;
    let game = new_game_id();
    store.send(vec![begin(&game)]).wait().await.unwrap();
    let filler = disk.fill();
    let e = store.send(offers(&game, 1, 400)).wait().await.unwrap_err();
    assert!(matches!(e, StoreError::Full(_)), "{e:?}");
    assert!(e.is_a_pause() && !e.outcome_unknown(), "{e:?}");
    std::fs::remove_file(&filler).unwrap();
    store.send(offers(&game, 1, 1)).wait().await.unwrap();
    store.close().await;
    drop(data);
    drop(disk);
}

/// A commit that fails partway (the disk fills while SQLite writes its log) leaves no trace:
/// SQLite takes it back before it answers (the log's index is moved on only after the write
/// and its sync succeed, and the next commit writes over its frames), so what the game goes
/// back to (the journal it had kept, see `Game::roll_back`) is what the store holds, both
/// while the server runs and after it stops: the failed commit's events are never read back,
/// and the next commit's are, in their place; nor are they after a crash before the next.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_commit_leaves_nothing_the_game_does_not_know_of() {
    let Some(disk) = SmallDisk::mount("trace", "2m") else { return };
    let data = DataDir(disk.0.join("data"));
    let store = open(&data.0).store;
    let game = new_game_id();
    store.send(vec![begin(&game)]).wait().await.unwrap();
    store.send(offers(&game, 1, 2)).wait().await.unwrap();
    let filler = disk.fill();
    let failed = store.send(offers(&game, 3, 400)).wait().await;
    assert!(failed.is_err(), "the commit finds the disk full");
    std::fs::remove_file(&filler).unwrap();
    // A crash now: the files as they are, opened by another process.
    let crashed = crashed_copy(&data, "failed-commit-crashed");
    let opened = open(&crashed.0);
    let stored = opened.games.iter().find(|g| g.id == game).unwrap();
    assert_eq!(stored.events.len(), 2, "after a crash, what was kept before the failed commit");
    opened.store.close().await;
    // As the game sends after going back: its events from version 3 again, fewer of them.
    store.send(offers(&game, 3, 1)).wait().await.unwrap();
    store.close().await;

    let opened = open(&data.0);
    let stored = opened.games.iter().find(|g| g.id == game).unwrap();
    assert_eq!(stored.events.len(), 3, "the kept events and the next commit's, none other");
    opened.store.close().await;
    drop(data);
    drop(disk);
}

/// A disk whose sync fails: `fsync` and `fdatasync` of this test binary, defined here so that
/// SQLite's calls (and every other in the binary) come to them, refuse with `EIO` for the
/// write-ahead log under one directory while it is set, and otherwise do what the system's do.
/// A failed sync after the frames were written is what a dying disk (or a full thin volume,
/// or a lost network disk) gives: the frames are in the page cache, and a crash before the
/// next commit may find them there, whole.
mod failing_sync {
    use std::path::PathBuf;
    use std::sync::Mutex;

    /// The directory whose log's syncs fail, while set.
    static FAILING: Mutex<Option<PathBuf>> = Mutex::new(None);

    /// The log's syncs under `dir` fail from now on (`Some`), or not (`None`).
    pub fn set(dir: Option<PathBuf>) {
        *FAILING.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = dir;
    }

    fn fails(fd: libc::c_int) -> bool {
        let failing = FAILING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some(dir) = failing.as_ref() else { return false };
        std::fs::read_link(format!("/proc/self/fd/{fd}"))
            .is_ok_and(|path| path.starts_with(dir) && path.to_string_lossy().ends_with("-wal"))
    }

    fn sync(fd: libc::c_int, call: libc::c_long) -> libc::c_int {
        if fails(fd) {
            // SAFETY: errno is this thread's own.
            unsafe { *libc::__errno_location() = libc::EIO };
            return -1;
        }
        // SAFETY: the system call the C library's own function makes, with its argument.
        unsafe { libc::syscall(call, fd) as libc::c_int }
    }

    #[unsafe(no_mangle)]
    extern "C" fn fsync(fd: libc::c_int) -> libc::c_int {
        sync(fd, libc::SYS_fsync)
    }

    #[unsafe(no_mangle)]
    extern "C" fn fdatasync(fd: libc::c_int) -> libc::c_int {
        sync(fd, libc::SYS_fdatasync)
    }
}

/// A commit whose sync failed is refused, and stays refused through a crash: its frames, all
/// written before the sync, may be in the log that the next start reads (SQLite takes a whole
/// commit it finds there), so the store takes them back at start, and no turn that was refused
/// stands in the journal after all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_commit_whose_sync_failed_does_not_come_back_after_a_crash() {
    let data = DataDir::new("failed-sync");
    let store = open(&data.0).store;
    let game = new_game_id();
    store.send(vec![begin(&game)]).wait().await.unwrap();
    store.send(offers(&game, 1, 2)).wait().await.unwrap();
    failing_sync::set(Some(data.0.clone()));
    let refused = store.send(offers(&game, 3, 5)).wait().await;
    failing_sync::set(None);
    assert!(matches!(refused, Err(StoreError::Unwritten(_))), "{refused:?}");

    // A crash now: the files as they are, opened by another process.
    let crashed = crashed_copy(&data, "failed-sync-crashed");
    let opened = open(&crashed.0);
    let stored = opened.games.iter().find(|g| g.id == game).unwrap();
    assert_eq!(stored.events.len(), 2, "after a crash, what was acknowledged, and no more");
    // And the next start of the same files finds them as they are now.
    opened.store.close().await;
    let opened = open(&crashed.0);
    assert_eq!(opened.games.iter().find(|g| g.id == game).unwrap().events.len(), 2);
    opened.store.close().await;

    // The server that saw the failure goes on: its next commit is kept, the refused one not.
    store.send(offers(&game, 3, 1)).wait().await.unwrap();
    store.close().await;
    let opened = open(&data.0);
    assert_eq!(opened.games.iter().find(|g| g.id == game).unwrap().events.len(), 3);
    opened.store.close().await;
}
