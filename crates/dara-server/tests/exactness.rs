//! The protocol read exactly, over real sockets: a turn id means one turn, a key given twice is
//! refused rather than guessed at, a page of another release is told to reload, and a takeback
//! loop cannot grow a game without end.

mod common;

use common::{create, start, test_config, two_players, Client};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test]
async fn a_turn_id_names_one_turn() {
    let addr = start(test_config()).await;
    let (_, _, mut pale, mut dark) = two_players(addr).await;
    assert_eq!(pale.turn(7, "c3").await["t"], "accepted");
    dark.next_of("move").await;
    assert_eq!(dark.turn(1, "d3").await["t"], "accepted");
    // The same turn again is a resend: accepted, played once.
    assert_eq!(dark.turn(1, "d3").await["t"], "accepted");
    // Another turn under a used id is refused, and says why; nothing was played.
    let reused = pale.turn(7, "a1").await;
    assert_eq!(reused["t"], "rejected", "{reused}");
    assert_eq!(reused["d"]["code"], "turn-id-reused");
    assert_eq!(reused["d"]["id"], 7);
    // The game did not stall: the turn under a new id is played.
    assert_eq!(pale.turn(8, "a1").await["t"], "accepted");
    let moved = loop {
        let moved = dark.next_of("move").await;
        if moved["d"]["ply"] == 3 {
            break moved;
        }
    };
    assert_eq!(moved["d"]["m"], "a1");
}

#[tokio::test]
async fn a_key_given_twice_is_an_error_and_changes_nothing() {
    let addr = start(test_config()).await;
    let (_, _, mut pale, mut dark) = two_players(addr).await;
    // Read as most JSON readers would, this would resign.
    pale.send_raw(Message::Text(r#"{"t":"ping","t":"resign"}"#.into())).await;
    let error = pale.next_of("error").await;
    assert_eq!(error["d"]["code"], "unreadable");
    assert!(error["d"]["reason"].as_str().unwrap().contains("given twice"), "{error}");
    pale.send_raw(Message::Text(r#"{"t":"move","d":{"id":1,"m":"c3","m":"a1"}}"#.into())).await;
    assert!(pale.next_of("error").await["d"]["reason"].as_str().unwrap().contains("duplicate"));
    // Still going, still pale's turn.
    assert_eq!(pale.turn(2, "c3").await["t"], "accepted");
    assert_eq!(dark.next_of("move").await["d"]["m"], "c3");
}

#[tokio::test]
async fn a_page_of_another_release_is_told_to_reload() {
    let addr = start(test_config()).await;
    let (game, _, _) = create(addr, json!({ "opponent": "friend" })).await;
    for hello in [json!({ "t": "hello" }), json!({ "t": "hello", "d": { "protocol": 99 } })] {
        let mut old = Client::connect(addr, &game).await;
        old.send(hello).await;
        let error = old.next().await;
        assert_eq!(error["d"]["code"], "other-protocol", "{error}");
        assert_eq!(error["d"]["server"], 1);
        assert!(error["d"]["reason"].as_str().unwrap().ends_with("reload the page"));
        assert_eq!(old.closed().await, Some(4009));
    }
}

#[tokio::test]
async fn takebacks_are_bounded() {
    // A loop well within a person's pace would take minutes: the flood limit is lifted here.
    let addr = start(dara_server::Config { burst: 100_000, ..test_config() }).await;
    let (game, seat, _) = create(
        addr,
        json!({ "opponent": "computer", "level": 1, "first": "me", "rules": "arcade" }),
    )
    .await;
    let (mut me, _) = Client::hello(addr, &game, Some(&seat), None).await;
    let mut refused = None;
    for id in 0..400 {
        assert_eq!(me.turn(id, "c3").await["t"], "accepted");
        me.next_of("move").await;
        me.send(json!({ "t": "takeback" })).await;
        // The answer and the event may come in either order.
        let (mut ok, mut event) = (false, false);
        while !(ok && event) {
            let msg = me.next_of_any(&["ok", "error", "takeback"]).await;
            match msg["t"].as_str() {
                Some("error") => {
                    refused = Some((id, msg));
                    break;
                }
                Some("ok") => ok = true,
                _ => event = true,
            }
        }
        if refused.is_some() {
            break;
        }
    }
    let (id, answer) = refused.expect("a limit to takebacks");
    assert_eq!(id, 200);
    assert_eq!(answer["d"]["code"], "takeback-limit");
    assert_eq!(answer["d"]["limit"], 200);
}
