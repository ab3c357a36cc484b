//! The lobby over real sockets: open tables listed live, "play anyone" pairing, and "Sit down".
//! Whoever is handed a table holds its seat at once, so a person following an older listing
//! can never take it from them in between.

mod common;

use std::net::SocketAddr;

use common::{create, post, start, start_with_state, test_config, Client};
use dara_server::seat::GameId;
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Lobby = WebSocketStream<MaybeTlsStream<TcpStream>>;

async fn lobby(addr: SocketAddr) -> Lobby {
    tokio_tungstenite::connect_async(format!("ws://{addr}/ws/lobby")).await.unwrap().0
}

/// The lobby's next message.
async fn message(lobby: &mut Lobby) -> Value {
    loop {
        let next = tokio::time::timeout(std::time::Duration::from_secs(10), lobby.next()).await;
        if let Some(Ok(Message::Text(t))) = next.expect("a message in time") {
            let msg = serde_json::from_str::<Value>(t.as_str()).unwrap();
            assert_eq!(msg["t"], "lobby", "{msg}");
            return msg["d"].clone();
        }
    }
}

/// The next list of tables.
async fn listing(lobby: &mut Lobby) -> Value {
    message(lobby).await["tables"].clone()
}

/// Reads the lobby until its tables are `count`: the socket sends the lobby as it stands at
/// most once a second, and a count that changed sends it too.
async fn until_listed(lobby: &mut Lobby, count: usize) -> Value {
    loop {
        let listed = listing(lobby).await;
        if listed.as_array().unwrap().len() == count {
            return listed;
        }
    }
}

/// Reads the lobby until `done` holds of it.
async fn until(lobby: &mut Lobby, done: impl Fn(&Value) -> bool) -> Value {
    loop {
        let lobby = message(lobby).await;
        if done(&lobby) {
            return lobby;
        }
    }
}

fn other(colour: &Value) -> &'static str {
    if colour == "white" {
        "black"
    } else {
        "white"
    }
}

/// A "play anyone" answer: a seat, always.
fn seated(answer: &Value) -> (String, String, String) {
    let text = |k: &str| answer[k].as_str().unwrap_or_else(|| panic!("{k} in {answer}")).to_owned();
    (text("game"), text("seat"), text("colour"))
}

#[tokio::test]
async fn open_tables_are_listed_live_and_play_anyone_pairs() {
    let addr = start(test_config()).await;
    let mut lobby = lobby(addr).await;
    assert_eq!(listing(&mut lobby).await, json!([]));
    let clock = json!({ "initial": 300, "increment": 3 });
    let (status, first) =
        post(addr, "/api/seek", json!({ "rules": "jaques", "clock": clock })).await;
    assert_eq!(status, 200);
    let (table, seat, colour) = seated(&first);
    // Listed once the person waiting is at the table.
    let (mut waiting, _) = Client::hello(addr, &table, Some(&seat), None).await;
    let listed = until_listed(&mut lobby, 1).await;
    assert_eq!(listed[0]["rules"], "jaques");
    assert_eq!(listed[0]["clock"], clock);
    assert_eq!(listed[0]["seat"], other(&json!(colour)));
    // Another ruleset does not pair with it.
    let (_, another) = post(addr, "/api/seek", json!({ "rules": "ninja", "clock": clock })).await;
    let (other_table, other_seat, _) = seated(&another);
    assert_ne!(other_table, table);
    let (other_waiting, _) = Client::hello(addr, &other_table, Some(&other_seat), None).await;
    until_listed(&mut lobby, 2).await;
    // The same rules and clock do: the seeker holds the other seat, and the table leaves the
    // list.
    let (_, second) = post(addr, "/api/seek", json!({ "rules": "jaques", "clock": clock })).await;
    let (paired, paired_seat, paired_colour) = seated(&second);
    assert_eq!(paired, table);
    assert_eq!(paired_colour, other(&json!(colour)));
    until_listed(&mut lobby, 1).await;
    assert_eq!(waiting.next_of("seated").await["d"]["colour"], paired_colour);
    let (mut sitter, snapshot) = Client::hello(addr, &table, Some(&paired_seat), None).await;
    assert_eq!(snapshot["d"]["you"], paired_colour);
    sitter.send(json!({ "t": "ping", "d": { "lag": 20 } })).await;
    assert_eq!(sitter.next_of("pong").await["t"], "pong");
    // A table whose waiting player leaves comes off the list.
    drop(other_waiting);
    until_listed(&mut lobby, 0).await;
}

