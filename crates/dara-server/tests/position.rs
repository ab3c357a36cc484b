//! `POST /api/position` over real HTTP: the rules' answers the teaching pages build on.

mod common;

use serde_json::{json, Value};

async fn ask(body: Value) -> (u16, Value) {
    let addr = common::start(common::test_config()).await;
    common::post(addr, "/api/position", body).await
}

#[tokio::test]
async fn a_position_comes_back_as_the_game_page_gets_it() {
    let (status, answer) = ask(json!({ "position": "6/6/6/6/6 w 12 12 0" })).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["pos"]["fen"], "6/6/6/6/6 w 12 12 0");
    assert_eq!(answer["pos"]["phase"], "placement");
    assert_eq!(answer["pos"]["legal"].as_array().unwrap().len(), 30);
    assert_eq!(answer["status"]["result"], "*");
    assert!(answer.get("move").is_none());
}

#[tokio::test]
async fn a_closed_cell_says_why_and_a_placement_there_is_refused_with_the_rules_reason() {
    let (status, answer) =
        ask(json!({ "position": "4BB/6/6/6/WW4 w 10 10 0", "rules": "arcade", "move": "c1" }))
            .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["pos"]["forbidden"]["c1"], "placements may not make three or more in a line");
    assert_eq!(answer["move"]["verdict"], "illegal");
    let reason = answer["move"]["reason"].as_str().unwrap();
    assert!(reason.contains("line of 3"), "{reason}");
}

#[tokio::test]
async fn a_legal_step_is_written_canonically_and_its_position_follows() {
    // A step that makes a row must name its capture; the answer carries the position after.
    let position = "B2W2/4WW/BB4/3W2/WWW2B w 0 0 0";
    let (_, without) = ask(json!({ "position": position, "move": "d5-d4" })).await;
    assert_eq!(without["move"]["verdict"], "illegal");
    assert!(without["move"]["reason"].as_str().unwrap().contains("row of three"), "{without}");
    let (_, answer) = ask(json!({ "position": position, "move": "d5-d4xf1" })).await;
    assert_eq!(answer["move"]["verdict"], "legal", "{answer}");
    assert_eq!(answer["move"]["m"], "d5-d4xf1");
    assert_eq!(answer["move"]["pos"]["fen"], "B5/3WWW/BB4/3W2/WWW3 b 0 0 0");
    assert_eq!(answer["move"]["status"]["result"], "*");
    // Four in a line is legal under arcade rules, and takes nothing.
    let (_, four) = ask(json!({ "position": position, "move": "d2-d1" })).await;
    assert_eq!(four["move"]["m"], "d2-d1");
}

#[tokio::test]
async fn a_move_that_ends_the_game_says_who_won_and_why() {
    let (_, blocked) =
        ask(json!({ "position": "BB1W2/WW4/6/5W/4WB w 0 0 0", "move": "d5-c5" })).await;
    assert_eq!(
        blocked["move"]["status"],
        json!({ "result": "1-0", "winner": "white", "code": "no-moves" })
    );
    assert_eq!(blocked["move"]["pos"]["legal"], json!([]));
    let (_, few) =
        ask(json!({ "position": "4B1/4W1/3B2/2W2B/WW4 w 0 0 0", "move": "c2-c1xd3" })).await;
    assert_eq!(few["move"]["status"]["code"], "few-stones");
}

#[tokio::test]
async fn text_that_is_no_move_is_unreadable_and_a_bad_position_is_a_bad_request() {
    let (status, answer) = ask(json!({ "position": "6/6/6/6/6 w 12 12 0", "move": "c9-" })).await;
    assert_eq!(status, 200);
    assert_eq!(answer["move"]["verdict"], "unreadable");
    let (status, answer) = ask(json!({ "position": "6/6/6/6 w 12 12 0" })).await;
    assert_eq!(status, 400, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("invalid position"), "{answer}");
    let (status, _) = ask(json!({ "position": "6/6/6/6/6 w 12 12 0", "rules": "chess" })).await;
    assert_eq!(status, 400);
    let (status, _) = ask(json!({ "position": "6/6/6/6/6 w 12 12 0", "colour": "white" })).await;
    assert_eq!(status, 400, "unknown fields are refused");
}

/// Every lesson of the guided first game starts from a position the rules accept, with the game
/// still going: a typo in `lessons.js` fails here, not in front of a newcomer.
#[tokio::test]
async fn every_lesson_position_is_valid_and_playable() {
    let lessons = include_str!("../assets/lessons.js");
    let positions: Vec<&str> = lessons
        .split("position: ")
        .skip(1)
        .filter_map(|rest| rest.strip_prefix('\'')?.split('\'').next())
        .collect();
    assert!(positions.len() >= 7, "{positions:?}");
    let addr = common::start(common::test_config()).await;
    for position in positions {
        let (status, answer) =
            common::post(addr, "/api/position", json!({ "position": position })).await;
        assert_eq!(status, 200, "{position}: {answer}");
        assert_eq!(answer["status"]["result"], "*", "{position}");
        assert!(!answer["pos"]["legal"].as_array().unwrap().is_empty(), "{position}");
    }
}
