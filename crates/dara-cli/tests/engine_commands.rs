//! The engine's subcommands through the real binary: the protocol over pipes, a game of `play`
//! fed from standard input, `analyse`, a tiny `match`, and `bench search`.

mod common;

use common::{dara, stdout, Scratch};

#[test]
fn engine_protocol_over_pipes() {
    let text = stdout(dara().arg("engine").write_stdin(
        "dep\nrules jaques\nposition start moves c3\ngo nodes 2000\nisready\nbogus\nquit\n",
    ));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"depok"));
    let best = lines.iter().find_map(|l| l.strip_prefix("bestmove ")).unwrap();
    assert!(best.len() == 2 && best != "c3", "{best}");
    assert_eq!(lines.last(), Some(&"error unknown command: bogus"));
}

#[test]
fn play_a_few_moves_then_resign() {
    let text = stdout(
        dara()
            .args(["play", "--rules", "arcade", "--level", "1", "--colour", "white"])
            .write_stdin("c3\nzz9\nc3\nmoves\nquit\n"),
    );
    assert!(text.contains("computer plays"), "{text}");
    assert!(text.contains("no: \"zz9\" is not a move"), "{text}");
    assert!(text.contains("no: \"c3\": c3 is not empty"), "{text}");
    assert!(text.contains("legal moves: "), "{text}");
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
    assert!(text.contains("1. c3 "), "{text}");
}

#[test]
fn analyse_prints_iterations() {
    let text = stdout(dara().args([
        "analyse",
        "--rules",
        "arcade",
        "--position",
        "4W1/5B/WWW1W1/4WB/1B2WB w 0 0 1",
        "--depth",
        "4",
    ]));
    assert!(text.contains("depth  4"), "{text}");
    assert!(text.contains("bestmove "), "{text}");
}

#[test]
fn analyse_a_record() {
    let dir = Scratch::new("analyse");
    let path = dir.file("game.txt", "[Rules \"jaques\"]\n\n1. c3 d4 2. a1 *\n");
    let text = stdout(dara().arg("analyse").arg("--record").arg(path).args(["--depth", "2"]));
    assert!(text.contains("rules jaques"), "{text}");
    assert!(text.contains("3 moves"), "{text}");
    assert!(text.contains("bestmove "), "{text}");
}

#[test]
fn a_tiny_match_against_the_binary_itself() {
    let exe = assert_cmd::cargo::cargo_bin("dara");
    let cmd = format!("cmd:{} engine", exe.display());
    let text = stdout(dara().args([
        "match",
        "level:2",
        &cmd,
        "--rules",
        "arcade,rows=4,cols=4,stones=4",
        "--games",
        "2",
        "--movetime",
        "20",
        "--verbose",
    ]));
    assert!(text.contains("final: games 2"), "{text}");
    assert!(text.contains("illegal moves: first 0, second 0"), "{text}");
}

#[test]
fn bench_search_prints_a_signature() {
    let text = stdout(dara().args(["bench", "search", "--depth", "3"]));
    let last = text.lines().last().unwrap();
    assert!(last.ends_with(" nps") && last.contains(" nodes "), "{last}");
}

#[test]
fn puzzles_generate_writes_the_puzzle_file() {
    // Two short games: whatever they yield, the file has its header, and every puzzle line
    // its seven fields with the checking depth 4 plies past the finding depth.
    let text = stdout(dara().args([
        "puzzles", "generate", "--games", "2", "--limit", "2", "--depth", "2", "--seed", "5",
    ]));
    assert!(
        text.starts_with("# Dara puzzles: dara puzzles generate --rules arcade --games 2"),
        "{text}"
    );
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 7, "{line}");
        assert_eq!(fields[3], "2/6", "{line}");
    }
}
