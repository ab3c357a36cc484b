//! The HTTP side of arenas: list them, make a private one, and a player's requests (join,
//! pause, resume, leave, berserk). The standings go out over the arena's socket
//! (`crate::ws`).

use std::time::Duration;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use dara::Ruleset;
use dara_arena::{GameNo, Input, WallTime};
use dara_table::clock::TimeControl;
use serde::{Deserialize, Serialize};

use crate::address::Client;
use crate::arena::book::Listed;
use crate::arena::handle::ArenaHandle;
use crate::arena::id::ArenaId;
use crate::arena::owner::{open, Plan};
use crate::arena::player::PlayerToken;
use crate::arena::refused::{ArenaError, Shell};
use crate::arena::wall;
use crate::seat::{SeatHash, SeatToken};
use crate::state::AppState;

/// The longest arena one may make.
pub const MAX_MINUTES: u64 = 180;

/// How far ahead one may announce an arena.
pub const MAX_AHEAD: Duration = Duration::from_secs(7 * 24 * 3600);

fn read<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ArenaError> {
    body.map(|Json(t)| t).map_err(|e| ArenaError::bad(e.body_text()))
}

/// Arena `id`, live here or, in a cluster, on another node; with the keyed hash of its maker's
/// secret if it is held elsewhere (here, the book knows it).
async fn reach(state: &AppState, id: &str) -> Result<(ArenaHandle, Maker), ArenaError> {
    let id = ArenaId::parse(id).ok_or(Shell::UnknownArena)?;
    if let Some(handle) = state.arenas.get(&id) {
        return Ok((handle, Maker::InBook));
    }
    let cluster = state.cluster.as_ref().ok_or(Shell::UnknownArena)?;
    let remote = state.arenas.there.reach(&cluster.redis, &id).await;
    let remote = remote.ok_or(Shell::UnknownArena)?;
    Ok((remote.handle, Maker::There(remote.maker)))
}

/// Where the maker of an arena is known.
enum Maker {
    /// In the node's book: the arena is live here.
    InBook,
    /// Told with the arena held elsewhere: the keyed hash of their secret, for a private one.
    There(Option<SeatHash>),
}

async fn arena(state: &AppState, id: &str) -> Result<ArenaHandle, ArenaError> {
    reach(state, id).await.map(|(handle, _)| handle)
}

/// `GET /api/arenas`: the server's own arenas, running, starting soon, or ended within the
/// hour (in a cluster, every node's, as their holders last listed them).
pub async fn list(State(state): State<AppState>) -> Json<Vec<Listed>> {
    let Some(cluster) = &state.cluster else { return Json(state.arenas.listed()) };
    match cluster.redis.listed_arenas().await {
        Ok(texts) => {
            let mut listed: Vec<Listed> =
                texts.iter().filter_map(|text| serde_json::from_str(text).ok()).collect();
            listed.sort_by_key(|l| (l.about.starts, l.about.id.clone()));
            Json(listed)
        }
        Err(e) => {
            tracing::warn!("the cluster's arenas could not be read from Redis: {e}");
            Json(state.arenas.listed())
        }
    }
}

/// What the maker of a private arena asks for.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewArena {
    /// The rules of its games, in notation; `arcade` when absent.
    #[serde(default)]
    pub rules: Option<String>,
    /// Their clock.
    pub clock: TimeControl,
    /// How long it runs, in minutes.
    pub minutes: u64,
    /// When it starts (milliseconds since the Unix epoch); absent: when its maker presses
    /// start.
    #[serde(default)]
    pub starts: Option<u64>,
}

/// What the maker gets back.
#[derive(Debug, Serialize)]
pub struct Made {
    /// The arena's id (its socket is `/ws/arena/<id>`).
    pub arena: ArenaId,
    /// The maker's secret, which starts an arena that waits for its maker.
    pub secret: String,
}

/// Refuses a request from an address that asks too much of arenas, too fast, before anything
/// is done.
fn allowed(state: &AppState, client: std::net::IpAddr) -> Result<(), ArenaError> {
    if state.arenas.requests.allow(client) {
        Ok(())
    } else {
        Err(Shell::TooManyRequests.into())
    }
}

