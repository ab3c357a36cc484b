//! `GET /ws/arena/{id}`: an arena's socket. Hello first (with the player's token, if the
//! browser has joined, so that its own row and its seat in its next game go to it alone); then
//! the standings whenever the arena pins them up (at most once a second), and the podium at
//! the end. From the browser it needs nothing more but keep-alives.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use dara_arena::PlayerId;
use tokio::sync::watch;
use tokio::time::Instant;

use super::connection::Connection;
use super::heartbeat::{Beat, Heartbeat};
use super::socket::{sized, Open};
use crate::arena::board::Board;
use crate::arena::id::ArenaId;
use crate::arena::player::PlayerToken;
use crate::flood::{Bucket, HELLO_TIMEOUT};
use crate::outlet::{Ending, Heard};
use crate::protocol::close;
use crate::state::AppState;

/// An arena the server does not have (never made, or forgotten an hour after its end).
const ARENA_GONE: Ending = Ending::Closed(close::GONE, "no such arena: it may have ended");

/// A hello that does not read.
const BAD_HELLO: Ending = Ending::Closed(
    close::SILENT,
    "say hello first: {\"t\":\"hello\",\"d\":{\"player\":TOKEN}}, the token 16 to 64 of A-Z a-z 0-9 _ -",
);

/// The arena's socket.
pub async fn arena_socket(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Response {
    let id = ArenaId::parse(&id);
    let board = match &id {
        Some(id) => board_of(&state, id).await,
        None => None,
    };
    let max = state.config.max_message;
    sized(ws, max).on_upgrade(move |socket| async move {
        let _open = Open::new(&state);
        let mut conn = Connection::new(socket, state.config.silence);
        let ending = match (id, board) {
            (Some(id), Some(board)) => serve_arena(&mut conn, (&id, board), &state).await,
            _ => ARENA_GONE,
        };
        conn.finish(ending).await;
    })
}

/// The board of arena `id`: pinned here, or in a cluster, by the node that holds it.
async fn board_of(state: &AppState, id: &ArenaId) -> Option<watch::Receiver<Arc<Board>>> {
    match (state.arenas.get(id), &state.cluster) {
        (Some(handle), _) => Some(handle.board()),
        // Held by another node of the cluster: its board as pinned in Redis.
        (None, Some(cluster)) => {
            state.arenas.there.reach(&cluster.redis, id).await.map(|r| r.handle.board())
        }
        (None, None) => None,
    }
}

/// Who is at the socket: a player (their id, and their token for their seat links), or
/// anyone.
type Viewer = Option<(PlayerId, PlayerToken)>;

/// Reads the hello: `{"t":"hello"}` or `{"t":"hello","d":{"player":TOKEN}}`.
fn hello(text: &str, state: &AppState) -> Option<Viewer> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    if value["t"] != "hello" {
        return None;
    }
    match &value["d"]["player"] {
        serde_json::Value::Null => Some(None),
        serde_json::Value::String(token) => {
            let token = PlayerToken::parse(token)?;
            Some(Some((token.player(&state.seat_key), token)))
        }
        _ => None,
    }
}

async fn serve_arena(
    conn: &mut Connection,
    (id, mut board): (&ArenaId, watch::Receiver<Arc<Board>>),
    state: &AppState,
) -> Ending {
    let mut bucket = Bucket::new(state.config.burst, state.config.per_second);
    let deadline = Instant::now() + HELLO_TIMEOUT;
    let viewer: Viewer = loop {
        let heard = match tokio::time::timeout_at(deadline, conn.next()).await {
            Ok(heard) => heard,
            Err(_) => return Ending::Closed(close::SILENT, "say hello first"),
        };
        match heard {
            Heard::Frame(Message::Text(text)) => match hello(text.as_str(), state) {
                Some(viewer) => break viewer,
                None => return BAD_HELLO,
            },
            Heard::Frame(Message::Close(_)) | Heard::Nothing => return Ending::Quietly,
            Heard::Frame(_) | Heard::Owed => {}
            Heard::End(ending) => return ending,
        }
    };
    let as_viewer = || viewer.as_ref().map(|(id, token)| (id, token));
    let mut podium_told = false;
    let mut heartbeat = Heartbeat::new(state);
    let mut changed = true;
    let ending = loop {
        if changed {
            changed = false;
            let pinned = board.borrow_and_update().clone();
            conn.queue(pinned.standings_for(as_viewer()));
            if let (false, Some(podium)) = (podium_told, pinned.podium()) {
                podium_told = true;
                conn.queue(podium);
            }
        }
        if conn.flush().await.is_err() {
            break Ending::Quietly;
        }
        tokio::select! {
            beat = heartbeat.beat() => match beat {
                Beat::Ping => conn.queue_ping(),
                Beat::Close(code, reason) => break Ending::Closed(code, reason),
            },
            moved = board.changed() => match moved {
                Ok(()) => changed = true,
                // The arena was forgotten here; in a cluster, another node may hold it now.
                Err(_) => match board_of(state, id).await {
                    Some(elsewhere) => {
                        board = elsewhere;
                        changed = true;
                    }
                    None => break ARENA_GONE,
                },
            },
            heard = conn.next() => match heard {
                Heard::Frame(Message::Close(_)) | Heard::Nothing => break Ending::Quietly,
                Heard::Frame(_) => {
                    heartbeat.heard();
                    if !bucket.take() {
                        break Ending::Closed(close::FLOOD, "too many messages");
                    }
                }
                Heard::Owed => {}
                Heard::End(ending) => break ending,
            },
        }
    };
    ending
}
