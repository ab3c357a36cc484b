//! One game's sockets in play (two seats between people, one against the computer): turns sent
//! when due (at `--rate`), pings when a socket has been quiet, and every frame read and checked
//! against what the driver sent and was told.

use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use rand::rngs::SmallRng;
use rand::Rng;
use tokio::time::{Instant, MissedTickBehavior};
use tokio_tungstenite::tungstenite::{Error as WsError, Message, Utf8Bytes};

use super::seat::Seat;
use super::{Shared, Stop, SILENCE};
use crate::loadtest::wire::{self, Incoming, Position};

/// The page pings a socket it has sent nothing on for this long (PROTOCOL.md, Limits).
const PING_WHEN_QUIET: Duration = Duration::from_secs(2);
/// How often the page looks whether a ping is due.
const PING_LOOK: Duration = Duration::from_secs(1);

/// Why the select loop woke.
enum Wake {
    Frame(usize, Option<Result<Message, WsError>>),
    Turn,
    Ping,
}

/// Plays the game of `seats` (the creator's, then the joiner's if the opponent is a friend)
/// until it ends or fails.
pub(super) async fn play(
    shared: &Shared,
    rng: &mut SmallRng,
    seats: Vec<Seat>,
    first: &mut bool,
) -> Stop {
    let mut game =
        Game { shared, rng, seats, next_id: 1, next_turn: Instant::now(), started: false, first };
    let stop = game.run().await;
    if game.started {
        shared.stats.in_play.fetch_sub(1, Relaxed);
    }
    stop
}

struct Game<'a> {
    shared: &'a Shared,
    rng: &'a mut SmallRng,
    /// The creator's seat, then the joiner's in a game between people.
    seats: Vec<Seat>,
    next_id: u64,
    /// When the next turn may be sent, at `--rate`.
    next_turn: Instant,
    /// Both seats are seated: counted in `in_play`.
    started: bool,
    /// The slot's first game, not yet counted as attempted.
    first: &'a mut bool,
}

