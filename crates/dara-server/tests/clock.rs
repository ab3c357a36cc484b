//! The server's clock decides: a player who does not move in time loses (RULES.md: "the
//! player whose clock ran out loses"). Once on tokio's paused clock, so a minute passes in no
//! time; once in real time over real sockets, on a clock shorter than the site offers.

mod common;

use std::time::{Duration, Instant};

use common::line::Line;
use common::{start_with_state, test_config, Client};
use dara::record::{GameResult, Record};
use dara::{ByColour, Colour, Ruleset};
use dara_server::game::clock::TimeControl;
use dara_server::game::{self, Seat};
use dara_server::game::{GameSettings, NewGame, Opponent};
use dara_server::protocol::ClientMessage;
use dara_server::seat::SeatToken;
use dara_server::{Config, Shared};
use serde_json::{json, Value};

#[tokio::test(start_paused = true)]
async fn a_flag_falls_and_the_player_out_of_time_loses() {
    let state = Shared::new(Config::default());
    let request: NewGame = serde_json::from_value(json!({
        "opponent": "friend", "first": "me", "clock": { "initial": 60, "increment": 2 }
    }))
    .unwrap();
    let setup = request.check().unwrap();
    assert_eq!(setup.clock, Some(TimeControl { initial: 60, increment: 2 }));
    let (pale, dark) = (SeatToken::random(), SeatToken::random());
    let seats = ByColour {
        white: Seat::Human(state.seat_key.seal(&pale)),
        black: Seat::Human(state.seat_key.seal(&dark)),
    };
    let handle = game::spawn(&state, setup, seats, None).unwrap().0;

    let mut white = Line::hello(&handle, &pale).await;
    let snapshot = white.next().await;
    // No clock runs before a side's first move: pale has 30 s to make it.
    assert_eq!(snapshot["d"]["clock"]["running"], Value::Null);
    assert_eq!(snapshot["d"]["clock"]["firstMove"], 30_000);
    let mut black = Line::hello(&handle, &dark).await;

    // Pale's first placement after 10 s is free, and dark now has 30 s for its own.
    tokio::time::sleep(Duration::from_secs(10)).await;
    let moved = white.play(1, "c3").await;
    assert_eq!(moved["d"]["clock"]["white"], 60_000);
    assert_eq!(moved["d"]["clock"]["running"], Value::Null);
    assert_eq!(moved["d"]["clock"]["firstMove"], 30_000);
    tokio::time::sleep(Duration::from_secs(5)).await;
    let moved = black.play(1, "d3").await;
    assert_eq!(moved["d"]["clock"]["running"], "white");
    assert_eq!(moved["d"]["clock"].get("firstMove"), None);

    // Pale moves 10 s later: 50 s left, plus 2.
    tokio::time::sleep(Duration::from_secs(10)).await;
    let moved = white.play(2, "e3").await;
    assert_eq!(moved["d"]["clock"]["white"], 52_000);
    assert_eq!(moved["d"]["clock"]["running"], "black");

    // Dark never answers: after a minute (and the lag allowance), dark has lost on time.
    let end = white.next_of("end").await;
    assert_eq!(end["d"]["result"], "1-0");
    assert_eq!(end["d"]["reason"], "Dark ran out of time");
    assert_eq!(end["d"]["clock"]["black"], 0);
    // A move after the flag is refused.
    let late = ClientMessage::Move { id: 2, text: "d4".into(), lag: None };
    let reply = black.ask(late).await;
    assert_eq!(reply["d"]["reason"], "the game is over");
}

/// A page in play reports its lag with its turns instead of pinging: the clock credits it as
/// it credits a ping's (PROTOCOL.md, `move`).
#[tokio::test(start_paused = true)]
async fn the_lag_a_turn_reports_is_credited() {
    let (_state, handle, pale, dark) = friends_on_a_minute();
    let mut white = Line::hello(&handle, &pale).await;
    let mut black = Line::hello(&handle, &dark).await;

    let _ = white.play(1, "c3").await;
    let _ = black.play(1, "d3").await;
    tokio::time::sleep(Duration::from_secs(10)).await;
    let move_e3 = ClientMessage::Move { id: 2, text: "e3".into(), lag: Some(300) };
    let reply = white.ask(move_e3).await;
    assert_eq!(reply["t"], "accepted");
    let moved = white.next().await;
    assert_eq!(moved["d"]["clock"]["white"], 50_300, "10 s used, 300 ms of it the line's");
}

