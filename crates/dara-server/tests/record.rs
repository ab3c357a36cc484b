//! `POST /api/record` over real HTTP: a record read and replayed by the rules, or the reason
//! it cannot be.

mod common;

use common::{post, start, test_config};
use serde_json::json;

#[tokio::test]
async fn a_record_is_read_into_turns_and_positions() {
    let addr = start(test_config()).await;
    let record =
        "[Event \"Casual game\"]\n[Rules \"arcade\"]\n[Result \"*\"]\n\n1. c3 d4 2. a1 *\n";
    let (status, read) = post(addr, "/api/record", json!({ "record": record })).await;
    assert_eq!(status, 200, "{read}");
    assert_eq!(read["rules"], "arcade");
    assert_eq!(read["moves"], json!(["c3", "d4", "a1"]));
    assert_eq!(read["positions"].as_array().unwrap().len(), 4, "the start and after each turn");
    assert_eq!(read["positions"][0], read["start"]);
    assert_eq!(read["result"], "*");
}

#[tokio::test]
async fn a_record_with_an_illegal_turn_is_refused_by_its_number() {
    let addr = start(test_config()).await;
    let record = "[Rules \"arcade\"]\n\n1. c3 c3 *\n";
    let (status, answer) = post(addr, "/api/record", json!({ "record": record })).await;
    assert_eq!(status, 400);
    let error = answer["error"].as_str().unwrap();
    assert!(error.contains("c3") && error.contains("illegal"), "{error}");
    let (status, answer) = post(addr, "/api/record", json!({ "record": "no record" })).await;
    assert_eq!(status, 400, "{answer}");
    let long = "x".repeat(40_000);
    let (status, answer) = post(addr, "/api/record", json!({ "record": long })).await;
    assert_eq!(status, 400);
    assert!(answer["error"].as_str().unwrap().contains("at most"), "{answer}");
}
