//! How connections and the server reach a live game: a cheap [`GameHandle`] that posts letters
//! to the game's mailbox and waits for their answers, and the game's own weak handle to itself.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Weak};

use dara::{Colour, Move};
use dara_table::wire::ClientMessage;
use dara_table::Ticket;
use tokio::sync::oneshot;
use tokio::time::Instant;

use super::mailbox::{
    Asking, Berserking, Greeting, Hello, Letter, Sender, SitRefused, Sitting, Unhalved,
};
use crate::outlet::Outlet;
use crate::protocol::Wire;
use crate::seat::{GameId, SeatHash};

/// One life of a game on this node, from its start or taking up to its end here. A node of a
/// cluster may take a game up again while the life it gave up still winds down, so the book of
/// live games knows each entry by its life as well as its id: what one life does there (to be
/// forgotten, to note its end) never touches another's entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Life(u64);

impl Life {
    fn next() -> Life {
        static LIVES: AtomicU64 = AtomicU64::new(0);
        Life(LIVES.fetch_add(1, Ordering::Relaxed))
    }
}

impl std::fmt::Display for Life {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A cheap way to reach a live game: every request is a letter to the game's owner, which
/// carries it out, keeps what changed, then answers and tells everyone.
#[derive(Debug, Clone)]
pub struct GameHandle {
    /// The game's id.
    pub id: GameId,
    live: Arc<Live>,
}

/// What the handles of one life of a game share: its mailbox, and whether it moved, which its
/// connections read without asking the game.
struct Live {
    /// Which life of the game this is.
    life: Life,
    /// The game's mailbox. While any handle lives it stays open; the owner holds none, so a
    /// game nobody can reach any more (no socket, and not in the book) ends its life.
    mailbox: Sender,
    /// Set when the game stops here but goes on elsewhere (another node of the cluster took
    /// it): its sockets are told to reconnect (1012), not that it is gone. Shared with the
    /// game's own handle, which reads it for every letter without upgrading its weak `Live`.
    moved: Moved,
}

impl std::fmt::Debug for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Live { life, moved, .. } = self;
        f.debug_struct("Live").field("life", life).field("moved", moved).finish_non_exhaustive()
    }
}

/// Whether a life of a game stopped here to go on elsewhere: one flag, read by its handles and
/// by the game itself.
#[derive(Debug, Clone, Default)]
struct Moved(Arc<AtomicBool>);

impl Moved {
    fn is(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }

    fn set(&self) {
        self.0.store(true, Ordering::Release);
    }
}

impl GameHandle {
    /// The handle of a new life of game `id`, whose owner reads `mailbox`'s other end.
    pub(super) fn new(id: GameId, mailbox: Sender) -> GameHandle {
        let live = Live { life: Life::next(), mailbox, moved: Moved::default() };
        GameHandle { id, live: Arc::new(live) }
    }

    /// Which life of the game this handle reaches.
    pub fn life(&self) -> Life {
        self.live.life
    }

    /// Stops the game here, keeping it where it is stored, for the node that has taken it:
    /// from now on it answers nobody, and its owner ends its life here. (The server forgets it
    /// at once too, see `Shared::give_up`.)
    pub fn hand_over(&self) {
        self.set_moved();
        self.forget();
    }

    /// Whether the game stopped here to go on elsewhere.
    pub fn moved(&self) -> bool {
        self.live.moved.is()
    }

    /// Notes that the game stops here to go on elsewhere.
    pub(crate) fn set_moved(&self) {
        self.live.moved.set();
    }

    /// Whether the game's owner has ended its life here: its mailbox is closed.
    pub fn ended(&self) -> bool {
        self.live.mailbox.is_closed()
    }

