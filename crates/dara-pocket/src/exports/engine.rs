//! The engine's export: the computer's move for a request line. Time comes from the page
//! through the import `env.now` (milliseconds, `performance.now()`), as `std::time::Instant`
//! panics in wasm32-unknown-unknown.

#![allow(unsafe_code)]

use std::time::Duration;

use super::block;
use crate::request::Request;
use crate::think::think as search;

#[link(wasm_import_module = "env")]
extern "C" {
    /// The page's monotonic clock, in milliseconds.
    #[link_name = "now"]
    fn page_now() -> f64;
}

/// The page's clock as the search reads it.
fn now() -> Duration {
    // Safety: an import of a plain function taking nothing and returning a number.
    let ms = unsafe { page_now() };
    Duration::from_secs_f64(ms.max(0.0) / 1000.0)
}

/// Answers the request of `len` bytes of UTF-8 at `ptr` (a [`Request`] line) with a block the
/// page frees: its length as 4 bytes little-endian, then the reply line (a [`crate::Reply`], or
/// `error <why>`).
///
/// # Safety
/// `ptr` and `len` are those of a block from [`super::alloc_bytes`] that was not freed.
#[no_mangle]
pub unsafe extern "C" fn think(ptr: *const u8, len: usize) -> *mut u8 {
    // Safety: the caller hands a live block of this module's, `len` bytes long.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    let line = match std::str::from_utf8(bytes) {
        Ok(text) => match text.parse::<Request>() {
            Ok(request) => search(&request, now).to_string(),
            Err(e) => format!("error {e}"),
        },
        Err(_) => "error the request is not UTF-8".to_owned(),
    };
    block(&line)
}
