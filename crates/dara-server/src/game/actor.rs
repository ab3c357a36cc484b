//! The actor that owns one live game: its position, seats, clock, offers and the numbered list
//! of everything that happened, fed one request at a time through its channel. Because only this
//! loop touches the game, nothing in it needs a lock.

use std::net::IpAddr;
use std::sync::{Arc, Weak};
use std::time::SystemTime;

use dara::record::{GameResult, Record};
use dara::{ByColour, Colour, DrawReason, Move, Position, Status, WinReason};
use dara_engine::level::Level;
use serde_json::{json, Value};
use tokio::sync::{broadcast, mpsc};
use tokio::time::{sleep_until, Instant};

use super::clock::{colour_name, Clock};
use super::setup::{Opponent, Setup};
use super::{Cmd, GameHandle, Reply, SitRefused, Welcome};
use crate::date::record_date;
use crate::error::AppError;
use crate::lobby::Table;
use crate::protocol::{self, ClientMessage};
use crate::seat::{GameId, SeatToken};
use crate::state::{AppState, Shared};
use crate::view::PositionView;

/// Who sits in a seat.
#[derive(Debug, Clone)]
pub enum Seat {
    /// Nobody yet: the first to open the invite link (or sit at the table) takes it.
    Open,
    /// A person, known only by the token they hold.
    Human(SeatToken),
    /// The engine.
    Computer(Level),
}

/// How a game ended.
#[derive(Debug, Clone)]
struct Ending {
    result: GameResult,
    reason: String,
    at: Instant,
}

struct Game {
    id: GameId,
    shared: Weak<Shared>,
    handle: GameHandle,
    /// The client address this game counts against, which its rematch counts against too.
    asked_from: Option<IpAddr>,
    /// The day the game began, for its record.
    date: String,
    setup: Setup,
    seats: ByColour<Seat>,
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    /// Hashes of every position before the current one, for the engine's repetition checks.
    hashes: Vec<u64>,
    clock: Option<Clock>,
    ending: Option<Ending>,
    draw_offer: Option<Colour>,
    rematch_offer: Option<Colour>,
    rematch: Option<GameId>,
    /// Event `v` is `events[v - 1]`.
    events: Vec<Arc<str>>,
    watchers: broadcast::Sender<Arc<str>>,
    online: ByColour<u32>,
    spectators: u32,
    away_since: ByColour<Option<Instant>>,
    /// When the last connection closed, if none is open.
    empty_since: Option<Instant>,
    last_turn_id: ByColour<Option<u64>>,
    lag: ByColour<std::time::Duration>,
    /// The search the computer is running for this position, if any.
    thinking: Option<u64>,
    /// Numbers every search asked for, so that an answer to an older one is recognised.
    tickets: u64,
}

/// Starts the actor of a new game with these seats and registers it (an open table is listed
/// in the lobby once the person waiting at it is connected). `asked_from` is the client
/// address the game counts against (see `address::requester`), if any.
///
/// # Errors
/// When the server, or that address's share of it, is full.
pub fn spawn(
    state: &AppState,
    setup: Setup,
    seats: ByColour<Seat>,
    asked_from: Option<IpAddr>,
) -> Result<GameHandle, AppError> {
    let id = GameId::random();
    let (tx, rx) = mpsc::channel(64);
    let handle = GameHandle { id: id.clone(), tx };
    state.register(handle.clone(), asked_from)?;
    let start = Position::start(setup.rules);
    let game = Game {
        id,
        shared: Arc::downgrade(state),
        handle: handle.clone(),
        asked_from,
        date: record_date(SystemTime::now()),
        clock: setup.clock.map(Clock::new),
        setup,
        seats,
        pos: start.clone(),
        start,
        moves: Vec::new(),
        hashes: Vec::new(),
        ending: None,
        draw_offer: None,
        rematch_offer: None,
        rematch: None,
        events: Vec::new(),
        watchers: broadcast::channel(128).0,
        online: ByColour::default(),
        spectators: 0,
        away_since: ByColour::default(),
        empty_since: Some(Instant::now()),
        last_turn_id: ByColour::default(),
        lag: ByColour::default(),
        thinking: None,
        tickets: 0,
    };
    tokio::spawn(game.run(rx));
    Ok(handle)
}

