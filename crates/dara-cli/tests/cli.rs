//! The `dara` binary as a user runs it: output formats, and one-line errors for bad input.

mod common;

use common::{dara, output, stdout, Scratch};

const MOVEMENT: &str = "4W1/5B/WWW1W1/4WB/1B2WB w 0 0 1";

#[test]
fn moves_prints_sorted_moves_then_the_status() {
    let out = stdout(dara().args(["moves", "--position", MOVEMENT]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "a3-a2 a3-a4 b3-b2 b3-b4 c3-c2 c3-c4 c3-d3 e1-d1 e2-d2 e3-d3 e3-e4 e3-f3 e5-d5 e5-e4 e5-f5"
    );
    assert_eq!(lines[1], "ongoing");
    let mut sorted: Vec<&str> = lines[0].split(' ').collect();
    sorted.sort();
    assert_eq!(sorted.join(" "), lines[0]);
}

#[test]
fn moves_of_a_finished_game_is_an_empty_line() {
    let out = stdout(dara().args([
        "moves",
        "--rules",
        "jaques,diagonal=yes",
        "--position",
        "4W1/1B2W1/2WWW1/1WWW2/B5 b 0 0 0",
    ]));
    assert_eq!(out, "\nwhite wins: black has too few stones to make a row\n");
}

#[test]
fn perft_ends_with_the_node_count() {
    let out = stdout(dara().args([
        "perft",
        "--rules",
        "wikipedia",
        "--position",
        "2WW1B/1WBW1B/BBBWBB/2W1B1/4B1 w 0 0 0",
        "--depth",
        "4",
    ]));
    assert!(out.trim_end().ends_with("15712"), "{out}");
    let out = stdout(dara().args(["perft", "--depth", "2", "--divide"]));
    assert_eq!(out.lines().count(), 31);
    assert!(out.lines().any(|l| l == "c3 29"));
    assert!(out.trim_end().ends_with("870"));
}

#[test]
fn show_draws_the_board_with_coordinates_and_status() {
    let out = stdout(dara().args(["show", "--position", MOVEMENT]));
    assert!(out.contains("    a b c d e f"), "{out}");
    assert!(out.contains(" 3  W W W . W .  3"), "{out}");
    assert!(out.contains("white to move"), "{out}");
    assert!(out.contains("quiet plies: 1 of 80"), "{out}");
    assert!(out.contains("status: ongoing"), "{out}");
}

#[test]
fn show_replays_a_record() {
    let dir = Scratch::new("cli-test");
    let good = dir.file("good.txt", "[Rules \"arcade\"]\n[Result \"*\"]\n\n1. c3 d4 2. a1 *\n");
    let out = stdout(dara().arg("show").arg("--record").arg(good));
    assert!(out.contains("last move: a1") && out.contains("black to move"), "{out}");
    let bad = dir.file("bad.txt", "1. c3 d4 2. c3 *\n");
    let (ok, _, err) = output(dara().arg("show").arg("--record").arg(bad));
    assert!(!ok);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("move 2. c3 is illegal"), "{err}");
}

#[test]
fn bad_input_is_one_line_and_a_failure() {
    for args in [
        &["moves", "--rules", "chess"][..],
        &["moves", "--rules", "arcade,stones=40"],
        &["moves", "--position", "6/6/6/6 w 12 12 0"],
        &["moves", "--position", "6/6/6/6/6 w 12 12"],
        &["show", "--position", "6/6/6/6/6X w 12 12 0"],
        &["perft"],
        &["perft", "--depth", "two"],
        &["frobnicate"],
        &["show", "--record", "/no/such/file"],
        &["bench", "playouts", "--seconds", "0"],
    ] {
        let (ok, out, err) = output(dara().args(args));
        assert!(!ok, "{args:?} should fail");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    let (_, _, err) = output(dara().args(["moves", "--rules", "arcade,stones=40"]));
    assert!(err.contains("stones=40") && err.contains("half"), "{err}");
}

#[test]
fn bench_playouts_ends_with_the_rate() {
    let out = stdout(dara().args([
        "bench",
        "playouts",
        "--rules",
        "jaques",
        "--seconds",
        "0.2",
        "--seed",
        "7",
    ]));
    let last = out.lines().last().unwrap();
    let rate: f64 = last.strip_prefix("playouts_per_second ").unwrap().parse().unwrap();
    assert!(rate > 0.0);
    assert!(out.contains("average_game_length"));
    let out =
        stdout(dara().args(["bench", "playouts", "--policy", "two-stage", "--seconds", "0.2"]));
    assert!(out.contains("policy two-stage"), "{out}");
}

#[test]
fn codes_lists_every_type_with_its_codes_and_figures() {
    let out = stdout(dara().arg("codes"));
    let codes: serde_json::Value = serde_json::from_str(&out).unwrap();
    let types: Vec<&str> = codes.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        types,
        [
            "AppError",
            "ArenaRefusal",
            "ArenaShell",
            "ClosedCell",
            "EndReason",
            "Illegal",
            "MoveError",
            "Phrase",
            "PositionError",
            "Refusal",
            "RulesetError",
            "Status"
        ]
    );
    assert_eq!(codes["Illegal"]["line-too-long"], serde_json::json!(["cell", "limit", "run"]));
    assert_eq!(codes["ArenaRefusal"]["name-too-long"], serde_json::json!(["max"]));
    assert_eq!(codes["ArenaShell"]["too-many-arenas-from-you"], serde_json::json!(["limit"]));
    assert_eq!(codes["ClosedCell"]["would-make-three"], serde_json::json!([]));
    assert_eq!(codes["MoveError"]["unreadable"], serde_json::json!([]));
    assert_eq!(codes["Status"]["quiet-plies"], serde_json::json!(["result", "winner"]));
    assert_eq!(codes["AppError"]["too-many-games"], serde_json::json!(["graceSeconds", "limit"]));
    assert_eq!(codes["Refusal"]["illegal-move"], serde_json::json!(["detail", "why"]));
    assert_eq!(codes["EndReason"]["resigned"], serde_json::json!(["loser"]));
    assert_eq!(codes["Illegal"].as_object().unwrap().len(), 23);
    assert_eq!(codes["Phrase"]["good-game"], serde_json::json!([]));
    assert_eq!(codes["Phrase"].as_object().unwrap().len(), 10);
    assert_eq!(codes["Refusal"]["too-many-quick-messages"], serde_json::json!(["seconds"]));
}
