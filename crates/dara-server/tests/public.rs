//! The Arcade as a public service, attacked from outside over real sockets: no client can
//! hold the server for everyone else, no page of another site can act for a visitor, a
//! silent socket is let go, a proxy's header is believed only from the proxy.

mod common;

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use common::{create, post, post_from, start, test_config, two_players, upgrade, Client};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

fn ip(text: &str) -> IpAddr {
    text.parse().unwrap()
}

/// A TCP connection from a chosen loopback address.
async fn connect_from(addr: SocketAddr, from: &str) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(ip(from), 0))?;
    socket.connect(addr).await
}

/// Whether the server has closed `stream` (reads end or fail) within `wait`.
async fn closed_within(stream: &mut TcpStream, wait: Duration) -> bool {
    let mut buf = [0u8; 256];
    loop {
        match tokio::time::timeout(wait, stream.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => continue,
        }
    }
}

/// A GET from a chosen loopback address: its status and headers.
async fn get_from(addr: SocketAddr, path: &str, from: &str) -> reqwest::Response {
    let client = reqwest::Client::builder()
        .local_address(ip(from))
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    client.get(format!("http://{addr}{path}")).send().await.unwrap()
}

#[tokio::test]
async fn half_open_requests_cannot_hold_the_server() {
    let config = dara_server::Config {
        connections_per_address: 16,
        header_timeout: Duration::from_millis(500),
        ..test_config()
    };
    let addr = start(config).await;
    // One client starts 100 requests and never finishes their headers.
    let mut held = Vec::new();
    for _ in 0..100 {
        if let Ok(mut stream) = connect_from(addr, "127.0.0.1").await {
            let _ = stream.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").await;
            held.push(stream);
        }
    }
    // Past its share, its connections are closed at once.
    let mut refused = 0;
    for stream in &mut held[16..] {
        refused += usize::from(closed_within(stream, Duration::from_secs(2)).await);
    }
    assert_eq!(refused, held.len() - 16);
    // Everyone else is served meanwhile.
    let page = get_from(addr, "/", "127.0.0.2").await;
    assert_eq!(page.status(), 200);
    // And the ones it kept are closed when their headers are late.
    for stream in &mut held[..16] {
        assert!(closed_within(stream, Duration::from_secs(5)).await, "a slow request is let go");
    }
}

#[tokio::test]
async fn a_silent_socket_is_let_go_and_its_player_counts_as_gone() {
    let config = dara_server::Config { silence: Duration::from_millis(1500), ..test_config() };
    let addr = start(config).await;
    // Counted from before dark's last message (its hello and join, below): the server counts
    // the silence from that message, so from any later moment it may be let go sooner.
    let started = Instant::now();
    let (_, _, mut pale, mut dark) = two_players(addr).await;
    while pale.next_of("presence").await["d"]["black"]["online"] != true {}
    // Dark's page freezes: its socket stays open but reads nothing, so it answers no ping.
    let gone = loop {
        let presence = pale.next_of("presence").await;
        if presence["d"]["black"]["online"] == false {
            break started.elapsed();
        }
    };
    assert!(gone >= Duration::from_millis(1500), "not before the silence: {gone:?}");
    // The frozen player may now be claimed against, once the claim time has passed.
    tokio::time::sleep(Duration::from_millis(400)).await;
    pale.send(json!({ "t": "claim" })).await;
    assert_eq!(pale.next_of("end").await["d"]["code"], "left");
    // What the frozen socket finds when it wakes: the server has closed it (with 4008, or, if
    // the pongs it owes fail first, a connection already reset).
    let code = dark.closed().await;
    assert!(code.is_none() || code == Some(4008), "{code:?}");
}