/// `POST /api/arenas`: a private arena, reached by its link.
pub async fn make(
    State(state): State<AppState>,
    Client(client): Client,
    body: Result<Json<NewArena>, JsonRejection>,
) -> Result<(StatusCode, Json<Made>), ArenaError> {
    allowed(&state, client)?;
    let asked = read(body)?;
    let rules: Ruleset = match &asked.rules {
        Some(text) if text.len() > 200 => return Err(ArenaError::bad("the ruleset is too long")),
        Some(text) => text.parse().map_err(|e| ArenaError::bad(format!("ruleset: {e}")))?,
        None => Ruleset::default(),
    };
    if !asked.clock.is_reasonable() {
        return Err(ArenaError::bad(
            "the clock must give 30 s to 60 min, and add at most 60 s a move",
        ));
    }
    if !(1..=MAX_MINUTES).contains(&asked.minutes) {
        return Err(ArenaError::bad(format!("an arena runs 1 to {MAX_MINUTES} minutes")));
    }
    let now = wall::now();
    let starts = asked.starts.map(WallTime::from_millis);
    if starts.is_some_and(|at| at > now + MAX_AHEAD) {
        return Err(ArenaError::bad("an arena starts within a week"));
    }
    let secret = SeatToken::random();
    let plan = Plan {
        rules,
        clock: asked.clock,
        // A time gone by: at once.
        starts: starts.map(|at| at.max(now)),
        length: Duration::from_secs(asked.minutes * 60),
        maker: Some(crate::arena::book::Maker {
            secret: state.seat_key.seal(&secret),
            from: client,
        }),
    };
    let handle = open(&state, &state.arenas, plan)?;
    let made = Made { arena: handle.id, secret: secret.as_str().to_owned() };
    Ok((StatusCode::CREATED, Json(made)))
}

/// A player's join.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Join {
    /// The token the player's browser made and keeps.
    pub player: PlayerToken,
    /// The name they play under, as typed.
    pub name: String,
}

/// A player's other requests.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    /// The token the player's browser keeps.
    pub player: PlayerToken,
    /// For berserk: the arena's number of the game (unused otherwise).
    #[serde(default)]
    pub game: Option<u32>,
}

/// Hands arena `id` (reached as `handle`) `input`; nothing in the answer but its refusal, if
/// any.
async fn act(
    state: &AppState,
    id: &str,
    handle: &ArenaHandle,
    input: Input,
) -> Result<StatusCode, ArenaError> {
    let answer = match handle.act(input.clone()).await {
        Some(answer) => Some(answer),
        // Its owner here stopped before it read the request: in a cluster, another node took
        // the arena over (this one was paused past its lease). Asked once more wherever the
        // arena is now, rather than answered that there is no such arena.
        None => arena(state, id).await?.act(input).await,
    };
    match answer {
        Some(Ok(())) => Ok(StatusCode::NO_CONTENT),
        Some(Err(refusal)) => Err(refusal),
        None => Err(Shell::UnknownArena.into()),
    }
}

/// `POST /api/arenas/{id}/join`.
pub async fn join(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Client(client): Client,
    body: Result<Json<Join>, JsonRejection>,
) -> Result<StatusCode, ArenaError> {
    allowed(&state, client)?;
    // Asked for before the body is read: a request to no arena is `unknown-arena` first.
    let handle = arena(&state, &id).await?;
    let join = read(body)?;
    let player = join.player.player(&state.seat_key);
    act(&state, &id, &handle, Input::Join { player, name: join.name }).await
}

/// The requests a player makes by name: `pause`, `resume`, `leave`, `berserk`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Request {
    /// Not to be paired until back.
    Pause,
    /// Back.
    Resume,
    /// Gone.
    Leave,
    /// Halve one's clock for a point more.
    Berserk,
}

/// `POST /api/arenas/{id}/{request}`.
pub async fn request(
    State(state): State<AppState>,
    Path((id, request)): Path<(String, Request)>,
    Client(client): Client,
    body: Result<Json<Player>, JsonRejection>,
) -> Result<StatusCode, ArenaError> {
    allowed(&state, client)?;
    let handle = arena(&state, &id).await?;
    let asked = read(body)?;
    let player = asked.player.player(&state.seat_key);
    let input = match request {
        Request::Pause => Input::Pause { player },
        Request::Resume => Input::Resume { player },
        Request::Leave => Input::Leave { player },
        Request::Berserk => {
            let game = asked.game.ok_or_else(|| ArenaError::bad("berserk names its game"))?;
            Input::Berserk { player, game: GameNo(game) }
        }
    };
    act(&state, &id, &handle, input).await
}

/// The maker's press.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Press {
    /// The maker's secret.
    pub secret: String,
}

/// `POST /api/arenas/{id}/start`: the maker starts an arena that waits for them.
pub async fn start(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Client(client): Client,
    body: Result<Json<Press>, JsonRejection>,
) -> Result<StatusCode, ArenaError> {
    allowed(&state, client)?;
    let (handle, maker) = reach(&state, &id).await?;
    let press = read(body)?;
    let offered = state.seat_key.hash(&press.secret);
    let made_by = match maker {
        Maker::InBook => state.arenas.made_by(&handle.id, &offered),
        Maker::There(maker) => maker.is_some_and(|m| m.matches(&offered)),
    };
    if !made_by {
        return Err(Shell::NotTheMaker.into());
    }
    match handle.start().await {
        Some(Ok(())) => Ok(StatusCode::NO_CONTENT),
        Some(Err(refusal)) => Err(refusal),
        None => Err(Shell::UnknownArena.into()),
    }
}
