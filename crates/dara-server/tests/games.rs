//! Whole games over real WebSockets on loopback: by link, against the computer, watched,
//! resumed, and every kind of bad input.

mod common;

use common::line::Line;
use common::{create, post, start, test_config, Client};
use dara::record::{GameResult, Record};
use dara::ByColour;
use dara_server::game::{self, NewGame, Seat};
use dara_server::seat::SeatToken;
use dara_server::{Config, Shared};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// Three stones each: the first capture wins, so a whole game is seven plies.
const SHORT: &str = "arcade,stones=3";
const WIN: [&str; 7] = ["a1", "f5", "b1", "f3", "d1", "d5", "d1-c1xf5"];

/// The friend takes the open seat from the invite link (no token) and gets their own.
async fn join(addr: std::net::SocketAddr, game: &str) -> (Client, String) {
    let (mut friend, snapshot) = Client::hello(addr, game, None, None).await;
    assert_eq!(snapshot["t"], "snapshot");
    assert_eq!(snapshot["d"]["you"], Value::Null);
    friend.send(json!({ "t": "join" })).await;
    let joined = friend.next_of("joined").await;
    let token = joined["d"]["seat"].as_str().unwrap().to_owned();
    assert_eq!(token.len(), 32);
    (friend, token)
}

#[tokio::test]
async fn a_game_by_link_from_creation_to_a_win() {
    let addr = start(test_config()).await;
    let (game, seat, colour) =
        create(addr, json!({ "opponent": "friend", "rules": SHORT, "first": "me" })).await;
    assert_eq!(colour, "white");
    let (mut pale, snapshot) = Client::hello(addr, &game, Some(&seat), None).await;
    assert_eq!(snapshot["d"]["you"], "white");
    assert_eq!(snapshot["d"]["rules"], SHORT);
    assert_eq!(snapshot["d"]["seats"]["black"]["kind"], "open");
    assert_eq!(snapshot["d"]["pos"]["legal"].as_array().unwrap().len(), 30);
    let (mut dark, _) = join(addr, &game).await;
    assert_eq!(pale.next_of("seated").await["d"]["colour"], "black");

    // A later visitor only watches: no seat is left to take.
    let (mut watcher, _) = Client::hello(addr, &game, None, None).await;
    watcher.send(json!({ "t": "join" })).await;
    assert_eq!(
        watcher.next_of("error").await["d"]["reason"],
        "both seats are taken; you are watching"
    );

    for (i, m) in WIN.iter().enumerate() {
        let mover = if i % 2 == 0 { &mut pale } else { &mut dark };
        let answer = mover.turn(i as u64, m).await;
        assert_eq!(answer["t"], "accepted", "{m}: {answer}");
        let event = watcher.next_of("move").await;
        assert_eq!(event["d"]["m"], *m);
        assert_eq!(event["d"]["ply"], i + 1);
    }
    let end = watcher.next_of("end").await;
    assert_eq!(end["d"]["result"], "1-0");
    assert_eq!(end["d"]["winner"], "white");
    assert_eq!(end["d"]["reason"], "Dark has too few stones left to make a row of three");
    let record = end["d"]["record"].as_str().unwrap();
    assert!(record.contains("[Rules \"arcade,stones=3\"]"), "{record}");
    assert!(record.contains("4. d1-c1xf5 1-0"), "{record}");
    assert_eq!(dark.next_of("end").await["d"]["result"], "1-0");

    // Rematch with colours swapped: each keeps their token, now in the other colour.
    dark.send(json!({ "t": "rematch" })).await;
    assert_eq!(pale.next_of("rematch-offer").await["d"]["by"], "black");
    pale.send(json!({ "t": "rematch" })).await;
    let next = pale.next_of("rematch").await["d"]["game"].as_str().unwrap().to_owned();
    let (_, snapshot) = Client::hello(addr, &next, Some(&seat), None).await;
    assert_eq!(snapshot["d"]["you"], "black");
}

