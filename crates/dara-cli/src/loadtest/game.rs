//! One game kept in play: asked for over HTTP, each seat on its own WebSocket, each playing a
//! random legal turn from the last position it was sent when it is its side to move; replaced
//! by a new game when it ends or fails.
//!
//! One task holds both seats, so a turn's round trips (to its `accepted`, and to the opponent's
//! `move` event) are timed from one clock with no shared state but the counters.

use std::collections::VecDeque;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use dara::Colour;
use futures_util::{SinkExt, StreamExt};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tokio::net::{TcpSocket, TcpStream};
use tokio::time::{Instant, MissedTickBehavior};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};
use tokio_tungstenite::WebSocketStream;

use super::http::{create_game, CreateError};
use super::pacer::Pacer;
use super::stats::Stats;
use super::target::Target;
use super::wire::{self, Incoming, Position};

/// A game that has said nothing for this long (not even `pong`) is given up as stuck.
pub const SILENCE: Duration = Duration::from_secs(30);
/// The page pings a socket it has sent nothing on for this long (PROTOCOL.md, Limits).
const PING_WHEN_QUIET: Duration = Duration::from_secs(4);
/// How often the page looks whether a ping is due.
const PING_LOOK: Duration = Duration::from_secs(1);
/// For a connection, or a WebSocket handshake, to complete.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Before trying again after a refusal or a failure, so a failing server is not hammered.
const RETRY_AFTER: Duration = Duration::from_secs(1);

/// What every game task shares: where the server is, what to play, and what to count.
#[derive(Debug)]
pub struct Shared {
    /// The servers (several nodes of one cluster, or one server): a game is created on one and
    /// its second seat sits on the next, so that in a cluster every game spans two nodes.
    pub targets: Vec<Target>,
    /// The body of `POST /api/games`.
    pub new_game: String,
    /// Between two turns of one game; `None`: as fast as the server answers.
    pub turn_every: Option<Duration>,
    /// Seats only keep their sockets alive.
    pub idle: bool,
    /// The `protocol` field of `hello`, if any.
    pub protocol: Option<u32>,
    /// Loopback addresses to bind sockets to, one per game in turn; empty: the system's choice.
    pub sources: Vec<IpAddr>,
    pub seed: u64,
    pub pacer: Pacer,
    pub stats: Stats,
}

type Socket = WebSocketStream<TcpStream>;

/// Why a game stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// By the rules (an `end` event).
    Ended,
    /// Anything else: counted where it was seen.
    Failed,
}

