//! A game at the table: its seats, turns, clocks, offers, takebacks and result, as a state
//! machine with no runtime. An [`Input`] and the time go in; the reply, the new journal events
//! and the effects for the shell come out ([`Outcome`]). Every change is made by recording an
//! event and applying it, so replaying a journal ([`Table::restore`]) rebuilds the same game.

use core::fmt;
use std::time::Duration;

use dara::{ByColour, Colour, IllegalMoveError, Move};

use crate::clock::Clock;
use crate::computer::{Searches, Ticket};
use crate::effect::Effect;
use crate::ending::Ending;
use crate::event::{written_move, GameEvent};
use crate::input::{Ask, Input, Outcome, Reply};
use crate::moment::Moment;
use crate::offers::Offers;
use crate::played::Played;
use crate::refusal::Refusal;
use crate::seat::Seat;
use crate::settings::GameSettings;

mod berserk;
mod clocks;
pub use berserk::BerserkRefusal;
pub use clocks::{running_after, side_has_moved};
mod computer;
mod requests;
mod turns;

/// Takebacks one game allows: plenty for someone learning against the computer, and a bound on
/// how long a takeback loop can grow the game's journal (between people, each player's requests
/// are bounded far lower, by [`crate::MAX_TAKEBACKS_ASKED`]).
pub const MAX_TAKEBACKS: u32 = 200;

/// The most events one game's journal may hold before offers and takebacks are refused (turns
/// go on, so every game can still end). The longest games played here run to a few hundred
/// plies; this leaves room for every takeback allowed on top, and bounds what one player can
/// add to everyone's history.
pub const MAX_EVENTS: usize = 2000;

/// How patient a table is with people: set by its shell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Patience {
    /// How long a player must have been gone before the opponent may claim the game.
    pub claim_after: Duration,
    /// After a restart, how long the clocks wait for the side to move to come back before they
    /// run anyway (a player who never returns must not hold the game for ever).
    pub clocks_held_for: Duration,
    /// In a game on the clock, how long each side has to make its first move (its clock does
    /// not run before it) before the game is aborted without a result.
    pub first_move_within: Duration,
}

impl Patience {
    /// How long until the opponent of a player gone for `away` may claim the game: the
    /// countdown a page shows, and what a claim made too early is told.
    pub fn claim_in(&self, away: Duration) -> Duration {
        self.claim_after.saturating_sub(away)
    }
}

impl Default for Patience {
    fn default() -> Patience {
        Patience {
            claim_after: Duration::from_secs(30),
            clocks_held_for: Duration::from_secs(60),
            first_move_within: Duration::from_secs(30),
        }
    }
}

/// What a turn sent to the table turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checked {
    /// A new turn, legal here.
    New(Move),
    /// The player's last turn, sent again under its id: answered as before, not played twice.
    Resent,
}

/// A stored journal that does not replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayError {
    /// The version of the event that does not replay.
    pub v: u64,
    /// The turn it names.
    pub m: Move,
    /// The rules' reason.
    pub error: IllegalMoveError,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "event {}: turn {}: {}", self.v, self.m, self.error)
    }
}

impl std::error::Error for ReplayError {}

/// One game at the table. `K` stands in for a person in a seat (see [`Seat`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table<K> {
    settings: GameSettings,
    patience: Patience,
    seats: ByColour<Seat<K>>,
    played: Played,
    clock: Option<Clock>,
    ending: Option<Ending>,
    offers: Offers,
    /// Everything that happened: event `v` is `journal[v - 1]`.
    journal: Vec<GameEvent>,
    /// Each player's last accepted turn and its id, to answer a resend.
    last_turn: ByColour<Option<(u64, Move)>>,
    /// Each player's last reported one-way delay, credited to their next turn.
    lag: ByColour<Duration>,
    takebacks: u32,
    /// Which sides went berserk (their clocks halved, see `berserk`).
    berserk: ByColour<bool>,
    searches: Searches,
    /// After a restart, the clocks stay stopped until the side to move is back, or until this
    /// moment: the time the server was down is nobody's.
    held_until: Option<Moment>,
    /// In a game on the clock, when the side to move, which has not moved yet, must have made
    /// its first move by (its clock starts only with that move).
    first_move_by: Option<Moment>,
    /// What the shell is to do, gathered while an input is handled.
    effects: Vec<Effect>,
}

