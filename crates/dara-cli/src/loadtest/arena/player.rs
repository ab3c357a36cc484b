//! One player of an arena, as a page and the person at it behave: joins under a name, holds the
//! arena's socket, goes to each game the standings name for it (its seat is its token), plays a
//! random legal turn a moment after each of the opponent's, and, if it is one who pauses, now
//! and then asks not to be paired after a game and comes back a while later.
//!
//! It measures the delay from its game's end, as the game socket tells it, to its next game
//! appearing on the arena socket: the wait a player has between games.

use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tokio::time::{Instant, MissedTickBehavior};
use tokio_tungstenite::tungstenite::{Error as WsError, Message, Utf8Bytes};

use super::requests::{self, ArenaMessage};
use super::tally::Tally;
use super::waiting_room::{Waited, WaitingRoom};
use crate::loadtest::game::seat::{connect, handshake, Socket};
use crate::loadtest::http::{exchange, Request};
use crate::loadtest::pacer::Pacer;
use crate::loadtest::target::Target;
use crate::loadtest::wire::{self, Incoming};

/// The page pings a game socket it has sent nothing on for this long (PROTOCOL.md, Limits).
const PING_WHEN_QUIET: Duration = Duration::from_secs(2);
/// A player who pauses does so after this share of their games.
const PAUSE_AFTER_SHARE: f64 = 0.5;

/// What every player shares.
#[derive(Debug)]
pub struct Club {
    pub target: Target,
    pub sources: Vec<IpAddr>,
    pub pacer: Pacer,
    /// The mean pause between a turn becoming one's own and sending it (each drawn from half
    /// to one and a half times it).
    pub think: Duration,
    /// How long a pause lasts (drawn the same way).
    pub pause: Duration,
    /// The `protocol` field of the game socket's hello.
    pub protocol: Option<u32>,
    pub tally: Tally,
    /// Standings each player's socket received in the window, by player.
    pub received: Vec<AtomicU64>,
}

/// One player.
#[derive(Debug)]
pub struct Player {
    /// Its number, for its token, name, source address and random turns.
    pub index: usize,
    /// Its arena's id.
    pub arena: String,
    /// Its arena's waiting players.
    pub room: Arc<WaitingRoom>,
    pub pauses: bool,
    pub seed: u64,
}

impl Player {
    /// Its token: 16 to 64 of `A-Z a-z 0-9 _ -`, different for every player of every run.
    fn token(&self, rng: &mut SmallRng) -> String {
        format!("load-{:06}-{:016x}", self.index, rng.gen::<u64>())
    }
}

/// Why the player woke.
enum Wake {
    Arena(Option<Result<Message, WsError>>),
    Game(Option<Result<Message, WsError>>),
    Turn,
    Ping,
    Resume,
}

/// The game being played.
struct Table {
    ws: Socket,
    id: String,
    /// Its colour, once the snapshot has told it.
    colour: Option<dara::Colour>,
    /// The turn picked, to send at `turn_at`.
    choice: Option<String>,
    next_id: u64,
    last_sent: Instant,
    lag_ms: u64,
    awaiting: Option<Instant>,
    said_hello: bool,
}

