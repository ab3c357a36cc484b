//! The HTTP side of starting a game: create one (against a friend, the computer or at an open
//! table), or ask to play anyone with the same rules and clock. Everything else happens over the
//! game's WebSocket.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use std::net::IpAddr;

use axum::http::StatusCode;
use axum::Json;
use dara::{ByColour, Colour};
use dara_table::clock::TimeControl;
use dara_table::wire::OpenTable;
use dara_table::{GameSettings, Opponent};
use serde::{Deserialize, Serialize};

use crate::address::Client;
use crate::browser::BrowserId;
use crate::cluster::limits::Counted;
use crate::cluster::route::{self, Route};
use crate::error::AppError;
use crate::game;
use crate::game::mailbox::SitRefused;
use crate::game::settings::NewGame;
use crate::game::start::Listing;
use crate::lobby::pairing::Pairing;
use crate::redis::node::NodeName;
use crate::seat::{GameId, Seat, SeatToken};
use crate::state::AppState;
use crate::watch::Playing;

/// What the creator of a game gets back.
#[derive(Debug, Serialize)]
pub struct Created {
    /// The game's id (its invite and spectator link is `/g/<id>`).
    pub game: GameId,
    /// The creator's seat token, if they took a seat.
    pub seat: Option<String>,
    /// The creator's colour.
    pub colour: Option<Colour>,
    /// Where to go: the game page, with the seat token in the fragment.
    pub url: String,
}

fn read<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, AppError> {
    body.map(|Json(t)| t).map_err(|e| AppError::bad(e.body_text()))
}

/// `POST /api/games`: a new game with the creator in one seat.
pub async fn create(
    State(state): State<AppState>,
    Client(client): Client,
    body: Result<Json<NewGame>, JsonRejection>,
) -> Result<(StatusCode, Json<Created>), AppError> {
    let setup = read(body)?.check()?;
    let created = create_game(&state, setup, client, Listing::OnceTheOpenerIsHere).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Starts the game of `setup` with its creator in their seat, counted against `client`, its
/// open table (if it is one) listed as `listing` says.
async fn create_game(
    state: &AppState,
    setup: GameSettings,
    client: IpAddr,
    listing: Listing,
) -> Result<Created, AppError> {
    let token = SeatToken::random();
    let other = match setup.opponent {
        Opponent::Computer(level) => Seat::Computer(level),
        Opponent::Friend | Opponent::Open => Seat::Open,
    };
    let creator = setup.creator;
    let seats = match creator {
        Colour::White => ByColour { white: Seat::Human(state.seat_key.seal(&token)), black: other },
        Colour::Black => ByColour { white: other, black: Seat::Human(state.seat_key.seal(&token)) },
    };
    if let Some(cluster) = &state.cluster {
        let limit = state.config.games_per_address;
        if cluster.games.count(client, limit).await == Counted::Full {
            return Err(state.too_many_games());
        }
    }
    let (handle, stored) = game::spawn_listed(state, setup, seats, Some(client), listing)
        .inspect_err(|_| {
            state.uncount_in_cluster(Some(client));
        })?;
    // The token is handed out only once the game it opens is kept; a game that could not be
    // kept ends its life at once, and stops counting against its client (in a cluster, once
    // Redis is known not to hold it).
    if let Err(e) = stored.wait().await {
        // Redis's answer never came: the game may be there, counted until its erasure is.
        if e.outcome_unknown() {
            state.count_until_erased(&handle.id);
        }
        handle.forget();
        return Err(AppError::Unkept);
    }
    Ok(created(&handle.id, Some(&token), Some(creator)))
}

fn created(game: &GameId, token: Option<&SeatToken>, colour: Option<Colour>) -> Created {
    let url = match token {
        Some(t) => format!("/g/{game}#seat={}", t.as_str()),
        None => format!("/g/{game}"),
    };
    Created { game: game.clone(), seat: token.map(|t| t.as_str().to_owned()), colour, url }
}

/// What "play anyone" asks for.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seek {
    /// The ruleset in notation.
    #[serde(default)]
    pub rules: Option<String>,
    /// The clock of the table opened if nobody with the same rules waits, if any.
    #[serde(default)]
    pub clock: Option<TimeControl>,
    /// The asking browser's id, so that it is never paired with a table it opened itself (in
    /// another tab).
    #[serde(default)]
    pub browser: Option<BrowserId>,
}

/// How many listed tables "play anyone" tries before opening a new one. A table it takes off
/// the list may still be taken first by someone who pressed "Sit down" on an older listing;
/// then the next one is tried.
const PAIRING_TRIES: usize = 8;

