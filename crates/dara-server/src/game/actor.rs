//! One live game: its state, and its actor, which carries out what happens to the game by
//! itself (a flag falls, the computer answers, the game is forgotten). Connections' requests
//! are carried out by their own tasks under the game's lock (see [`GameHandle`]). The game's
//! other concerns live beside it: the turns (`turn`), who is present (`presence`), the offers (`offers`),
//! the ending and the record (`ending`), the journal and what the wire is told (`history`).

use std::net::IpAddr;
use std::sync::{Arc, Weak};
use std::time::SystemTime;

use dara::{ByColour, Colour, Position};
use dara_engine::level::Level;
use tokio::sync::{broadcast, mpsc};
use tokio::time::{sleep_until, Instant};

use super::clock::Clock;
use super::computer::Search;
use super::ending::Ending;
use super::event::GameEvent;
use super::played::Played;
use super::presence::Crowd;
use super::settings::GameSettings;
use super::{Cmd, GameHandle, OwnHandle};
use crate::config::Config;
use crate::date::record_date;
use crate::error::AppError;
use crate::protocol::{self, Answer, ClientMessage, Refusal, Wire};
use crate::seat::{GameId, SeatHash, SeatKey};
use crate::state::{AppState, Shared};
use crate::store::{Committed, GameRecord, Store, StoredSeats, Write};

/// Who sits in a seat.
#[derive(Debug, Clone)]
pub enum Seat {
    /// Nobody yet: the first to open the invite link (or sit at the table) takes it.
    Open,
    /// A person, known only by the keyed hash of the token they hold.
    Human(SeatHash),
    /// The engine.
    Computer(Level),
}

/// One live game, as its actor holds it.
pub(super) struct Game {
    pub(super) id: GameId,
    pub(super) shared: Weak<Shared>,
    pub(super) handle: OwnHandle,
    /// The client address this game counts against, which its rematch counts against too.
    pub(super) asked_from: Option<IpAddr>,
    /// The day the game began, for its record.
    pub(super) date: String,
    /// When it was created: a game whose second seat nobody takes is closed after a while.
    pub(super) created: Instant,
    pub(super) settings: GameSettings,
    pub(super) seats: ByColour<Seat>,
    pub(super) played: Played,
    pub(super) clock: Option<Clock>,
    pub(super) ending: Option<Ending>,
    pub(super) draw_offer: Option<Colour>,
    pub(super) rematch_offer: Option<Colour>,
    pub(super) rematch: Option<GameId>,
    /// Everything that happened: event `v` is `journal[v - 1]`.
    pub(super) journal: Vec<GameEvent>,
    pub(super) watchers: broadcast::Sender<Wire>,
    pub(super) crowd: Crowd,
    /// Each player's last accepted turn and its id, to answer a resend.
    pub(super) last_turn: ByColour<Option<(u64, dara::Move)>>,
    pub(super) lag: ByColour<std::time::Duration>,
    /// Takebacks so far (there is a limit).
    pub(super) takebacks: u32,
    /// The search the computer is running (or waiting to run) for this position, if any: at
    /// most one. Replacing or dropping it calls the search off.
    pub(super) thinking: Option<Thinking>,
    /// The computer's look at the draw its opponent offers, if it has not answered yet.
    pub(super) judging: Option<Thinking>,
    /// Numbers every search asked for, so that an answer to an older one is recognised.
    pub(super) tickets: u64,
    /// Where the game is kept, and how much of its journal is there already.
    pub(super) store: Store,
    pub(super) stored: usize,
    /// Whether the seats changed since they were stored.
    pub(super) seats_changed: bool,
    /// What everyone is to be told once the events behind it are stored.
    pub(super) outbox: Vec<Wire>,
    /// Hashes the tokens people offer.
    pub(super) key: SeatKey,
    /// After a restart, the clocks stay stopped until the side to move is back, or until this
    /// moment: the time the server was down is nobody's.
    pub(super) held_until: Option<Instant>,
    /// When the actor's timer is set to wake it: a request that brings something sooner wakes
    /// it to set the timer again.
    pub(super) alarm_at: Option<Instant>,
}

