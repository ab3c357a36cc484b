//! A server started again on the data it kept: the time it was down is nobody's, a game it
//! forgot is gone from the disk, and a store written by an earlier format still reads. Each "process" here is a server with a runtime of its own,
//! reached over real sockets; dropping that runtime without stopping the server is its crash
//! (what it had acknowledged was already on disk). The library allows clocks shorter than the
//! site offers, so the test needs no minute of waiting for a clock.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::kept::{DataDir, Process};
use common::{test_config, Client};
use dara::{ByColour, Colour, Ruleset};
use dara_server::game::clock::TimeControl;
use dara_server::game::{self, GameSettings, Opponent, Seat};
use dara_server::seat::{SeatKey, SeatToken};
use dara_server::store::{sqlite, Store, StoreError, STORE_FORMAT};
use dara_server::Config;
use serde_json::json;

/// A game between two people on a short clock, spawned through the library; its id.
async fn spawn_clock_game(
    process: &Process,
    initial: u32,
    pale: &SeatToken,
    dark: &SeatToken,
) -> String {
    let settings = GameSettings {
        rules: Ruleset::default(),
        opponent: Opponent::Friend,
        creator: Colour::White,
        clock: Some(TimeControl { initial, increment: 0 }),
    };
    let key = &process.state.seat_key;
    let seats = ByColour { white: Seat::Human(key.seal(pale)), black: Seat::Human(key.seal(dark)) };
    let state = process.state.clone();
    let spawned = process.runtime.spawn(async move {
        let (handle, stored) = game::spawn(&state, settings, seats, None).unwrap();
        stored.wait().await.unwrap();
        handle.id.to_string()
    });
    spawned.await.unwrap()
}

/// The mover's clock shows 5 s before a 20 s outage and 5 s after it (give or take the lag
/// allowance); it stays stopped until the mover is back, then runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_time_the_server_was_down_is_nobodys() {
    let data = DataDir::new("clock");
    let (pale, dark) = (SeatToken::random(), SeatToken::random());
    let first = Process::start(&data.0, test_config());
    let game = spawn_clock_game(&first, 8, &pale, &dark).await;
    let addr = first.addr;
    let (mut white, _) = Client::hello(addr, &game, Some(pale.as_str()), None).await;
    let (mut black, _) = Client::hello(addr, &game, Some(dark.as_str()), None).await;
    // Each side's clock starts with its first move: both place once at once, then pale thinks
    // 3 s: 5 s left. Dark answers at once.
    assert_eq!(white.turn(1, "c3").await["t"], "accepted");
    assert_eq!(black.turn(1, "d3").await["t"], "accepted");
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(white.turn(2, "e3").await["t"], "accepted");
    assert_eq!(black.turn(2, "f3").await["t"], "accepted");
    let moved = loop {
        let moved = black.next_of("move").await;
        if moved["d"]["ply"] == 4 {
            break moved;
        }
    };
    let left = moved["d"]["clock"]["white"].as_i64().unwrap();
    assert!((4_800..=5_200).contains(&left), "pale has {left} ms");
    assert_eq!(moved["d"]["clock"]["running"], "white");

    first.crash();
    drop((white, black));
    tokio::time::sleep(Duration::from_secs(20)).await;
    let second = Process::start(&data.0, test_config());
    let addr = second.addr;

    // Dark (not to move) comes back first: the clocks stay stopped.
    let (_black, snapshot) = Client::hello(addr, &game, Some(dark.as_str()), None).await;
    assert_eq!(snapshot["t"], "snapshot", "{snapshot}");
    let clock = &snapshot["d"]["clock"];
    assert_eq!(clock["running"], serde_json::Value::Null, "{clock}");
    assert_eq!(clock["white"].as_i64().unwrap(), left, "{clock}");
    // Pale comes back: pale's clock runs again from the 5 s it had.
    let (mut white, snapshot) = Client::hello(addr, &game, Some(pale.as_str()), None).await;
    let clock = &snapshot["d"]["clock"];
    assert_eq!(clock["running"], "white", "{clock}");
    let now = clock["white"].as_i64().unwrap();
    assert!((left - 600..=left).contains(&now), "pale had {left} ms, now {now}: {clock}");
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(white.turn(3, "a1").await["t"], "accepted");
    let moved = white.next_of("move").await;
    let after = moved["d"]["clock"]["white"].as_i64().unwrap();
    assert!((left - 1_600..=left - 400).contains(&after), "pale had {left} ms, then {after}");
    second.crash();
}