#[tokio::test]
async fn the_record_to_copy_carries_its_date_and_imports_again() {
    let addr = start(test_config()).await;
    let today = || dara_server::date::record_date(std::time::SystemTime::now());
    let began = today();
    let (game, seat, _) =
        create(addr, json!({ "opponent": "friend", "rules": SHORT, "first": "me" })).await;
    let (mut pale, _) = Client::hello(addr, &game, Some(&seat), None).await;
    let (mut dark, _) = join(addr, &game).await;
    for (i, m) in WIN.iter().enumerate() {
        let mover = if i % 2 == 0 { &mut pale } else { &mut dark };
        assert_eq!(mover.turn(i as u64, m).await["t"], "accepted");
    }
    let text = pale.next_of("end").await["d"]["record"].as_str().unwrap().to_owned();
    // NOTATION.md "Games": the Date tag comes after Event, as `YYYY.MM.DD`.
    let tags: Vec<&str> = text.lines().take(3).collect();
    assert_eq!(tags[0], "[Event \"Casual game\"]");
    assert!(tags[1].starts_with("[Date \"") && tags[1].len() == "[Date \"2026.11.29\"]".len());
    // The rules crate's importer reads it back: same moves, same result, the date kept.
    let record: Record = text.parse().unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(record.moves().iter().map(ToString::to_string).collect::<Vec<_>>(), WIN);
    assert_eq!(record.result, GameResult::WhiteWins);
    let date = record.tag("Date").unwrap();
    assert!(date == began || date == today(), "{date}");
    assert_eq!(record.to_string(), text);
}

