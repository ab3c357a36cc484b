//! How connections and the server reach a live game: a cheap [`GameHandle`], and the game's
//! own weak handle to itself.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Weak};

use dara::{ByColour, Colour, Move};
use dara_table::Ticket;
use tokio::sync::{broadcast, mpsc, Mutex, Notify};

use super::actor::{self, Game};
use crate::protocol::{ClientMessage, Wire, WireAnswer};
use crate::seat::{GameId, SeatHash};

/// What a game's actor is told: what happens to the game by itself, not at a connection's
/// request (those are carried out by the connection's own task, see [`GameHandle`]).
#[derive(Debug)]
pub enum Cmd {
    /// The server needs the room: the game ends its life now.
    Forget,
    /// The computer's search finished.
    ComputerMoved {
        /// Which search this answers: a takeback makes every earlier search stale.
        ticket: Ticket,
        /// The chosen move.
        m: Move,
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
    /// [`GameHandle::replaced`]).
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

/// A cheap way to reach a live game. A connection's request is carried out by the
/// connection's own task, holding the game's lock: a turn is played, stored and told without
/// waking another task for it (that hop, with its channel and reply, cost about 6% of the
/// server's CPU a turn, measured with `scripts/paired-loadtest`). The
/// game's actor (`actor::run`) keeps what happens by itself: the timers, the computer's
/// answers, the end of the game's life.
#[derive(Debug, Clone)]
pub struct GameHandle {
    /// The game's id.
    pub id: GameId,
    pub(super) live: Arc<Live>,
}

/// A game while it lives on this node, shared by its handles.
pub(super) struct Live {
    /// Which life of the game this is.
    life: Life,
    /// The game; `None` once it has ended its life here. The lock is held across the store's
    /// commit: one request at a time is carried out, stored and told, in the order they took
    /// the lock, as the actor's channel used to order them.
    pub(super) game: Mutex<Option<Game>>,
    /// What the actor is told.
    tx: mpsc::Sender<Cmd>,
    /// Wakes the actor when a request brought a timer sooner than the actor's is set for.
    pub(super) sooner: Notify,
    /// Set when the game stops here but goes on elsewhere (another node of the cluster took
    /// it): its sockets are told to reconnect (1012), not that it is gone.
    moved: AtomicBool,
    /// For each seat, the lowest connection number still let through: the connections below
    /// it were replaced by newer ones to the same seat (see `crowd::SOCKETS_PER_SEAT`).
    replaced_below: ByColour<AtomicU32>,
    /// Wakes the connections when a seat's connection is replaced.
    replacing: Notify,
}

impl Live {
    fn moved(&self) -> bool {
        self.moved.load(Ordering::Acquire)
    }

    fn set_moved(&self) {
        self.moved.store(true, Ordering::Release);
    }
}

/// How a change to a live game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Settled {
    /// Stored, and everyone told.
    Kept,
    /// The store could not keep it now (a full disk): the game went back to what was kept,
    /// nobody was told of it, and it goes on; what was asked is refused.
    Paused,
    /// The store will not keep it (Redis gone, or another node took the game): the game stops
    /// here and is taken out of its cell, and nobody is told of it.
    Lost,
}

/// What every change to a live game ends with, a request's or the actor's: whatever fell due
/// meanwhile, then the store's commit and the telling of everyone.
pub(super) async fn settle_in(cell: &mut Option<Game>) -> Settled {
    let Some(game) = cell.as_mut() else { return Settled::Lost };
    game.timed(tokio::time::Instant::now());
    let settled = game.settle().await;
    if settled == Settled::Lost {
        game.stop_unkept();
        *cell = None;
    }
    settled
}

impl std::fmt::Debug for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Live { life, moved, .. } = self;
        f.debug_struct("Live").field("life", life).field("moved", moved).finish_non_exhaustive()
    }
}

impl GameHandle {
    pub(super) fn new(id: GameId, tx: mpsc::Sender<Cmd>) -> GameHandle {
        let live = Live {
            life: Life::next(),
            game: Mutex::new(None),
            tx,
            sooner: Notify::new(),
            moved: false.into(),
            replaced_below: ByColour::default(),
            replacing: Notify::new(),
        };
        GameHandle { id, live: Arc::new(live) }
    }

    /// Starts the game (its clock, the computer's search) and its actor, and puts it behind
    /// its handle, before any request can reach it. (The game holds a handle of its own, so
    /// the two are made apart.)
    pub(super) fn start(&self, mut game: Game, rx: mpsc::Receiver<Cmd>) {
        game.begin();
        *self.live.game.try_lock().expect("nobody else has the new game's handle yet") = Some(game);
        tokio::spawn(actor::run(self.clone(), rx));
    }

    /// Which life of the game this handle reaches.
    pub fn life(&self) -> Life {
        self.live.life
    }

    /// Stops the game here, keeping it where it is stored, for the node that has taken it:
    /// from now on it answers nobody (see [`GameHandle::request`]), and its actor ends its life
    /// here. (The server forgets it at once too, see `Shared::give_up`.)
    pub fn hand_over(&self) {
        self.set_moved();
        self.forget();
    }

    /// Whether the game stopped here to go on elsewhere.
    pub fn moved(&self) -> bool {
        self.live.moved()
    }

    /// Notes that the game stops here to go on elsewhere.
    pub(crate) fn set_moved(&self) {
        self.live.set_moved();
    }

