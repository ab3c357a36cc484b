//! `GET /ws/game/{id}`: a player's or a watcher's socket to one game: hello first, then its
//! requests to the game's actor and the game's events back.

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use dara::Colour;
use futures_util::StreamExt;
use tokio::sync::{broadcast, mpsc};
use tokio::time::Instant;

use super::heartbeat::Heartbeat;
use super::writer::spawn_writer;
use super::{close, finish, refused, send, sized, Open, Outgoing};
use crate::error::AppError;
use crate::flood::{Bucket, HELLO_TIMEOUT};
use crate::game::GameHandle;
use crate::protocol::{ClientMessage, ParseError, Refusal, Wire};
use crate::seat::GameId;
use crate::state::AppState;

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
