//! One seeker: someone who comes to the lobby wanting a game with their rules and clock, takes a
//! seat (at a waiting table, or at a table of their own), and holds its game socket until an
//! opponent sits down or their patience runs out, when they call the table off.
//!
//! How the seat is found is the `--matching` mode: `exact` is the lobby before "Play anyone"
//! (a listed table with exactly the same rules and clock, else one's own table), `pools` is
//! "Play anyone" (`POST /api/seek`: the longest-waiting table with the same rules whatever its
//! clock, else one's own). Once met, the one who waited calls the game off at once (neither has
//! moved): the wait is what is measured, and games in play are `dara loadtest`'s other business.

use std::net::IpAddr;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use dara_server::browser::BrowserId;
use dara_server::protocol::ClientMessage;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

use super::mix::Choice;
use super::requests::{self, Listed};
use super::tally::Tally;
use super::Matching;
use crate::loadtest::game::seat::{connect, handshake, Socket, CONNECT_TIMEOUT};
use crate::loadtest::http::{exchange, CreateError, Request};
use crate::loadtest::pacer::Pacer;
use crate::loadtest::target::Target;
use crate::loadtest::wire::{self, Created, Incoming, PROTOCOL_VERSION};

/// The page pings a socket it has sent nothing on for this long (PROTOCOL.md, Limits).
const PING_EVERY: Duration = Duration::from_secs(2);
/// After calling a table off, how long to wait for the server's `end` (or a `seated` that came
/// first) before leaving anyway.
const CALL_OFF_GRACE: Duration = Duration::from_secs(5);

/// What every seeker shares.
#[derive(Debug)]
pub struct Lobby {
    pub targets: Vec<Target>,
    pub sources: Vec<IpAddr>,
    pub matching: Matching,
    /// How long a seeker waits before giving up, in real time.
    pub patience: Duration,
    /// Simulated seconds per real second: waits are recorded multiplied by it.
    pub time_scale: f64,
    pub pacer: Pacer,
    pub tally: Tally,
    /// The seekers who arrive after the window, only so that those inside it meet a crowd
    /// that goes on: not reported.
    pub late: Tally,
}

/// One seeker.
#[derive(Debug)]
pub struct Seeker {
    /// Its number in order of arrival: it chooses its node and source address.
    pub index: usize,
    pub choice: Choice,
    pub browser: BrowserId,
    /// When it arrived.
    pub arrived: Instant,
    /// Arrived inside the measured window: its visit is reported.
    pub counted: bool,
}

/// How a seeker's visit ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// Met an opponent at `at`: as the seat was given (`at_once`, a table was waiting) or when
    /// the opponent sat down at its own table.
    Paired { at: Instant, at_once: bool, other_clock: bool },
    /// Its patience ran out and it called its table off.
    GaveUp,
    /// Refused, or a request or socket failed (told on stderr).
    Failed,
}

/// A seeker's whole visit, counted in the lobby's tally.
pub async fn visit(lobby: &Lobby, seeker: Seeker) {
    let tally = counted_in(lobby, &seeker);
    tally.arrived.fetch_add(1, Relaxed);
    tally.waiting.fetch_add(1, Relaxed);
    match seek(lobby, &seeker).await {
        Outcome::Paired { at, at_once, other_clock } => {
            let wait = at.saturating_duration_since(seeker.arrived).mul_f64(lobby.time_scale);
            tally.paired(wait, at_once, other_clock);
        }
        Outcome::GaveUp => {
            tally.gave_up.fetch_add(1, Relaxed);
        }
        Outcome::Failed => {
            tally.failed.fetch_add(1, Relaxed);
        }
    }
    tally.waiting.fetch_sub(1, Relaxed);
}

/// Where a seeker's visit is counted.
fn counted_in<'a>(lobby: &'a Lobby, seeker: &Seeker) -> &'a Tally {
    if seeker.counted {
        &lobby.tally
    } else {
        &lobby.late
    }
}