#[tokio::test]
async fn a_page_of_another_site_may_not_act_for_a_visitor() {
    let addr = start(test_config()).await;
    let (game, _, _) = create(addr, json!({ "opponent": "friend" })).await;
    let url = format!("http://{addr}/ws/game/{game}");
    let own = format!("http://{addr}");
    let own: &'static str = Box::leak(own.into_boxed_str());
    assert_eq!(upgrade(&url, Some("https://evil.example")).await.status(), 403);
    assert_eq!(upgrade(&url, Some("null")).await.status(), 403);
    assert_eq!(upgrade(&url, Some(own)).await.status(), 101);
    // A program says no origin at all.
    assert_eq!(upgrade(&url, None).await.status(), 101);

    let client = reqwest::Client::new();
    let body = json!({ "opponent": "friend" }).to_string();
    let post = |origin: &'static str, content_type: &'static str| {
        client
            .post(format!("http://{addr}/api/games"))
            .header("origin", origin)
            .header("content-type", content_type)
            .body(body.clone())
            .send()
    };
    assert_eq!(post("https://evil.example", "application/json").await.unwrap().status(), 403);
    // A plain form can post text/plain across sites without asking: it is refused.
    assert_eq!(post(own, "text/plain").await.unwrap().status(), 415);
    let sit = client.post(format!("http://{addr}/api/tables/{game}/sit")).send().await.unwrap();
    assert_eq!(sit.status(), 415);
    assert_eq!(post(own, "application/json").await.unwrap().status(), 201);
}

#[tokio::test]
async fn one_address_may_take_only_so_many_seats() {
    let config = dara_server::Config { seats_per_address: 2, ..test_config() };
    let addr = start(config).await;
    // Three people open tables and wait at them.
    let mut waiting = Vec::new();
    for n in 1..=3 {
        let from = Some(ip(&format!("127.0.0.{}", 10 + n)));
        let (status, body) =
            post_from(addr, "/api/games", json!({ "opponent": "open", "rules": "ninja" }), from)
                .await;
        assert_eq!(status, 201, "{body}");
        let game = body["game"].as_str().unwrap().to_owned();
        let (client, _) = Client::hello(addr, &game, body["seat"].as_str(), None).await;
        waiting.push((game, client));
    }
    // One address sits down at all of them: the third is refused.
    let sitter = Some(ip("127.0.0.20"));
    let mut statuses = Vec::new();
    for (game, _) in &waiting {
        let (status, _) =
            post_from(addr, &format!("/api/tables/{game}/sit"), json!({}), sitter).await;
        statuses.push(status);
    }
    assert_eq!(statuses, [200, 200, 429]);
}

#[tokio::test]
async fn a_forwarded_address_is_believed_only_from_a_trusted_proxy() {
    let config = dara_server::Config {
        games_per_address: 2,
        trusted_proxies: "127.0.0.2".parse().unwrap(),
        ..test_config()
    };
    let addr = start(config).await;
    let create_as = |from: &'static str, forwarded: &'static str| {
        let client = reqwest::Client::builder().local_address(ip(from)).build().unwrap();
        client
            .post(format!("http://{addr}/api/games"))
            .header("x-forwarded-for", forwarded)
            .json(&json!({ "opponent": "friend" }))
            .send()
    };
    // From anyone else, the header changes nothing: all three count against 127.0.0.3.
    let mut statuses = Vec::new();
    for spoof in ["198.51.100.1", "198.51.100.2", "198.51.100.3"] {
        statuses.push(create_as("127.0.0.3", spoof).await.unwrap().status().as_u16());
    }
    assert_eq!(statuses, [201, 201, 429]);
    // From the proxy, each forwarded client has its own share.
    let mut statuses = Vec::new();
    for client in ["198.51.100.1", "198.51.100.2", "198.51.100.1", "198.51.100.1"] {
        statuses.push(create_as("127.0.0.2", client).await.unwrap().status().as_u16());
    }
    assert_eq!(statuses, [201, 201, 201, 429]);
}