/// The computer's search for the position on the board.
pub(super) struct Thinking {
    /// Which search: its answer carries the same number.
    pub(super) ticket: u64,
    /// Calls it off when dropped.
    pub(super) search: Search,
}

/// Starts the actor of a new game with these seats and registers it (an open table is listed
/// in the lobby once the person waiting at it is connected). `asked_from` is the client
/// address the game counts against (see `address::requester`), if any. The game is sent to the
/// store at once; awaiting the [`Committed`] waits until it is there (anything the game
/// itself stores later is committed after it).
///
/// # Errors
/// When the server, or that address's share of it, is full, or the game is against the
/// computer and as many searches wait for it as may.
pub fn spawn(
    state: &AppState,
    settings: GameSettings,
    seats: ByColour<Seat>,
    asked_from: Option<IpAddr>,
) -> Result<(GameHandle, Committed), AppError> {
    let plays_computer = Colour::ALL.into_iter().any(|c| matches!(seats[c], Seat::Computer(_)));
    if let Some((waiting, retry_after)) = plays_computer.then(|| state.computer.busy()).flatten() {
        return Err(AppError::EngineBusy { waiting, retry_after });
    }
    let id = GameId::random();
    let (tx, rx) = mpsc::channel(64);
    let handle = GameHandle::new(id.clone(), tx);
    state.register(handle.clone(), asked_from)?;
    let game = Game::new(id, Arc::downgrade(state), &handle, settings, seats, asked_from)
        .kept(state.store.clone(), state.seat_key.clone());
    let begin = game.store.is_durable().then(|| Write::Begin {
        game: game.id.clone(),
        record: GameRecord::new(&game.settings, &game.date),
        seats: StoredSeats::new(&game.seats),
    });
    let committed = game.store.send(begin.into_iter().collect());
    handle.start(game, rx);
    Ok((handle, committed))
}

impl Game {
    pub(super) fn new(
        id: GameId,
        shared: Weak<Shared>,
        handle: &GameHandle,
        settings: GameSettings,
        seats: ByColour<Seat>,
        asked_from: Option<IpAddr>,
    ) -> Game {
        Game {
            id,
            shared,
            handle: handle.downgrade(),
            asked_from,
            date: record_date(SystemTime::now()),
            created: Instant::now(),
            clock: settings.clock.map(Clock::new),
            played: Played::new(Position::start(settings.rules)),
            settings,
            seats,
            ending: None,
            draw_offer: None,
            rematch_offer: None,
            rematch: None,
            journal: Vec::new(),
            // Small: a connection that falls this far behind is closed and catches up from the
            // journal (4000), and every slot is allocated up front, game by game.
            watchers: broadcast::channel(16).0,
            crowd: Crowd::new(Instant::now()),
            last_turn: ByColour::default(),
            lag: ByColour::default(),
            takebacks: 0,
            thinking: None,
            judging: None,
            tickets: 0,
            store: Store::Memory,
            stored: 0,
            seats_changed: false,
            outbox: Vec::new(),
            key: SeatKey::random(),
            held_until: None,
            alarm_at: None,
        }
    }

    /// The game, kept in `store`, its seats hashed with `key`.
    pub(super) fn kept(mut self, store: Store, key: SeatKey) -> Game {
        self.store = store;
        self.key = key;
        self
    }

    /// Called off before the game is let go, forgotten by the server, and erased from the store
    /// unless the server is stopping (it keeps its games for the next) or another node took the
    /// game: nothing is kept after a game that ended its life.
    async fn end_life(mut self) {
        self.thinking = None;
        self.judging = None;
        let stopping = self.shared.upgrade().map_or(true, |s| *s.stopping.borrow());
        if let Some(shared) = self.shared.upgrade() {
            shared.forget(&self.id);
        }
        if !stopping && !self.handle.moved() {
            if let Err(e) =
                self.store.send(vec![Write::Erase { game: self.id.clone() }]).wait().await
            {
                tracing::warn!(game = %self.id, "the forgotten game could not be erased: {e}");
            }
        }
        tracing::debug!(game = %self.id, "game forgotten");
    }

    /// The game's first moment on this node: its clock starts if both seats are taken, and
    /// the computer is asked if it is to move (or to answer a draw offered before a restart).
    pub(super) fn begin(&mut self) {
        self.start_if_ready(Instant::now());
        self.ask_computer();
        self.ask_computer_about_draw();
    }

