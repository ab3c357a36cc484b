//! The watch list over real sockets: a game at an open table is listed once both players sit,
//! with its turns and watchers, and leaves when it ends; a friend's game and a game against the
//! computer never appear.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{create, post, start, test_config, Client};
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Watch = WebSocketStream<MaybeTlsStream<TcpStream>>;

async fn watch_list(addr: SocketAddr) -> Watch {
    tokio_tungstenite::connect_async(format!("ws://{addr}/ws/watch")).await.unwrap().0
}

/// The next list of games to watch.
async fn listing(watch: &mut Watch) -> Value {
    loop {
        let next = tokio::time::timeout(Duration::from_secs(10), watch.next()).await;
        if let Some(Ok(Message::Text(t))) = next.expect("a list in time") {
            let msg = serde_json::from_str::<Value>(t.as_str()).unwrap();
            assert_eq!(msg["t"], "playing", "{msg}");
            return msg["d"].clone();
        }
    }
}

/// Reads lists until one satisfies `done`; gives it.
async fn until(watch: &mut Watch, done: impl Fn(&Value) -> bool) -> Value {
    loop {
        let list = listing(watch).await;
        if done(&list) {
            return list;
        }
    }
}

fn entry<'a>(list: &'a Value, game: &str) -> Option<&'a Value> {
    list.as_array().unwrap().iter().find(|g| g["game"] == game)
}

#[tokio::test]
async fn an_open_table_is_listed_while_played_and_a_friends_or_the_computers_game_never() {
    let addr = start(test_config()).await;
    let mut watch = watch_list(addr).await;
    assert_eq!(listing(&mut watch).await, json!([]));

    // A friend's game, both seated and playing, and a game against the computer.
    let (friend, friend_seat, _) =
        create(addr, json!({ "opponent": "friend", "rules": "arcade", "first": "me" })).await;
    let (mut pale, _) = Client::hello(addr, &friend, Some(&friend_seat), None).await;
    let (mut dark, _) = Client::hello(addr, &friend, None, None).await;
    dark.send(json!({ "t": "join" })).await;
    dark.next_of("joined").await;
    assert_eq!(pale.turn(1, "c3").await["t"], "accepted");
    let (computer, computer_seat, _) =
        create(addr, json!({ "opponent": "computer", "level": 1, "first": "me" })).await;
    let (mut me, _) = Client::hello(addr, &computer, Some(&computer_seat), None).await;
    assert_eq!(me.turn(1, "c3").await["t"], "accepted");

    // An open table: not listed while one waits at it.
    let clock = json!({ "initial": 300, "increment": 3 });
    let (_, first) = post(addr, "/api/seek", json!({ "rules": "jaques", "clock": clock })).await;
    let table = first["game"].as_str().unwrap().to_owned();
    let (mut waiting, _) =
        Client::hello(addr, &table, Some(first["seat"].as_str().unwrap()), None).await;
    // Listed once the second player sits down.
    let (_, second) = post(addr, "/api/seek", json!({ "rules": "jaques", "clock": clock })).await;
    assert_eq!(second["game"], table.as_str());
    let (mut sitter, _) =
        Client::hello(addr, &table, Some(second["seat"].as_str().unwrap()), None).await;
    let list = until(&mut watch, |l| entry(l, &table).is_some()).await;
    let listed = entry(&list, &table).unwrap();
    assert_eq!(listed["kind"], "table");
    assert_eq!(listed["rules"], "jaques");
    assert_eq!(listed["clock"], clock);
    assert_eq!(listed["turns"], 0);
    assert_eq!(list.as_array().unwrap().len(), 1, "only the open table: {list}");
    // Nothing about the players: no seat, no colour, no address.
    let keys: Vec<&str> = listed.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["clock", "game", "kind", "lastTurnMs", "rules", "turns", "watchers"]);

    // A turn and two watchers are counted.
    let pale_first = if first["colour"] == "white" { &mut waiting } else { &mut sitter };
    assert_eq!(pale_first.turn(1, "c3").await["t"], "accepted");
    let (_w1, _) = Client::hello(addr, &table, None, None).await;
    let (_w2, _) = Client::hello(addr, &table, None, None).await;
    let list = until(&mut watch, |l| {
        entry(l, &table).is_some_and(|g| g["watchers"] == 2 && g["turns"] == 1)
    })
    .await;
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");

    // It leaves the list when it ends.
    waiting.send(json!({ "t": "resign" })).await;
    waiting.next_of("end").await;
    until(&mut watch, |l| entry(l, &table).is_none()).await;
    drop((pale, dark, me));
}

#[tokio::test]
async fn changes_within_a_second_go_out_together() {
    let addr = start(test_config()).await;
    let mut watch = watch_list(addr).await;
    listing(&mut watch).await;
    let clock = json!({ "initial": 300, "increment": 3 });
    let (_, first) = post(addr, "/api/seek", json!({ "rules": "arcade", "clock": clock })).await;
    let table = first["game"].as_str().unwrap().to_owned();
    let (_waiting, _) =
        Client::hello(addr, &table, Some(first["seat"].as_str().unwrap()), None).await;
    let (_, second) = post(addr, "/api/seek", json!({ "rules": "arcade", "clock": clock })).await;
    let (_sitter, _) =
        Client::hello(addr, &table, Some(second["seat"].as_str().unwrap()), None).await;
    let started = tokio::time::Instant::now();
    let mut watchers = Vec::new();
    for _ in 0..5 {
        watchers.push(Client::hello(addr, &table, None, None).await.0);
    }
    // Six changes (play began, five watchers) in well under a second: at most two lists.
    let mut lists = 0;
    loop {
        let list = listing(&mut watch).await;
        lists += 1;
        if entry(&list, &table).is_some_and(|g| g["watchers"] == 5) {
            break;
        }
    }
    assert!(lists <= 2, "{lists} lists in {:?}", started.elapsed());
}
