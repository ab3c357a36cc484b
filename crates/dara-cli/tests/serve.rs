//! `dara serve` as a real process, attacked as an operator would see it: out of file
//! descriptors, flooded with connections at once, logging at its most verbose.

mod stopping;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A server process and everything it prints, read on a thread of its own.
struct Server {
    child: Child,
    addr: SocketAddr,
    printed: mpsc::Receiver<String>,
    /// What it printed before it said where it serves.
    start: Vec<String>,
}

impl Server {
    /// Starts `dara serve` on a free loopback port through `sh`, so that the test can set
    /// limits first (`prelude`, e.g. `ulimit -n 160`).
    fn start(prelude: &str, args: &str, env: &[(&str, &str)]) -> Server {
        let dara = env!("CARGO_BIN_EXE_dara");
        // Each test's server keeps nothing on disk, so that they may run side by side.
        let keep = if args.contains("--data-dir") { "" } else { "--memory-only" };
        let script = format!("{prelude} exec {dara} serve --listen 127.0.0.1:0 {keep} {args} 2>&1");
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(script)
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stdin(Stdio::null())
            .spawn()
            .unwrap();
        let (tx, printed) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut start = Vec::new();
        let addr = loop {
            let line = printed.recv_timeout(Duration::from_secs(30)).expect("the server starts");
            if let Some(rest) = line.split("served at http://").nth(1) {
                break rest.split('/').next().unwrap().parse().unwrap();
            }
            start.push(line);
        };
        Server { child, addr, printed, start }
    }

    /// Everything printed so far.
    fn output(&self) -> String {
        let mut lines = self.start.clone();
        lines.extend(self.printed.try_iter());
        lines.join("\n")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A TCP connection to `to` from the loopback address `from`.
fn connect_from(from: &str, to: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None)?;
    let from: SocketAddr = format!("{from}:0").parse().unwrap();
    socket.bind(&from.into())?;
    socket.connect_timeout(&to.into(), Duration::from_secs(5))?;
    Ok(socket.into())
}

/// A whole HTTP request; the status line of its answer.
fn request(from: &str, to: SocketAddr, text: &str, wait: Duration) -> std::io::Result<String> {
    let mut stream = connect_from(from, to)?;
    stream.set_read_timeout(Some(wait))?;
    stream.write_all(text.as_bytes())?;
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                answer.extend_from_slice(&buf[..n]);
                if answer.windows(4).any(|w| w == b"\r\n\r\n") {
                    break;
                }
            }
            Err(e) => return Err(e),
        }
    }
    let answer = String::from_utf8_lossy(&answer).into_owned();
    Ok(answer.lines().next().unwrap_or_default().to_owned())
}

/// `POST /api/games` with the JSON `body` from address `from`, with `headers` (each line ending
/// in CRLF) besides the usual: the whole answer.
fn post_games(from: &str, to: SocketAddr, headers: &str, body: &str) -> String {
    let post = format!(
        "POST /api/games HTTP/1.1\r\nHost: dara\r\nContent-Type: application/json\r\n{headers}\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = connect_from(from, to).unwrap();
    stream.write_all(post.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

/// Creates a game from `from` with the JSON `body`: its id and the creator's seat token.
fn create_game(from: &str, to: SocketAddr, body: &str) -> (String, String) {
    let answer = post_games(from, to, "", body);
    let field = |name: &str| {
        let start = format!("\"{name}\":\"");
        answer.split(&start).nth(1).unwrap().split('"').next().unwrap().to_owned()
    };
    (field("game"), field("seat"))
}

#[test]
fn out_of_file_descriptors_it_recovers_when_slow_requests_time_out() {
    // 160 files, and 250 connections that never finish their headers, from five addresses
    // (each under its own share): the process runs out of descriptors.
    let server = Server::start("ulimit -n 160 &&", "--header-timeout 1", &[]);
    let mut held = Vec::new();
    for n in 0..250 {
        let from = format!("127.0.0.{}", 10 + n % 5);
        if let Ok(mut stream) = connect_from(&from, server.addr) {
            let _ = stream.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n");
            held.push(stream);
        }
    }
    // Someone else still gets the page, once the slow requests have been let go.
    let started = Instant::now();
    let page = "GET /rules HTTP/1.1\r\nHost: dara\r\nConnection: close\r\n\r\n";
    let status = request("127.0.0.99", server.addr, page, Duration::from_secs(20)).unwrap();
    assert_eq!(status, "HTTP/1.1 200 OK", "after {:?}", started.elapsed());
    let out = server.output();
    assert!(out.contains("open files") && out.contains("soft=160"), "{out}");
}

#[test]
fn five_hundred_connections_at_once_are_all_taken() {
    let server = Server::start("", "--connections-per-address 1000", &[]);
    // All at once: each waits at a barrier, then connects. A listen backlog too small for them
    // drops handshakes, which the client retries only after a second.
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(500));
    let addr = server.addr;
    let threads: Vec<_> = (0..500)
        .map(|_| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                barrier.wait();
                let started = Instant::now();
                let stream = connect_from("127.0.0.1", addr);
                (stream.is_ok(), started.elapsed())
            })
        })
        .collect();
    let results: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    assert!(results.iter().all(|(ok, _)| *ok));
    let retried = results.iter().filter(|(_, took)| *took >= Duration::from_millis(900)).count();
    assert_eq!(retried, 0, "handshakes dropped and retried");
}