fn colour_word(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "Pale",
        Colour::Black => "Dark",
    }
}

impl Game {
    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        self.start_if_ready(Instant::now());
        self.ask_computer();
        loop {
            let wake = self.next_wake();
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd),
                    None => break,
                },
                () = sleep_until(wake.unwrap_or_else(Instant::now)), if wake.is_some() => {}
            }
            let now = Instant::now();
            self.check_flag(now);
            if self.expired(now) {
                break;
            }
        }
        if let Some(shared) = self.shared.upgrade() {
            shared.forget(&self.id);
        }
        tracing::debug!(game = %self.id, "game forgotten");
    }

    fn config(&self) -> Option<crate::config::Config> {
        self.shared.upgrade().map(|s| s.config.clone())
    }

    /// The next moment something happens by itself: a flag falls, or the game is forgotten.
    fn next_wake(&self) -> Option<Instant> {
        let config = self.config()?;
        let flag = self
            .clock
            .as_ref()
            .filter(|_| self.ending.is_none())
            .and_then(|c| c.flag_at())
            .map(|(_, at)| at);
        let finished = self.ending.as_ref().map(|e| e.at + config.finished_grace);
        let idle = self.empty_since.map(|t| t + config.idle_timeout);
        [flag, finished, idle].into_iter().flatten().min()
    }

    fn expired(&self, now: Instant) -> bool {
        let Some(config) = self.config() else { return true };
        let finished = self.ending.as_ref().is_some_and(|e| now >= e.at + config.finished_grace);
        let idle = self.empty_since.is_some_and(|t| now >= t + config.idle_timeout);
        finished || idle
    }

    fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Hello { seat, since, reply } => {
                let welcome = self.hello(seat.as_deref(), since);
                let _ = reply.send(welcome);
            }
            Cmd::Act { seat, msg, reply } => {
                let (text, seat) = self.act(seat, msg);
                let _ = reply.send(Reply { text, seat });
            }
            Cmd::Sit { token, reply } => {
                let _ = reply.send(self.sit(token));
            }
            Cmd::Leave { seat } => self.leave(seat),
            Cmd::ComputerMoved { ticket, m } => {
                // A takeback while the engine thought makes its answer stale, even if the
                // game has since come back to the same length.
                if self.thinking == Some(ticket) && self.ending.is_none() {
                    self.thinking = None;
                    let side = self.pos.side();
                    if let Err(e) = self.play(side, m) {
                        tracing::error!(game = %self.id, "the engine chose an illegal move {m}: {e}");
                    }
                }
            }
        }
    }

    fn seat_of(&self, token: &str) -> Option<Colour> {
        [Colour::White, Colour::Black]
            .into_iter()
            .find(|c| matches!(&self.seats[*c], Seat::Human(t) if t.matches(token)))
    }

    fn hello(&mut self, token: Option<&str>, since: Option<u64>) -> Welcome {
        let seat = token.and_then(|t| self.seat_of(t));
        let mut messages = Vec::new();
        if token.is_some() && seat.is_none() {
            messages.push(protocol::error(
                "that seat link does not belong to this game; you are watching",
            ));
        }
        let current = self.events.len() as u64;
        match since {
            Some(v) if v <= current => {
                messages.extend(self.events[v as usize..].iter().cloned());
            }
            _ => messages.push(self.snapshot(seat)),
        }
        // Subscribed here, in the actor, so that the first event the connection hears is the one
        // after what it was just sent.
        let events = self.watchers.subscribe();
        self.arrive(seat);
        messages.push(self.presence());
        Welcome { seat, messages, events }
    }

    fn arrive(&mut self, seat: Option<Colour>) {
        self.empty_since = None;
        match seat {
            Some(c) => {
                self.online[c] += 1;
                if self.away_since[c].take().is_some() {
                    self.announce_presence();
                }
            }
            None => self.spectators += 1,
        }
        self.relist();
    }

    fn leave(&mut self, seat: Option<Colour>) {
        let now = Instant::now();
        match seat {
            Some(c) => {
                self.online[c] = self.online[c].saturating_sub(1);
                if self.online[c] == 0 {
                    self.away_since[c] = Some(now);
                    self.announce_presence();
                }
            }
            None => self.spectators = self.spectators.saturating_sub(1),
        }
        if self.online.white + self.online.black + self.spectators == 0 {
            self.empty_since = Some(now);
        }
        self.relist();
    }

    /// An open table is listed while it has a free seat and the person waiting at it is
    /// connected: nobody should sit down opposite an empty chair.
    fn relist(&self) {
        let Some(shared) = self.shared.upgrade() else { return };
        if self.setup.opponent != Opponent::Open {
            return;
        }
        match self.free_seat() {
            Some(free) if self.ending.is_none() && self.online[!free] > 0 => shared.lobby.open(
                self.id.clone(),
                Table {
                    game: self.id.to_string(),
                    rules: self.setup.rules.to_string(),
                    clock: self.setup.clock,
                    seat: colour_name(free),
                },
            ),
            _ => shared.lobby.close(&self.id),
        }
    }

    fn announce_presence(&self) {
        let _ = self.watchers.send(self.presence());
    }

    /// Who is connected, and for a player who is gone, how long until the opponent may claim.
    fn presence(&self) -> Arc<str> {
        let now = Instant::now();
        let claim_after = self.config().map(|c| c.claim_after).unwrap_or_default();
        let one = |c: Colour| match &self.seats[c] {
            Seat::Computer(_) => json!({ "online": true }),
            Seat::Open => json!({ "online": false, "open": true }),
            Seat::Human(_) => match self.away_since[c] {
                Some(t) if self.online[c] == 0 => {
                    let away = now.saturating_duration_since(t);
                    json!({ "online": false, "awayMs": away.as_millis() as u64,
                            "claimInMs": claim_after.saturating_sub(away).as_millis() as u64 })
                }
                _ => json!({ "online": self.online[c] > 0 }),
            },
        };
        protocol::message(
            "presence",
            json!({ "white": one(Colour::White), "black": one(Colour::Black), "watchers": self.spectators }),
        )
    }

    fn seat_kind(&self, c: Colour) -> Value {
        match &self.seats[c] {
            Seat::Open => json!({ "kind": "open" }),
            Seat::Human(_) => json!({ "kind": "human" }),
            Seat::Computer(level) => json!({ "kind": "computer", "level": level.get() }),
        }
    }

    fn opponent_name(&self) -> &'static str {
        match self.setup.opponent {
            Opponent::Friend => "friend",
            Opponent::Computer(_) => "computer",
            Opponent::Open => "open",
        }
    }

    fn snapshot(&self, you: Option<Colour>) -> Arc<str> {
        let now = Instant::now();
        let d = json!({
            "id": self.id.as_str(),
            "rules": self.setup.rules.to_string(),
            "opponent": self.opponent_name(),
            "you": you.map(colour_name),
            "seats": { "white": self.seat_kind(Colour::White), "black": self.seat_kind(Colour::Black) },
            "start": self.start.to_string(),
            "moves": self.moves.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "pos": PositionView::of(&self.pos),
            "clock": self.clock.as_ref().map(|c| c.view(now)),
            "end": self.ending.as_ref().map(|e| self.ending_json(e)),
            "drawOffer": self.draw_offer.map(colour_name),
            "rematchOffer": self.rematch_offer.map(colour_name),
            "rematch": self.rematch.as_ref().map(GameId::as_str),
            "takebacks": matches!(self.setup.opponent, Opponent::Computer(_)),
            "claimAfterMs": self.config().map(|c| c.claim_after.as_millis() as u64),
        });
        protocol::event("snapshot", d, self.events.len() as u64)
    }

    /// Numbers an event, keeps it for clients that come back, and tells every connection.
    fn publish(&mut self, t: &str, d: Value) {
        let v = self.events.len() as u64 + 1;
        let text = protocol::event(t, d, v);
        self.events.push(Arc::clone(&text));
        let _ = self.watchers.send(text);
    }

    fn both_seated(&self) -> bool {
        !matches!(self.seats.white, Seat::Open) && !matches!(self.seats.black, Seat::Open)
    }

    /// Starts the clock of the side to move once both seats are filled.
    fn start_if_ready(&mut self, now: Instant) {
        if self.ending.is_none() && self.both_seated() {
            let side = self.pos.side();
            if let Some(clock) = self.clock.as_mut() {
                if clock.running().is_none() {
                    clock.start(side, now);
                }
            }
        }
    }

    fn act(&mut self, seat: Option<Colour>, msg: ClientMessage) -> (Arc<str>, Option<Colour>) {
        let outcome = match msg {
            ClientMessage::Move { id, text } => return (self.turn(seat, id, &text), seat),
            ClientMessage::Join => return self.join(seat),
            ClientMessage::Ping { lag } => {
                if let Some(c) = seat {
                    self.lag[c] = protocol::lag(lag);
                }
                return (protocol::message("pong", Value::Null), seat);
            }
            ClientMessage::Hello { .. } => Err("you have already said hello".to_owned()),
            ClientMessage::Resign => self.resign(seat),
            ClientMessage::DrawOffer => self.offer_draw(seat),
            ClientMessage::DrawDecline => self.decline_draw(seat),
            ClientMessage::Takeback => self.takeback(seat),
            ClientMessage::Rematch => self.ask_rematch(seat),
            ClientMessage::Claim => self.claim(seat),
        };
        let text = match outcome {
            Ok(()) => protocol::message("ok", Value::Null),
            Err(reason) => protocol::error(&reason),
        };
        (text, seat)
    }

    fn player(&self, seat: Option<Colour>) -> Result<Colour, String> {
        seat.ok_or_else(|| "you are watching this game, not playing in it".to_owned())
    }

    fn ongoing(&self) -> Result<(), String> {
        match &self.ending {
            Some(_) => Err("the game is over".to_owned()),
            None => Ok(()),
        }
    }

    fn free_seat(&self) -> Option<Colour> {
        [Colour::White, Colour::Black].into_iter().find(|c| matches!(self.seats[*c], Seat::Open))
    }

    /// A connection takes the free seat: the invite link, or a watcher of a table.
    fn join(&mut self, seat: Option<Colour>) -> (Arc<str>, Option<Colour>) {
        if seat.is_some() {
            return (protocol::error("you already hold a seat in this game"), seat);
        }
        let Some(colour) = self.free_seat() else {
            let reason = if self.setup.opponent == Opponent::Open {
                "someone else sat down at this table first; you are watching"
            } else {
                "both seats are taken; you are watching"
            };
            return (protocol::error(reason), None);
        };
        let token = SeatToken::random();
        // The connection stops counting as a watcher and starts counting as the player.
        self.spectators = self.spectators.saturating_sub(1);
        self.online[colour] += 1;
        self.seat_person(colour, token.clone(), Instant::now());
        (
            protocol::message(
                "joined",
                json!({ "seat": token.as_str(), "colour": colour_name(colour) }),
            ),
            Some(colour),
        )
    }

    /// Someone sits down at this open table before their page has connected ("play anyone"
    /// handed it to them, or they pressed "Sit down"). The seat is theirs from this moment:
    /// had they been sent to the page to ask for it, someone following an older listing of the
    /// lobby could take it in between, and they would arrive to watch instead of play.
    fn sit(&mut self, token: SeatToken) -> Result<Colour, SitRefused> {
        if self.setup.opponent != Opponent::Open || self.ending.is_some() {
            return Err(SitRefused::Closed);
        }
        let free = self.free_seat().ok_or(SitRefused::Taken)?;
        // Nobody should sit down opposite an empty chair (the lobby lists no such table).
        if self.online[!free] == 0 {
            return Err(SitRefused::Closed);
        }
        let now = Instant::now();
        // Away until their page connects, so that if it never does the opponent may claim.
        self.away_since[free] = Some(now);
        self.seat_person(free, token, now);
        Ok(free)
    }

    /// Fills the free seat `colour`: off the lobby, the clock starts, everyone is told.
    fn seat_person(&mut self, colour: Colour, token: SeatToken, now: Instant) {
        self.seats[colour] = Seat::Human(token);
        if let Some(shared) = self.shared.upgrade() {
            shared.lobby.close(&self.id);
        }
        self.start_if_ready(now);
        let clock = self.clock.as_ref().map(|c| c.view(now));
        self.publish("seated", json!({ "colour": colour_name(colour), "clock": clock }));
        self.announce_presence();
    }

    fn turn(&mut self, seat: Option<Colour>, id: u64, text: &str) -> Arc<str> {
        let rejected =
            |reason: &str| protocol::message("rejected", json!({ "id": id, "reason": reason }));
        let Some(colour) = seat else {
            return rejected("you are watching this game, not playing in it");
        };
        // The same turn sent again (say, after a reconnect) is answered as before, not replayed.
        if self.last_turn_id[colour] == Some(id) {
            return protocol::message("accepted", json!({ "id": id }));
        }
        if self.ending.is_some() {
            return rejected("the game is over");
        }
        if !self.both_seated() {
            return rejected("wait for your opponent to sit down");
        }
        if self.pos.side() != colour {
            return rejected("it is not your turn");
        }
        let m = match self.pos.parse_move(text) {
            Ok(m) => m,
            Err(e) => return rejected(&e.to_string()),
        };
        match self.play(colour, m) {
            Ok(()) => {
                self.last_turn_id[colour] = Some(id);
                protocol::message("accepted", json!({ "id": id }))
            }
            Err(reason) => rejected(&reason),
        }
    }

    /// Plays a legal move for `colour`: clock, event, end of game, then the computer's turn.
    fn play(&mut self, colour: Colour, m: Move) -> Result<(), String> {
        let now = Instant::now();
        if let Some(clock) = self.clock.as_mut() {
            if !clock.punch(now, self.lag[colour]) {
                self.finish(
                    GameResult::of_winner(!colour),
                    format!("{} ran out of time", colour_word(colour)),
                    now,
                );
                return Err("your time ran out".to_owned());
            }
        }
        self.hashes.push(self.pos.hash());
        self.pos.play(m).map_err(|e| e.to_string())?;
        self.moves.push(m);
        // A move answers a draw offer by declining it.
        self.draw_offer = None;
        if self.pos.is_over() {
            if let Some(clock) = self.clock.as_mut() {
                clock.stop(now);
            }
        } else if let Some(clock) = self.clock.as_mut() {
            clock.start(self.pos.side(), now);
        }
        let clock = self.clock.as_ref().map(|c| c.view(now));
        self.publish(
            "move",
            json!({ "m": m.to_string(), "ply": self.moves.len(), "pos": PositionView::of(&self.pos), "clock": clock }),
        );
        match self.pos.status() {
            Status::Ongoing => self.ask_computer(),
            Status::Won { winner, reason } => {
                let loser = colour_word(!winner);
                let why = match reason {
                    WinReason::FewStones => {
                        format!("{loser} has too few stones left to make a row of three")
                    }
                    WinReason::NoMoves => format!("{loser} has no stone that can step"),
                };
                self.finish(GameResult::of_winner(winner), why, now);
            }
            Status::Drawn(DrawReason::QuietPlies) => {
                let n = self.setup.rules.quiet().unwrap_or(0);
                self.finish(
                    GameResult::Draw,
                    format!("{n} movement plies passed without a capture"),
                    now,
                );
            }
        }
        Ok(())
    }

    fn ask_computer(&mut self) {
        if self.ending.is_some() || self.thinking.is_some() {
            return;
        }
        let Seat::Computer(level) = self.seats[self.pos.side()] else { return };
        let Some(shared) = self.shared.upgrade() else { return };
        self.tickets += 1;
        let ticket = self.tickets;
        self.thinking = Some(ticket);
        let (pos, history, handle) = (self.pos.clone(), self.hashes.clone(), self.handle.clone());
        let computer = shared.computer.clone();
        tokio::spawn(async move {
            if let Some(m) = computer.choose(pos, history, level).await {
                handle.computer_moved(ticket, m).await;
            }
        });
    }

    fn check_flag(&mut self, now: Instant) {
        if self.ending.is_some() {
            return;
        }
        let Some((colour, at)) = self.clock.as_ref().and_then(|c| c.flag_at()) else { return };
        if now >= at {
            if let Some(clock) = self.clock.as_mut() {
                clock.stop(now);
            }
            self.finish(
                GameResult::of_winner(!colour),
                format!("{} ran out of time", colour_word(colour)),
                now,
            );
        }
    }

    fn ending_json(&self, e: &Ending) -> Value {
        json!({
            "result": e.result.to_string(),
            "winner": e.result.winner().map(colour_name),
            "reason": e.reason,
            "record": self.record(e.result).to_string(),
        })
    }

    fn record(&self, result: GameResult) -> Record {
        let mut record = Record::new(self.start.clone());
        for m in &self.moves {
            // Every move was legal when played, from this same start.
            let _ = record.push(*m);
        }
        let name = |c: Colour| match &self.seats[c] {
            Seat::Computer(level) => format!("Computer level {}", level.get()),
            _ => "Anonymous".to_owned(),
        };
        record.set_tag("Event", "Casual game");
        record.set_tag("Date", &self.date);
        record.set_tag("White", &name(Colour::White));
        record.set_tag("Black", &name(Colour::Black));
        record.set_tag("Rules", &self.setup.rules.to_string());
        record.result = result;
        record
    }

    fn finish(&mut self, result: GameResult, reason: String, now: Instant) {
        if self.ending.is_some() {
            return;
        }
        if let Some(clock) = self.clock.as_mut() {
            clock.stop(now);
        }
        let ending = Ending { result, reason, at: now };
        let mut d = self.ending_json(&ending);
        d["clock"] = json!(self.clock.as_ref().map(|c| c.view(now)));
        self.ending = Some(ending);
        self.draw_offer = None;
        self.publish("end", d);
        if let Some(shared) = self.shared.upgrade() {
            shared.lobby.close(&self.id);
        }
    }

    fn resign(&mut self, seat: Option<Colour>) -> Result<(), String> {
        let colour = self.player(seat)?;
        self.ongoing()?;
        self.finish(
            GameResult::of_winner(!colour),
            format!("{} resigned", colour_word(colour)),
            Instant::now(),
        );
        Ok(())
    }

    fn offer_draw(&mut self, seat: Option<Colour>) -> Result<(), String> {
        let colour = self.player(seat)?;
        self.ongoing()?;
        if !self.both_seated() {
            return Err("there is nobody to offer a draw to yet".to_owned());
        }
        match self.draw_offer {
            Some(by) if by == !colour => {
                self.finish(GameResult::Draw, "drawn by agreement".to_owned(), Instant::now());
            }
            Some(_) => return Err("you have already offered a draw".to_owned()),
            None => {
                if matches!(self.seats[!colour], Seat::Computer(_)) {
                    return Err("the computer plays every game out".to_owned());
                }
                self.draw_offer = Some(colour);
                self.publish("draw-offer", json!({ "by": colour_name(colour) }));
            }
        }
        Ok(())
    }

    fn decline_draw(&mut self, seat: Option<Colour>) -> Result<(), String> {
        let colour = self.player(seat)?;
        self.ongoing()?;
        if self.draw_offer != Some(!colour) {
            return Err("there is no draw on offer to you".to_owned());
        }
        self.draw_offer = None;
        self.publish("draw-decline", json!({ "by": colour_name(colour) }));
        Ok(())
    }

    /// Against the computer: back to the player's previous turn, undoing the computer's reply
    /// too (or only the player's move, if the computer has not answered yet).
    fn takeback(&mut self, seat: Option<Colour>) -> Result<(), String> {
        let colour = self.player(seat)?;
        if !matches!(self.seats[!colour], Seat::Computer(_)) {
            return Err("takebacks are only for games against the computer".to_owned());
        }
        if let Some(e) = &self.ending {
            // After a resignation there is nothing to go back to; after the rules ended the
            // game, the player may still want to try another line.
            if matches!(e.result, GameResult::Unfinished) || !self.pos.is_over() {
                return Err("the game is over".to_owned());
            }
        }
        // Who made each move: replayed, because the movement phase always opens with the pale
        // stones, so turns need not alternate across the change of phase.
        let mut pos = self.start.clone();
        let mut movers = Vec::with_capacity(self.moves.len());
        for m in &self.moves {
            movers.push(pos.side());
            pos.play_unchecked(*m);
        }
        let first_undone =
            movers.iter().rposition(|c| *c == colour).ok_or("you have no move to take back")?;
        let plies = self.moves.len() - first_undone;
        self.moves.truncate(first_undone);
        self.hashes.truncate(first_undone);
        let mut pos = self.start.clone();
        for m in &self.moves {
            pos.play_unchecked(*m);
        }
        self.pos = pos;
        self.thinking = None;
        self.ending = None;
        self.publish(
            "takeback",
            json!({ "plies": plies, "ply": self.moves.len(), "pos": PositionView::of(&self.pos) }),
        );
        self.ask_computer();
        Ok(())
    }

    fn ask_rematch(&mut self, seat: Option<Colour>) -> Result<(), String> {
        let colour = self.player(seat)?;
        if self.ending.is_none() {
            return Err("finish this game first".to_owned());
        }
        if self.rematch.is_some() {
            return Err("the rematch has already begun".to_owned());
        }
        let computer = matches!(self.seats[!colour], Seat::Computer(_));
        match self.rematch_offer {
            Some(by) if by == colour => Err("you have already asked for a rematch".to_owned()),
            Some(_) => self.start_rematch(),
            None if computer => self.start_rematch(),
            None => {
                self.rematch_offer = Some(colour);
                self.publish("rematch-offer", json!({ "by": colour_name(colour) }));
                Ok(())
            }
        }
    }

    /// A new game with the same people, colours swapped: each keeps their own token, so their
    /// browser needs nothing new to take its seat.
    fn start_rematch(&mut self) -> Result<(), String> {
        let shared = self.shared.upgrade().ok_or("the server is shutting down")?;
        let seats = ByColour { white: self.seats.black.clone(), black: self.seats.white.clone() };
        let mut setup = self.setup.clone();
        // A rematch is between these two people: it is not listed in the lobby.
        if setup.opponent == Opponent::Open {
            setup.opponent = Opponent::Friend;
        }
        setup.creator = !setup.creator;
        let handle = spawn(&shared, setup, seats, self.asked_from).map_err(|e| e.reason())?;
        self.rematch = Some(handle.id.clone());
        self.rematch_offer = None;
        self.publish("rematch", json!({ "game": handle.id.as_str() }));
        Ok(())
    }

    fn claim(&mut self, seat: Option<Colour>) -> Result<(), String> {
        let colour = self.player(seat)?;
        self.ongoing()?;
        let claim_after = self.config().map(|c| c.claim_after).unwrap_or_default();
        let gone = !colour;
        match (&self.seats[gone], self.away_since[gone]) {
            (Seat::Human(_), Some(since)) if self.online[gone] == 0 => {
                let now = Instant::now();
                let away = now.saturating_duration_since(since);
                if away < claim_after {
                    let left = (claim_after - away).as_secs() + 1;
                    return Err(format!(
                        "your opponent may still come back: you can claim in {left} s"
                    ));
                }
                self.finish(
                    GameResult::of_winner(colour),
                    format!("{} left the game", colour_word(gone)),
                    now,
                );
                Ok(())
            }
            _ => Err("your opponent is still here".to_owned()),
        }
    }
}

trait OfWinner {
    fn of_winner(winner: Colour) -> GameResult;
}

impl OfWinner for GameResult {
    fn of_winner(winner: Colour) -> GameResult {
        match winner {
            Colour::White => GameResult::WhiteWins,
            Colour::Black => GameResult::BlackWins,
        }
    }
}