/// Keeps one game in play for as long as the task lives: the `slot`th of the load.
pub async fn keep_in_play(slot: usize, shared: std::sync::Arc<Shared>) {
    let mut rng =
        SmallRng::seed_from_u64(shared.seed ^ (slot as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let source = (!shared.sources.is_empty()).then(|| shared.sources[slot % shared.sources.len()]);
    let mut first = true;
    loop {
        let n = shared.targets.len();
        let sides = [&shared.targets[slot % n], &shared.targets[(slot + 1) % n]];
        let stop = play_one(&shared, sides, source, &mut rng, &mut first).await;
        if std::mem::take(&mut first) {
            shared.stats.first_attempts.fetch_add(1, Relaxed);
        }
        match stop {
            Stop::Ended => {
                shared.stats.finished.fetch_add(1, Relaxed);
            }
            Stop::Failed => tokio::time::sleep(RETRY_AFTER).await,
        }
    }
}

/// One game from its creation to its end (or failure).
async fn play_one(
    shared: &Shared,
    [home, away]: [&Target; 2],
    source: Option<IpAddr>,
    rng: &mut SmallRng,
    first: &mut bool,
) -> Stop {
    let stats = &shared.stats;
    let created = match connect(shared, home, source).await {
        Ok(stream) => {
            let create = create_game(stream, &home.authority, &shared.new_game);
            tokio::time::timeout(CONNECT_TIMEOUT, create)
                .await
                .unwrap_or_else(|_| Err(CreateError::Io(std::io::ErrorKind::TimedOut.into())))
        }
        Err(e) => Err(CreateError::Io(e)),
    };
    let created = match created {
        Ok(created) => created,
        Err(CreateError::Refused { status, reason }) => {
            stats.refused(status);
            stats.tell(|| format!("POST /api/games refused: {status} {reason}"));
            return Stop::Failed;
        }
        Err(CreateError::Io(e)) => {
            stats.connect_failed.fetch_add(1, Relaxed);
            stats.tell(|| format!("POST /api/games failed: {e}"));
            return Stop::Failed;
        }
        Err(CreateError::Unreadable(e)) => {
            stats.desynced.fetch_add(1, Relaxed);
            stats.tell(|| format!("POST /api/games answered {e}"));
            return Stop::Failed;
        }
    };
    stats.created.fetch_add(1, Relaxed);

    let protocol = shared.protocol.filter(|_| !stats.protocol_refused.load(Relaxed));
    let Some(creator) =
        sit(shared, home, source, &created.game, Some(&created.seat), protocol).await
    else {
        return Stop::Failed;
    };
    let Some(joiner) = sit(shared, away, source, &created.game, None, protocol).await else {
        return Stop::Failed;
    };
    let mut game = Game {
        shared,
        rng,
        seats: [creator, joiner],
        next_id: 1,
        next_turn: Instant::now(),
        started: false,
        first,
    };
    let stop = game.run().await;
    if game.started {
        stats.in_play.fetch_sub(1, Relaxed);
    }
    stop
}

/// A seat's socket, which has said hello (with the seat's token, or none to join after).
async fn sit(
    shared: &Shared,
    target: &Target,
    source: Option<IpAddr>,
    game: &str,
    token: Option<&str>,
    protocol: Option<u32>,
) -> Option<Seat> {
    let mut ws = open_socket(shared, target, source, game).await?;
    let hello = wire::hello(token, protocol);
    if let Err(e) = ws.send(Message::Text(hello.into())).await {
        shared.stats.connect_failed.fetch_add(1, Relaxed);
        shared.stats.tell(|| format!("hello not sent: {e}"));
        return None;
    }
    Some(Seat::new(ws, token, protocol.is_some()))
}

/// A connection to the server, from `source` if given, at the pacer's moment.
async fn connect(
    shared: &Shared,
    target: &Target,
    source: Option<IpAddr>,
) -> std::io::Result<TcpStream> {
    shared.pacer.wait().await;
    let addr = target.addr;
    let socket = if addr.is_ipv4() { TcpSocket::new_v4()? } else { TcpSocket::new_v6()? };
    if let Some(ip) = source {
        socket.bind(SocketAddr::new(ip, 0))?;
    }
    let stream = tokio::time::timeout(CONNECT_TIMEOUT, socket.connect(addr))
        .await
        .map_err(|_| std::io::Error::from(std::io::ErrorKind::TimedOut))??;
    // A turn is one small frame: send it now, not after a delayed acknowledgement.
    stream.set_nodelay(true)?;
    Ok(stream)
}

/// A game's WebSocket, or `None` (counted) when it cannot be opened.
async fn open_socket(
    shared: &Shared,
    target: &Target,
    source: Option<IpAddr>,
    game: &str,
) -> Option<Socket> {
    let stats = &shared.stats;
    let stream = match connect(shared, target, source).await {
        Ok(stream) => stream,
        Err(e) => {
            stats.connect_failed.fetch_add(1, Relaxed);
            stats.tell(|| format!("cannot connect: {e}"));
            return None;
        }
    };
    let url = format!("ws://{}/ws/game/{game}", target.authority);
    // Messages are a few KiB at most: small buffers keep thousands of sockets light, and each
    // frame is written at once.
    let config = WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0)
        .max_message_size(Some(1 << 20))
        .max_frame_size(Some(1 << 20));
    let handshake = tokio_tungstenite::client_async_with_config(url, stream, Some(config));
    match tokio::time::timeout(CONNECT_TIMEOUT, handshake).await {
        Ok(Ok((ws, _))) => Some(ws),
        Ok(Err(e)) => {
            stats.connect_failed.fetch_add(1, Relaxed);
            stats.tell(|| format!("WebSocket handshake failed: {e}"));
            None
        }
        Err(_) => {
            stats.connect_failed.fetch_add(1, Relaxed);
            stats.tell(|| "WebSocket handshake timed out".to_owned());
            None
        }
    }
}

/// One seat's socket and what it has been told.
#[derive(Debug)]
struct Seat {
    ws: Socket,
    /// The creator's seat token; none for the second player.
    token: Option<String>,
    /// Takes the free seat after its snapshot (the second player, by the invite link).
    joiner: bool,
    /// Its `hello` carried the `protocol` field.
    hello_had_protocol: bool,
    /// Known from the snapshot (`you`) or from `joined`.
    colour: Option<Colour>,
    /// The last event's version; `None` until the snapshot.
    version: Option<u64>,
    /// Turns played, by the events this socket received.
    ply: u64,
    /// This socket has been told that both seats are taken.
    seated: bool,
    /// The turn it will play next, picked from the last position when it is its side to move.
    choice: Option<String>,
    /// The last position's legal turns, kept only while the seat's colour is unknown.
    legal_before_joining: Option<(Colour, Vec<String>)>,
    /// The last turn it sent, the ply it makes, and when it was sent.
    sent: String,
    sent_ply: u64,
    sent_at: Instant,
    /// Turns sent and not yet `accepted`, oldest first.
    awaiting: VecDeque<(u64, Instant)>,
    /// When it last sent anything: a ping is due after `PING_WHEN_QUIET`.
    last_sent: Instant,
    /// Half its last turn's round trip, in milliseconds: the lag a page reports with a turn.
    lag_ms: u64,
}

impl Seat {
    fn new(ws: Socket, token: Option<&str>, hello_had_protocol: bool) -> Seat {
        Seat {
            ws,
            token: token.map(str::to_owned),
            joiner: token.is_none(),
            hello_had_protocol,
            colour: None,
            version: None,
            ply: 0,
            seated: false,
            choice: None,
            legal_before_joining: None,
            sent: String::new(),
            sent_ply: 0,
            sent_at: Instant::now(),
            awaiting: VecDeque::with_capacity(2),
            last_sent: Instant::now(),
            lag_ms: 0,
        }
    }
}

/// Why the select loop woke.
enum Wake {
    Frame(usize, Option<Result<Message, tokio_tungstenite::tungstenite::Error>>),
    Turn,
    Ping,
}

struct Game<'a> {
    shared: &'a Shared,
    rng: &'a mut SmallRng,
    seats: [Seat; 2],
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
            let [a, b] = &mut self.seats;
            let wake = tokio::select! {
                frame = a.ws.next() => Wake::Frame(0, frame),
                frame = b.ws.next() => Wake::Frame(1, frame),
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
        let Some(i) = (0..2).find(|&i| self.seats[i].seated && self.seats[i].choice.is_some())
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
        for i in 0..2 {
            // Before its snapshot a socket's hello may still be answered (and said again without
            // `protocol`): a ping then would be refused with `hello-first`.
            let seat = &self.seats[i];
            if seat.version.is_some() && seat.last_sent.elapsed() >= PING_WHEN_QUIET {
                self.send(i, Utf8Bytes::from_static(wire::PING)).await?;
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
        frame: Option<Result<Message, tokio_tungstenite::tungstenite::Error>>,
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
                    self.send(i, Utf8Bytes::from_static(wire::JOIN)).await?;
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
                    // Today's server reads no `protocol` in hello: say hello without it.
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
        let Some(mover) = (0..2).find(|&j| self.seats[j].sent_ply == ply) else {
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
