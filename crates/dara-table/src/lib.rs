//! A game of Dara at the table, as a pure state machine: who sits where, the turns, the
//! clocks and lag credit, draw and rematch offers and their limits, takebacks (at once against
//! the computer, asked of the opponent and answered between people), and the result.
//!
//! Nothing here reads a clock, touches a socket or a store, or runs a task: a shell (the
//! server, or a page running this crate as WebAssembly) feeds a [`Table`] each [`Input`] with
//! the time ([`Moment`]), and carries out what comes back ([`Outcome`]): the reply to whoever
//! asked, the new events of the game's journal (to store, then to tell everyone), and the
//! [`Effect`]s (ask the computer, call a search off, let the lobby know, start a rematch). The
//! shell sets a timer for [`Table::next_deadline`] and hands the table [`Input::Time`] then.
//!
//! The journal ([`GameEvent`]) is the game: [`Table::restore`] replays it into the same table.
//!
//! ```
//! use std::time::Duration;
//! use dara::{ByColour, Colour};
//! use dara_table::{Ask, GameSettings, Input, Moment, Opponent, Patience, Reply, Seat, Table};
//!
//! let settings = GameSettings {
//!     rules: "arcade".parse().unwrap(),
//!     opponent: Opponent::Friend,
//!     creator: Colour::White,
//!     clock: None,
//! };
//! let seats = ByColour { white: Seat::Human("pale"), black: Seat::Open };
//! let mut table = Table::new(settings, seats, Patience::default());
//! let now = Moment::ORIGIN;
//! let _ = table.begin(now);
//! let sit = Input::Ask { by: None, ask: Ask::Sit { key: "dark" } };
//! assert_eq!(table.handle(now, sit).reply, Ok(Reply::Seated(Colour::Black)));
//! let turn = Ask::Turn { id: 1, text: "c3".into(), lag: None };
//! let outcome = table.handle(now + Duration::from_secs(2), Input::Ask { by: Some(Colour::White), ask: turn });
//! assert_eq!(outcome.reply, Ok(Reply::Accepted { id: 1 }));
//! assert_eq!(outcome.events, 2..3);
//! assert_eq!(table.played().moves().len(), 1);
//! ```

#![forbid(unsafe_code)]

pub mod clock;
mod computer;
mod effect;
mod ending;
mod event;
mod game_id;
mod input;
mod moment;
mod offers;
mod played;
mod refusal;
mod seat;
mod settings;
mod table;
pub mod view;
pub mod wire;

pub use clock::{Clock, TimeControl, TimeLeft, MAX_LAG_CREDIT};
pub use computer::{Think, Ticket};
pub use effect::Effect;
pub use ending::{by_the_rules, Ending};
pub use event::{written_move, EndReason, GameEvent, JOURNAL_FORMAT};
pub use game_id::GameId;
pub use input::{Ask, Input, Outcome, Reply};
pub use moment::Moment;
pub use offers::{Offers, MAX_TAKEBACKS_ASKED};
pub use played::Played;
pub use refusal::Refusal;
pub use seat::Seat;
pub use settings::{GameSettings, Opponent, OpponentKind};
pub use table::{
    running_after, side_has_moved, BerserkRefusal, Checked, Patience, ReplayError, Table,
    MAX_EVENTS, MAX_TAKEBACKS,
};
