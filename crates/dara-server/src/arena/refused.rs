//! Why the server did not do what was asked of an arena: the arena's own refusals
//! ([`dara_arena::Refusal`]), and the shell's. Each travels as its code with its figures,
//! beside the English, as the server's other errors do (`crate::error`).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};

/// An arena request not carried out.
// Deserialize too: a node of a cluster hands on the refusal the arena's holder gave
// (`super::cluster::Answered`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ArenaError {
    /// The arena refused it: it is exactly as it was.
    Arena(dara_arena::Refusal),
    /// The server refused it before the arena saw it.
    Shell(Shell),
}

/// The server's own refusals of arena requests.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "kebab-case")]
pub enum Shell {
    /// The request is wrong; `detail` says how.
    BadRequest {
        /// What is wrong, in English.
        detail: String,
    },
    /// No such arena: never made, or ended more than an hour ago and forgotten.
    UnknownArena,
    /// The game could not keep what was asked just now (saving is paused): nothing changed,
    /// and it may be asked again.
    GameUnkept,
    /// The arena could not keep what was asked just now (its server cannot write to its
    /// disk): nothing changed, and it may be asked again.
    ArenaUnkept,
    /// Start pressed by someone who does not hold the maker's secret, or on an arena that
    /// starts at its time.
    NotTheMaker,
    /// The server holds as many private arenas as it will.
    TooManyArenas,
    /// On a node of a cluster: the node that runs the arena did not answer in time (it may be
    /// changing hands); the request may be asked again.
    NotNow,
    /// The client's address asks too much of arenas, too fast (joins and leaves, again and
    /// again): nothing was done; it may ask again a second later.
    TooManyRequests,
    /// The client's address has made as many of the private arenas held now as one may.
    TooManyArenasFromYou {
        /// How many.
        limit: usize,
    },
}

impl ArenaError {
    /// A bad request with a reason.
    pub fn bad(reason: impl Into<String>) -> ArenaError {
        ArenaError::Shell(Shell::BadRequest { detail: reason.into() })
    }

    /// The status it is answered with.
    pub fn status(&self) -> StatusCode {
        use dara_arena::Refusal as R;
        match self {
            ArenaError::Arena(R::NameEmpty | R::NameTooLong { .. } | R::NameInvisible) => {
                StatusCode::BAD_REQUEST
            }
            ArenaError::Arena(R::UnknownPlayer) => StatusCode::FORBIDDEN,
            ArenaError::Arena(_) => StatusCode::CONFLICT,
            ArenaError::Shell(Shell::BadRequest { .. }) => StatusCode::BAD_REQUEST,
            ArenaError::Shell(Shell::UnknownArena) => StatusCode::NOT_FOUND,
            ArenaError::Shell(Shell::GameUnkept | Shell::ArenaUnkept | Shell::NotNow) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ArenaError::Shell(Shell::NotTheMaker) => StatusCode::FORBIDDEN,
            ArenaError::Shell(Shell::TooManyArenas) => StatusCode::SERVICE_UNAVAILABLE,
            ArenaError::Shell(Shell::TooManyArenasFromYou { .. } | Shell::TooManyRequests) => {
                StatusCode::TOO_MANY_REQUESTS
            }
        }
    }

    /// What a person is told, in English.
    pub fn reason(&self) -> String {
        match self {
            ArenaError::Arena(refusal) => refusal.to_string(),
            ArenaError::Shell(Shell::BadRequest { detail }) => detail.clone(),
            ArenaError::Shell(Shell::UnknownArena) => {
                "no such arena: it may have ended more than an hour ago".to_owned()
            }
            ArenaError::Shell(Shell::GameUnkept) => {
                "the game could not keep it just now: try again in a moment".to_owned()
            }
            ArenaError::Shell(Shell::ArenaUnkept) => {
                "the arena could not keep it just now: nothing changed; try again in a moment"
                    .to_owned()
            }
            ArenaError::Shell(Shell::NotTheMaker) => {
                "only whoever made the arena starts it, and only if it waits for them".to_owned()
            }
            ArenaError::Shell(Shell::TooManyArenas) => {
                "the server holds as many arenas as it will: try again later".to_owned()
            }
            ArenaError::Shell(Shell::NotNow) => {
                "the server that runs this arena did not answer in time: try again in a moment"
                    .to_owned()
            }
            ArenaError::Shell(Shell::TooManyRequests) => {
                "too many arena requests from your address: wait a moment".to_owned()
            }
            ArenaError::Shell(Shell::TooManyArenasFromYou { limit }) => format!(
                "{limit} arenas made from your address are held already, the most at once; an \
                 arena is forgotten an hour after its end"
            ),
        }
    }
}

/// Every refusal of the shell, for the pages' catalogues to be checked against (`dara codes`).
impl dara::Coded for Shell {
    fn one_of_each() -> Vec<Shell> {
        let all = vec![
            Shell::BadRequest { detail: "the clock is unreadable".to_owned() },
            Shell::UnknownArena,
            Shell::GameUnkept,
            Shell::ArenaUnkept,
            Shell::NotTheMaker,
            Shell::TooManyArenas,
            Shell::TooManyRequests,
            Shell::NotNow,
            Shell::TooManyArenasFromYou { limit: 3 },
        ];
        for shell in &all {
            match shell {
                Shell::BadRequest { .. }
                | Shell::UnknownArena
                | Shell::GameUnkept
                | Shell::ArenaUnkept
                | Shell::NotTheMaker
                | Shell::TooManyArenas
                | Shell::TooManyRequests
                | Shell::NotNow
                | Shell::TooManyArenasFromYou { .. } => {}
            }
        }
        all
    }
}

impl From<dara_arena::Refusal> for ArenaError {
    fn from(refusal: dara_arena::Refusal) -> ArenaError {
        ArenaError::Arena(refusal)
    }
}

impl From<Shell> for ArenaError {
    fn from(shell: Shell) -> ArenaError {
        ArenaError::Shell(shell)
    }
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: String,
    #[serde(flatten)]
    code: &'a ArenaError,
}

impl IntoResponse for ArenaError {
    fn into_response(self) -> Response {
        let body = Json(ErrorBody { error: self.reason(), code: &self });
        (self.status(), body).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_kinds_travel_as_their_codes() {
        let taken = serde_json::to_value(ArenaError::Arena(dara_arena::Refusal::NameTaken));
        assert_eq!(taken.unwrap(), serde_json::json!({ "code": "name-taken" }));
        let unknown = serde_json::to_value(ArenaError::Shell(Shell::UnknownArena));
        assert_eq!(unknown.unwrap(), serde_json::json!({ "code": "unknown-arena" }));
    }
}
