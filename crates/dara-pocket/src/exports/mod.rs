//! The modules' plain C interface to the page, in WebAssembly only. The page copies a request
//! into memory from [`alloc_bytes`], calls an export, reads the reply and frees both with
//! [`free_bytes`].
//!
//! The crate makes two modules (scripts/build-wasm builds each, with one of the crate's
//! features): the engine's, `engine.wasm`, with [`engine::think`], which the page runs in a Web
//! Worker and which is built for speed; and the table's, `table.wasm`, with [`table::table`],
//! [`table::judge`] and [`table::record`], which run on the page's own thread, answer in
//! microseconds, and are built for size (most of their code is serde's). A page that only judges
//! positions, or only plays, fetches only what it uses.
//!
//! No bindings generator: its command-line tool is not at hand on the machines that build this,
//! and a handful of functions do not need one. The page's side is `assets/engine-wasm.js`.

// The one place the crate uses `unsafe`: handing memory across the module's boundary.
#![allow(unsafe_code)]

#[cfg(feature = "engine-module")]
mod engine;
#[cfg(feature = "table-module")]
mod table;

/// `len` bytes for the page to write into, owned by the page until it frees them.
#[no_mangle]
pub extern "C" fn alloc_bytes(len: usize) -> *mut u8 {
    Box::into_raw(vec![0u8; len].into_boxed_slice()).cast()
}

/// Frees `len` bytes at `ptr`, from [`alloc_bytes`] or an export's answer.
///
/// # Safety
/// `ptr` and `len` are those of one block that this module handed out and that was not freed.
#[no_mangle]
pub unsafe extern "C" fn free_bytes(ptr: *mut u8, len: usize) {
    // Safety: the caller hands back a block made by `Box<[u8]>::into_raw` with this length.
    drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) });
}

/// `text` in a block the page frees: its length as 4 bytes little-endian, then the text.
fn block(text: &str) -> *mut u8 {
    let mut block = Vec::with_capacity(4 + text.len());
    block.extend_from_slice(&(text.len() as u32).to_le_bytes());
    block.extend_from_slice(text.as_bytes());
    Box::into_raw(block.into_boxed_slice()).cast()
}
