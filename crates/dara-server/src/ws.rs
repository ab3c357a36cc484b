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
    /// Looks a few times within each `silence`, so that a quiet socket is pinged twice before
    /// it counts as silent.
    fn new(state: &AppState) -> Heartbeat {
        let (start, silence) = (Instant::now(), state.config.silence);
        let every = silence / 4;
        let mut ticks = tokio::time::interval_at(start + every, every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        Heartbeat { ticks, last_heard: start, silence, stopping: state.stopping.subscribe() }
    }

    /// Something came from the socket.
    fn heard(&mut self) {
        self.last_heard = Instant::now();
    }

    /// Waits for the next look at the socket: what it must be sent of the server's own accord
    /// then, if anything: a ping, or its close (silent too long, or the server stopping).
    async fn beat(&mut self) -> Option<Outgoing> {
        tokio::select! {
            _ = self.stopping.wait_for(|stop| *stop) => {
                Some(Outgoing::Close(close::RESTARTING, "the server is restarting"))
            }
            _ = self.ticks.tick() => {
                let quiet = self.last_heard.elapsed();
                if quiet >= self.silence {
                    Some(Outgoing::Close(close::SILENT, "nothing heard: the connection seems lost"))
                } else if quiet >= self.silence / 2 {
                    Some(Outgoing::Ping)
                } else {
                    // A page that speaks (it pings every few seconds) needs no ping: one less
                    // message for each socket every few seconds, thousands a second in all.
                    None
                }
            }
        }
    }
}

/// The WebSocket settings of every socket: messages of at most `max` bytes, and small buffers
/// (tungstenite's defaults, 128 KiB each way, would cost more than ten whole games). A browser's
/// messages are a few dozen bytes: reads are done 1 KiB at a time, and a larger message simply
/// takes more of them.
fn sized(ws: WebSocketUpgrade, max: usize) -> WebSocketUpgrade {
    ws.max_message_size(max)
        .max_frame_size(max)
        .read_buffer_size(1024)
        // Messages are gathered until the writer flushes (see `spawn_writer`).
        .write_buffer_size(16 * 1024)
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
        // Everything queued by the time the writer runs goes out in one write: a turn's
        // `accepted` and its `move` event usually leave together (a send on loopback costs more
        // than rendering the event).
        'socket: while let Some(first) = rx.recv().await {
            let mut next = Some(first);
            while let Some(out) = next.take() {
                let (message, closing) = match out {
                    Outgoing::Text(text) => (Message::Text(text), false),
                    Outgoing::Ping => (Message::Ping(Default::default()), false),
                    Outgoing::Close(code, reason) => {
                        (Message::Close(Some(CloseFrame { code, reason: reason.into() })), true)
                    }
                };
                if sink.feed(message).await.is_err() {
                    break 'socket;
                }
                if closing {
                    let _ = sink.flush().await;
                    break 'socket;
                }
                next = rx.try_recv().ok();
            }
            if sink.flush().await.is_err() {
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
            Ok(_) => return finish(out, writer, &mut stream).await,
            Err(_) => {
                let _ = out.send(Outgoing::Close(close::SILENT, "say hello first")).await;
                return finish(out, writer, &mut stream).await;
            }
        };
        if !bucket.take() {
            let _ = out.send(Outgoing::Close(close::FLOOD, "too many messages")).await;
            return finish(out, writer, &mut stream).await;
        }
        let Message::Text(text) = frame else {
            if matches!(frame, Message::Close(_)) {
                return finish(out, writer, &mut stream).await;
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
                    return finish(out, writer, &mut stream).await;
                }
            },
            Ok(_) => send(&out, refused(Refusal::HelloFirst)).await,
            Err(error @ ParseError::OtherProtocol(_)) => {
                send(&out, refused(error.into())).await;
                let _ = out.send(Outgoing::Close(close::RELOAD, "reload the page")).await;
                return finish(out, writer, &mut stream).await;
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
                let Some(beat) = beat else { continue };
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
    finish(out, writer, &mut stream).await;
}

fn refused(refusal: Refusal) -> Wire {
    Answer::Error(refusal.into()).wire()
}

async fn send(out: &mpsc::Sender<Outgoing>, text: Wire) {
    let _ = out.send(Outgoing::Text(text)).await;
}

/// Ends a socket: what is queued is written (the close frame last), then what the client still
/// sends is read and dropped until its own close, for at most a second. Dropping the socket
/// with unread bytes would make the kernel reset it, and the reset can reach the client
/// before the close frame does, leaving it without the reason.
async fn finish(
    out: mpsc::Sender<Outgoing>,
    writer: tokio::task::JoinHandle<()>,
    stream: &mut futures_util::stream::SplitStream<WebSocket>,
) {
    drop(out);
    let _ = writer.await;
    let drain = async {
        while let Some(Ok(frame)) = stream.next().await {
            if matches!(frame, Message::Close(_)) {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), drain).await;
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
                let Some(beat) = beat else { continue };
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
    finish(out, writer, &mut stream).await;
}
