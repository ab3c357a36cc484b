//! One live game in the server: the table (`dara_table`, where every rule of the game is
//! decided) and the shell around it: its connections, its store, its timers, the engine's
//! searches. And its actor, which carries out what happens to the game by itself (a flag
//! falls, the computer answers, the game is forgotten). Connections' requests are carried out
//! by their own tasks under the game's lock (see [`GameHandle`]). The shell's other concerns
//! live beside it: what the table's outcomes become (`outcome`), who is present (`presence`),
//! the journal and what the wire is told (`history`), the store (`keeping`).

use std::net::IpAddr;
use std::sync::{Arc, Weak};
use std::time::SystemTime;

use dara::{ByColour, Colour};
use dara_table::wire::Asking;
use dara_table::{Ask, Input, Moment, Patience, Table, Ticket};
use tokio::sync::{broadcast, mpsc};
use tokio::time::{sleep_until, Instant};

use super::computer::Search;
use super::crowd::Crowd;
use super::handle::{Cmd, GameHandle, OwnHandle};
use super::host::Host;
use super::settings::GameSettings;
use crate::config::Config;
use crate::date::record_date;
use crate::error::AppError;
use crate::protocol::{Answer, ClientMessage, Refusal, Wire};
use crate::seat::{new_game_id, GameId, Seat, SeatHash, SeatKey};
use crate::store::{Committed, GameRecord, Store, StoredSeats, Write};

/// One live game, as its actor holds it.
pub(super) struct Game {
    pub(super) id: GameId,
    /// The server that holds the game, while it runs.
    pub(super) host: Weak<dyn Host>,
    pub(super) handle: OwnHandle,
    /// The game itself: seats, turns, clocks, offers, result.
    pub(super) table: Table<SeatHash>,
    /// The table's time is counted from here (see [`Game::now`]).
    origin: Instant,
    /// The client address this game counts against, which its rematch counts against too.
    pub(super) asked_from: Option<IpAddr>,
    /// The day the game began, for its record.
    pub(super) date: String,
    /// When it was created (or taken up again): a game whose second seat nobody takes is
    /// closed after a while.
    pub(super) created: Instant,
    pub(super) watchers: broadcast::Sender<Wire>,
    pub(super) crowd: Crowd,
    /// The computer's search the table waits for, if any. Dropping it calls the search off.
    pub(super) thinking: Option<(Ticket, Search)>,
    /// Where the game is kept, and how much of its journal is there already.
    pub(super) store: Store,
    pub(super) stored: usize,
    /// Whether the seats changed since they were stored.
    pub(super) seats_changed: bool,
    /// What everyone is to be told once the events behind it are stored.
    pub(super) outbox: Vec<Wire>,
    /// Hashes the tokens people offer.
    pub(super) key: SeatKey,
    /// When the actor's timer is set to wake it: a request that brings something sooner wakes
    /// it to set the timer again.
    pub(super) alarm_at: Option<Instant>,
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
pub fn spawn<H: Host>(
    host: &Arc<H>,
    settings: GameSettings,
    seats: ByColour<Seat>,
    asked_from: Option<IpAddr>,
) -> Result<(GameHandle, Committed), AppError> {
    let weak: Weak<H> = Arc::downgrade(host);
    let weak: Weak<dyn Host> = weak;
    spawn_in(&**host, weak, settings, seats, asked_from)
}

/// [`spawn`], for a `host` already seen as the games see it (a rematch's).
pub(super) fn spawn_in(
    host: &dyn Host,
    weak: Weak<dyn Host>,
    settings: GameSettings,
    seats: ByColour<Seat>,
    asked_from: Option<IpAddr>,
) -> Result<(GameHandle, Committed), AppError> {
    let plays_computer = Colour::ALL.into_iter().any(|c| seats[c].computer().is_some());
    if let Some((waiting, retry_after)) = plays_computer.then(|| host.computer().busy()).flatten() {
        return Err(AppError::EngineBusy { waiting, retry_after });
    }
    let id = new_game_id();
    let (tx, rx) = mpsc::channel(64);
    let handle = GameHandle::new(id.clone(), tx);
    host.register(handle.clone(), asked_from)?;
    let table = Table::new(settings, seats, patience(host.config()));
    let game = Game::new(id, weak, &handle, table, asked_from)
        .kept(host.store().for_new_game(), host.seat_key().clone());
    let begin = game.store.is_durable().then(|| Write::Begin {
        game: game.id.clone(),
        record: GameRecord::new(game.table.settings(), &game.date),
        seats: StoredSeats::new(game.table.seats()),
    });
    let committed = game.store.send(begin.into_iter().collect());
    handle.start(game, rx);
    Ok((handle, committed))
}

/// How patient the server's tables are with people.
pub(super) fn patience(config: &Config) -> Patience {
    config.patience
}

impl Game {
    pub(super) fn new(
        id: GameId,
        host: Weak<dyn Host>,
        handle: &GameHandle,
        table: Table<SeatHash>,
        asked_from: Option<IpAddr>,
    ) -> Game {
        let now = Instant::now();
        Game {
            id,
            host,
            handle: handle.downgrade(),
            table,
            origin: now,
            asked_from,
            date: record_date(SystemTime::now()),
            created: now,
            // Small: a connection that falls this far behind is closed and catches up from the
            // journal (4000), and every slot is allocated up front, game by game.
            watchers: broadcast::channel(16).0,
            crowd: Crowd::new(now),
            thinking: None,
            store: Store::Memory,
            stored: 0,
            seats_changed: false,
            outbox: Vec::new(),
            key: SeatKey::random(),
            alarm_at: None,
        }
    }