/// A takeback is kept as a turn is: a server killed mid-game takes the game up after it, with
/// the request that was standing still there to answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_and_a_standing_request_survive_a_crash() {
    let data = DataDir::new("takeback");
    let (pale, dark) = (SeatToken::random(), SeatToken::random());
    let first = Process::start(&data.0, test_config());
    let game = spawn_clock_game(&first, 600, &pale, &dark).await;
    let addr = first.addr;
    let (mut white, _) = Client::hello(addr, &game, Some(pale.as_str()), None).await;
    let (mut black, _) = Client::hello(addr, &game, Some(dark.as_str()), None).await;
    for (id, m) in [(1, "c3"), (2, "e3")] {
        assert_eq!(white.turn(id, m).await["t"], "accepted");
        let reply = if id == 1 { "d3" } else { "f3" };
        assert_eq!(black.turn(id, reply).await["t"], "accepted");
    }
    // Dark asks back its f3 and pale grants it; then pale asks back e3, which dark has not
    // answered, and the server dies before dark answers the request.
    black.send(json!({ "t": "takeback" })).await;
    white.next_of("takeback-offer").await;
    white.send(json!({ "t": "takeback-accept" })).await;
    assert_eq!(black.next_of("takeback").await["d"]["ply"], 3);
    white.send(json!({ "t": "takeback" })).await;
    black.next_of("takeback-offer").await;
    first.crash();
    drop((white, black));

    let second = Process::start(&data.0, test_config());
    let (mut black, snapshot) = Client::hello(second.addr, &game, Some(dark.as_str()), None).await;
    assert_eq!(snapshot["d"]["moves"], json!(["c3", "d3", "e3"]), "{snapshot}");
    assert_eq!(snapshot["d"]["takebackOffer"], "white");
    black.send(json!({ "t": "takeback-accept" })).await;
    let took = black.next_of("takeback").await;
    assert_eq!((&took["d"]["plies"], &took["d"]["ply"]), (&json!(1), &json!(2)));
    assert_eq!(took["d"]["pos"]["side"], "white");
    second.crash();
}

/// An operator sees how long the store's commits take (a slow disk holds every turn behind it):
/// the game's beginning and each turn were committed, and counted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operator_sees_how_long_commits_take() {
    let data = DataDir::new("metrics");
    let (pale, dark) = (SeatToken::random(), SeatToken::random());
    let process = Process::start(&data.0, test_config());
    let game = spawn_clock_game(&process, 60, &pale, &dark).await;
    let (mut white, _) = Client::hello(process.addr, &game, Some(pale.as_str()), None).await;
    let (_black, _) = Client::hello(process.addr, &game, Some(dark.as_str()), None).await;
    assert_eq!(white.turn(1, "c3").await["t"], "accepted");
    let url = format!("http://{}/metrics", process.addr);
    let metrics = reqwest::get(url).await.unwrap().text().await.unwrap();
    let commits = metrics
        .lines()
        .find_map(|l| l.strip_prefix("dara_store_commit_seconds_count "))
        .unwrap_or_else(|| panic!("no commit count in\n{metrics}"));
    // The game's beginning, its seating events and the turn: at least two commits.
    assert!(commits.parse::<u64>().unwrap() >= 2, "{commits} commits in\n{metrics}");
    process.crash();
}

