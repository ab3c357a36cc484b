//! The pages and their assets, hand-written and embedded in the binary: nothing to build,
//! nothing to install, nothing read from disk at run time.

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::lang::Language;
use crate::seat::GameId;
use crate::served::Served;
use crate::state::AppState;

/// The assets under `/assets/`: every file in `assets/` but the pages, listed (and compressed)
/// by `build.rs`.
const ASSETS: &[Served] = include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The pages, `assets/*.html`, each served on a route of its own: by name, a copy in each
/// language (in the order of `Language::ALL`), worded by `build.rs` as `assets/i18n.js` would.
const PAGES: &[(&str, [Served; 3])] = include!(concat!(env!("OUT_DIR"), "/pages.rs"));

/// The service worker (`offline/sw.js` with the release's hash and the assets it keeps, written
/// by `build.rs`).
const SERVICE_WORKER: Served = include!(concat!(env!("OUT_DIR"), "/service_worker.rs"));

/// Each asset's name in `assets/` and the content-hashed name it is served under, written by
/// `build.rs` (`src/hashed.rs` says how); the pages and modules name only the latter.
const HASHED: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/hashed.rs"));

/// The pages, `/sw.js`, and an asset asked for by a name that is not its hashed one: every copy
/// a browser keeps is asked about again before it is used (an ETag answered with `304` costs a
/// round trip and no bytes). A page's address never changes, and it is the page that names
/// this release's assets.
const REVALIDATE: &str = "no-cache";

/// An asset under its hashed name: those bytes, and no others, are ever served under it, so a
/// copy is good for a year (the most HTTP allows for) and is never asked about again, not even
/// on a reload (`immutable`). Shared caches may keep it too: the assets are the same for all.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// The page's WebAssembly: the engine (`assets/engine.wasm`) and the page's own table
/// (`assets/table.wasm`), committed builds of `crates/dara-pocket` made by `scripts/build-wasm`.
#[derive(Debug, Clone, Copy)]
pub struct PageModules {
    /// The engine's module, run in a Web Worker.
    pub engine: &'static [u8],
    /// The table's module, run on the page's thread.
    pub table: &'static [u8],
}

/// The page's modules, if the server was built with both. Without them the server serves
/// everything else, and the computer plays on the server.
pub fn page_modules() -> Option<PageModules> {
    let asset =
        |name| ASSETS.iter().find(|served| served.name == name).map(|served| served.identity);
    Some(PageModules { engine: asset("engine.wasm")?, table: asset("table.wasm")? })
}

/// The language a request's page is sent in: the player's choice (the `lang` cookie), else the
/// browser's (`Accept-Language`), else English.
fn language(request: &HeaderMap) -> Language {
    let header = |name| request.get(name).and_then(|v: &HeaderValue| v.to_str().ok());
    // A browser may send several `Cookie` headers over HTTP/2: the first naming `lang` counts.
    let cookie = request
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.contains("lang="));
    Language::chosen(cookie, header(header::ACCEPT_LANGUAGE))
}

/// Pages only load what the site itself serves, and send no `Referer` (a seat link's fragment
/// never leaves the browser anyway, but the game id need not either). Each is sent in its
/// reader's language, so a cache keeps one copy per cookie and `Accept-Language`.
fn page(status: StatusCode, name: &str, request: &HeaderMap) -> Response {
    let (_, copies) = PAGES.iter().find(|(page, _)| *page == name).expect("every page is built in");
    let language = language(request);
    let mut response = copies[language.index()].respond(status, request, REVALIDATE);
    let headers = response.headers_mut();
    headers
        .insert(header::VARY, HeaderValue::from_static("Accept-Encoding, Cookie, Accept-Language"));
    headers.insert(header::CONTENT_LANGUAGE, HeaderValue::from_static(language.code()));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        // 'wasm-unsafe-eval': a game against the computer runs its table as WebAssembly in the
        // page (assets/page-table.js); no script text is ever evaluated.
        HeaderValue::from_static("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:; style-src 'self'; connect-src 'self'; frame-ancestors 'none'"),
    );
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}

/// `/`: the three ways to play.
pub async fn home(request: HeaderMap) -> Response {
    page(StatusCode::OK, "index.html", &request)
}

