//! What every request handler and game shares: the settings, the live games, the lobby and
//! the computer.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::config::Config;
use crate::game::computer::Computer;
use crate::game::GameHandle;
use crate::lobby::Lobby;
use crate::seat::GameId;

/// The server's shared state, cheap to clone.
pub type AppState = Arc<Shared>;

/// See [`AppState`].
#[derive(Debug)]
pub struct Shared {
    /// The settings.
    pub config: Config,
    // A std mutex: only held to look up, add or remove a handle, never across an await.
    games: Mutex<HashMap<GameId, GameHandle>>,
    /// The open tables.
    pub lobby: Lobby,
    /// The engine pool.
    pub computer: Computer,
}

impl Shared {
    /// Fresh state with these settings.
    pub fn new(config: Config) -> AppState {
        let computer = Computer::new(config.engine_threads, config.human_pause);
        Arc::new(Shared { config, games: Mutex::default(), lobby: Lobby::default(), computer })
    }

    /// The live game `id`.
    pub fn game(&self, id: &GameId) -> Option<GameHandle> {
        self.games.lock().expect("games lock").get(id).cloned()
    }

    /// Registers a new game, unless the server is full.
    pub fn register(&self, handle: GameHandle) -> bool {
        let mut games = self.games.lock().expect("games lock");
        if games.len() >= self.config.max_games {
            return false;
        }
        games.insert(handle.id.clone(), handle);
        true
    }

    /// Forgets a game whose actor has stopped.
    pub fn forget(&self, id: &GameId) {
        self.games.lock().expect("games lock").remove(id);
        self.lobby.close(id);
    }

    /// How many games are held.
    pub fn live_games(&self) -> usize {
        self.games.lock().expect("games lock").len()
    }
}
