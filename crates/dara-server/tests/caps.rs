//! What one player can add to a game, from outside: offers repeated hundreds of times, sockets
//! opened by the dozen on one seat. Neither grows the game's history nor what everyone is told.

mod common;

use common::{start, test_config, two_players, Client};
use serde_json::json;

/// 300 draw offers from one player: the first stands, every other is refused and adds nothing
/// to the game's history; once declined, the same player may not offer again until both sides
/// have moved. (The socket's flood limit is raised here, so that the game's own limits are what
/// is tested: an attacker can spread offers over reconnections.)
#[tokio::test]
async fn three_hundred_draw_offers_add_one() {
    let addr = start(dara_server::Config { burst: 1_000, ..test_config() }).await;
    let (game, _, mut white, mut black) = two_players(addr).await;
    let (_, before) = Client::hello(addr, &game, None, None).await;
    let version = before["v"].as_u64().unwrap();

    black.send(json!({ "t": "draw-offer" })).await;
    assert_eq!(black.next_of_any(&["ok", "error"]).await["t"], "ok");
    for _ in 1..300 {
        black.send(json!({ "t": "draw-offer" })).await;
        let refused = black.next_of_any(&["ok", "error"]).await;
        assert_eq!(refused["d"]["code"], "draw-already-offered", "{refused}");
    }
    let (_, after) = Client::hello(addr, &game, None, None).await;
    assert_eq!(after["v"].as_u64().unwrap(), version + 1, "one offer, one event");
    assert_eq!(white.next_of("draw-offer").await["d"]["by"], "black");

    white.send(json!({ "t": "draw-decline" })).await;
    assert_eq!(white.next_of_any(&["ok", "error"]).await["t"], "ok");
    black.send(json!({ "t": "draw-offer" })).await;
    let refused = black.next_of_any(&["ok", "error"]).await;
    assert_eq!(refused["d"]["code"], "draw-offered-lately", "{refused}");
    // Both sides move: the offer may be made again.
    assert_eq!(white.turn(1, "c3").await["t"], "accepted");
    assert_eq!(black.turn(1, "d3").await["t"], "accepted");
    black.send(json!({ "t": "draw-offer" })).await;
    assert_eq!(black.next_of_any(&["ok", "error"]).await["t"], "ok");
    let (_, last) = Client::hello(addr, &game, None, None).await;
    // The offer, its decline, two turns and the new offer.
    assert_eq!(last["v"].as_u64().unwrap(), version + 5);
}

/// Ten sockets opened one after another on one seat: each beyond the second closes the oldest
/// still open with 4011, so the seat never holds more than two, and the newest plays.
#[tokio::test]
async fn ten_sockets_on_one_seat_keep_two() {
    let addr = start(test_config()).await;
    let (game, pale, first, mut black) = two_players(addr).await;
    let mut sockets = vec![first];
    for _ in 1..10 {
        let (socket, snapshot) = Client::hello(addr, &game, Some(&pale), None).await;
        assert_eq!(snapshot["d"]["you"], "white", "{snapshot}");
        sockets.push(socket);
    }
    let newest = sockets.pop().unwrap();
    let second = sockets.pop().unwrap();
    for (n, mut old) in sockets.into_iter().enumerate() {
        assert_eq!(old.closed().await, Some(4011), "socket {} of 10 is replaced", n + 1);
    }
    let mut newest = newest;
    assert_eq!(newest.turn(1, "c3").await["t"], "accepted");
    let mut second = second;
    assert_eq!(second.next_of("move").await["d"]["m"], "c3", "the second newest still hears");
    assert_eq!(black.next_of("move").await["d"]["m"], "c3");
    // A watcher is never replaced: ten of them stay.
    let mut watchers = Vec::new();
    for _ in 0..10 {
        watchers.push(Client::hello(addr, &game, None, None).await.0);
    }
    assert_eq!(black.turn(1, "d3").await["t"], "accepted");
    for watcher in &mut watchers {
        assert_eq!(watcher.next_of("move").await["d"]["m"], "d3");
    }
}