async fn seek(lobby: &Lobby, seeker: &Seeker) -> Outcome {
    let n = lobby.targets.len();
    let target = &lobby.targets[seeker.index % n];
    let source =
        (!lobby.sources.is_empty()).then(|| lobby.sources[seeker.index % lobby.sources.len()]);
    let asked = Asker { lobby, target, source };
    let seat = match lobby.matching {
        Matching::Exact => asked.sit_exactly(seeker.choice).await,
        Matching::Pools => asked.play_anyone(seeker.choice, &seeker.browser).await,
    };
    let seat = match seat {
        Ok(seat) => seat,
        Err(e) => {
            counted_in(lobby, seeker).tell(|| format!("no seat for {}: {e:?}", seeker.choice));
            return Outcome::Failed;
        }
    };
    let seated_at = Instant::now();
    let ws = match connect(&lobby.pacer, target, source).await {
        Ok(stream) => handshake(stream, target, &format!("/ws/game/{}", seat.game)).await,
        Err(e) => Err(e.into()),
    };
    let mut ws = match ws {
        Ok(ws) => ws,
        Err(e) => {
            counted_in(lobby, seeker).tell(|| format!("game socket not opened: {e}"));
            return Outcome::Failed;
        }
    };
    let deadline = seeker.arrived + lobby.patience;
    let outcome = wait_at_table(
        counted_in(lobby, seeker),
        &mut ws,
        &seat,
        seeker.choice,
        seated_at,
        deadline,
    )
    .await;
    // Leaving: the socket's end is the page closed.
    let _ = tokio::time::timeout(Duration::from_secs(1), ws.close(None)).await;
    outcome
}

/// Makes a seeker's requests to its node, each on a connection of its own from its address.
struct Asker<'a> {
    lobby: &'a Lobby,
    target: &'a Target,
    source: Option<IpAddr>,
}

impl Asker<'_> {
    async fn ask(
        &self,
        request: Request<'_>,
    ) -> Result<crate::loadtest::http::Answer, CreateError> {
        let stream = connect(&self.lobby.pacer, self.target, self.source).await?;
        let answer = exchange(stream, &self.target.authority, request);
        tokio::time::timeout(CONNECT_TIMEOUT, answer)
            .await
            .unwrap_or_else(|_| Err(CreateError::Io(std::io::ErrorKind::TimedOut.into())))
    }

    /// The lobby before pools: the first listed table with exactly these rules and clock that
    /// still has its seat, else a table of one's own.
    async fn sit_exactly(&self, choice: Choice) -> Result<Created, CreateError> {
        let tables: Vec<Listed> = self.ask(Request::Get("/api/tables")).await?.read(200)?;
        for table in tables.iter().filter(|t| t.is_exactly(choice)) {
            let path = format!("/api/tables/{}/sit", table.game);
            let answer = self.ask(Request::Post(&path, "")).await?;
            match answer.status {
                // Taken by someone quicker, or called off, since the list was read: the next.
                404 | 409 => continue,
                _ => return answer.read(200),
            }
        }
        let body = requests::open_table(choice);
        self.ask(Request::Post("/api/games", &body)).await?.read(201)
    }

    /// "Play anyone".
    async fn play_anyone(
        &self,
        choice: Choice,
        browser: &BrowserId,
    ) -> Result<Created, CreateError> {
        let body = requests::seek(choice, browser);
        self.ask(Request::Post("/api/seek", &body)).await?.read(200)
    }
}

/// The snapshot's clock, as far as telling which clock the game is on needs it.
#[derive(Debug, Deserialize)]
struct SnapshotClock {
    d: ClockOf,
}

#[derive(Debug, Deserialize)]
struct ClockOf {
    clock: Option<Control>,
}

#[derive(Debug, Deserialize)]
struct Control {
    /// As `TimeControl::label` writes it: `5+3`.
    control: String,
}

/// Whether the game of `snapshot` is on a clock other than `choice`'s.
fn other_clock(snapshot: &str, choice: Choice) -> bool {
    let played = serde_json::from_str::<SnapshotClock>(snapshot).ok().map(|s| s.d.clock);
    let asked = choice.clock.map(|c| c.label());
    played.is_some_and(|played| played.map(|c| c.control) != asked)
}

/// Why a waiting seeker woke.
enum Wake {
    Frame(Option<Result<Message, tokio_tungstenite::tungstenite::Error>>),
    /// A keep-alive is due.
    Ping,
    /// Its patience ran out, or the grace after calling the table off did.
    Late,
}