    /// Says hello for a connection written through `outlet`, which is sent what it is to see
    /// first and from then on everything told; `None` if the game has ended its life meanwhile.
    pub async fn hello(
        &self,
        seat: Option<String>,
        since: Option<u64>,
        outlet: Outlet,
    ) -> Option<Greeting> {
        self.ask(|answer| Letter::Hello(Box::new(Hello { seat, since, outlet, answer }))).await
    }

    /// Asks for something on behalf of connection `number`, which hears the answer on its
    /// outlet, after `outlet::Outlet::asked` (read at `read_at`, for a turn); false if the game
    /// has gone (or moved).
    pub fn act(&self, number: u32, msg: ClientMessage, read_at: Option<Instant>) -> bool {
        if self.moved() {
            return false;
        }
        let asking = Asking { number, msg, read_at };
        self.live.mailbox.send(Letter::Ask(Box::new(asking))).is_ok()
    }

    /// Gives the free seat of an open table to `token`; `None` if the game has gone.
    pub async fn sit(&self, token: SeatHash) -> Option<Result<Colour, SitRefused>> {
        self.ask(|answer| Letter::Sit(Box::new(Sitting { token, answer }))).await
    }

    /// Halves `side`'s clock (it went berserk in the game's arena), kept and told to everyone
    /// before the answer; `None` if the game has gone.
    pub async fn berserk(&self, side: Colour) -> Option<Result<(), Unhalved>> {
        self.ask(|answer| Letter::Berserk(Box::new(Berserking { side, answer }))).await
    }

    /// Tells the game connection `number` closed (never waits: called as a socket winds
    /// down).
    pub fn leave(&self, number: u32) {
        let _ = self.live.mailbox.send(Letter::Leave { number });
    }

    /// Tells the game to end its life (never waits).
    pub fn forget(&self) {
        let _ = self.live.mailbox.send(Letter::Forget);
    }

    /// Posts the letter `write` makes and waits for its answer; `None` if the game has ended
    /// its life here, or has moved (what a life handed over would answer may be older than the
    /// game going on elsewhere, so it answers nothing, and the socket is told to reconnect), or
    /// stops now because what changed will not be stored.
    async fn ask<T>(&self, write: impl FnOnce(oneshot::Sender<T>) -> Letter) -> Option<T> {
        if self.moved() {
            return None;
        }
        let (answer, answered) = oneshot::channel();
        self.live.mailbox.send(write(answer)).ok()?;
        answered.await.ok()
    }

    /// The handle the game itself holds.
    pub(super) fn downgrade(&self) -> OwnHandle {
        OwnHandle {
            live: Arc::downgrade(&self.live),
            life: self.live.life,
            moved: self.live.moved.clone(),
        }
    }
}

/// The handle a game holds to itself: a weak one, or the game would keep its own mailbox open,
/// and a runtime that stops without ending the game's life (a crash, in the tests) would never
/// let go of it, nor of its store.
#[derive(Debug, Clone)]
pub(super) struct OwnHandle {
    live: Weak<Live>,
    life: Life,
    /// Whether the game moved (see `Live::moved`).
    moved: Moved,
}

impl OwnHandle {
    /// Which life of the game this is.
    pub(super) fn life(&self) -> Life {
        self.life
    }

    /// Whether the game stopped here to go on elsewhere.
    pub(super) fn moved(&self) -> bool {
        self.moved.is()
    }

    /// Notes that the game stops here to go on elsewhere.
    pub(super) fn set_moved(&self) {
        self.moved.set();
    }

    /// Posts the computer's place in the queue to the game, if it still lives.
    pub(super) fn place(&self, wire: Wire) {
        if let Some(live) = self.live.upgrade() {
            let _ = live.mailbox.send(Letter::Place(Box::new(wire)));
        }
    }

    /// Posts the computer's move to the game, if it still lives.
    pub(super) fn computer_moved(&self, ticket: Ticket, m: Move) {
        if let Some(live) = self.live.upgrade() {
            let _ = live.mailbox.send(Letter::ComputerMoved { ticket, m });
        }
    }
}
