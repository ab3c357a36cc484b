//! The Arcade's game-socket messages as the load driver sends and reads them
//! (`crates/dara-server/PROTOCOL.md`). What it sends is written by the server's own type
//! (`ClientMessage`, which reads back as itself); what it reads is held to the server's writers
//! (`Answer`, `Event`) by the tests below.
//!
//! Reading borrows from the frame's text: one pass of serde over one struct that has every field
//! the driver looks at, whatever the message's type, so a message costs no allocation but its
//! list of legal turns. The server's message types only serialise (and own their text), which is
//! why the driver keeps this borrowed reading of its own.

use core::fmt;
use core::str::FromStr;
use std::sync::LazyLock;

use dara::Colour;
use dara_server::protocol::ClientMessage;
use dara_table::{GameId, Opponent};
use serde::de::{Deserializer, IgnoredAny, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

/// The protocol version `hello` names (`"protocol": 1` in its data): the server's own. A server
/// built before `hello` named the protocol (the previous release, loaded side by side) refuses a
/// `hello` with fields it does not know, so the driver drops the field when the server answers
/// such a `hello` with an `error`.
pub use dara_server::protocol::PROTOCOL_VERSION;

/// The keep-alive a page sends every few seconds.
pub static PING: LazyLock<String> = LazyLock::new(|| written(&ClientMessage::Ping { lag: 0 }));

/// Taking the free seat.
pub static JOIN: LazyLock<String> = LazyLock::new(|| written(&ClientMessage::Join));

/// A message as the server's own type writes it.
fn written(message: &ClientMessage) -> String {
    serde_json::to_string(message).expect("a client message always serialises")
}

/// `hello` with a seat token (or none, to watch and then join), from the start of the game;
/// naming the server's protocol, or, for a server older than the field, none.
pub fn hello(seat: Option<&str>, protocol: Option<u32>) -> String {
    let hello = ClientMessage::Hello { seat: seat.map(str::to_owned), since: None };
    let mut value = serde_json::to_value(&hello).expect("a client message always serialises");
    if let Some(data) = value.get_mut("d").and_then(serde_json::Value::as_object_mut) {
        match protocol {
            Some(version) => data.insert("protocol".to_owned(), version.into()),
            None => data.remove("protocol"),
        };
    }
    value.to_string()
}

/// One whole turn, as the notation writes it (taken from the server's own list of legal turns),
/// with the lag the page reports.
pub fn turn(id: u64, m: &str, lag_ms: u64) -> String {
    written(&ClientMessage::Move { id, text: m.to_owned(), lag: Some(lag_ms) })
}

/// The colour the driver takes against the computer: pale, which places first, so that every
/// move of the computer answers a turn the driver sent and its reply time is measured from it.
pub const COLOUR_AGAINST_COMPUTER: Colour = Colour::White;

/// The body of `POST /api/games`: a game against a friend by link, or against the computer at
/// its level with the driver holding [`COLOUR_AGAINST_COMPUTER`].
pub fn new_game(rules: &str, opponent: Opponent) -> String {
    // The server's `NewGame` only reads: this is its shape, held to it by the tests below.
    #[derive(Serialize)]
    struct NewGame<'a> {
        opponent: Opponent,
        rules: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        first: Option<Colour>,
        #[serde(skip_serializing_if = "Option::is_none")]
        level: Option<u8>,
    }
    let level = match opponent {
        Opponent::Computer(level) => Some(level.get()),
        Opponent::Friend | Opponent::Open => None,
    };
    let first = level.map(|_| COLOUR_AGAINST_COMPUTER);
    let body = NewGame { opponent, rules, first, level };
    serde_json::to_string(&body).expect("a new game always serialises")
}

/// The answer to `POST /api/games` (and to the lobby's `POST /api/seek` and
/// `/api/tables/<id>/sit`): the seat taken.
#[derive(Debug, Deserialize)]
pub struct Created {
    /// The game's id, for its socket's path.
    pub game: GameId,
    /// The creator's seat token.
    pub seat: String,
}

