//! The one error type of the HTTP side, mapped to a status and a JSON answer: a code with its
//! figures, which the pages word in their language (`error.<code>` in `assets/lang-*.js`), beside
//! the reason in English for any other client.

use std::time::Duration;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

use crate::state::spoken;

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
    /// The client's address already has as many games as one may.
    TooManyGames {
        /// How many.
        limit: usize,
        /// How long a finished game is kept: when one of them goes.
        grace: Duration,
    },
    /// The client's address already holds as many seats at open tables as one may.
    TooManySeats {
        /// How many.
        limit: usize,
        /// How long a finished game is kept.
        grace: Duration,
    },
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
            AppError::TooManyGames { .. }
            | AppError::TooManySeats { .. }
            | AppError::OneAnalysisAtATime => StatusCode::TOO_MANY_REQUESTS,
            AppError::TableTaken => StatusCode::CONFLICT,
            AppError::TableClosed => StatusCode::NOT_FOUND,
            AppError::ForeignOrigin => StatusCode::FORBIDDEN,
            AppError::NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        }
    }

    /// What a person is told (also over a game's socket, when a rematch cannot start).
    pub fn reason(&self) -> String {
        match self {
            AppError::BadRequest(reason) => reason.clone(),
            AppError::TooManyGames { limit, grace } => format!(
                "there are already {limit} games here started from your address, the most it may \
                 have at once; a finished game is forgotten {} after it ends, so try again then",
                spoken(*grace)
            ),
            AppError::TooManySeats { limit, grace } => format!(
                "there are already {limit} seats here taken from your address, the most it may \
                 hold at once; a finished game is forgotten {} after it ends, so try again then",
                spoken(*grace)
            ),
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

    /// The code and figures a page words the error from (`error.<code>` in its catalogue).
    pub fn code(&self) -> Code {
        let seconds = |grace: &Duration| grace.as_secs() + u64::from(grace.subsec_nanos() > 0);
        match self {
            AppError::BadRequest(detail) => Code::BadRequest { detail: detail.clone() },
            AppError::NotFound => Code::NotFound,
            AppError::Full => Code::Full,
            AppError::EngineBusy { waiting, retry_after } => {
                Code::EngineBusy { waiting: *waiting, seconds: retry_seconds(*retry_after) }
            }
            AppError::TooManyGames { limit, grace } => {
                Code::TooManyGames { limit: *limit, grace_seconds: seconds(grace) }
            }
            AppError::TooManySeats { limit, grace } => {
                Code::TooManySeats { limit: *limit, grace_seconds: seconds(grace) }
            }
            AppError::TableTaken => Code::TableTaken,
            AppError::TableClosed => Code::TableClosed,
            AppError::ForeignOrigin => Code::ForeignOrigin,
            AppError::NotJson => Code::NotJson,
            AppError::AnalysisBusy { waiting, retry_after } => {
                Code::AnalysisBusy { waiting: *waiting, seconds: retry_seconds(*retry_after) }
            }
            AppError::OneAnalysisAtATime => Code::OneAnalysisAtATime,
            AppError::Unkept => Code::Unkept,
        }
    }
}

/// An error as a page reads it: its code and figures. A bad request's detail stays the
/// server's English (the rules' and the parsers' words: the pages send what they build, so
/// only a pasted record or position gets one in front of a person).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "kebab-case")]
pub enum Code {
    /// [`AppError::BadRequest`].
    BadRequest {
        /// What is wrong, in English.
        detail: String,
    },
    /// [`AppError::NotFound`].
    NotFound,
    /// [`AppError::Full`].
    Full,
    /// [`AppError::EngineBusy`].
    EngineBusy {
        /// Searches waiting.
        waiting: usize,
        /// Whole seconds until they will have been answered.
        seconds: u64,
    },
    /// [`AppError::TooManyGames`].
    TooManyGames {
        /// How many games an address may have.
        limit: usize,
        /// How long a finished game is kept, in whole seconds.
        #[serde(rename = "graceSeconds")]
        grace_seconds: u64,
    },
    /// [`AppError::TooManySeats`].
    TooManySeats {
        /// How many seats an address may hold.
        limit: usize,
        /// How long a finished game is kept, in whole seconds.
        #[serde(rename = "graceSeconds")]
        grace_seconds: u64,
    },
    /// [`AppError::TableTaken`].
    TableTaken,
    /// [`AppError::TableClosed`].
    TableClosed,
    /// [`AppError::ForeignOrigin`].
    ForeignOrigin,
    /// [`AppError::NotJson`].
    NotJson,
    /// [`AppError::AnalysisBusy`].
    AnalysisBusy {
        /// Analyses waiting.
        waiting: usize,
        /// Whole seconds to wait.
        seconds: u64,
    },
    /// [`AppError::OneAnalysisAtATime`].
    OneAnalysisAtATime,
    /// [`AppError::Unkept`].
    Unkept,
}

/// The body of every error answer: `{"error": "<the reason in English>", "code": …, …}`.
#[derive(Debug, Serialize)]
struct ErrorBody {
    error: String,
    #[serde(flatten)]
    code: Code,
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let body = Json(ErrorBody { error: self.reason(), code: self.code() });
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

    fn every_error() -> Vec<AppError> {
        let wait = Duration::from_secs(600);
        vec![
            AppError::bad("ruleset: unknown preset"),
            AppError::NotFound,
            AppError::Full,
            AppError::EngineBusy { waiting: 3, retry_after: wait },
            AppError::TooManyGames { limit: 20, grace: wait },
            AppError::TooManySeats { limit: 20, grace: wait },
            AppError::TableTaken,
            AppError::TableClosed,
            AppError::ForeignOrigin,
            AppError::NotJson,
            AppError::AnalysisBusy { waiting: 1, retry_after: wait },
            AppError::OneAnalysisAtATime,
            AppError::Unkept,
        ]
    }

    #[test]
    fn an_error_travels_as_english_beside_its_code_and_figures() {
        let body = |error: AppError| {
            let reason = error.reason();
            serde_json::to_value(ErrorBody { error: reason, code: error.code() }).unwrap()
        };
        assert_eq!(
            body(AppError::TooManyGames { limit: 20, grace: Duration::from_secs(600) }),
            serde_json::json!({
                "code": "too-many-games",
                "limit": 20,
                "graceSeconds": 600,
                "error": "there are already 20 games here started from your address, the most it \
                          may have at once; a finished game is forgotten 10 minutes after it \
                          ends, so try again then",
            })
        );
        assert_eq!(
            body(AppError::bad("a record of at most 9 bytes")),
            serde_json::json!({
                "code": "bad-request",
                "detail": "a record of at most 9 bytes",
                "error": "a record of at most 9 bytes",
            })
        );
    }

    #[test]
    fn the_pages_can_word_every_error() {
        // The English catalogue has every code (in the other languages the browser test checks
        // that they have English's keys).
        let english = include_str!("../assets/lang-en.js");
        for error in every_error() {
            let value = serde_json::to_value(error.code()).unwrap();
            let code = value["code"].as_str().unwrap();
            let plain = format!("\"error.{code}\":");
            let plural = format!("\"error.{code}.other\":");
            assert!(
                english.contains(&plain) || english.contains(&plural),
                "lang-en.js has no words for the error {code}"
            );
        }
    }
}
