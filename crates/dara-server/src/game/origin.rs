//! The table's time on the server's clock. A game counts its moments from its own first moment
//! on this node, so that no two games (nor two tests on a paused clock) share an origin.

use dara_table::Moment;
use tokio::time::Instant;

/// The instant a game's table time counts from.
#[derive(Debug, Clone, Copy)]
pub(super) struct Origin(Instant);

impl Origin {
    /// Table time counted from `at`.
    pub(super) fn at(at: Instant) -> Origin {
        Origin(at)
    }

    /// `at` on the table's time.
    pub(super) fn moment(self, at: Instant) -> Moment {
        Moment::from_origin(at.saturating_duration_since(self.0))
    }

    /// The table's moment `m` on the server's clock.
    pub(super) fn instant(self, m: Moment) -> Instant {
        self.0 + m.since_origin()
    }

    /// Now, on the table's time.
    pub(super) fn now(self) -> Moment {
        self.moment(Instant::now())
    }
}
