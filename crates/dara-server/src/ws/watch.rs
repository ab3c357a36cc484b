//! `GET /ws/watch`: the games anyone may watch, sent again when the list changes, at most once
//! a second (changes within that second, a turn or a watcher come and gone, go out together).

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::response::Response;

use super::listing::serve_listing;
use super::socket::sized;
use crate::state::AppState;
use crate::watch::EVERY;

/// The watch list's socket.
pub async fn watch_socket(ws: WebSocketUpgrade, State(state): State<AppState>) -> Response {
    let max = state.config.max_message;
    sized(ws, max).on_upgrade(move |socket| {
        let listing = state.watch.listing();
        serve_listing(socket, state, listing, Some(EVERY))
    })
}
