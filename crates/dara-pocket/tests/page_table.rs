//! The page's own table, driven as the page drives it (JSON in, JSON out, through
//! `dara_pocket::answer`), with the real engine answering its searches natively: a game against
//! the computer played, kept, taken up again, taken back, resigned and played again.

use dara_engine::stopwatch::system_now;
use dara_pocket::{answer, think, PageTable};
use serde_json::{json, Value};

/// One request to the table; the `ok` part of its answer (a test fails on `error`).
fn ask(open: &mut Option<PageTable>, request: Value) -> Value {
    let text = answer(open, &request.to_string());
    let mut reply: Value = serde_json::from_str(&text).unwrap();
    assert!(reply.get("error").is_none(), "{request} → {reply}");
    reply["ok"].take()
}

fn new_game(you: &str, level: u8) -> Value {
    json!({ "game": "00000000000000aa", "date": "2026.12.04", "rules": "arcade", "level": level, "you": you })
}

fn open(kept: Value, now: u64) -> (Option<PageTable>, Value) {
    let mut table = None;
    let answered = ask(&mut table, json!({ "now": now, "seed": 7, "open": kept }));
    (table, answered)
}

fn message(table: &mut Option<PageTable>, now: u64, text: Value) -> Value {
    ask(table, json!({ "now": now, "seed": 11, "call": { "message": text.to_string() } }))
}

/// The computer's move for the search the table asked for, by the engine as the worker runs it.
fn computer(table: &mut Option<PageTable>, now: u64, answered: &Value) -> Value {
    let search = &answered["search"];
    let reply = think(&search["request"].as_str().unwrap().parse().unwrap(), system_now);
    let m = reply.0.best.expect("the computer has a move").to_string();
    ask(
        table,
        json!({ "now": now, "seed": 3, "call": { "computer": { "ticket": search["ticket"], "m": m } } }),
    )
}

