//! The one error type of the HTTP side, mapped to a status and a JSON reason.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// Everything an HTTP request can fail with.
#[derive(Debug)]
pub enum AppError {
    /// The request is wrong; the text says how.
    BadRequest(String),
    /// No such game or page (or it has finished and been forgotten).
    NotFound,
    /// The server holds as many games as it will.
    Full,
}

impl AppError {
    /// A bad request with a reason.
    pub fn bad(reason: impl Into<String>) -> AppError {
        AppError::BadRequest(reason.into())
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let (status, reason) = match self {
            AppError::BadRequest(reason) => (StatusCode::BAD_REQUEST, reason),
            AppError::NotFound => (
                StatusCode::NOT_FOUND,
                "no such game: it may have finished and been forgotten".to_owned(),
            ),
            AppError::Full => (
                StatusCode::SERVICE_UNAVAILABLE,
                "the tables are full; try again in a minute".to_owned(),
            ),
        };
        (status, Json(json!({ "error": reason }))).into_response()
    }
}
