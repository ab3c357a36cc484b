//! A game's mailbox: every input of a live game, whoever sends it (a socket's request, the
//! lobby's seat, the computer's move, the server making room), is a letter to the game's one
//! owner (`owner::run`), which decides, keeps, then tells. A socket's request is answered on
//! the socket itself (through its outlet, see `crate::outlet`), with what it caused told to
//! everyone in the same write; a hello and a seat from the lobby are answered here, beside the
//! letter that asks.

use dara::{Colour, Move};
use dara_table::wire::ClientMessage;
use dara_table::Ticket;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use crate::outlet::Outlet;
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
    /// The game's arena halves a side's clock: it went berserk.
    Berserk(Box<Berserking>),
    /// A connection closed.
    Leave {
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
    /// The computer's search tells its place in the queue (how many wait ahead of it).
    Place(Box<Wire>),
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
    /// Where it is written: what it is to be sent first (a snapshot, or exactly the events
    /// it missed), then everything told and every answer.
    pub(super) outlet: Outlet,
    /// Where the connection hears who it is.
    pub(super) answer: oneshot::Sender<Greeting>,
}

/// A connection's request, answered on its outlet.
#[derive(Debug)]
pub(super) struct Asking {
    /// Its number in the game.
    pub(super) number: u32,
    /// What it asks.
    pub(super) msg: ClientMessage,
    /// When a turn was read from the socket, for the time a turn takes (`/metrics`).
    pub(super) read_at: Option<Instant>,
}

/// A seat given from the lobby.
#[derive(Debug)]
pub(super) struct Sitting {
    /// The hash of the token the seat is sealed with.
    pub(super) token: SeatHash,
    /// Where the answer goes.
    pub(super) answer: oneshot::Sender<Result<Colour, SitRefused>>,
}

/// A side going berserk, as its arena asks.
#[derive(Debug)]
pub(super) struct Berserking {
    /// The side whose clock is halved.
    pub(super) side: Colour,
    /// Where the answer goes.
    pub(super) answer: oneshot::Sender<Result<(), Unhalved>>,
}

/// Why a side's clock was not halved: the game is as it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unhalved {
    /// The table refused (the side has moved, went berserk already, the game is over).
    Refused(dara_table::BerserkRefusal),
    /// The halving could not be kept just now (saving is paused).
    Unkept,
}

/// The sending end of a game's mailbox.
///
/// Unbounded, yet bounded by what may send: a connection reads no further request while
/// `outlet::MOST_ASKED` of its own wait for their answers (and says goodbye once), a seat from
/// the lobby waits for its answer, and the computer answers one search at a time and tells its
/// place a few times a second. A bound would only add the cost of its semaphore to every turn.
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

/// What a connection hears on saying hello (its first messages are already in its outlet).
#[derive(Debug, Clone, Copy)]
pub struct Greeting {
    /// The seat its token holds, if the token was good.
    pub seat: Option<Colour>,
    /// The connection's number in the game, in order of arrival: it names the connection in
    /// its later requests.
    pub number: u32,
}
