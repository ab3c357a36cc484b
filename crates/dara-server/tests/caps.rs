//! What one player can add to a game, from outside: offers repeated hundreds of times,
//! takebacks past their limit, requests in a game whose history is full, sockets opened by the
//! dozen on one seat. None grows the game's history nor what everyone is told.

mod common;

use common::kept::{DataDir, Process};
use common::{create, start, test_config, two_players, Client};
use dara::{ByColour, Colour, Ruleset};
use dara_server::game::{self, GameEvent, GameSettings, Opponent, Seat};
use dara_server::seat::SeatToken;
use dara_server::store::Write;
use dara_table::{MAX_EVENTS, MAX_TAKEBACKS};
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

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

/// Against the computer, a player takes back as often as the game allows; past that, every
/// takeback is refused with the limit's code and adds nothing to the game's history, and the
/// game goes on. (The socket's flood limit is raised, as above.)
#[tokio::test]
async fn takebacks_past_the_limit_are_refused_and_add_nothing() {
    let addr = start(dara_server::Config { burst: 10_000, ..test_config() }).await;
    let (game, seat, _) =
        create(addr, json!({ "opponent": "computer", "level": 1, "first": "me" })).await;
    let (mut me, _) = Client::hello(addr, &game, Some(&seat), None).await;
    for id in 1..=u64::from(MAX_TAKEBACKS) {
        assert_eq!(me.turn(id, "c3").await["t"], "accepted", "turn {id}");
        me.send(json!({ "t": "takeback" })).await;
        let answer = me.next_of_any(&["ok", "error"]).await;
        assert_eq!(answer["t"], "ok", "takeback {id}: {answer}");
    }
    // Back at the start, pale to move: the computer is not thinking, the history stands still.
    let (_, before) = Client::hello(addr, &game, None, None).await;
    for _ in 0..50 {
        me.send(json!({ "t": "takeback" })).await;
        let refused = me.next_of_any(&["ok", "error"]).await;
        assert_eq!(refused["d"]["code"], "takeback-limit", "{refused}");
        assert_eq!(refused["d"]["limit"], MAX_TAKEBACKS, "{refused}");
    }
    let (_, after) = Client::hello(addr, &game, None, None).await;
    assert_eq!(after["v"], before["v"], "refused takebacks add no event");
    assert_eq!(me.turn(1_000, "c3").await["t"], "accepted", "the game goes on");
    me.send(json!({ "t": "takeback" })).await;
    let refused = me.next_of_any(&["ok", "error"]).await;
    assert_eq!(refused["d"]["code"], "takeback-limit", "{refused}");
}

/// A game whose history is at its cap refuses draw offers and takebacks with the cap's code,
/// adds nothing for them, and still takes turns. Reaching the cap through the socket would
/// take about 700 turns between people (an offer is barred until both sides have moved since
/// the last was turned down, so at most six events come with every two turns), and the arcade
/// rules end a game after 80 quiet plies; so the history is written to the store before a
/// restart, as a server that had played it would have written it, and the server takes it up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_at_its_event_cap_refuses_offers_and_takebacks() {
    let data = DataDir::new("event-cap");
    let (pale, dark) = (SeatToken::random(), SeatToken::random());
    let first = Process::start(&data.0, test_config());
    let key = first.state.seat_key.clone();
    let level = dara_engine::level::Level::new(1).unwrap();
    let spawn = |opponent, seats| {
        let state = first.state.clone();
        let settings = GameSettings {
            rules: Ruleset::default(),
            opponent,
            creator: Colour::White,
            clock: None,
        };
        first.runtime.spawn(async move {
            let (handle, stored) = game::spawn(&state, settings, seats, None).unwrap();
            stored.wait().await.unwrap();
            handle.id.clone()
        })
    };
    let friends = spawn(
        Opponent::Friend,
        ByColour { white: Seat::Human(key.seal(&pale)), black: Seat::Human(key.seal(&dark)) },
    )
    .await
    .unwrap();
    let computer = spawn(
        Opponent::Computer(level),
        ByColour { white: Seat::Human(key.seal(&pale)), black: Seat::Computer(level) },
    )
    .await
    .unwrap();

    // Each history filled to the cap: offers made and turned down by both sides, then a turn
    // each, so that nobody is barred from offering by the offers' own rule.
    let mut writes = Vec::new();
    for id in [&friends, &computer] {
        let (_, snapshot) = Client::hello(first.addr, &id.to_string(), None, None).await;
        let mut v = snapshot["v"].as_u64().unwrap();
        let room = MAX_EVENTS - usize::try_from(v).unwrap() - 2;
        let mut append = |event| {
            v += 1;
            writes.push(Write::Append { game: id.clone(), v, event });
        };
        for n in 0..room {
            let by = if n % 4 < 2 { Colour::White } else { Colour::Black };
            append(if n % 2 == 0 {
                GameEvent::DrawOffered { by }
            } else {
                GameEvent::DrawDeclined { by: !by }
            });
        }
        for (cell, turn) in [("c3", Some(1)), ("d3", (id == &friends).then_some(1))] {
            let m = dara::Move::Put(dara::Cell::from_name(cell).unwrap());
            append(GameEvent::Moved { m, left: None, turn });
        }
    }
    let store = first.state.store.clone();
    first
        .runtime
        .spawn(async move {
            store.send(writes).wait().await.unwrap();
            store.close().await;
        })
        .await
        .unwrap();
    first.crash();

    let second = Process::start(&data.0, test_config());
    let addr = second.addr;
    let full = u64::try_from(MAX_EVENTS).unwrap();
    let refused_at_cap = |answer: serde_json::Value| {
        assert_eq!(answer["t"], "error", "{answer}");
        assert_eq!(answer["d"]["code"], "event-limit", "{answer}");
        assert_eq!(answer["d"]["limit"], MAX_EVENTS, "{answer}");
    };

    let (mut white, snapshot) =
        Client::hello(addr, &friends.to_string(), Some(pale.as_str()), None).await;
    assert_eq!(snapshot["v"], full, "{snapshot}");
    let (mut black, _) = Client::hello(addr, &friends.to_string(), Some(dark.as_str()), None).await;
    for _ in 0..3 {
        white.send(json!({ "t": "draw-offer" })).await;
        refused_at_cap(white.next_of_any(&["ok", "error"]).await);
        black.send(json!({ "t": "draw-offer" })).await;
        refused_at_cap(black.next_of_any(&["ok", "error"]).await);
    }
    let (_, after) = Client::hello(addr, &friends.to_string(), None, None).await;
    assert_eq!(after["v"], full, "refused offers add no event");
    // Turns go on, past the cap, so that every game can end.
    assert_eq!(white.turn(2, "a1").await["t"], "accepted");
    white.send(json!({ "t": "draw-offer" })).await;
    refused_at_cap(white.next_of_any(&["ok", "error"]).await);
    // A takeback asked of a person too: its request and the takeback would both be history.
    white.send(json!({ "t": "takeback" })).await;
    refused_at_cap(white.next_of_any(&["ok", "error"]).await);

    let (mut player, snapshot) =
        Client::hello(addr, &computer.to_string(), Some(pale.as_str()), None).await;
    assert_eq!(snapshot["v"], full, "{snapshot}");
    for _ in 0..3 {
        player.send(json!({ "t": "takeback" })).await;
        refused_at_cap(player.next_of_any(&["ok", "error"]).await);
    }
    let (_, after) = Client::hello(addr, &computer.to_string(), None, None).await;
    assert_eq!(after["v"], full, "refused takebacks add no event");
    second.crash();
}

