//! The engine's studies (analyses and reviews) shared fairly between client addresses, over
//! real HTTP: each address has a queue of its own and the addresses are served in turn, so one
//! client's long reviews never hold another client's single analysis back; and a refusal's
//! `Retry-After` is read from the queue ahead of the client, not a constant.

mod common;

use std::net::IpAddr;

use common::{start, test_config};
use dara::{Move, Position, SplitMix64};
use futures_util::stream::FuturesUnordered;
use futures_util::StreamExt;
use serde_json::{json, Value};

/// A game of `turns` turns under rules with no draw by quiet plies (`jaques`): stones placed,
/// then stepped about at random, never taking when a quiet step is there and never ending the
/// game, so that a review searches every position of it.
fn long_game(turns: usize) -> Vec<String> {
    let mut pos = Position::start("jaques".parse().unwrap());
    let mut dice = SplitMix64::new(29);
    let mut moves = Vec::new();
    while moves.len() < turns {
        let goes_on = |m: &Move| {
            let mut next = pos.clone();
            next.play_unchecked(*m);
            !next.is_over()
        };
        let legal: Vec<Move> = pos.legal_moves().iter().copied().filter(goes_on).collect();
        let quiet: Vec<Move> =
            legal.iter().copied().filter(|m| !m.to_string().contains('x')).collect();
        let choice = if quiet.is_empty() { &legal } else { &quiet };
        assert!(!choice.is_empty(), "the game ended after {} turns", moves.len());
        let m = choice[dice.below(choice.len() as u64) as usize];
        moves.push(m.to_string());
        pos.play_unchecked(m);
    }
    moves
}

/// A review of the longest game a review goes through (400 turns: about half a minute of the
/// engine).
fn long_review() -> Value {
    json!({ "rules": "jaques", "moves": long_game(400) })
}

fn ip(text: &str) -> IpAddr {
    text.parse().unwrap()
}

/// A POST from `from`: the status, the body, and `Retry-After` in seconds if there is one.
async fn ask(addr: std::net::SocketAddr, path: &str, body: Value, from: IpAddr) -> Asked {
    let client = reqwest::Client::builder().local_address(Some(from)).build().unwrap();
    let response = client.post(format!("http://{addr}{path}")).json(&body).send().await.unwrap();
    let status = response.status().as_u16();
    let retry_after = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().parse::<u64>().expect("Retry-After in whole seconds"));
    Asked { status, retry_after, body: response.json().await.unwrap() }
}

#[derive(Debug)]
struct Asked {
    status: u16,
    retry_after: Option<u64>,
    body: Value,
}

#[tokio::test]
async fn a_flood_of_reviews_does_not_hold_back_another_clients_analysis() {
    // One engine thread: analysis has it to itself.
    let addr = start(test_config()).await;
    let review = long_review();
    let flood = ip("127.0.0.31");
    let mut reviews: FuturesUnordered<_> =
        (0..20).map(|_| ask(addr, "/api/review", review.clone(), flood)).collect();
    // Twenty reviews at once from one address: its share (two) is booked, the rest refused.
    for _ in 0..18 {
        let refused = reviews.next().await.unwrap();
        assert_eq!(refused.status, 429, "{refused:?}");
    }
    // Another client's single analysis is answered while both of the flood's reviews still
    // go on: it waited for a turn of theirs, not for a whole review.
    let other = ask(addr, "/api/analysis", json!({ "rules": "arcade" }), ip("127.0.0.32"));
    tokio::select! {
        biased;
        answered = other => {
            assert_eq!(answered.status, 200, "{answered:?}");
            assert!(answered.body["best"].is_string(), "{answered:?}");
        }
        reviewed = reviews.next() => {
            let status = reviewed.map(|r| r.status);
            panic!("a review of the flood was answered ({status:?}) before the other client's \
                    analysis");
        }
    }
}

/// Books two long reviews for `from` (its share) and waits until they are booked: a third
/// request is refused. Gives that refusal.
async fn fill_share(addr: std::net::SocketAddr, review: &Value, from: IpAddr) -> Asked {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    for _ in 0..3 {
        let (tx, review) = (tx.clone(), review.clone());
        tokio::spawn(async move {
            let _ = tx.send(ask(addr, "/api/review", review, from).await);
        });
    }
    let refused = rx.recv().await.unwrap();
    assert_eq!(refused.status, 429, "{refused:?}");
    // The two booked reviews go on in their tasks for the rest of the test.
    tokio::spawn(async move { while rx.recv().await.is_some() {} });
    refused
}

#[tokio::test]
async fn a_refusal_says_how_long_the_queue_ahead_of_the_client_is() {
    let addr = start(test_config()).await;
    let review = long_review();
    let me = ip("127.0.0.41");
    let alone = fill_share(addr, &review, me).await;
    let alone_wait = alone.retry_after.expect("a refusal says when to come back");
    assert_eq!(alone.body["seconds"], alone_wait, "{alone:?}");
    // My first review ends after about a hundred turns of a review (mine alternate): far more
    // than a second.
    assert!(alone_wait > 10, "{alone:?}");
    // Five more clients book their share: every turn of mine now waits for a turn of each.
    for n in 51..56 {
        fill_share(addr, &review, ip(&format!("127.0.0.{n}"))).await;
    }
    let crowded = ask(addr, "/api/review", review.clone(), me).await;
    assert_eq!(crowded.status, 429, "{crowded:?}");
    let crowded_wait = crowded.retry_after.expect("a refusal says when to come back");
    // About six times as long on the turns' budgets; the turns run meanwhile teach how long
    // they really take, which may shorten both.
    assert!(
        crowded_wait > 2 * alone_wait,
        "the wait grows with the queue ahead: alone {alone_wait} s, behind five {crowded_wait} s"
    );
}
