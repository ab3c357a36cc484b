//! Live games: one actor per game owns its state; everyone else holds a cheap [`GameHandle`]
//! and talks to it through a channel.

mod actor;
pub mod clock;
pub mod computer;
mod ending;
mod event;
mod history;
mod keeping;
mod offers;
mod played;
mod presence;
mod queue;
mod restore;
pub mod settings;
mod turn;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use dara::{Colour, Move};
use tokio::sync::{broadcast, mpsc, oneshot};

use crate::protocol::{ClientMessage, Wire};
use crate::seat::{GameId, SeatHash};

pub use actor::{spawn, Seat};
pub use event::{EndReason, GameEvent, JOURNAL_FORMAT};
pub use played::Played;
pub use restore::restore;
pub use settings::{GameSettings, NewGame, Opponent};

/// A request to a game's actor.
#[derive(Debug)]
pub enum Cmd {
    /// A connection says who it is and what it last saw.
    Hello {
        /// The seat token offered, if any.
        seat: Option<String>,
        /// The last version the connection applied.
        since: Option<u64>,
        /// Where the welcome goes.
        reply: oneshot::Sender<Welcome>,
    },
    /// A connection (holding `seat`, or watching) asks for something.
    Act {
        /// The seat the connection holds.
        seat: Option<Colour>,
        /// What it asks.
        msg: ClientMessage,
        /// Where the answer goes.
        reply: oneshot::Sender<Reply>,
    },
    /// Someone not yet connected sits down at an open table ("play anyone" handed it to
    /// them, or they pressed "Sit down").
    Sit {
        /// The keyed hash of the token that will hold the seat.
        token: SeatHash,
        /// The colour they play, or why they cannot sit.
        reply: oneshot::Sender<Result<Colour, SitRefused>>,
    },
    /// A connection closed.
    Leave {
        /// The seat it held.
        seat: Option<Colour>,
    },
    /// The server needs the room: the game ends its life now.
    Forget,
    /// The computer's search finished.
    ComputerMoved {
        /// Which search this answers: a takeback makes every earlier search stale.
        ticket: u64,
        /// The chosen move.
        m: Move,
    },
    /// The computer's answer to the draw its opponent offered.
    ComputerAnsweredDraw {
        /// Which search this answers: any turn or takeback since makes it stale.
        ticket: u64,
        /// Whether the engine found the position drawn.
        agrees: bool,
    },
}

/// Why nobody can sit down at a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SitRefused {
    /// Someone else sat down first.
    Taken,
    /// It is no longer an open table: the person waiting left, or the game is over (or it was
    /// never an open table but a game by link or against the computer).
    Closed,
}

/// What a connection gets on saying hello.
#[derive(Debug)]
pub struct Welcome {
    /// The seat its token holds, if the token was good.
    pub seat: Option<Colour>,
    /// What to send it first: a snapshot, or exactly the events it missed.
    pub messages: Vec<Wire>,
    /// Every later event and presence change.
    pub events: broadcast::Receiver<Wire>,
}

/// The answer to one request.
#[derive(Debug)]
pub struct Reply {
    /// The message for the asking connection.
    pub text: Wire,
    /// The seat the connection holds from now on (a `join` changes it).
    pub seat: Option<Colour>,
}

/// A cheap way to reach a game's actor.
#[derive(Debug, Clone)]
pub struct GameHandle {
    /// The game's id.
    pub id: GameId,
    tx: mpsc::Sender<Cmd>,
    /// Set when the game stops here but goes on elsewhere (another node of the cluster took
    /// it): its sockets are told to reconnect (1012), not that it is gone.
    moved: Arc<AtomicBool>,
}

impl GameHandle {
    fn new(id: GameId, tx: mpsc::Sender<Cmd>) -> GameHandle {
        GameHandle { id, tx, moved: Arc::default() }
    }

    /// Stops the game here, keeping it where it is stored, for the node that has taken it.
    pub fn hand_over(&self) {
        self.moved.store(true, Ordering::Release);
        self.forget();
    }

    /// Whether the game stopped here to go on elsewhere.
    pub fn moved(&self) -> bool {
        self.moved.load(Ordering::Acquire)
    }

    /// Notes that the game stops here to go on elsewhere.
    pub(crate) fn set_moved(&self) {
        self.moved.store(true, Ordering::Release);
    }

    /// Says hello; `None` if the game has ended its life meanwhile.
    pub async fn hello(&self, seat: Option<String>, since: Option<u64>) -> Option<Welcome> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Cmd::Hello { seat, since, reply }).await.ok()?;
        rx.await.ok()
    }

    /// Asks for something; `None` if the game has gone.
    pub async fn act(&self, seat: Option<Colour>, msg: ClientMessage) -> Option<Reply> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Cmd::Act { seat, msg, reply }).await.ok()?;
        rx.await.ok()
    }

    /// Gives the free seat of an open table to `token`; `None` if the game has gone.
    pub async fn sit(&self, token: SeatHash) -> Option<Result<Colour, SitRefused>> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Cmd::Sit { token, reply }).await.ok()?;
        rx.await.ok()
    }

    /// Tells the game a connection closed (never waits: called as a socket winds down).
    pub fn leave(&self, seat: Option<Colour>) {
        let tx = self.tx.clone();
        tokio::spawn(async move {
            let _ = tx.send(Cmd::Leave { seat }).await;
        });
    }

    /// Tells the game to end its life (never waits; a full queue means it is busy, and it will
    /// be forgotten in its own time).
    pub fn forget(&self) {
        let _ = self.tx.try_send(Cmd::Forget);
    }

    async fn computer_moved(&self, ticket: u64, m: Move) {
        let _ = self.tx.send(Cmd::ComputerMoved { ticket, m }).await;
    }

    async fn computer_answered_draw(&self, ticket: u64, agrees: bool) {
        let _ = self.tx.send(Cmd::ComputerAnsweredDraw { ticket, agrees }).await;
    }
}
