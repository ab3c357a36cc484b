//! The WebSocket messages, both ways, as types: small JSON objects `{"t": type, "d": data}`,
//! game events with their version `"v"` too (see `PROTOCOL.md`). Nothing else in the server
//! writes a protocol message by hand, so the compiler keeps the page, this document and the
//! game's journal in step.

mod answer;
mod client;
pub mod close;
mod refusal;
mod table;
mod wire;

pub use answer::{Answer, PresenceView, SeatPresence};
pub use client::{lag, ClientMessage, ParseError, PROTOCOL_VERSION};
pub use dara_table::view::{EndView, Event, SeatView, Seats, Snapshot};
pub use refusal::{Explained, Refusal};
pub use table::Table;
pub use wire::{versioned, Wire};
