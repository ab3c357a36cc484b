//! The table's refusals and endings as they travel: a code with its figures, the same JSON the
//! pages word in every language (their catalogues are checked against `dara codes`).

use dara::Coded;
use dara_table::{EndReason, Refusal};
use serde_json::{json, to_value};

#[test]
fn a_refusal_is_its_code_and_figures() {
    assert_eq!(to_value(Refusal::NotYourTurn).unwrap(), json!({ "code": "not-your-turn" }));
    assert_eq!(
        to_value(Refusal::ClaimTooEarly { seconds: 12 }).unwrap(),
        json!({ "code": "claim-too-early", "seconds": 12 })
    );
    assert_eq!(
        to_value(Refusal::EventLimit { limit: 2000 }).unwrap(),
        json!({ "code": "event-limit", "limit": 2000 })
    );
    assert_eq!(to_value(Refusal::ComputerPlaysOn).unwrap(), json!({ "code": "computer-plays-on" }));
}

#[test]
fn an_illegal_move_carries_the_rules_reason_as_a_code_and_in_english() {
    let pos = dara::Position::from_text("6/6/6/BB4/WW4 w 10 10 0", Default::default()).unwrap();
    let refusal = Refusal::illegal_move(pos.parse_move("c1").unwrap_err());
    let english =
        "\"c1\": a stone on c1 would stand in a line of 3; placements may not make three \
                   or more in a line";
    assert_eq!(refusal.to_string(), english);
    assert_eq!(
        to_value(&refusal).unwrap(),
        json!({
            "code": "illegal-move",
            "detail": english,
            "why": { "code": "line-too-long", "cell": "c1", "run": 3, "limit": 3 },
        })
    );
    let refusal = Refusal::illegal_move(pos.parse_move("c1-").unwrap_err());
    assert_eq!(to_value(&refusal).unwrap()["why"], json!({ "code": "unreadable" }));
}

#[test]
fn every_refusal_and_ending_has_a_code_of_its_own() {
    fn codes<T: Coded>() -> Vec<String> {
        let mut codes: Vec<String> = T::one_of_each()
            .iter()
            .map(|value| to_value(value).unwrap()["code"].as_str().unwrap().to_owned())
            .collect();
        let count = codes.len();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), count, "two values share a code: {codes:?}");
        codes
    }
    let refusals = codes::<Refusal>();
    assert_eq!(refusals.len(), 29);
    assert!(refusals.iter().all(|code| !code.is_empty() && !code.contains('_')));
    let endings = codes::<EndReason>();
    assert_eq!(
        endings,
        [
            "aborted",
            "aborted-by",
            "agreement",
            "few-stones",
            "left",
            "no-moves",
            "out-of-time",
            "quiet-plies",
            "resigned"
        ]
    );
}