#[test]
fn no_seat_token_and_no_client_address_in_the_log_even_at_trace() {
    let server = Server::start("", "--instant-computer", &[("RUST_LOG", "trace")]);
    let body = r#"{"opponent":"computer","level":1,"first":"me"}"#;
    let (game, token) = create_game("127.0.0.7", server.addr, body);
    assert_eq!(token.len(), 32);

    // Play a turn over the game's socket, the token in the hello.
    let tcp = connect_from("127.0.0.7", server.addr).unwrap();
    let url = format!("ws://{}/ws/game/{game}", server.addr);
    let (mut ws, _) = tungstenite::client(url, tcp).unwrap();
    let hello = format!(r#"{{"t":"hello","d":{{"protocol":1,"seat":"{token}"}}}}"#);
    ws.send(tungstenite::Message::text(hello)).unwrap();
    ws.send(tungstenite::Message::text(r#"{"t":"move","d":{"id":1,"m":"c3"}}"#)).unwrap();
    loop {
        let msg = ws.read().unwrap();
        if msg.to_text().unwrap_or_default().contains("\"accepted\"") {
            break;
        }
    }
    drop(ws);
    std::thread::sleep(Duration::from_millis(300));
    let log = server.output();
    assert!(log.contains("DEBUG") && log.contains("hello"), "the log is verbose: {log}");
    assert!(!log.contains(&token), "a seat token in the log");
    assert!(!log.contains("127.0.0.7"), "a client address in the log");
}

#[test]
fn sigterm_closes_every_socket_with_1012_and_exits_despite_a_half_open_request() {
    let mut server = Server::start("", "", &[]);
    let (game, _) = create_game("127.0.0.1", server.addr, r#"{"opponent":"friend","first":"me"}"#);
    let url = format!("ws://{}/ws/game/{game}", server.addr);
    let mut sockets: Vec<_> = (0..3)
        .map(|_| {
            let tcp = connect_from("127.0.0.1", server.addr).unwrap();
            let (mut ws, _) = tungstenite::client(url.clone(), tcp).unwrap();
            ws.send(tungstenite::Message::text(r#"{"t":"hello","d":{"protocol":1}}"#)).unwrap();
            ws.read().unwrap();
            ws
        })
        .collect();
    let mut half_open = connect_from("127.0.0.1", server.addr).unwrap();
    half_open.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();

    stopping::terminate_with_1012(&mut server.child, &mut sockets);
}

#[test]
fn half_open_requests_from_many_addresses_do_not_lock_a_fresh_client_out() {
    // The unfinished requests held in all stay within a quarter of the open files.
    half_open_requests_leave_room_for_a_fresh_client("", 16);
    // With that bound lifted, the process runs out of descriptors: the oldest unfinished
    // request is let go for the new client.
    half_open_requests_leave_room_for_a_fresh_client(
        "--max-unfinished 100000 --unfinished-per-address 64",
        50,
    );
}

/// 128 files, and 1,150 connections that never finish their request line, from 21 addresses
/// (each under its share of open connections), against `dara serve` given `args`. The header
/// timeout is ten minutes, so that nothing lets them go while the test runs: a fresh client
/// is served while they are held, and the server still holds at least `kept` of them.
fn half_open_requests_leave_room_for_a_fresh_client(args: &str, kept: usize) {
    let args = format!("--header-timeout 600 {args}");
    let server = Server::start("ulimit -n 128 &&", &args, &[]);
    let mut held = Vec::new();
    for n in 0..1150 {
        let from = format!("127.0.0.{}", 10 + n % 21);
        if let Ok(mut stream) = connect_from(&from, server.addr) {
            let _ = stream.write_all(b"GET / HT");
            held.push(stream);
        }
    }
    let page = "GET /rules HTTP/1.1\r\nHost: dara\r\nConnection: close\r\n\r\n";
    let status = request("127.0.0.99", server.addr, page, Duration::from_secs(30));
    assert_eq!(status.ok().as_deref(), Some("HTTP/1.1 200 OK"), "{args}: {}", server.output());
    // It let the oldest go, not every one.
    let mut still_open = 0;
    for stream in &mut held {
        stream.set_nonblocking(true).unwrap();
        let mut byte = [0u8; 1];
        let waits = stream.read(&mut byte);
        still_open +=
            usize::from(matches!(waits, Err(e) if e.kind() == std::io::ErrorKind::WouldBlock));
    }
    assert!(still_open >= kept, "{args}: {still_open} of {} held open by the server", held.len());
}

/// Asks for a game by link from the loopback address `from`, with `forwarded` as its
/// `X-Forwarded-For` (none when `None`): the status line and the body.
fn create_forwarded(from: &str, to: SocketAddr, forwarded: Option<&str>) -> (String, String) {
    let body = r#"{"opponent":"friend","first":"me"}"#;
    let header = forwarded.map_or(String::new(), |f| format!("X-Forwarded-For: {f}\r\n"));
    let answer = post_games(from, to, &header, body);
    let status = answer.lines().next().unwrap_or_default().to_owned();
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default().to_owned();
    (status, body)
}

#[test]
fn junk_forwarded_for_from_a_trusted_proxy_is_refused_not_counted_against_the_proxy() {
    let server = Server::start("", "--trusted-proxy 127.0.0.1/32 --games-per-address 2", &[]);
    let ask = |forwarded| create_forwarded("127.0.0.1", server.addr, forwarded);
    // What the proxy forwards but nobody can read: refused, saying why, and counted against
    // nobody (were it the proxy's own address, the third would find its two games taken).
    for junk in
        ["garbage", "", " , ", "unknown", "300.1.2.3", "203.0.113.9, nonsense", "10.0.0.1 x"]
    {
        let (status, body) = ask(Some(junk));
        assert_eq!(status, "HTTP/1.1 400 Bad Request", "X-Forwarded-For: {junk:?}: {body}");
        assert!(body.contains("X-Forwarded-For"), "{body}");
    }
    // The proxy's own requests (no header: nothing forwarded) still have the proxy's share.
    for _ in 0..2 {
        assert_eq!(ask(None).0, "HTTP/1.1 201 Created");
    }
    assert_eq!(ask(None).0, "HTTP/1.1 429 Too Many Requests");
    // Each forwarded client has its own share, however the proxy writes its address: junk
    // the client wrote itself, left of what the proxy appended, changes nothing.
    for client in ["203.0.113.9", "junk, 203.0.113.9:4711"] {
        assert_eq!(ask(Some(client)).0, "HTTP/1.1 201 Created", "{client}");
    }
    assert_eq!(ask(Some("203.0.113.9")).0, "HTTP/1.1 429 Too Many Requests", "one client");
    for client in ["[2001:db8::1]:443", "2001:db8::2"] {
        assert_eq!(ask(Some(client)).0, "HTTP/1.1 201 Created", "{client}");
    }
    assert_eq!(ask(Some("[2001:db8::3]")).0, "HTTP/1.1 429 Too Many Requests", "one /64");
}
