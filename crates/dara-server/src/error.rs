//! The one error type of the HTTP side, mapped to a status and a JSON answer: a code with its
//! figures, which the pages word in their language (`error.<code>` in `assets/lang-*.js`), beside
//! the reason in English for any other client. The code is the error's own serialisation (the
//! variant's name in kebab case), so there is no second list of codes to keep in step.

use std::time::Duration;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

use crate::duration::{spoken, whole_seconds};

/// Everything an HTTP request can fail with.
///
/// It serialises as a page reads it: its code and figures, durations in whole seconds. A bad
/// request's detail stays the server's English (the rules' and the parsers' words: the pages
/// send what they build, so only a pasted record or position gets one in front of a person).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "kebab-case")]
pub enum AppError {
    /// The request is wrong; `detail` says how.
    BadRequest {
        /// What is wrong, in English.
        detail: String,
    },
    /// No such game or page (or it has finished and been forgotten).
    NotFound,
    /// The server holds as many games as it will.
    Full,
    /// As many searches wait for the computer as the server lets wait: a new game against it
    /// would wait too long for its moves.
    EngineBusy {
        /// Searches waiting.
        waiting: usize,
        /// About when they will have been answered: when to come back (`seconds`, rounded up,
        /// at least one).
        #[serde(rename = "seconds", serialize_with = "retry_seconds_field")]
        retry_after: Duration,
    },
    /// The client's address already has as many games as one may.
    TooManyGames {
        /// How many.
        limit: usize,
        /// How long a finished game is kept: when one of them goes (`graceSeconds`, rounded
        /// up).
        #[serde(rename = "graceSeconds", serialize_with = "whole_seconds_field")]
        grace: Duration,
    },
    /// The client's address already holds as many seats at open tables as one may.
    TooManySeats {
        /// How many.
        limit: usize,
        /// How long a finished game is kept (`graceSeconds`, rounded up).
        #[serde(rename = "graceSeconds", serialize_with = "whole_seconds_field")]
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
        /// About when one of the analyses booked will be done, read from the queue (`seconds`,
        /// rounded up, at least one).
        #[serde(rename = "seconds", serialize_with = "retry_seconds_field")]
        retry_after: Duration,
    },
    /// The client already has its share of analyses booked.
    OneAnalysisAtATime {
        /// About when one of them will be done, read from the queue ahead of it (`seconds`,
        /// rounded up, at least one).
        #[serde(rename = "seconds", serialize_with = "retry_seconds_field")]
        retry_after: Duration,
    },
    /// The store of live games failed (or the server is stopping): a game that cannot be kept
    /// is not begun.
    Unkept,
}

impl AppError {
    /// A bad request with a reason.
    pub fn bad(reason: impl Into<String>) -> AppError {
        AppError::BadRequest { detail: reason.into() }
    }

    /// The status it is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::BadRequest { .. } => StatusCode::BAD_REQUEST,
            AppError::NotFound => StatusCode::NOT_FOUND,
            AppError::Full
            | AppError::EngineBusy { .. }
            | AppError::AnalysisBusy { .. }
            | AppError::Unkept => StatusCode::SERVICE_UNAVAILABLE,
            AppError::TooManyGames { .. }
            | AppError::TooManySeats { .. }
            | AppError::OneAnalysisAtATime { .. } => StatusCode::TOO_MANY_REQUESTS,
            AppError::TableTaken => StatusCode::CONFLICT,
            AppError::TableClosed => StatusCode::NOT_FOUND,
            AppError::ForeignOrigin => StatusCode::FORBIDDEN,
            AppError::NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        }
    }

    /// What a person is told (also over a game's socket, when a rematch cannot start).
    pub fn reason(&self) -> String {
        match self {
            AppError::BadRequest { detail } => detail.clone(),
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
            AppError::OneAnalysisAtATime { .. } => {
                "one analysis at a time: wait for the one you asked for".to_owned()
            }
            AppError::Unkept => {
                "the server cannot keep a new game just now; try again in a minute".to_owned()
            }
        }
    }
}