#[tokio::test]
async fn a_game_nobody_joins_is_closed() {
    let config =
        dara_server::Config { unjoined_timeout: Duration::from_millis(300), ..test_config() };
    let addr = start(config).await;
    let (game, seat, _) = create(addr, json!({ "opponent": "friend" })).await;
    let (mut waiting, _) = Client::hello(addr, &game, Some(&seat), None).await;
    assert_eq!(waiting.closed().await, Some(4004));
    assert_eq!(get_from(addr, &format!("/g/{game}"), "127.0.0.1").await.status(), 404);
}

#[tokio::test]
async fn finished_games_make_room_for_new_ones() {
    let config = dara_server::Config { max_games: 3, ..test_config() };
    let addr = start(config).await;
    let friend = json!({ "opponent": "friend", "first": "me" });
    let mut games = Vec::new();
    for _ in 0..3 {
        games.push(create(addr, friend.clone()).await);
    }
    // Full of games in play: refused, with when to come back.
    let from = Some(ip("127.0.0.2"));
    let client = reqwest::Client::builder().local_address(from).build().unwrap();
    let full = client.post(format!("http://{addr}/api/games")).json(&friend).send().await.unwrap();
    assert_eq!(full.status(), 503);
    assert_eq!(full.headers()["retry-after"], "60");
    let body: Value = full.json().await.unwrap();
    assert!(body["error"].as_str().unwrap().contains("try again in a minute"), "{body}");
    // One ends: the next new game takes its place.
    let (game, seat, _) = &games[1];
    let (mut pale, _) = Client::hello(addr, game, Some(seat), None).await;
    pale.send(json!({ "t": "resign" })).await;
    pale.next_of("end").await;
    let (status, body) = post_from(addr, "/api/games", friend.clone(), from).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(pale.closed().await, Some(4004));
    let (status, _) = post(addr, "/api/games", friend).await;
    assert_eq!(status, 503);
}

#[tokio::test]
async fn every_answer_says_what_it_is_and_what_it_may_load() {
    let addr = start(test_config()).await;
    for path in ["/", "/assets/game.js", "/api/tables", "/no/such/page", "/g/0123456789abcdef"] {
        let response = get_from(addr, path, "127.0.0.1").await;
        let headers = response.headers();
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["referrer-policy"], "no-referrer", "{path}");
        assert!(headers.contains_key("content-security-policy"), "{path}");
    }
}

#[tokio::test]
async fn an_operator_sees_health_and_measures() {
    let addr = start(test_config()).await;
    let health = get_from(addr, "/healthz", "127.0.0.1").await;
    assert_eq!(health.status(), 200);
    let (_, seat, mut pale, _dark) = two_players(addr).await;
    assert_eq!(pale.turn(1, "c3").await["t"], "accepted");
    let metrics = get_from(addr, "/metrics", "127.0.0.1").await.text().await.unwrap();
    for line in
        ["dara_games 1", "dara_sockets 2", "dara_turns_total 1", "dara_turn_seconds_count 1"]
    {
        assert!(metrics.lines().any(|l| l == line), "{line} in\n{metrics}");
    }
    assert!(metrics.contains("dara_engine_queue"));
    // Nothing in it names a client or a seat.
    assert!(!metrics.contains("127.0.0.1") && !metrics.contains(&seat));
}

