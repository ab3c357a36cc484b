//! A player of an arena, as the arena keeps them between games.

use serde::{Deserialize, Serialize};

use crate::colours::ColourHistory;
use crate::game::GameNo;
use crate::name::Name;
use crate::player_id::PlayerId;
use crate::sheet::Sheet;
use crate::time::WallTime;

/// Whether a player is paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Presence {
    /// Paired whenever free.
    Active,
    /// Not paired until they come back: they asked, or made no first move in time.
    Paused,
    /// Left a running arena: their row and points stay on the standings (as lichess keeps a
    /// withdrawn player's), they are not paired, and they may come back as from a pause.
    Left,
}

/// One player's record.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Player {
    /// The name they play under.
    pub name: Name,
    /// The order of joining (0 for the first): the last tie-break.
    pub joined: u64,
    /// Whether they are paired.
    pub presence: Presence,
    /// Their games that counted.
    pub sheet: Sheet,
    /// Their colours so far.
    pub colours: ColourHistory,
    /// Whom they were last paired with.
    pub last_opponent: Option<PlayerId>,
    /// The game they are playing.
    pub playing: Option<GameNo>,
    /// Since when they are free to be paired (joined, came back, or their last game ended): the
    /// last to come free is the one left waiting by an odd number.
    pub free_at: WallTime,
    /// When they reached their score (or joined, before scoring): a tie-break.
    pub reached: WallTime,
}

impl Player {
    /// A player who just joined at `at`, the `joined`-th to join.
    pub fn new(name: Name, joined: u64, at: WallTime) -> Player {
        Player {
            name,
            joined,
            presence: Presence::Active,
            sheet: Sheet::default(),
            colours: ColourHistory::default(),
            last_opponent: None,
            playing: None,
            free_at: at,
            reached: at,
        }
    }
}
