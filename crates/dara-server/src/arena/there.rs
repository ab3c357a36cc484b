//! An arena paired by another node of the cluster, as this node's requests and sockets reach
//! it: a handle like a live arena's, whose letters are relayed to the holder through Redis
//! (`crate::redis::arenas`), and whose board is read from Redis every [`BOARD_EVERY`] while
//! anyone here reads it (each socket is told only when it changed, so still at most once a
//! second). One such handle per arena on a node, let go once nobody has used it for a while.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use dara_arena::Input;
use serde::Deserialize;
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

use super::board::Board;
use super::board::BOARD_EVERY;
use super::cluster::{Answered, Asked};
use super::handle::{ArenaHandle, Letter};
use super::id::ArenaId;
use super::refused::Shell;
use crate::redis::Redis;
use crate::seat::SeatHash;

/// How long a handle to an arena held elsewhere is kept once nobody here uses it.
const IDLE: Duration = Duration::from_secs(30);

/// How long a first look waits for a board not pinned yet (an arena just made elsewhere).
const FIRST_BOARD: Duration = Duration::from_secs(3);

/// The arenas held elsewhere that this node's requests and sockets reach.
#[derive(Debug, Default)]
pub struct Remotes {
    // A std mutex: held only to look up, add or remove, never across an await.
    held: Arc<Mutex<HashMap<ArenaId, Remote>>>,
}

/// An arena held elsewhere, as reached from here.
#[derive(Debug, Clone)]
pub struct Remote {
    /// Its handle.
    pub handle: ArenaHandle,
    /// The keyed hash of its maker's secret, for a private one.
    pub maker: Option<SeatHash>,
}

/// What the shell kept in Redis says of the maker (the rest is the holder's business).
#[derive(Deserialize)]
struct Made {
    maker: Option<String>,
}

impl Remotes {
    /// Arena `id`, held by another node; `None` if Redis has no such arena (or cannot say).
    pub async fn reach(&self, redis: &Redis, id: &ArenaId) -> Option<Remote> {
        if let Some(remote) = self.held.lock().expect("remotes lock").get(id) {
            return Some(remote.clone());
        }
        let deadline = Instant::now() + FIRST_BOARD;
        let (board, shell) = loop {
            match redis.arena_board(id.as_str()).await {
                Ok(Some((Some(board), shell))) => break (board, shell),
                Ok(Some((None, _))) if Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Ok(_) => return None,
                Err(e) => {
                    tracing::warn!(arena = %id, "an arena could not be read from Redis: {e}");
                    return None;
                }
            }
        };
        let pinned: Board = serde_json::from_str(&board).ok()?;
        let made: Made = serde_json::from_str(&shell).ok()?;
        let maker = made.maker.as_deref().and_then(SeatHash::from_hex);
        let (board_tx, board_rx) = watch::channel(Arc::new(pinned));
        let (letters, mailbox) = mpsc::channel(64);
        let handle = ArenaHandle::new(id.clone(), letters, board_rx);
        let remote = Remote { handle, maker };
        let mut held = self.held.lock().expect("remotes lock");
        if let Some(other) = held.get(id) {
            // Another request reached it meanwhile.
            return Some(other.clone());
        }
        held.insert(id.clone(), remote.clone());
        let relay = Relay { redis: redis.clone(), id: id.clone(), held: self.held.clone(), board };
        tokio::spawn(relay.run(mailbox, board_tx));
        Some(remote)
    }
}

/// The task behind a handle to an arena held elsewhere.
struct Relay {
    redis: Redis,
    id: ArenaId,
    held: Arc<Mutex<HashMap<ArenaId, Remote>>>,
    /// The board as last read.
    board: String,
}

impl Relay {
    async fn run(mut self, mut mailbox: mpsc::Receiver<Letter>, board: watch::Sender<Arc<Board>>) {
        let mut used = Instant::now();
        loop {
            tokio::select! {
                letter = mailbox.recv() => {
                    let Some(letter) = letter else { break };
                    used = Instant::now();
                    tokio::spawn(relay(self.redis.clone(), self.id.clone(), letter));
                }
                () = tokio::time::sleep(BOARD_EVERY) => {
                    // Read only by the handle kept here: nobody watches.
                    if board.receiver_count() > 1 {
                        used = Instant::now();
                    } else if used.elapsed() >= IDLE {
                        break;
                    }
                    match self.redis.arena_board(self.id.as_str()).await {
                        Ok(None) => break,
                        Ok(Some((Some(text), _))) if text != self.board => {
                            if let Ok(read) = serde_json::from_str::<Board>(&text) {
                                board.send_replace(Arc::new(read));
                            }
                            self.board = text;
                        }
                        Ok(Some(_)) => {}
                        Err(e) => tracing::debug!(arena = %self.id, "a board could not be read: {e}"),
                    }
                }
            }
        }
        self.held.lock().expect("remotes lock").remove(&self.id);
    }
}

/// Relays one letter to the arena's holder and answers it. A player's request that cannot be
/// relayed, or whose answer does not come in time, is answered [`Shell::NotNow`]: the arena
/// may be changing hands, and the request may or may not have been carried out (each of them
/// can be asked again: a second join is `already-joined`). So is a press of start (it used to
/// be dropped, and its asker told the arena was gone).
async fn relay(redis: Redis, id: ArenaId, letter: Letter) {
    // A player's requests only: what the shell feeds the arena is the holder's own business.
    let asked = |input: &Input| match input {
        Input::Join { .. }
        | Input::Pause { .. }
        | Input::Resume { .. }
        | Input::Leave { .. }
        | Input::Berserk { .. } => Some(Asked::Act { input: input.clone() }),
        Input::FirstMove { .. } | Input::GameEnded { .. } | Input::Tick => None,
    };
    let ask = |asked: &Asked| {
        let text = serde_json::to_string(asked).expect("requests serialise");
        let (redis, id) = (redis.clone(), id.clone());
        async move {
            match redis.ask_arena(id.as_str(), &text).await {
                Ok(Some(answer)) => serde_json::from_str::<Answered>(&answer).ok(),
                Ok(None) => None,
                Err(e) => {
                    tracing::warn!(arena = %id, "a request could not be relayed: {e}");
                    None
                }
            }
        }
    };
    match letter {
        Letter::Act { input, answer } => {
            let Some(asked) = asked(&input) else { return };
            match ask(&asked).await {
                Some(Answered::Done) => drop(answer.send(Ok(()))),
                Some(Answered::Refused { refusal }) => drop(answer.send(Err(refusal))),
                Some(Answered::Started { .. }) | None => {
                    drop(answer.send(Err(Shell::NotNow.into())))
                }
            }
        }
        Letter::Start { answer } => {
            let answered = match ask(&Asked::Start).await {
                Some(Answered::Started { started: true }) => Ok(()),
                Some(Answered::Started { started: false }) => Err(Shell::NotTheMaker.into()),
                Some(Answered::Refused { refusal }) => Err(refusal),
                Some(Answered::Done) | None => Err(Shell::NotNow.into()),
            };
            let _ = answer.send(answered);
        }
    }
}
