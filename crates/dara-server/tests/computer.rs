//! The computer is fair to everyone and says when it is busy: a search nobody wants any more
//! (a takeback, the game's end, the game forgotten) frees its thread at once; one client's
//! flood does not starve another's game; a waiting game hears how many are ahead of it; past
//! the queue's bound a new game against the computer is refused with when to come back.
//!
//! One engine thread and level 8 (a second a search): which search runs and which waits is
//! read from the `queue` messages, so the tests assert orders and states, never durations.

mod common;

use std::net::IpAddr;
use std::time::Duration;

use common::{create, create_from, start, start_with_state, test_config, Client};
use serde_json::{json, Value};

fn ip(text: &str) -> IpAddr {
    text.parse().unwrap()
}

/// The computer, level 8, moving first.
fn computer_first() -> Value {
    json!({ "opponent": "computer", "level": 8, "first": "them" })
}

/// The next message that is not a presence update nor a place heard already: a connection
/// that says hello just as its place is told may hear it twice.
async fn next_news(client: &mut Client, last: &mut Value) -> Value {
    loop {
        let msg = client.next_not_presence().await;
        if msg["t"] != "queue" || msg != *last {
            *last = msg.clone();
            return msg;
        }
    }
}

/// A new game against the computer, which opens it, watched through its seat: the messages
/// after the snapshot up to the computer's first move (see `next_news`).
async fn until_first_move(addr: std::net::SocketAddr, from: IpAddr) -> Vec<Value> {
    let (game, seat, _) = create_from(addr, computer_first(), from).await;
    let (mut client, snapshot) = Client::hello(addr, &game, Some(&seat), None).await;
    assert_eq!(snapshot["t"], "snapshot");
    let (mut heard, mut last) = (Vec::new(), Value::Null);
    loop {
        let msg = next_news(&mut client, &mut last).await;
        let moved = msg["t"] == "move";
        heard.push(msg);
        if moved {
            return heard;
        }
    }
}

#[tokio::test]
async fn a_takeback_calls_off_the_running_search() {
    let addr = start(test_config()).await;
    let (game, seat, _) = create_from(
        addr,
        json!({ "opponent": "computer", "level": 8, "first": "me" }),
        ip("127.0.0.2"),
    )
    .await;
    let (mut me, _) = Client::hello(addr, &game, Some(&seat), None).await;
    // The computer starts its second-long search on the only engine thread...
    assert_eq!(me.turn(1, "a1").await["t"], "accepted");
    // ...and the takeback calls it off.
    me.send(json!({ "t": "takeback" })).await;
    assert_eq!(me.next_of("takeback").await["d"]["plies"], 1);
    // Another client's game gets the thread at once: its search never waits in the queue.
    let heard = until_first_move(addr, ip("127.0.0.3")).await;
    assert_eq!(heard.len(), 1, "no queue message before the move: {heard:?}");
}

#[tokio::test]
async fn a_resignation_calls_off_the_running_search() {
    let addr = start(test_config()).await;
    let (game, seat, _) = create_from(addr, computer_first(), ip("127.0.0.2")).await;
    let (mut me, _) = Client::hello(addr, &game, Some(&seat), None).await;
    me.send(json!({ "t": "resign" })).await;
    assert_eq!(me.next_of("end").await["d"]["code"], "resigned");
    let heard = until_first_move(addr, ip("127.0.0.3")).await;
    assert_eq!(heard.len(), 1, "no queue message before the move: {heard:?}");
}

#[tokio::test]
async fn a_forgotten_game_calls_off_its_search() {
    let config = dara_server::Config { idle_timeout: Duration::from_millis(100), ..test_config() };
    let (addr, state) = start_with_state(config).await;
    // Nobody ever connects: the game is forgotten while the computer thinks of its first move.
    create_from(addr, computer_first(), ip("127.0.0.2")).await;
    while state.live_games() > 0 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let heard = until_first_move(addr, ip("127.0.0.3")).await;
    assert_eq!(heard.len(), 1, "no queue message before the move: {heard:?}");
}

#[tokio::test]
async fn a_waiting_game_hears_its_place_as_the_queue_moves() {
    let addr = start(test_config()).await;
    // The first search runs, the second waits first in line, the third second.
    for _ in 0..2 {
        create(addr, computer_first()).await;
    }
    let heard = until_first_move(addr, ip("127.0.0.1")).await;
    let kinds: Vec<_> = heard.iter().map(|m| (m["t"].clone(), m["d"]["ahead"].clone())).collect();
    assert_eq!(
        kinds,
        [(json!("queue"), json!(1)), (json!("queue"), json!(0)), (json!("move"), Value::Null)]
    );
}

#[tokio::test]
async fn one_clients_flood_does_not_starve_another() {
    let addr = start(test_config()).await;
    let flood = ip("127.0.0.2");
    // Four games from one client: the first search runs, three wait.
    let mut games = Vec::new();
    for _ in 0..4 {
        games.push(create_from(addr, computer_first(), flood).await);
    }
    let (game, seat, _) = &games[3];
    let (mut last, _) = Client::hello(addr, game, Some(seat), None).await;
    let mut lasts = Value::Null;
    let place = |ahead: u32| json!({ "t": "queue", "d": { "ahead": ahead } });
    assert_eq!(next_news(&mut last, &mut lasts).await, place(2));
    // Another client's game goes ahead of all three: its client has used no engine time yet.
    let (other, other_seat, _) = create_from(addr, computer_first(), ip("127.0.0.3")).await;
    let (mut them, _) = Client::hello(addr, &other, Some(&other_seat), None).await;
    let mut theirs = Value::Null;
    assert_eq!(next_news(&mut them, &mut theirs).await, place(0));
    // It runs next, then the flood's games in turn. (A place that changes twice within a
    // quarter of a second is told once: the flood's last game may or may not hear that it
    // went back to third.)
    assert_eq!(next_news(&mut them, &mut theirs).await["t"], "move");
    let mut places = Vec::new();
    loop {
        let msg = next_news(&mut last, &mut lasts).await;
        if msg["t"] == "move" {
            break;
        }
        places.push(msg["d"]["ahead"].as_u64().unwrap());
    }
    assert!(places.iter().all(|p| *p <= 3), "{places:?}");
    assert_eq!(places.last(), Some(&0), "{places:?}");
}

#[tokio::test]
async fn past_the_queue_bound_new_games_against_the_computer_wait() {
    let config = dara_server::Config { engine_queue: 2, ..test_config() };
    let addr = start(config).await;
    let http = reqwest::Client::new();
    // Games come far faster than second-long searches end: the queue fills.
    let refused = 'fill: {
        for _ in 0..10 {
            let response = http
                .post(format!("http://{addr}/api/games"))
                .json(&computer_first())
                .send()
                .await
                .unwrap();
            if response.status() == 503 {
                break 'fill response;
            }
            assert_eq!(response.status(), 201);
        }
        panic!("the queue never filled");
    };
    let retry: u64 = refused.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!(retry >= 1);
    let body: Value = refused.json().await.unwrap();
    let seconds = if retry == 1 { "second" } else { "seconds" };
    assert_eq!(
        body["error"],
        format!(
            "the computer is busy: 2 games are waiting for its moves; try again in {retry} {seconds}"
        )
    );
    // People can still play each other.
    create(addr, json!({ "opponent": "friend", "first": "me" })).await;
}
