//! The pages and their assets, hand-written and embedded in the binary: nothing to build,
//! nothing to install, nothing read from disk at run time.

use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::seat::GameId;
use crate::state::AppState;

/// The assets under `/assets/`: name, content type, bytes. Every file in `assets/` but the
/// pages, listed by `build.rs`.
const ASSETS: &[(&str, &str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The page's engine, `assets/engine.wasm` (a committed build of `crates/dara-pocket`, made by
/// `scripts/build-wasm`), if the server was built with it. Without it the server serves
/// everything else, and the computer plays on the server.
pub fn engine_wasm() -> Option<&'static [u8]> {
    ASSETS.iter().find(|(name, _, _)| *name == "engine.wasm").map(|(_, _, bytes)| *bytes)
}

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
        Some(id) => crate::cluster::route::exists(&state, &id).await,
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

/// The worker that runs the page's engine lives under the policy its script is served with,
/// not the page's (and every other asset's is to load nothing): it may import the site's
/// modules, fetch the engine and compile it as WebAssembly, and nothing else.
const ENGINE_WORKER_POLICY: &str =
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'";

/// `/assets/{name}`.
pub async fn asset(Path(name): Path<String>) -> Response {
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((name, content_type, bytes)) => {
            let mut response = (
                [(header::CONTENT_TYPE, *content_type), (header::CACHE_CONTROL, "no-cache")],
                *bytes,
            )
                .into_response();
            if *name == "engine-worker.js" {
                response.headers_mut().insert(
                    header::CONTENT_SECURITY_POLICY,
                    HeaderValue::from_static(ENGINE_WORKER_POLICY),
                );
            }
            response
        }
        None => (StatusCode::NOT_FOUND, "no such asset").into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::ASSETS;

    /// The file names written right after `prefix` in `text`.
    fn names_after<'a>(text: &'a str, prefix: &'a str) -> impl Iterator<Item = &'a str> {
        text.match_indices(prefix).map(move |(i, _)| {
            let rest = &text[i + prefix.len()..];
            let name = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
            &rest[..rest.find(|c| !name(c)).unwrap_or(rest.len())]
        })
    }

    #[test]
    fn every_asset_a_page_or_module_loads_is_served_and_no_page_is_an_asset() {
        let pages = [
            include_str!("../assets/index.html"),
            include_str!("../assets/game.html"),
            include_str!("../assets/gone.html"),
            include_str!("../assets/rules.html"),
            include_str!("../assets/analysis.html"),
            include_str!("../assets/learn.html"),
            include_str!("../assets/puzzles.html"),
            include_str!("../assets/privacy.html"),
        ];
        let modules = ASSETS.iter().filter(|(n, _, _)| n.ends_with(".js"));
        let modules = modules.map(|(_, _, bytes)| core::str::from_utf8(bytes).unwrap());
        let loaded: Vec<&str> = pages
            .iter()
            .flat_map(|page| names_after(page, "/assets/"))
            .chain(modules.flat_map(|module| names_after(module, "'./")))
            .collect();
        // Enough names found to trust the search: every module and the stylesheet at least.
        assert!(loaded.len() > ASSETS.len(), "{loaded:?}");
        for name in loaded {
            assert!(ASSETS.iter().any(|(n, _, _)| *n == name), "{name} is loaded but not served");
        }
        assert!(ASSETS.iter().all(|(n, _, _)| !n.ends_with(".html")));
    }

    #[test]
    fn the_engine_is_served_as_webassembly_and_its_manifest_is_not_served() {
        let wasm = super::engine_wasm().expect("assets/engine.wasm is committed");
        assert_eq!(&wasm[..4], b"\0asm");
        let (_, content_type, _) = ASSETS.iter().find(|(n, _, _)| *n == "engine.wasm").unwrap();
        assert_eq!(*content_type, "application/wasm");
        assert!(ASSETS.iter().all(|(n, _, _)| !n.ends_with(".manifest")));
    }
}
