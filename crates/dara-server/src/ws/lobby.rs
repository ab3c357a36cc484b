//! `GET /ws/lobby`: the list of open tables, sent again whenever it changes.

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use futures_util::StreamExt;

use super::heartbeat::Heartbeat;
use super::writer::spawn_writer;
use super::{close, finish, send, sized, Open, Outgoing};
use crate::flood::Bucket;
use crate::state::AppState;

/// The lobby's socket.
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
