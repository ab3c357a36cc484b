//! The pages and their assets, hand-written and embedded in the binary: nothing to build,
//! nothing to install, nothing read from disk at run time.

use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::seat::GameId;
use crate::state::AppState;

/// The assets under `/assets/`: name, content type, bytes.
const ASSETS: &[(&str, &str, &[u8])] = &[
    ("style.css", "text/css; charset=utf-8", include_bytes!("../assets/style.css")),
    ("home.js", "text/javascript; charset=utf-8", include_bytes!("../assets/home.js")),
    ("game.js", "text/javascript; charset=utf-8", include_bytes!("../assets/game.js")),
    ("board.js", "text/javascript; charset=utf-8", include_bytes!("../assets/board.js")),
    ("notation.js", "text/javascript; charset=utf-8", include_bytes!("../assets/notation.js")),
    ("connection.js", "text/javascript; charset=utf-8", include_bytes!("../assets/connection.js")),
    ("rules-form.js", "text/javascript; charset=utf-8", include_bytes!("../assets/rules-form.js")),
    ("diagrams.js", "text/javascript; charset=utf-8", include_bytes!("../assets/diagrams.js")),
    ("learn.js", "text/javascript; charset=utf-8", include_bytes!("../assets/learn.js")),
    ("lessons.js", "text/javascript; charset=utf-8", include_bytes!("../assets/lessons.js")),
    ("puzzles.js", "text/javascript; charset=utf-8", include_bytes!("../assets/puzzles.js")),
    ("sound.js", "text/javascript; charset=utf-8", include_bytes!("../assets/sound.js")),
    ("review.js", "text/javascript; charset=utf-8", include_bytes!("../assets/review.js")),
    ("analysis.js", "text/javascript; charset=utf-8", include_bytes!("../assets/analysis.js")),
    ("api.js", "text/javascript; charset=utf-8", include_bytes!("../assets/api.js")),
    ("movelist.js", "text/javascript; charset=utf-8", include_bytes!("../assets/movelist.js")),
    ("i18n.js", "text/javascript; charset=utf-8", include_bytes!("../assets/i18n.js")),
    ("lang-en.js", "text/javascript; charset=utf-8", include_bytes!("../assets/lang-en.js")),
    ("lang-fr.js", "text/javascript; charset=utf-8", include_bytes!("../assets/lang-fr.js")),
    ("lang-ha.js", "text/javascript; charset=utf-8", include_bytes!("../assets/lang-ha.js")),
    ("favicon.svg", "image/svg+xml", include_bytes!("../assets/favicon.svg")),
];

/// Pages only load what the site itself serves, and send no `Referer` (a seat link's fragment
/// never leaves the browser anyway, but the game id need not either).
fn page(status: StatusCode, html: &'static str) -> Response {
    let mut response = (status, html).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'self'; img-src 'self' data:; style-src 'self'; connect-src 'self'; frame-ancestors 'none'"),
    );
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// `/`: the three ways to play.
pub async fn home() -> Response {
    page(StatusCode::OK, include_str!("../assets/index.html"))
}

/// `/g/{id}`: a game, for its players and its watchers.
pub async fn game(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let live = match GameId::parse(&id) {
        Some(id) => crate::cluster::exists(&state, &id).await,
        None => false,
    };
    if live {
        page(StatusCode::OK, include_str!("../assets/game.html"))
    } else {
        page(StatusCode::NOT_FOUND, include_str!("../assets/gone.html"))
    }
}

/// `/rules`: how to play.
pub async fn rules() -> Response {
    page(StatusCode::OK, include_str!("../assets/rules.html"))
}

/// `/analysis`: the analysis board.
pub async fn analysis() -> Response {
    page(StatusCode::OK, include_str!("../assets/analysis.html"))
}

/// `/learn`: the rules taught by playing them, a step at a time, up to a first game.
pub async fn learn() -> Response {
    page(StatusCode::OK, include_str!("../assets/learn.html"))
}

/// `/puzzles`: positions with one clearly best move, a stream by difficulty.
pub async fn puzzles() -> Response {
    page(StatusCode::OK, include_str!("../assets/puzzles.html"))
}

/// `/privacy`: what is kept (nothing).
pub async fn privacy() -> Response {
    page(StatusCode::OK, include_str!("../assets/privacy.html"))
}

/// Anything else.
pub async fn not_found() -> Response {
    page(StatusCode::NOT_FOUND, include_str!("../assets/gone.html"))
}

/// `/assets/{name}`.
pub async fn asset(Path(name): Path<String>) -> Response {
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((_, content_type, bytes)) => {
            ([(header::CONTENT_TYPE, *content_type), (header::CACHE_CONTROL, "no-cache")], *bytes)
                .into_response()
        }
        None => (StatusCode::NOT_FOUND, "no such asset").into_response(),
    }
}
