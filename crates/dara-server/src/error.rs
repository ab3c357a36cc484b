//! The one error type of the HTTP side, mapped to a status and a JSON reason.

use axum::http::{header, HeaderValue, StatusCode};
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
    /// A browser page of another site (or none: `null`) asked on a visitor's behalf.
    ForeignOrigin,
    /// A post that does not say it carries JSON.
    NotJson,
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
            AppError::ForeignOrigin => StatusCode::FORBIDDEN,
            AppError::NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        }
    }

    /// What a person is told (also over a game's socket, when a rematch cannot start).
    pub fn reason(&self) -> String {
        match self {
            AppError::BadRequest(reason) | AppError::TooManyGames(reason) => reason.clone(),
            AppError::NotFound => {
                "no such game: it may have finished and been forgotten".to_owned()
            }
            AppError::Full => "the tables are full: a game nobody joins closes within 10 minutes, \
                               and finished games soon after; try again in a minute"
                .to_owned(),
            AppError::TableTaken => "someone else sat down at that table first: choose another, \
                                     or press Play anyone"
                .to_owned(),
            AppError::TableClosed => {
                "that table has closed: the person waiting there has left".to_owned()
            }
            AppError::ForeignOrigin => {
                "this request came from a page of another site, which may not act here".to_owned()
            }
            AppError::NotJson => "send the request's body as application/json".to_owned(),
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
        let mut response =
            (self.status(), Json(ErrorBody { error: self.reason() })).into_response();
        if matches!(self, AppError::Full) {
            // When to come back, for a program.
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("60"));
        }
        response
    }
}
