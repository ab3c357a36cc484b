//! How requests and sockets reach a live arena: a cheap [`ArenaHandle`] that posts letters to
//! its owner and reads the board it pins up.

use std::sync::Arc;

use dara_arena::Input;
use tokio::sync::{mpsc, oneshot, watch};

use super::board::Board;
use super::id::ArenaId;
use super::refused::ArenaError;

/// What an arena's owner is asked.
#[derive(Debug)]
pub(super) enum Letter {
    /// Something a player asks (join, pause, resume, leave, berserk): the arena's answer.
    Act {
        /// What.
        input: Input,
        /// Whether it was done.
        answer: oneshot::Sender<Result<(), ArenaError>>,
    },
    /// Its maker pressed start: `not-the-maker` if it was not waiting for them, or the
    /// refusal of a start that could not be kept.
    Start {
        /// Whether it started.
        answer: oneshot::Sender<Result<(), ArenaError>>,
    },
}

/// A cheap way to reach a live arena.
#[derive(Debug, Clone)]
pub struct ArenaHandle {
    /// The arena's id.
    pub id: ArenaId,
    letters: mpsc::Sender<Letter>,
    board: watch::Receiver<Arc<Board>>,
}

impl ArenaHandle {
    pub(super) fn new(
        id: ArenaId,
        letters: mpsc::Sender<Letter>,
        board: watch::Receiver<Arc<Board>>,
    ) -> ArenaHandle {
        ArenaHandle { id, letters, board }
    }

    /// Hands the arena a player's request; `None` if the arena has gone.
    pub async fn act(&self, input: Input) -> Option<Result<(), ArenaError>> {
        let (answer, answered) = oneshot::channel();
        self.letters.send(Letter::Act { input, answer }).await.ok()?;
        answered.await.ok()
    }

    /// Starts an arena that waits for its maker; `None` if it has gone, `not-the-maker` if it
    /// was not waiting, or why it could not be started (its start could not be kept).
    pub async fn start(&self) -> Option<Result<(), ArenaError>> {
        let (answer, answered) = oneshot::channel();
        self.letters.send(Letter::Start { answer }).await.ok()?;
        answered.await.ok()
    }

    /// The board as pinned now, and every pinning to come.
    pub fn board(&self) -> watch::Receiver<Arc<Board>> {
        self.board.clone()
    }
}
