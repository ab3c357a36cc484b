//! The module's plain C interface to the page, in WebAssembly only. The page copies a request
//! into memory from [`alloc_bytes`], calls [`think`], reads the reply and frees both with
//! [`free_bytes`]. Time comes from the page through the import `env.now` (milliseconds,
//! `performance.now()`), as `std::time::Instant` panics in wasm32-unknown-unknown.
//!
//! No bindings generator: its command-line tool is not at hand on the machines that build this,
//! and four functions do not need one. The page's side is `assets/engine-worker.js`.

// The one place the crate uses `unsafe`: handing memory across the module's boundary.
#![allow(unsafe_code)]

use std::time::Duration;

use std::cell::RefCell;

use crate::{think as search, PageTable, Request};

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

/// `len` bytes for the page to write into, owned by the page until it frees them.
#[no_mangle]
pub extern "C" fn alloc_bytes(len: usize) -> *mut u8 {
    Box::into_raw(vec![0u8; len].into_boxed_slice()).cast()
}

/// Frees `len` bytes at `ptr`, from [`alloc_bytes`] or [`think`].
///
/// # Safety
/// `ptr` and `len` are those of one block that this module handed out and that was not freed.
#[no_mangle]
pub unsafe extern "C" fn free_bytes(ptr: *mut u8, len: usize) {
    // Safety: the caller hands back a block made by `Box<[u8]>::into_raw` with this length.
    drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) });
}

/// Answers the request of `len` bytes of UTF-8 at `ptr` (a [`Request`] line) with a block the
/// page frees: its length as 4 bytes little-endian, then the reply line (a [`crate::Reply`], or
/// `error <why>`).
///
/// # Safety
/// `ptr` and `len` are those of a block from [`alloc_bytes`] that was not freed.
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

thread_local! {
    /// The game the page has open: one a page (the module runs on one thread).
    static OPEN: RefCell<Option<PageTable>> = const { RefCell::new(None) };
}

/// Answers the request of `len` bytes of UTF-8 at `ptr` to the page's table (see
/// [`crate::answer`]) with a block the page frees, as [`think`] does.
///
/// # Safety
/// `ptr` and `len` are those of a block from [`alloc_bytes`] that was not freed.
#[no_mangle]
pub unsafe extern "C" fn table(ptr: *const u8, len: usize) -> *mut u8 {
    // Safety: the caller hands a live block of this module's, `len` bytes long.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => OPEN.with_borrow_mut(|open| crate::answer(open, text)),
        Err(_) => r#"{"error":"the request is not UTF-8"}"#.to_owned(),
    };
    block(&text)
}

/// Answers the question of `len` bytes of UTF-8 at `ptr` about a position (see
/// [`crate::judge`]) with a block the page frees, as [`think`] does.
///
/// # Safety
/// `ptr` and `len` are those of a block from [`alloc_bytes`] that was not freed.
#[no_mangle]
pub unsafe extern "C" fn judge(ptr: *const u8, len: usize) -> *mut u8 {
    // Safety: the caller hands a live block of this module's, `len` bytes long.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => crate::judge(text),
        Err(_) => r#"{"error":"the question is not UTF-8"}"#.to_owned(),
    };
    block(&text)
}

/// `text` in a block the page frees: its length as 4 bytes little-endian, then the text.
fn block(text: &str) -> *mut u8 {
    let mut block = Vec::with_capacity(4 + text.len());
    block.extend_from_slice(&(text.len() as u32).to_le_bytes());
    block.extend_from_slice(text.as_bytes());
    Box::into_raw(block.into_boxed_slice()).cast()
}