    /// What could not be kept is told to nobody: the game stops here, and a restarted server
    /// (or, in a cluster, the node that now holds the game's lease) takes it up from what was
    /// kept.
    pub(super) fn stop_unkept(&mut self) {
        self.thinking = None;
        self.judging = None;
        if matches!(self.store, Store::Redis(_)) {
            self.handle.set_moved();
        }
        if let Some(shared) = self.shared.upgrade() {
            shared.forget(&self.id);
        }
    }

    /// What falls due at `now` by itself: the clocks held after a restart run, a flag falls,
    /// the number of watchers is told.
    pub(super) fn timed(&mut self, now: Instant) {
        self.release_clocks_if_due(now);
        self.check_flag(now);
        self.tell_presence_if_due(now);
    }

    /// Whether something now falls due before the actor's timer would wake it.
    pub(super) fn wakes_sooner(&self) -> bool {
        match (self.next_wake(), self.alarm_at) {
            (Some(wake), Some(alarm)) => wake < alarm,
            (wake, alarm) => wake.is_some() && alarm.is_none(),
        }
    }

    /// The server's state, while it runs: its settings are read there, not copied (this is
    /// asked after every command).
    pub(super) fn server(&self) -> Option<Arc<Shared>> {
        self.shared.upgrade()
    }

    /// How long a gone player may be away before the opponent may claim.
    pub(super) fn claim_after(&self) -> std::time::Duration {
        self.server().map(|s| s.config.claim_after).unwrap_or_default()
    }

    /// The next moment something happens by itself: a flag falls, or the game is forgotten.
    fn next_wake(&self) -> Option<Instant> {
        let server = self.server()?;
        let config = &server.config;
        let flag = self
            .clock
            .as_ref()
            .filter(|_| self.ending.is_none())
            .and_then(|c| c.flag_at())
            .map(|(_, at)| at);
        let finished = self.ending.as_ref().map(|e| e.at + config.finished_grace);
        let idle = self.crowd.empty_since().map(|t| t + config.idle_timeout);
        let unjoined = self.unjoined_until(config);
        let presence = self.crowd.presence_due();
        [flag, finished, idle, unjoined, presence, self.held_until].into_iter().flatten().min()
    }

    fn expired(&self, now: Instant) -> bool {
        let Some(server) = self.server() else { return true };
        let config = &server.config;
        let finished = self.ending.as_ref().is_some_and(|e| now >= e.at + config.finished_grace);
        let idle = self.crowd.empty_since().is_some_and(|t| now >= t + config.idle_timeout);
        let unjoined = self.unjoined_until(config).is_some_and(|t| now >= t);
        finished || idle || unjoined
    }

    /// While a seat is still free, when the game gives up waiting for its second player: so
    /// filling the server with games nobody joins takes an attacker continuous work.
    fn unjoined_until(&self, config: &Config) -> Option<Instant> {
        (self.free_seat().is_some() && self.ending.is_none())
            .then(|| self.created + config.unjoined_timeout)
    }