/// A finished game, once forgotten, is erased: no row of it, and neither its id nor its seats'
/// token hashes anywhere in the data directory's files.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forgotten_game_leaves_nothing_on_disk() {
    let data = DataDir::new("erase");
    let config = Config { finished_grace: Duration::from_millis(300), ..test_config() };
    let process = Process::start(&data.0, config.clone());
    let addr = process.addr;
    let (game, pale, _) =
        common::create(addr, json!({ "opponent": "friend", "first": "me" })).await;
    let (mut white, _) = Client::hello(addr, &game, Some(&pale), None).await;
    let (mut black, _) = Client::hello(addr, &game, None, None).await;
    black.send(json!({ "t": "join" })).await;
    let dark = black.next_of("joined").await["d"]["seat"].as_str().unwrap().to_owned();
    assert_eq!(white.turn(1, "c3").await["t"], "accepted");
    let key = std::fs::read(data.0.join(sqlite::SEAT_KEY)).unwrap();
    let key = SeatKey::from_bytes(key.try_into().unwrap());
    let hashes = [key.hash(&pale).to_hex(), key.hash(&dark).to_hex()];
    // While the game lives, it is in the store.
    let live = |needle: &str| sqlite::files_contain(&data.0, needle.as_bytes());
    let deadline = Instant::now() + Duration::from_secs(5);
    while !(live(&game) && hashes.iter().all(|h| live(h))) {
        assert!(Instant::now() < deadline, "the live game is in the store");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    white.send(json!({ "t": "resign" })).await;
    white.next_of("end").await;
    // Forgotten a moment later: its socket closes with 4004.
    assert_eq!(white.closed().await, Some(4004));
    drop((white, black));
    tokio::time::sleep(Duration::from_millis(200)).await;
    // A server that stops empties its log; the hourly checkpoint does the same while it runs.
    let store = process.state.store.clone();
    process.runtime.spawn(async move { store.close().await }).await.unwrap();
    process.crash();
    let conn = rusqlite::Connection::open(data.0.join(sqlite::DATABASE)).unwrap();
    let rows: i64 = conn
        .query_row(
            "SELECT (SELECT count(*) FROM games) + (SELECT count(*) FROM journal)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(rows, 0);
    drop(conn);
    assert!(!live(&game), "the game's id is gone from every file");
    for hash in &hashes {
        assert!(!live(hash), "its seats' token hashes are gone from every file");
    }
}

/// Where the store written by `format` is kept, for every later release to read.
fn fixture(format: i64) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/store-format-{format}"))
}

/// The last format kept without a journal mark: a copy of its store whose rows a test changes
/// opens as it reads (a row changed under a mark is a loss the mark shows, see `durable.rs`).
const UNMARKED: i64 = 4;

/// The seat codes the fixture's people hold.
const FIXTURE_TOKENS: [&str; 4] = [
    "a0000000000000000000000000000001",
    "b0000000000000000000000000000002",
    "c0000000000000000000000000000003",
    "d0000000000000000000000000000004",
];

