//! What every socket shares, to a game or to the lobby: its WebSocket settings, its count in
//! the metrics, and how a refusal is sent on it.

use axum::extract::ws::WebSocketUpgrade;

use crate::protocol::{Answer, Refusal, Wire, WireAnswer};
use crate::state::AppState;

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
pub(crate) struct Open {
    state: AppState,
    relayed: bool,
}

impl Open {
    /// A socket from a browser.
    pub(crate) fn new(state: &AppState) -> Open {
        state.metrics.sockets.inc();
        Open { state: state.clone(), relayed: false }
    }

    /// A socket another node relays here: counted apart too, as its browser is counted by the
    /// node it is connected to (the lobby's "people here").
    pub(crate) fn relayed(state: &AppState) -> Open {
        let mut open = Open::new(state);
        state.metrics.relayed_sockets.inc();
        open.relayed = true;
        open
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        self.state.metrics.sockets.dec();
        if self.relayed {
            self.state.metrics.relayed_sockets.dec();
        }
    }
}

pub(crate) fn refused(refusal: Refusal) -> Wire {
    Answer::Error(refusal.into()).wire()
}
