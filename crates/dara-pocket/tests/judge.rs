//! The module's answer about a position, as the pages that teach ask it offline: the same as
//! the server's `POST /api/position`, a refusal as a reason.

use serde_json::Value;

fn judged(question: &str) -> Value {
    serde_json::from_str(&dara_pocket::judge(question)).unwrap()
}

#[test]
fn a_move_is_judged_by_the_rules() {
    let answer = judged(r#"{"position":"6/6/6/BB4/WW4 w 10 10 0","move":"c1"}"#);
    let ok = &answer["ok"];
    assert_eq!(ok["move"]["verdict"], "illegal");
    assert_eq!(ok["move"]["why"]["code"], "line-too-long");
    assert_eq!(ok["pos"]["forbidden"]["c1"], "placements may not make three or more in a line");
    let legal = judged(r#"{"position":"start","rules":"arcade","move":"c3"}"#);
    assert!(
        legal["error"].as_str().is_some_and(|e| !e.is_empty()),
        "`start` is not a position's text: {legal}"
    );
    let legal = judged(r#"{"position":"6/6/6/6/6 w 12 12 0","move":"c3"}"#);
    assert_eq!(legal["ok"]["move"]["verdict"], "legal");
    assert_eq!(legal["ok"]["move"]["m"], "c3");
}

#[test]
fn what_does_not_read_is_refused_with_a_reason() {
    assert!(judged("{").as_object().unwrap()["error"]
        .as_str()
        .unwrap()
        .starts_with("the question does not read"));
    let unknown = judged(r#"{"position":"6/6/6/6/6 w 12 12 0","colour":"pale"}"#);
    assert!(unknown["error"].as_str().unwrap().contains("unknown field"), "{unknown}");
    let too_long = judged(&format!(r#"{{"position":"{}"}}"#, "6/".repeat(100)));
    assert_eq!(too_long["error"], "the position is too long");
}