/// Writes the fixture store of this release's format (run once, with `--ignored`, when a
/// store format is released): a game by link on a 5+3 clock with two turns and a draw offer,
/// one against the computer, one resigned, and an open table with one person waiting.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "writes the committed fixture"]
async fn write_the_fixture_of_this_format() {
    let dir = fixture(STORE_FORMAT);
    let _ = std::fs::remove_dir_all(&dir);
    let process = Process::start(&dir, test_config());
    let addr = process.addr;
    let key = process.state.seat_key.clone();
    let human = |i: usize| Seat::Human(key.hash(FIXTURE_TOKENS[i]));
    let spawn = |opponent, clock, seats| {
        let state = process.state.clone();
        let settings =
            GameSettings { rules: Ruleset::default(), opponent, creator: Colour::White, clock };
        process.runtime.spawn(async move {
            let (handle, stored) = game::spawn(&state, settings, seats, None).unwrap();
            stored.wait().await.unwrap();
            handle.id.to_string()
        })
    };
    let clock = Some(TimeControl { initial: 300, increment: 3 });
    let by_link = spawn(Opponent::Friend, clock, ByColour { white: human(0), black: human(1) })
        .await
        .unwrap();
    let (mut white, _) = Client::hello(addr, &by_link, Some(FIXTURE_TOKENS[0]), None).await;
    let (mut black, _) = Client::hello(addr, &by_link, Some(FIXTURE_TOKENS[1]), None).await;
    assert_eq!(white.turn(1, "c3").await["t"], "accepted");
    assert_eq!(black.turn(1, "d3").await["t"], "accepted");
    white.send(json!({ "t": "draw-offer" })).await;
    white.next_of("draw-offer").await;

    let level = dara_engine::level::Level::new(1).unwrap();
    let computer = spawn(
        Opponent::Computer(level),
        None,
        ByColour { white: human(2), black: Seat::Computer(level) },
    )
    .await
    .unwrap();
    let (mut player, _) = Client::hello(addr, &computer, Some(FIXTURE_TOKENS[2]), None).await;
    assert_eq!(player.turn(1, "c3").await["t"], "accepted");
    while player.next_of("move").await["d"]["ply"] != 2 {}

    let resigned =
        spawn(Opponent::Friend, None, ByColour { white: human(3), black: human(0) }).await.unwrap();
    let (mut quitter, _) = Client::hello(addr, &resigned, Some(FIXTURE_TOKENS[3]), None).await;
    quitter.send(json!({ "t": "resign" })).await;
    quitter.next_of("end").await;

    let open =
        spawn(Opponent::Open, None, ByColour { white: human(1), black: Seat::Open }).await.unwrap();
    drop((white, black, player, quitter, open));
    let store = process.state.store.clone();
    process.runtime.spawn(async move { store.close().await }).await.unwrap();
    process.crash();
}

/// The stores written by format 1 (the events kept by game), format 2 (a row for each event),
/// formats 3 and 4 (a row for each commit; 4 with checksums), both from before journal marks,
/// format 5 (with a mark), and by this format (6: arenas kept too) (committed under `tests/fixtures`) still read, and their games are taken
/// up as they were.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_of_format_1_is_taken_up() {
    a_store_is_taken_up(1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_of_format_2_is_taken_up() {
    a_store_is_taken_up(2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_of_format_3_is_taken_up() {
    a_store_is_taken_up(3).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_of_format_4_is_taken_up() {
    a_store_is_taken_up(4).await;
}

/// Format 5: a mark, and no arenas yet.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_of_format_5_is_taken_up() {
    a_store_is_taken_up(5).await;
}

/// [`Store::open_with`], once the writer of the store opened before has let go of it.
fn open_when_free(dir: &Path, accept_loss: bool) -> Result<dara_server::store::Opened, StoreError> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match Store::open_with(dir, accept_loss) {
            Err(StoreError::Locked(_)) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(20));
            }
            other => return other,
        }
    }
}

/// Closes a store opened by the test: its writer has let go of the directory on return.
fn close(opened: dara_server::store::Opened) -> usize {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(opened.store.close());
    opened.games.len()
}

/// The database's format, as it says in its own file (its write-ahead log left out).
fn format_on_disk(dir: &Path) -> i64 {
    let bytes = std::fs::read(dir.join(sqlite::DATABASE)).unwrap();
    // SQLite's `user_version`: four bytes at offset 60 of the header, big-endian.
    i64::from(i32::from_be_bytes(bytes[60..64].try_into().unwrap()))
}