/// `POST /api/seek`: sits the asker at the table with the same rules that has waited longest,
/// whatever its clock, or opens one with the asker's clock for them to wait at, listed at once.
/// Either way they hold a seat when the answer comes. One seeker at a time in each pool (see
/// `lobby::pairing`), so that two who arrive together find each other.
pub async fn seek(
    State(state): State<AppState>,
    Client(client): Client,
    body: Result<Json<Seek>, JsonRejection>,
) -> Result<Json<Created>, AppError> {
    let seek = read(body)?;
    let request = NewGame {
        opponent: "open".to_owned(),
        rules: seek.rules,
        first: Some("random".to_owned()),
        level: None,
        clock: seek.clock,
    };
    let setup = request.check()?;
    // Compared as rules, so `arcade` and `arcade,quiet=80` are the same pool.
    let pairing = state.lobby.pairing(setup.rules).await;
    let seated = pair_or_open(&state, &pairing, setup, seek.browser, client).await;
    pairing.end().await;
    Ok(Json(seated?))
}

/// Sits a seeker holding their pool at the table that has waited longest, or opens and lists
/// one of their own.
async fn pair_or_open(
    state: &AppState,
    pairing: &Pairing<'_>,
    setup: GameSettings,
    browser: Option<BrowserId>,
    client: IpAddr,
) -> Result<Created, AppError> {
    for _ in 0..PAIRING_TRIES {
        let Some(id) = pairing.pair(browser.as_ref()).await else { break };
        if let Ok(seated) = sit_at(state, &id, client).await {
            return Ok(seated);
        }
    }
    // Nobody else is waiting: open a table of their own (the request's opponent is "open"),
    // listed before the pool is given back, so that the next seeker finds it.
    let (rules, clock, free) = (setup.rules, setup.clock, !setup.creator);
    let opened = create_game(state, setup, client, Listing::AtOnce).await?;
    let table = OpenTable { game: opened.game.clone(), rules, clock, seat: free };
    pairing.list(table, browser).await;
    Ok(opened)
}

/// `POST /api/tables/{id}/sit`: the lobby's "Sit down". Answers with the seat, or why there is
/// none (the table was taken or has closed) while the person is still looking at the list.
pub async fn sit(
    State(state): State<AppState>,
    Client(client): Client,
    Path(id): Path<String>,
) -> Result<Json<Created>, AppError> {
    let id = GameId::parse(&id).ok_or(AppError::TableClosed)?;
    Ok(Json(sit_at(&state, &id, client).await?))
}

/// Asks the table's game for its free seat, counted against `client` like a game it started:
/// in a cluster, counted across the nodes first (see `cluster::limits::SeatCounts`), and taken
/// back if no seat came of it.
async fn sit_at(state: &AppState, id: &GameId, client: IpAddr) -> Result<Created, AppError> {
    let Some(cluster) = &state.cluster else { return sit_routed(state, id, client).await };
    let counted = cluster.seats.count(client, id, state.config.seats_per_address).await;
    if counted == Counted::Full {
        return Err(state.too_many_seats());
    }
    let sat = sit_routed(state, id, client).await;
    if sat.is_err() && counted == Counted::Yes {
        cluster.seats.uncount(client, id);
    }
    sat
}

/// Asks the table's game for its free seat. In a cluster the game may run on another node,
/// which is asked instead.
async fn sit_routed(state: &AppState, id: &GameId, client: IpAddr) -> Result<Created, AppError> {
    let handle = match route::route(state, id).await {
        Route::Here(handle) => handle,
        Route::There(owner) => return sit_elsewhere(state, id, &owner).await,
        Route::Gone | Route::Damaged | Route::NotNow => return Err(AppError::TableClosed),
    };
    state.count_seat(id, client)?;
    let token = SeatToken::random();
    let refused = match handle.sit(state.seat_key.seal(&token)).await {
        Some(Ok(colour)) => return Ok(created(id, Some(&token), Some(colour))),
        Some(Err(SitRefused::Taken)) => AppError::TableTaken,
        Some(Err(SitRefused::Closed)) | None => AppError::TableClosed,
        Some(Err(SitRefused::Unkept)) => AppError::Unkept,
    };
    state.uncount_seat(id, client);
    Err(refused)
}

/// Asks node `owner`, which runs game `id`, for its free seat.
async fn sit_elsewhere(
    state: &AppState,
    id: &GameId,
    owner: &NodeName,
) -> Result<Created, AppError> {
    let cluster = state.cluster.as_ref().ok_or(AppError::TableClosed)?;
    let token = SeatToken::random();
    match cluster.hub.ask_sit(owner, id, &state.seat_key.seal(&token)).await {
        Some(Ok(colour)) => Ok(created(id, Some(&token), Some(colour))),
        Some(Err(SitRefused::Taken)) => Err(AppError::TableTaken),
        Some(Err(SitRefused::Closed)) | None => Err(AppError::TableClosed),
        Some(Err(SitRefused::Unkept)) => Err(AppError::Unkept),
    }
}

/// `GET /api/tables`: the open tables now.
pub async fn tables(State(state): State<AppState>) -> Json<Vec<OpenTable>> {
    Json(state.lobby.tables())
}

/// `GET /api/watch`: the games being played that anyone may watch, the liveliest first.
pub async fn watched(State(state): State<AppState>) -> Json<Vec<Playing>> {
    Json(state.watch.playing())
}
