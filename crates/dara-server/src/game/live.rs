//! One live game in the server: the table (`dara_table`, where every rule of the game is
//! decided) and the shell around it: who is at it (`crowd`), where it is kept and what waits to
//! be told (`keeping`), the engine's search, and when it ends its life here. Its owner
//! (`owner::run`) hands it each letter of its mailbox; it hands the table what was asked, carries
//! out the table's outcome (events told once kept, effects), and says what to answer. Who is
//! at it, as everyone is told and as the lobby lists it, is in `presence`.

mod presence;

use std::net::IpAddr;
use std::sync::{Arc, Weak};
use std::time::SystemTime;

use dara::{Colour, Move};
use dara_table::view::View;
use dara_table::wire::{Asking, ClientMessage};
use dara_table::{Ask, Effect, GameEvent, Input, Moment, Opponent, Outcome, Table, Ticket};
use tokio::time::Instant;

use super::crowd::Crowd;
use super::handle::{GameHandle, OwnHandle};
use super::history;
use super::host::Host;
use super::keeping::Keeping;
use super::lifespan::Lifespan;
use super::mailbox::{Greeting, SitRefused};
use super::observer::{News, Observer};
use super::origin::Origin;
use super::quick_messages::QuickMessages;
use super::settings::rematch;
use super::thinking::Thinking;
use super::watched;
use crate::date::record_date;
use crate::error::AppError;
use crate::outlet::{Ending, Outlet};
use crate::protocol::{Answer, Refusal, Wire, WireAnswer};
use crate::seat::{GameId, SeatHash, SeatKey, SeatToken};
use crate::store::kept::Store;

/// One live game, as its owner holds it.
pub(super) struct Game {
    pub(super) id: GameId,
    /// The server that holds the game, while it runs.
    host: Weak<dyn Host>,
    pub(super) handle: OwnHandle,
    /// The game itself: seats, turns, clocks, offers, result.
    pub(super) table: Table<SeatHash>,
    /// The table's time on the server's clock.
    pub(super) origin: Origin,
    /// The client address this game counts against, which its rematch counts against too.
    asked_from: Option<IpAddr>,
    /// The day the game began, for its record.
    pub(super) date: String,
    /// When it was created (or taken up again): a game whose second seat nobody takes is
    /// closed after a while.
    created: Instant,
    /// Until when a table that "play anyone" listed at once counts the person who opened it as
    /// coming, though their page has not connected yet: it stays listed, and may be sat at,
    /// meanwhile (see [`Game::expect_opener`]). `None` once they have connected or the time
    /// has passed, and for every other game.
    opener_expected_until: Option<Instant>,
    crowd: Crowd,
    /// How often each seat may say a quick message (none is kept).
    quick: QuickMessages,
    /// The computer's search the table waits for, if any.
    pub(super) thinking: Thinking,
    /// Where the game is kept, and what waits to be told.
    pub(super) keeping: Keeping,
    /// Hashes the tokens people offer.
    key: SeatKey,
    /// How long the game is kept here after its end, its emptying, or while nobody takes its
    /// second seat: the server's settings, copied once, so that the owner reads them after
    /// every letter without reaching the server.
    lifespan: Lifespan,
    /// Who follows the game from outside it (the arena that paired it), if anyone.
    pub(super) observer: Option<Observer>,
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
    /// here, and nobody is told of it.
    Lost,
}

impl Game {
    /// A game at `table`, kept in `store` with its seats hashed by `key`, reached through
    /// `handle`.
    pub(super) fn new(
        (host, lifespan): (Weak<dyn Host>, Lifespan),
        handle: &GameHandle,
        table: Table<SeatHash>,
        asked_from: Option<IpAddr>,
        (store, key): (Store, SeatKey),
    ) -> Game {
        let now = Instant::now();
        Game {
            id: handle.id.clone(),
            host,
            handle: handle.downgrade(),
            table,
            origin: Origin::at(now),
            asked_from,
            date: record_date(SystemTime::now()),
            created: now,
            opener_expected_until: None,
            crowd: Crowd::new(now),
            quick: QuickMessages::default(),
            thinking: Thinking::default(),
            keeping: Keeping::new(store),
            key,
            lifespan,
            observer: None,
        }
    }