    /// The game, kept in `store`, its seats hashed with `key`.
    pub(super) fn kept(mut self, store: Store, key: SeatKey) -> Game {
        self.store = store;
        self.key = key;
        self
    }

    /// `at` on the table's time: counted from the game's own first moment here, so that no
    /// two games (nor two tests on a paused clock) share an origin.
    pub(super) fn moment(&self, at: Instant) -> Moment {
        Moment::from_origin(at.saturating_duration_since(self.origin))
    }

    /// The table's moment `m` on the server's clock.
    pub(super) fn instant(&self, m: Moment) -> Instant {
        self.origin + m.since_origin()
    }

    /// Now, on the table's time.
    pub(super) fn now(&self) -> Moment {
        self.moment(Instant::now())
    }

    /// Called off before the game is let go, forgotten by the server, and erased from the store
    /// unless the server is stopping (it keeps its games for the next) or another node took the
    /// game: nothing is kept after a game that ended its life.
    async fn end_life(mut self) {
        self.thinking = None;
        let stopping = self.host.upgrade().map_or(true, |host| host.stopping());
        let counted =
            self.host.upgrade().and_then(|host| host.forget(&self.id, self.handle.life()));
        if !stopping && !self.handle.moved() {
            match self.store.send(vec![Write::Erase { game: self.id.clone() }]).wait().await {
                Ok(()) => {
                    if let Some((host, counted)) = self.host.upgrade().zip(counted) {
                        host.erased(counted);
                    }
                }
                Err(e) => {
                    tracing::warn!(game = %self.id, "the forgotten game could not be erased: {e}");
                }
            }
        }
        tracing::debug!(game = %self.id, "game forgotten");
    }

    /// The game's first moment on this node: its clock starts if both seats are taken, and
    /// the computer is asked if it is to move.
    pub(super) fn begin(&mut self) {
        let outcome = self.table.begin(self.now());
        let _ = self.carry_out(outcome);
    }

    /// What could not be kept is told to nobody: the game stops here, and a restarted server
    /// (or, in a cluster, the node that now holds the game's lease) takes it up from what was
    /// kept.
    pub(super) fn stop_unkept(&mut self) {
        self.thinking = None;
        if matches!(self.store, Store::Redis(_)) {
            self.handle.set_moved();
        }
        if let Some(host) = self.host.upgrade() {
            host.forget(&self.id, self.handle.life());
        }
    }

