//! The one error type of the HTTP side, mapped to a status and a JSON reason.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

/// Everything an HTTP request can fail with.
#[derive(Debug)]
pub enum AppError {
    /// The request is wrong; the text says how.
    BadRequest(String),
    /// No such game or page (or it has finished and been forgotten).
    NotFound,
    /// The server holds as many games as it will.
    Full,
    /// The client's address already has as many games as one may; the text says how many
    /// and when they go.
    TooManyGames(String),
    /// Someone else sat down at the open table first.
    TableTaken,
    /// The table is no longer open: the person waiting left, or the game has gone.
    TableClosed,
}

impl AppError {
    /// A bad request with a reason.
    pub fn bad(reason: impl Into<String>) -> AppError {
        AppError::BadRequest(reason.into())
    }

    /// The status it is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::NotFound => StatusCode::NOT_FOUND,
            AppError::Full => StatusCode::SERVICE_UNAVAILABLE,
            AppError::TooManyGames(_) => StatusCode::TOO_MANY_REQUESTS,
            AppError::TableTaken => StatusCode::CONFLICT,
            AppError::TableClosed => StatusCode::NOT_FOUND,
        }
    }

    /// What a person is told (also over a game's socket, when a rematch cannot start).
    pub fn reason(&self) -> String {
        match self {
            AppError::BadRequest(reason) | AppError::TooManyGames(reason) => reason.clone(),
            AppError::NotFound => {
                "no such game: it may have finished and been forgotten".to_owned()
            }
            AppError::Full => "the tables are full; try again in a minute".to_owned(),
            AppError::TableTaken => "someone else sat down at that table first: choose another, \
                                     or press Play anyone"
                .to_owned(),
            AppError::TableClosed => {
                "that table has closed: the person waiting there has left".to_owned()
            }
        }
    }
}

/// The body of every error answer: `{"error": "<reason a person can read>"}`.
#[derive(Debug, Serialize)]
struct ErrorBody {
    error: String,
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        (self.status(), Json(ErrorBody { error: self.reason() })).into_response()
    }
}