    /// Now, on the table's time.
    pub(super) fn now(&self) -> Moment {
        self.origin.now()
    }

    /// This open table was listed at its creation ("play anyone" lists the seeker's own table
    /// at once, so that the next seeker finds it): until `within` has passed it counts its
    /// opener as coming, though their page has not connected yet. Were it closed until then,
    /// two seekers arriving together would each open a table and wait there forever; were it
    /// listed for good, a seeker who never comes would leave it listed until it is forgotten.
    pub(super) fn expect_opener(&mut self, within: std::time::Duration) {
        self.opener_expected_until = Some(self.created + within);
    }

    /// Whether the opener of this table is still expected at `now` (see
    /// [`Game::expect_opener`]).
    fn opener_expected(&self, now: Instant) -> bool {
        self.opener_expected_until.is_some_and(|until| now < until)
    }

    /// The server's state, while it runs: its settings are read there, not copied (this is
    /// asked after every letter).
    pub(super) fn server(&self) -> Option<Arc<dyn Host>> {
        self.host.upgrade()
    }

    // --- The letters ---------------------------------------------------------------------

    /// The game's first moment on this node: its clock starts if both seats are taken, and
    /// the computer is asked if it is to move.
    pub(super) fn begin(&mut self) {
        let outcome = self.table.begin(self.now());
        let _ = self.carry_out(outcome);
    }

    /// What falls due at `now` by itself: the clocks held after a restart run, a flag falls,
    /// the number of watchers is told, a table whose opener never came leaves the lobby.
    pub(super) fn timed(&mut self, now: Instant) {
        if self.opener_expected_until.is_some_and(|until| now >= until) {
            self.opener_expected_until = None;
            self.relist();
        }
        if self.table.next_deadline().is_some_and(|at| self.origin.instant(at) <= now) {
            let outcome = self.table.handle(self.origin.moment(now), Input::Time);
            let _ = self.carry_out(outcome);
        }
        if self.crowd.presence_due().is_some_and(|due| now >= due) {
            self.announce_presence();
        }
    }

    /// The computer's search for `ticket` chose `m`.
    pub(super) fn computer_moved(&mut self, ticket: Ticket, m: Move) {
        self.thinking.done(ticket);
        let outcome = self.table.handle(self.now(), Input::ComputerMoved { ticket, m });
        let _ = self.carry_out(outcome);
    }

    /// A connection written through `outlet` says hello with `token` (a seat's, if any),
    /// having seen up to `since`: it is sent what it is to see first, and from now on it is
    /// told everything, in the same order as everyone.
    pub(super) fn hello(
        &mut self,
        token: Option<&str>,
        since: Option<u64>,
        outlet: Outlet,
    ) -> Greeting {
        let seat = token.and_then(|t| self.seat_of(t));
        // After a restart the clocks wait for the side to move.
        if seat.is_some() {
            let _ = self.ask(seat, Ask::Back);
        }
        let number = self.crowd.number();
        if let Some(colour) = seat {
            self.seat_connection(colour, number);
            // The opener is here: from now on the table is listed while they are connected.
            self.opener_expected_until = None;
        }
        if self.crowd.arrive(seat) {
            self.announce_presence();
        } else if seat.is_none() {
            self.watchers_changed();
        }
        self.relist();
        for wire in self.welcome(token.is_some(), seat, since) {
            outlet.queue(wire);
        }
        self.keeping.sockets.open(number, seat, outlet);
        Greeting { seat, number }
    }

    /// What a connection that says hello is sent first (see [`history::welcome`]), then who
    /// is here, and the computer's place in the queue.
    pub(super) fn welcome(
        &self,
        offered: bool,
        seat: Option<Colour>,
        since: Option<u64>,
    ) -> Vec<Wire> {
        let mut messages = history::welcome(&self.view(), offered, seat, since, self.now());
        messages.push(self.presence());
        if let Some(ahead) = self.thinking.ahead() {
            messages.push(Answer::Queue { ahead }.wire());
        }
        messages
    }