/// Any message from the server: its type, its version (events only) and the fields of its data
/// that the driver reads.
#[derive(Debug, Deserialize)]
pub struct Incoming<'a> {
    /// The message's type.
    #[serde(borrow)]
    pub t: &'a str,
    /// An event's version; answers have none.
    #[serde(default)]
    pub v: Option<u64>,
    /// The data, absent for `pong`, `ok`, `join`.
    #[serde(default, borrow)]
    pub d: Option<Data<'a>>,
}

/// The fields the driver reads, from whichever message carries them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Data<'a> {
    /// `accepted`, `rejected`: the turn's id.
    pub id: Option<u64>,
    /// `move`: the turn played.
    #[serde(borrow)]
    pub m: Option<&'a str>,
    /// `move`: turns played, this one included.
    pub ply: Option<u64>,
    /// `snapshot`, `move`: the position after it.
    #[serde(borrow)]
    pub pos: Option<Position<'a>>,
    /// `snapshot`: the receiver's colour, null for a watcher.
    #[serde(borrow)]
    pub you: Option<&'a str>,
    /// `snapshot`: who holds each seat.
    #[serde(borrow)]
    pub seats: Option<Seats<'a>>,
    /// `snapshot`: the turns played so far (only counted).
    pub moves: Option<Count>,
    /// `snapshot`: how the game ended, null while it goes on.
    pub end: Option<IgnoredAny>,
    /// `joined`, `seated`: the colour seated.
    #[serde(borrow)]
    pub colour: Option<&'a str>,
    /// `rejected`, `error`, `end`: what happened, as a code.
    #[serde(borrow)]
    pub code: Option<&'a str>,
    /// `queue`: searches of other games the computer runs before this game's.
    pub ahead: Option<u32>,
}

/// A position, as far as choosing a turn needs it.
#[derive(Debug, Deserialize)]
pub struct Position<'a> {
    /// Whose turn it is.
    #[serde(borrow)]
    pub side: &'a str,
    /// Every legal turn, each capture choice its own.
    #[serde(borrow, default)]
    pub legal: Vec<&'a str>,
}

/// The snapshot's seats: `{"kind": "human" | "open" | "computer"}` for each colour.
#[derive(Debug, Deserialize)]
pub struct Seats<'a> {
    /// The pale stones' seat.
    #[serde(borrow)]
    pub white: SeatKind<'a>,
    /// The dark stones' seat.
    #[serde(borrow)]
    pub black: SeatKind<'a>,
}

/// Who sits in a seat.
#[derive(Debug, Deserialize)]
pub struct SeatKind<'a> {
    /// `human`, `open` or `computer`.
    #[serde(borrow)]
    pub kind: &'a str,
}

impl Seats<'_> {
    /// Whether both seats are taken (by people, or one by the computer), so the game has begun.
    pub fn both_seated(&self) -> bool {
        self.white.kind != "open" && self.black.kind != "open"
    }
}

/// The length of a JSON array, counted without keeping its elements.
#[derive(Debug, Default, Clone, Copy)]
pub struct Count(pub u64);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Count, D::Error> {
        struct Counter;
        impl<'de> Visitor<'de> for Counter {
            type Value = Count;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Count, A::Error> {
                let mut n = 0;
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    n += 1;
                }
                Ok(Count(n))
            }
        }
        deserializer.deserialize_seq(Counter)
    }
}

/// A colour as the server writes it, `white` or `black`.
pub fn colour(text: &str) -> Option<Colour> {
    Colour::from_str(text).ok()
}

