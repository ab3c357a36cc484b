//! What a game asks its store to keep: the writes of one request, committed together.

use dara_table::GameEvent;

use crate::seat::GameId;
use crate::store::record::{GameRecord, StoredSeats};

/// One change to what the store holds.
#[derive(Debug)]
pub enum Write {
    /// A game begins.
    Begin {
        /// Its id.
        game: GameId,
        /// Its settings and start.
        record: GameRecord,
        /// Who sits where.
        seats: StoredSeats,
    },
    /// Someone sat down: the seats change.
    Seats {
        /// The game.
        game: GameId,
        /// Who sits where now.
        seats: StoredSeats,
    },
    /// Event `v` of a game.
    Append {
        /// The game.
        game: GameId,
        /// Its version (the first event is 1).
        v: u64,
        /// What happened.
        event: GameEvent,
    },
    /// A game has ended its life: nothing of it is kept.
    Erase {
        /// The game.
        game: GameId,
    },
}
