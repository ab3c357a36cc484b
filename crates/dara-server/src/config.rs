//! The server's settings: how long games wait, how hard the computer may work, how much abuse a
//! connection may commit. Plain values, filled in by the binary (the library reads no
//! environment).

use std::sync::Arc;
use std::time::Duration;

use dara_table::Patience;
use dara_tablebase::Tablebase;

use crate::address::TrustedProxies;
use crate::arena::schedule::Schedule;

/// How long a table "play anyone" opened stays listed before the seeker's page has connected
/// (the default of [`Config::opener_expected_within`]). A page connects a few hundred
/// milliseconds after its answer, a few seconds on a slow phone; a seeker who never comes (the
/// page closed while the answer was on its way, a script) leaves the table listed no longer
/// than this, and whoever is seated there meanwhile has the first-move abort.
pub const OPENER_EXPECTED_WITHIN: Duration = Duration::from_secs(10);

/// Everything the server can be tuned by.
#[derive(Debug, Clone)]
pub struct Config {
    /// How patient the games are with people: how long a player may be gone before the
    /// opponent may claim the game, how long each side of a game on the clock has to make its
    /// first move. The table's own by default: it decides what they mean.
    pub patience: Patience,
    /// How long a finished game stays in memory (for the rematch, the record, late watchers).
    pub finished_grace: Duration,
    /// How long a game with nobody connected stays in memory before it is forgotten.
    pub idle_timeout: Duration,
    /// Searches the computer may run at once (the rest wait their turn).
    pub engine_threads: usize,
    /// Most searches that may wait for the computer before new games against it are refused
    /// (503, with when to come back). Each game has at most one search, so the games already
    /// begun still get their moves.
    pub engine_queue: usize,
    /// Whether low levels wait a human-looking moment before moving (off in tests).
    pub human_pause: bool,
    /// Most games held at once; beyond it, new games are refused.
    pub max_games: usize,
    /// Most games held at once that one client address asked for (see `address`: an IPv6 /64
    /// is one client); beyond it, that client's new games are refused. A game counts until it
    /// is forgotten, as it holds memory until then. Behind a proxy every game seems to come
    /// from the proxy: raise this there.
    pub games_per_address: usize,
    /// Most seats one client address may take at open tables at once (through the lobby's
    /// "Sit down" or "play anyone"), counted like the games it starts.
    pub seats_per_address: usize,
    /// Connections one client address may hold open at once (pages, sockets, requests).
    pub connections_per_address: u32,
    /// Of those, connections whose first request's headers have not all come yet (a browser
    /// sends them at once; a connection opened ahead of need waits a few seconds at most), so
    /// that half-sent requests from a few addresses cannot hold every file descriptor until
    /// `header_timeout`. `None`: half of `connections_per_address` (32 of 64), so that raising
    /// that for a load test raises this with it.
    pub unfinished_per_address: Option<u32>,
    /// Connections from every client together whose request headers have not all come: past
    /// it the oldest is let go, so that half-sent requests from many addresses never use up
    /// the file descriptors (`dara serve` makes it a quarter of its open-files limit).
    pub max_unfinished: usize,
    /// How long a game waits for its second player before it is closed.
    pub unjoined_timeout: Duration,
    /// How long a table "play anyone" opened stays listed while the seeker's page has not yet
    /// connected to it (see [`OPENER_EXPECTED_WITHIN`], the default); after that
    /// it is listed only while they are connected, as every open table is.
    pub opener_expected_within: Duration,
    /// Reverse proxies whose `X-Forwarded-For` names the client.
    pub trusted_proxies: TrustedProxies,
    /// The site's own origin (`https://dara.example`), which a browser's `Origin` must match on
    /// sockets and form posts; without it, the request's `Host` is the site.
    pub public_origin: Option<String>,
    /// How long a client has to send a request's headers before its connection is closed.
    pub header_timeout: Duration,
    /// The token `GET /metrics` asks for (`Authorization: Bearer <token>`); without one,
    /// `/metrics` answers only requests made on this machine that no proxy forwarded.
    pub metrics_token: Option<String>,
    /// How long a socket may stay silent (no message, no pong to the server's pings) before it
    /// is closed and its player counts as gone.
    pub silence: Duration,
    /// Largest WebSocket message accepted, in bytes.
    pub max_message: usize,
    /// Messages a connection may send in a burst, and per second after it.
    pub burst: u32,
    /// See `burst`.
    pub per_second: u32,
    /// Movement-phase tablebases (`dara serve --tablebases DIR`): the analysis answers from them
    /// and level 8 plays from them. Without them the Arcade works as before.
    pub tablebase: Option<Arc<Tablebase>>,
    /// The server's own arenas (`dara serve --arenas`, whose default is the schedule);
    /// none here, so that a server made by a test has only the arenas it makes.
    pub arena_schedule: Schedule,
    /// How long an arena is kept after its end: then everything of it is forgotten (the
    /// issue: "everything is erased an hour after the arena ends").
    pub arena_kept_after: Duration,
    /// Most private arenas held at once (the schedule's always have room); beyond it, new
    /// ones are refused.
    pub max_arenas: usize,
    /// Most private arenas held at once that one client address made.
    pub arenas_per_address: usize,
}

impl Config {
    /// Connections one client address may hold whose request headers have not all come: see
    /// `unfinished_per_address`.
    pub fn unfinished_share(&self) -> u32 {
        self.unfinished_per_address.unwrap_or(self.connections_per_address / 2).max(1)
    }
}

impl Default for Config {
    fn default() -> Config {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Config {
            patience: Patience::default(),
            finished_grace: Duration::from_secs(10 * 60),
            idle_timeout: Duration::from_secs(60 * 60),
            engine_threads: cores.max(1),
            // At level 8 a search takes about a second of a core: 64 waiting searches on two
            // cores answer within about half a minute.
            engine_queue: 64,
            human_pause: true,
            max_games: 10_000,
            // Far more than one person plays at once (games a person finishes count for
            // `finished_grace` more), far fewer than would fill the server.
            games_per_address: 20,
            seats_per_address: 20,
            // A page holds a game socket, a lobby socket and a few requests; a household or a
            // school behind one address holds several.
            connections_per_address: 64,
            unfinished_per_address: None,
            // A quarter of the usual 1,024 open files.
            max_unfinished: 256,
            unjoined_timeout: Duration::from_secs(10 * 60),
            opener_expected_within: OPENER_EXPECTED_WITHIN,
            trusted_proxies: TrustedProxies::default(),
            public_origin: None,
            metrics_token: None,
            header_timeout: Duration::from_secs(10),
            silence: Duration::from_secs(10),
            max_message: 4096,
            burst: 40,
            per_second: 10,
            tablebase: None,
            arena_schedule: Schedule::default(),
            arena_kept_after: Duration::from_secs(3600),
            max_arenas: 500,
            // A club's evening, and the next one announced.
            arenas_per_address: 3,
        }
    }
}