/// A store of format 3, from before journal marks, opens without one and replays as it was;
/// from then on it is kept with a mark, and says so in its own file (not only in its
/// write-ahead log, which may go with the mark). The mark deleted then, together with the log,
/// is refused at start, naming the mark's file, where it used to read as a store from before
/// marks and serve what the database alone held; `--accept-loss` serves what is left and
/// writes a mark again.
#[test]
fn a_missing_mark_is_refused_once_the_store_is_kept_with_one() {
    let data = DataDir::new("no-mark");
    std::fs::create_dir_all(&data.0).unwrap();
    for name in [sqlite::DATABASE, sqlite::SEAT_KEY] {
        std::fs::copy(fixture(3).join(name), data.0.join(name)).unwrap();
    }
    let mark = data.0.join(sqlite::MARK);
    assert!(!mark.exists());
    let opened = open_when_free(&data.0, false).unwrap();
    assert!(mark.exists(), "a store from before marks gets its mark");
    assert_eq!(format_on_disk(&data.0), STORE_FORMAT, "and says so in the database's own file");
    assert_eq!(close(opened), 4, "and opens as it was");
    assert_eq!(close(open_when_free(&data.0, false).unwrap()), 4);

    std::fs::remove_file(&mark).unwrap();
    let _ = std::fs::remove_file(data.0.join(format!("{}-wal", sqlite::DATABASE)));
    let error = open_when_free(&data.0, false).unwrap_err();
    let said = error.to_string();
    assert!(matches!(error, StoreError::JournalLost(_)), "{said}");
    assert!(said.contains(&mark.display().to_string()), "names the mark: {said}");
    assert!(said.contains("--accept-loss"), "{said}");
    assert!(!mark.exists(), "nothing was repaired behind the operator's back");

    let opened = open_when_free(&data.0, true).unwrap();
    assert!(mark.exists(), "accepted, a mark is written again");
    assert_eq!(close(opened), 4, "and what is left is served");
    assert_eq!(close(open_when_free(&data.0, false).unwrap()), 4);
}

/// The seat key's file gone while live games are stored: the store refuses to open, naming the
/// file, rather than make a new key that would lock every player out of their games. With no
/// game stored, a new key is simply made.
#[test]
fn a_missing_seat_key_with_stored_games_is_refused() {
    let data = DataDir::new("no-seat-key");
    std::fs::create_dir_all(&data.0).unwrap();
    for name in [sqlite::DATABASE, sqlite::MARK] {
        std::fs::copy(fixture(STORE_FORMAT).join(name), data.0.join(name)).unwrap();
    }
    let error = Store::open(&data.0).unwrap_err();
    let StoreError::SeatKeyMissing { path, games } = &error else { panic!("{error}") };
    assert_eq!((path.clone(), *games), (data.0.join(sqlite::SEAT_KEY), 4));
    let said = error.to_string();
    assert!(said.contains(&data.0.join(sqlite::SEAT_KEY).display().to_string()), "{said}");
    assert!(!data.0.join(sqlite::SEAT_KEY).exists(), "no new key was made");

    let empty = DataDir::new("no-seat-key-empty");
    let opened = Store::open(&empty.0).unwrap();
    assert!(opened.games.is_empty());
    drop(opened);
    assert!(empty.0.join(sqlite::SEAT_KEY).exists(), "a new store makes its key");
}

