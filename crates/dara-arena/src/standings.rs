//! The standings as a page shows them: the top ten, the viewer's own row, the games being
//! played, the time left, and the rule that breaks ties.

use core::cmp::Reverse;
use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::game::GameNo;
use crate::name::Name;
use crate::phase::Phase;
use crate::player::{Player, Presence};
use crate::player_id::PlayerId;
use crate::sheet::Sheet;

/// How many rows the standings show above the viewer's own.
pub const TOP_ROWS: usize = 10;

/// How many of the games being played the standings list: the best-ranked, as lichess shows a
/// tournament's top games ("duels") rather than every board. Every socket of an arena is sent
/// the list once a second: in an arena of a thousand players, all 500 games made each message
/// some 47 KiB, 47 MB a second for the server to write and each page to read.
pub const TOP_GAMES: usize = 10;

/// How equal scores are ranked, for the page to word. lichess ranks equal scores by
/// performance rating; an arena with no accounts has no ratings, so:
///
/// 1. fewer games played: the same points from fewer games is the better result per game
///    (what a performance rating measures);
/// 2. then who reached the score first: they held the place before the other came level;
/// 3. then who joined first, so that every two rows have an order.
pub const TIE_BREAK: &str = "Equal scores are ranked by fewer games played, then by who reached \
                             the score first, then by who joined first.";

/// One row of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// 1 for the first.
    pub rank: u32,
    /// The name.
    pub name: Name,
    /// The points.
    pub score: u32,
    /// On fire: the last two games were wins, the next win scores double.
    pub fire: bool,
    /// Games that counted.
    pub games: u32,
    /// Of which won.
    pub wins: u32,
    /// Games in which they went berserk.
    pub berserks: u32,
    /// The games, oldest first.
    pub sheet: Sheet,
    /// Paired, paused, or gone.
    pub presence: Presence,
    /// Playing a game now.
    pub playing: bool,
}

/// A game being played, as the standings list it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Playing {
    /// Its number.
    pub game: GameNo,
    /// Who plays pale.
    pub pale: Ranked,
    /// Who plays dark.
    pub dark: Ranked,
}

/// A player named with their rank, as a game being played shows them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ranked {
    /// The name.
    pub name: Name,
    /// The rank now.
    pub rank: u32,
}

/// The standings for one viewer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standings {
    /// Before, during or after.
    pub phase: Phase,
    /// Until the start (waiting) or the end (running); zero once over.
    #[serde(with = "crate::time::millis")]
    pub time_left: Duration,
    /// How many players have joined.
    pub players: u32,
    /// The first [`TOP_ROWS`].
    pub top: Vec<Row>,
    /// The best-ranked games being played, best first ([`TOP_GAMES`] at most).
    pub playing: Vec<Playing>,
    /// How ties are broken ([`TIE_BREAK`]): read back as this release words it.
    #[serde(skip_deserializing, default = "tie_break")]
    pub tie_break: &'static str,
    /// The viewer's own row, if they joined. Last, so that a shell sending the same standings
    /// to many viewers writes the rest once and each viewer's row after it.
    pub mine: Option<Row>,
}

/// The rule that breaks ties, for standings read back (a shell passes them between its nodes).
fn tie_break() -> &'static str {
    TIE_BREAK
}

/// Every player, best first (see [`TIE_BREAK`]).
pub(crate) fn ranked(players: &BTreeMap<PlayerId, Player>) -> Vec<(&PlayerId, &Player)> {
    let mut all: Vec<(&PlayerId, &Player)> = players.iter().collect();
    all.sort_by_key(|(_, p)| {
        (Reverse(p.sheet.total()), p.sheet.marks().len(), p.reached, p.joined)
    });
    all
}

/// The row of a player at `rank`.
pub(crate) fn row(rank: u32, player: &Player) -> Row {
    Row {
        rank,
        name: player.name.clone(),
        score: player.sheet.total(),
        fire: player.sheet.on_fire(),
        games: u32::try_from(player.sheet.marks().len()).unwrap_or(u32::MAX),
        wins: player.sheet.wins(),
        berserks: player.sheet.berserks(),
        sheet: player.sheet.clone(),
        presence: player.presence,
        playing: player.playing.is_some(),
    }
}