/// A watcher that asks and asks but reads nothing holds up nobody: the game writes to every
/// socket without waiting on any, so all 24 placements are answered while the watcher's
/// socket is full (a write to it would wait two minutes, the write timeout here, far past the
/// test's patience with each message); and once more than its socket holds and a few
/// messages more wait for it, the watcher is closed as fallen behind (4000), to come back with
/// its last version.
#[tokio::test]
async fn a_watcher_that_reads_nothing_holds_up_nobody() {
    let config = dara_server::Config {
        burst: 100_000,
        silence: std::time::Duration::from_secs(120),
        ..test_config()
    };
    let addr = start(config).await;
    let (game, pale, mut white, mut black) = two_players(addr).await;

    // A socket whose receiving buffer is as small as the kernel allows: the server's writes
    // to it fill it soon.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(1024).unwrap();
    let stream = socket.connect(addr).await.unwrap();
    let url = format!("ws://{addr}/ws/game/{game}");
    let (mut watcher, _) = tokio_tungstenite::client_async(url, stream).await.unwrap();
    let hello = json!({ "t": "hello", "d": { "protocol": 1, "seat": null, "since": null } });
    watcher.send(Message::Text(hello.to_string().into())).await.unwrap();
    // Thousands of requests a watcher may not make, each answered with an error it never
    // reads; sent from a task of their own, as the socket stops taking them when the server
    // stops reading.
    let (mut sink, mut stream) = watcher.split();
    let asking = tokio::spawn(async move {
        let resign = Message::Text(json!({ "t": "resign" }).to_string().into());
        for _ in 0..50_000 {
            if sink.send(resign.clone()).await.is_err() {
                break;
            }
        }
        sink
    });
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;

    // All 24 placements, each answered, and heard by the opponent.
    let placements = [("c3", "d3"), ("e3", "f3"), ("a1", "b1"), ("a5", "b5"), ("c5", "d5")];
    let more = [("e5", "f5"), ("a2", "b2"), ("c2", "d2"), ("e2", "f2"), ("b4", "a4")];
    let last = [("d4", "c4"), ("f4", "e4")];
    let placements = placements.into_iter().chain(more).chain(last);
    for (id, (pale, dark)) in (1..).zip(placements) {
        assert_eq!(white.turn(id, pale).await["t"], "accepted", "{pale}");
        assert_eq!(black.next_of("move").await["d"]["m"], pale);
        assert_eq!(black.turn(id, dark).await["t"], "accepted", "{dark}");
        assert_eq!(white.next_of("move").await["d"]["m"], pale);
        assert_eq!(white.next_of("move").await["d"]["m"], dark);
        assert_eq!(black.next_of("move").await["d"]["m"], dark);
    }

    // Pale leaves and comes back a hundred times, and everyone is told each time: far more
    // than the watcher's socket and what may wait for it hold.
    for _ in 0..100 {
        drop(white);
        let gone = black.next_of("presence").await;
        assert_eq!(gone["d"]["white"]["online"], false, "{gone}");
        white = Client::hello(addr, &game, Some(&pale), None).await.0;
        let back = black.next_of("presence").await;
        assert_eq!(back["d"]["white"]["online"], true, "{back}");
    }
    assert_eq!(white.turn(13, "a2-a3").await["t"], "accepted");

    // The watcher reads at last: what the server had written, then its close.
    let closed = tokio::time::timeout(std::time::Duration::from_secs(20), async {
        while let Some(Ok(frame)) = stream.next().await {
            if let Message::Close(frame) = frame {
                return frame.map(|f| u16::from(f.code));
            }
        }
        None
    });
    assert_eq!(closed.await.expect("closed in time"), Some(4000));
    drop(asking);
}