impl<K> Table<K> {
    /// A new game with these seats, nothing played. Call [`Table::begin`] when it starts.
    pub fn new(settings: GameSettings, seats: ByColour<Seat<K>>, patience: Patience) -> Table<K> {
        Table {
            clock: settings.clock.map(Clock::new),
            played: Played::new(dara::Position::start(settings.rules)),
            settings,
            patience,
            seats,
            ending: None,
            offers: Offers::default(),
            journal: Vec::new(),
            last_turn: ByColour::default(),
            lag: ByColour::default(),
            takebacks: 0,
            berserk: ByColour::default(),
            searches: Searches::default(),
            held_until: None,
            first_move_by: None,
            effects: Vec::new(),
        }
    }

    /// A stored game taken up again at `now`: its journal replayed through the rules, the
    /// clocks as last written and held until the side to move is back (see [`Patience`]).
    /// Call [`Table::begin`] when it starts.
    ///
    /// # Errors
    /// A turn in the journal that the rules do not allow where it stands.
    pub fn restore(
        settings: GameSettings,
        seats: ByColour<Seat<K>>,
        patience: Patience,
        events: Vec<GameEvent>,
        now: Moment,
    ) -> Result<Table<K>, ReplayError> {
        let mut table = Table::new(settings, seats, patience);
        let control = table.settings.clock;
        for (v, event) in (1..).zip(&events) {
            table.apply(event, now).map_err(|(m, error)| ReplayError { v, m, error })?;
            let left = match *event {
                GameEvent::Seated { left, .. }
                | GameEvent::Moved { left, .. }
                | GameEvent::TookBack { left, .. }
                | GameEvent::Berserked { left, .. }
                | GameEvent::Ended { left, .. } => left,
                _ => None,
            };
            if let Some((control, left)) = control.zip(left) {
                table.clock = Some(Clock::resumed(control, left));
            }
        }
        table.journal = events;
        if table.ending.is_none() && table.clock.is_some() && table.both_seated() {
            table.held_until = Some(now + patience.clocks_held_for);
        }
        Ok(table)
    }

    /// The game's first moment at its shell: the clock starts if both seats are taken, and the
    /// computer is asked if it is to move.
    pub fn begin(&mut self, now: Moment) -> Outcome {
        let first = self.next_version();
        self.start_if_ready(now);
        self.finish_input(first, Ok(Reply::Done))
    }

    /// Handles one input at `now`.
    pub fn handle(&mut self, now: Moment, input: Input<K>) -> Outcome {
        let first = self.next_version();
        let reply = match input {
            Input::Ask { by, ask } => self.ask(now, by, ask),
            Input::ComputerMoved { ticket, m } => {
                self.computer_moved(now, ticket, m);
                Ok(Reply::Done)
            }
            Input::RematchStarted { game } => {
                self.rematch_started(now, game);
                Ok(Reply::Done)
            }
            Input::Time => {
                self.release_clocks_if_due(now);
                self.check_flag(now);
                self.check_first_move(now);
                Ok(Reply::Done)
            }
        };
        self.finish_input(first, reply)
    }

    /// The next moment something happens by itself (a flag falls, held clocks run again, a
    /// game is aborted for want of a first move): the shell hands the table [`Input::Time`]
    /// then.
    pub fn next_deadline(&self) -> Option<Moment> {
        let ongoing = self.ending.is_none();
        let flag =
            self.clock.as_ref().filter(|_| ongoing).and_then(Clock::flag_at).map(|(_, at)| at);
        let first_move = self.first_move_by.filter(|_| ongoing);
        flag.into_iter().chain(self.held_until).chain(first_move).min()
    }

