//! The messages between a page and a game's table, both ways, as types: small JSON objects
//! `{"t": type, "d": data}`, game events with their version `"v"` too (see `PROTOCOL.md`).
//! The server sends them over its sockets; the page's own table (a game against the computer
//! run in the browser) speaks the very same, so the page's handlers never know which they talk
//! to. Nothing writes a protocol message by hand, so the compiler keeps the page, the document
//! and the game's journal in step.

mod answer;
mod asking;
mod client;
mod open_table;
mod phrase;
mod refusal;

use serde::Serialize;

pub use answer::{Answer, PresenceView, SeatPresence};
pub use asking::{Answering, Asking};
pub use client::{lag, ClientMessage, ParseError, PROTOCOL_VERSION};
pub use open_table::OpenTable;
pub use phrase::Phrase;
pub use refusal::{Explained, NoShellError, Refusal};

use crate::view::Event;

/// A game's event with its version, as it is sent: `{"t": ..., "d": ..., "v": n}`.
#[derive(Debug, Serialize)]
pub struct Versioned<'a> {
    /// The event.
    #[serde(flatten)]
    pub event: &'a Event,
    /// Its version: the journal's length once it was recorded (a snapshot: the journal's
    /// length when it was taken).
    pub v: u64,
}