impl<'a> Incoming<'a> {
    /// Reads one text frame.
    ///
    /// # Errors
    /// When the frame is not a message of the shape the protocol describes.
    pub fn parse(text: &'a str) -> Result<Incoming<'a>, serde_json::Error> {
        serde_json::from_str(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dara_engine::level::Level;
    use dara_server::game::settings::NewGame;
    use dara_server::protocol::{
        versioned, Answer, ClientMessage, Event, ParseError, Refusal, WireAnswer,
    };
    use dara_table::view::PositionView;
    use dara_table::GameSettings;

    #[test]
    fn a_move_event_is_read_in_place() {
        let text = r#"{"t":"move","d":{"m":"c3","ply":1,"pos":{"fen":"6/6/2W3/6/6 b 11 12 0",
            "side":"black","phase":"placement","hand":{"white":11,"black":12},"quiet":0,
            "quiet_limit":80,"legal":["a1","a2"],"forbidden":{"c4":"a \"row\""}},"clock":null},"v":3}"#;
        let msg = Incoming::parse(text).unwrap();
        assert_eq!((msg.t, msg.v), ("move", Some(3)));
        let d = msg.d.unwrap();
        assert_eq!((d.m, d.ply), (Some("c3"), Some(1)));
        let pos = d.pos.unwrap();
        assert_eq!(colour(pos.side), Some(Colour::Black));
        assert_eq!(pos.legal, ["a1", "a2"]);
    }