/// Plays in the arena until the task is stopped.
pub async fn play(club: Arc<Club>, me: Player) {
    let tally = &club.tally;
    let mut rng =
        SmallRng::seed_from_u64(me.seed ^ (me.index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let source = (!club.sources.is_empty()).then(|| club.sources[me.index % club.sources.len()]);
    let token = me.token(&mut rng);
    let name = format!("Player {}", me.index);
    let path = format!("/api/arenas/{}/join", me.arena);
    let joined = post(&club, source, &path, &requests::join(&token, &name)).await;
    let arena = match joined {
        Ok(()) => open_arena_socket(&club, source, &me.arena, &token).await,
        Err(why) => {
            tally.join_failed.fetch_add(1, Relaxed);
            tally.tell(|| format!("a join failed: {why}"));
            None
        }
    };
    tally.attempted.fetch_add(1, Relaxed);
    let Some(mut arena) = arena else { return };
    tally.joined.fetch_add(1, Relaxed);

    let mut table: Option<Table> = None;
    // The last game the standings named for this player: a new id is a new pairing.
    let mut last_game: Option<String> = None;
    let mut last_standings: Option<Instant> = None;
    let mut resume_at: Option<Instant> = None;
    let mut turn_at = Instant::now();
    let turn_timer = tokio::time::sleep_until(turn_at);
    tokio::pin!(turn_timer);
    let resume_timer = tokio::time::sleep_until(Instant::now());
    tokio::pin!(resume_timer);
    let mut ping = tokio::time::interval(Duration::from_secs(1));
    ping.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        let turn_due = table.as_ref().is_some_and(|t| t.choice.is_some());
        if turn_due && turn_timer.deadline() != turn_at {
            turn_timer.as_mut().reset(turn_at);
        }
        if let Some(at) = resume_at {
            if resume_timer.deadline() != at {
                resume_timer.as_mut().reset(at);
            }
        }
        let wake = tokio::select! {
            frame = arena.next() => Wake::Arena(frame),
            frame = next_frame(table.as_mut()) => Wake::Game(frame),
            () = &mut turn_timer, if turn_due => Wake::Turn,
            () = &mut resume_timer, if resume_at.is_some() => Wake::Resume,
            _ = ping.tick() => Wake::Ping,
        };
        match wake {
            Wake::Arena(Some(Ok(Message::Text(text)))) => {
                let now = Instant::now();
                let msg = match ArenaMessage::parse(text.as_str()) {
                    Ok(msg) => msg,
                    Err(e) => {
                        tally.confused.fetch_add(1, Relaxed);
                        tally.tell(|| format!("an arena message does not read ({e})"));
                        continue;
                    }
                };
                if msg.t != "standings" {
                    continue;
                }
                tally.standings(text.len(), last_standings.map(|at| now - at));
                last_standings = Some(now);
                if tally.measuring() {
                    club.received[me.index].fetch_add(1, Relaxed);
                }
                let Some(game) = msg.d.and_then(|d| d.game) else { continue };
                if last_game.as_deref() == Some(game.id) {
                    continue;
                }
                last_game = Some(game.id.to_owned());
                // A new pairing.
                match me.room.leave(me.index, now) {
                    Some(waited) => tally.paired(waited),
                    None if table.is_some() => {
                        // The arena socket told the new game before the game socket the end.
                        if tally.measuring() {
                            tally.paired_before_end_seen.fetch_add(1, Relaxed);
                        }
                        tally.paired(Waited::default());
                    }
                    // The first game of all.
                    None => {}
                }
                table = open_table(&club, source, game.id, &token).await;
            }
            Wake::Arena(Some(Ok(Message::Close(frame)))) => {
                tally.dropped.fetch_add(1, Relaxed);
                let (code, reason) =
                    frame.map_or((0, String::new()), |f| (u16::from(f.code), f.reason.to_string()));
                tally.tell(|| format!("the server closed an arena socket: {code} {reason}"));
                return;
            }
            Wake::Arena(Some(Err(_)) | None) => {
                tally.dropped.fetch_add(1, Relaxed);
                tally.tell(|| "an arena socket broke".to_owned());
                return;
            }
            Wake::Arena(Some(Ok(_))) => {}
            Wake::Game(frame) => {
                let Some(t) = table.as_mut() else { continue };
                match on_game_frame(&club, t, frame, &mut rng).await {
                    Ok(Some(chosen)) => {
                        let think = club.think.mul_f64(rng.gen_range(0.5..1.5));
                        turn_at = chosen + think;
                    }
                    Ok(None) => {}
                    Err(Over::Ended) => {
                        table = None;
                        let now = Instant::now();
                        if tally.measuring() {
                            tally.games_ended.fetch_add(1, Relaxed);
                        }
                        me.room.arrive(me.index, now, false);
                        if me.pauses && resume_at.is_none() && rng.gen_bool(PAUSE_AFTER_SHARE) {
                            let path = format!("/api/arenas/{}/pause", me.arena);
                            match post(&club, source, &path, &requests::player(&token)).await {
                                Ok(()) => {
                                    if tally.measuring() {
                                        tally.pauses.fetch_add(1, Relaxed);
                                    }
                                    resume_at = Some(
                                        Instant::now()
                                            + club.pause.mul_f64(rng.gen_range(0.5..1.5)),
                                    );
                                    let _ = me.room.leave(me.index, Instant::now());
                                }
                                Err(why) => {
                                    tally.request_failed.fetch_add(1, Relaxed);
                                    tally.tell(|| format!("a pause failed: {why}"));
                                }
                            }
                        }
                    }
                    Err(Over::Failed) => table = None,
                }
            }
            Wake::Turn => {
                if let Some(t) = table.as_mut() {
                    if send_turn(&club, t).await.is_err() {
                        table = None;
                    }
                }
            }
            Wake::Resume => {
                resume_at = None;
                let path = format!("/api/arenas/{}/resume", me.arena);
                match post(&club, source, &path, &requests::player(&token)).await {
                    Ok(()) => {
                        if tally.measuring() {
                            tally.resumes.fetch_add(1, Relaxed);
                        }
                        // Paired meanwhile (asked to pause while a wave paired it): no wait.
                        if table.is_none() {
                            me.room.arrive(me.index, Instant::now(), true);
                        }
                    }
                    Err(why) => {
                        tally.request_failed.fetch_add(1, Relaxed);
                        tally.tell(|| format!("a resume failed: {why}"));
                    }
                }
            }
            Wake::Ping => {
                if let Some(t) = table.as_mut() {
                    if t.said_hello && t.last_sent.elapsed() >= PING_WHEN_QUIET {
                        let ping = Utf8Bytes::from_static(wire::PING.as_str());
                        if send(&club, t, ping).await.is_err() {
                            table = None;
                        }
                    }
                }
            }
        }
    }
}

/// Why a game socket was let go.
enum Over {
    /// The game ended by the rules.
    Ended,
    /// Anything else: counted where it was seen.
    Failed,
}

/// Reads one frame of the game socket: the moment a turn became the player's own, if one did.
async fn on_game_frame(
    club: &Club,
    t: &mut Table,
    frame: Option<Result<Message, WsError>>,
    rng: &mut SmallRng,
) -> Result<Option<Instant>, Over> {
    let tally = &club.tally;
    let text = match frame {
        Some(Ok(Message::Text(text))) => text,
        Some(Ok(Message::Close(frame))) => {
            tally.dropped.fetch_add(1, Relaxed);
            let (code, reason) =
                frame.map_or((0, String::new()), |f| (u16::from(f.code), f.reason.to_string()));
            tally
                .tell(|| format!("the server closed the socket of game {}: {code} {reason}", t.id));
            return Err(Over::Failed);
        }
        Some(Err(_)) | None => {
            tally.dropped.fetch_add(1, Relaxed);
            tally.tell(|| format!("the socket of game {} broke", t.id));
            return Err(Over::Failed);
        }
        Some(Ok(_)) => return Ok(None),
    };
    let confused = |why: String| {
        tally.confused.fetch_add(1, Relaxed);
        tally.tell(|| why);
        Err(Over::Failed)
    };
    let msg = match Incoming::parse(text.as_str()) {
        Ok(msg) => msg,
        Err(e) => return confused(format!("a game message does not read ({e}): {text}")),
    };
    let d = msg.d.unwrap_or_default();
    match msg.t {
        "snapshot" => {
            t.said_hello = true;
            if d.end.is_some() {
                return Err(Over::Ended);
            }
            t.colour = d.you.and_then(wire::colour);
            if t.colour.is_none() {
                return confused(format!("a player's seat is not theirs in game {}", t.id));
            }
        }
        "move" => {}
        "accepted" => {
            if let Some(sent) = t.awaiting.take() {
                t.lag_ms = (sent.elapsed() / 2).as_millis() as u64;
            }
            tally.turns_ever.fetch_add(1, Relaxed);
            if tally.measuring() {
                tally.turns.fetch_add(1, Relaxed);
            }
            return Ok(None);
        }
        "end" => return Err(Over::Ended),
        "rejected" | "error" => return confused(format!("game {}: {text}", t.id)),
        _ => return Ok(None),
    }
    // A snapshot or a move: a new position.
    t.choice = None;
    let Some(pos) = d.pos else { return Ok(None) };
    if wire::colour(pos.side) != t.colour || pos.legal.is_empty() {
        return Ok(None);
    }
    let pick = rng.gen_range(0..pos.legal.len());
    t.choice = Some(pos.legal[pick].to_owned());
    Ok(Some(Instant::now()))
}

async fn send_turn(club: &Club, t: &mut Table) -> Result<(), ()> {
    let Some(choice) = t.choice.take() else { return Ok(()) };
    let frame = wire::turn(t.next_id, &choice, t.lag_ms);
    t.next_id += 1;
    t.awaiting = Some(Instant::now());
    send(club, t, frame.into()).await
}

async fn send(club: &Club, t: &mut Table, text: Utf8Bytes) -> Result<(), ()> {
    match t.ws.send(Message::Text(text)).await {
        Ok(()) => {
            t.last_sent = Instant::now();
            Ok(())
        }
        Err(e) => {
            club.tally.dropped.fetch_add(1, Relaxed);
            club.tally.tell(|| format!("a game socket failed while sending: {e}"));
            Err(())
        }
    }
}

/// The next frame of the game socket; none between games.
async fn next_frame(table: Option<&mut Table>) -> Option<Result<Message, WsError>> {
    match table {
        Some(t) => t.ws.next().await,
        None => std::future::pending().await,
    }
}

/// The arena's socket, which has said hello with the player's token.
async fn open_arena_socket(
    club: &Club,
    source: Option<IpAddr>,
    arena: &str,
    token: &str,
) -> Option<Socket> {
    let opened = async {
        let stream = connect(&club.pacer, &club.target, source).await.map_err(|e| e.to_string())?;
        let mut ws = handshake(stream, &club.target, &format!("/ws/arena/{arena}"))
            .await
            .map_err(|e| e.to_string())?;
        ws.send(Message::Text(requests::hello(token).into())).await.map_err(|e| e.to_string())?;
        Ok::<_, String>(ws)
    };
    match opened.await {
        Ok(ws) => Some(ws),
        Err(why) => {
            club.tally.socket_failed.fetch_add(1, Relaxed);
            club.tally.tell(|| format!("an arena socket could not be opened: {why}"));
            None
        }
    }
}

/// The game socket of a new game, which has said hello with the player's token as its seat.
async fn open_table(club: &Club, source: Option<IpAddr>, game: &str, token: &str) -> Option<Table> {
    let opened = async {
        let stream = connect(&club.pacer, &club.target, source).await.map_err(|e| e.to_string())?;
        let mut ws = handshake(stream, &club.target, &format!("/ws/game/{game}"))
            .await
            .map_err(|e| e.to_string())?;
        let hello = wire::hello(Some(token), club.protocol);
        ws.send(Message::Text(hello.into())).await.map_err(|e| e.to_string())?;
        Ok::<_, String>(ws)
    };
    match opened.await {
        Ok(ws) => Some(Table {
            ws,
            id: game.to_owned(),
            colour: None,
            choice: None,
            next_id: 1,
            last_sent: Instant::now(),
            lag_ms: 0,
            awaiting: None,
            said_hello: false,
        }),
        Err(why) => {
            club.tally.game_socket_failed.fetch_add(1, Relaxed);
            club.tally.tell(|| format!("a game socket could not be opened: {why}"));
            None
        }
    }
}

/// `POST path` with `body`, answered `204`.
async fn post(club: &Club, source: Option<IpAddr>, path: &str, body: &str) -> Result<(), String> {
    let stream = connect(&club.pacer, &club.target, source).await.map_err(|e| e.to_string())?;
    let answer = exchange(stream, &club.target.authority, Request::Post(path, body))
        .await
        .map_err(|e| format!("{e:?}"))?;
    if answer.status == 204 {
        Ok(())
    } else {
        Err(format!("{} {}", answer.status, answer.body.trim()))
    }
}
