//! `GET /ws/lobby`: the lobby (its open tables and who is here), sent again when it changes, at
//! most once a second.

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::response::Response;

use super::listing::serve_listing;
use super::socket::sized;
use crate::state::AppState;

/// The lobby's socket.
pub async fn lobby_socket(ws: WebSocketUpgrade, State(state): State<AppState>) -> Response {
    let max = state.config.max_message;
    sized(ws, max).on_upgrade(move |socket| {
        let listing = state.lobby.listing();
        // The lobby's message changes at most once a second already (`Lobby::count`).
        serve_listing(socket, state, listing, None)
    })
}
