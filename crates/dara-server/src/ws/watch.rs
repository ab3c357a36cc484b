//! `GET /ws/watch`: the games anyone may watch, sent again when the list changes, at most once
//! a second (changes within that second, a turn or a watcher come and gone, go out together).

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use tokio::time::Instant;

use super::connection::Connection;
use super::heartbeat::{Beat, Heartbeat};
use super::socket::{sized, Open};
use crate::flood::Bucket;
use crate::outlet::{Ending, Heard};
use crate::protocol::close;
use crate::state::AppState;
use crate::watch::EVERY;

/// The watch list's socket.
pub async fn watch_socket(ws: WebSocketUpgrade, State(state): State<AppState>) -> Response {
    let max = state.config.max_message;
    sized(ws, max).on_upgrade(move |socket| serve_watch(socket, state))
}

async fn serve_watch(socket: WebSocket, state: AppState) {
    let _open = Open::new(&state);
    let mut conn = Connection::new(socket, state.config.silence);
    let mut listing = state.watch.listing();
    let mut bucket = Bucket::new(state.config.burst, state.config.per_second);
    conn.queue(listing.borrow_and_update().clone());
    let mut next = Instant::now() + EVERY;
    // A change heard before `next`, to be sent then.
    let mut pending = false;
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
            changed = listing.changed(), if !pending => {
                if changed.is_err() { break Ending::Quietly }
                pending = true;
            }
            () = tokio::time::sleep_until(next), if pending => {
                pending = false;
                next = Instant::now() + EVERY;
                conn.queue(listing.borrow_and_update().clone());
            }
            heard = conn.next() => match heard {
                // The list needs nothing from the browser but keep-alives.
                Heard::Frame(Message::Close(_)) | Heard::Nothing => break Ending::Quietly,
                Heard::Frame(_) => {
                    heartbeat.heard();
                    if !bucket.take() {
                        break Ending::Closed(close::FLOOD, "too many messages");
                    }
                }
                // Nobody else writes to the watch list's socket (written at the loop's top).
                Heard::Owed => {}
                Heard::End(ending) => break ending,
            },
        }
    };
    conn.finish(ending).await;
}
