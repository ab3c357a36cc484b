//! The `dara` command.
#![forbid(unsafe_code)]
fn main() {}
