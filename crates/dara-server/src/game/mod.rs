//! Live games: each behind a cheap [`GameHandle`], through which connections' requests are
//! carried out, and each with an actor for what happens to it by itself.

mod actor;
/// The clocks: the table's, as the server names them.
pub mod clock {
    pub use dara_table::clock::{TimeControl, TimeLeft};
    pub use dara_table::view::ClockView;
}
pub mod computer;
mod crowd;
mod handle;
mod history;
mod host;
mod keeping;
mod outcome;
mod presence;
mod queue;
mod restore;
mod rotation;
pub mod settings;
pub mod study;

pub use crate::seat::Seat;
pub use actor::spawn;
pub use dara_table::{EndReason, GameEvent, Played, JOURNAL_FORMAT};
pub use handle::{Cmd, GameHandle, Life, Reply, SitRefused, Welcome};
pub use host::Host;
pub use restore::restore;
pub use settings::{GameSettings, NewGame, Opponent};
