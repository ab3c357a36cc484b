//! What a live game needs of the server that holds it: its settings, its store and seat key,
//! the engine pool, the lobby, the measures, and the book of live games (to start and enter a
//! rematch, to note an ending, to be forgotten). The server's state implements it; a game holds it
//! weakly, so that a server dropped mid-game (the tests' crash) still lets go of its games, and
//! the games know nothing of the server's other parts (its sockets, its cluster, its pages).

use std::net::IpAddr;
use std::sync::Arc;

use dara::ByColour;
use dara_table::GameSettings;
use tokio::time::Instant;

use super::computer::Computer;
use super::handle::{GameHandle, Life};
use crate::config::Config;
use crate::error::AppError;
use crate::lobby::Lobby;
use crate::metrics::measures::Metrics;
use crate::seat::{GameId, Seat, SeatKey};
use crate::store::kept::Store;
use crate::watch::WatchList;

/// The server as its games see it.
pub trait Host: Send + Sync + 'static {
    /// The settings, read where they are (a game asks after every command), not copied.
    fn config(&self) -> &Config;

    /// Whether the server has begun to stop: its games are kept for the next process, not
    /// erased.
    fn stopping(&self) -> bool;

    /// Where live games are kept.
    fn store(&self) -> &Store;

    /// The key seat tokens are hashed with.
    fn seat_key(&self) -> &SeatKey;

    /// The engine pool.
    fn computer(&self) -> &Computer;

    /// The open tables.
    fn lobby(&self) -> &Lobby;

    /// The games anyone may watch.
    fn watch_list(&self) -> &WatchList;

    /// What an operator watches.
    fn metrics(&self) -> &Metrics;

    /// Enters a new game asked for from `asked_from` (`None` when the server itself starts
    /// it), unless the server, or that address's share of it, is full. A game taken up again
    /// replaces the life of it entered before, which is handed over.
    ///
    /// # Errors
    /// [`AppError::Full`] or [`AppError::TooManyGames`].
    fn register(&self, handle: GameHandle, asked_from: Option<IpAddr>) -> Result<(), AppError>;

    /// Starts a new game (a rematch) with these seats, counted against `asked_from`; gives its
    /// id. The store commits it before anything the asking game stores after.
    ///
    /// # Errors
    /// As [`super::spawn`].
    fn start_game(
        self: Arc<Self>,
        settings: GameSettings,
        seats: ByColour<Seat>,
        asked_from: Option<IpAddr>,
    ) -> Result<GameId, AppError>;

    /// Notes that `life` of game `id` ended at `at` (or, after a takeback, that it goes on:
    /// `None`): a full server makes room by forgetting the game that ended first.
    fn set_finished(&self, id: &GameId, life: Life, at: Option<Instant>);

    /// Forgets `life` of game `id`, which ended here (nothing, if another life of the game
    /// replaced it). Gives the address whose count in the cluster waits for the game's
    /// erasure, if any (its creation's outcome is unknown).
    fn forget(&self, id: &GameId, life: Life) -> Option<IpAddr>;

    /// Gives back the cluster's count of a game asked for from `counted`, now that its erasure
    /// is acknowledged.
    fn erased(&self, counted: IpAddr);

    /// The live game `id` on this server, if it is here (an arena reaches its games' tables
    /// through it: a berserk halves a clock).
    fn live_game(&self, id: &GameId) -> Option<GameHandle>;
}

/// No server at all: the host of a game made on its own (a test's), which every call finds gone.
#[cfg(test)]
pub(super) fn nobody() -> std::sync::Weak<dyn Host> {
    /// A host there cannot be.
    enum Nobody {}

    impl Host for Nobody {
        fn config(&self) -> &Config {
            match *self {}
        }
        fn stopping(&self) -> bool {
            match *self {}
        }
        fn store(&self) -> &Store {
            match *self {}
        }
        fn seat_key(&self) -> &SeatKey {
            match *self {}
        }
        fn computer(&self) -> &Computer {
            match *self {}
        }
        fn lobby(&self) -> &Lobby {
            match *self {}
        }
        fn watch_list(&self) -> &WatchList {
            match *self {}
        }
        fn metrics(&self) -> &Metrics {
            match *self {}
        }
        fn register(&self, _: GameHandle, _: Option<IpAddr>) -> Result<(), AppError> {
            match *self {}
        }
        fn start_game(
            self: Arc<Self>,
            _: GameSettings,
            _: ByColour<Seat>,
            _: Option<IpAddr>,
        ) -> Result<GameId, AppError> {
            match *self {}
        }
        fn set_finished(&self, _: &GameId, _: Life, _: Option<Instant>) {
            match *self {}
        }
        fn forget(&self, _: &GameId, _: Life) -> Option<IpAddr> {
            match *self {}
        }
        fn erased(&self, _: IpAddr) {
            match *self {}
        }
        fn live_game(&self, _: &GameId) -> Option<GameHandle> {
            match *self {}
        }
    }

    std::sync::Weak::<Nobody>::new()
}
