//! A game record read by the module, as the analysis board reads one offline: the same as the
//! server's `POST /api/record`, an illegal turn named by its number and text.

use serde_json::{json, Value};

fn read(request: &Value) -> Value {
    serde_json::from_str(&dara_pocket::read_record(&request.to_string())).unwrap()
}

#[test]
fn a_record_is_read_turn_by_turn() {
    let answer = read(&json!({ "record": "[Rules \"arcade\"]\n\n1. c3 d4 2. a1 f5 *\n" }));
    let ok = &answer["ok"];
    assert_eq!(ok["rules"], "arcade");
    assert_eq!(ok["start"], "6/6/6/6/6 w 12 12 0");
    assert_eq!(ok["moves"], json!(["c3", "d4", "a1", "f5"]));
    let positions = ok["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 5, "the start, then one after each turn: {ok}");
    assert_eq!(positions[0], ok["start"]);
    assert!(positions[4].as_str().unwrap().ends_with(" w 10 10 0"), "{ok}");
    assert_eq!(ok["result"], "*");
}

#[test]
fn a_position_of_its_own_and_other_rules_are_read() {
    let record = "[Rules \"wikipedia\"]\n[Position \"B1B1B1/1B4/6/2W3/WW4 w 0 0 0\"]\n\n*\n";
    let ok = &read(&json!({ "record": record }))["ok"];
    assert_eq!(ok["rules"], "wikipedia");
    assert_eq!(ok["start"], "B1B1B1/1B4/6/2W3/WW4 w 0 0 0");
    assert_eq!(ok["moves"], json!([]));
    assert_eq!(ok["positions"], json!(["B1B1B1/1B4/6/2W3/WW4 w 0 0 0"]));
}

#[test]
fn an_illegal_turn_or_a_bad_request_is_refused_with_a_reason() {
    let illegal = read(&json!({ "record": "[Rules \"arcade\"]\n\n1. c3 c3 *" }));
    let why = illegal["error"].as_str().unwrap();
    assert!(why.contains("c3") && why.contains("illegal"), "{why}");
    assert!(read(&json!({ "text": "1. c3 *" }))["error"]
        .as_str()
        .unwrap()
        .contains("unknown field"));
    let long = read(&json!({ "record": " ".repeat(40 * 1024) }));
    assert_eq!(long["error"], "a record of at most 32768 bytes");
}
