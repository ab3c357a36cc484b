//! What an operator watches: `/healthz` (the process answers) and `/metrics` (Prometheus text):
//! games held, connections and sockets open, turns played, how long a turn takes the server
//! from its frame to its answer, and the engine's queue. Nothing about who plays.

mod endpoints;
pub(crate) mod measures;

pub use endpoints::{healthz, metrics, readyz};
pub use measures::Metrics;
