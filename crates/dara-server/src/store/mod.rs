//! Where live games are kept so that they survive a crash and a restart: every event of a game
//! is written before anyone is told of it, and read back when the server starts. A game that
//! ends its life is erased. [`Store::Memory`] keeps nothing (`--memory-only`, and the tests
//! that need no disk); [`Store::Sqlite`] keeps games in a data directory (see [`sqlite`]).

pub(crate) mod error;
pub(crate) mod kept;
pub mod record;
pub mod sqlite;
pub(crate) mod write;

pub use error::StoreError;
pub use kept::{Committed, Opened, Store};
pub use record::{Damaged, GameRecord, StoredGame, StoredSeats, Unreadable};
pub use sqlite::{Sqlite, STORE_FORMAT};
pub use write::{ArenaWrite, StoredArena, Write};
