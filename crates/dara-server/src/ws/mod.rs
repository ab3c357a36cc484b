//! The WebSocket endpoints: one per game (players and watchers, `game`) and one for the lobby
//! (`lobby`). Each socket is served by one task, not a reader and a writer: it waits at once for
//! the browser's next frame, the game's events (or the lobby's listing) and the heartbeat
//! (`heartbeat`: a ping to a quiet socket, the close of a silent one, or of every socket when the
//! server stops). A frame is checked, parsed and carried out on the game; what the socket is to
//! be sent is queued on its `Connection` (`connection`) and written in one flush each time the
//! task wakes, so a turn's `accepted` and its `move` event leave in one write. A socket to a game
//! that another node of the cluster runs is relayed there (`cluster::relay`).

mod connection;
mod game;
mod heartbeat;
mod lobby;

use axum::extract::ws::WebSocketUpgrade;

use crate::protocol::{Answer, Refusal, Wire};
use crate::state::AppState;

pub use game::{game_socket, serve_relayed};
pub use lobby::lobby_socket;

/// Close codes the browser can act on.
pub mod close {
    /// The connection sent too much: it is not welcome back at this rate.
    pub const FLOOD: u16 = 1008;
    /// The connection fell behind the game; reconnecting with the last version catches up.
    pub const BEHIND: u16 = 4000;
    /// The game has ended its life on the server.
    pub const GONE: u16 = 4004;
    /// No hello in time, or nothing heard for too long.
    pub const SILENT: u16 = 4008;
    /// The page speaks another version of the protocol: it must reload, not reconnect.
    pub const RELOAD: u16 = 4009;
    /// The server is stopping (a deploy, a restart): reconnect at once.
    pub const RESTARTING: u16 = 1012;
}

/// The WebSocket settings of every socket: messages of at most `max` bytes, and small buffers
/// (tungstenite's defaults, 128 KiB each way, would cost more than ten whole games). A browser's
/// messages are a few dozen bytes: reads are done 1 KiB at a time, and a larger message simply
/// takes more of them.
pub(crate) fn sized(ws: WebSocketUpgrade, max: usize) -> WebSocketUpgrade {
    ws.max_message_size(max)
        .max_frame_size(max)
        .read_buffer_size(1024)
        // Messages are gathered until the connection flushes (see `Connection::flush`).
        .write_buffer_size(16 * 1024)
        .max_write_buffer_size(64 * 1024)
}

/// Counts a socket open in the metrics while it lives.
pub(crate) struct Open(AppState);

impl Open {
    pub(crate) fn new(state: &AppState) -> Open {
        state.metrics.sockets.inc();
        Open(state.clone())
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        self.0.metrics.sockets.dec();
    }
}

pub(crate) fn refused(refusal: Refusal) -> Wire {
    Answer::Error(refusal.into()).wire()
}
