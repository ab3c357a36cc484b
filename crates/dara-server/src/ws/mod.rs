//! The WebSocket endpoints: one per game (players and watchers, `game`), one for the lobby
//! (`lobby`) and one for the list of games to watch (`watch`). Each socket is served by one task, not a reader and a writer: it waits at once for
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
mod socket;
mod watch;

pub use game::{game_socket, serve_relayed};
pub use lobby::lobby_socket;
pub use watch::watch_socket;