    /// What connection `number` asks of the game: the answer (`None` for a connection the
    /// game does not know, which is answered by nobody).
    pub(super) fn act(&mut self, number: u32, msg: ClientMessage) -> Option<Answer> {
        let seat = self.keeping.sockets.seat(number)?;
        let away = |colour| self.crowd.away(colour, Instant::now());
        Some(match Asking::new(&self.table, seat, msg, self.keeping.store.reachable(), away) {
            Asking::Table { ask, answer } => answer.answer(self.ask(seat, ask)),
            Asking::Sit => self.join(seat, number),
            Asking::Hello { .. } => Answer::Error(Refusal::HelloAgain.into()),
            Asking::Unkept(refused) => {
                self.count_unkept();
                refused
            }
            Asking::Answered(answer) => answer,
            // Told as presence is, to every connection, and kept nowhere.
            Asking::Say { by, phrase } => match self.quick.say(by, phrase, Instant::now()) {
                Ok(said) => {
                    self.keeping.tell(said);
                    Answer::Ok
                }
                Err(refusal) => Answer::Error(refusal.into()),
            },
        })
    }

    /// A connection takes the free seat: the invite link, or a watcher of a table.
    fn join(&mut self, seat: Option<Colour>, number: u32) -> Answer {
        // The connection stops counting as a watcher and starts counting as the player before
        // everyone is told who is here (a watcher with no seat always gets the free one).
        if let (None, Some(free)) = (seat, self.table.free_seat()) {
            self.crowd.watcher_sat_down(free);
        }
        let token = SeatToken::random();
        match self.ask(seat, Ask::Sit { key: self.key.seal(&token) }) {
            Ok(dara_table::Reply::Seated(colour)) => {
                self.keeping.sockets.sit(number, colour);
                self.seat_connection(colour, number);
                Answer::Joined { seat: token.as_str().to_owned(), colour }
            }
            Ok(_) => unreachable!("a seat taken is answered with its colour"),
            Err(refusal) => Answer::Error(refusal.into()),
        }
    }

    /// Someone sits down at this open table before their page has connected ("play anyone"
    /// handed it to them, or they pressed "Sit down"). The seat is theirs from this moment:
    /// had they been sent to the page to ask for it, someone following an older listing of the
    /// lobby could take it in between, and they would arrive to watch instead of play.
    pub(super) fn sit(&mut self, token: SeatHash) -> Result<Colour, SitRefused> {
        if self.table.settings().opponent != Opponent::Open || self.table.ending().is_some() {
            return Err(SitRefused::Closed);
        }
        let free = self.table.free_seat().ok_or(SitRefused::Taken)?;
        // Nobody should sit down opposite an empty chair (the lobby lists no such table), unless
        // the chair's owner is on their way: "play anyone" opened the table for them a moment
        // ago, and they hold its seat already.
        if !self.crowd.is_online(!free) && !self.opener_expected(Instant::now()) {
            return Err(SitRefused::Closed);
        }
        // Away until their page connects, so that if it never does the opponent may claim.
        self.crowd.away_from(free, Instant::now());
        match self.ask(None, Ask::Sit { key: token }) {
            Ok(dara_table::Reply::Seated(colour)) => Ok(colour),
            _ => Err(SitRefused::Taken),
        }
    }

    /// `side` goes berserk, as the game's arena asks: the table halves its clock, and everyone
    /// is told (once kept).
    pub(super) fn berserk(&mut self, side: Colour) -> Result<(), dara_table::BerserkRefusal> {
        let outcome = self.table.berserk(self.now(), side)?;
        let _ = self.carry_out(outcome);
        Ok(())
    }

