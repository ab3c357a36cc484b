//! The table's exports: the page's own game against the computer, the rules' answer about a
//! position, and a game record read.

#![allow(unsafe_code)]

use std::cell::RefCell;

use super::block;
use crate::table::PageTable;

thread_local! {
    /// The game the page has open: one a page (the module runs on one thread).
    static OPEN: RefCell<Option<PageTable>> = const { RefCell::new(None) };
}

/// Answers the request of `len` bytes of UTF-8 at `ptr` to the page's table (see
/// [`crate::answer`]) with a block the page frees (its length as 4 bytes little-endian, then the text).
///
/// # Safety
/// `ptr` and `len` are those of a block from [`super::alloc_bytes`] that was not freed.
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
/// [`crate::judge`]) with a block the page frees (its length as 4 bytes little-endian, then the text).
///
/// # Safety
/// `ptr` and `len` are those of a block from [`super::alloc_bytes`] that was not freed.
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

/// Reads the game record asked in `len` bytes of UTF-8 at `ptr` (see [`crate::read_record`])
/// with a block the page frees (its length as 4 bytes little-endian, then the text).
///
/// # Safety
/// `ptr` and `len` are those of a block from [`super::alloc_bytes`] that was not freed.
#[no_mangle]
pub unsafe extern "C" fn record(ptr: *const u8, len: usize) -> *mut u8 {
    // Safety: the caller hands a live block of this module's, `len` bytes long.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => crate::read_record(text),
        Err(_) => r#"{"error":"the request is not UTF-8"}"#.to_owned(),
    };
    block(&text)
}