/// Holds the seat's socket: says hello, and reads whether the game has begun (the seeker sat
/// at a waiting table) or waits for its `seated` until `deadline`, then calls the table off.
async fn wait_at_table(
    tally: &Tally,
    ws: &mut Socket,
    seat: &Created,
    choice: Choice,
    seated_at: Instant,
    deadline: Instant,
) -> Outcome {
    let hello = wire::hello(Some(&seat.seat), Some(PROTOCOL_VERSION));
    if ws.send(Message::Text(hello.into())).await.is_err() {
        return Outcome::Failed;
    }
    let mut other = false;
    let mut called_off: Option<Instant> = None;
    let mut ping = tokio::time::interval_at(Instant::now() + PING_EVERY, PING_EVERY);
    loop {
        let until = called_off.map_or(deadline, |at| at + CALL_OFF_GRACE);
        let wake = tokio::select! {
            frame = ws.next() => Wake::Frame(frame),
            _ = ping.tick() => Wake::Ping,
            () = tokio::time::sleep_until(until) => Wake::Late,
        };
        let frame = match wake {
            Wake::Frame(frame) => frame,
            Wake::Ping => {
                if ws.send(Message::Text(wire::PING.as_str().into())).await.is_err() {
                    return Outcome::Failed;
                }
                continue;
            }
            // No word from the server since the table was called off: left all the same.
            Wake::Late if called_off.is_some() => return Outcome::GaveUp,
            Wake::Late => {
                called_off = Some(Instant::now());
                if send(ws, &ClientMessage::Abort).await.is_err() {
                    return Outcome::GaveUp;
                }
                continue;
            }
        };
        let text = match frame {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Close(_)) | Err(_)) | None => {
                tally.tell(|| format!("game {} closed its socket while waiting", seat.game));
                return if called_off.is_some() { Outcome::GaveUp } else { Outcome::Failed };
            }
            Some(Ok(_)) => continue,
        };
        let Ok(message) = Incoming::parse(text.as_str()) else {
            tally.tell(|| format!("unreadable message {text}"));
            return Outcome::Failed;
        };
        match message.t {
            "snapshot" => {
                other = other_clock(text.as_str(), choice);
                let begun = message.d.and_then(|d| d.seats).is_some_and(|s| s.both_seated());
                if begun {
                    // Sat at a waiting table: met as the seat was given. The one who waited
                    // calls the game off.
                    return Outcome::Paired { at: seated_at, at_once: true, other_clock: other };
                }
            }
            "seated" => {
                let at = Instant::now();
                // Met: the game is called off at once (neither has moved), as the load of the
                // games themselves is not what this measures.
                let _ = send(ws, &ClientMessage::Abort).await;
                return Outcome::Paired { at, at_once: false, other_clock: other };
            }
            "end" => {
                if called_off.is_none() {
                    let code = message.d.and_then(|d| d.code).unwrap_or("?");
                    tally.tell(|| format!("game {} ended while waiting: {code}", seat.game));
                    return Outcome::Failed;
                }
                return Outcome::GaveUp;
            }
            "error" => {
                let code = message.d.and_then(|d| d.code).unwrap_or("?");
                tally.tell(|| format!("game {} answered an error: {code}", seat.game));
                if called_off.is_none() {
                    return Outcome::Failed;
                }
            }
            _ => {}
        }
    }
}

async fn send(
    ws: &mut Socket,
    message: &ClientMessage,
) -> Result<(), tokio_tungstenite::tungstenite::Error> {
    let text = serde_json::to_string(message).expect("a client message always serialises");
    ws.send(Message::Text(text.into())).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choice(text: &str) -> Choice {
        text.parse::<super::super::mix::Weighted>().unwrap().choice
    }

    #[test]
    fn the_clock_played_is_read_from_the_snapshot() {
        let on = |clock: &str| {
            format!(r#"{{"t":"snapshot","v":2,"d":{{"clock":{clock},"seats":{{}}}}}}"#)
        };
        let timed = on(r#"{"white":300000,"black":300000,"running":null,"control":"5+3"}"#);
        assert!(!other_clock(&timed, choice("1:arcade@5+3")));
        assert!(other_clock(&timed, choice("1:arcade@10+5")));
        assert!(other_clock(&timed, choice("1:arcade@none")));
        assert!(!other_clock(&on("null"), choice("1:arcade@none")));
        assert!(other_clock(&on("null"), choice("1:arcade@3+2")));
    }
}