    /// What falls due at `now` by itself: the clocks held after a restart run, a flag falls,
    /// the number of watchers is told.
    pub(super) fn timed(&mut self, now: Instant) {
        if self.table.next_deadline().is_some_and(|at| self.instant(at) <= now) {
            let outcome = self.table.handle(self.moment(now), Input::Time);
            let _ = self.carry_out(outcome);
        }
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
    pub(super) fn server(&self) -> Option<Arc<dyn Host>> {
        self.host.upgrade()
    }

    /// The next moment something happens by itself: the table's (a flag falls, held clocks
    /// run), or the shell's (the game is forgotten, the watchers are told).
    fn next_wake(&self) -> Option<Instant> {
        let server = self.server()?;
        let config = server.config();
        let table = self.table.next_deadline().map(|at| self.instant(at));
        let finished = self.table.ending().map(|e| self.instant(e.at) + config.finished_grace);
        let idle = self.crowd.empty_since().map(|t| t + config.idle_timeout);
        let unjoined = self.unjoined_until(config);
        let presence = self.crowd.presence_due();
        [table, finished, idle, unjoined, presence].into_iter().flatten().min()
    }

    fn expired(&self, now: Instant) -> bool {
        let Some(server) = self.server() else { return true };
        let config = server.config();
        let finished =
            self.table.ending().is_some_and(|e| now >= self.instant(e.at) + config.finished_grace);
        let idle = self.crowd.empty_since().is_some_and(|t| now >= t + config.idle_timeout);
        let unjoined = self.unjoined_until(config).is_some_and(|t| now >= t);
        finished || idle || unjoined
    }

    /// While a seat is still free, when the game gives up waiting for its second player: so
    /// filling the server with games nobody joins takes an attacker continuous work.
    fn unjoined_until(&self, config: &Config) -> Option<Instant> {
        (self.table.free_seat().is_some() && self.table.ending().is_none())
            .then(|| self.created + config.unjoined_timeout)
    }

    /// Carries out what the actor was told (but `Forget`, which ends its loop).
    fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Forget => {}
            Cmd::ComputerMoved { ticket, m } => {
                if self.thinking.as_ref().is_some_and(|(t, _)| *t == ticket) {
                    self.thinking = None;
                }
                let outcome = self.table.handle(self.now(), Input::ComputerMoved { ticket, m });
                let _ = self.carry_out(outcome);
            }
        }
    }

    /// What a connection asks of the game: the answer, and the seat it holds from now on.
    pub(super) fn act(
        &mut self,
        seat: Option<Colour>,
        number: u32,
        msg: ClientMessage,
    ) -> (Answer, Option<Colour>) {
        let away = |colour| self.crowd.away(colour, Instant::now());
        match Asking::new(&self.table, seat, msg, self.store.reachable(), away) {
            Asking::Table { ask, answer } => (answer.answer(self.ask(seat, ask)), seat),
            Asking::Sit => self.join(seat, number),
            Asking::Hello { .. } => (Answer::Error(Refusal::HelloAgain.into()), seat),
            Asking::Unkept(refused) => {
                self.count_unkept();
                (refused, seat)
            }
            Asking::Answered(answer) => (answer, seat),
        }
    }

    /// Hands the table what `seat` asks, now, and carries out what follows.
    pub(super) fn ask(
        &mut self,
        by: Option<Colour>,
        ask: Ask<SeatHash>,
    ) -> Result<dara_table::Reply, Refusal> {
        let outcome = self.table.handle(self.now(), Input::Ask { by, ask });
        self.carry_out(outcome)
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
            if super::handle::settle_in(&mut cell).await == super::handle::Settled::Lost {
                return;
            }
            let game = cell.as_mut().expect("a settled game stays");
            if forget || game.expired(Instant::now()) {
                let game = cell.take().expect("the game is here");
                drop(cell);
                // Boxed: the end of a game's life is awaited once, and inline it would be the
                // largest state of the task every live game keeps (it holds the whole game).
                return Box::pin(game.end_life()).await;
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
