//! An arena against what comes from outside: a page of another site, sockets that send garbage
//! or too much or never read, and join bodies that are not what the protocol says. Each is
//! refused with its code or closed clearly, and changes nothing.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::arena::{ask, now_ms, token, Watcher, PATIENCE};
use common::{start, start_with_state, test_config, upgrade};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

/// A private arena on the server at `addr`, running now: its id.
async fn running_arena(addr: SocketAddr) -> String {
    let body =
        json!({ "clock": { "initial": 180, "increment": 2 }, "minutes": 30, "starts": now_ms() });
    let (status, made) = ask(addr, "/api/arenas", body).await;
    assert_eq!(status, 201, "{made}");
    made["arena"].as_str().unwrap().to_owned()
}

/// How the server closed a socket: the close frame's code and reason, read within the
/// tests' patience (`None`: the connection ended with no close frame).
async fn closed(
    ws: &mut tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
) -> Option<(u16, String)> {
    let read = async {
        while let Some(message) = ws.next().await {
            match message {
                Ok(Message::Close(frame)) => {
                    return frame.map(|f| (u16::from(f.code), f.reason.to_string()));
                }
                Ok(_) => {}
                Err(_) => return None,
            }
        }
        None
    };
    tokio::time::timeout(PATIENCE, read).await.expect("the socket was never closed")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_of_another_site_may_not_open_an_arena_socket() {
    let addr = start(test_config()).await;
    let arena = running_arena(addr).await;
    let url = format!("http://{addr}/ws/arena/{arena}");
    let foreign = upgrade(&url, Some("https://evil.example")).await;
    assert_eq!(foreign.status(), 403);
    let why: Value = foreign.json().await.unwrap();
    assert_eq!(why["code"], "foreign-origin", "{why}");
    assert_eq!(upgrade(&url, Some("null")).await.status(), 403);
    assert_eq!(upgrade(&url, Some(&format!("http://{addr}"))).await.status(), 101);
    assert_eq!(upgrade(&url, None).await.status(), 101);
    // Nor join for a visitor.
    let join = reqwest::Client::new()
        .post(format!("http://{addr}/api/arenas/{arena}/join"))
        .header("origin", "https://evil.example")
        .json(&json!({ "player": token(0), "name": "Ama" }))
        .send()
        .await
        .unwrap();
    assert_eq!(join.status(), 403);
    assert_eq!(Watcher::hello(addr, &arena, None).await.last["d"]["players"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_and_floods_on_an_arena_socket_are_closed_clearly() {
    let addr = start(test_config()).await;
    let arena = running_arena(addr).await;
    let url = format!("ws://{addr}/ws/arena/{arena}");
    let connect = || async { tokio_tungstenite::connect_async(url.as_str()).await.unwrap().0 };

    // A hello that is not one.
    let mut ws = connect().await;
    ws.send(Message::text("\u{0}not json at all")).await.unwrap();
    let (code, reason) = closed(&mut ws).await.expect("a close frame");
    assert_eq!(code, 4008, "{reason}");
    assert!(reason.contains("say hello first"), "{reason}");
    // Bytes where the hello should be are not a hello either: closed when the hello's time is up
    // or at once, never answered with standings.
    let mut ws = connect().await;
    ws.send(Message::binary(vec![0xff; 64])).await.unwrap();
    ws.send(Message::text("{\"t\":\"hello\",\"d\":{\"player\":\"short\"}}")).await.unwrap();
    let (code, reason) = closed(&mut ws).await.expect("a close frame");
    assert_eq!(code, 4008, "{reason}");
    // A message larger than the server reads: the connection is closed as too big.
    let mut ws = connect().await;
    ws.send(Message::text(json!({ "t": "hello" }).to_string())).await.unwrap();
    let big = "x".repeat(64 * 1024);
    let _ = ws.send(Message::text(big)).await;
    let close = closed(&mut ws).await;
    assert!(
        matches!(close, None | Some((1009, _))),
        "an oversized message is closed as too big, or the connection reset: {close:?}"
    );
    // A flood of messages after the hello: closed as a flood.
    let mut ws = connect().await;
    ws.send(Message::text(json!({ "t": "hello" }).to_string())).await.unwrap();
    for n in 0..200 {
        if ws.send(Message::text(format!("garbage {n}"))).await.is_err() {
            break;
        }
    }
    let close = closed(&mut ws).await;
    assert_eq!(close.map(|(code, _)| code), Some(u16::from(CloseCode::Policy)), "a flood");

    // The server is well: a join goes through and a new socket hears it.
    let (status, why) = ask(
        addr,
        &format!("/api/arenas/{arena}/join"),
        json!({ "player": token(0), "name": "Ama" }),
    )
    .await;
    assert_eq!(status, 204, "{why}");
    let mut watcher = Watcher::hello(addr, &arena, None).await;
    watcher.until(|s| s["d"]["players"] == 1).await;
}

/// Sockets that say hello and then never read a byte: the standings still reach those who
/// read, join after join (each socket reads the board the arena pins, a watch that holds only
/// the latest, and the arena never waits on a socket); and each deaf socket is let go once it
/// has been silent for the server's `silence` (it answers no ping), so none holds its buffers
/// for ever: a socket whose writes stall is let go after the same time (`Connection::flush`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sockets_that_never_read_do_not_hold_the_standings_back() {
    let config = dara_server::Config { silence: Duration::from_secs(3), ..test_config() };
    let (addr, state) = start_with_state(config).await;
    let arena = running_arena(addr).await;
    let mut deaf = Vec::new();
    for _ in 0..40 {
        let url = format!("ws://{addr}/ws/arena/{arena}");
        let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        ws.send(Message::text(json!({ "t": "hello" }).to_string())).await.unwrap();
        deaf.push(ws);
    }
    let mut reader = Watcher::hello(addr, &arena, None).await;
    for n in 0..6 {
        let joined = json!({ "player": token(n), "name": format!("Player {n}") });
        let (status, why) = ask(addr, &format!("/api/arenas/{arena}/join"), joined).await;
        assert_eq!(status, 204, "{why}");
        // Read, it answers the server's pings: it is not let go.
        reader.until(|s| s["d"]["players"] == n + 1).await;
    }
    // The deaf ones are let go, their connections still open on this side and unread.
    drop(reader);
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while state.metrics.sockets.get() > 0 {
        let held = state.metrics.sockets.get();
        assert!(tokio::time::Instant::now() < deadline, "{held} sockets still held");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    drop(deaf);
}

/// Join bodies that are not JSON, too large, of the wrong shape, or with a name of 10,000
/// characters: each refused with a 4xx code, and none joins anyone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_join_that_is_not_one_is_refused_and_changes_nothing() {
    let addr = start(test_config()).await;
    let arena = running_arena(addr).await;
    let path = format!("http://{addr}/api/arenas/{arena}/join");
    let client = reqwest::Client::new();
    let raw = |body: Vec<u8>, content_type: &'static str| {
        client.post(&path).header("content-type", content_type).body(body).send()
    };
    let refused = |status: u16, body: &str| {
        let why: Value = serde_json::from_str(body).unwrap_or(Value::Null);
        (status, why["code"].as_str().map(str::to_owned))
    };
    let answer = raw(b"not json".to_vec(), "application/json").await.unwrap();
    let (status, body) = (answer.status().as_u16(), answer.text().await.unwrap());
    assert_eq!(refused(status, &body), (400, Some("bad-request".into())), "{body}");
    // 3 MB of a name: more than any body is read.
    let huge = json!({ "player": token(0), "name": "n".repeat(3 << 20) }).to_string();
    let answer = raw(huge.into_bytes(), "application/json").await.unwrap();
    let status = answer.status().as_u16();
    assert!((400..500).contains(&status), "a body of 3 MB: {status}");
    // A form's body.
    let answer = raw(b"player=x&name=y".to_vec(), "text/plain").await.unwrap();
    assert_eq!(answer.status().as_u16(), 415);
    for (body, code) in [
        (json!({ "player": token(0), "name": "n".repeat(10_000) }), "name-too-long"),
        (json!({ "player": token(0), "name": "" }), "name-empty"),
        (json!({ "player": "short", "name": "Ama" }), "bad-request"),
        (json!({ "player": 7, "name": "Ama" }), "bad-request"),
        (json!({ "player": token(0) }), "bad-request"),
        (json!({ "player": token(0), "name": "Ama", "admin": true }), "bad-request"),
    ] {
        let answer = client.post(&path).json(&body).send().await.unwrap();
        let (status, text) = (answer.status().as_u16(), answer.text().await.unwrap());
        assert_eq!(refused(status, &text), (400, Some(code.into())), "{body}: {text}");
    }
    // Nothing changed: nobody joined, and the token joins now as if for the first time.
    let mut watcher = Watcher::hello(addr, &arena, None).await;
    assert_eq!(watcher.last["d"]["players"], 0, "{}", watcher.last);
    let (status, why) = ask(
        addr,
        &path.replace(&format!("http://{addr}"), ""),
        json!({ "player": token(0), "name": "Ama" }),
    )
    .await;
    assert_eq!(status, 204, "{why}");
    watcher.until(|s| s["d"]["players"] == 1).await;
}
