//! The WebSocket endpoints: one per game (players and watchers, `game`), one for the lobby
//! (`lobby`) and one for the list of games to watch (`watch`). Each socket is served by one task,
//! not a reader and a writer: it waits at once for the browser's next frame, the lobby's (or the
//! watch list's) listing and the heartbeat (`heartbeat`: a ping to a quiet socket, the close of a
//! silent one, or of every socket when the server stops). A game's socket task only reads: it
//! checks and parses each frame and posts it to the game, whose owner writes the answer and the
//! events to the socket itself, through the socket's outlet (`crate::outlet`), so that a turn's
//! `accepted` and its `move` event leave in one write and no other socket's task wakes for it.
//! What a socket does not take at once is left in the outlet, and its task finishes the write
//! (`connection`). A socket to a game that another node of the cluster runs is relayed there
//! (`cluster::relay`).

mod arena;
mod connection;
mod game;
mod heartbeat;
mod listing;
mod lobby;
mod socket;
mod watch;

pub use arena::arena_socket;
pub use game::{game_socket, serve_relayed};
pub use lobby::lobby_socket;
pub use watch::watch_socket;
