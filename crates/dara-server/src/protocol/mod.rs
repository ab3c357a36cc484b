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
    serde_json::to_string(message).expect("protocol messages always serialise").into()
}

/// Writes a value through its `Display` (moves, results, rulesets: their notation).
pub(crate) fn display<T: core::fmt::Display, S: serde::Serializer>(
    value: &T,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}
