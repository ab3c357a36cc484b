//! Games taken up one at a time each, and different games at once.
//!
//! Two sockets that arrive together for a game whose node died must take it up once: the
//! second waits for the first, then finds the game here. But a node that died leaves a
//! thousand games, whose players all reconnect within a second, to the other nodes: one lock
//! for every takeover on a node served that storm one game at a time, each waiting out the
//! Redis round trips of all the games before it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::OwnedMutexGuard;

use crate::seat::GameId;

/// The lock of each game being taken up on this node.
type Locks = Arc<Mutex<HashMap<GameId, Arc<tokio::sync::Mutex<()>>>>>;

/// A lock for each game being taken up on this node, made when first asked for and dropped
/// when nobody holds or waits for it.
#[derive(Debug, Default)]
pub struct Taking {
    games: Locks,
}

/// Game `game`'s lock, held: nobody else on this node takes that game up until it is dropped.
#[derive(Debug)]
pub struct Held {
    game: GameId,
    guard: Option<OwnedMutexGuard<()>>,
    games: Locks,
}

impl Taking {
    /// Waits until no one else on this node is taking up `game`, then holds it.
    pub async fn one(&self, game: &GameId) -> Held {
        let lock = {
            let mut games = self.games.lock().expect("taking lock");
            games.entry(game.clone()).or_default().clone()
        };
        let guard = lock.lock_owned().await;
        Held { game: game.clone(), guard: Some(guard), games: self.games.clone() }
    }

    /// How many games have a lock now (held or waited for).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.games.lock().expect("taking lock").len()
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut games = self.games.lock().expect("taking lock");
        drop(self.guard.take());
        // The map's own reference is the last: nobody holds or waits for this game's lock.
        if games.get(&self.game).is_some_and(|lock| Arc::strong_count(lock) == 1) {
            games.remove(&self.game);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn game(n: u64) -> GameId {
        GameId::from_bits(n)
    }

    #[tokio::test]
    async fn different_games_are_taken_up_at_once_and_one_game_once() {
        let taking = Taking::default();
        let first = taking.one(&game(1)).await;
        // Another game is not held up by the first.
        let other = tokio::time::timeout(Duration::from_secs(5), taking.one(&game(2))).await;
        assert!(other.is_ok(), "a second game waited for the first");
        // The same game waits until the first is done with it.
        let again = tokio::time::timeout(Duration::from_millis(50), taking.one(&game(1))).await;
        assert!(again.is_err(), "one game taken up twice at once");
        drop(first);
        let again = tokio::time::timeout(Duration::from_secs(5), taking.one(&game(1))).await;
        assert!(again.is_ok());
        drop((other, again));
        assert_eq!(taking.len(), 0, "no lock is kept for a game nobody takes up");
    }
}
