//! The Arcade for Dara: a web server to play Dara in the browser against the computer, a friend
//! by link, or whoever sits down at an open table. No account, nothing kept after a game: games
//! live in memory, each behind its handle, journaled to a store on disk while they live (so that they
//! survive a crash and a restart, see [`store`]), and are forgotten and erased soon after they
//! end.
//!
//! [`app`] builds the router (tests call it directly), [`run`] serves it until shutdown.
//!
//! The modules stand in layers, each importing only those below it (`scripts/import-cycles`
//! fails on a circle of more than a parent and two children):
//! - the shell's parts: [`protocol`] (the wire), [`outlet`] (what a socket is sent, written by
//!   its game's owner or its own task), [`lobby`], [`watch`] (the games anyone may watch),
//!   [`metrics`], [`config`], [`seat`];
//!   [`redis`], the one module that speaks to Redis (a game's journal, leases, the shared lobby
//!   and games to watch, the per-address counts, the nodes' inboxes); [`store`], which keeps games in SQLite or
//!   through [`redis`]; the cluster's relay and limits ([`cluster`]);
//! - [`game`]: the live games, each a `dara_table::Table` (where every rule is decided) and the
//!   shell around it, which sees the server only through [`game::Host`];
//! - [`arena`]: the arenas, each a `dara_arena::Arena` held by one task that opens its games
//!   through [`game`] and hears their first moves and ends;
//! - [`state`]: the server's shared state, which holds all of the above and is the games' host;
//! - what serves requests from it: [`api`], [`arena_api`], [`ws`], [`pages`], [`analysis`], [`review`], the
//!   operator's endpoints in [`metrics`], and the cluster's routing and background tasks
//!   ([`cluster::route`], [`cluster::tasks`]).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod address;
pub mod analysis;
pub mod api;
pub mod arena;
pub mod arena_api;
pub mod browser;
pub mod cluster;
mod compress;
pub mod config;
pub mod connections;
pub mod date;
pub mod duration;
pub mod error;
pub mod flood;
pub mod game;
pub mod guard;
mod hashed;
mod hex;
pub mod lang;
pub mod listener;
pub mod lobby;
pub mod metrics;
pub mod one_at_a_time;
pub mod outlet;
pub mod pages;
pub mod position;
pub mod protocol;
pub mod puzzles;
pub mod record;
pub mod redis;
pub mod review;
pub mod seat;
pub mod served;
pub mod state;
pub mod store;
pub mod watch;
pub mod ws;

// The build's wording of the pages, their shared head and the stylesheet's served copy
// (build.rs includes them), here only for their tests to run.
#[cfg(test)]
#[path = "../build/css.rs"]
mod build_css;
#[cfg(test)]
#[path = "../build/head.rs"]
mod build_head;
#[cfg(test)]
#[path = "../build/words.rs"]
mod build_words;

use std::future::Future;

use axum::middleware;
use axum::routing::{get, post};
use axum::Router;
use tokio::net::TcpListener;

pub use config::Config;
pub use state::{AppState, Shared};

/// Every route of the site.
pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/", get(pages::home))
        .route("/g/{id}", get(pages::game))
        .route("/computer/{id}", get(pages::computer_game))
        .route("/sw.js", get(pages::service_worker))
        .route("/rules", get(pages::rules))
        .route("/privacy", get(pages::privacy))
        .route("/watch", get(pages::watch))
        .route("/arenas", get(pages::arenas))
        .route("/arena/{id}", get(pages::arena))
        .route("/analysis", get(pages::analysis))
        .route("/learn", get(pages::learn))
        .route("/puzzles", get(pages::puzzles))
        .route("/assets/{name}", get(pages::asset))
        .route("/api/games", post(api::create))
        .route("/api/analysis", post(analysis::analyse))
        .route("/api/review", post(review::review))
        .route("/api/record", post(record::read))
        .route("/api/seek", post(api::seek))
        .route("/api/tables", get(api::tables))
        .route("/api/watch", get(api::watched))
        .route("/api/position", post(position::judge))
        .route("/api/puzzles", get(puzzles::list))
        .route("/api/tables/{id}/sit", post(api::sit))
        .route("/api/arenas", get(arena_api::list).post(arena_api::make))
        .route("/api/arenas/{id}/join", post(arena_api::join))
        .route("/api/arenas/{id}/start", post(arena_api::start))
        .route("/api/arenas/{id}/{request}", post(arena_api::request))
        .route("/ws/arena/{id}", get(ws::arena_socket))
        .route("/ws/game/{id}", get(ws::game_socket))
        .route("/ws/lobby", get(ws::lobby_socket))
        .route("/ws/watch", get(ws::watch_socket))
        .route("/healthz", get(metrics::healthz))
        .route("/readyz", get(metrics::readyz))
        .route("/metrics", get(metrics::metrics))
        .fallback(pages::not_found)
        .layer(middleware::from_fn_with_state(state.clone(), guard::check_request))
        .layer(middleware::from_fn(guard::secure_headers))
        .with_state(state)
}

/// Serves the site on `listener` until `shutdown` completes.
///
/// # Errors
/// When the listener fails.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve(listener, Shared::new(config), shutdown).await
}

