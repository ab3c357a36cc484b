//! `POST /api/review` over real HTTP: a game gone through by the engine, each turn marked.

mod common;

use common::{post, start, test_config};
use serde_json::json;

/// Pale to move can step c2-c1 and make a row of exactly three (a1 b1 c1), taking a stone and
/// winning; stepping elsewhere lets dark make a row first and win.
const PALE_TAKES: &str = "B1B1B1/1B4/6/2W3/WW4 w 0 0 0";

#[tokio::test]
async fn a_missed_capture_is_marked_and_the_better_turn_shown() {
    let addr = start(test_config()).await;
    // Pale steps away instead of taking; dark steps too, and misses its own win.
    let body = json!({ "rules": "arcade", "start": PALE_TAKES, "moves": ["c2-d2", "b4-b3"] });
    let (status, review) = post(addr, "/api/review", body).await;
    assert_eq!(status, 200, "{review}");
    let positions = review["positions"].as_array().unwrap();
    let turns = review["turns"].as_array().unwrap();
    assert_eq!(positions.len(), 3, "the start and after each turn");
    assert_eq!(turns.len(), 2);
    for p in positions {
        let pale = p["pale"].as_i64().unwrap();
        assert!((-1000..=1000).contains(&pale), "{p}");
    }
    let missed = &turns[0];
    assert_eq!(missed["move"], "c2-d2");
    assert_eq!(missed["by"], "white");
    assert!(missed["best"].as_str().unwrap().starts_with("c2-c1x"), "{missed}");
    assert_eq!(missed["mark"], "blunder", "a won game thrown away: {missed}");
    assert!(positions[0]["pale"].as_i64().unwrap() > 0, "pale wins by taking: {review}");
    assert!(positions[1]["pale"].as_i64().unwrap() < 0, "then dark wins: {review}");
    assert_eq!(turns[1]["by"], "black");
    assert_eq!(positions[0]["best"], missed["best"]);
}

#[tokio::test]
async fn the_engines_own_turn_is_marked_best() {
    let addr = start(test_config()).await;
    let (_, first) =
        post(addr, "/api/review", json!({ "rules": "arcade", "start": PALE_TAKES })).await;
    let best = first["positions"][0]["best"].as_str().unwrap().to_owned();
    let body = json!({ "rules": "arcade", "start": PALE_TAKES, "moves": [best] });
    let (status, review) = post(addr, "/api/review", body).await;
    assert_eq!(status, 200, "{review}");
    assert_eq!(review["turns"][0]["mark"], "best", "{review}");
}

#[tokio::test]
async fn a_review_refuses_a_turn_the_rules_do_not_allow() {
    let addr = start(test_config()).await;
    let body = json!({ "rules": "arcade", "start": PALE_TAKES, "moves": ["c2-c1"] });
    let (status, answer) = post(addr, "/api/review", body).await;
    assert_eq!(status, 400);
    assert!(answer["error"].as_str().unwrap().starts_with("turn 1 (c2-c1)"), "{answer}");
}
