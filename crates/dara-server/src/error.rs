//! The one error type of the HTTP side, mapped to a status and a JSON reason.

use std::time::Duration;

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
    /// As many searches wait for the computer as the server lets wait: a new game against it
    /// would wait too long for its moves.
    EngineBusy {
        /// Searches waiting.
        waiting: usize,
        /// About when they will have been answered: when to come back.
        retry_after: Duration,
    },
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
    /// As many analyses wait for the engine as the server lets wait.
    AnalysisBusy {
        /// Analyses waiting.
        waiting: usize,
        /// About when to come back.
        retry_after: Duration,
    },
    /// The client already has its share of analyses booked.
    OneAnalysisAtATime,
    /// The store of live games failed (or the server is stopping): a game that cannot be kept
    /// is not begun.
    Unkept,
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
            AppError::Full
            | AppError::EngineBusy { .. }
            | AppError::AnalysisBusy { .. }
            | AppError::Unkept => StatusCode::SERVICE_UNAVAILABLE,
            AppError::TooManyGames(_) | AppError::OneAnalysisAtATime => {
                StatusCode::TOO_MANY_REQUESTS
            }
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
            AppError::EngineBusy { waiting, retry_after } => {
                let seconds = retry_seconds(*retry_after);
                format!(
                    "the computer is busy: {waiting} {} waiting for its moves; try again in \
                     {seconds} second{}",
                    if *waiting == 1 { "game is" } else { "games are" },
                    if seconds == 1 { "" } else { "s" }
                )
            }
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
            AppError::AnalysisBusy { waiting, retry_after } => {
                let seconds = retry_seconds(*retry_after);
                format!(
                    "the engine is busy: {waiting} {} waiting, after the games in play; try \
                     again in {seconds} second{}",
                    if *waiting == 1 { "analysis is" } else { "analyses are" },
                    if seconds == 1 { "" } else { "s" }
                )
            }
            AppError::OneAnalysisAtATime => {
                "one analysis at a time: wait for the one you asked for".to_owned()
            }
            AppError::Unkept => {
                "the server cannot keep a new game just now; try again in a minute".to_owned()
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
        let body = Json(ErrorBody { error: self.reason() });
        match self {
            // When to come back, for a program.
            AppError::EngineBusy { retry_after, .. }
            | AppError::AnalysisBusy { retry_after, .. } => {
                let seconds = retry_seconds(retry_after).to_string();
                (self.status(), [(header::RETRY_AFTER, seconds)], body).into_response()
            }
            AppError::Full => {
                let wait = [(header::RETRY_AFTER, HeaderValue::from_static("60"))];
                (self.status(), wait, body).into_response()
            }
            _ => (self.status(), body).into_response(),
        }
    }
}

/// Whole seconds to wait, rounded up, at least one: what `Retry-After` says.
fn retry_seconds(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_computer_says_when_to_come_back() {
        let busy = AppError::EngineBusy { waiting: 64, retry_after: Duration::from_millis(31_200) };
        assert_eq!(
            busy.reason(),
            "the computer is busy: 64 games are waiting for its moves; try again in 32 seconds"
        );
        let response = busy.into_response();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()[header::RETRY_AFTER], "32");
        let one = AppError::EngineBusy { waiting: 1, retry_after: Duration::from_millis(10) };
        assert_eq!(
            one.reason(),
            "the computer is busy: 1 game is waiting for its moves; try again in 1 second"
        );
    }
}
