//! The WebSocket endpoints: one per game (players and watchers) and one for the lobby. Each
//! socket is split into a writer task, fed by a queue, and a reader loop that checks, parses
//! and forwards what the browser sends.

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use dara::Colour;
use futures_util::{SinkExt, StreamExt};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};

use tokio::time::Instant;

use crate::error::AppError;
use crate::flood::{Bucket, HELLO_TIMEOUT};
use crate::game::GameHandle;
use crate::protocol::{Answer, ClientMessage, ParseError, Refusal, Wire};
use crate::seat::GameId;
use crate::state::AppState;

/// Close codes the browser can act on.
mod close {
    /// The connection sent too much: it is not welcome back at this rate.
    pub const FLOOD: u16 = 1008;
    /// The connection fell behind the game; reconnecting with the last version catches up.
    pub const BEHIND: u16 = 4000;
    /// The game has ended its life on the server.
    pub const GONE: u16 = 4004;
    /// No hello in time, or nothing heard for too long.
    pub const SILENT: u16 = 4008;
    /// The page speaks another version of the protocol: it must reload, not reconnect.
    pub const RELOAD: u16 = 4009;
    /// The server is stopping (a deploy, a restart): reconnect at once.
    pub const RESTARTING: u16 = 1012;
}

enum Outgoing {
    Text(Wire),
    Ping,
    Close(u16, &'static str),
}

/// Pings a socket and notices when it has gone silent (no message, no pong) for longer than
/// the server allows, or when the server begins to stop. A browser answers pings by itself
/// while its page lives; a frozen tab, a sleeping laptop or a cut cable does not.
struct Heartbeat {
    ticks: tokio::time::Interval,
    last_heard: Instant,
    silence: Duration,
    stopping: tokio::sync::watch::Receiver<bool>,
}

impl Heartbeat {
    /// Pings a few times within each `silence`, so one lost pong is not taken for silence.
    fn new(state: &AppState) -> Heartbeat {
        let (start, silence) = (Instant::now(), state.config.silence);
        let every = silence / 3;
        let mut ticks = tokio::time::interval_at(start + every, every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        Heartbeat { ticks, last_heard: start, silence, stopping: state.stopping.subscribe() }
    }

    /// Something came from the socket.
    fn heard(&mut self) {
        self.last_heard = Instant::now();
    }

    /// Waits for what the socket must be sent next of the server's own accord: a ping, or
    /// its close (silent too long, or the server stopping).
    async fn beat(&mut self) -> Outgoing {
        tokio::select! {
            _ = self.stopping.wait_for(|stop| *stop) => {
                Outgoing::Close(close::RESTARTING, "the server is restarting")
            }
            _ = self.ticks.tick() => {
                if self.last_heard.elapsed() < self.silence {
                    Outgoing::Ping
                } else {
                    Outgoing::Close(close::SILENT, "nothing heard: the connection seems lost")
                }
            }
        }
    }
}

/// The WebSocket settings of every socket: messages of at most `max` bytes, and buffers sized
/// for them (tungstenite's defaults, 128 KiB each way, would cost more than a whole game).
fn sized(ws: WebSocketUpgrade, max: usize) -> WebSocketUpgrade {
    ws.max_message_size(max)
        .max_frame_size(max)
        .read_buffer_size(max)
        .write_buffer_size(0)
        .max_write_buffer_size(64 * 1024)
}

/// `GET /ws/game/{id}`: a player's or a watcher's connection to a game.
pub async fn game_socket(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let id = GameId::parse(&id).ok_or(AppError::NotFound)?;
    let handle = state.game(&id).ok_or(AppError::NotFound)?;
    let max = state.config.max_message;
    Ok(sized(ws, max).on_upgrade(move |socket| serve_game(socket, handle, state)))
}

/// The writer half: sends what the queue holds, in order, and stops after a close.
fn spawn_writer(
    socket_sink: futures_util::stream::SplitSink<WebSocket, Message>,
) -> (mpsc::Sender<Outgoing>, tokio::task::JoinHandle<()>) {
    let (tx, mut rx) = mpsc::channel::<Outgoing>(256);
    let mut sink = socket_sink;
    let task = tokio::spawn(async move {
        while let Some(out) = rx.recv().await {
            let result = match out {
                Outgoing::Text(text) => sink.send(Message::Text(text.as_ref().into())).await,
                Outgoing::Ping => sink.send(Message::Ping(Default::default())).await,
                Outgoing::Close(code, reason) => {
                    let _ = sink
                        .send(Message::Close(Some(CloseFrame { code, reason: reason.into() })))
                        .await;
                    break;
                }
            };
            if result.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    (tx, task)
}

/// Counts a socket open in the metrics while it lives.
struct Open(AppState);

impl Open {
    fn new(state: &AppState) -> Open {
        state.metrics.sockets.inc();
        Open(state.clone())
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        self.0.metrics.sockets.dec();
    }
}

async fn serve_game(socket: WebSocket, handle: GameHandle, state: AppState) {
    let _open = Open::new(&state);
    let (sink, mut stream) = socket.split();
    let (out, writer) = spawn_writer(sink);
    let mut bucket = Bucket::new(state.config.burst, state.config.per_second);

    // Nothing happens before hello: it says who this is and what they have already seen.
    let deadline = Instant::now() + HELLO_TIMEOUT;
    let welcome = loop {
        let frame = match tokio::time::timeout_at(deadline, stream.next()).await {
            Ok(Some(Ok(frame))) => frame,
            Ok(_) => return finish(out, writer).await,
            Err(_) => {
                let _ = out.send(Outgoing::Close(close::SILENT, "say hello first")).await;
                return finish(out, writer).await;
            }
        };
        if !bucket.take() {
            let _ = out.send(Outgoing::Close(close::FLOOD, "too many messages")).await;
            return finish(out, writer).await;
        }
        let Message::Text(text) = frame else {
            if matches!(frame, Message::Close(_)) {
                return finish(out, writer).await;
            }
            continue;
        };
        match ClientMessage::parse(text.as_str()) {
            Ok(ClientMessage::Hello { seat, since }) => match handle.hello(seat, since).await {
                Some(welcome) => break welcome,
                None => {
                    let _ = out
                        .send(Outgoing::Close(
                            close::GONE,
                            "this game has finished and been forgotten",
                        ))
                        .await;
                    return finish(out, writer).await;
                }
            },
            Ok(_) => send(&out, refused(Refusal::HelloFirst)).await,
            Err(error @ ParseError::OtherProtocol(_)) => {
                send(&out, refused(error.into())).await;
                let _ = out.send(Outgoing::Close(close::RELOAD, "reload the page")).await;
                return finish(out, writer).await;
            }
            Err(error) => send(&out, refused(error.into())).await,
        }
    };

    let mut seat: Option<Colour> = welcome.seat;
    // The seat's colour, never its token; the game, never the client's address.
    tracing::debug!(game = %handle.id, ?seat, "hello");
    for message in welcome.messages {
        send(&out, message).await;
    }
    let forwarder = tokio::spawn(forward_events(welcome.events, out.clone()));

    let mut heartbeat = Heartbeat::new(&state);
    loop {
        let frame = tokio::select! {
            frame = stream.next() => frame,
            beat = heartbeat.beat() => {
                let closing = matches!(beat, Outgoing::Close(..));
                let _ = out.send(beat).await;
                if closing { break }
                continue;
            }
        };
        // An error includes an oversized frame: the socket is closed.
        let Some(Ok(frame)) = frame else { break };
        heartbeat.heard();
        if !bucket.take() {
            let _ = out.send(Outgoing::Close(close::FLOOD, "too many messages")).await;
            break;
        }
        let text = match frame {
            Message::Text(text) => text,
            Message::Binary(_) => {
                send(&out, refused(Refusal::Binary)).await;
                continue;
            }
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        let msg = match ClientMessage::parse(text.as_str()) {
            Ok(msg) => msg,
            Err(error) => {
                send(&out, refused(error.into())).await;
                continue;
            }
        };
        let turn = matches!(msg, ClientMessage::Move { .. }).then(Instant::now);
        match handle.act(seat, msg).await {
            Some(reply) => {
                seat = reply.seat;
                send(&out, reply.text).await;
                if let Some(started) = turn {
                    state.metrics.turn_seconds.observe(started.elapsed().as_secs_f64());
                }
            }
            None => {
                let _ = out
                    .send(Outgoing::Close(close::GONE, "this game has finished and been forgotten"))
                    .await;
                break;
            }
        }
    }
    forwarder.abort();
    handle.leave(seat);
    finish(out, writer).await;
}

fn refused(refusal: Refusal) -> Wire {
    Answer::Error(refusal.into()).wire()
}

async fn send(out: &mpsc::Sender<Outgoing>, text: Wire) {
    let _ = out.send(Outgoing::Text(text)).await;
}

async fn finish(out: mpsc::Sender<Outgoing>, writer: tokio::task::JoinHandle<()>) {
    drop(out);
    let _ = writer.await;
}

/// Passes the game's events to one connection. One that falls too far behind is closed: it
/// comes back with its last version and gets exactly what it missed.
async fn forward_events(mut events: broadcast::Receiver<Wire>, out: mpsc::Sender<Outgoing>) {
    loop {
        match events.recv().await {
            Ok(text) => {
                if out.send(Outgoing::Text(text)).await.is_err() {
                    break;
                }
            }
            Err(broadcast::error::RecvError::Lagged(_)) => {
                let _ = out
                    .send(Outgoing::Close(close::BEHIND, "fell behind: reconnect to catch up"))
                    .await;
                break;
            }
            Err(broadcast::error::RecvError::Closed) => {
                let _ = out
                    .send(Outgoing::Close(close::GONE, "this game has finished and been forgotten"))
                    .await;
                break;
            }
        }
    }
}

/// `GET /ws/lobby`: the list of open tables, sent again whenever it changes.
pub async fn lobby_socket(ws: WebSocketUpgrade, State(state): State<AppState>) -> Response {
    let max = state.config.max_message;
    sized(ws, max).on_upgrade(move |socket| serve_lobby(socket, state))
}

async fn serve_lobby(socket: WebSocket, state: AppState) {
    let _open = Open::new(&state);
    let (sink, mut stream) = socket.split();
    let (out, writer) = spawn_writer(sink);
    let mut listing = state.lobby.listing();
    let mut bucket = Bucket::new(state.config.burst, state.config.per_second);
    let first = listing.borrow_and_update().clone();
    send(&out, first).await;
    let mut heartbeat = Heartbeat::new(&state);
    loop {
        tokio::select! {
            beat = heartbeat.beat() => {
                let closing = matches!(beat, Outgoing::Close(..));
                let _ = out.send(beat).await;
                if closing { break }
            }
            changed = listing.changed() => {
                if changed.is_err() { break }
                let text = listing.borrow_and_update().clone();
                send(&out, text).await;
            }
            frame = stream.next() => match frame {
                // The lobby needs nothing from the browser but keep-alives.
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                Some(Ok(_)) => {
                    heartbeat.heard();
                    if !bucket.take() {
                        let _ = out.send(Outgoing::Close(close::FLOOD, "too many messages")).await;
                        break;
                    }
                }
            },
        }
    }
    finish(out, writer).await;
}
