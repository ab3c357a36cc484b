//! What the page runs as WebAssembly: the computer's move at a level 1 to 8, as the server's
//! computer would choose it, asked and answered in text through a plain C interface (no
//! bindings generator: the page copies a request into the module's memory and reads the reply
//! back). The same code runs natively (`dara pocket answer`), so that a test can hold the two
//! builds to the same moves and node counts.
//!
//! A request is one line in the engine protocol's words ([`Request`]), a reply one line too
//! ([`Reply`]). The search reads time on the clock it is handed: the page's (`performance.now()`)
//! in WebAssembly, where `std::time::Instant` panics, the system's natively.
//!
//! Levels play as on the server: the same budgets, the same dice (drawn from the request's seed),
//! a fresh table of [`PLAY_HASH_MIB`](dara_engine::level::PLAY_HASH_MIB) per move. Level 8, a
//! second per move, also searches at least [`Level::node_floor`](dara_engine::level::Level::node_floor)
//! nodes, what the server searches in that second: a slow phone thinks longer rather than plays
//! weaker.
//!
//! **Endgames.** Where few stones are left, the server's level 8 answers from its tablebases.
//! The page has none (they are files on the server, megabytes for each ruleset) and does not
//! fetch them: it searches those positions like any other. A search finds the short wins and
//! holds the draws the tables would, but may miss a long win that only the tables see, or take a
//! longer way to one; offline, the page has to be able to play on, and at levels 1 to 7 the
//! server does not use the tables either.

#![deny(unsafe_code)]

mod asked;
#[cfg(target_arch = "wasm32")]
mod exports;
mod kept;
mod reply;
mod request;
mod table;
mod think;

pub use asked::{answer, judge, read_record};
pub use kept::Kept;
pub use reply::Reply;
pub use request::{Request, RequestError};
pub use table::{Answered, Call, PageTable, Search};
pub use think::think;
