//! What an arena is given, and what comes of it: every change comes in as an [`Input`] with
//! the time, and goes out as an [`Outcome`] (the new events of the journal and the effects for
//! the shell), or as a [`crate::Refusal`] that changed nothing.

use std::ops::Range;

use dara::Colour;
use serde::{Deserialize, Serialize};

use crate::effect::Effect;
use crate::game::{GameNo, Verdict};
use crate::player_id::PlayerId;

/// Something that happens to an arena. It serialises, so that a node of a cluster can hand a
/// player's request on to the node that holds the arena.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "input", rename_all = "kebab-case")]
pub enum Input {
    /// A player joins under a name, as typed.
    Join {
        /// Who.
        player: PlayerId,
        /// The name as typed: it is trimmed and checked here.
        name: String,
    },
    /// A player asks not to be paired until they come back (a game they are playing goes on).
    Pause {
        /// Who.
        player: PlayerId,
    },
    /// A paused or gone player comes back.
    Resume {
        /// Who.
        player: PlayerId,
    },
    /// A player leaves: before the start, for good; once it runs, as a pause shown as gone.
    Leave {
        /// Who.
        player: PlayerId,
    },
    /// A player goes berserk in their game, before their first move in it: their clock is
    /// halved, and a win of [`crate::BERSERK_MOVES`] moves of their own scores a point more.
    Berserk {
        /// Who.
        player: PlayerId,
        /// In which game (so that a click on an old game's page does nothing to the new one).
        game: GameNo,
    },
    /// From the table, by the shell: a side made its first move (the shell may send it again,
    /// or on later moves: only the first changes anything).
    FirstMove {
        /// Which game.
        game: GameNo,
        /// Which side.
        by: Colour,
    },
    /// From the table, by the shell: a game ended.
    GameEnded {
        /// Which game.
        game: GameNo,
        /// How.
        verdict: Verdict,
        /// Plies played, both sides.
        plies: u32,
    },
    /// Time passed: the arena may start, pair the free players, or end. The shell sends it at
    /// [`crate::Arena::next_tick`].
    Tick,
}

/// What became of an accepted input.
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use]
pub struct Outcome {
    /// The new events: versions `v` in this range, `journal()[v - 1]`. Stored before anyone is
    /// told of them; empty when the input changed nothing (a pause of a paused player).
    pub events: Range<u64>,
    /// What the shell is to do, in order.
    pub effects: Vec<Effect>,
}
