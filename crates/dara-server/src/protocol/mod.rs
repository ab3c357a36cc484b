//! The WebSocket messages, both ways, as types: those of the table crate
//! ([`dara_table::wire`], which the page's own table speaks too), with the server's reason a
//! rematch could not start ([`AppError`]), serialised once for every socket that gets them.

pub mod close;
mod wire;

use crate::error::AppError;

pub use dara_table::view::{EndView, Event, SeatView, Seats, Snapshot};
pub use dara_table::wire::{
    lag, ClientMessage, OpenTable, ParseError, PresenceView, SeatPresence, PROTOCOL_VERSION,
};
pub use wire::{versioned, wire, Wire, WireAnswer};

/// What the server answers a connection.
pub type Answer = dara_table::wire::Answer<AppError>;
/// Why the server refused a message.
pub type Refusal = dara_table::wire::Refusal<AppError>;
/// A refusal as the server sends it.
pub type Explained = dara_table::wire::Explained<AppError>;
