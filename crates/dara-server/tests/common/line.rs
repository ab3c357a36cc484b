//! A connection to a game through the library (no socket, no server), for tests that reach
//! the game by its handle: what the game writes to it waits in its outlet, and is read there.

use std::collections::VecDeque;

use axum::extract::ws::Message;
use dara_server::game::GameHandle;
use dara_server::outlet::{Heard, Outlet};
use dara_server::protocol::ClientMessage;
use dara_server::seat::SeatToken;
use serde_json::Value;

/// A connection to a game through the library, with no socket: what the game writes to it
/// waits in its outlet, and is read from there.
pub struct Line {
    handle: GameHandle,
    outlet: Outlet,
    number: u32,
    heard: VecDeque<Value>,
}

impl Line {
    /// Says hello with `token`'s seat.
    pub async fn hello(handle: &GameHandle, token: &SeatToken) -> Line {
        Line::hello_since(handle, Some(token), None).await
    }

    /// Says hello with `token`'s seat (or to watch), having seen up to version `since`.
    pub async fn hello_since(
        handle: &GameHandle,
        token: Option<&SeatToken>,
        since: Option<u64>,
    ) -> Line {
        let outlet = Outlet::new(None);
        let seat = token.map(|token| token.as_str().to_owned());
        let greeting = handle.hello(seat, since, outlet.clone()).await.unwrap();
        Line { handle: handle.clone(), outlet, number: greeting.number, heard: VecDeque::new() }
    }

    /// The next message the game wrote to this connection.
    pub async fn next(&mut self) -> Value {
        loop {
            if let Some(message) = self.heard.pop_front() {
                return message;
            }
            let heard = std::future::poll_fn(|cx| self.outlet.poll_heard(cx, false)).await;
            assert!(matches!(heard, Heard::Owed), "{heard:?}");
            for message in self.outlet.take_waiting() {
                if let Message::Text(text) = message {
                    self.heard.push_back(serde_json::from_str(&text).unwrap());
                }
            }
        }
    }

    /// The next message of type `t`, the others skipped.
    pub async fn next_of(&mut self, t: &str) -> Value {
        loop {
            let message = self.next().await;
            if message["t"] == t {
                return message;
            }
        }
    }

    /// Asks `msg`, and gives the answer: the first message written after it, once what was
    /// written before is read.
    pub async fn ask(&mut self, msg: ClientMessage) -> Value {
        tokio::task::yield_now().await;
        self.heard.clear();
        self.outlet.take_waiting();
        self.outlet.asked();
        assert!(self.handle.act(self.number, msg, None));
        self.next().await
    }

    /// Plays `text` as turn `id` and gives the `move` event.
    pub async fn play(&mut self, id: u64, text: &str) -> Value {
        let turn = ClientMessage::Move { id, text: text.into(), lag: None };
        assert_eq!(self.ask(turn).await["t"], "accepted", "{text}");
        self.next().await
    }
}