    /// Says hello; `None` if the game has ended its life meanwhile.
    pub async fn hello(&self, seat: Option<String>, since: Option<u64>) -> Option<Welcome> {
        let again = seat.clone();
        self.request(
            |game| game.hello(seat.as_deref(), since),
            // What was kept, as it is now that the game went back to it.
            |game| game.hello(again.as_deref(), since),
        )
        .await
    }

    /// Waits until the connection `number`, which holds `colour`'s seat, is replaced by newer
    /// connections to the same seat (never, while it is not).
    pub async fn replaced(&self, colour: Colour, number: u32) {
        loop {
            let replacing = self.live.replacing.notified();
            tokio::pin!(replacing);
            // Listening before looking: a replacement made in between still wakes this.
            replacing.as_mut().enable();
            if number < self.live.replaced_below[colour].load(Ordering::Acquire) {
                return;
            }
            replacing.await;
        }
    }

    /// Asks for something on behalf of connection `number`; `None` if the game has gone.
    pub async fn act(
        &self,
        seat: Option<Colour>,
        number: u32,
        msg: ClientMessage,
    ) -> Option<Reply> {
        let turn = match msg {
            ClientMessage::Move { id, .. } => Some(id),
            _ => None,
        };
        self.request(
            |game| {
                let (answer, seat) = game.act(seat, number, msg);
                Reply { text: answer.wire(), seat }
            },
            |game| Reply { text: game.unkept(turn).wire(), seat },
        )
        .await
    }

    /// Gives the free seat of an open table to `token`; `None` if the game has gone.
    pub async fn sit(&self, token: SeatHash) -> Option<Result<Colour, SitRefused>> {
        self.request(|game| game.sit(token), |_| Err(SitRefused::Unkept)).await
    }

    /// Tells the game connection `number` closed (never waits: called as a socket winds
    /// down).
    pub fn leave(&self, seat: Option<Colour>, number: u32) {
        let handle = self.clone();
        tokio::spawn(async move { handle.request(|game| game.leave(seat, number), |_| ()).await });
    }

    /// Tells the game to end its life (never waits; a full queue means it is busy, and it will
    /// be forgotten in its own time).
    pub fn forget(&self) {
        let _ = self.live.tx.try_send(Cmd::Forget);
    }

    /// Carries out `request` on the game, then whatever fell due meanwhile; stores what
    /// changed, tells everyone, and answers. If the store cannot keep it now, the game goes
    /// back to what was kept and the answer is `unkept`'s instead. `None` if the game has ended
    /// its life here, or stops now because what changed will not be stored (nobody is told of
    /// it then).
    async fn request<T>(
        &self,
        request: impl FnOnce(&mut Game) -> T,
        unkept: impl FnOnce(&mut Game) -> T,
    ) -> Option<T> {
        let mut cell = self.live.game.lock().await;
        // A life handed over is not the game any more: what it would answer may be older than
        // the game going on elsewhere (or in a later life here), so it answers nothing, and
        // the socket is told to reconnect.
        if self.live.moved() {
            return None;
        }
        let game = cell.as_mut()?;
        let mut answer = request(game);
        match settle_in(&mut cell).await {
            Settled::Kept => {}
            Settled::Paused => answer = unkept(cell.as_mut()?),
            Settled::Lost => {
                // Its actor has nothing left to keep.
                self.live.sooner.notify_one();
                return None;
            }
        }
        if cell.as_ref().is_some_and(Game::wakes_sooner) {
            self.live.sooner.notify_one();
        }
        Some(answer)
    }

    /// The handle the game itself holds.
    pub(super) fn downgrade(&self) -> OwnHandle {
        OwnHandle { live: Arc::downgrade(&self.live), life: self.live.life }
    }
}

/// The handle a game holds to itself: a weak one, or the game would keep itself alive through
/// its own cell, and a runtime that stops without ending the game's life (a crash, in the
/// tests) would never let go of it, nor of its store.
#[derive(Debug, Clone)]
pub(super) struct OwnHandle {
    live: Weak<Live>,
    life: Life,
}

impl OwnHandle {
    /// Which life of the game this is.
    pub(super) fn life(&self) -> Life {
        self.life
    }

    /// Whether the game stopped here to go on elsewhere.
    pub(super) fn moved(&self) -> bool {
        self.live.upgrade().is_some_and(|live| live.moved())
    }

    /// Notes that the game stops here to go on elsewhere.
    pub(super) fn set_moved(&self) {
        if let Some(live) = self.live.upgrade() {
            live.set_moved();
        }
    }

    /// Closes `colour`'s connections numbered below `number`: newer ones replaced them.
    pub(super) fn replace_below(&self, colour: Colour, number: u32) {
        if let Some(live) = self.live.upgrade() {
            live.replaced_below[colour].fetch_max(number, Ordering::AcqRel);
            live.replacing.notify_waiters();
        }
    }

    /// Tells the actor what it is to carry out, if the game still lives.
    pub(super) async fn tell(&self, cmd: Cmd) {
        let Some(tx) = self.live.upgrade().map(|live| live.tx.clone()) else { return };
        let _ = tx.send(cmd).await;
    }

    pub(super) async fn computer_moved(&self, ticket: Ticket, m: Move) {
        self.tell(Cmd::ComputerMoved { ticket, m }).await;
    }
}