    /// Whether a turn `text` under `id` from `by` would be played (or is a resend), without
    /// playing it: a shell that cannot keep a new turn refuses it only once the table would
    /// have accepted it.
    ///
    /// # Errors
    /// Why the table would refuse it.
    pub fn check_turn(&self, by: Option<Colour>, id: u64, text: &str) -> Result<Checked, Refusal> {
        let colour = by.ok_or(Refusal::Watching)?;
        // The same turn sent again (say, after a reconnect) is answered as before, not replayed;
        // another turn under the same id is a client's mistake, said as such.
        if let Some((last, played)) = self.last_turn[colour] {
            if last == id {
                let same = text.parse().ok().and_then(|t| written_move(&t)) == Some(played);
                return if same { Ok(Checked::Resent) } else { Err(Refusal::TurnIdReused { id }) };
            }
        }
        self.ongoing()?;
        if !self.both_seated() {
            return Err(Refusal::OpponentNotSeated);
        }
        if self.played.pos().side() != colour {
            return Err(Refusal::NotYourTurn);
        }
        self.played.resolve(text).map(Checked::New).map_err(Refusal::illegal_move)
    }

    /// The settings.
    pub fn settings(&self) -> &GameSettings {
        &self.settings
    }

    /// Who sits where.
    pub fn seats(&self) -> &ByColour<Seat<K>> {
        &self.seats
    }

    /// What has been played.
    pub fn played(&self) -> &Played {
        &self.played
    }

    /// The clock, for a game that has one.
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    /// How the game ended, if it has.
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// The offers standing.
    pub fn offers(&self) -> &Offers {
        &self.offers
    }

    /// Every event so far: event `v` is `journal()[v - 1]`.
    pub fn journal(&self) -> &[GameEvent] {
        &self.journal
    }

    /// Takebacks so far.
    pub fn takebacks(&self) -> u32 {
        self.takebacks
    }

    /// Each player's last accepted turn and its id.
    pub fn last_turns(&self) -> &ByColour<Option<(u64, Move)>> {
        &self.last_turn
    }

    /// The computer's search the table waits for, if any.
    pub fn thinking(&self) -> Option<Ticket> {
        self.searches.thinking()
    }

    /// Until when the clocks are held after a restart, if they are.
    pub fn held_until(&self) -> Option<Moment> {
        self.held_until
    }

    /// By when the side to move must make its first move, if the game waits for one (see
    /// [`Patience::first_move_within`]).
    pub fn first_move_by(&self) -> Option<Moment> {
        self.first_move_by.filter(|_| self.ending.is_none())
    }

    /// How patient the table is.
    pub fn patience(&self) -> Patience {
        self.patience
    }

    /// The seat nobody holds yet, if any.
    pub fn free_seat(&self) -> Option<Colour> {
        Colour::ALL.into_iter().find(|c| self.seats[*c].is_open())
    }

    /// Whether both seats are held.
    pub fn both_seated(&self) -> bool {
        self.free_seat().is_none()
    }

    /// Whether `colour` plays the computer.
    pub fn against_computer(&self, colour: Colour) -> bool {
        self.seats[!colour].computer().is_some()
    }

    fn next_version(&self) -> u64 {
        self.journal.len() as u64 + 1
    }

    /// Every input ends here: the computer is asked if it is now to move, and what happened is
    /// handed out.
    fn finish_input(&mut self, first: u64, reply: Result<Reply, Refusal>) -> Outcome {
        self.consider_computer();
        Outcome {
            reply,
            events: first..self.next_version(),
            effects: std::mem::take(&mut self.effects),
        }
    }