impl Game<'_> {
    async fn run(&mut self) -> Stop {
        let stats = &self.shared.stats;
        // Looks spread over the period, not all games at once.
        let offset = self.rng.gen_range(Duration::ZERO..PING_LOOK);
        let mut ping = tokio::time::interval_at(Instant::now() + offset, PING_LOOK);
        ping.set_missed_tick_behavior(MissedTickBehavior::Delay);
        if let Some(every) = self.shared.turn_every {
            // Games out of step with each other, as people are.
            self.next_turn = Instant::now() + self.rng.gen_range(Duration::ZERO..every);
        }
        let turn_timer = tokio::time::sleep_until(self.next_turn);
        tokio::pin!(turn_timer);
        let mut last_heard = Instant::now();
        loop {
            let wait_for_turn = match self.send_due_turn().await {
                Ok(wait) => wait,
                Err(stop) => return stop,
            };
            if wait_for_turn && turn_timer.deadline() != self.next_turn {
                turn_timer.as_mut().reset(self.next_turn);
            }
            let (a, rest) = self.seats.split_first_mut().expect("a game has its creator's seat");
            let wake = tokio::select! {
                frame = a.ws.next() => Wake::Frame(0, frame),
                frame = next_frame(rest.first_mut()) => Wake::Frame(1, frame),
                () = &mut turn_timer, if wait_for_turn => Wake::Turn,
                _ = ping.tick() => Wake::Ping,
            };
            let result = match wake {
                Wake::Frame(i, frame) => {
                    let received = Instant::now();
                    last_heard = received;
                    self.on_frame(i, frame, received).await
                }
                Wake::Turn => Ok(()),
                Wake::Ping => {
                    if last_heard.elapsed() > SILENCE {
                        stats.timed_out.fetch_add(1, Relaxed);
                        stats.tell(|| format!("a game said nothing for {} s", SILENCE.as_secs()));
                        return Stop::Failed;
                    }
                    self.ping().await
                }
            };
            if let Err(stop) = result {
                return stop;
            }
        }
    }

    /// Sends the turn of the seat whose side it is, if one is ready and it is time; tells
    /// whether a turn waits for its time.
    async fn send_due_turn(&mut self) -> Result<bool, Stop> {
        let Some(i) =
            (0..self.seats.len()).find(|&i| self.seats[i].seated && self.seats[i].choice.is_some())
        else {
            return Ok(false);
        };
        let now = Instant::now();
        if let Some(every) = self.shared.turn_every {
            if now < self.next_turn {
                return Ok(true);
            }
            // On schedule while the server keeps up; no burst to catch up when it did not.
            self.next_turn = (self.next_turn + every).max(now);
        }
        let id = self.next_id;
        self.next_id += 1;
        let seat = &mut self.seats[i];
        let choice = seat.choice.take().expect("a seat with a choice");
        let frame = wire::turn(id, &choice, seat.lag_ms);
        seat.sent = choice;
        seat.sent_ply = seat.ply + 1;
        let at = Instant::now();
        seat.sent_at = at;
        seat.awaiting.push_back((id, at));
        self.send(i, frame.into()).await?;
        Ok(false)
    }

    /// Pings each socket that has sent nothing for a while, as the page does.
    async fn ping(&mut self) -> Result<(), Stop> {
        for i in 0..self.seats.len() {
            // Before its snapshot a socket's hello may still be answered (and said again without
            // `protocol`): a ping then would be refused with `hello-first`.
            let seat = &self.seats[i];
            if seat.version.is_some() && seat.last_sent.elapsed() >= PING_WHEN_QUIET {
                self.send(i, Utf8Bytes::from_static(wire::PING.as_str())).await?;
            }
        }
        Ok(())
    }

    async fn send(&mut self, i: usize, text: Utf8Bytes) -> Result<(), Stop> {
        match self.seats[i].ws.send(Message::Text(text)).await {
            Ok(()) => {
                self.seats[i].last_sent = Instant::now();
                Ok(())
            }
            Err(e) => {
                self.shared.stats.closed(0);
                self.shared.stats.tell(|| format!("a socket failed while sending: {e}"));
                Err(Stop::Failed)
            }
        }
    }

    async fn on_frame(
        &mut self,
        i: usize,
        frame: Option<Result<Message, WsError>>,
        received: Instant,
    ) -> Result<(), Stop> {
        let stats = &self.shared.stats;
        match frame {
            Some(Ok(Message::Text(text))) => self.on_text(i, text.as_str(), received).await,
            // Pings are answered by tungstenite as it reads.
            Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => Ok(()),
            Some(Ok(Message::Binary(_))) => self.desync(i, "a binary frame".into()),
            Some(Ok(Message::Close(frame))) => {
                let (code, reason) =
                    frame.map_or((0, String::new()), |f| (u16::from(f.code), f.reason.to_string()));
                stats.closed(code);
                stats.tell(|| format!("the server closed a socket: {code} {reason}"));
                Err(Stop::Failed)
            }
            Some(Err(e)) => {
                stats.closed(0);
                stats.tell(|| format!("a socket failed: {e}"));
                Err(Stop::Failed)
            }
            None => {
                stats.closed(0);
                stats.tell(|| "the server dropped a socket without a close frame".to_owned());
                Err(Stop::Failed)
            }
        }
    }

    fn desync(&self, i: usize, what: String) -> Result<(), Stop> {
        let stats = &self.shared.stats;
        stats.desynced.fetch_add(1, Relaxed);
        let who = if self.seats[i].joiner { "joiner" } else { "creator" };
        stats.tell(|| format!("desynced ({who}'s socket): {what}"));
        Err(Stop::Failed)
    }

    async fn on_text(&mut self, i: usize, text: &str, received: Instant) -> Result<(), Stop> {
        let msg = match Incoming::parse(text) {
            Ok(msg) => msg,
            Err(e) => return self.desync(i, format!("unreadable ({e}): {text}")),
        };
        if let Some(v) = msg.v {
            let seat = &mut self.seats[i];
            match (seat.version, msg.t) {
                (None, "snapshot") => {}
                (None, _) => {
                    return self.desync(i, format!("an event before the snapshot: {text}"))
                }
                (Some(_), "snapshot") => {
                    return self.desync(i, format!("a second snapshot: {text}"))
                }
                (Some(last), _) if v != last + 1 => {
                    return self.desync(i, format!("version {v} after {last}: {text}"));
                }
                _ => {}
            }
            seat.version = Some(v);
        } else if matches!(msg.t, "snapshot" | "seated" | "move" | "end") {
            return self.desync(i, format!("an event without a version: {text}"));
        }
        let d = msg.d.unwrap_or_default();
        match msg.t {
            "snapshot" => {
                if d.end.is_some() {
                    return self.desync(i, "a new game has already ended".into());
                }
                let seat = &mut self.seats[i];
                seat.ply = d.moves.map_or(0, |n| n.0);
                seat.colour = d.you.and_then(wire::colour);
                seat.seated = d.seats.is_some_and(|s| s.both_seated());
                let join = seat.joiner && seat.colour.is_none();
                self.position(i, d.pos)?;
                if join {
                    self.send(i, Utf8Bytes::from_static(wire::JOIN.as_str())).await?;
                }
            }
            "joined" => {
                let seat = &mut self.seats[i];
                let Some(colour) = d.colour.and_then(wire::colour) else {
                    return self.desync(i, format!("joined with no colour: {text}"));
                };
                if !seat.joiner || seat.colour.is_some() {
                    return self.desync(i, format!("joined without asking: {text}"));
                }
                seat.colour = Some(colour);
                if let Some((side, legal)) = seat.legal_before_joining.take() {
                    if side == colour && !self.shared.idle && !legal.is_empty() {
                        let pick = self.rng.gen_range(0..legal.len());
                        seat.choice = Some(legal[pick].clone());
                    }
                }
            }
            "seated" => self.seats[i].seated = true,
            "move" => self.on_move(i, d.m, d.ply, d.pos, received)?,
            "accepted" => {
                let seat = &mut self.seats[i];
                match seat.awaiting.pop_front() {
                    Some((id, at)) if d.id == Some(id) => {
                        let trip = received.saturating_duration_since(at);
                        seat.lag_ms = (trip / 2).as_millis() as u64;
                        self.shared.stats.accepted(trip);
                    }
                    _ => return self.desync(i, format!("accepted a turn not sent: {text}")),
                }
            }
            "rejected" => {
                let stats = &self.shared.stats;
                stats.rejected.fetch_add(1, Relaxed);
                let sent = &self.seats[i].sent;
                stats.tell(|| format!("a legal turn was rejected: sent {sent}, answered {text}"));
                return Err(Stop::Failed);
            }
            "error" => {
                let seat = &mut self.seats[i];
                if seat.version.is_none() && seat.hello_had_protocol {
                    // A server older than hello's `protocol` field (the previous release, side by
                    // side) refuses it: say hello without it.
                    let stats = &self.shared.stats;
                    if !stats.protocol_refused.swap(true, Relaxed) {
                        eprintln!(
                            "loadtest: the server refused hello with \"protocol\" ({text}); \
                             saying hello without it"
                        );
                    }
                    seat.hello_had_protocol = false;
                    let hello = wire::hello(seat.token.as_deref(), None);
                    return self.send(i, hello.into()).await;
                }
                return self.desync(i, format!("an error: {text}"));
            }
            "end" => return Err(Stop::Ended),
            "presence" | "pong" => {}
            // The computer's search for this game waits for an engine thread.
            "queue" if self.shared.against_computer() => match d.ahead {
                Some(ahead) => self.shared.stats.queued(ahead),
                None => return self.desync(i, format!("a queue without its place: {text}")),
            },
            _ => return self.desync(i, format!("unexpected: {text}")),
        }
        if !self.started && self.seats.iter().all(|s| s.seated && s.colour.is_some()) {
            self.started = true;
            self.shared.stats.in_play.fetch_add(1, Relaxed);
            if std::mem::take(self.first) {
                self.shared.stats.first_attempts.fetch_add(1, Relaxed);
            }
        }
        Ok(())
    }

    fn on_move(
        &mut self,
        i: usize,
        m: Option<&str>,
        ply: Option<u64>,
        pos: Option<Position<'_>>,
        received: Instant,
    ) -> Result<(), Stop> {
        let (Some(m), Some(ply)) = (m, ply) else {
            return self.desync(i, "a move event without its move or ply".into());
        };
        let seen = self.seats[i].ply;
        if ply != seen + 1 {
            return self.desync(i, format!("a move event for ply {ply} after ply {seen}"));
        }
        self.seats[i].ply = ply;
        let Some(mover) = (0..self.seats.len()).find(|&j| self.seats[j].sent_ply == ply) else {
            if self.shared.against_computer() {
                return self.on_reply(i, m, ply, pos, received);
            }
            return self.desync(i, format!("{m} at ply {ply}, a turn nobody sent"));
        };
        if m != self.seats[mover].sent {
            let sent = &self.seats[mover].sent;
            return self.desync(i, format!("sent {sent} for ply {ply}, the event says {m}"));
        }
        if mover != i {
            let at = self.seats[mover].sent_at;
            self.shared.stats.delivered(received.saturating_duration_since(at));
        }
        self.position(i, pos)
    }

    /// The computer's move, seen by seat `i` (the driver's only seat in a game against it): it
    /// must answer the seat's last turn, as the driver holds the side that moves first; its
    /// reply time runs from when that turn was sent.
    fn on_reply(
        &mut self,
        i: usize,
        m: &str,
        ply: u64,
        pos: Option<Position<'_>>,
        received: Instant,
    ) -> Result<(), Stop> {
        let seat = &self.seats[i];
        if ply != seat.sent_ply + 1 {
            let sent = seat.sent_ply;
            return self
                .desync(i, format!("the computer's {m} at ply {ply}, after our ply {sent}"));
        }
        self.shared.stats.replied(received.saturating_duration_since(seat.sent_at));
        self.position(i, pos)
    }

    /// A new position for seat `i`: if it is its side, it picks its next turn now.
    fn position(&mut self, i: usize, pos: Option<Position<'_>>) -> Result<(), Stop> {
        let Some(pos) = pos else {
            return self.desync(i, "an event without its position".into());
        };
        let Some(side) = wire::colour(pos.side) else {
            return self.desync(i, format!("side {:?}", pos.side));
        };
        let seat = &mut self.seats[i];
        seat.choice = None;
        if self.shared.idle {
            return Ok(());
        }
        match seat.colour {
            Some(colour) if colour == side && !pos.legal.is_empty() => {
                let pick = self.rng.gen_range(0..pos.legal.len());
                seat.choice = Some(pos.legal[pick].to_owned());
            }
            Some(_) => {}
            None => {
                let legal = pos.legal.iter().map(|&m| m.to_owned()).collect();
                seat.legal_before_joining = Some((side, legal));
            }
        }
        Ok(())
    }
}

/// The next frame of the joiner's socket; a game against the computer has none, and waits here
/// for ever (the creator's socket and the timers wake the game).
async fn next_frame(seat: Option<&mut Seat>) -> Option<Result<Message, WsError>> {
    match seat {
        Some(seat) => seat.ws.next().await,
        None => std::future::pending().await,
    }
}
