//! A game's mailbox: every input of a live game, whoever sends it (a socket's request, the
//! lobby's seat, the computer's move, the server making room), is a letter to the game's one
//! owner (`owner::run`), which decides, keeps, then tells. What a letter is answered with is
//! defined here too, beside the letter that asks for it.

use dara::{Colour, Move};
use dara_table::wire::ClientMessage;
use dara_table::Ticket;
use tokio::sync::{broadcast, mpsc, oneshot};

use crate::protocol::Wire;
use crate::seat::SeatHash;

/// One input of a live game.
#[derive(Debug)]
pub(super) enum Letter {
    /// A connection says hello: who it is and what it has seen. Boxed, as are the other
    /// requests: a game's channel allocates its slots in blocks up front, so the letter's size
    /// is paid for every live game (see `size_of` below).
    Hello(Box<Hello>),
    /// A connection asks for something.
    Ask(Box<Asking>),
    /// Someone sits down at this open table before their page has connected.
    Sit(Box<Sitting>),
    /// A connection closed.
    Leave {
        /// The seat it held.
        seat: Option<Colour>,
        /// Its number in the game.
        number: u32,
    },
    /// The computer's search finished.
    ComputerMoved {
        /// Which search this answers: a takeback makes every earlier search stale.
        ticket: Ticket,
        /// The chosen move.
        m: Move,
    },
    /// The server needs the room: the game ends its life now.
    Forget,
}

// A letter's size times the channel's block of slots is every live game's; the requests are
// boxed to keep it small.
const _: () = assert!(std::mem::size_of::<Letter>() <= 24);

/// A connection's hello.
#[derive(Debug)]
pub(super) struct Hello {
    /// The seat token it offers, if any.
    pub(super) seat: Option<String>,
    /// The last event version it saw, if any.
    pub(super) since: Option<u64>,
    /// Where its welcome goes.
    pub(super) answer: oneshot::Sender<Welcome>,
}

/// A connection's request.
#[derive(Debug)]
pub(super) struct Asking {
    /// The seat it holds.
    pub(super) seat: Option<Colour>,
    /// Its number in the game.
    pub(super) number: u32,
    /// What it asks.
    pub(super) msg: ClientMessage,
    /// Where the answer goes.
    pub(super) answer: oneshot::Sender<Reply>,
}

/// A seat given from the lobby.
#[derive(Debug)]
pub(super) struct Sitting {
    /// The hash of the token the seat is sealed with.
    pub(super) token: SeatHash,
    /// Where the answer goes.
    pub(super) answer: oneshot::Sender<Result<Colour, SitRefused>>,
}

/// The sending end of a game's mailbox.
///
/// Unbounded, yet bounded by what may send: each connection waits for the answer to its
/// request before it reads the next (and says goodbye once), a seat from the lobby waits for
/// its answer, and the computer answers one search at a time. A bound would only add the cost
/// of its semaphore to every turn.
pub(super) type Sender = mpsc::UnboundedSender<Letter>;

/// The receiving end, which only the game's owner holds.
pub(super) type Receiver = mpsc::UnboundedReceiver<Letter>;

/// A new mailbox.
pub(super) fn mailbox() -> (Sender, Receiver) {
    mpsc::unbounded_channel()
}

/// Why nobody can sit down at a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SitRefused {
    /// Someone else sat down first.
    Taken,
    /// It is no longer an open table: the person waiting left, or the game is over (or it was
    /// never an open table but a game by link or against the computer).
    Closed,
    /// The seat could not be kept just now (saving is paused): nothing changed.
    Unkept,
}

/// What a connection gets on saying hello.
#[derive(Debug)]
pub struct Welcome {
    /// The seat its token holds, if the token was good.
    pub seat: Option<Colour>,
    /// The connection's number in the game, in order of arrival: it names the connection in
    /// its later requests, and a newer connection to the same seat may replace it (see
    /// [`super::GameHandle::replaced`]).
    pub number: u32,
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
