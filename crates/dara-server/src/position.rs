//! `POST /api/position`: the rules' answers about one position ([`Question`]), for the pages
//! that teach; the page's WebAssembly module answers the same question where it runs.

use axum::extract::rejection::JsonRejection;
use axum::Json;
use dara_table::view::{Answer, Question};

use crate::error::AppError;

/// `POST /api/position`.
pub async fn judge(body: Result<Json<Question>, JsonRejection>) -> Result<Json<Answer>, AppError> {
    let question = body.map(|Json(q)| q).map_err(|e| AppError::bad(e.body_text()))?;
    Ok(Json(question.answer().map_err(AppError::bad)?))
}