    /// Carries out what the actor was told (but `Forget`, which ends its loop).
    fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Forget => {}
            Cmd::ComputerMoved { ticket, m } => {
                // A takeback while the engine thought makes its answer stale, even if the
                // game has since come back to the same length.
                if self.thinking.as_ref().is_some_and(|t| t.ticket == ticket)
                    && self.ending.is_none()
                {
                    self.thinking = None;
                    let side = self.played.pos().side();
                    if let Err(e) = self.play(side, m, None) {
                        tracing::error!(game = %self.id, "the engine chose a refused move {m}: {e}");
                    }
                }
            }
            Cmd::ComputerAnsweredDraw { ticket, agrees } => {
                if self.judging.as_ref().is_some_and(|t| t.ticket == ticket) {
                    self.judging = None;
                    self.answer_draw(agrees);
                }
            }
        }
    }

    pub(super) fn act(
        &mut self,
        seat: Option<Colour>,
        msg: ClientMessage,
    ) -> (Answer, Option<Colour>) {
        if let Some(refused) = self.cannot_keep(&msg) {
            return (refused, seat);
        }
        let outcome = match msg {
            ClientMessage::Move { id, text, lag } => {
                if let Some((c, lag)) = seat.zip(lag) {
                    self.lag[c] = protocol::lag(lag);
                }
                return (self.turn(seat, id, &text), seat);
            }
            ClientMessage::Join => return self.join(seat),
            ClientMessage::Ping { lag } => {
                if let Some(c) = seat {
                    self.lag[c] = protocol::lag(lag);
                }
                return (Answer::Pong, seat);
            }
            ClientMessage::Hello { .. } => Err(Refusal::HelloAgain),
            ClientMessage::Resign => self.resign(seat),
            ClientMessage::DrawOffer => self.offer_draw(seat),
            ClientMessage::DrawDecline => self.decline_draw(seat),
            ClientMessage::DrawWithdraw => self.withdraw_draw(seat),
            ClientMessage::Takeback => self.takeback(seat),
            ClientMessage::Rematch => self.ask_rematch(seat),
            ClientMessage::Claim => self.claim(seat),
        };
        let answer = match outcome {
            Ok(()) => Answer::Ok,
            Err(refusal) => Answer::Error(refusal.into()),
        };
        (answer, seat)
    }

    /// The seat of a player, or why a watcher may not do this.
    pub(super) fn player(&self, seat: Option<Colour>) -> Result<Colour, Refusal> {
        seat.ok_or(Refusal::Watching)
    }

    /// Nothing, or why the game is not going on.
    pub(super) fn ongoing(&self) -> Result<(), Refusal> {
        match &self.ending {
            Some(_) => Err(Refusal::GameOver),
            None => Ok(()),
        }
    }

    pub(super) fn free_seat(&self) -> Option<Colour> {
        Colour::ALL.into_iter().find(|c| matches!(self.seats[*c], Seat::Open))
    }

    pub(super) fn both_seated(&self) -> bool {
        self.free_seat().is_none()
    }

    pub(super) fn against_computer(&self, colour: Colour) -> bool {
        matches!(self.seats[!colour], Seat::Computer(_))
    }

    /// Starts the clock of the side to move once both seats are filled (and, after a restart,
    /// once the clocks are no longer held).
    pub(super) fn start_if_ready(&mut self, now: Instant) {
        if self.ending.is_none() && self.both_seated() && self.held_until.is_none() {
            let side = self.played.pos().side();
            if let Some(clock) = self.clock.as_mut() {
                if clock.running().is_none() {
                    clock.start(side, now);
                }
            }
        }
    }
}

/// The game's actor: what happens to it by itself, each on a timer set for the next such moment,
/// and the computer's answers, until the game ends its life here.
pub(super) async fn run(handle: GameHandle, mut rx: mpsc::Receiver<Cmd>) {
    let mut told = None;
    // One timer for the game's life, set again only when the next wake changes: a new one
    // for each wake would touch the timer wheel twice (set, then cancelled).
    let mut alarm = Box::pin(sleep_until(Instant::now()));
    let mut alarm_at = None;
    loop {
        let wake = {
            let mut cell = handle.live.game.lock().await;
            // A request found the game could not be kept, and stopped it.
            let Some(game) = cell.as_mut() else { return };
            let forget = match told.take() {
                Some(Cmd::Forget) => true,
                Some(cmd) => {
                    game.handle(cmd);
                    false
                }
                None => false,
            };
            if !super::settle_in(&mut cell).await {
                return;
            }
            let game = cell.as_mut().expect("a settled game stays");
            if forget || game.expired(Instant::now()) {
                let game = cell.take().expect("the game is here");
                drop(cell);
                return game.end_life().await;
            }
            game.alarm_at = game.next_wake();
            game.alarm_at
        };
        if let Some(at) = wake.filter(|at| alarm_at != Some(*at)) {
            alarm.as_mut().reset(at);
            alarm_at = Some(at);
        }
        tokio::select! {
            // The handle the game holds keeps the channel open while the game lives.
            cmd = rx.recv() => told = Some(cmd.unwrap_or(Cmd::Forget)),
            () = alarm.as_mut(), if wake.is_some() => alarm_at = None,
            () = handle.live.sooner.notified() => {}
        }
    }
}