/// `/g/{id}`: a game, for its players and its watchers.
pub async fn game(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: HeaderMap,
) -> Response {
    let live = match GameId::parse(&id) {
        Some(id) => crate::cluster::route::exists(&state, &id).await,
        None => false,
    };
    if live {
        page(StatusCode::OK, "game.html", &request)
    } else {
        page(StatusCode::NOT_FOUND, "gone.html", &request)
    }
}

/// `/computer/{id}`: a game against the computer played in the page, kept in the player's own
/// browser: the server knows nothing of it, and serves the game page for any id that reads.
pub async fn computer_game(Path(id): Path<String>, request: HeaderMap) -> Response {
    if GameId::parse(&id).is_some() {
        page(StatusCode::OK, "game.html", &request)
    } else {
        page(StatusCode::NOT_FOUND, "gone.html", &request)
    }
}

/// `/rules`: how to play.
pub async fn rules(request: HeaderMap) -> Response {
    page(StatusCode::OK, "rules.html", &request)
}

/// `/analysis`: the analysis board.
pub async fn analysis(request: HeaderMap) -> Response {
    page(StatusCode::OK, "analysis.html", &request)
}

/// `/learn`: the rules taught by playing them, a step at a time, up to a first game.
pub async fn learn(request: HeaderMap) -> Response {
    page(StatusCode::OK, "learn.html", &request)
}

/// `/puzzles`: positions with one clearly best move, a stream by difficulty.
pub async fn puzzles(request: HeaderMap) -> Response {
    page(StatusCode::OK, "puzzles.html", &request)
}

/// `/privacy`: what is kept (nothing).
pub async fn privacy(request: HeaderMap) -> Response {
    page(StatusCode::OK, "privacy.html", &request)
}

/// `/watch`: the games being played at open tables, to watch.
pub async fn watch(request: HeaderMap) -> Response {
    page(StatusCode::OK, "watch.html", &request)
}

/// `/arenas`: the server's arenas, waiting, running and lately finished.
pub async fn arenas(request: HeaderMap) -> Response {
    page(StatusCode::OK, "arenas.html", &request)
}

/// `/arena/{id}`: one arena, to join and follow; an id of the wrong shape is no arena. Whether
/// the server holds it the page learns from its socket (a private arena is reached by its id).
pub async fn arena(Path(id): Path<String>, request: HeaderMap) -> Response {
    if crate::arena::ArenaId::parse(&id).is_some() {
        page(StatusCode::OK, "arena.html", &request)
    } else {
        page(StatusCode::NOT_FOUND, "gone.html", &request)
    }
}

/// `/sw.js`: the service worker, at the root so that it may serve every page. Browsers look for
/// a new one at most a day apart whatever this says; `no-cache` has them ask each time a page
/// loads.
pub async fn service_worker(request: HeaderMap) -> Response {
    let mut response = SERVICE_WORKER.respond(StatusCode::OK, &request, REVALIDATE);
    // A worker lives under its script's policy: this one fetches the site's pages and assets
    // to keep them, and nothing else (every other response's policy is to load nothing).
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; connect-src 'self'"),
    );
    response
}

/// Anything else.
pub async fn not_found(request: HeaderMap) -> Response {
    page(StatusCode::NOT_FOUND, "gone.html", &request)
}

/// The worker that runs the page's engine lives under the policy its script is served with,
/// not the page's (and every other asset's is to load nothing): it may import the site's
/// modules, fetch the engine and compile it as WebAssembly, and nothing else.
const ENGINE_WORKER_POLICY: &str =
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'";

/// The asset `file` names, and how long a browser may keep it: a year under its hashed name;
/// under its plain name (`style.css`) or another hash (`style.<old hash>.css`), the current
/// bytes, asked about again each time, not a 404. Those are the names of a page of another
/// release (the releases before hashing named every asset plainly): one open across a deploy
/// still fetches some files late (the engine's worker and modules when a game against the
/// computer starts), and works with this release's where the service worker does not have its
/// own, as every page did before names were hashed. A redirect to the hashed name would load a
/// module twice under two names (two copies of its state); no-cache keeps those bytes from being
/// kept under a name that promises others.
fn asset_named(file: &str) -> Option<(&'static Served, &'static str)> {
    let (name, cache_control) = match HASHED.iter().find(|(_, hashed)| *hashed == file) {
        Some((name, _)) => ((*name).to_owned(), IMMUTABLE),
        None => (crate::hashed::plain_name(file).unwrap_or_else(|| file.to_owned()), REVALIDATE),
    };
    let served = ASSETS.iter().find(|served| served.name == name)?;
    Some((served, cache_control))
}