/// `/metrics` is the operator's: through a proxy (a forwarded request) nobody sees it without
/// the token; with a token set, only its holder does.
#[tokio::test]
async fn the_measures_are_the_operators_only() {
    let get = |addr: SocketAddr, headers: &[(&'static str, &str)]| {
        let mut request = reqwest::Client::new().get(format!("http://{addr}/metrics"));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        async move { request.send().await.unwrap().status().as_u16() }
    };
    let addr = start(test_config()).await;
    assert_eq!(get(addr, &[]).await, 200, "asked on this machine, directly");
    assert_eq!(get(addr, &[("x-forwarded-for", "203.0.113.9")]).await, 404, "through a proxy");
    assert_eq!(get(addr, &[("forwarded", "for=203.0.113.9")]).await, 404);

    let config = dara_server::Config { metrics_token: Some("s3cret".into()), ..test_config() };
    let addr = start(config).await;
    assert_eq!(get(addr, &[]).await, 404, "a token set is asked of everyone");
    assert_eq!(get(addr, &[("authorization", "Bearer wrong")]).await, 404);
    let bearer = [("authorization", "Bearer s3cret"), ("x-forwarded-for", "203.0.113.9")];
    assert_eq!(get(addr, &bearer).await, 200, "the token's holder, from anywhere");
}

/// Pages and assets go out compressed as the browser takes them (brotli, else gzip, else as
/// written), each form with its own ETag; a browser that holds the same copy is answered
/// `304` with no body. The compressed bytes are the page's bytes.
#[tokio::test]
async fn pages_and_assets_are_sent_compressed_and_a_copy_held_is_not_sent_again() {
    use std::io::Read;

    let addr = start(test_config()).await;
    let client = reqwest::Client::new();
    // The assets by the hashed names the pages give them, and one by its plain name.
    let hashed = |name| format!("/assets/{}", dara_server::pages::asset_url(name).unwrap());
    for path in [
        "/".to_owned(),
        "/rules".to_owned(),
        hashed("style.css"),
        hashed("game.js"),
        hashed("engine.wasm"),
        hashed("table.wasm"),
        "/assets/game.js".to_owned(),
    ] {
        let get = |encoding: &'static str| {
            let request = client.get(format!("http://{addr}{path}"));
            async move { request.header("accept-encoding", encoding).send().await.unwrap() }
        };
        let plain = get("identity").await;
        assert_eq!(plain.status(), 200, "{path}");
        assert!(plain.headers().get("content-encoding").is_none(), "{path}");
        // A page also comes in its reader's language (the `lang` cookie, `Accept-Language`).
        let vary = if path.starts_with("/assets/") {
            "Accept-Encoding"
        } else {
            "Accept-Encoding, Cookie, Accept-Language"
        };
        assert_eq!(plain.headers()["vary"], vary, "{path}");
        let plain_tag = plain.headers()["etag"].to_str().unwrap().to_owned();
        let plain = plain.bytes().await.unwrap();

        let brotli = get("gzip, deflate, br").await;
        assert_eq!(brotli.headers()["content-encoding"], "br", "{path}");
        let brotli_tag = brotli.headers()["etag"].to_str().unwrap().to_owned();
        let packed = brotli.bytes().await.unwrap();
        assert!(packed.len() < plain.len(), "{path}: {} of {}", packed.len(), plain.len());
        let mut unpacked = Vec::new();
        brotli::Decompressor::new(&packed[..], 4096).read_to_end(&mut unpacked).unwrap();
        assert_eq!(unpacked, plain, "{path}");

        let gzip = get("gzip").await;
        assert_eq!(gzip.headers()["content-encoding"], "gzip", "{path}");
        let packed = gzip.bytes().await.unwrap();
        let mut unpacked = Vec::new();
        flate2::read::GzDecoder::new(&packed[..]).read_to_end(&mut unpacked).unwrap();
        assert_eq!(unpacked, plain, "{path}");

        // Each form its own tag; the one held is not sent again, another one is.
        assert_ne!(plain_tag, brotli_tag);
        let again = client
            .get(format!("http://{addr}{path}"))
            .header("accept-encoding", "br")
            .header("if-none-match", &brotli_tag)
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), 304, "{path}");
        assert_eq!(again.headers()["etag"], brotli_tag.as_str());
        assert!(again.bytes().await.unwrap().is_empty());
        let other = client
            .get(format!("http://{addr}{path}"))
            .header("accept-encoding", "br")
            .header("if-none-match", &plain_tag)
            .send()
            .await
            .unwrap();
        assert_eq!(other.status(), 200, "{path}");
    }
}
