//! Quick messages over real WebSockets: a phrase said by a player reaches everyone at the game
//! as its code; a seat that says too many is refused with a code and nothing else changes; a
//! phrase that is not one of the fixed set, a watcher's, and one in a game against the computer
//! are refused; nothing said is kept or told again.

mod common;

use common::{create, start, test_config, two_players, Client};
use serde_json::{json, Value};

fn say(phrase: &str) -> Value {
    json!({ "t": "say", "d": { "phrase": phrase } })
}

/// Everything a client is sent until the answer to a ping: what it was told meanwhile.
async fn until_pong(client: &mut Client) -> Vec<Value> {
    client.send(json!({ "t": "ping", "d": { "lag": 0 } })).await;
    let mut told = Vec::new();
    loop {
        let msg = client.next().await;
        if msg["t"] == "pong" {
            return told;
        }
        told.push(msg);
    }
}

#[tokio::test]
async fn a_phrase_reaches_the_opponent_and_the_watchers_and_a_watcher_says_none() {
    let addr = start(test_config()).await;
    let (game, _, mut pale, mut dark) = two_players(addr).await;
    let (mut watcher, _) = Client::hello(addr, &game, None, None).await;

    pale.send(say("hello")).await;
    assert_eq!(pale.next_of_any(&["ok", "error"]).await["t"], "ok");
    let said = json!({ "t": "said", "d": { "by": "white", "phrase": "hello" } });
    assert_eq!(dark.next_of("said").await, said);
    assert_eq!(watcher.next_of("said").await, said);
    // The player's own other tabs hear it too: every connection of the game.
    assert_eq!(pale.next_of("said").await, said);

    dark.send(say("good-luck")).await;
    let said = json!({ "t": "said", "d": { "by": "black", "phrase": "good-luck" } });
    assert_eq!(pale.next_of("said").await, said);
    assert_eq!(watcher.next_of("said").await, said);
    assert_eq!(dark.next_of("said").await, said);

    // Watchers read the players' phrases and say none themselves.
    watcher.send(say("well-played")).await;
    let refused = watcher.next_of("error").await;
    assert_eq!(refused["d"]["code"], "watching", "{refused}");
    assert!(until_pong(&mut pale).await.iter().all(|m| m["t"] != "said"));

    // Nothing but the fixed phrases: another is refused, saying which are.
    pale.send(say("you-lose")).await;
    let refused = pale.next_of("error").await;
    assert_eq!(refused["d"]["code"], "unreadable");
    let detail = refused["d"]["detail"].as_str().unwrap();
    assert!(detail.contains("unknown variant `you-lose`, expected one of `hello`"), "{detail}");
    pale.send(json!({ "t": "say", "d": { "phrase": "hello", "text": "free text" } })).await;
    assert_eq!(pale.next_of("error").await["d"]["code"], "unreadable");
    assert!(until_pong(&mut dark).await.iter().all(|m| m["t"] != "said"));
}

#[tokio::test]
async fn a_flood_of_phrases_is_refused_with_a_code_and_changes_nothing_else() {
    let addr = start(test_config()).await;
    let (game, seat, mut pale, mut dark) = two_players(addr).await;
    assert_eq!(pale.turn(1, "c3").await["t"], "accepted");
    let version = dark.next_of("move").await["v"].as_u64().unwrap();

    let mut answers = Vec::new();
    for phrase in ["hello", "good-luck", "have-fun", "sorry", "bye"] {
        pale.send(say(phrase)).await;
        answers.push(pale.next_of_any(&["ok", "error"]).await);
    }
    assert!(answers[..3].iter().all(|a| a["t"] == "ok"), "{answers:?}");
    for refused in &answers[3..] {
        assert_eq!(refused["d"]["code"], "too-many-quick-messages", "{refused}");
        let seconds = refused["d"]["seconds"].as_u64().unwrap();
        assert!((1..=15).contains(&seconds), "{refused}");
        assert!(refused["d"]["reason"].as_str().unwrap().contains("quick messages"));
    }
    // The opponent heard the three let through, and nothing of the rest.
    let heard: Vec<Value> =
        until_pong(&mut dark).await.into_iter().filter(|m| m["t"] == "said").collect();
    let phrases: Vec<&str> = heard.iter().map(|m| m["d"]["phrase"].as_str().unwrap()).collect();
    assert_eq!(phrases, ["hello", "good-luck", "have-fun"]);
    // The other seat has its own allowance, and the game goes on as it was: no event was
    // recorded for any phrase.
    dark.send(say("thank-you")).await;
    assert_eq!(dark.next_of_any(&["ok", "error"]).await["t"], "ok");
    assert_eq!(dark.turn(2, "f5").await["t"], "accepted");
    let moved = pale.next_of("move").await;
    assert_eq!(moved["v"].as_u64().unwrap(), version + 1, "{moved}");
    assert_eq!(moved["d"]["ply"], 2);

    // Nothing is kept: a page coming back, with or without its last version, hears the game,
    // never what was said.
    for since in [None, Some(version)] {
        let (mut back, first) = Client::hello(addr, &game, Some(&seat), since).await;
        let mut told = vec![first];
        told.extend(until_pong(&mut back).await);
        assert!(told.iter().all(|m| m["t"] != "said"), "{told:?}");
        let text = serde_json::to_string(&told).unwrap();
        assert!(!text.contains("thank-you") && !text.contains("good-luck"), "{text}");
    }
}

#[tokio::test]
async fn the_computer_reads_no_quick_message() {
    let addr = start(test_config()).await;
    let (game, seat, _) =
        create(addr, json!({ "opponent": "computer", "level": 1, "first": "me" })).await;
    let (mut player, _) = Client::hello(addr, &game, Some(&seat), None).await;
    player.send(say("good-game")).await;
    let refused = player.next_of("error").await;
    assert_eq!(refused["d"]["code"], "quick-messages-between-people", "{refused}");
    assert_eq!(refused["d"]["reason"], "quick messages are for games between people");
}