/// The name `name` (a file of `assets/`, not a page) is served under: `/assets/` then this.
pub fn asset_url(name: &str) -> Option<&'static str> {
    HASHED.iter().find(|(plain, _)| *plain == name).map(|(_, hashed)| *hashed)
}

/// `/assets/{name}`.
pub async fn asset(Path(name): Path<String>, request: HeaderMap) -> Response {
    match asset_named(&name) {
        Some((served, cache_control)) => {
            let mut response = served.respond(StatusCode::OK, &request, cache_control);
            if served.name == "engine-worker.js" {
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
    use super::{ASSETS, HASHED, PAGES};

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
        let pages: Vec<&str> = PAGES
            .iter()
            .flat_map(|(_, copies)| copies.iter())
            .map(|page| core::str::from_utf8(page.identity).unwrap())
            .collect();
        assert_eq!(PAGES.len(), 11, "every page is read here");
        let modules = ASSETS.iter().filter(|served| served.name.ends_with(".js"));
        let modules = modules.map(|served| core::str::from_utf8(served.identity).unwrap());
        let modules: Vec<&str> = modules.collect();
        let loaded: Vec<&str> = pages
            .iter()
            .flat_map(|page| names_after(page, "/assets/"))
            .chain(modules.iter().flat_map(|module| names_after(module, "'./")))
            .chain(modules.iter().flat_map(|module| names_after(module, "fetchModule('")))
            .collect();
        // Enough names found to trust the search: every module and the stylesheet at least.
        assert!(loaded.len() > ASSETS.len(), "{loaded:?}");
        // Each by the name this release serves it under for a year: none by its plain name,
        // which would be asked about again on every load.
        for name in loaded {
            assert!(HASHED.iter().any(|(_, h)| *h == name), "{name} is loaded but not hashed");
        }
        // The modules loaded late, by a name written in a call rather than an import.
        let i18n = modules.iter().find(|m| m.contains("export const LANGUAGES")).unwrap();
        let engine = modules.iter().find(|m| m.contains("new Worker(")).unwrap();
        for (module, name) in [
            (i18n, "lang-en.js"),
            (i18n, "lang-fr.js"),
            (i18n, "lang-ha.js"),
            (engine, "engine-worker.js"),
        ] {
            let url = super::asset_url(name).unwrap();
            assert!(
                module.contains(&format!("import('./{url}')"))
                    || module.contains(&format!("new URL('./{url}'")),
                "{name}"
            );
        }
        assert!(ASSETS.iter().all(|served| !served.name.ends_with(".html")));
        assert_eq!(HASHED.len(), ASSETS.len());
        for (name, url) in HASHED {
            assert_eq!(crate::hashed::plain_name(url).as_deref(), Some(*name));
        }
    }

    /// An asset under its hashed name is kept a year; under its plain name or an old hash it is
    /// still served (a page of another release may ask), but asked about again each time, as
    /// are the pages and the service worker. What is not an asset is not found.
    #[tokio::test]
    async fn hashed_assets_are_kept_a_year_and_everything_else_is_asked_about_again() {
        use axum::extract::Path;
        use axum::http::{header, HeaderMap, StatusCode};

        let cache = |response: &axum::response::Response| {
            response.headers()[header::CACHE_CONTROL].to_str().unwrap().to_owned()
        };
        for (name, url) in HASHED {
            let hashed = super::asset(Path(url.to_string()), HeaderMap::new()).await;
            assert_eq!(hashed.status(), StatusCode::OK, "{url}");
            assert_eq!(cache(&hashed), "public, max-age=31536000, immutable", "{url}");
            let etag = hashed.headers()[header::ETAG].clone();
            let (stem, extension) = name.rsplit_once('.').unwrap();
            for other in [name.to_string(), format!("{stem}.0123456789ab.{extension}")] {
                let plain = super::asset(Path(other.clone()), HeaderMap::new()).await;
                assert_eq!(plain.status(), StatusCode::OK, "{other}");
                assert_eq!(cache(&plain), "no-cache", "{other}");
                assert_eq!(plain.headers()[header::ETAG], etag, "{other}: the same bytes");
            }
            // A copy held is still answered `304`.
            let mut held = HeaderMap::new();
            held.insert(header::IF_NONE_MATCH, etag);
            let again = super::asset(Path(url.to_string()), held).await;
            assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{url}");
        }
        let worker = super::asset(Path("engine-worker.js".into()), HeaderMap::new()).await;
        assert!(worker.headers()[header::CONTENT_SECURITY_POLICY]
            .to_str()
            .unwrap()
            .contains("wasm-unsafe-eval"));
        let url = super::asset_url("engine-worker.js").unwrap().to_owned();
        let worker = super::asset(Path(url), HeaderMap::new()).await;
        assert!(worker.headers()[header::CONTENT_SECURITY_POLICY]
            .to_str()
            .unwrap()
            .contains("wasm-unsafe-eval"));
        for missing in ["nothing.js", "nothing.0123456789ab.js", "index.html", "style.0123.css"] {
            let answer = super::asset(Path(missing.into()), HeaderMap::new()).await;
            assert_eq!(answer.status(), StatusCode::NOT_FOUND, "{missing}");
        }
        let page = super::home(HeaderMap::new()).await;
        assert_eq!(cache(&page), "no-cache");
        let etag = page.headers()[header::ETAG].clone();
        let mut held = HeaderMap::new();
        held.insert(header::IF_NONE_MATCH, etag);
        assert_eq!(super::home(held).await.status(), StatusCode::NOT_MODIFIED);
        let worker = super::service_worker(HeaderMap::new()).await;
        assert_eq!(cache(&worker), "no-cache");
        assert_eq!(super::asset_url("index.html"), None);
    }

    /// The service worker keeps every asset under its hashed name, and no name twice.
    #[test]
    fn the_service_worker_keeps_the_hashed_names() {
        let script = core::str::from_utf8(super::SERVICE_WORKER.identity).unwrap();
        let list = script.lines().find(|line| line.starts_with("const ASSETS = [")).unwrap();
        let kept: Vec<&str> = names_after(list, "\"").filter(|n| !n.is_empty()).collect();
        // Every asset but the app's PNG icons, which are for the browser's installing.
        let hashed: Vec<&str> =
            HASHED.iter().map(|(_, url)| *url).filter(|url| !url.ends_with(".png")).collect();
        assert_eq!(kept, hashed);
    }

    /// Each page's copy in a language has `<html lang>` right and every marked element
    /// reworded: French and Hausa copies keep none of the English words a mark replaced.
    #[test]
    fn every_page_is_worded_in_each_language() {
        use crate::lang::Language;
        for (name, copies) in PAGES {
            let english = core::str::from_utf8(copies[0].identity).unwrap();
            for language in Language::ALL {
                let copy = core::str::from_utf8(copies[language.index()].identity).unwrap();
                let code = language.code();
                assert!(copy.contains(&format!("<html lang=\"{code}\"")), "{name} in {code}");
                assert!(copy.contains("data-i18n"), "{name}: the marks stay for the script");
            }
            // English, as built, is the page as written (its marks' words are the catalogue's).
            assert_eq!(english.matches("data-i18n").count(), {
                let fr = core::str::from_utf8(copies[1].identity).unwrap();
                fr.matches("data-i18n").count()
            });
            for language in [Language::French, Language::Hausa] {
                let copy = core::str::from_utf8(copies[language.index()].identity).unwrap();
                assert_ne!(copy, english, "{name} in {}", language.code());
                let (file, text, arena) = match language {
                    Language::French => (
                        "lang-fr.js",
                        include_str!("../assets/lang-fr.js"),
                        include_str!("../assets/arena-fr.js"),
                    ),
                    _ => (
                        "lang-ha.js",
                        include_str!("../assets/lang-ha.js"),
                        include_str!("../assets/arena-ha.js"),
                    ),
                };
                // The language's catalogue and the arena pages' own, as build.rs reads them.
                let mut words = crate::build_words::catalogue(file, text).unwrap();
                words.extend(crate::build_words::catalogue("arena", arena).unwrap());
                // Every key the page marks: its words are in the copy (escaped as sent).
                for mark in ["data-i18n=\"", "data-i18n-html=\"", "data-i18n-attr=\""] {
                    for (at, _) in english.match_indices(mark) {
                        let value = &english[at + mark.len()..];
                        let value = &value[..value.find('"').unwrap()];
                        for key in value.split(';').map(|pair| pair.rsplit(':').next().unwrap()) {
                            let said = &words[key];
                            let escaped = said.replace('&', "&amp;");
                            let sent = if mark == "data-i18n-html=\"" {
                                said.clone()
                            } else if mark == "data-i18n=\"" {
                                escaped.replace('<', "&lt;").replace('>', "&gt;")
                            } else {
                                escaped.replace('"', "&quot;")
                            };
                            assert!(copy.contains(&sent), "{name} in {file}: {key}");
                        }
                    }
                }
            }
        }
    }

    #[tokio::test]
    async fn a_page_comes_in_the_language_asked_and_says_it_varies() {
        use axum::http::{header, HeaderMap, HeaderValue};
        let ask = |cookie: Option<&'static str>, accept: Option<&'static str>| {
            let mut request = HeaderMap::new();
            if let Some(cookie) = cookie {
                request.insert(header::COOKIE, HeaderValue::from_static(cookie));
            }
            if let Some(accept) = accept {
                request.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static(accept));
            }
            request
        };
        let mut tags = Vec::new();
        for (request, code) in [
            (ask(None, None), "en"),
            (ask(None, Some("fr-NE,fr;q=0.9,en;q=0.8")), "fr"),
            (ask(Some("lang=ha"), Some("fr")), "ha"),
        ] {
            let answer = super::home(request).await;
            let headers = answer.headers();
            assert_eq!(headers[header::CONTENT_LANGUAGE], code);
            assert_eq!(headers[header::VARY], "Accept-Encoding, Cookie, Accept-Language");
            tags.push(headers[header::ETAG].clone());
        }
        assert!(tags[0] != tags[1] && tags[1] != tags[2] && tags[0] != tags[2], "{tags:?}");
    }

    /// Each page's handler names a page that is built in (a name the list lacks would fail
    /// only when asked for, where `include_str!` failed the build).
    #[tokio::test]
    async fn every_page_handler_finds_its_page() {
        use axum::http::{HeaderMap, StatusCode};
        let asked = HeaderMap::new;
        for answer in [
            super::home(asked()).await,
            super::rules(asked()).await,
            super::analysis(asked()).await,
            super::learn(asked()).await,
            super::puzzles(asked()).await,
            super::privacy(asked()).await,
            super::watch(asked()).await,
            super::arenas(asked()).await,
            super::arena(axum::extract::Path("00000000000000ab".into()), asked()).await,
            super::computer_game(axum::extract::Path("00000000000000ab".into()), asked()).await,
        ] {
            assert_eq!(answer.status(), StatusCode::OK);
        }
        assert_eq!(super::not_found(asked()).await.status(), StatusCode::NOT_FOUND);
        let junk = super::computer_game(axum::extract::Path("../etc".into()), asked()).await;
        assert_eq!(junk.status(), StatusCode::NOT_FOUND);
        for name in ["game.html", "gone.html"] {
            assert!(PAGES.iter().any(|(page, _)| *page == name), "{name}");
        }
    }

    #[test]
    fn the_modules_are_served_as_webassembly_and_their_manifest_is_not_served() {
        let modules =
            super::page_modules().expect("assets/engine.wasm and table.wasm are committed");
        assert_eq!(&modules.engine[..4], b"\0asm");
        assert_eq!(&modules.table[..4], b"\0asm");
        for name in ["engine.wasm", "table.wasm"] {
            let served = ASSETS.iter().find(|served| served.name == name).unwrap();
            assert_eq!(served.content_type, "application/wasm");
        }
        assert!(ASSETS.iter().all(|served| !served.name.ends_with(".manifest")));
    }
}
