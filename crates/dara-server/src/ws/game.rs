//! `GET /ws/game/{id}`: a player's or a watcher's socket to one game: hello first, then its
//! requests carried out on the game and the game's events back.

use axum::extract::ws::{Message, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use tokio::time::Instant;

use super::connection::Connection;
use super::heartbeat::{Beat, Heartbeat};
use super::socket::{refused, sized, Open};
use crate::cluster::relay::{self, Ended, Opened};
use crate::cluster::route::{self, Route};
use crate::flood::{Bucket, HELLO_TIMEOUT};
use crate::game::GameHandle;
use crate::outlet::{Ending, Heard};
use crate::protocol::close;
use crate::protocol::{ClientMessage, ParseError, Refusal};
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
                        Ended::Moved => Ending::MOVED,
                        Ended::Closed => Ending::Gone,
                    }
                }
                (Route::Gone, _) => Ending::GAME_GONE,
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
        let ending = Ending::GAME_GONE;
        Connection::new(socket, state.config.silence).finish(ending).await;
    })
}

/// Carries a socket to the node that runs its game, until it closes or the game moves.
async fn relay_to(state: &AppState, conn: &mut Connection, id: &GameId, owner: NodeName) -> Ended {
    let Some(cluster) = &state.cluster else { return Ended::Moved };
    let Some(mut socket) = conn.lend_socket() else { return Ended::Moved };
    let ended =
        relay::carry(&cluster.hub, &mut socket, id, owner, state.stopping.subscribe()).await;
    conn.give_back(socket);
    ended
}

/// A socket another node relays here, for a game whose lease names this node. If the game is
/// not live here (this node gave its games up when it found it had lapsed, but no other node
/// took this one, so the lease still names this node), it is taken up again here, as the
/// relaying node cannot: otherwise the page would be sent back and forth for as long as the
/// lease lasts. If another node runs it now, the page is told to reconnect, and finds it there.
pub async fn serve_relayed(state: AppState, opened: Opened) {
    let _open = Open::relayed(&state);
    let mut conn = Connection::relayed(opened.link, state.config.silence);
    let ending = match route::route(&state, &opened.game).await {
        Route::Here(handle) => serve_game(&mut conn, handle, &state).await,
        _ => Ending::MOVED,
    };
    conn.finish(ending).await;
}

const NOT_NOW: &str = "the game cannot be reached just now: reconnect shortly";

/// Serves a game's socket until it ends, and says how to end it. The connection is borrowed,
/// not owned: this task's state is what every idle socket costs, and a connection held here by
/// value would be held twice (an async fn keeps its arguments and their moved copies apart).
///
/// The task only reads: it posts each request to the game, whose owner writes the answer and
/// every event to the socket itself (see `crate::outlet`). It writes only what it says of its
/// own accord (a refusal of a frame that is no request, a ping), and what the game left
/// unwritten because the socket did not take it at once.
async fn serve_game(conn: &mut Connection, handle: GameHandle, state: &AppState) -> Ending {
    let mut bucket = Bucket::new(state.config.burst, state.config.per_second);

    // Nothing happens before hello: it says who this is and what they have already seen.
    let deadline = Instant::now() + HELLO_TIMEOUT;
    let greeting = loop {
        let heard = match tokio::time::timeout_at(deadline, conn.next()).await {
            Ok(heard) => heard,
            Err(_) => return Ending::Closed(close::SILENT, "say hello first"),
        };
        let frame = match heard {
            Heard::Frame(frame) => frame,
            Heard::Nothing => return Ending::Quietly,
            // Nobody else writes to it before hello.
            Heard::Owed => {
                if conn.flush().await.is_err() {
                    return Ending::Gone;
                }
                continue;
            }
            Heard::End(ending) => return ending,
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
                let outlet = conn.outlet().clone();
                match Box::pin(handle.hello(seat, since, outlet)).await {
                    Some(greeting) => break greeting,
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

    let number = greeting.number;
    // The seat's colour, never its token; the game, never the client's address.
    tracing::debug!(game = %handle.id, seat = ?greeting.seat, "hello");
    let mut heartbeat = Heartbeat::new(state);
    let ending = loop {
        if conn.flush().await.is_err() {
            break Ending::Quietly;
        }
        let heard = tokio::select! {
            heard = conn.next() => heard,
            beat = heartbeat.beat() => match beat {
                Beat::Ping => {
                    conn.queue_ping();
                    continue;
                }
                Beat::Close(code, reason) => break Ending::Closed(code, reason),
            },
        };
        let frame = match heard {
            Heard::Frame(frame) => frame,
            Heard::Nothing => break Ending::Quietly,
            // Written at the loop's top.
            Heard::Owed => continue,
            Heard::End(ending) => break ending,
        };
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
        let read_at = matches!(msg, ClientMessage::Move { .. }).then(Instant::now);
        // Counted before it is posted: the answer may come before this task runs again.
        conn.outlet().asked();
        if !handle.act(number, msg, read_at) {
            break over(&handle);
        }
    };
    handle.leave(number);
    ending
}

/// A game whose record does not read (see `store::Damaged`).
const DAMAGED: &str = "this game's record on the server is damaged: it cannot be played on";

/// Why a game stopped answering: it ended its life, or it goes on on another node.
fn over(handle: &GameHandle) -> Ending {
    if handle.moved() {
        Ending::MOVED
    } else {
        Ending::GAME_GONE
    }
}
