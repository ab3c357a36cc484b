//! `GET /ws/game/{id}`: a player's or a watcher's socket to one game: hello first, then its
//! requests carried out on the game and the game's events back.

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use dara::Colour;
use tokio::sync::broadcast;
use tokio::time::Instant;

use super::connection::Connection;
use super::heartbeat::{Beat, Heartbeat};
use super::socket::{refused, sized, Open};
use crate::cluster::relay::{self, Ended, Opened};
use crate::cluster::route::{self, Route};
use crate::cluster::NodeName;
use crate::flood::{Bucket, HELLO_TIMEOUT};
use crate::game::GameHandle;
use crate::protocol::close;
use crate::protocol::{ClientMessage, ParseError, Refusal, Wire};
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
    sized(ws, max).on_upgrade(move |mut socket| async move {
        let _open = Open::new(&state);
        let silence = state.config.silence;
        match route {
            (Route::Here(handle), _) => {
                serve_game(Connection::new(socket, silence), handle, state).await
            }
            (Route::There(owner), id) => {
                let ended = relay_to(&state, &mut socket, &id, owner).await;
                if let Ended::Moved = ended {
                    Connection::new(socket, silence).close(close::RESTARTING, MOVED).await;
                }
            }
            (Route::Gone, _) => Connection::new(socket, silence).close(close::GONE, GONE).await,
            (Route::Damaged, _) => {
                Connection::new(socket, silence).close(close::DAMAGED, DAMAGED).await;
            }
            // The page reconnects after its short back-off, by which time the game has a node.
            (Route::NotNow, _) => {
                Connection::new(socket, silence).close(close::RESTARTING, NOT_NOW).await;
            }
        }
    })
}

/// A socket to a game nobody has: upgraded and closed with 4004.
fn gone(ws: WebSocketUpgrade, state: AppState) -> Response {
    let max = state.config.max_message;
    sized(ws, max).on_upgrade(move |socket| async move {
        let _open = Open::new(&state);
        Connection::new(socket, state.config.silence).close(close::GONE, GONE).await;
    })
}

/// Carries a socket to the node that runs its game, until it closes or the game moves.
async fn relay_to(state: &AppState, socket: &mut WebSocket, id: &GameId, owner: NodeName) -> Ended {
    let Some(cluster) = &state.cluster else { return Ended::Moved };
    relay::carry(&cluster.hub, socket, id, owner, state.stopping.subscribe()).await
}

/// A socket another node relays here, for a game this node runs (or no longer does: then the
/// page is told to reconnect, and finds the game where it is now).
pub async fn serve_relayed(state: AppState, opened: Opened) {
    let _open = Open::new(&state);
    let conn = Connection::relayed(opened.link, state.config.silence);
    match state.game(&opened.game) {
        Some(handle) => serve_game(conn, handle, state).await,
        None => conn.close(close::RESTARTING, MOVED).await,
    }
}

/// The game stopped here but is kept: another node runs it now, or this one could not keep its
/// last change (Redis unreachable). The page reconnects and resends what was not acknowledged.
const MOVED: &str = "the game cannot go on on this server: reconnecting";

const NOT_NOW: &str = "the game cannot be reached just now: reconnect shortly";

async fn serve_game(mut conn: Connection, handle: GameHandle, state: AppState) {
    let mut bucket = Bucket::new(state.config.burst, state.config.per_second);

    // Nothing happens before hello: it says who this is and what they have already seen.
    let deadline = Instant::now() + HELLO_TIMEOUT;
    let welcome = loop {
        let frame = match tokio::time::timeout_at(deadline, conn.next()).await {
            Ok(Some(frame)) => frame,
            Ok(None) => return conn.end().await,
            Err(_) => return conn.close(close::SILENT, "say hello first").await,
        };
        if !bucket.take() {
            return conn.close(close::FLOOD, "too many messages").await;
        }
        let Message::Text(text) = frame else {
            if matches!(frame, Message::Close(_)) {
                return conn.end().await;
            }
            continue;
        };
        match ClientMessage::parse(text.as_str()) {
            Ok(ClientMessage::Hello { seat, since }) => match handle.hello(seat, since).await {
                Some(welcome) => break welcome,
                None => {
                    let (code, reason) = over(&handle);
                    return conn.close(code, reason).await;
                }
            },
            Ok(_) => conn.queue(refused(Refusal::HelloFirst)),
            Err(error @ ParseError::OtherProtocol(_)) => {
                conn.queue(refused(error.into()));
                return conn.close(close::RELOAD, "reload the page").await;
            }
            Err(error) => conn.queue(refused(error.into())),
        }
        if conn.flush().await.is_err() {
            return;
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
    let mut heartbeat = Heartbeat::new(&state);
    // Made once, not at every wake (it registers with the game): again only when a join
    // gives the connection a seat.
    let replacement = replaced(&handle, seat, number);
    tokio::pin!(replacement);
    let ending = loop {
        if conn.flush().await.is_err() {
            break None;
        }
        let frame = tokio::select! {
            frame = conn.next() => frame,
            event = events.recv() => {
                let gathered = event.map(|text| conn.queue(text));
                match gathered.and_then(|()| gather(&mut events, &mut conn)) {
                    Ok(()) => continue,
                    Err(lost) => break Some(lost_events(lost, &handle)),
                }
            }
            () = &mut replacement => break Some((close::REPLACED, REPLACED)),
            beat = heartbeat.beat() => match beat {
                Beat::Ping => {
                    conn.queue_ping();
                    continue;
                }
                Beat::Close(code, reason) => break Some((code, reason)),
            },
        };
        let Some(frame) = frame else { break None };
        heartbeat.heard();
        if !bucket.take() {
            break Some((close::FLOOD, "too many messages"));
        }
        let text = match frame {
            Message::Text(text) => text,
            Message::Binary(_) => {
                conn.queue(refused(Refusal::Binary));
                continue;
            }
            Message::Close(_) => break None,
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
        let Some(reply) = handle.act(seat, number, msg).await else {
            break Some(over(&handle));
        };
        if reply.seat != seat {
            seat = reply.seat;
            replacement.set(replaced(&handle, seat, number));
        }
        conn.queue(reply.text);
        // The events the request caused (a turn's `move`) are already here: they leave in the
        // same write as the reply.
        if let Err(lost) = gather(&mut events, &mut conn) {
            break Some(lost_events(lost, &handle));
        }
        if let Some(started) = turn {
            state.metrics.turn_seconds.observe(started.elapsed().as_secs_f64());
        }
    };
    handle.leave(seat, number);
    match ending {
        Some((code, reason)) => conn.close(code, reason).await,
        None => conn.end().await,
    }
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
fn lost_events(lost: broadcast::error::RecvError, handle: &GameHandle) -> (u16, &'static str) {
    match lost {
        broadcast::error::RecvError::Lagged(_) => {
            (close::BEHIND, "fell behind: reconnect to catch up")
        }
        broadcast::error::RecvError::Closed => over(handle),
    }
}

/// Why a game stopped answering: it ended its life, or it goes on on another node.
fn over(handle: &GameHandle) -> (u16, &'static str) {
    if handle.moved() {
        (close::RESTARTING, MOVED)
    } else {
        (close::GONE, GONE)
    }
}