    /// Connection `number` closed.
    pub(super) fn leave(&mut self, number: u32) {
        let Some(seat) = self.keeping.sockets.close(number) else { return };
        if let Some(colour) = seat {
            self.crowd.unseat(colour, number);
        }
        if self.crowd.leave(seat, Instant::now()) {
            self.announce_presence();
        } else if seat.is_none() {
            self.watchers_changed();
        }
        self.relist();
    }

    // --- The table and its outcome -------------------------------------------------------

    /// Hands the table what `seat` asks, now, and carries out what follows.
    fn ask(
        &mut self,
        by: Option<Colour>,
        ask: Ask<SeatHash>,
    ) -> Result<dara_table::Reply, Refusal> {
        let outcome = self.table.handle(self.now(), Input::Ask { by, ask });
        self.carry_out(outcome)
    }

    /// Tells what the outcome recorded (once kept) and carries out its effects: the engine
    /// asked or called off, the lobby and the book of games told, a rematch started. Gives the
    /// table's reply, or why what was asked could not be done after all (a rematch the server
    /// could not start).
    fn carry_out(&mut self, outcome: Outcome) -> Result<dara_table::Reply, Refusal> {
        let Outcome { reply, events, effects } = outcome;
        for v in events {
            let event = &self.table.journal()[(v - 1) as usize];
            if matches!(event, GameEvent::Moved { .. }) {
                if let Some(host) = self.server() {
                    host.metrics().turns.inc();
                }
                self.tell_first_move();
            }
            let told = history::told(&self.view(), v);
            self.keeping.tell(told);
        }
        let mut reply = reply.map_err(Refusal::from);
        for effect in effects {
            match effect {
                Effect::Think(think) => {
                    if let Some(host) = self.server() {
                        let (client, handle) = (self.asked_from, self.handle.clone());
                        self.thinking.start(host.computer(), think, client, handle);
                    }
                }
                Effect::CallOff(ticket) => self.thinking.done(ticket),
                Effect::SeatTaken => {
                    self.keeping.seats_changed = true;
                    if let Some(host) = self.server() {
                        host.lobby().taken(&self.id);
                    }
                    self.announce_presence();
                }
                Effect::Ended(at) => {
                    self.tell_end();
                    if let Some(host) = self.server() {
                        host.lobby().close(&self.id);
                        host.set_finished(
                            &self.id,
                            self.handle.life(),
                            Some(self.origin.instant(at)),
                        );
                    }
                }
                Effect::Reopened => {
                    if let Some(host) = self.server() {
                        host.set_finished(&self.id, self.handle.life(), None);
                    }
                }
                Effect::StartRematch => {
                    if let Err(refusal) = self.start_rematch() {
                        reply = Err(refusal);
                    }
                }
            }
        }
        if let Some(host) = self.server() {
            let in_arena = self.observer.is_some();
            watched::tell(&*host, &self.id, &self.table, self.crowd.watchers(), in_arena);
        }
        reply
    }

    /// Tells the follower, if any, of one of the game's first two turns: the side that made
    /// it is the one no longer to move (a turn takes its captures with it).
    fn tell_first_move(&self) {
        let Some(observer) = &self.observer else { return };
        if self.table.played().moves().len() <= 2 {
            let by = !self.table.played().pos().side();
            observer.tell(&self.id, News::Moved { by });
        }
    }

    /// Tells the follower, if any, how the game ended.
    fn tell_end(&self) {
        let (Some(observer), Some(ending)) = (&self.observer, self.table.ending()) else { return };
        let plies = u32::try_from(self.table.played().moves().len()).unwrap_or(u32::MAX);
        observer.tell(&self.id, News::Ended { ending: *ending, plies });
    }

    /// A new game with the same people, colours swapped (see [`rematch`]).
    fn start_rematch(&mut self) -> Result<(), Refusal> {
        // A server that is stopping cannot keep a new game: said as such a refusal is.
        let host = self.server().ok_or_else(|| Refusal::rematch_unavailable(AppError::Unkept))?;
        let (settings, seats) = rematch(self.table.settings(), self.table.seats());
        // Not waited for: the store commits the new game before anything this one stores
        // after it, so the rematch this game names is always there.
        let game = host
            .start_game(settings, seats, self.asked_from)
            .map_err(Refusal::rematch_unavailable)?;
        let outcome = self.table.handle(self.now(), Input::RematchStarted { game });
        self.carry_out(outcome).map(|_| ())
    }

