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

/// Three hundred "play anyone" from one address (one browser, so that it is never seated at
/// its own tables), as fast as it can send them: as many tables as an address may hold open,
/// every other seek refused with a code the page words, and another address seated at once at
/// the one that has waited longest.
#[tokio::test]
async fn a_flood_of_seeks_from_one_address_is_limited_with_a_code() {
    let config = dara_server::Config { games_per_address: 5, ..test_config() };
    let addr = start(config).await;
    let seek = json!({ "rules": "arcade", "browser": "one-flooding-browser" });
    let (mut opened, mut refused) = (Vec::new(), 0);
    for _ in 0..300 {
        let (status, body) = post(addr, "/api/seek", seek.clone()).await;
        match status {
            200 => opened.push((body["game"].to_string(), body["seat"].to_string())),
            429 => {
                assert_eq!(body["code"], "too-many-games", "{body}");
                assert_eq!(body["limit"], 5, "{body}");
                refused += 1;
            }
            _ => panic!("{status}: {body}"),
        }
    }
    assert_eq!((opened.len(), refused), (5, 295));
    // Another address, another browser, is seated at the first.
    let (game, seat) = (opened[0].0.trim_matches('"'), opened[0].1.trim_matches('"'));
    let (_waiting, _) = Client::hello(addr, game, Some(seat), None).await;
    let other: IpAddr = "127.0.0.2".parse().unwrap();
    let seek = json!({ "rules": "arcade", "browser": "another-browser-0001" });
    let (status, body) = post_from(addr, "/api/seek", seek, Some(other)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["game"], game, "{body}");
}
