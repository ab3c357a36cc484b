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
        let mut child = Command::new(DARA)
            .args([
                "serve",
                "--memory-only",
                "--listen",
                "127.0.0.1:0",
                "--games-per-address",
                "1000",
            ])
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
    let n = |key: &str| report[key].as_f64().unwrap_or_else(|| panic!("no {key} in {report}"));
    assert!(n("turns") > 0.0, "{report}");
    assert_eq!(n("games_in_play"), 4.0, "{report}");
    for fault in ["rejected", "desynced", "disconnected", "timed_out", "refused", "connect_failed"]
    {
        assert_eq!(n(fault), 0.0, "{fault}: {report}");
    }
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
