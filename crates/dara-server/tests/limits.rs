//! One client address may hold only so many games, so one client cannot fill the server; the
//! rest of the world is not held back by it.

mod common;

use std::net::IpAddr;
use std::time::Duration;

use common::{create, post, post_from, start, test_config, Client};
use serde_json::json;

#[tokio::test]
async fn one_address_may_hold_only_so_many_games() {
    let config = dara_server::Config {
        games_per_address: 3,
        finished_grace: Duration::from_millis(200),
        ..test_config()
    };
    let addr = start(config).await;
    let friend = json!({ "opponent": "friend", "first": "me" });
    let mut games = Vec::new();
    for _ in 0..3 {
        games.push(create(addr, friend.clone()).await);
    }
    let (status, body) = post(addr, "/api/games", friend.clone()).await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(
        body["error"],
        "there are already 3 games here started from your address, the most it may have at \
         once; a finished game is forgotten 1 second after it ends, so try again then"
    );
    // "Play anyone" may open a table, so it is held back too.
    let (status, _) = post(addr, "/api/seek", json!({ "rules": "arcade" })).await;
    assert_eq!(status, 429);

    // Another client (another loopback address) is not.
    let other: IpAddr = "127.0.0.2".parse().unwrap();
    let (status, body) = post_from(addr, "/api/games", friend.clone(), Some(other)).await;
    assert_eq!(status, 201, "{body}");

    // A game that ends is forgotten after the grace period, and its place is free again.
    let (game, seat, _) = &games[0];
    let (mut pale, _) = Client::hello(addr, game, Some(seat), None).await;
    pale.send(json!({ "t": "resign" })).await;
    pale.next_of("end").await;
    drop(pale);
    let mut waited = Duration::ZERO;
    loop {
        let (status, body) = post(addr, "/api/games", friend.clone()).await;
        if status == 201 {
            break;
        }
        assert_eq!(status, 429, "{body}");
        assert!(waited < Duration::from_secs(10), "the finished game is let go");
        tokio::time::sleep(Duration::from_millis(50)).await;
        waited += Duration::from_millis(50);
    }
}
