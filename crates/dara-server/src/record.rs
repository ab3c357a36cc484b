//! `POST /api/record`: a game record (NOTATION.md, "Games") read and replayed by the rules, for
//! the analysis board's import. Every turn is checked; an illegal one is named by its number
//! and text, so the page never steps through a game the rules would not have allowed.

use axum::extract::rejection::JsonRejection;
use axum::Json;
use dara_table::view::{ReadRecord, RecordRequest};

use crate::error::AppError;

/// `POST /api/record` (the reading itself is the table crate's, which the page's module runs
/// offline too).
pub async fn read(
    body: Result<Json<RecordRequest>, JsonRejection>,
) -> Result<Json<ReadRecord>, AppError> {
    let request = body.map(|Json(r)| r).map_err(|e| AppError::bad(e.body_text()))?;
    request.read().map(Json).map_err(AppError::bad)
}
