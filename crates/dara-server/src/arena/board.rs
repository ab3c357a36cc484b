//! What an arena's sockets are sent: the board its owner pins up when the standings change (at
//! most once a second), read by each socket, which shows its own player only their own row and
//! their own game's seat.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use dara::Colour;
use dara_arena::{GameNo, Phase, PlayerId, Row, Standings, WallTime};
use serde::{Deserialize, Serialize};

use super::id::ArenaId;
use super::player::PlayerToken;
use crate::protocol::{wire, Wire};
use crate::seat::GameId;

/// How often, at most, the board is pinned up again: the standings change with every game's
/// end, and a page needs no more than a second's news.
pub const BOARD_EVERY: Duration = Duration::from_secs(1);

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
    /// The standings message as a visitor reads it, written by the first socket to need it:
    /// every player's is the same but for their row and game, which end it, so it is written
    /// once a pinning rather than once a socket (a thousand players' sockets, each sent the
    /// games being played, cost the server most of its time writing the same text). Not
    /// carried between nodes: each writes its own.
    #[serde(skip)]
    pub visitor: OnceLock<Wire>,
}

/// How the visitor's standings end: no row, no game. A player's have theirs in place.
const NOBODY: &str = r#""mine":null,"game":null}}"#;

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
            visitor: OnceLock::new(),
        })
    }

    /// Whether the arena is over.
    pub fn finished(&self) -> bool {
        self.standings.phase == Phase::Finished
    }

    /// The standings message for `viewer` (their id and token, if they are a player): the
    /// visitor's, written once, with their row and game in place of its end.
    pub fn standings_for(&self, viewer: Option<(&PlayerId, &PlayerToken)>) -> Wire {
        let visitor = self.visitor.get_or_init(|| {
            let mut standings = self.standings.clone();
            standings.mine = None;
            let tables = &self.tables;
            let message = Message::Standings {
                arena: &self.about,
                tables,
                standings: &standings,
                game: None,
            };
            wire(&message)
        });
        let mine = viewer.and_then(|(id, _)| self.rows.get(id));
        let game = viewer.and_then(|(id, token)| {
            let seated = self.seated.get(id)?;
            let url = format!("/g/{}#seat={}", seated.game, token.as_str());
            Some(YourGame { id: &seated.game, no: seated.no, colour: seated.colour, url })
        });
        if mine.is_none() && game.is_none() {
            return visitor.clone();
        }
        let shared = visitor.as_str().strip_suffix(NOBODY).expect("the standings end so");
        let written = "standings always serialise";
        let mut text = String::with_capacity(visitor.len() + 1024);
        text.push_str(shared);
        text.push_str(r#""mine":"#);
        text.push_str(&serde_json::to_string(&mine).expect(written));
        text.push_str(r#","game":"#);
        text.push_str(&serde_json::to_string(&game).expect(written));
        text.push_str("}}");
        text.into()
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
        /// Each game listed by its number: its id, watched at `/g/<id>`.
        tables: &'a BTreeMap<GameNo, GameId>,
        /// Before `game`, and with the viewer's row last: the two a player's message adds.
        #[serde(flatten)]
        standings: &'a Standings,
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

#[cfg(test)]
mod tests {

    use dara_arena::{Arena, Input, Settings};
    use serde_json::Value;

    use super::*;
    use crate::seat::SeatKey;

    /// A running arena of three: two playing, one waiting.
    fn board() -> (Board, Vec<(PlayerId, PlayerToken)>) {
        let start = WallTime::from_millis(1_000_000);
        let settings = Settings::new("arcade", "3+2", start, Duration::from_secs(600));
        let mut arena = Arena::new(settings);
        let key = SeatKey::random();
        let mut players = Vec::new();
        for (n, name) in ["Ama", "Kofi \"K\"", "Ngozi"].iter().enumerate() {
            let token = PlayerToken::parse(&format!("player-token-{n:04}")).unwrap();
            let player = token.player(&key);
            let _ =
                arena.handle(start, Input::Join { player: player.clone(), name: (*name).into() });
            players.push((player, token));
        }
        let _ = arena.handle(start, Input::Tick).unwrap();
        let mut seated = HashMap::new();
        for game in arena.games() {
            for colour in Colour::ALL {
                let id = GameId::parse(&format!("{:016x}", game.game.0)).unwrap();
                let at = Seated { game: id, no: game.game, colour };
                seated.insert(game.players[colour].clone(), at);
            }
        }
        let about = About {
            id: super::super::id::ArenaId::random(),
            rules: "arcade".into(),
            clock: "3+2".into(),
            starts: Some(start.as_millis()),
            minutes: 10,
            scheduled: false,
        };
        let board = Board {
            about,
            standings: arena.standings(start, None),
            rows: arena.rows().into_iter().map(|(id, row)| (id.clone(), row)).collect(),
            seated,
            tables: BTreeMap::new(),
            podium: None,
            visitor: OnceLock::new(),
        };
        (board, players)
    }

    /// The message written whole, as it was before the shared part was written once.
    fn whole(board: &Board, viewer: Option<(&PlayerId, &PlayerToken)>) -> Value {
        let mut standings = board.standings.clone();
        standings.mine = viewer.and_then(|(id, _)| board.rows.get(id).cloned());
        let game = viewer.and_then(|(id, token)| {
            let seated = board.seated.get(id)?;
            let url = format!("/g/{}#seat={}", seated.game, token.as_str());
            Some(YourGame { id: &seated.game, no: seated.no, colour: seated.colour, url })
        });
        let tables = &board.tables;
        let text =
            wire(&Message::Standings { arena: &board.about, tables, standings: &standings, game });
        serde_json::from_str(text.as_str()).unwrap()
    }

    #[test]
    fn each_viewer_reads_the_standings_written_whole() {
        let (board, players) = board();
        let read = |viewer| -> Value {
            serde_json::from_str(board.standings_for(viewer).as_str()).unwrap()
        };
        assert_eq!(read(None), whole(&board, None));
        let mut games = 0;
        for (id, token) in &players {
            let mine = read(Some((id, token)));
            assert_eq!(mine, whole(&board, Some((id, token))));
            assert!(mine["d"]["mine"].is_object(), "{mine}");
            games += usize::from(mine["d"]["game"].is_object());
        }
        assert_eq!(games, 2, "two play, the third waits");
    }
}
