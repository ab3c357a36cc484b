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
    /// A change to a kept arena (the embedded store only: a cluster does not keep arenas).
    Arena(ArenaWrite),
}

/// One change to a kept arena. Its parts come serialised by the arena's shell
/// (`crate::arena::kept`): the store keeps them as they are.
#[derive(Debug)]
pub enum ArenaWrite {
    /// An arena is made, or its settings changed (its maker pressed start).
    Open {
        /// Its id.
        arena: String,
        /// Its settings (`dara_arena::Settings`), as JSON.
        settings: String,
        /// What its shell needs besides (the games' clock, who made it), as JSON.
        shell: String,
    },
    /// Events of its journal, the first of them version `from`.
    Events {
        /// The arena.
        arena: String,
        /// The first one's version.
        from: u64,
        /// Each event (`dara_arena::ArenaEvent`), as JSON.
        events: Vec<String>,
    },
    /// Its game `no` is played at table `game`.
    Table {
        /// The arena.
        arena: String,
        /// The arena's number for the game.
        no: u32,
        /// The table.
        game: GameId,
    },
    /// The arena is forgotten: nothing of it is kept.
    Erase {
        /// The arena.
        arena: String,
    },
}

/// A kept arena as the store read it back at start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredArena {
    /// Its id.
    pub id: String,
    /// Its settings, as JSON.
    pub settings: String,
    /// What its shell keeps besides, as JSON.
    pub shell: String,
    /// Its journal, oldest first, each event as JSON.
    pub events: Vec<String>,
    /// Which table each of its games is: the arena's number, the game's id.
    pub tables: Vec<(u32, String)>,
}
