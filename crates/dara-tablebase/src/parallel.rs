//! Work shared out over threads in chunks: the builder's passes over a table.

use core::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

/// Calls `work` on consecutive chunks of `0..len` from `threads` threads, each taking the next
/// chunk when done: positions differ in cost (more stones to step, captures to look up), so
/// fixed halves would leave one core idle.
pub(crate) fn for_chunks(threads: usize, len: u64, chunk: u64, work: impl Fn(Range<u64>) + Sync) {
    let next = AtomicU64::new(0);
    let run = || loop {
        let start = next.fetch_add(chunk, Ordering::Relaxed);
        if start >= len {
            break;
        }
        work(start..(start + chunk).min(len));
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.max(1) {
            scope.spawn(run);
        }
        run();
    });
}
