//! Live games: each owned by one task that reads its mailbox (`owner`), and reached through a
//! cheap [`GameHandle`] that posts to it. A turn's path: the socket (`crate::ws::game`) posts
//! it (`handle`), the owner hands it to the game (`live`), which asks the table (`dara_table`)
//! and carries out its outcome; the owner then keeps what changed (`keeping`, the store), and
//! writes the answer and what everyone is told to the sockets itself (`sockets`, through each
//! one's `crate::outlet`).

/// The clocks: the table's, as the server names them.
pub mod clock {
    pub use dara_table::clock::{TimeControl, TimeLeft};
    pub use dara_table::view::ClockView;
}
pub mod computer;
mod crowd;
pub(crate) mod handle;
mod history;
pub(crate) mod host;
mod keeping;
mod lifespan;
mod live;
pub(crate) mod mailbox;
pub mod observer;
mod origin;
mod owner;
mod queue;
mod quick_messages;
mod restore;
mod rotation;
pub mod settings;
mod sockets;
pub(crate) mod start;
pub mod study;
mod thinking;
mod watched;

pub use crate::seat::Seat;
pub use dara_table::{EndReason, GameEvent, Played, JOURNAL_FORMAT};
pub use handle::{GameHandle, Life};
pub use host::Host;
pub use mailbox::{Greeting, SitRefused, Unhalved};
pub use observer::{News, Observer};
pub use restore::{restore, restore_observed};
pub use settings::{GameSettings, NewGame, Opponent};
pub use start::{spawn, spawn_listed, spawn_observed, Listing};