    fn ask(&mut self, now: Moment, by: Option<Colour>, ask: Ask<K>) -> Result<Reply, Refusal> {
        match ask {
            Ask::Sit { key } => self.sit(now, by, key).map(Reply::Seated),
            Ask::Turn { id, text, lag } => self.turn(now, by, id, &text, lag),
            Ask::Lag(lag) => {
                if let Some(colour) = by {
                    self.lag[colour] = lag;
                }
                Ok(Reply::Done)
            }
            Ask::Back => {
                if by == Some(self.played.pos().side()) {
                    self.release_clocks(now);
                }
                Ok(Reply::Done)
            }
            Ask::Resign => self.resign(now, by).map(|()| Reply::Done),
            Ask::Abort => self.abort(now, by).map(|()| Reply::Done),
            Ask::DrawOffer => self.offer_draw(now, by).map(|()| Reply::Done),
            Ask::DrawDecline => self.decline_draw(now, by).map(|()| Reply::Done),
            Ask::DrawWithdraw => self.withdraw_draw(now, by).map(|()| Reply::Done),
            Ask::Takeback => self.take_back(now, by).map(|()| Reply::Done),
            Ask::TakebackAccept => self.accept_takeback(now, by).map(|()| Reply::Done),
            Ask::TakebackDecline => self.end_takeback(now, by, false).map(|()| Reply::Done),
            Ask::TakebackWithdraw => self.end_takeback(now, by, true).map(|()| Reply::Done),
            Ask::Rematch => self.ask_rematch(now, by).map(|()| Reply::Done),
            Ask::Claim { opponent_away } => {
                self.claim(now, by, opponent_away).map(|()| Reply::Done)
            }
        }
    }

    /// Records `event`: applies it and keeps it. The table's own checks come first, so a live
    /// event always applies.
    fn record(&mut self, event: GameEvent, now: Moment) {
        if let Err((m, error)) = self.apply(&event, now) {
            unreachable!("a turn the table checked is legal: {m}: {error}");
        }
        self.journal.push(event);
    }

    /// What `event` changes, but the running clock (which a live game punches and a replay
    /// reads from the events' clock fields).
    fn apply(&mut self, event: &GameEvent, now: Moment) -> Result<(), (Move, IllegalMoveError)> {
        match *event {
            GameEvent::Seated { .. } => {}
            GameEvent::Moved { m, turn, .. } => {
                let mover = self.played.pos().side();
                self.played.play(m).map_err(|e| (m, e))?;
                if let Some(id) = turn {
                    self.last_turn[mover] = Some((id, m));
                }
                self.offers.moved(mover);
            }
            GameEvent::TookBack { plies, .. } => {
                self.played.take_back(plies);
                self.takebacks += 1;
                self.ending = None;
                self.offers.draw_lapses();
                self.offers.takeback_lapses();
            }
            GameEvent::TakebackOffered { by } => self.offers.takeback_asked(by),
            GameEvent::TakebackDeclined { by } => self.offers.takeback_refused(!by),
            GameEvent::TakebackWithdrawn { by } => self.offers.takeback_refused(by),
            GameEvent::DrawOffered { by } => self.offers.draw_offered(by),
            GameEvent::DrawDeclined { by } => self.offers.draw_refused(!by),
            GameEvent::DrawWithdrawn { by } => self.offers.draw_refused(by),
            GameEvent::RematchOffered { by } => self.offers.rematch_asked(by),
            GameEvent::RematchStarted { ref game } => self.offers.rematch_started(game.clone()),
            GameEvent::Berserked { colour, .. } => self.berserk[colour] = true,
            GameEvent::Ended { result, reason, .. } => {
                self.ending = Some(Ending { result, reason, at: now });
                self.offers.draw_lapses();
                self.offers.takeback_lapses();
            }
        }
        Ok(())
    }

    /// The seat of a player, or why a watcher may not do this.
    fn player(by: Option<Colour>) -> Result<Colour, Refusal> {
        by.ok_or(Refusal::Watching)
    }

    /// Nothing, or why the game is not going on.
    fn ongoing(&self) -> Result<(), Refusal> {
        match self.ending {
            Some(_) => Err(Refusal::GameOver),
            None => Ok(()),
        }
    }

    /// Nothing, or why the journal has no room for `more` events of an offer or a takeback.
    fn room_for(&self, more: usize) -> Result<(), Refusal> {
        if self.journal.len() + more > MAX_EVENTS {
            return Err(Refusal::EventLimit { limit: MAX_EVENTS });
        }
        Ok(())
    }
}