/// One game's row damaged on disk (its seats no longer JSON) and another's journal line (an
/// event cut short): those two games are set apart, their sockets closed with 4010 (their pages
/// still served, to hear why), and the other two are served as they were.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_row_sets_its_game_apart_and_every_other_game_is_served() {
    let data = DataDir::new("damaged-row");
    std::fs::create_dir_all(&data.0).unwrap();
    for name in [sqlite::DATABASE, sqlite::SEAT_KEY] {
        std::fs::copy(fixture(UNMARKED).join(name), data.0.join(name)).unwrap();
    }
    let opened = Store::open(&data.0).unwrap();
    let mut games: Vec<_> =
        opened.games.iter().map(|g| (g.events.len(), g.id.to_string())).collect();
    drop(opened);
    games.sort();
    let ids: Vec<String> = games.into_iter().map(|(_, id)| id).collect();
    let [open, resigned, computer, by_link] = [&ids[0], &ids[1], &ids[2], &ids[3]];
    {
        let conn = rusqlite::Connection::open(data.0.join(sqlite::DATABASE)).unwrap();
        conn.execute("UPDATE games SET seats = '{\"white\":' WHERE id = ?1", [by_link]).unwrap();
        // The computer's game's first event, cut short where it stands in its journal row.
        let (seq, events): (i64, Vec<u8>) = conn
            .query_row(
                "SELECT seq, events FROM journal WHERE instr(events, ?1) > 0",
                [format!("{computer} 1 ").into_bytes()],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        let text = String::from_utf8(events).unwrap();
        let damaged: Vec<String> = text
            .lines()
            .map(|line| match line.strip_prefix(&format!("{computer} 1 ")) {
                Some(event) => format!("{computer} 1 {}", &event[..event.len() / 2]),
                None => line.to_owned(),
            })
            .collect();
        let damaged = damaged.join("\n") + "\n";
        conn.execute(
            "UPDATE journal SET events = ?1 WHERE seq = ?2",
            rusqlite::params![damaged.into_bytes(), seq],
        )
        .unwrap();
    }
    let opened = Store::open(&data.0).unwrap();
    let mut damaged: Vec<&str> = opened.damaged.iter().map(|d| d.id.as_str()).collect();
    damaged.sort();
    let mut expected = [computer.as_str(), by_link.as_str()];
    expected.sort();
    assert_eq!(damaged, expected, "{:?}", opened.damaged);
    assert_eq!(opened.games.len(), 2);
    drop(opened);

    let process = Process::start(&data.0, test_config());
    let addr = process.addr;
    for (game, token) in [(by_link, FIXTURE_TOKENS[0]), (computer, FIXTURE_TOKENS[2])] {
        let mut client = Client::connect(addr, game).await;
        client.send(json!({ "t": "hello", "d": { "protocol": 1, "seat": token } })).await;
        assert_eq!(client.closed().await, Some(4010), "game {game} is damaged");
        let page = reqwest::get(format!("http://{addr}/g/{game}")).await.unwrap();
        assert_eq!(page.status(), 200, "the damaged game's page is served, to say why");
    }
    let (_, snapshot) = Client::hello(addr, resigned, Some(FIXTURE_TOKENS[3]), None).await;
    assert_eq!(snapshot["d"]["end"]["code"], "resigned", "{snapshot}");
    let (mut white, snapshot) = Client::hello(addr, open, Some(FIXTURE_TOKENS[1]), None).await;
    assert_eq!(snapshot["d"]["you"], "white", "{snapshot}");
    white.send(json!({ "t": "resign" })).await;
    assert_eq!(white.next_of("ok").await["t"], "ok");
    process.crash();
    // Set apart, not erased: the damaged rows are still there for the operator.
    let conn = rusqlite::Connection::open(data.0.join(sqlite::DATABASE)).unwrap();
    let kept: i64 = conn
        .query_row("SELECT count(*) FROM games WHERE id IN (?1, ?2)", [computer, by_link], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(kept, 2);
}

/// Damage that reaches a game's id: a byte of the game by link's id in its journal line, the
/// id of the computer's game's row (no longer UTF-8), the resigned game's record (bytes that
/// are not text), and a journal row added whose line names no game at all. Each game that can
/// be told is set apart alone (4010); the line tied to no game is set aside, named in the log
/// by its row; the store opens and the open table is served, where the store used to refuse
/// to open at all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_id_sets_its_own_game_apart_and_every_other_game_is_served() {
    let data = DataDir::new("damaged-id");
    std::fs::create_dir_all(&data.0).unwrap();
    for name in [sqlite::DATABASE, sqlite::SEAT_KEY] {
        std::fs::copy(fixture(UNMARKED).join(name), data.0.join(name)).unwrap();
    }
    let opened = open_when_free(&data.0, false).unwrap();
    let mut games: Vec<_> =
        opened.games.iter().map(|g| (g.events.len(), g.id.to_string())).collect();
    opened.store.close().await;
    games.sort();
    let ids: Vec<String> = games.into_iter().map(|(_, id)| id).collect();
    let [open, resigned, computer, by_link] = [&ids[0], &ids[1], &ids[2], &ids[3]];
    {
        let conn = rusqlite::Connection::open(data.0.join(sqlite::DATABASE)).unwrap();
        let first = format!("{by_link} 1 ").into_bytes();
        let (seq, mut events): (i64, Vec<u8>) = conn
            .query_row(
                "SELECT seq, events FROM journal WHERE instr(events, ?1) > 0",
                [&first],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        let at = events.windows(first.len()).position(|w| w == first).unwrap();
        events[at + 2] = 0xff;
        conn.execute(
            "UPDATE journal SET events = ?1 WHERE seq = ?2",
            rusqlite::params![events, seq],
        )
        .unwrap();
        let mut id = computer.clone().into_bytes();
        id[5] = 0xfe;
        conn.execute("UPDATE games SET id = ?1 WHERE id = ?2", rusqlite::params![id, computer])
            .unwrap();
        conn.execute(
            "UPDATE games SET record = X'ff7b7d' WHERE id = ?1",
            rusqlite::params![resigned],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO journal (seq, events) SELECT max(seq) + 1, X'fffe2031207b7d0a' FROM journal",
            [],
        )
        .unwrap();
    }
    let opened = open_when_free(&data.0, false).unwrap();
    let mut damaged: Vec<&str> = opened.damaged.iter().map(|d| d.id.as_str()).collect();
    damaged.sort();
    let mut expected = [by_link.as_str(), computer.as_str(), resigned.as_str()];
    expected.sort();
    assert_eq!(damaged, expected, "{:?}", opened.damaged);
    let served: Vec<String> = opened.games.iter().map(|g| g.id.to_string()).collect();
    assert_eq!(served, std::slice::from_ref(open));
    opened.store.close().await;

    let process = Process::start(&data.0, test_config());
    let addr = process.addr;
    for (game, token) in
        [(by_link, FIXTURE_TOKENS[0]), (computer, FIXTURE_TOKENS[2]), (resigned, FIXTURE_TOKENS[3])]
    {
        let mut client = Client::connect(addr, game).await;
        client.send(json!({ "t": "hello", "d": { "protocol": 1, "seat": token } })).await;
        assert_eq!(client.closed().await, Some(4010), "game {game} is damaged");
    }
    let (mut white, snapshot) = Client::hello(addr, open, Some(FIXTURE_TOKENS[1]), None).await;
    assert_eq!(snapshot["d"]["you"], "white", "{snapshot}");
    white.send(json!({ "t": "resign" })).await;
    assert_eq!(white.next_of("ok").await["t"], "ok");
    process.crash();
}

/// A byte changed in a journal row where the line still reads (dark's first placement `d3`
/// become `d4`, as a flipped bit on disk could make it): the row's checksum finds it, and the
/// games the row names are set apart instead of served with a move nobody played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_byte_that_still_reads_is_found_by_the_rows_checksum() {
    let data = DataDir::new("changed-byte");
    std::fs::create_dir_all(&data.0).unwrap();
    for name in [sqlite::DATABASE, sqlite::SEAT_KEY] {
        std::fs::copy(fixture(UNMARKED).join(name), data.0.join(name)).unwrap();
    }
    let changed = {
        let conn = rusqlite::Connection::open(data.0.join(sqlite::DATABASE)).unwrap();
        let (seq, events): (i64, Vec<u8>) = conn
            .query_row(
                "SELECT seq, events FROM journal WHERE instr(events, ?1) > 0",
                [br#""m":"d3""#.to_vec()],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        let text = String::from_utf8(events).unwrap();
        let games: Vec<String> =
            text.lines().map(|line| line.split(' ').next().unwrap().to_owned()).collect();
        let text = text.replace(r#""m":"d3""#, r#""m":"d4""#);
        conn.execute(
            "UPDATE journal SET events = ?1 WHERE seq = ?2",
            rusqlite::params![text.into_bytes(), seq],
        )
        .unwrap();
        games
    };
    let opened = Store::open(&data.0).unwrap();
    let damaged: Vec<(&str, String)> =
        opened.damaged.iter().map(|d| (d.id.as_str(), d.why.0.clone())).collect();
    assert!(!damaged.is_empty());
    for (game, why) in &damaged {
        assert!(changed.iter().any(|g| g == game), "{game} is not in the changed row");
        assert!(why.contains("checksum differs"), "{why}");
    }
    assert_eq!(opened.games.len() + damaged.len(), 4);
    assert!(opened.games.iter().all(|g| !changed.contains(&g.id.to_string())));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_of_this_format_is_taken_up() {
    a_store_is_taken_up(STORE_FORMAT).await;
}

async fn a_store_is_taken_up(format: i64) {
    let data = DataDir::new(&format!("fixture-{format}"));
    std::fs::create_dir_all(&data.0).unwrap();
    for name in [sqlite::DATABASE, sqlite::SEAT_KEY, sqlite::MARK] {
        let from = fixture(format).join(name);
        // The stores of format 5 and later are kept with a mark; those before had none.
        if from.exists() {
            std::fs::copy(from, data.0.join(name)).unwrap();
        }
    }
    let opened = Store::open(&data.0).unwrap();
    let mut games: Vec<_> =
        opened.games.iter().map(|g| (g.events.len(), g.id.to_string())).collect();
    games.sort();
    assert_eq!(games.len(), 4, "{games:?}");
    let ids: Vec<String> = games.into_iter().map(|(_, id)| id).collect();
    // Fewest events first: the open table (none), the resigned game (one), the game against the
    // computer (two turns), the game by link (two turns, then the draw offer).
    let [open, resigned, computer, by_link] = [&ids[0], &ids[1], &ids[2], &ids[3]];
    drop(opened);
    let process = Process::start(&data.0, test_config());
    let addr = process.addr;

    let (mut white, snapshot) = Client::hello(addr, by_link, Some(FIXTURE_TOKENS[0]), None).await;
    let d = &snapshot["d"];
    assert_eq!((d["you"].clone(), d["moves"].clone()), (json!("white"), json!(["c3", "d3"])));
    assert_eq!(d["drawOffer"], "white", "{d}");
    assert_eq!(d["clock"]["control"], "5+3", "{d}");
    let (mut black, _) = Client::hello(addr, by_link, Some(FIXTURE_TOKENS[1]), None).await;
    black.send(json!({ "t": "draw-offer" })).await;
    assert_eq!(white.next_of("end").await["d"]["code"], "agreement");

    let (mut player, snapshot) = Client::hello(addr, computer, Some(FIXTURE_TOKENS[2]), None).await;
    assert_eq!(snapshot["d"]["seats"]["black"]["kind"], "computer", "{snapshot}");
    let legal = snapshot["d"]["pos"]["legal"][0].as_str().unwrap().to_owned();
    assert_eq!(player.turn(2, &legal).await["t"], "accepted");
    while player.next_of("move").await["d"]["ply"] != 4 {}

    let (_, snapshot) = Client::hello(addr, resigned, Some(FIXTURE_TOKENS[3]), None).await;
    assert_eq!(snapshot["d"]["end"]["code"], "resigned", "{snapshot}");
    let (_, snapshot) = Client::hello(addr, open, Some(FIXTURE_TOKENS[1]), None).await;
    assert_eq!(snapshot["d"]["seats"]["black"]["kind"], "open", "{snapshot}");
    assert_eq!(snapshot["d"]["you"], "white", "{snapshot}");
    process.crash();
}
