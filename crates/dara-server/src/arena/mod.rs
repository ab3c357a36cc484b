//! Arenas (lichess-style tournaments with no accounts), as the server runs them: each one a
//! `dara_arena::Arena` (where every rule of an arena is decided) held by one task (`owner`),
//! reached through a cheap [`ArenaHandle`], its games ordinary games at the table that tell it
//! their first moves and their end (`crate::game::observer`). A player is the token their
//! browser keeps (`player`), which is also their seat in each of their games. Its sockets read
//! the board it pins up (`board`). The server's own arenas come from its schedule
//! (`schedule`, `scheduled`); anyone may make a private one, reached by its link.

mod berserk;
pub(crate) mod board;
pub(crate) mod book;
pub(crate) mod cluster;
pub(crate) mod handle;
pub(crate) mod id;
pub(crate) mod owner;
pub(crate) mod player;
pub(crate) mod refused;
pub mod requests;
pub mod schedule;
pub mod scheduled;
pub(crate) mod there;
mod verdict;
pub(crate) mod wall;

pub use board::BOARD_EVERY;
pub use board::{About, Board, Podium, Seated};
pub use book::{Arenas, Listed, Maker, Room};
/// The arena's own refusals, as the shell passes them on (for `dara codes`).
pub use dara_arena::Refusal as ArenaRefusal;
pub use handle::ArenaHandle;
pub use id::ArenaId;
pub use owner::{open, restore, ArenaRestored, Plan};
pub use player::{seat_of, PlayerToken};
pub use refused::{ArenaError, Shell};
pub use schedule::{Schedule, ScheduleError};
pub use there::{Remote, Remotes};
pub use verdict::verdict;
