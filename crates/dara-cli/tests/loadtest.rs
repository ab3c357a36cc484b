//! `dara loadtest` against a real `dara serve` on a free loopback port: a handful of games for a
//! few seconds, read back from the JSON line.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

const DARA: &str = env!("CARGO_BIN_EXE_dara");

/// A `dara serve` process, stopped when dropped (so also when a test fails).
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start() -> Server {
        Server::start_with(&[])
    }

    /// A server with `options` besides the test's own.
    fn start_with(options: &[&str]) -> Server {
        let mut child = Command::new(DARA)
            .args([
                "serve",
                "--memory-only",
                "--listen",
                "127.0.0.1:0",
                "--games-per-address",
                "1000",
            ])
            .args(options)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // "Dara is being served at http://127.0.0.1:PORT/ (Ctrl-C to stop)"
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .trim_end_matches('/')
            .to_owned();
        Server { child, url }
    }

    /// `dara loadtest` against this server with `args`: its JSON report.
    fn load(&self, args: &[&str]) -> Value {
        let pid = self.child.id().to_string();
        let out = Command::new(DARA)
            .args(["loadtest", "--json", "--server", &self.url, "--server-pid", &pid])
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(stdout.lines().count(), 1, "{stdout}");
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn games_are_played_without_a_fault() {
    let server = Server::start();
    // 10 turns a second a game: each socket sends 5, well inside the server's flood limit.
    let report = server.load(&[
        "--games",
        "4",
        "--rate",
        "10",
        "--warmup",
        "1",
        "--seconds",
        "3",
        "--spread-sources",
        "2",
    ]);
    let n = |key: &str| figure(&report, key);
    assert!(n("turns") > 0.0, "{report}");
    assert_eq!(n("games_in_play"), 4.0, "{report}");
    assert_no_fault(&report);
    // About 4 games × 10 turns × 3 s, each timed both ways.
    assert!((60.0..=200.0).contains(&n("turns")), "{report}");
    assert_eq!(report["accepted_ms"]["samples"], report["turns"], "{report}");
    assert!(report["delivered_ms"]["samples"].as_u64().unwrap() > 0, "{report}");
    assert!(report["accepted_ms"]["p50"].as_f64().unwrap() > 0.0, "{report}");
    assert!(n("server_cpu_us_per_turn") > 0.0, "{report}");
    assert_eq!(n("sources"), 2.0);
}

#[test]
fn idle_games_stay_connected_and_hold_memory() {
    let server = Server::start();
    let report = server.load(&["--games", "5", "--idle", "--warmup", "0", "--seconds", "1"]);
    assert_eq!(report["games_in_play"], 5, "{report}");
    assert_eq!(report["games_created"], 5, "{report}");
    assert_eq!(report["turns"], 0, "{report}");
    assert_eq!(report["disconnected"], 0, "{report}");
    assert_eq!(report["desynced"], 0, "{report}");
    assert!(report["server_rss_kib_after"].as_u64().unwrap() > 0, "{report}");
    assert!(report["server_rss_kib_per_game"].is_number(), "{report}");
}

#[test]
fn a_server_off_this_machine_is_refused_before_any_traffic() {
    // A documentation address (RFC 5737): nothing listens there, and nothing is sent.
    let out = Command::new(DARA)
        .args(["loadtest", "--server", "http://192.0.2.1:8080", "--seconds", "1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("not a loopback address") && stderr.contains("--allow-remote"),
        "{stderr}"
    );
}

/// The figures of a report as numbers, failing with the report when one is missing.
fn figure(report: &Value, key: &str) -> f64 {
    report[key].as_f64().unwrap_or_else(|| panic!("no {key} in {report}"))
}

fn assert_no_fault(report: &Value) {
    for fault in ["rejected", "desynced", "disconnected", "timed_out", "refused", "connect_failed"]
    {
        assert_eq!(figure(report, fault), 0.0, "{fault}: {report}");
    }
}

#[test]
fn games_against_the_computer_count_its_replies() {
    let server = Server::start_with(&["--instant-computer"]);
    // 5 turns a second a game: the driver's one socket sends them all, inside the flood limit.
    let report = server.load(&[
        "--opponent",
        "computer",
        "--level",
        "2",
        "--games",
        "3",
        "--rate",
        "5",
        "--warmup",
        "1",
        "--seconds",
        "3",
    ]);
    assert_eq!(report["opponent"], "computer", "{report}");
    assert_eq!(report["level"], 2, "{report}");
    assert_no_fault(&report);
    // About 3 games × 5 turns × 3 s, each answered at once; a game's last turn is not.
    let (turns, replies) = (figure(&report, "turns"), figure(&report, "computer_replies"));
    assert!((20.0..=60.0).contains(&replies), "{report}");
    assert!((replies - turns).abs() <= 3.0 + figure(&report, "games_finished"), "{report}");
    assert_eq!(report["reply_ms"]["samples"], report["computer_replies"], "{report}");
    assert!(report["reply_ms"]["p50"].as_f64().unwrap() > 0.0, "{report}");
    assert!(figure(&report, "computer_replies_per_second") > 5.0, "{report}");
    assert!(figure(&report, "server_cpu_ms_per_reply") > 0.0, "{report}");
    // Nobody else's socket: the computer's moves reach no opponent of the driver's.
    assert_eq!(report["delivered_ms"]["samples"], 0, "{report}");
}

#[test]
fn a_real_low_level_pauses_like_a_person_before_each_reply() {
    let server = Server::start();
    let report = server.load(&[
        "--opponent",
        "computer",
        "--level",
        "1",
        "--games",
        "2",
        "--rate",
        "0",
        "--warmup",
        "1",
        "--seconds",
        "4",
    ]);
    assert_no_fault(&report);
    // Levels 1 to 3 wait 0.7 to 1.6 s before each move: 2 games, about 4 s.
    let replies = figure(&report, "computer_replies");
    assert!((2.0..=12.0).contains(&replies), "{report}");
    let reply = &report["reply_ms"];
    assert!(reply["p50"].as_f64().unwrap() >= 700.0, "{report}");
    assert!(reply["max"].as_f64().unwrap() < 5_000.0, "{report}");
}

#[test]
fn searches_that_wait_for_the_engine_are_told_their_place() {
    // One engine thread and level 8 (the default: a second a move): three games' searches wait
    // behind one another, and the games hear `queue`.
    let server = Server::start_with(&["--engine-threads", "1", "--instant-computer"]);
    let report = server.load(&[
        "--opponent",
        "computer",
        "--games",
        "3",
        "--rate",
        "0",
        "--warmup",
        "0",
        "--seconds",
        "4",
    ]);
    assert_eq!(report["level"], 8, "{report}");
    assert_no_fault(&report);
    assert!(figure(&report, "queue_told") > 0.0, "{report}");
    assert!(figure(&report, "queue_ahead_max") >= 1.0, "{report}");
    // One search at a time, about a second each.
    assert!((2.0..=8.0).contains(&figure(&report, "computer_replies")), "{report}");
    assert!(figure(&report, "server_cpu_ms_per_reply") > 100.0, "{report}");
}

#[test]
fn a_level_is_the_computers() {
    let out = Command::new(DARA).args(["loadtest", "--level", "3"]).output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--opponent computer"), "{stderr}");
}

#[test]
fn seekers_meet_in_pools_and_the_report_adds_up() {
    let server = Server::start_with(&["--seats-per-address", "1000"]);
    // 2 arrivals a second for 2 s: with seed 3, 6 seekers, all wanting the same game, so "Play
    // anyone" pairs them two by two; 3 onlookers on the lobby count its messages, which it
    // sends at most once a second (so the window is longer than a second).
    let report = server.load(&[
        "--seekers",
        "--matching",
        "pools",
        "--arrivals-per-minute",
        "120",
        "--duration",
        "2s",
        "--patience",
        "5s",
        "--mix",
        "1:arcade@5+3",
        "--lobby-sockets",
        "3",
        "--seed",
        "3",
    ]);
    let n = |key: &str| figure(&report, key);
    assert_eq!(n("seekers"), 6.0, "{report}");
    assert_eq!(n("paired"), 6.0, "{report}");
    assert_eq!(n("gave_up") + n("failed") + n("still_waiting"), 0.0, "{report}");
    // Each pair: one opened a table and waited, the other sat down at it.
    assert_eq!(n("sat_at_once"), 3.0, "{report}");
    assert_eq!(n("other_clock"), 0.0, "{report}");
    let wait = &report["wait_seconds"];
    assert_eq!(wait["samples"], 6, "{report}");
    assert!(wait["p50"].as_f64().unwrap() <= wait["p95"].as_f64().unwrap(), "{report}");
    assert!(wait["p95"].as_f64().unwrap() <= wait["max"].as_f64().unwrap(), "{report}");
    assert!(wait["max"].as_f64().unwrap() < 5.0, "{report}");
    assert_eq!(n("lobby_sockets_open"), 3.0, "{report}");
    assert_eq!(n("lobby_sockets_dropped") + n("lobby_sockets_failed"), 0.0, "{report}");
    // Each table listed, then taken off the list: every socket was sent some of it, but not a
    // message a change (some nine in these two seconds): at most one a second, and the first.
    let messages = &report["lobby_messages_per_second"];
    assert_eq!(messages["samples"], 3, "{report}");
    assert!(messages["p50"].as_f64().unwrap() > 0.0, "{report}");
    assert!(messages["max"].as_f64().unwrap() <= 2.5, "{report}");
    let sent: u64 = report["lobby_message_types"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert!(sent >= 3, "{report}");
    assert!(n("server_cpu_percent") >= 0.0, "{report}");
    assert!(n("server_kib_per_lobby_socket").is_finite(), "{report}");
}

#[test]
fn arena_players_are_paired_again_after_their_games() {
    let server = Server::start();
    // Six players in two arenas of three, a turn a tenth of a second or so after each of the
    // opponent's (well inside the server's flood limit); one in three pausing now and then.
    // The window is long enough for games to end and their players to be paired again.
    let report = server.load(&[
        "--arena",
        "--players",
        "6",
        "--arenas",
        "2",
        "--think",
        "0.1s",
        "--pause-share",
        "0.34",
        "--pause",
        "2s",
        "--warmup",
        "0",
        "--duration",
        "40s",
        "--seed",
        "5",
    ]);
    let n = |key: &str| figure(&report, key);
    assert_eq!(n("joined"), 6.0, "{report}");
    assert_eq!(n("errors"), 0.0, "{report}");
    assert!(n("games_ended") > 0.0, "{report}");
    assert!(n("pairings") > 0.0, "{report}");
    assert!(n("turns") > 0.0, "{report}");
    let delay = &report["pairing_delay_seconds"];
    assert!(delay["samples"].as_u64().unwrap() > 0, "{report}");
    assert!(delay["p50"].as_f64().unwrap() <= delay["max"].as_f64().unwrap(), "{report}");
    // Standings on every socket, at most once a second (counted over the window, which a
    // message sent before it but read inside may stretch by one).
    let standings = &report["standings_per_second"];
    assert_eq!(standings["samples"], 6, "{report}");
    assert!(standings["p50"].as_f64().unwrap() > 0.0, "{report}");
    assert!(standings["max"].as_f64().unwrap() <= 42.0 / 40.0, "{report}");
    assert!(n("server_kib_per_player").is_finite(), "{report}");
}