/// Takes up every game `opened` held, then serves the site keeping games there until
/// `shutdown` completes. Returns how many games were taken up before serving.
///
/// # Errors
/// When the listener fails.
pub async fn run_kept(
    listener: TcpListener,
    config: Config,
    opened: store::Opened,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let state = Shared::keeping(config, opened.store, opened.key);
    set_apart(&state, opened.damaged);
    take_up_with_arenas(&state, opened.games, opened.arenas);
    serve(listener, state, shutdown).await
}

/// Serves the site as node of a cluster (see [`cluster`]) until `shutdown` completes: games
/// are taken up from Redis as their players come, not at start.
///
/// # Errors
/// When the listener fails.
pub async fn run_clustered(
    listener: TcpListener,
    config: Config,
    cluster: cluster::Cluster,
    seat_key: seat::SeatKey,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let state = Shared::clustered(config, cluster, seat_key);
    cluster::tasks::start(&state);
    serve(listener, state, shutdown).await
}

/// Sets apart the stored games that do not read, each named in the log: their players are told
/// the game is damaged, and every other game is served. Their rows stay in the store as they
/// are, for the operator to look at.
pub fn set_apart(state: &AppState, damaged: Vec<store::Damaged>) {
    for store::Damaged { id, why } in damaged {
        tracing::error!(game = %id, "a stored game is damaged and set apart: {why}");
        if let Some(id) = seat::GameId::parse(&id) {
            state.quarantine(id);
        }
    }
}

/// Takes up stored games (see [`game::restore`]); gives how many could be. A game that cannot
/// be (a turn its rules no longer allow, a setting this release cannot read) is set apart as
/// damaged, named in the log, and left in the store.
pub fn take_up(state: &AppState, games: Vec<store::StoredGame>) -> usize {
    let started = std::time::Instant::now();
    let count = games.len();
    let mut taken_up = 0;
    for stored in games {
        let id = stored.id.clone();
        match game::restore(state, stored, state.store.clone()) {
            Ok(_) => taken_up += 1,
            Err(e) => {
                tracing::error!(game = %id, "a stored game cannot be taken up, set apart: {e}");
                state.quarantine(id);
            }
        }
    }
    tracing::info!(taken_up, of = count, elapsed = ?started.elapsed(), "live games taken up");
    taken_up
}

/// Takes up stored arenas and games (see [`take_up`]): each arena's games being played are
/// taken up with the arena following them, and the arenas run once they all are.
pub fn take_up_with_arenas(
    state: &AppState,
    games: Vec<store::StoredGame>,
    arenas: Vec<store::StoredArena>,
) -> usize {
    let arenas: Vec<_> =
        arenas.into_iter().filter_map(|a| arena::restore(state, &state.arenas, a)).collect();
    let mut followed: std::collections::HashMap<_, _> =
        arenas.iter().flat_map(arena::ArenaRestored::followed).collect();
    let mut live = std::collections::HashSet::new();
    let count = games.len();
    let mut taken_up = 0;
    for stored in games {
        let id = stored.id.clone();
        let observer = followed.remove(&id);
        match game::restore_observed(state, stored, state.store.clone(), observer) {
            Ok(_) => {
                taken_up += 1;
                live.insert(id);
            }
            Err(e) => {
                tracing::error!(game = %id, "a stored game cannot be taken up, set apart: {e}");
                state.quarantine(id);
            }
        }
    }
    tracing::info!(taken_up, of = count, arenas = arenas.len(), "live games and arenas taken up");
    for arena in arenas {
        arena.run(&live);
    }
    taken_up
}

/// Serves the site with state made beforehand, so that a test can also reach the games
/// through the library (say, one on a clock shorter than the site offers).
///
/// # Errors
/// When the listener fails.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let limits = listener::Limits {
        per_address: connections::Share {
            open: state.config.connections_per_address,
            unfinished: state.config.unfinished_share(),
            unfinished_total: state.config.max_unfinished,
        },
        trusted: state.config.trusted_proxies.clone(),
        header_timeout: state.config.header_timeout,
    };
    lobby::counting::start(&state);
    watch::start_publishing(std::sync::Arc::downgrade(&state), |state| &state.watch);
    arena::scheduled::start(&state, &state.arenas, state.config.arena_schedule.clone());
    let connections = state.connections.clone();
    let stopping = state.clone();
    let shutdown = async move {
        shutdown.await;
        tracing::info!("stopping: closing every socket with 1012");
        stopping.stopping.send_replace(true);
    };
    listener::serve(listener, app(state.clone()), limits, connections, shutdown).await?;
    // The sockets' writers send their close frames; give them a moment, not forever.
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(1);
    while state.metrics.sockets.get() > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    // Everything acknowledged is on disk already; this empties the log and lets the next
    // process take the data directory.
    state.store.close().await;
    // Nothing more can be written here: the games' leases go, so the other nodes take them up
    // at once rather than when the leases would lapse.
    if let Some(cluster) = &state.cluster {
        cluster.redis.release_all().await;
        cluster.redis.say_gone().await;
        cluster.redis.say_not_here().await;
    }
    Ok(())
}
