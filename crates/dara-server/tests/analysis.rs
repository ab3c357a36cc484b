//! `POST /api/analysis` over real HTTP: the engine's view of a position reached as a game
//! reaches it, refusals that say what is wrong, and the engine shared fairly.

mod common;

use common::{post, post_from, start, test_config};
use serde_json::{json, Value};

/// Pale to move can step c2-c1 and make a row of exactly three (a1 b1 c1), taking a stone.
const PALE_TAKES: &str = "B1B1B1/1B1B2/6/2W3/WW4 w 0 0 0";

#[tokio::test]
async fn the_engine_finds_the_capture_and_says_its_line() {
    let addr = start(test_config()).await;
    let (status, answer) =
        post(addr, "/api/analysis", json!({ "rules": "arcade", "start": PALE_TAKES })).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["side"], "white");
    let best = answer["best"].as_str().unwrap();
    assert!(best.starts_with("c2-c1x"), "{answer}");
    assert_eq!(answer["line"][0], best);
    assert!(answer["depth"].as_u64().unwrap() >= 1);
    assert!(answer["score"]["cp"].as_i64().unwrap_or(1000) > 0 || answer["score"]["win"].is_u64());
    assert!(answer["waitedMs"].is_u64() && answer["thoughtMs"].is_u64());
}

#[tokio::test]
async fn a_position_is_reached_by_its_turns() {
    let addr = start(test_config()).await;
    let body = json!({ "rules": "arcade", "moves": ["c3", "d3"] });
    let (status, answer) = post(addr, "/api/analysis", body).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["side"], "white", "two placements: pale again");
    let line = answer["line"].as_array().unwrap();
    assert!(!line.is_empty());
    assert!(!["c3", "d3"].contains(&line[0].as_str().unwrap()), "a taken cell: {answer}");
}

#[tokio::test]
async fn a_bad_request_says_what_is_wrong_and_searches_nothing() {
    let addr = start(test_config()).await;
    let cases: [(Value, &str); 4] = [
        (json!({ "rules": "arcade", "moves": ["c3", "c3"] }), "turn 2 (c3)"),
        (json!({ "rules": "nonsense" }), "rules:"),
        (json!({ "rules": "arcade", "start": "8/8 w 0 0 0" }), "start position:"),
        (json!({ "rules": "arcade", "depth": 40 }), "unknown field"),
    ];
    for (body, says) in cases {
        let (status, answer) = post(addr, "/api/analysis", body.clone()).await;
        assert_eq!(status, 400, "{body}: {answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.contains(says), "{body}: {error}");
    }
}

#[tokio::test]
async fn one_client_has_its_share_of_analyses_and_no_more() {
    let addr = start(test_config()).await;
    let me = Some("127.0.0.7".parse().unwrap());
    let ask = || post_from(addr, "/api/analysis", json!({ "rules": "arcade" }), me);
    // Three at once from one address: two are booked (one runs, one waits), the third is told
    // to wait for them.
    let (a, b, c) = tokio::join!(ask(), ask(), ask());
    let mut statuses = [a.0, b.0, c.0];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 200, 429], "{a:?} {b:?} {c:?}");
    let refused = [a, b, c].into_iter().find(|(s, _)| *s == 429).unwrap().1;
    assert_eq!(refused["error"], "one analysis at a time: wait for the one you asked for");
    // Another address is not held back by it.
    let other = Some("127.0.0.8".parse().unwrap());
    let (status, _) = post_from(addr, "/api/analysis", json!({ "rules": "arcade" }), other).await;
    assert_eq!(status, 200);
}