    #[test]
    fn a_snapshot_tells_seats_colour_and_turns_played() {
        let text = r#"{"t":"snapshot","v":1,"d":{"rules":"arcade","opponent":"friend",
            "you":null,"seats":{"white":{"kind":"human"},"black":{"kind":"open"}},
            "moves":["c3","d4"],"pos":{"side":"white","legal":[]},"clock":null,"end":null,
            "drawOffer":null}}"#;
        let d = Incoming::parse(text).unwrap().d.unwrap();
        assert_eq!(d.you, None);
        assert!(!d.seats.unwrap().both_seated());
        assert_eq!(d.moves.unwrap().0, 2);
        assert!(d.end.is_none());
    }

    #[test]
    fn a_game_against_the_computer_is_seated_at_once() {
        let text = r#"{"t":"snapshot","v":1,"d":{"rules":"arcade","opponent":"computer",
            "you":"white","seats":{"white":{"kind":"human"},"black":{"kind":"computer","level":8}},
            "moves":[],"pos":{"side":"white","legal":["a1"]},"clock":null,"end":null}}"#;
        let d = Incoming::parse(text).unwrap().d.unwrap();
        assert!(d.seats.unwrap().both_seated());
        assert_eq!(d.you.and_then(colour), Some(COLOUR_AGAINST_COMPUTER));
    }

    #[test]
    fn the_server_reads_the_games_the_driver_asks_for() {
        let settings = |opponent| -> GameSettings {
            let body = new_game("arcade", opponent);
            serde_json::from_str::<NewGame>(&body).unwrap().check().unwrap()
        };
        let level = Level::new(3).unwrap();
        let against_computer = settings(Opponent::Computer(level));
        assert_eq!(against_computer.opponent, Opponent::Computer(level));
        assert_eq!(against_computer.creator, COLOUR_AGAINST_COMPUTER);
        assert_eq!(settings(Opponent::Friend).opponent, Opponent::Friend);
    }

    #[test]
    fn answers_without_data_are_read() {
        let msg = Incoming::parse(r#"{"t":"pong"}"#).unwrap();
        assert_eq!((msg.t, msg.v, msg.d.is_none()), ("pong", None, true));
        let msg = Incoming::parse(r#"{"t":"accepted","d":{"id":7}}"#).unwrap();
        assert_eq!(msg.d.unwrap().id, Some(7));
    }

    #[test]
    fn the_server_reads_every_message_the_driver_sends() {
        let read = |text: &str| ClientMessage::parse(text).unwrap();
        assert_eq!(
            read(&hello(Some("ab12"), Some(PROTOCOL_VERSION))),
            ClientMessage::Hello { seat: Some("ab12".into()), since: None }
        );
        assert_eq!(
            read(&turn(4, "c3-c4xe5", 12)),
            ClientMessage::Move { id: 4, text: "c3-c4xe5".into(), lag: Some(12) }
        );
        assert_eq!(read(&PING), ClientMessage::Ping { lag: 0 });
        assert_eq!(read(&JOIN), ClientMessage::Join);
        // Without `protocol`, for a server older than the field: today's server says why not.
        assert!(matches!(
            ClientMessage::parse(&hello(None, None)),
            Err(ParseError::OtherProtocol(None))
        ));
    }

    #[test]
    fn the_driver_reads_what_the_server_writes() {
        let accepted = Answer::Accepted { id: 7 }.wire();
        assert_eq!(Incoming::parse(&accepted).unwrap().d.unwrap().id, Some(7));
        let joined = Answer::Joined { seat: "ab".into(), colour: Colour::Black }.wire();
        let msg = Incoming::parse(&joined).unwrap();
        assert_eq!((msg.t, msg.v), ("joined", None));
        assert_eq!(msg.d.unwrap().colour.and_then(colour), Some(Colour::Black));
        let rejected =
            Answer::Rejected { id: 3, why: Refusal::from(dara_table::Refusal::NotYourTurn).into() }
                .wire();
        let msg = Incoming::parse(&rejected).unwrap();
        let d = msg.d.unwrap();
        assert_eq!((msg.t, d.id, d.code), ("rejected", Some(3), Some("not-your-turn")));
        let error = Answer::Error(Refusal::HelloFirst.into()).wire();
        assert_eq!(Incoming::parse(&error).unwrap().d.unwrap().code, Some("hello-first"));
        let pong = Answer::Pong.wire();
        assert_eq!(Incoming::parse(&pong).unwrap().t, "pong");
        let queue = Answer::Queue { ahead: 3 }.wire();
        let msg = Incoming::parse(&queue).unwrap();
        assert_eq!((msg.t, msg.v, msg.d.unwrap().ahead), ("queue", None, Some(3)));

        let seated = versioned(&Event::Seated { colour: Colour::White, clock: None }, 2);
        let msg = Incoming::parse(&seated).unwrap();
        assert_eq!((msg.t, msg.v), ("seated", Some(2)));
        let before = dara::Position::start(dara::Ruleset::default());
        let m = before.legal_moves()[0];
        let after = before.after(m);
        let pos = PositionView::of(&after, &after.legal_moves());
        let moved = versioned(&Event::Move { m, ply: 1, pos, clock: None }, 3);
        let msg = Incoming::parse(&moved).unwrap();
        assert_eq!((msg.t, msg.v), ("move", Some(3)));
        let d = msg.d.unwrap();
        assert_eq!((d.m, d.ply), (Some(&*m.to_string()), Some(1)));
        let pos = d.pos.unwrap();
        assert_eq!(colour(pos.side), Some(after.side()));
        let legal: Vec<String> = after.legal_moves().iter().map(ToString::to_string).collect();
        assert_eq!(pos.legal, legal);
    }

    #[test]
    fn messages_sent_are_the_protocols() {
        let json = |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap();
        assert_eq!(
            json(&hello(Some("ab12"), Some(1))),
            json(r#"{"t":"hello","d":{"seat":"ab12","since":null,"protocol":1}}"#)
        );
        assert_eq!(
            json(&hello(None, None)),
            json(r#"{"t":"hello","d":{"seat":null,"since":null}}"#)
        );
        assert_eq!(turn(4, "c3-c4xe5", 12), r#"{"t":"move","d":{"id":4,"m":"c3-c4xe5","lag":12}}"#);
        assert_eq!(
            new_game("jaques,diagonal=yes", Opponent::Friend),
            r#"{"opponent":"friend","rules":"jaques,diagonal=yes"}"#
        );
        assert_eq!(
            new_game("arcade", Opponent::Computer(Level::new(4).unwrap())),
            r#"{"opponent":"computer","rules":"arcade","first":"white","level":4}"#
        );
        assert_eq!(*PING, r#"{"t":"ping","d":{"lag":0}}"#);
        assert_eq!(*JOIN, r#"{"t":"join"}"#);
    }
}