fn types(answered: &Value) -> Vec<String> {
    answered["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["t"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_game_is_played_kept_and_taken_up_again() {
    let (mut table, hello) = open(new_game("white", 1), 1_000);
    assert_eq!(types(&hello), ["snapshot", "presence"]);
    let snapshot = &hello["messages"][0]["d"];
    assert_eq!(snapshot["you"], "white");
    assert_eq!(snapshot["opponent"], "computer");
    assert_eq!(snapshot["seats"]["black"]["level"], 1);
    assert!(hello["search"].is_null(), "the person moves first");

    let played = message(&mut table, 2_000, json!({ "t": "move", "d": { "id": 1, "m": "c3" } }));
    assert_eq!(types(&played), ["accepted", "move"]);
    assert_eq!(played["messages"][0]["d"]["id"], 1);
    assert_eq!(played["messages"][1]["d"]["m"], "c3");
    let request = played["search"]["request"].as_str().unwrap();
    assert!(
        request.starts_with("rules arcade position ")
            && request.ends_with(" moves c3 level 1 seed 11"),
        "{request}"
    );

    let answered = computer(&mut table, 2_500, &played);
    assert_eq!(types(&answered), ["move"]);
    assert_eq!(answered["messages"][0]["d"]["ply"], 2);
    let kept = answered["kept"].clone();
    assert_eq!(kept["journal"].as_array().unwrap().len(), 2);

    // The same turn sent again (a double click, a resend) is answered as before, played once.
    let again = message(&mut table, 2_600, json!({ "t": "move", "d": { "id": 1, "m": "c3" } }));
    assert_eq!(types(&again), ["accepted"]);

    // A reload: the kept game opens where it was.
    let (mut table, hello) = open(kept, 60_000);
    let snapshot = &hello["messages"][0];
    assert_eq!(snapshot["v"], 2);
    assert_eq!(snapshot["d"]["moves"].as_array().unwrap().len(), 2);
    assert!(hello["search"].is_null());
    // The second stone on a cell the computer left.
    let second = if answered["messages"][0]["d"]["m"] == "a1" { "f5" } else { "a1" };
    let played = message(&mut table, 61_000, json!({ "t": "move", "d": { "id": 2, "m": second } }));
    assert_eq!(types(&played), ["accepted", "move"]);
    assert_eq!(played["kept"]["journal"].as_array().unwrap().len(), 3);
}

#[test]
fn the_computer_moves_first_and_again_after_a_reload_mid_search() {
    let (_, hello) = open(new_game("black", 2), 1_000);
    assert_eq!(types(&hello), ["snapshot", "presence"]);
    let request = hello["search"]["request"].as_str().unwrap();
    assert!(request.ends_with(" level 2 seed 7") && !request.contains("moves"), "{request}");
    // Reloaded before it answered: the search is asked again.
    let (mut table, hello) = open(hello["kept"].clone(), 2_000);
    assert!(hello["search"]["request"].is_string());
    let answered = computer(&mut table, 2_500, &hello);
    assert_eq!(types(&answered), ["move"]);
    // An answer to a search no longer waited for changes nothing.
    let stale = ask(
        &mut table,
        json!({ "now": 3_000, "seed": 1, "call": { "computer": { "ticket": 99, "m": "a1" } } }),
    );
    assert_eq!(types(&stale), Vec::<String>::new());
}

#[test]
fn takeback_resign_and_rematch() {
    let (mut table, _) = open(new_game("white", 1), 0);
    let played = message(&mut table, 10, json!({ "t": "move", "d": { "id": 1, "m": "c3" } }));
    // Taken back while the computer thinks: its search is called off.
    let back = message(&mut table, 20, json!({ "t": "takeback" }));
    assert_eq!(types(&back), ["ok", "takeback"]);
    assert_eq!(back["callOff"], json!([played["search"]["ticket"]]));
    assert_eq!(back["kept"]["journal"].as_array().unwrap().len(), 2);
    let played = message(&mut table, 30, json!({ "t": "move", "d": { "id": 2, "m": "d4" } }));
    computer(&mut table, 40, &played);

    let refused = message(&mut table, 50, json!({ "t": "draw-offer" }));
    assert_eq!(types(&refused), ["error"]);
    assert!(refused["messages"][0]["d"]["code"].is_string());

    let resigned = message(&mut table, 60, json!({ "t": "resign" }));
    assert_eq!(types(&resigned), ["ok", "end"]);
    assert_eq!(resigned["messages"][1]["d"]["winner"], "black");
    let rematch = message(&mut table, 70, json!({ "t": "rematch" }));
    assert_eq!(types(&rematch), ["ok", "rematch"]);
    let next = &rematch["rematch"];
    assert_eq!(next["you"], "black");
    assert_eq!(rematch["messages"][1]["d"]["game"], next["game"]);
    assert_ne!(next["game"], "00000000000000aa");
}

#[test]
fn what_does_not_read_is_refused_with_a_reason() {
    let (mut table, _) = open(new_game("white", 1), 0);
    let junk = message(&mut table, 10, json!("not a message"));
    assert_eq!(junk["messages"][0]["t"], "error");
    assert_eq!(junk["messages"][0]["d"]["code"], "unreadable");
    let illegal = message(&mut table, 10, json!({ "t": "move", "d": { "id": 5, "m": "z9" } }));
    assert_eq!(illegal["messages"][0]["t"], "rejected");
    assert_eq!(illegal["kept"]["journal"].as_array().unwrap().len(), 0);
    // The computer reads no quick message, and nothing of one is kept.
    let said = message(&mut table, 10, json!({ "t": "say", "d": { "phrase": "good-luck" } }));
    assert_eq!(said["messages"][0]["t"], "error");
    assert_eq!(said["messages"][0]["d"]["code"], "quick-messages-between-people");
    assert_eq!(said["kept"]["journal"].as_array().unwrap().len(), 0);

    let said = |request: &str| -> String {
        let mut none = None;
        let reply: Value = serde_json::from_str(&answer(&mut none, request)).unwrap();
        reply["error"].as_str().unwrap_or_default().to_owned()
    };
    assert!(said("{").starts_with("the request does not read"));
    assert_eq!(said(r#"{"now":1,"seed":1,"call":"time"}"#), "no game is open");
    let mut bad = new_game("white", 9);
    assert_eq!(
        said(&json!({ "now": 1, "seed": 1, "open": bad }).to_string()),
        "the level goes from 1 to 8"
    );
    bad = new_game("white", 1);
    // A journal whose turn the rules do not allow (a copy changed by hand).
    bad["journal"] = json!([{ "e": "moved", "m": "c3", "left": null }, { "e": "moved", "m": "c3", "left": null }]);
    let why = said(&json!({ "now": 1, "seed": 1, "open": bad }).to_string());
    assert!(why.starts_with("the kept game does not replay"), "{why}");
}
