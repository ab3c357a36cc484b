//! A file as the server serves it: its bytes as written and as compressed once, at build, with
//! brotli and gzip (`build.rs`), with its ETag; and, for one request, the form the browser
//! takes and whether the copy it already holds will do (`304 Not Modified`).

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// One file of `assets/`, ready to serve.
#[derive(Debug)]
pub struct Served {
    /// Its file name.
    pub name: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its bytes as written.
    pub identity: &'static [u8],
    /// Compressed with brotli (quality 11).
    pub brotli: &'static [u8],
    /// Compressed with gzip (level 9).
    pub gzip: &'static [u8],
    /// Its ETags as written, in brotli and in gzip: the start of the hash of its bytes, then
    /// `-br` or `-gzip`, quoted.
    pub etags: [&'static str; 3],
}

/// A form a file is sent in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// `br`.
    Brotli,
    /// `gzip`.
    Gzip,
    /// As written.
    Identity,
}

impl Encoding {
    /// The best form an `Accept-Encoding` header takes: brotli, then gzip, then the bytes as
    /// written (which every browser takes). A coding given `q=0` is refused; `*` takes any.
    pub fn accepted(header: Option<&str>) -> Encoding {
        let takes = |wanted: &str| {
            header.is_some_and(|header| {
                header.split(',').any(|item| {
                    let mut parts = item.split(';');
                    let coding = parts.next().unwrap_or_default().trim();
                    let refused = parts.any(|p| {
                        p.trim().strip_prefix("q=").is_some_and(|q| q.trim().parse() == Ok(0.0))
                    });
                    !refused && (coding.eq_ignore_ascii_case(wanted) || coding == "*")
                })
            })
        };
        if takes("br") {
            Encoding::Brotli
        } else if takes("gzip") {
            Encoding::Gzip
        } else {
            Encoding::Identity
        }
    }

    fn token(self) -> Option<&'static str> {
        match self {
            Encoding::Brotli => Some("br"),
            Encoding::Gzip => Some("gzip"),
            Encoding::Identity => None,
        }
    }
}

impl Served {
    /// `bytes`, made once while the server runs (never freed: it is served for the server's
    /// life), compressed as `build.rs` compresses the assets.
    pub fn made_once(name: &'static str, content_type: &'static str, bytes: Vec<u8>) -> Served {
        let keep = |bytes: Vec<u8>| -> &'static [u8] { Vec::leak(bytes) };
        let [identity_tag, brotli_tag, gzip_tag] =
            crate::compress::etags(&bytes).map(|tag| &*tag.leak());
        Served {
            name,
            content_type,
            brotli: keep(crate::compress::brotli(&bytes)),
            gzip: keep(crate::compress::gzip(&bytes)),
            identity: keep(bytes),
            etags: [identity_tag, brotli_tag, gzip_tag],
        }
    }

    /// The bytes in `encoding`, or as written where compressing made them no smaller.
    fn form(&self, encoding: Encoding) -> (Encoding, &'static [u8]) {
        let compressed = match encoding {
            Encoding::Brotli => self.brotli,
            Encoding::Gzip => self.gzip,
            Encoding::Identity => return (Encoding::Identity, self.identity),
        };
        if compressed.len() < self.identity.len() {
            (encoding, compressed)
        } else {
            (Encoding::Identity, self.identity)
        }
    }

    /// The ETag of the file in `encoding`.
    fn etag(&self, encoding: Encoding) -> &'static str {
        match encoding {
            Encoding::Identity => self.etags[0],
            Encoding::Brotli => self.etags[1],
            Encoding::Gzip => self.etags[2],
        }
    }

    /// The response to a GET with `request`'s headers: `status` with the file in the best form
    /// the browser takes, or, when `status` is 200 and the browser's copy is this one (its
    /// `If-None-Match`), `304 Not Modified` with no body. `cache_control` says how long a copy
    /// may be used without asking.
    pub fn respond(
        &self,
        status: StatusCode,
        request: &HeaderMap,
        cache_control: &'static str,
    ) -> Response {
        let asked = request.get(header::ACCEPT_ENCODING).and_then(|v| v.to_str().ok());
        let (encoding, bytes) = self.form(Encoding::accepted(asked));
        let etag = self.etag(encoding);
        let held = request.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok());
        let fresh = status == StatusCode::OK && held.is_some_and(|held| matches(held, etag));
        let mut response = if fresh {
            StatusCode::NOT_MODIFIED.into_response()
        } else {
            let mut response = (status, bytes).into_response();
            let headers = response.headers_mut();
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(self.content_type));
            if let Some(token) = encoding.token() {
                headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(token));
            }
            response
        };
        let headers = response.headers_mut();
        headers.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache_control));
        headers.insert(header::ETAG, HeaderValue::from_static(etag));
        response
    }
}

/// Whether an `If-None-Match` list names `etag` (or is `*`); a weak tag (`W/"…"`) counts, as
/// the comparison for GET is the weak one.
fn matches(held: &str, etag: &str) -> bool {
    held.split(',').map(str::trim).any(|tag| tag == "*" || tag.trim_start_matches("W/") == etag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brotli_then_gzip_then_the_bytes_as_written() {
        assert_eq!(Encoding::accepted(Some("gzip, deflate, br, zstd")), Encoding::Brotli);
        assert_eq!(Encoding::accepted(Some("gzip, deflate")), Encoding::Gzip);
        assert_eq!(Encoding::accepted(Some("br;q=0, gzip;q=0.5")), Encoding::Gzip);
        assert_eq!(Encoding::accepted(Some("BR")), Encoding::Brotli);
        assert_eq!(Encoding::accepted(Some("*")), Encoding::Brotli);
        assert_eq!(Encoding::accepted(Some("identity")), Encoding::Identity);
        assert_eq!(Encoding::accepted(Some("")), Encoding::Identity);
        assert_eq!(Encoding::accepted(None), Encoding::Identity);
    }

    #[test]
    fn a_copy_held_is_named_by_its_own_tag_or_any() {
        assert!(matches("\"abc-br\"", "\"abc-br\""));
        assert!(matches("\"x\", W/\"abc-br\"", "\"abc-br\""));
        assert!(matches("*", "\"abc\""));
        assert!(!matches("\"abc-gzip\"", "\"abc-br\""));
        assert!(!matches("\"abc\"", "\"abc-br\""));
    }
}
