//! Compressing a file once, at its best, for every request after: brotli at quality 11 and gzip
//! at level 9, each form with its ETag (the start of the file's BLAKE3 hash). `build.rs`
//! includes this file for the pages and assets; the server uses it for what it makes once at
//! start-up (the puzzles' list).

use std::io::Write as _;

/// Brotli at its best (quality 11): slow, but done once.
pub fn brotli(bytes: &[u8]) -> Vec<u8> {
    let mut compressed = Vec::new();
    let params = brotli::enc::BrotliEncoderParams { quality: 11, ..Default::default() };
    brotli::BrotliCompress(&mut &bytes[..], &mut compressed, &params).expect("in memory");
    compressed
}

/// Gzip at its best, for browsers that do not take brotli (over plain http, most do not).
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).expect("in memory");
    encoder.finish().expect("in memory")
}

/// The ETags of `bytes` as written, in brotli and in gzip: each form its own (a cache must not
/// answer a request for one form with another).
pub fn etags(bytes: &[u8]) -> [String; 3] {
    let hash = blake3::hash(bytes).to_hex();
    let hash = &hash.as_str()[..20];
    [format!("\"{hash}\""), format!("\"{hash}-br\""), format!("\"{hash}-gzip\"")]
}
