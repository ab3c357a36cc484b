//! `POST /api/review`: a finished game gone through by the engine, each turn marked by the
//! evaluation it lost, for the review a player reads after a game.
//!
//! Marks, from the evaluation the turn lost for its player (the best turn's against the turn
//! played, in hundredths of a stone, a won or lost game counting as ±1000):
//! `best` (the engine's own choice), `good` (under 50), `inaccuracy` (50 to 149), `mistake`
//! (150 to 299), `blunder` (300 or more). A search this short misjudges some positions; the
//! marks are a guide to where to look, not a verdict.

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::Json;
use dara::{Colour, Position, Status};
use dara_engine::score::Score;
use dara_engine::search::Outcome;
use serde::Serialize;

use crate::address::Client;
use crate::analysis::{reach, refused, AnalysisRequest, ScoreView};
use crate::error::AppError;
use crate::game::study::Line;
use crate::state::AppState;

/// The most turns a review goes through: a few times the longest games people play.
const MOST_TURNS: usize = 400;

/// Where the marks begin, in hundredths of a stone lost.
pub const INACCURACY: i32 = 50;
/// See [`INACCURACY`].
pub const MISTAKE: i32 = 150;
/// See [`INACCURACY`].
pub const BLUNDER: i32 = 300;
/// What a won (or lost) game counts as, so that a win thrown away is a blunder and the graph
/// keeps a scale.
const DECISIVE: i32 = 1000;

/// The game reviewed.
#[derive(Debug, Serialize)]
pub struct Review {
    /// Every position from the start, the start first.
    positions: Vec<Judged>,
    /// Every turn, marked.
    turns: Vec<Marked>,
}

/// One position as the engine judged it.
#[derive(Debug, Serialize)]
struct Judged {
    /// Who is to move there.
    side: Colour,
    /// Its evaluation for Pale, in hundredths of a stone between -1000 and 1000 (a won or
    /// lost game at the ends): what the graph draws.
    pale: i32,
    /// The engine's score for the side to move; none where the game is over.
    score: Option<ScoreView>,
    /// The engine's best turn there; none where the game is over.
    best: Option<String>,
}

/// One turn and its mark.
#[derive(Debug, Serialize)]
struct Marked {
    /// The turn, in notation.
    #[serde(rename = "move")]
    played: String,
    /// Who played it.
    by: Colour,
    /// The engine's choice in its place.
    best: Option<String>,
    /// What it lost for its player, in hundredths of a stone (never below 0).
    loss: i32,
    /// `best`, `good`, `inaccuracy`, `mistake` or `blunder`.
    mark: Mark,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum Mark {
    Best,
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    fn of(loss: i32) -> Mark {
        match loss {
            l if l >= BLUNDER => Mark::Blunder,
            l if l >= MISTAKE => Mark::Mistake,
            l if l >= INACCURACY => Mark::Inaccuracy,
            _ => Mark::Good,
        }
    }
}

/// `POST /api/review`: the same body as `/api/analysis`; the whole game is gone through.
pub async fn review(
    State(state): State<AppState>,
    Client(client): Client,
    body: Result<Json<AnalysisRequest>, JsonRejection>,
) -> Result<Json<Review>, AppError> {
    let played = reach(body)?;
    if played.moves().len() > MOST_TURNS {
        return Err(AppError::bad(format!("a review goes through at most {MOST_TURNS} turns")));
    }
    let line = Line {
        start: played.start().clone(),
        moves: played.moves().to_vec(),
        client: Some(client),
    };
    let (_search, answer) = state.computer.review(line).map_err(refused)?;
    // Dropping the search (the client went away) calls it off.
    let found = answer.await.ok_or_else(|| AppError::bad("the review was called off"))?;
    let positions: Vec<Judged> =
        found.iter().map(|(pos, outcome)| judge(pos, outcome.as_ref())).collect();
    let turns = played
        .moves()
        .iter()
        .zip(positions.windows(2))
        .map(|(m, pair)| {
            let (before, after) = (&pair[0], &pair[1]);
            let by = before.side;
            let for_player = |pale: i32| if by == Colour::White { pale } else { -pale };
            let loss = (for_player(before.pale) - for_player(after.pale)).max(0);
            let played = m.to_string();
            let mark =
                if before.best.as_deref() == Some(&played) { Mark::Best } else { Mark::of(loss) };
            Marked { played, by, best: before.best.clone(), loss, mark }
        })
        .collect();
    Ok(Json(Review { positions, turns }))
}

/// A position's judgement: the engine's, or the rules' where the game is over.
fn judge(pos: &Position, outcome: Option<&Outcome>) -> Judged {
    let side = pos.side();
    let Some(outcome) = outcome else {
        let pale = match pos.status() {
            Status::Won { winner: Colour::White, .. } => DECISIVE,
            Status::Won { winner: Colour::Black, .. } => -DECISIVE,
            Status::Drawn(_) | Status::Ongoing => 0,
        };
        return Judged { side, pale, score: None, best: None };
    };
    let for_mover = match outcome.score {
        Score::Cp(cp) => cp.clamp(-DECISIVE, DECISIVE),
        Score::Win(_) => DECISIVE,
        Score::Loss(_) => -DECISIVE,
    };
    let pale = if side == Colour::White { for_mover } else { -for_mover };
    Judged {
        side,
        pale,
        score: Some(outcome.score.into()),
        best: outcome.best.map(|m| m.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_the_documented_thresholds() {
        assert_eq!(Mark::of(0), Mark::Good);
        assert_eq!(Mark::of(INACCURACY - 1), Mark::Good);
        assert_eq!(Mark::of(INACCURACY), Mark::Inaccuracy);
        assert_eq!(Mark::of(MISTAKE), Mark::Mistake);
        assert_eq!(Mark::of(BLUNDER), Mark::Blunder);
        assert_eq!(Mark::of(2 * DECISIVE), Mark::Blunder, "a win thrown away");
    }
}