#[tokio::test]
async fn a_game_against_the_computer_with_a_takeback() {
    let addr = start(test_config()).await;
    let (game, seat, _) =
        create(addr, json!({ "opponent": "computer", "level": 2, "first": "me" })).await;
    let (mut me, snapshot) = Client::hello(addr, &game, Some(&seat), None).await;
    assert_eq!(snapshot["d"]["seats"]["black"], json!({ "kind": "computer", "level": 2 }));
    let mut legal: Vec<String> = snapshot["d"]["pos"]["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect();
    // Ten placements each (still placing, so nothing can end the game yet): play the first
    // legal move, the computer answers.
    for id in 0..10 {
        let answer = me.turn(id, &legal[0]).await;
        assert_eq!(answer["t"], "accepted", "{answer}");
        let mine = me.next_of("move").await;
        if mine["d"]["pos"]["legal"].as_array().unwrap().is_empty() {
            break;
        }
        let reply = me.next_of("move").await;
        assert_eq!(reply["d"]["ply"], mine["d"]["ply"].as_u64().unwrap() + 1);
        legal = reply["d"]["pos"]["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_owned())
            .collect();
        if legal.is_empty() {
            break;
        }
    }
    let before: u64 = me.v;
    me.send(json!({ "t": "takeback" })).await;
    let takeback = me.next_of("takeback").await;
    assert_eq!(takeback["v"], before + 1);
    assert_eq!(takeback["d"]["plies"], 2);
    assert_eq!(takeback["d"]["pos"]["side"], "white");
}

#[tokio::test]
async fn the_computer_takes_no_draw_offers() {
    let addr = start(test_config()).await;
    // Even where the position is a dead draw (three stones each on the smallest board), the
    // computer plays every game out: an offer to it is refused and changes nothing.
    let drawn = "arcade,rows=3,cols=3,stones=3,quiet=none";
    let (game, seat, _) =
        create(addr, json!({ "opponent": "computer", "level": 1, "first": "me", "rules": drawn }))
            .await;
    let (mut me, _) = Client::hello(addr, &game, Some(&seat), None).await;
    let before = me.v;
    for _ in 0..3 {
        me.send(json!({ "t": "draw-offer" })).await;
        let refused = me.next_of("error").await;
        assert_eq!(refused["d"]["code"], "computer-plays-on", "{refused}");
    }
    assert_eq!(me.v, before, "no event was recorded");
}

#[tokio::test]
async fn the_computer_opens_when_it_has_the_pale_stones() {
    let addr = start(test_config()).await;
    let (game, seat, colour) =
        create(addr, json!({ "opponent": "computer", "level": 8, "first": "computer" })).await;
    assert_eq!(colour, "black");
    let (mut me, _) = Client::hello(addr, &game, Some(&seat), Some(0)).await;
    let first = me.next_of("move").await;
    assert_eq!(first["v"], 1);
    assert_eq!(first["d"]["pos"]["side"], "black");
}

#[tokio::test]
async fn a_spectator_sees_every_move_and_cannot_play() {
    let addr = start(test_config()).await;
    let (game, seat, _) = create(addr, json!({ "opponent": "friend", "first": "me" })).await;
    let (mut pale, _) = Client::hello(addr, &game, Some(&seat), None).await;
    let (mut dark, _) = join(addr, &game).await;
    let (mut watcher, snapshot) = Client::hello(addr, &game, None, None).await;
    assert_eq!(snapshot["d"]["you"], Value::Null);
    assert_eq!(pale.turn(1, "c3").await["t"], "accepted");
    assert_eq!(watcher.next_of("move").await["d"]["m"], "c3");
    let answer = watcher.turn(1, "d4").await;
    assert_eq!(answer["d"]["reason"], "you are watching this game, not playing in it");
    assert_eq!(dark.turn(1, "d4").await["t"], "accepted");
    assert_eq!(watcher.next_of("move").await["d"]["m"], "d4");
}

#[tokio::test]
async fn a_reconnect_gets_exactly_the_missed_events() {
    let addr = start(test_config()).await;
    let (game, seat, _) = create(addr, json!({ "opponent": "friend", "first": "me" })).await;
    let (mut pale, _) = Client::hello(addr, &game, Some(&seat), None).await;
    let (mut dark, dark_seat) = join(addr, &game).await;
    assert_eq!(pale.turn(1, "a1").await["t"], "accepted");
    let seen = pale.next_of("move").await["v"].as_u64().unwrap();
    drop(pale);
    // While pale is away: dark's opponent is marked as gone, dark moves and offers a draw.
    while dark.next_of("presence").await["d"]["white"]["online"] != false {}
    assert_eq!(dark.turn(1, "f5").await["t"], "accepted");
    dark.send(json!({ "t": "draw-offer" })).await;
    dark.next_of("draw-offer").await;

    let (mut pale, first) = Client::hello(addr, &game, Some(&seat), Some(seen)).await;
    assert_eq!(first["t"], "move");
    assert_eq!(first["v"], seen + 1);
    assert_eq!(first["d"]["m"], "f5");
    let second = pale.next().await;
    assert_eq!(second["t"], "draw-offer");
    assert_eq!(second["v"], seen + 2);
    // Then only presence: nothing else was missed.
    assert_eq!(pale.next().await["t"], "presence");
    // Accepting the offer ends the game by agreement.
    pale.send(json!({ "t": "draw-offer" })).await;
    let end = pale.next_of("end").await;
    assert_eq!(end["d"]["result"], "1/2-1/2");
    assert_eq!(end["d"]["reason"], "drawn by agreement");
    let _ = dark_seat;
}

#[tokio::test]
async fn an_abandoned_game_can_be_claimed_after_the_stated_time() {
    let addr = start(test_config()).await;
    let (game, seat, _) = create(addr, json!({ "opponent": "friend", "first": "me" })).await;
    let (mut pale, _) = Client::hello(addr, &game, Some(&seat), None).await;
    let (dark, _) = join(addr, &game).await;
    drop(dark);
    let presence = loop {
        let presence = pale.next_of("presence").await;
        if presence["d"]["black"]["claimInMs"].is_u64() {
            break presence;
        }
    };
    assert!(presence["d"]["black"]["claimInMs"].as_u64().unwrap() <= 300);
    pale.send(json!({ "t": "claim" })).await;
    let early = pale.next_of("error").await;
    assert!(early["d"]["reason"]
        .as_str()
        .unwrap()
        .starts_with("your opponent may still come back"));
    tokio::time::sleep(std::time::Duration::from_millis(350)).await;
    pale.send(json!({ "t": "claim" })).await;
    let end = pale.next_of("end").await;
    assert_eq!(end["d"]["result"], "1-0");
    assert_eq!(end["d"]["reason"], "Dark left the game");
}

/// The game's state as a fresh watcher sees it, without the parts that change by themselves.
async fn state(addr: std::net::SocketAddr, game: &str) -> (Value, Value, Value) {
    let (_, snapshot) = Client::hello(addr, game, None, None).await;
    (snapshot["v"].clone(), snapshot["d"]["pos"].clone(), snapshot["d"]["moves"].clone())
}

/// A refused turn carries the rules' reason as a code with its cells and numbers (`why`),
/// beside the English, so the page can word it in its own language.
#[tokio::test]
async fn a_refused_turn_carries_the_rules_reason_as_a_code() {
    let addr = start(test_config()).await;
    let (game, seat, _) = create(addr, json!({ "opponent": "friend", "first": "me" })).await;
    let (mut pale, _) = Client::hello(addr, &game, Some(&seat), None).await;
    let (mut dark, _) = join(addr, &game).await;
    assert_eq!(pale.turn(1, "c3").await["t"], "accepted");
    let before = state(addr, &game).await;

    let occupied = dark.turn(1, "c3").await;
    assert_eq!(occupied["t"], "rejected");
    assert_eq!(occupied["d"]["code"], "illegal-move");
    assert_eq!(occupied["d"]["why"], json!({ "code": "occupied", "cell": "c3" }));
    assert_eq!(occupied["d"]["reason"], "\"c3\": c3 is not empty");
    let step = dark.turn(2, "c3-c4").await;
    assert_eq!(step["d"]["why"], json!({ "code": "still-placing", "side": "black" }));
    let off = dark.turn(3, "c9").await;
    assert_eq!(
        off["d"]["why"],
        json!({ "code": "no-such-cell", "cell": "c9", "cols": 6, "rows": 5 })
    );
    let unreadable = dark.turn(4, "c3-").await;
    assert_eq!(unreadable["d"]["why"], json!({ "code": "unreadable" }));
    assert!(unreadable["d"]["reason"].as_str().unwrap().contains("is not a move"));
    assert_eq!(state(addr, &game).await, before, "refused turns change nothing");

    // A placement that would stand in a line of three, under the Arcade's rules.
    assert_eq!(dark.turn(5, "a5").await["t"], "accepted");
    assert_eq!(pale.turn(2, "d3").await["t"], "accepted");
    assert_eq!(dark.turn(6, "b5").await["t"], "accepted");
    let line = pale.turn(3, "e3").await;
    assert_eq!(
        line["d"]["why"],
        json!({ "code": "line-too-long", "cell": "e3", "run": 3, "limit": 3 })
    );
}

#[tokio::test]
async fn bad_input_never_changes_a_game() {
    let addr = start(test_config()).await;
    let (game, seat, _) = create(addr, json!({ "opponent": "friend", "first": "me" })).await;
    let (mut pale, _) = Client::hello(addr, &game, Some(&seat), None).await;
    let (mut dark, _) = join(addr, &game).await;
    assert_eq!(pale.turn(1, "c3").await["t"], "accepted");
    let before = state(addr, &game).await;

    let reason = |msg: &Value| msg["d"]["reason"].as_str().unwrap_or_default().to_owned();
    pale.send_raw(Message::Text("{not json".into())).await;
    assert!(reason(&pale.next_of("error").await).starts_with("not a message"));
    pale.send(json!({ "t": "teleport", "d": {} })).await;
    assert_eq!(reason(&pale.next_of("error").await), "unknown message type \"teleport\"");
    pale.send(json!({ "t": "move", "d": { "m": "c4" } })).await;
    assert!(reason(&pale.next_of("error").await).contains("missing field `id`"));
    pale.send_raw(Message::Binary(vec![1, 2, 3].into())).await;
    assert_eq!(reason(&pale.next_of("error").await), "messages are JSON text, not binary");
    // Out of turn, and an illegal move.
    assert_eq!(reason(&pale.turn(2, "c4").await), "it is not your turn");
    assert_eq!(dark.turn(2, "c3").await["t"], "rejected");
    let illegal = dark.turn(3, "z9").await;
    assert_eq!(illegal["t"], "rejected");
    assert!(!reason(&illegal).is_empty());
    // A wrong token watches; a missing hello gets told.
    let (mut stranger, first) =
        Client::hello(addr, &game, Some("0123456789abcdef0123456789abcdef"), None).await;
    assert_eq!(reason(&first), "that seat link does not belong to this game; you are watching");
    assert_eq!(
        stranger.turn(1, "d4").await["d"]["reason"],
        "you are watching this game, not playing in it"
    );
    let mut rude = Client::connect(addr, &game).await;
    rude.send(json!({ "t": "move", "d": { "id": 1, "m": "d4" } })).await;
    assert_eq!(reason(&rude.next().await), "say hello first");
    // Offers that make no sense now.
    dark.send(json!({ "t": "draw-decline" })).await;
    assert_eq!(reason(&dark.next_of("error").await), "there is no draw on offer to you");
    dark.send(json!({ "t": "takeback" })).await;
    assert_eq!(reason(&dark.next_of("error").await), "you have no move to take back");
    dark.send(json!({ "t": "takeback-accept" })).await;
    assert_eq!(
        reason(&dark.next_of("error").await),
        "there is no takeback request to answer or withdraw"
    );
    dark.send(json!({ "t": "rematch" })).await;
    assert_eq!(reason(&dark.next_of("error").await), "finish this game first");
    dark.send(json!({ "t": "claim" })).await;
    assert_eq!(reason(&dark.next_of("error").await), "your opponent is still here");

    // An oversized frame and a flood each close the offending connection.
    let (mut big, _) = Client::hello(addr, &game, None, None).await;
    big.send_raw(Message::Text("x".repeat(100_000).into())).await;
    assert_ne!(big.closed().await, Some(1000));
    let (mut flood, _) = Client::hello(addr, &game, None, None).await;
    for _ in 0..200 {
        flood.send_raw(Message::Text(r#"{"t":"ping"}"#.into())).await;
    }
    assert_eq!(flood.closed().await, Some(1008));

    assert_eq!(state(addr, &game).await, before);
    // And the game goes on.
    assert_eq!(dark.turn(4, "d4").await["t"], "accepted");
}

#[tokio::test]
async fn bad_requests_get_a_reason() {
    let addr = start(test_config()).await;
    let (status, body) =
        post(addr, "/api/games", json!({ "opponent": "friend", "rules": "chess" })).await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().starts_with("ruleset:"), "{body}");
    let (status, body) =
        post(addr, "/api/games", json!({ "opponent": "computer", "level": 9 })).await;
    assert_eq!((status, body["error"].as_str().unwrap()), (400, "the level goes from 1 to 8"));
    let (status, _) = post(
        addr,
        "/api/games",
        json!({ "opponent": "friend", "clock": { "initial": 1, "increment": 0 } }),
    )
    .await;
    assert_eq!(status, 400);
    let missing = reqwest::get(format!("http://{addr}/g/0123456789abcdef")).await.unwrap();
    assert_eq!(missing.status().as_u16(), 404);
}

/// A page that reconnects to a game the server does not have hears so (4004) over a real
/// socket, rather than a refused upgrade that looks like a server that is down.
#[tokio::test]
async fn a_socket_to_a_game_the_server_does_not_have_is_closed_with_4004() {
    let addr = start(test_config()).await;
    for id in ["0123456789abcdef", "nonsense"] {
        let mut client = Client::connect(addr, id).await;
        assert_eq!(client.closed().await, Some(4004), "{id}");
    }
}

#[tokio::test]
async fn a_takeback_while_the_computer_thinks_discards_its_stale_answer() {
    // One search at a time, each a full second: the first search is still running when the
    // player takes back and moves again, and its answer arrives for a position that is gone.
    let addr = start(test_config()).await;
    let (game, seat, _) =
        create(addr, json!({ "opponent": "computer", "level": 8, "first": "me" })).await;
    let (mut me, _) = Client::hello(addr, &game, Some(&seat), None).await;
    assert_eq!(me.turn(1, "a1").await["t"], "accepted");
    me.send(json!({ "t": "takeback" })).await;
    assert_eq!(me.next_of("takeback").await["d"]["plies"], 1);
    assert_eq!(me.turn(2, "f5").await["t"], "accepted");
    let mine = loop {
        let event = me.next_of("move").await;
        if event["d"]["m"] == "f5" {
            break event;
        }
    };
    let legal = mine["d"]["pos"]["legal"].clone();
    let reply = me.next_of("move").await;
    assert_eq!(reply["d"]["ply"], 2);
    assert!(legal.as_array().unwrap().contains(&reply["d"]["m"]), "{reply}");
    assert_eq!(reply["d"]["pos"]["side"], "white");
    // Exactly one answer: the next thing is the player's own turn, not a second computer move.
    let next = reply["d"]["pos"]["legal"][0].as_str().unwrap().to_owned();
    assert_eq!(me.turn(3, &next).await["t"], "accepted");
    assert_eq!(me.next_of("move").await["d"]["ply"], 3);
}

#[tokio::test]
async fn a_draw_offer_can_be_withdrawn_by_the_one_who_made_it() {
    let addr = start(test_config()).await;
    let (game, _, mut pale, mut dark) = common::two_players(addr).await;
    let reason = |msg: &Value| msg["d"]["reason"].as_str().unwrap_or_default().to_owned();
    // Nothing to withdraw yet, and the opponent's offer is not theirs to withdraw.
    pale.send(json!({ "t": "draw-withdraw" })).await;
    assert_eq!(reason(&pale.next_of("error").await), "you have no draw offer to withdraw");
    pale.send(json!({ "t": "draw-offer" })).await;
    assert_eq!(dark.next_of("draw-offer").await["d"]["by"], "white");
    // Pale hears its own offer too (after its `ok`, or before: the protocol allows either).
    assert_eq!(pale.next_of("draw-offer").await["d"]["by"], "white");
    dark.send(json!({ "t": "draw-withdraw" })).await;
    let refused = dark.next_of("error").await;
    assert_eq!(refused["d"]["code"], "no-draw-to-withdraw");

    pale.send(json!({ "t": "draw-withdraw" })).await;
    assert_eq!(pale.next_of("ok").await["t"], "ok");
    let withdrawn = dark.next_of("draw-withdraw").await;
    assert_eq!(withdrawn["d"]["by"], "white");
    // A watcher arriving now sees no offer, and one resuming from before hears the withdrawal.
    let (_, snapshot) = Client::hello(addr, &game, None, None).await;
    assert_eq!(snapshot["d"]["drawOffer"], Value::Null);
    let (mut late, first) = Client::hello(addr, &game, None, Some(1)).await;
    assert_eq!(first["t"], "draw-offer");
    assert_eq!(late.next().await["t"], "draw-withdraw");
    // Gone means gone: the opponent can no longer accept it, and the game goes on.
    dark.send(json!({ "t": "draw-decline" })).await;
    assert_eq!(reason(&dark.next_of("error").await), "there is no draw on offer to you");
    dark.send(json!({ "t": "draw-offer" })).await;
    assert_eq!(pale.next_of("draw-offer").await["d"]["by"], "black");
    assert_eq!(pale.turn(1, "c3").await["t"], "accepted");
}

#[tokio::test]
async fn a_takeback_asked_of_a_friend_is_declined_then_granted() {
    let addr = start(test_config()).await;
    let (game, _, mut pale, mut dark) = common::two_players(addr).await;
    assert_eq!(pale.turn(1, "c3").await["t"], "accepted");
    pale.send(json!({ "t": "takeback" })).await;
    assert_eq!(dark.next_of("takeback-offer").await["d"]["by"], "white");
    // A watcher arriving now sees the request standing: the page decides what to show.
    let (_, snapshot) = Client::hello(addr, &game, None, None).await;
    assert_eq!(snapshot["d"]["takebackOffer"], "white");
    assert_eq!(snapshot["d"]["moves"], json!(["c3"]));
    dark.send(json!({ "t": "takeback-decline" })).await;
    assert_eq!(pale.next_of("takeback-decline").await["d"]["by"], "black");
    pale.send(json!({ "t": "takeback" })).await;
    assert_eq!(pale.next_of("error").await["d"]["code"], "takeback-asked-lately");
    // Dark answers the board instead; asked again on pale's own turn, it reaches back over
    // dark's answer, and granted it is pale's turn at the start.
    assert_eq!(dark.turn(1, "d3").await["t"], "accepted");
    pale.send(json!({ "t": "takeback" })).await;
    dark.next_of("takeback-offer").await;
    dark.send(json!({ "t": "takeback-accept" })).await;
    assert_eq!(dark.next_of("ok").await["t"], "ok");
    let took = pale.next_of("takeback").await;
    assert_eq!((&took["d"]["plies"], &took["d"]["ply"]), (&json!(2), &json!(0)));
    assert_eq!(took["d"]["pos"]["side"], "white");
    let (_, snapshot) = Client::hello(addr, &game, None, None).await;
    assert_eq!(snapshot["d"]["moves"], json!([]));
    assert_eq!(snapshot["d"]["takebackOffer"], Value::Null);
    // Nothing is left to accept, and the game goes on from the start.
    dark.send(json!({ "t": "takeback-accept" })).await;
    assert_eq!(dark.next_of("error").await["d"]["code"], "no-takeback-asked");
    assert_eq!(pale.turn(2, "a1").await["t"], "accepted");
}

#[tokio::test]
async fn everyone_hears_how_many_watch() {
    let addr = start(test_config()).await;
    let (game, _, mut pale, _dark) = common::two_players(addr).await;
    let (first, _) = Client::hello(addr, &game, None, None).await;
    heard_watchers(&mut pale, 1).await;
    // Two more: a change that comes within a quarter of a second of the last one told is told
    // when the quarter has passed, so pale hears the count reach three either way.
    let (second, _) = Client::hello(addr, &game, None, None).await;
    let (third, _) = Client::hello(addr, &game, None, None).await;
    heard_watchers(&mut pale, 3).await;
    drop((first, second, third));
    heard_watchers(&mut pale, 0).await;
}

/// Reads presence messages until one counts `n` watchers.
async fn heard_watchers(client: &mut Client, n: u64) {
    while client.next_of("presence").await["d"]["watchers"].as_u64() != Some(n) {}
}

#[tokio::test]
async fn a_snapshot_carries_every_earlier_position() {
    let addr = start(test_config()).await;
    let (game, _, mut pale, mut dark) = common::two_players(addr).await;
    assert_eq!(pale.turn(1, "c3").await["t"], "accepted");
    assert_eq!(dark.turn(1, "d4").await["t"], "accepted");
    let (_, snapshot) = Client::hello(addr, &game, None, None).await;
    assert_eq!(
        snapshot["d"]["positions"],
        json!(["6/6/6/6/6 w 12 12 0", "6/6/2W3/6/6 b 11 12 0", "6/3B2/2W3/6/6 w 11 11 0"])
    );
    assert_eq!(snapshot["d"]["positions"][2], snapshot["d"]["pos"]["fen"]);
}

/// A watcher whose socket takes nothing at once (a relayed one, whose frames go through Redis;
/// here one read through the library) and that comes to a long game with the first version is
/// sent every event it missed, then told that it is watching: a catch-up is written at the
/// pace the socket takes it, and only what a connection is told while it takes nothing counts
/// towards falling behind.
#[tokio::test]
async fn a_long_catch_up_is_not_falling_behind() {
    let state = Shared::new(Config::default());
    let request: NewGame =
        serde_json::from_value(json!({ "opponent": "friend", "first": "me" })).unwrap();
    let (pale, dark) = (SeatToken::random(), SeatToken::random());
    let seats = ByColour {
        white: Seat::Human(state.seat_key.seal(&pale)),
        black: Seat::Human(state.seat_key.seal(&dark)),
    };
    let handle = game::spawn(&state, request.check().unwrap(), seats, None).unwrap().0;
    let (mut white, mut black) =
        (Line::hello(&handle, &pale).await, Line::hello(&handle, &dark).await);
    let placements = [("c3", "d3"), ("e3", "f3"), ("a1", "b1"), ("a5", "b5"), ("c5", "d5")];
    let more = [("e5", "f5"), ("a2", "b2"), ("c2", "d2"), ("e2", "f2"), ("b4", "a4")];
    let plies: Vec<&str> =
        placements.into_iter().chain(more).flat_map(|(pale, dark)| [pale, dark]).collect();
    for (n, pair) in (1..).zip(plies.chunks(2)) {
        assert_eq!(white.play(n, pair[0]).await["d"]["m"], pair[0]);
        assert_eq!(black.play(n, pair[1]).await["d"]["m"], pair[1]);
    }

    let mut watcher = Line::hello_since(&handle, None, Some(0)).await;
    for ply in &plies {
        assert_eq!(watcher.next_of("move").await["d"]["m"], *ply);
    }
    let told = watcher.next_of("presence").await;
    assert_eq!(told["d"]["watchers"], 1, "{told}");
}
