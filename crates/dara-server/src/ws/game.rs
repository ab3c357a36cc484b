//! `GET /ws/game/{id}`: a player's or a watcher's socket to one game: hello first, then its
//! requests carried out on the game and the game's events back.

use axum::extract::ws::{Message, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use dara::Colour;
use tokio::sync::broadcast;
use tokio::time::Instant;

use super::connection::{Connection, Ending};
use super::heartbeat::{Beat, Heartbeat};
use super::socket::{refused, sized, Open};
use crate::cluster::relay::{self, Ended, Opened};
use crate::cluster::route::{self, Route};
use crate::flood::{Bucket, HELLO_TIMEOUT};
use crate::game::GameHandle;
use crate::protocol::close;
use crate::protocol::{ClientMessage, ParseError, Refusal, Wire};
use crate::redis::node::NodeName;
use crate::seat::GameId;
use crate::state::AppState;

/// `GET /ws/game/{id}`: a player's or a watcher's connection to a game. A socket to a game
/// the server does not have (forgotten, or never there) is upgraded and closed with 4004: a
/// page hears why and stops, where a refused upgrade looks to it like a server that is down,
/// to be retried.
pub async fn game_socket(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Response {
    let route = match GameId::parse(&id) {
        Some(id) => (route::route(&state, &id).await, id),
        None => return gone(ws, state),
    };
    let max = state.config.max_message;
    let silence = state.config.silence;
    // The socket is made a connection before the task's async block takes it, so that the
    // task, which every idle socket keeps, holds it once.
    sized(ws, max).on_upgrade(move |socket| {
        let mut conn = Connection::new(socket, silence);
        async move {
            let _open = Open::new(&state);
            let ending = match route {
                (Route::Here(handle), _) => serve_game(&mut conn, handle, &state).await,
                // Boxed: a relayed socket's task is rare, and its state would otherwise make
                // every socket's task as large as the relay's.
                (Route::There(owner), id) => {
                    match Box::pin(relay_to(&state, &mut conn, &id, owner)).await {
                        Ended::Moved => Ending::Closed(close::RESTARTING, MOVED),
                        Ended::Closed => Ending::Gone,
                    }
                }
                (Route::Gone, _) => Ending::Closed(close::GONE, GONE),
                (Route::Damaged, _) => Ending::Closed(close::DAMAGED, DAMAGED),
                // The page reconnects after its short back-off, by which time the game has a
                // node.
                (Route::NotNow, _) => Ending::Closed(close::RESTARTING, NOT_NOW),
            };
            conn.finish(ending).await;
        }
    })
}

/// A socket to a game nobody has: upgraded and closed with 4004.
fn gone(ws: WebSocketUpgrade, state: AppState) -> Response {
    let max = state.config.max_message;
    sized(ws, max).on_upgrade(move |socket| async move {
        let _open = Open::new(&state);
        let ending = Ending::Closed(close::GONE, GONE);
        Connection::new(socket, state.config.silence).finish(ending).await;
    })
}

/// Carries a socket to the node that runs its game, until it closes or the game moves.
async fn relay_to(state: &AppState, conn: &mut Connection, id: &GameId, owner: NodeName) -> Ended {
    let Some(cluster) = &state.cluster else { return Ended::Moved };
    let Some(socket) = conn.socket() else { return Ended::Moved };
    relay::carry(&cluster.hub, socket, id, owner, state.stopping.subscribe()).await
}

/// A socket another node relays here, for a game whose lease names this node. If the game is
/// not live here (this node gave its games up when it found it had lapsed, but no other node
/// took this one, so the lease still names this node), it is taken up again here, as the
/// relaying node cannot: otherwise the page would be sent back and forth for as long as the
/// lease lasts. If another node runs it now, the page is told to reconnect, and finds it there.
pub async fn serve_relayed(state: AppState, opened: Opened) {
    let _open = Open::new(&state);
    let mut conn = Connection::relayed(opened.link, state.config.silence);
    let ending = match route::route(&state, &opened.game).await {
        Route::Here(handle) => serve_game(&mut conn, handle, &state).await,
        _ => Ending::Closed(close::RESTARTING, MOVED),
    };
    conn.finish(ending).await;
}

/// The game stopped here but is kept: another node runs it now, or this one could not keep its
/// last change (Redis unreachable). The page reconnects and resends what was not acknowledged.
const MOVED: &str = "the game cannot go on on this server: reconnecting";

const NOT_NOW: &str = "the game cannot be reached just now: reconnect shortly";

/// Serves a game's socket until it ends, and says how to end it. The connection is borrowed,
/// not owned: this task's state is what every idle socket costs, and a connection held here by
/// value would be held twice (an async fn keeps its arguments and their moved copies apart).
async fn serve_game(conn: &mut Connection, handle: GameHandle, state: &AppState) -> Ending {
    let mut bucket = Bucket::new(state.config.burst, state.config.per_second);

    // Nothing happens before hello: it says who this is and what they have already seen.
    let deadline = Instant::now() + HELLO_TIMEOUT;
    let welcome = loop {
        let frame = match tokio::time::timeout_at(deadline, conn.next()).await {
            Ok(Some(frame)) => frame,
            Ok(None) => return Ending::Quietly,
            Err(_) => return Ending::Closed(close::SILENT, "say hello first"),
        };
        if !bucket.take() {
            return Ending::Closed(close::FLOOD, "too many messages");
        }
        let Message::Text(text) = frame else {
            if matches!(frame, Message::Close(_)) {
                return Ending::Quietly;
            }
            continue;
        };
        match ClientMessage::parse(text.as_str()) {
            // Boxed: awaited once in a socket's life (see `serve_game`).
            Ok(ClientMessage::Hello { seat, since }) => {
                match Box::pin(handle.hello(seat, since)).await {
                    Some(welcome) => break welcome,
                    None => return over(&handle),
                }
            }
            Ok(_) => conn.queue(refused(Refusal::HelloFirst)),
            Err(error @ ParseError::OtherProtocol(_)) => {
                conn.queue(refused(error.into()));
                return Ending::Closed(close::RELOAD, "reload the page");
            }
            Err(error) => conn.queue(refused(error.into())),
        }
        if conn.flush().await.is_err() {
            return Ending::Gone;
        }
    };

    let mut seat: Option<Colour> = welcome.seat;
    let number = welcome.number;
    // The seat's colour, never its token; the game, never the client's address.
    tracing::debug!(game = %handle.id, ?seat, "hello");
    for message in welcome.messages {
        conn.queue(message);
    }
    let mut events = welcome.events;
    let mut heartbeat = Heartbeat::new(state);
    // Made once, not at every wake (it registers with the game): again only when a join
    // gives the connection a seat.
    let replacement = replaced(&handle, seat, number);
    tokio::pin!(replacement);
    let ending = loop {
        if conn.flush().await.is_err() {
            break Ending::Quietly;
        }
        let frame = tokio::select! {
            frame = conn.next() => frame,
            event = events.recv() => {
                let gathered = event.map(|text| conn.queue(text));
                match gathered.and_then(|()| gather(&mut events, conn)) {
                    Ok(()) => continue,
                    Err(lost) => break lost_events(lost, &handle),
                }
            }
            () = &mut replacement => break Ending::Closed(close::REPLACED, REPLACED),
            beat = heartbeat.beat() => match beat {
                Beat::Ping => {
                    conn.queue_ping();
                    continue;
                }
                Beat::Close(code, reason) => break Ending::Closed(code, reason),
            },
        };
        let Some(frame) = frame else { break Ending::Quietly };
        heartbeat.heard();
        if !bucket.take() {
            break Ending::Closed(close::FLOOD, "too many messages");
        }
        let text = match frame {
            Message::Text(text) => text,
            Message::Binary(_) => {
                conn.queue(refused(Refusal::Binary));
                continue;
            }
            Message::Close(_) => break Ending::Quietly,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        let msg = match ClientMessage::parse(text.as_str()) {
            Ok(msg) => msg,
            Err(error) => {
                conn.queue(refused(error.into()));
                continue;
            }
        };
        let turn = matches!(msg, ClientMessage::Move { .. }).then(Instant::now);
        // Boxed: a request's state lives only while it is carried out, and inline it would be
        // the largest part of every idle socket's task (see `serve_game`).
        let Some(reply) = Box::pin(handle.act(seat, number, msg)).await else {
            break over(&handle);
        };
        if reply.seat != seat {
            seat = reply.seat;
            replacement.set(replaced(&handle, seat, number));
        }
        conn.queue(reply.text);
        // The events the request caused (a turn's `move`) are already here: they leave in the
        // same write as the reply.
        if let Err(lost) = gather(&mut events, conn) {
            break lost_events(lost, &handle);
        }
        if let Some(started) = turn {
            state.metrics.turn_seconds.observe(started.elapsed().as_secs_f64());
        }
    };
    handle.leave(seat, number);
    ending
}

/// Waits until newer connections to the same seat replace this one (never for a watcher).
async fn replaced(handle: &GameHandle, seat: Option<Colour>, number: u32) {
    match seat {
        Some(colour) => handle.replaced(colour, number).await,
        None => std::future::pending().await,
    }
}

/// Queues the events that have already arrived.
fn gather(
    events: &mut broadcast::Receiver<Wire>,
    conn: &mut Connection,
) -> Result<(), broadcast::error::RecvError> {
    loop {
        match events.try_recv() {
            Ok(text) => conn.queue(text),
            Err(broadcast::error::TryRecvError::Empty) => return Ok(()),
            Err(broadcast::error::TryRecvError::Lagged(missed)) => {
                return Err(broadcast::error::RecvError::Lagged(missed))
            }
            Err(broadcast::error::TryRecvError::Closed) => {
                return Err(broadcast::error::RecvError::Closed)
            }
        }
    }
}

const GONE: &str = "this game has finished and been forgotten";

/// A connection replaced by newer ones to the same seat.
const REPLACED: &str = "this game is open in other tabs or windows: go on there";

/// A game whose record does not read (see `store::Damaged`).
const DAMAGED: &str = "this game's record on the server is damaged: it cannot be played on";

/// Why a connection's events stopped: it fell too far behind (it comes back with its last
/// version and gets exactly what it missed), or the game has ended its life.
fn lost_events(lost: broadcast::error::RecvError, handle: &GameHandle) -> Ending {
    match lost {
        broadcast::error::RecvError::Lagged(_) => {
            Ending::Closed(close::BEHIND, "fell behind: reconnect to catch up")
        }
        broadcast::error::RecvError::Closed => over(handle),
    }
}

/// Why a game stopped answering: it ended its life, or it goes on on another node.
fn over(handle: &GameHandle) -> Ending {
    if handle.moved() {
        Ending::Closed(close::RESTARTING, MOVED)
    } else {
        Ending::Closed(close::GONE, GONE)
    }
}
