//! `POST /api/analysis`: what the engine thinks of a position, for the analysis board and a
//! game's review. The position is given as the game gives it (a start and the turns from it),
//! so that a repetition counts as it would in play; the search runs in the computer's pool
//! after the games in play, within a budget of its own, and counts against the client.

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::Json;
use dara::{Colour, Position, Ruleset};
use dara_engine::score::Score;
use dara_table::Played;
use serde::{Deserialize, Serialize};

use crate::address::Client;
use crate::duration::millis;
use crate::error::AppError;
use crate::game::study::{AnalysisRefused, Study};
use crate::state::AppState;

/// The most turns a position may be reached by: more than any game the Arcade keeps.
const MOST_TURNS: usize = 2_000;

/// A position to analyse, or (for a review) the game that reached it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    /// The ruleset in notation (`arcade`, `arcade,place=four`, ...).
    rules: String,
    /// The position text the turns start from; the ruleset's start when left out.
    #[serde(default)]
    start: Option<String>,
    /// The turns from the start, in notation.
    #[serde(default)]
    moves: Vec<String>,
}

/// What the engine found.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnalysisAnswer {
    /// The side to move in the position.
    side: Colour,
    /// The best turn, in notation; none when the game is over there.
    best: Option<String>,
    /// The line the engine expects, best turn first.
    line: Vec<String>,
    /// The score for the side to move.
    score: ScoreView,
    /// The last depth the search completed.
    depth: u32,
    /// Positions searched.
    nodes: u64,
    /// How long the engine thought, in milliseconds.
    thought_ms: u64,
    /// How long the request waited for a free thread (behind the games in play).
    waited_ms: u64,
    /// The endgame tables' verdict, when the server has tables holding the position.
    #[serde(skip_serializing_if = "Option::is_none")]
    tablebase: Option<TableView>,
}

/// The tables' result for the side to move under the quiet-plies limit: `{"win": 7}` or
/// `{"loss": 4}` (plies to the next capture, which the winner can force), or `"drawn"`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum TableView {
    Win(u16),
    Drawn,
    Loss(u16),
}

impl From<dara_tablebase::Outcome> for TableView {
    fn from(outcome: dara_tablebase::Outcome) -> TableView {
        match outcome {
            dara_tablebase::Outcome::Win(plies) => TableView::Win(plies),
            dara_tablebase::Outcome::Draw => TableView::Drawn,
            dara_tablebase::Outcome::Loss(plies) => TableView::Loss(plies),
        }
    }
}

/// A score as the page reads it: `{"cp": 35}` (hundredths of a stone), `{"win": 7}` or
/// `{"loss": 4}` (plies to the end), for the side to move.
#[derive(Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ScoreView {
    Cp(i32),
    Win(u32),
    Loss(u32),
}

impl From<Score> for ScoreView {
    fn from(score: Score) -> ScoreView {
        match score {
            Score::Cp(cp) => ScoreView::Cp(cp),
            Score::Win(n) => ScoreView::Win(n),
            Score::Loss(n) => ScoreView::Loss(n),
        }
    }
}

/// The refusal of an analysis or a review, as the HTTP side says it.
pub(crate) fn refused(refused: AnalysisRefused) -> AppError {
    match refused {
        AnalysisRefused::Busy { waiting, retry_after } => {
            AppError::AnalysisBusy { waiting, retry_after }
        }
        AnalysisRefused::OneAtATime { retry_after } => AppError::OneAnalysisAtATime { retry_after },
    }
}

/// `POST /api/analysis`.
pub async fn analyse(
    State(state): State<AppState>,
    Client(client): Client,
    body: Result<Json<AnalysisRequest>, JsonRejection>,
) -> Result<Json<AnalysisAnswer>, AppError> {
    let played = reach(body)?;
    let pos = played.pos().clone();
    // The hashes of the positions before this one, as a game's own search is given them.
    let history = played.hashes().to_vec();
    let study = Study { pos: pos.clone(), history, client: Some(client) };
    let (_search, answer) = state.computer.analyse(study).map_err(refused)?;
    // Dropping the search (the client went away) calls it off.
    let analysis = answer.await.ok_or_else(|| AppError::bad("the analysis was called off"))?;
    let outcome = analysis.outcome;
    let tablebase =
        state.computer.tablebase().and_then(|tb| tb.probe_outcome(&pos).ok()).map(TableView::from);
    Ok(Json(AnalysisAnswer {
        side: pos.side(),
        best: outcome.best.map(|m| m.to_string()),
        line: outcome.pv.iter().map(ToString::to_string).collect(),
        score: outcome.score.into(),
        depth: outcome.depth,
        nodes: outcome.nodes,
        thought_ms: millis(outcome.time),
        waited_ms: millis(analysis.waited),
        tablebase,
    }))
}

/// The game a request's body describes, played through the rules; a body that is not such a
/// request, or a bad ruleset, start or turn, is said exactly.
pub(crate) fn reach(
    body: Result<Json<AnalysisRequest>, JsonRejection>,
) -> Result<Played, AppError> {
    let request = body.map(|Json(r)| r).map_err(|e| AppError::bad(e.body_text()))?;
    let rules: Ruleset = request.rules.parse().map_err(|e| AppError::bad(format!("rules: {e}")))?;
    let start = match &request.start {
        Some(text) => Position::from_text(text, rules)
            .map_err(|e| AppError::bad(format!("start position: {e}")))?,
        None => Position::start(rules),
    };
    if request.moves.len() > MOST_TURNS {
        return Err(AppError::bad(format!("at most {MOST_TURNS} turns")));
    }
    let mut played = Played::new(start);
    for (i, text) in request.moves.iter().enumerate() {
        played
            .resolve(text)
            .and_then(|m| played.play(m).map_err(dara::MoveError::Illegal))
            .map_err(|e| AppError::bad(format!("turn {} ({text}): {e}", i + 1)))?;
    }
    Ok(played)
}