/// The reason, as a person is told it.
impl core::fmt::Display for AppError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.reason())
    }
}

impl dara::Coded for AppError {
    fn one_of_each() -> Vec<AppError> {
        let wait = Duration::from_secs(600);
        let all = vec![
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
            AppError::OneAnalysisAtATime { retry_after: wait },
            AppError::Unkept,
        ];
        // A variant added without a value above does not compile.
        for error in &all {
            match error {
                AppError::BadRequest { .. }
                | AppError::NotFound
                | AppError::Full
                | AppError::EngineBusy { .. }
                | AppError::TooManyGames { .. }
                | AppError::TooManySeats { .. }
                | AppError::TableTaken
                | AppError::TableClosed
                | AppError::ForeignOrigin
                | AppError::NotJson
                | AppError::AnalysisBusy { .. }
                | AppError::OneAnalysisAtATime { .. }
                | AppError::Unkept => {}
            }
        }
        all
    }
}

/// The body of every error answer: `{"error": "<the reason in English>", "code": …, …}`.
#[derive(Debug, Serialize)]
struct ErrorBody<'a> {
    error: String,
    #[serde(flatten)]
    code: &'a AppError,
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let body = Json(ErrorBody { error: self.reason(), code: &self });
        match self {
            // When to come back, for a program.
            AppError::EngineBusy { retry_after, .. }
            | AppError::AnalysisBusy { retry_after, .. }
            | AppError::OneAnalysisAtATime { retry_after } => {
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
    whole_seconds(wait).max(1)
}

/// [`retry_seconds`] as a figure of the error.
fn retry_seconds_field<S: serde::Serializer>(wait: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(retry_seconds(*wait))
}

/// A duration as a figure of the error: whole seconds, rounded up.
fn whole_seconds_field<S: serde::Serializer>(span: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(whole_seconds(*span))
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
        <AppError as dara::Coded>::one_of_each()
    }

    #[test]
    fn an_error_travels_as_english_beside_its_code_and_figures() {
        let body = |error: AppError| {
            let reason = error.reason();
            serde_json::to_value(ErrorBody { error: reason, code: &error }).unwrap()
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
    fn each_error_travels_as_its_code_and_figures() {
        let json: Vec<String> =
            every_error().iter().map(|e| serde_json::to_string(e).unwrap()).collect();
        assert_eq!(
            json,
            [
                r#"{"code":"bad-request","detail":"ruleset: unknown preset"}"#,
                r#"{"code":"not-found"}"#,
                r#"{"code":"full"}"#,
                r#"{"code":"engine-busy","waiting":3,"seconds":600}"#,
                r#"{"code":"too-many-games","limit":20,"graceSeconds":600}"#,
                r#"{"code":"too-many-seats","limit":20,"graceSeconds":600}"#,
                r#"{"code":"table-taken"}"#,
                r#"{"code":"table-closed"}"#,
                r#"{"code":"foreign-origin"}"#,
                r#"{"code":"not-json"}"#,
                r#"{"code":"analysis-busy","waiting":1,"seconds":600}"#,
                r#"{"code":"one-analysis-at-a-time","seconds":600}"#,
                r#"{"code":"unkept"}"#,
            ]
        );
        // Whole seconds, rounded up; a wait is at least a second, a grace may be none.
        let soon = AppError::EngineBusy { waiting: 1, retry_after: Duration::from_millis(10) };
        assert_eq!(serde_json::to_value(soon).unwrap()["seconds"], 1);
        let grace = AppError::TooManyGames { limit: 2, grace: Duration::from_millis(1500) };
        assert_eq!(serde_json::to_value(grace).unwrap()["graceSeconds"], 2);
        let none = AppError::TooManyGames { limit: 2, grace: Duration::ZERO };
        assert_eq!(serde_json::to_value(none).unwrap()["graceSeconds"], 0);
    }

    #[test]
    fn the_pages_can_word_every_error() {
        // The English catalogue has every code (in the other languages the browser test checks
        // that they have English's keys).
        let english = include_str!("../assets/lang-en.js");
        for error in every_error() {
            let value = serde_json::to_value(&error).unwrap();
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
