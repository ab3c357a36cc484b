//! How long a live game is kept on this node: after its end, after everyone has left, and while
//! nobody takes its second seat. The server's settings, copied into each game once, so that
//! its owner asks them after every letter without reaching the server.

use std::time::Duration;

use tokio::time::Instant;

use crate::config::Config;

/// See the module's documentation.
#[derive(Debug, Clone, Copy)]
pub(super) struct Lifespan {
    finished_grace: Duration,
    idle_timeout: Duration,
    unjoined_timeout: Duration,
}

impl Lifespan {
    /// As the server's settings say.
    pub(super) fn of(config: &Config) -> Lifespan {
        Lifespan {
            finished_grace: config.finished_grace,
            idle_timeout: config.idle_timeout,
            unjoined_timeout: config.unjoined_timeout,
        }
    }

    /// When a game's time here is up: it `ended` long enough ago, everyone left long enough
    /// ago (it is `empty_since` then), or its second seat has waited long enough since the
    /// game was created (`waiting_since`), so that filling the server with games nobody joins
    /// takes an attacker continuous work.
    pub(super) fn expires_at(
        &self,
        ended: Option<Instant>,
        empty_since: Option<Instant>,
        waiting_since: Option<Instant>,
    ) -> Option<Instant> {
        let finished = ended.map(|at| at + self.finished_grace);
        let idle = empty_since.map(|t| t + self.idle_timeout);
        let unjoined = waiting_since.map(|t| t + self.unjoined_timeout);
        [finished, idle, unjoined].into_iter().flatten().min()
    }
}
