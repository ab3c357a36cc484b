//! A game the arena paired, as the arena follows it: who plays which colour, whether each side
//! has moved and gone berserk, and how it ended. The game itself is an ordinary game at the
//! table, run by the shell.

use core::fmt;

use dara::{ByColour, Colour};
use serde::{Deserialize, Serialize};

use crate::player_id::PlayerId;
use crate::sheet::Finish;

/// The arena's own number for a game: 1 for its first pairing, then 2, 3...
///
/// The arena numbers its games itself, rather than asking the shell for an id and waiting for
/// it, so that a pairing and its game are one decision, in one journal event: there is no
/// moment when two players are promised a game that has no name, and a journal replays with no
/// answer from outside. The shell keeps which table each number is.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GameNo(pub u32);

impl fmt::Debug for GameNo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GameNo({})", self.0)
    }
}

impl fmt::Display for GameNo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// How a paired game ended, as the shell reports it from the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "kebab-case")]
pub enum Verdict {
    /// One side won (on the board, on time, by resignation, by a claim).
    Won {
        /// The winner.
        winner: Colour,
    },
    /// Drawn.
    Drawn,
    /// A side made no first move in time: the table aborts such a game, and in an arena the
    /// side that did not move loses it and is paused (lichess's `NoStart` in a game that may
    /// not be aborted: the other side wins).
    NoFirstMove {
        /// The side that did not move.
        idle: Colour,
    },
    /// Called off with no result (the shell could not start it): it counts for nothing and is
    /// on nobody's sheet.
    Cancelled,
}

impl Verdict {
    /// How the game finished for `side`; `None` for a game that counts for nothing.
    pub fn finish_for(self, side: Colour) -> Option<Finish> {
        match self {
            Verdict::Won { winner } => {
                Some(if winner == side { Finish::Win } else { Finish::Loss })
            }
            Verdict::NoFirstMove { idle } => {
                Some(if idle == side { Finish::Loss } else { Finish::Win })
            }
            Verdict::Drawn => Some(Finish::Draw),
            Verdict::Cancelled => None,
        }
    }
}

/// Moves `side` made in a game of `plies` plies: pale moves first, and turns alternate.
pub fn own_moves(plies: u32, side: Colour) -> u32 {
    match side {
        Colour::White => plies.div_ceil(2),
        Colour::Black => plies / 2,
    }
}

/// Where a paired game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameState {
    /// Being played.
    Playing,
    /// Ended while the arena ran: it counts.
    Ended {
        /// How.
        verdict: Verdict,
        /// Plies played, both sides.
        plies: u32,
    },
    /// Still being played when the arena ended: it goes on as an ordinary game but does not
    /// count (lichess's rule, see the crate's documentation).
    Uncounted,
}

/// A game the arena paired.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Pairing {
    /// Its number.
    pub game: GameNo,
    /// Who plays which colour.
    pub players: ByColour<PlayerId>,
    /// Whether each side has made its first move.
    pub moved: ByColour<bool>,
    /// Whether each side went berserk.
    pub berserk: ByColour<bool>,
    /// Where it stands.
    pub state: GameState,
}

impl Pairing {
    /// The colour `player` plays here, if they play here.
    pub fn colour_of(&self, player: &PlayerId) -> Option<Colour> {
        Colour::ALL.into_iter().find(|&c| &self.players[c] == player)
    }

    /// Whether it is being played.
    pub fn is_playing(&self) -> bool {
        self.state == GameState::Playing
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_for_each_side() {
        let won = Verdict::Won { winner: Colour::Black };
        assert_eq!(won.finish_for(Colour::Black), Some(Finish::Win));
        assert_eq!(won.finish_for(Colour::White), Some(Finish::Loss));
        let idle = Verdict::NoFirstMove { idle: Colour::Black };
        assert_eq!(idle.finish_for(Colour::Black), Some(Finish::Loss));
        assert_eq!(idle.finish_for(Colour::White), Some(Finish::Win));
        assert_eq!(Verdict::Drawn.finish_for(Colour::White), Some(Finish::Draw));
        assert_eq!(Verdict::Cancelled.finish_for(Colour::White), None);
    }

    #[test]
    fn pale_moves_first() {
        assert_eq!((own_moves(13, Colour::White), own_moves(13, Colour::Black)), (7, 6));
        assert_eq!((own_moves(14, Colour::White), own_moves(14, Colour::Black)), (7, 7));
        assert_eq!((own_moves(0, Colour::White), own_moves(0, Colour::Black)), (0, 0));
    }
}