    // --- The table as seen, and taken up again -------------------------------------------

    /// The table as the pages see it.
    fn view(&self) -> View<'_, SeatHash> {
        View { table: &self.table, date: &self.date }
    }

    /// The game goes on from `table`, replayed from what was kept: all of it is stored, and
    /// nobody is connected yet, so whoever is not back within the claim time may be claimed
    /// against, counted from now.
    pub(super) fn taken_up(&mut self, table: Table<SeatHash>) {
        let now = Instant::now();
        self.keeping.stored = table.journal().len();
        self.table = table;
        self.created = now;
        self.crowd = Crowd::new(now);
        for colour in Colour::ALL {
            if self.table.seats()[colour].is_human() {
                self.crowd.away_from(colour, now);
            }
        }
    }

    // --- Keeping -------------------------------------------------------------------------

    /// Counts a request refused because the store could not be reached, for `/metrics`.
    pub(super) fn count_unkept(&self) {
        if let Some(host) = self.server() {
            host.metrics().refused_unkept.inc();
        }
    }

    /// Takes the game back to what the store kept, after a commit that failed: a seat taken
    /// since then open again, nothing told of what was not kept, the computer asked again if it
    /// is to move. The table is rebuilt from the kept journal as after a restart, so its clocks
    /// are held until the side to move is back or a minute has passed: nobody's time runs down
    /// while saving is paused. False if the kept journal does not replay (it was played here,
    /// through the same rules: only a bug would do it), and the game is as it was.
    pub(super) fn roll_back(&mut self) -> bool {
        match self.keeping.kept_table(&self.table, self.now()) {
            Ok(table) => self.table = table,
            Err(e) => {
                tracing::error!(game = %self.id, "its own kept journal does not replay: {e}");
                return false;
            }
        }
        self.thinking.stop();
        self.keeping.went_back();
        self.begin();
        true
    }

    /// What could not be kept is told to nobody: the game stops here, and a restarted server
    /// (or, in a cluster, the node that now holds the game's lease) takes it up from what was
    /// kept.
    pub(super) fn stop_unkept(&mut self) {
        self.thinking.stop();
        if matches!(self.keeping.store, Store::Redis(_)) {
            self.handle.set_moved();
        }
        if let Some(host) = self.server() {
            host.forget(&self.id, self.handle.life());
        }
    }

    // --- The end of its life here --------------------------------------------------------

    /// Closes every connection: the game stopped here, and it goes on elsewhere (they are to
    /// reconnect) or has ended its life.
    pub(super) fn close_sockets(&self) {
        let ending = if self.handle.moved() { Ending::MOVED } else { Ending::GAME_GONE };
        self.keeping.sockets.end_all(ending);
    }

    /// The next moment something happens by itself: the table's (a flag falls, held clocks
    /// run), or the shell's (the game is forgotten, the watchers are told, a table whose
    /// opener never came leaves the lobby).
    pub(super) fn next_wake(&self) -> Option<Instant> {
        let table = self.table.next_deadline().map(|at| self.origin.instant(at));
        [table, self.expires_at(), self.crowd.presence_due(), self.opener_expected_until]
            .into_iter()
            .flatten()
            .min()
    }

    /// Whether the game's time here is up at `now` (or the server is gone).
    pub(super) fn expired(&self, now: Instant) -> bool {
        self.host.strong_count() == 0 || self.expires_at().is_some_and(|at| now >= at)
    }

    /// When the game's time here is up (see [`Lifespan::expires_at`]).
    fn expires_at(&self) -> Option<Instant> {
        let ended = self.table.ending().map(|e| self.origin.instant(e.at));
        let waiting = self.table.free_seat().is_some() && ended.is_none();
        self.lifespan.expires_at(ended, self.crowd.empty_since(), waiting.then_some(self.created))
    }
}
