//! What an arena asks its shell to do: the arena has no tables, no sockets and no store.

use dara::Colour;

use crate::game::GameNo;
use crate::player_id::PlayerId;
use crate::standings::Row;

/// One thing for the shell to carry out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Open a table for this game with the arena's rules and clock, the players seated, and
    /// send both players to it. Report its first moves with [`crate::Input::FirstMove`] and its
    /// end with [`crate::Input::GameEnded`].
    StartGame {
        /// The arena's number for it.
        game: GameNo,
        /// Who plays pale.
        pale: PlayerId,
        /// Who plays dark.
        dark: PlayerId,
    },
    /// Halve this side's time at the table: it went berserk, before its first move. (lichess
    /// also takes away a berserker's increment; the issue asks only the halving, and the table
    /// is where that choice is made.)
    HalveClock {
        /// Which game.
        game: GameNo,
        /// Which side.
        side: Colour,
    },
    /// The standings changed: send them to whoever watches (the shell may gather several into
    /// one message).
    TellStandings,
    /// The arena ended: tell everyone, with the podium.
    Finished {
        /// The first three who played at least one game, best first.
        podium: Vec<Row>,
        /// The games still being played: they go on as ordinary games, and do not count.
        uncounted: Vec<GameNo>,
    },
}
