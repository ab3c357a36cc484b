//! What every request passes before its route: a browser on another site may not open a
//! socket or post on a visitor's behalf (its `Origin` is checked), a post must say it is JSON
//! (which no plain HTML form can), and every answer carries the headers that keep a browser
//! from reading it as anything else.

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::AppError;
use crate::state::AppState;

/// Refuses cross-site sockets and posts, and posts that are not JSON.
pub async fn check_request(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let guarded = request.method() == Method::POST || request.uri().path().starts_with("/ws/");
    if guarded {
        if let Err(e) = same_site(request.headers(), state.config.public_origin.as_deref()) {
            return e.into_response();
        }
    }
    if request.method() == Method::POST && !is_json(request.headers()) {
        return AppError::NotJson.into_response();
    }
    next.run(request).await
}

/// A request with no `Origin` comes from a program, not a browser page, and may go on; one
/// with an `Origin` must come from this site: `public` when the operator named it, else the
/// site the request itself names in `Host`, provided that is an address or `localhost`. A
/// named host is believed only when the operator named it: any name can be pointed at this
/// machine (DNS rebinding), and a page of that name would then pass as this site's. `null` (a
/// sandboxed frame, a file) never passes.
fn same_site(headers: &HeaderMap, public: Option<&str>) -> Result<(), AppError> {
    let Some(origin) = headers.get(header::ORIGIN) else { return Ok(()) };
    let origin = origin.to_str().map_err(|_| AppError::ForeignOrigin)?;
    let fits = match public {
        Some(public) => origin.eq_ignore_ascii_case(public.trim_end_matches('/')),
        None => {
            let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
            let origin_host = origin.split_once("://").map(|(_, rest)| rest);
            matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h) && unnamed(h))
        }
    };
    if fits {
        Ok(())
    } else {
        Err(AppError::ForeignOrigin)
    }
}

/// Whether `host` (a `Host` header, its port included) is an IP address or `localhost`, which
/// no other site can be given.
fn unnamed(host: &str) -> bool {
    if let Some(v6) = host.strip_prefix('[') {
        return v6.split_once(']').is_some_and(|(ip, _)| ip.parse::<std::net::Ipv6Addr>().is_ok());
    }
    let name = host.split_once(':').map_or(host, |(name, _)| name);
    name.eq_ignore_ascii_case("localhost") || name.parse::<std::net::Ipv4Addr>().is_ok()
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"))
}

/// The headers every answer carries. Pages set their own policy; everything else (JSON, assets,
/// errors) may load nothing at all.
pub async fn secure_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers
        .entry(header::CONTENT_SECURITY_POLICY)
        .or_insert(HeaderValue::from_static("default-src 'none'; frame-ancestors 'none'"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.insert(*k, HeaderValue::from_static(v));
        }
        map
    }

    #[test]
    fn origins() {
        let ok = |h: &HeaderMap, public| same_site(h, public).is_ok();
        assert!(ok(&headers(&[("host", "127.0.0.1:8080")]), None));
        assert!(ok(
            &headers(&[("host", "127.0.0.1:8080"), ("origin", "http://127.0.0.1:8080")]),
            None
        ));
        assert!(!ok(
            &headers(&[("host", "127.0.0.1:8080"), ("origin", "http://evil.example")]),
            None
        ));
        assert!(!ok(&headers(&[("host", "127.0.0.1:8080"), ("origin", "null")]), None));
        assert!(ok(
            &headers(&[("host", "localhost:8080"), ("origin", "http://localhost:8080")]),
            None
        ));
        assert!(ok(&headers(&[("host", "[::1]:8080"), ("origin", "http://[::1]:8080")]), None));
        // A name pointed at this machine by someone else's DNS (rebinding): its page's origin
        // matches its own Host, and is refused unless the operator named the site.
        let rebound =
            headers(&[("host", "evil.example:8080"), ("origin", "http://evil.example:8080")]);
        assert!(!ok(&rebound, None));
        assert!(ok(
            &headers(&[("host", "dara.example"), ("origin", "https://dara.example")]),
            Some("https://dara.example")
        ));
        let public = Some("https://dara.example");
        assert!(ok(&headers(&[("host", "10.0.0.2"), ("origin", "https://dara.example")]), public));
        assert!(!ok(
            &headers(&[("host", "dara.example"), ("origin", "http://dara.example")]),
            public
        ));
    }

    #[test]
    fn json_only() {
        assert!(is_json(&headers(&[("content-type", "application/json")])));
        assert!(is_json(&headers(&[("content-type", "application/json; charset=utf-8")])));
        assert!(!is_json(&headers(&[("content-type", "text/plain")])));
        assert!(!is_json(&headers(&[("content-type", "application/x-www-form-urlencoded")])));
        assert!(!is_json(&HeaderMap::new()));
    }
}