/// A game by link on a 1+0 clock with both seated, pale the creator, through the library; its
/// server (which must outlive it), its handle and both players' tokens.
fn friends_on_a_minute() -> (std::sync::Arc<Shared>, game::GameHandle, SeatToken, SeatToken) {
    let state = Shared::new(Config::default());
    let request: NewGame = serde_json::from_value(json!({
        "opponent": "friend", "first": "me", "clock": { "initial": 60, "increment": 0 }
    }))
    .unwrap();
    let (pale, dark) = (SeatToken::random(), SeatToken::random());
    let seats = ByColour {
        white: Seat::Human(state.seat_key.seal(&pale)),
        black: Seat::Human(state.seat_key.seal(&dark)),
    };
    let handle = game::spawn(&state, request.check().unwrap(), seats, None).unwrap().0;
    (state, handle, pale, dark)
}

/// A side that makes no first move within the time the server gives it: the game is aborted
/// without a result, and nobody's clock ran.
#[tokio::test(start_paused = true)]
async fn a_game_whose_side_never_makes_a_first_move_is_aborted() {
    let (_state, handle, pale, dark) = friends_on_a_minute();
    let mut black = Line::hello(&handle, &dark).await;
    let mut white = Line::hello(&handle, &pale).await;
    let _ = white.play(1, "c3").await;
    let waited = tokio::time::Instant::now();
    let end = black.next_of("end").await;
    assert_eq!(waited.elapsed(), Duration::from_secs(30));
    assert_eq!(end["t"], "end");
    assert_eq!(end["d"]["code"], "aborted");
    assert_eq!(end["d"]["idle"], "black");
    assert_eq!(end["d"]["result"], "*");
    assert_eq!(end["d"]["winner"], Value::Null);
    assert_eq!(end["d"]["reason"], "Dark made no first move in time: the game is aborted");
    assert_eq!(end["d"]["clock"]["white"], 60_000);
    assert_eq!(end["d"]["clock"]["black"], 60_000);
}

#[tokio::test]
async fn over_real_sockets_both_seats_see_the_flag_fall() {
    let (addr, state) = start_with_state(test_config()).await;
    // The site offers 30 s at the least; through the library a game can have 2 s.
    let setup = GameSettings {
        rules: Ruleset::default(),
        opponent: Opponent::Friend,
        creator: Colour::White,
        clock: Some(TimeControl { initial: 2, increment: 0 }),
    };
    let (pale, dark) = (SeatToken::random(), SeatToken::random());
    let seats = ByColour {
        white: Seat::Human(state.seat_key.seal(&pale)),
        black: Seat::Human(state.seat_key.seal(&dark)),
    };
    let game = game::spawn(&state, setup, seats, None).unwrap().0.id.to_string();
    let (mut white, snapshot) = Client::hello(addr, &game, Some(pale.as_str()), None).await;
    assert_eq!(snapshot["d"]["clock"]["running"], Value::Null);
    let (mut black, _) = Client::hello(addr, &game, Some(dark.as_str()), None).await;
    assert_eq!(white.turn(1, "c3").await["t"], "accepted");
    assert_eq!(black.turn(1, "d3").await["t"], "accepted");
    assert_eq!(white.turn(2, "e3").await["t"], "accepted");
    let moved = Instant::now();

    // Dark never answers: two seconds (and the lag allowance) later, both seats are told.
    let mut ends = Vec::new();
    for seat in [&mut white, &mut black] {
        let end = seat.next_of("end").await;
        assert_eq!(end["d"]["result"], "1-0");
        assert_eq!(end["d"]["winner"], "white");
        assert_eq!(end["d"]["reason"], "Dark ran out of time");
        assert_eq!(end["d"]["clock"]["black"], 0);
        assert_eq!(end["d"]["clock"]["running"], Value::Null);
        ends.push(end);
    }
    assert!(moved.elapsed() >= Duration::from_secs(2), "flagged after {:?}", moved.elapsed());
    assert_eq!(ends[0], ends[1]);
    assert_eq!(black.turn(2, "d4").await["d"]["reason"], "the game is over");
    // The record says who won, though the position itself was still open.
    let record: Record = ends[0]["d"]["record"].as_str().unwrap().parse().unwrap();
    assert_eq!(record.result, GameResult::WhiteWins);
    assert_eq!(record.moves().len(), 3);
}