#[tokio::test]
async fn play_anyone_never_pairs_a_browser_with_a_table_it_opened() {
    let (addr, state) = start_with_state(test_config()).await;
    let mut lobby = lobby(addr).await;
    assert_eq!(listing(&mut lobby).await, json!([]));
    let mine = json!({ "rules": "jaques", "browser": "tab-shared-0123456789" });
    let (_, first) = post(addr, "/api/seek", mine.clone()).await;
    let (table, seat, _) = seated(&first);
    let (_waiting, _) = Client::hello(addr, &table, Some(&seat), None).await;
    let listed = until_listed(&mut lobby, 1).await;
    assert_eq!(listed[0]["game"], json!(table));
    // The id is compared, never shown.
    assert!(!listed.to_string().contains("tab-shared"), "{listed}");

    // A second tab of the same browser is not seated opposite itself: it gets a table of its
    // own (listed at once, behind the first), and the first stays listed for someone else.
    let (status, again) = post(addr, "/api/seek", mine).await;
    assert_eq!(status, 200, "{again}");
    let (own, _, _) = seated(&again);
    assert_ne!(own, table);
    let games = || state.lobby.tables().into_iter().map(|t| t.game.to_string()).collect::<Vec<_>>();
    assert_eq!(games(), vec![table.clone(), own]);

    // Another browser is seated at the one that has waited longest.
    let (_, other) =
        post(addr, "/api/seek", json!({ "rules": "jaques", "browser": "another-browser-42" }))
            .await;
    assert_eq!(seated(&other).0, table);

    // An id the lobby cannot take is refused, saying what is wrong.
    let (status, bad) = post(addr, "/api/seek", json!({ "browser": "tiny" })).await;
    assert_eq!(status, 400);
    assert!(bad["error"].as_str().unwrap().contains("a browser id is 16 to 64"), "{bad}");
}

#[tokio::test]
async fn play_anyone_holds_its_seat_before_a_stale_sit_down_can_take_it() {
    let addr = start(test_config()).await;
    let (_, first) = post(addr, "/api/seek", json!({ "rules": "jaques" })).await;
    let (table, seat, colour) = seated(&first);
    let (mut waiting, _) = Client::hello(addr, &table, Some(&seat), None).await;
    // A third person opened the table from a listing a moment old, and has not sat yet.
    let (mut late, snapshot) = Client::hello(addr, &table, None, None).await;
    assert_eq!(snapshot["d"]["seats"][other(&json!(colour))]["kind"], "open");

    // The seeker is handed the table and holds its seat in the same moment...
    let (_, second) = post(addr, "/api/seek", json!({ "rules": "jaques" })).await;
    let (paired, paired_seat, paired_colour) = seated(&second);
    assert_eq!(paired, table);
    assert_eq!(waiting.next_of("seated").await["d"]["colour"], paired_colour);
    // ...so the late one is told plainly, whether asking from the page or from the lobby.
    late.send(json!({ "t": "join" })).await;
    assert_eq!(
        late.next_of("error").await["d"]["reason"],
        "someone else sat down at this table first; you are watching"
    );
    let (status, body) = post(addr, &format!("/api/tables/{table}/sit"), json!({})).await;
    assert_eq!(status, 409);
    assert_eq!(
        body["error"],
        "someone else sat down at that table first: choose another, or press Play anyone"
    );
    // And the seeker plays.
    let (mut seeker, snapshot) = Client::hello(addr, &table, Some(&paired_seat), None).await;
    assert_eq!(snapshot["d"]["you"], paired_colour);
    let pale = if colour == "white" { &mut waiting } else { &mut seeker };
    assert_eq!(pale.turn(1, "c3").await["t"], "accepted");
}

#[tokio::test]
async fn play_anyone_moves_on_when_its_table_was_taken_first() {
    let (addr, state) = start_with_state(test_config()).await;
    let (_, first) = post(addr, "/api/seek", json!({ "rules": "jaques" })).await;
    let (table, seat, _) = seated(&first);
    let (_waiting, _) = Client::hello(addr, &table, Some(&seat), None).await;
    let listed = state.lobby.tables().pop().expect("the table is listed");
    // Someone takes the seat from the table's page; the listing still offers it, as it did a
    // moment before they sat down.
    let (mut sitter, _) = Client::hello(addr, &table, None, None).await;
    sitter.send(json!({ "t": "join" })).await;
    sitter.next_of("joined").await;
    state.lobby.open(GameId::parse(&table).unwrap(), listed);

    // The seeker is handed that table, finds it taken, and gets a table of their own.
    let (status, answer) = post(addr, "/api/seek", json!({ "rules": "jaques" })).await;
    assert_eq!(status, 200);
    let (own, own_seat, own_colour) = seated(&answer);
    assert_ne!(own, table);
    let (_seeker, snapshot) = Client::hello(addr, &own, Some(&own_seat), None).await;
    assert_eq!(snapshot["d"]["you"], own_colour);
    assert_eq!(snapshot["d"]["seats"][other(&json!(own_colour))]["kind"], "open");
    let listed: Vec<String> =
        state.lobby.tables().into_iter().map(|t| t.game.to_string()).collect();
    assert_eq!(listed, [own]);
}

