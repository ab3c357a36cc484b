//! What an arena's sockets are sent: the board its owner pins up when the standings change (at
//! most once a second), read by each socket, which shows its own player only their own row and
//! their own game's seat.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use dara::Colour;
use dara_arena::{GameNo, Phase, PlayerId, Row, Standings, WallTime};
use serde::{Deserialize, Serialize};

use super::id::ArenaId;
use super::player::PlayerToken;
use crate::protocol::{wire, Wire};
use crate::seat::GameId;

/// What an arena is, for its page and the list of arenas.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct About {
    /// Its id.
    pub id: ArenaId,
    /// The rules of its games, in notation.
    pub rules: String,
    /// Their clock, as players say it (`3+2`).
    pub clock: String,
    /// When it starts (milliseconds since the Unix epoch); `None` while it waits for its maker
    /// to press start.
    pub starts: Option<u64>,
    /// How long it runs, in minutes.
    pub minutes: u64,
    /// Made by the server's schedule (listed), or by someone (reached by its link only).
    pub scheduled: bool,
}

/// A game a player is in, as only they are told.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seated {
    /// The table.
    pub game: GameId,
    /// The arena's number for it.
    pub no: GameNo,
    /// Their colour.
    pub colour: Colour,
}

/// One pinning of the board. In a cluster it travels as JSON from the node that holds the
/// arena to the others' sockets (see `super::there`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Board {
    /// What the arena is.
    pub about: About,
    /// The standings as a visitor sees them (no row of their own).
    pub standings: Standings,
    /// Each player's own row.
    pub rows: HashMap<PlayerId, Row>,
    /// Each player's game being played.
    pub seated: HashMap<PlayerId, Seated>,
    /// The table of each game being played, for anyone to watch: a game's id is public (its
    /// seats are in the players' own links alone).
    pub tables: BTreeMap<GameNo, GameId>,
    /// Once it has ended: the podium, and the games that went on uncounted.
    pub podium: Option<Podium>,
}

/// The end of an arena, as everyone is told.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Podium {
    /// The first three who played a game, best first.
    pub podium: Vec<Row>,
    /// The arena's numbers of the games that were still being played: they go on, uncounted.
    pub uncounted: Vec<GameNo>,
}

impl Board {
    /// The board before anything is pinned: an arena that has just been made.
    pub fn empty(about: About, standings: Standings) -> Arc<Board> {
        Arc::new(Board {
            about,
            standings,
            rows: HashMap::new(),
            seated: HashMap::new(),
            tables: BTreeMap::new(),
            podium: None,
        })
    }

    /// Whether the arena is over.
    pub fn finished(&self) -> bool {
        self.standings.phase == Phase::Finished
    }

    /// The standings message for `viewer` (their id and token, if they are a player).
    pub fn standings_for(&self, viewer: Option<(&PlayerId, &PlayerToken)>) -> Wire {
        let mut standings = self.standings.clone();
        standings.mine = viewer.and_then(|(id, _)| self.rows.get(id).cloned());
        let game = viewer.and_then(|(id, token)| {
            let seated = self.seated.get(id)?;
            let url = format!("/g/{}#seat={}", seated.game, token.as_str());
            Some(YourGame { id: &seated.game, no: seated.no, colour: seated.colour, url })
        });
        let tables = &self.tables;
        wire(&Message::Standings { arena: &self.about, standings: &standings, tables, game })
    }

    /// The podium message, once the arena is over.
    pub fn podium(&self) -> Option<Wire> {
        self.podium.as_ref().map(|podium| wire(&Message::Podium(podium)))
    }
}

/// An arena socket's messages (PROTOCOL.md, "Arenas").
#[derive(Serialize)]
#[serde(tag = "t", content = "d", rename_all = "kebab-case")]
enum Message<'a> {
    /// The standings, with the viewer's row and game.
    Standings {
        arena: &'a About,
        #[serde(flatten)]
        standings: &'a Standings,
        /// Each game being played by its number: its id, watched at `/g/<id>`.
        tables: &'a BTreeMap<GameNo, GameId>,
        game: Option<YourGame<'a>>,
    },
    /// The arena ended.
    Podium(&'a Podium),
}

/// The viewer's game being played, with their seat in its link.
#[derive(Serialize)]
struct YourGame<'a> {
    id: &'a GameId,
    no: GameNo,
    colour: Colour,
    url: String,
}

/// When an arena starts, as [`About::starts`] says it.
pub fn starts(at: WallTime, on_press: bool) -> Option<u64> {
    (!on_press).then_some(at.as_millis())
}
