//! What every request handler and game shares: the settings, the live games, the lobby and
//! the computer.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::config::Config;
use crate::error::AppError;
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
    // A std mutex: only held to look up, add or remove a game, never across an await.
    registry: Mutex<Registry>,
    /// The open tables.
    pub lobby: Lobby,
    /// The engine pool.
    pub computer: Computer,
}

/// The live games, and how many of them each client address asked for.
#[derive(Debug, Default)]
struct Registry {
    games: HashMap<GameId, Held>,
    per_address: HashMap<IpAddr, usize>,
}

#[derive(Debug)]
struct Held {
    handle: GameHandle,
    asked_from: Option<IpAddr>,
}

impl Shared {
    /// Fresh state with these settings.
    pub fn new(config: Config) -> AppState {
        let computer =
            Computer::new(config.engine_threads, config.engine_queue, config.human_pause);
        Arc::new(Shared { config, registry: Mutex::default(), lobby: Lobby::default(), computer })
    }

    /// The live game `id`.
    pub fn game(&self, id: &GameId) -> Option<GameHandle> {
        self.registry.lock().expect("games lock").games.get(id).map(|held| held.handle.clone())
    }

    /// Registers a new game asked for from `asked_from` (see `address::requester`; `None`
    /// when the server itself starts it), unless the server, or that address's share of
    /// it, is full.
    ///
    /// # Errors
    /// [`AppError::Full`] or [`AppError::TooManyGames`].
    pub fn register(&self, handle: GameHandle, asked_from: Option<IpAddr>) -> Result<(), AppError> {
        let mut registry = self.registry.lock().expect("games lock");
        if registry.games.len() >= self.config.max_games {
            return Err(AppError::Full);
        }
        if let Some(address) = asked_from {
            let limit = self.config.games_per_address;
            if registry.per_address.get(&address).copied().unwrap_or(0) >= limit {
                let grace = spoken(self.config.finished_grace);
                return Err(AppError::TooManyGames(format!(
                    "there are already {limit} games here started from your address, the most \
                     it may have at once; a finished game is forgotten {grace} after it ends, \
                     so try again then"
                )));
            }
            *registry.per_address.entry(address).or_default() += 1;
        }
        registry.games.insert(handle.id.clone(), Held { handle, asked_from });
        Ok(())
    }

    /// Forgets a game whose actor has stopped.
    pub fn forget(&self, id: &GameId) {
        {
            let mut registry = self.registry.lock().expect("games lock");
            if let Some(Held { asked_from: Some(address), .. }) = registry.games.remove(id) {
                if let Some(count) = registry.per_address.get_mut(&address) {
                    *count -= 1;
                    if *count == 0 {
                        registry.per_address.remove(&address);
                    }
                }
            }
        }
        self.lobby.close(id);
    }

    /// How many games are held.
    pub fn live_games(&self) -> usize {
        self.registry.lock().expect("games lock").games.len()
    }
}

/// A duration as a person says it: `10 minutes`, `1 minute`, `45 seconds`.
fn spoken(d: Duration) -> String {
    let seconds = d.as_secs() + u64::from(d.subsec_nanos() > 0);
    let (n, unit) = if seconds >= 60 && seconds % 60 == 0 {
        (seconds / 60, "minute")
    } else {
        (seconds, "second")
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_said_in_whole_units() {
        assert_eq!(spoken(Duration::from_secs(600)), "10 minutes");
        assert_eq!(spoken(Duration::from_secs(60)), "1 minute");
        assert_eq!(spoken(Duration::from_secs(90)), "90 seconds");
        assert_eq!(spoken(Duration::from_millis(200)), "1 second");
    }
}