#[tokio::test]
async fn sit_down_at_a_table_that_is_not_open_says_why() {
    let addr = start(test_config()).await;
    let closed = "that table has closed: the person waiting there has left";
    let sit = |game: String| async move {
        let (status, body) = post(addr, &format!("/api/tables/{game}/sit"), json!({})).await;
        (status, body["error"].as_str().unwrap_or_default().to_owned())
    };
    assert_eq!(sit("0123456789abcdef".into()).await, (404, closed.to_owned()));
    assert_eq!(sit("nonsense".into()).await, (404, closed.to_owned()));
    // A game by link is not a table.
    let (friend_game, _, _) = create(addr, json!({ "opponent": "friend" })).await;
    assert_eq!(sit(friend_game).await, (404, closed.to_owned()));
    // Nobody sits opposite an empty chair: the person who opened the table has not arrived.
    let (table, seat, colour) = create(addr, json!({ "opponent": "open", "rules": "ninja" })).await;
    assert_eq!(sit(table.clone()).await, (404, closed.to_owned()));
    // Once they are there, "Sit down" gives the seat.
    let (_waiting, _) = Client::hello(addr, &table, Some(&seat), None).await;
    let (status, body) = post(addr, &format!("/api/tables/{table}/sit"), json!({})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["colour"], other(&json!(colour)));
    assert_eq!(body["url"], format!("/g/{table}#seat={}", body["seat"].as_str().unwrap()));
}

/// "Play anyone" takes whoever waits with the same rules, whatever their clock, the longest
/// waiting first, and plays on that table's clock; with nobody waiting it opens a table with the
/// seeker's own clock. Other rules never pair.
#[tokio::test]
async fn play_anyone_pairs_the_longest_waiting_whatever_the_clock() {
    let addr = start(test_config()).await;
    let mut lobby = lobby(addr).await;
    assert_eq!(listing(&mut lobby).await, json!([]));
    let blitz = json!({ "initial": 180, "increment": 2 });
    let mut waiting = Vec::new();
    for (rules, clock) in
        [("jaques", blitz.clone()), ("ninja", blitz.clone()), ("jaques", json!(null))]
    {
        // "Open a table": these would pair with one another if they sought.
        let (table, seat, _) =
            create(addr, json!({ "opponent": "open", "rules": rules, "clock": clock })).await;
        waiting.push((table.clone(), Client::hello(addr, &table, Some(&seat), None).await.0));
        until_listed(&mut lobby, waiting.len()).await;
        // Listed a few milliseconds apart, so that which waited longest is plain.
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }

    let rapid = json!({ "initial": 600, "increment": 0 });
    let (_, first) = post(addr, "/api/seek", json!({ "rules": "jaques", "clock": rapid })).await;
    let (game, seat, _) = seated(&first);
    assert_eq!(game, waiting[0].0, "the longest waiting with the same rules");
    let (_, snapshot) = Client::hello(addr, &game, Some(&seat), None).await;
    assert_eq!(snapshot["d"]["clock"]["white"], 180_000, "the table's clock: {snapshot}");

    let (_, second) = post(addr, "/api/seek", json!({ "rules": "jaques", "clock": rapid })).await;
    assert_eq!(seated(&second).0, waiting[2].0, "untimed, the next with the same rules");

    // Nobody else waits with these rules: a table of the seeker's own, on its own clock.
    let (_, third) = post(addr, "/api/seek", json!({ "rules": "jaques", "clock": rapid })).await;
    let (own, own_seat, _) = seated(&third);
    assert!(waiting.iter().all(|(table, _)| *table != own));
    let (_, snapshot) = Client::hello(addr, &own, Some(&own_seat), None).await;
    assert_eq!(snapshot["d"]["clock"]["white"], 600_000, "{snapshot}");
    let listed = listing(&mut lobby).await;
    assert!(listed.to_string().contains("ninja"), "the other rules still wait: {listed}");
}

