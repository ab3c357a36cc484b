//! `GET /ws/lobby`: the list of open tables, sent again whenever it changes.

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;

use super::connection::Connection;
use super::heartbeat::{Beat, Heartbeat};
use super::socket::{sized, Open};
use crate::flood::Bucket;
use crate::outlet::{Ending, Heard};
use crate::protocol::close;
use crate::state::AppState;

/// The lobby's socket.
pub async fn lobby_socket(ws: WebSocketUpgrade, State(state): State<AppState>) -> Response {
    let max = state.config.max_message;
    sized(ws, max).on_upgrade(move |socket| serve_lobby(socket, state))
}

async fn serve_lobby(socket: WebSocket, state: AppState) {
    let _open = Open::new(&state);
    let mut conn = Connection::new(socket, state.config.silence);
    let mut listing = state.lobby.listing();
    let mut bucket = Bucket::new(state.config.burst, state.config.per_second);
    conn.queue(listing.borrow_and_update().clone());
    let mut heartbeat = Heartbeat::new(&state);
    let ending = loop {
        if conn.flush().await.is_err() {
            break Ending::Quietly;
        }
        tokio::select! {
            beat = heartbeat.beat() => match beat {
                Beat::Ping => conn.queue_ping(),
                Beat::Close(code, reason) => break Ending::Closed(code, reason),
            },
            changed = listing.changed() => {
                if changed.is_err() { break Ending::Quietly }
                conn.queue(listing.borrow_and_update().clone());
            }
            heard = conn.next() => match heard {
                // The lobby needs nothing from the browser but keep-alives.
                Heard::Frame(Message::Close(_)) | Heard::Nothing => break Ending::Quietly,
                Heard::Frame(_) => {
                    heartbeat.heard();
                    if !bucket.take() {
                        break Ending::Closed(close::FLOOD, "too many messages");
                    }
                }
                // Nobody else writes to the lobby's socket (written at the loop's top).
                Heard::Owed => {}
                Heard::End(ending) => break ending,
            },
        }
    };
    conn.finish(ending).await;
}
