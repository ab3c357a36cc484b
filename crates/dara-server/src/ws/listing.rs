//! A socket that is sent a list and nothing else (the lobby's open tables, the games to watch):
//! the list at once, then again whenever it changes, either at once or at most once every so
//! often; from the browser it needs nothing but keep-alives.

use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};
use tokio::sync::watch;
use tokio::time::Instant;

use super::connection::Connection;
use super::heartbeat::{Beat, Heartbeat};
use super::socket::Open;
use crate::flood::Bucket;
use crate::outlet::{Ending, Heard};
use crate::protocol::close;
use crate::protocol::Wire;
use crate::state::AppState;

/// Serves `socket` the list `listing` holds until it closes: each change sent at once, or
/// with `every`, at most once in that time (changes within it go out together).
pub(super) async fn serve_listing(
    socket: WebSocket,
    state: AppState,
    mut listing: watch::Receiver<Wire>,
    every: Option<Duration>,
) {
    let _open = Open::new(&state);
    let mut conn = Connection::new(socket, state.config.silence);
    let mut bucket = Bucket::new(state.config.burst, state.config.per_second);
    conn.queue(listing.borrow_and_update().clone());
    let mut next = Instant::now() + every.unwrap_or_default();
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
                match every {
                    None => conn.queue(listing.borrow_and_update().clone()),
                    Some(_) => pending = true,
                }
            }
            () = tokio::time::sleep_until(next), if pending => {
                pending = false;
                next = Instant::now() + every.unwrap_or_default();
                conn.queue(listing.borrow_and_update().clone());
            }
            heard = conn.next() => match heard {
                Heard::Frame(Message::Close(_)) | Heard::Nothing => break Ending::Quietly,
                Heard::Frame(_) => {
                    heartbeat.heard();
                    if !bucket.take() {
                        break Ending::Closed(close::FLOOD, "too many messages");
                    }
                }
                // Nobody else writes to this socket (written at the loop's top).
                Heard::Owed => {}
                Heard::End(ending) => break ending,
            },
        }
    };
    conn.finish(ending).await;
}