/// The lobby says who is here: the people on the site's pages, the games being played, each
/// pool's tables waiting and games playing, and since when each table waits (on the server's
/// clock, which it sends with them).
#[tokio::test]
async fn the_lobby_counts_who_is_here_and_what_waits_and_plays_in_each_pool() {
    let addr = start(test_config()).await;
    let mut lobby = lobby(addr).await;
    let first = message(&mut lobby).await;
    let pools: Vec<String> = first["pools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| format!("{} {}+{}", p["rules"], p["clock"]["initial"], p["clock"]["increment"]))
        .collect();
    assert_eq!(pools, [r#""arcade" 180+2"#, r#""arcade" 300+3"#, r#""arcade" 600+5"#]);

    // Someone waits in the 3+2 pool.
    let blitz = json!({ "initial": 180, "increment": 2 });
    let (_, seek) = post(addr, "/api/seek", json!({ "rules": "arcade", "clock": blitz })).await;
    let (table, seat, _) = seated(&seek);
    let (_waiting, _) = Client::hello(addr, &table, Some(&seat), None).await;
    let waited = until(&mut lobby, |l| l["pools"][0]["waiting"] == 1 && l["here"] == 2).await;
    assert_eq!(waited["tables"][0]["game"], json!(table));
    let since = waited["tables"][0]["since"].as_u64().unwrap();
    let now = waited["now"].as_u64().unwrap();
    assert!(since <= now && now - since < 60_000, "waited since {since}, now {now}");
    assert_eq!(waited["playing"], 0);

    // Someone seeking the 5+3 pool with the same rules sits there: the 3+2 pool now plays one
    // game and waits for nobody.
    let rapid = json!({ "initial": 300, "increment": 3 });
    let (_, paired) = post(addr, "/api/seek", json!({ "rules": "arcade", "clock": rapid })).await;
    let (game, paired_seat, _) = seated(&paired);
    assert_eq!(game, table);
    let (_sitter, _) = Client::hello(addr, &game, Some(&paired_seat), None).await;
    let playing = until(&mut lobby, |l| l["playing"] == 1 && l["here"] == 3).await;
    assert_eq!(playing["pools"][0]["waiting"], 0, "{playing}");
    assert_eq!(playing["pools"][0]["playing"], 1, "{playing}");
    assert_eq!(playing["pools"][1]["playing"], 0, "{playing}");
    assert_eq!(playing["tables"], json!([]));
}

/// Two people who ask to play anyone with the same rules at the same instant are seated at one
/// table: the pool pairs one seeker at a time, and the first one's table is listed before the
/// second is paired, so the second sits there before the first one's page has even connected.
/// They play a normal game.
#[tokio::test]
async fn two_seekers_at_the_same_instant_are_paired_with_each_other() {
    let (addr, state) = start_with_state(test_config()).await;
    let seek = |browser: &str| json!({ "rules": "jaques", "browser": browser });
    let ((_, one), (_, two)) = tokio::join!(
        post(addr, "/api/seek", seek("first-seeker-0000001")),
        post(addr, "/api/seek", seek("second-seeker-000002")),
    );
    let (table, one_seat, one_colour) = seated(&one);
    let (other_table, two_seat, two_colour) = seated(&two);
    assert_eq!(table, other_table, "each opened a table: {one} {two}");
    assert_ne!(one_colour, two_colour);
    assert!(state.lobby.tables().is_empty(), "the table is still listed");
    let (mut first, snapshot) = Client::hello(addr, &table, Some(&one_seat), None).await;
    assert_eq!(snapshot["d"]["you"], json!(one_colour));
    let (mut second, snapshot) = Client::hello(addr, &table, Some(&two_seat), None).await;
    assert_eq!(snapshot["d"]["you"], json!(two_colour));
    let pale = if one_colour == "white" { &mut first } else { &mut second };
    assert_eq!(pale.turn(1, "c3").await["t"], "accepted");
}

/// A table "play anyone" opens is listed at once, before its opener's page has connected, and
/// may be sat at meanwhile; if the opener never comes, it leaves the list after a while (here
/// 300 ms), and is listed again once they connect.
#[tokio::test]
async fn a_table_whose_opener_never_comes_leaves_the_list() {
    let config = dara_server::Config {
        opener_expected_within: std::time::Duration::from_millis(300),
        ..test_config()
    };
    let (addr, state) = start_with_state(config).await;
    let listed =
        || state.lobby.tables().into_iter().map(|t| t.game.to_string()).collect::<Vec<_>>();
    let (_, first) = post(addr, "/api/seek", json!({ "rules": "ninja" })).await;
    let (table, seat, _) = seated(&first);
    assert_eq!(listed(), vec![table.clone()], "listed before the opener is here");
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
    while !listed().is_empty() {
        assert!(tokio::time::Instant::now() < deadline, "still listed: {:?}", listed());
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    // Nobody is seated opposite the empty chair now: "Sit down" says it closed, and a seeker
    // opens a table of their own.
    let (status, _) = post(addr, &format!("/api/tables/{table}/sit"), json!({})).await;
    assert_eq!(status, 404);
    let (_, other) = post(addr, "/api/seek", json!({ "rules": "ninja" })).await;
    let (own, _, _) = seated(&other);
    assert_ne!(own, table);
    // The opener comes after all: the table is listed again while they are here.
    let (_waiting, _) = Client::hello(addr, &table, Some(&seat), None).await;
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
    while !listed().contains(&table) {
        assert!(tokio::time::Instant::now() < deadline, "not listed again: {:?}", listed());
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}
