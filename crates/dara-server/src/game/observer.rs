//! Who follows a game from outside it: an arena is told the first moves and the end of each
//! game it paired, to score it and to pair its players again. The game only tells; what the
//! news means for the arena is decided there.

use dara::Colour;
use dara_table::Ending;
use tokio::sync::mpsc::UnboundedSender;

use crate::seat::GameId;

/// What a followed game tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum News {
    /// A side made one of the first two turns of the game (later turns are not told: an
    /// arena needs to know only that each side has begun).
    Moved {
        /// Which side.
        by: Colour,
    },
    /// The game ended.
    Ended {
        /// How, as the table says.
        ending: Ending,
        /// Turns played, both sides.
        plies: u32,
    },
}

/// Where a followed game sends its news. Unbounded: a game tells at most three things in its
/// life (two first moves and its end), and the follower reads them at once.
#[derive(Debug, Clone)]
pub struct Observer(UnboundedSender<(GameId, News)>);

impl Observer {
    /// News sent to `to`, each with the game's id.
    pub fn new(to: UnboundedSender<(GameId, News)>) -> Observer {
        Observer(to)
    }

    /// Tells the follower `news` of game `game` (nothing if it has gone).
    pub(super) fn tell(&self, game: &GameId, news: News) {
        let _ = self.0.send((game.clone(), news));
    }
}
