//! The computer opponent: the engine's search, run off the async runtime on blocking threads,
//! never more searches at once than the server allows (the rest queue on a semaphore).

use std::sync::Arc;
use std::time::Duration;

use dara::{Move, Position};
use dara_engine::level::Level;
use dara_engine::rng::Rng;
use dara_engine::{Limits, Searcher};
use rand::Rng as _;
use tokio::sync::Semaphore;
use tokio::time::Instant;

/// Transposition table per search. Small: games are short-lived and many, and the levels that
/// people play mostly stop on a node budget long before a larger table would pay.
const HASH_MIB: usize = 8;

/// The engine, shared by every game against the computer.
#[derive(Debug, Clone)]
pub struct Computer {
    permits: Arc<Semaphore>,
    human_pause: bool,
}

impl Computer {
    /// At most `threads` searches at once; `human_pause` makes low levels wait a moment.
    pub fn new(threads: usize, human_pause: bool) -> Computer {
        Computer { permits: Arc::new(Semaphore::new(threads.max(1))), human_pause }
    }

    /// The engine's move in `pos` at `level`, `history` being the hashes of the game's earlier
    /// positions. `None` only if the game is over there.
    pub async fn choose(&self, pos: Position, history: Vec<u64>, level: Level) -> Option<Move> {
        let asked = Instant::now();
        let pause = self.pause(level);
        let permit = Arc::clone(&self.permits).acquire_owned().await.ok()?;
        let seed = rand::thread_rng().gen::<u64>();
        let best = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let mut searcher = Searcher::new(HASH_MIB);
            let mut rng = Rng::new(seed);
            let (limits, style) = level.plan(&Limits::default(), &mut rng);
            searcher.search(&pos, &history, &limits, &style, &mut |_| {}).best
        })
        .await
        .ok()??;
        tokio::time::sleep_until(asked + pause).await;
        Some(best)
    }

    /// How long a person at this level would seem to think: beginners hesitate a little, strong
    /// levels take what their search takes.
    fn pause(&self, level: Level) -> Duration {
        if !self.human_pause {
            return Duration::ZERO;
        }
        let (low, high) = match level.get() {
            1..=3 => (700, 1600),
            4..=5 => (400, 1000),
            _ => (0, 300),
        };
        Duration::from_millis(rand::thread_rng().gen_range(low..=high))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_computer_plays_a_legal_move() {
        let computer = Computer::new(1, false);
        let pos = Position::start("arcade".parse().unwrap());
        let m = computer.choose(pos.clone(), vec![], Level::new(1).unwrap()).await.unwrap();
        assert!(pos.legal_moves().contains(&m));
    }
}
