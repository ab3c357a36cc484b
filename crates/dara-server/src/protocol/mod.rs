//! The WebSocket messages, both ways, as types: small JSON objects `{"t": type, "d": data}`,
//! game events with their version `"v"` too (see `PROTOCOL.md`). Nothing else in the server
//! writes a protocol message by hand, so the compiler keeps the page, this document and the
//! game's journal in step.

mod answer;
mod client;
mod event;
mod refusal;

use serde::Serialize;

pub use answer::{Answer, PresenceView, SeatPresence};
pub use client::{lag, ClientMessage, ParseError, PROTOCOL_VERSION};
pub use event::{EndView, Event, SeatView, Seats, Snapshot};
pub use refusal::{Explained, Refusal};

/// A message ready for the wire: serialised once, shared by every connection that gets it (a
/// reference-counted buffer, handed to each socket without a copy).
pub type Wire = axum::extract::ws::Utf8Bytes;

/// Serialises a message. Every message type here is plain data, so this cannot fail.
fn wire(message: &impl Serialize) -> Wire {
    wire_in(message, Vec::new())
}

/// Serialises a message into `buffer`: a caller that knows its messages are large starts with
/// room for them, rather than growing the buffer five times on the way (an event with a
/// position is about 400 bytes, and the doubling ends at the same capacity anyway).
fn wire_in(message: &impl Serialize, mut buffer: Vec<u8>) -> Wire {
    serde_json::to_writer(&mut buffer, message).expect("protocol messages always serialise");
    String::from_utf8(buffer).expect("serde_json writes UTF-8").into()
}

/// Writes a value through its `Display` (moves, results, rulesets: their notation).
pub(crate) fn display<T: core::fmt::Display, S: serde::Serializer>(
    value: &T,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}
