//! What a browser may send over a game's socket. Parsing is in two steps, the envelope then the
//! data, so that every mistake gets a reason a person can read. A message also writes itself as
//! a page sends it (`serde_json::to_string`), for the load driver and the tests: the same data
//! types carry both ways, and every message reads back as itself (tested below).

use core::{fmt, iter};
use std::borrow::Cow;
use std::time::Duration;

use serde::de::value::MapDeserializer;
use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

use super::phrase::Phrase;

/// What a browser may ask of a game.
///
/// Its tags are serde's names for its variants, both ways: written by the derived `Serialize`
/// (as a page writes it; `hello` names this server's protocol), and, for the messages whose tag
/// is all they say, read by the derived `Deserialize` in [`ClientMessage::parse`]. The messages
/// with data are read there by hand, each with its own checks, and serde never reads them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", content = "d", rename_all = "kebab-case")]
pub enum ClientMessage {
    /// The first message: the protocol version, the seat token (if any) and the last version
    /// seen (if any).
    #[serde(serialize_with = "write_hello", skip_deserializing)]
    Hello {
        /// The seat token from the seat's link or local storage.
        seat: Option<String>,
        /// The version of the last event the client applied.
        since: Option<u64>,
    },
    /// Take the free seat (the invite link, or sitting at an open table).
    Join,
    /// Play a whole turn: the move in notation, captures included.
    #[serde(skip_deserializing)]
    Move {
        /// The client's own id for this turn, echoed in `accepted` or `rejected`.
        id: u64,
        /// The move, e.g. `c3-c4xe5`.
        #[serde(rename = "m")]
        text: String,
        /// The browser's last measured one-way delay in milliseconds, as in `ping`: a page
        /// that is playing says it with each turn instead of pinging.
        #[serde(skip_serializing_if = "Option::is_none")]
        lag: Option<u64>,
    },
    /// Give up.
    Resign,
    /// Call the game off, without a result, before both sides have moved.
    Abort,
    /// Offer a draw, or accept the one on offer.
    DrawOffer,
    /// Turn down the draw on offer.
    DrawDecline,
    /// Take back the draw one offered oneself, before the opponent answers.
    DrawWithdraw,
    /// Back to your previous turn: at once against the computer; in a game between people,
    /// asked of the opponent.
    Takeback,
    /// Grant the takeback the opponent asked for.
    TakebackAccept,
    /// Turn down the takeback the opponent asked for.
    TakebackDecline,
    /// Withdraw your own takeback request before it is answered.
    TakebackWithdraw,
    /// Ask for (or agree to) another game with colours swapped.
    Rematch,
    /// Claim the win when the opponent has been gone long enough.
    Claim,
    /// A quick message to everyone at the game: one of the fixed phrases, by its code.
    #[serde(skip_deserializing)]
    Say {
        /// The phrase.
        phrase: Phrase,
    },
    /// Keep-alive carrying the browser's measured round trip, for lag-fair clocks.
    #[serde(skip_deserializing)]
    Ping {
        /// Milliseconds.
        lag: u64,
    },
}

/// The version of this protocol, which `hello` must name: a page from an older (or newer)
/// release is told to reload rather than left to misread what it is sent.
pub const PROTOCOL_VERSION: u32 = 1;

/// The outer object, its two fields kept as raw JSON for the second step. JSON allows a key
/// twice and most readers keep the last; a message with a key twice is refused instead, so that
/// what the server reads is what every other reader of the same text would read.
#[derive(Default)]
struct Envelope<'a> {
    t: Option<&'a RawValue>,
    d: Option<&'a RawValue>,
    twice: Option<String>,
}

impl<'de: 'a, 'a> Deserialize<'de> for Envelope<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Fields<'a>(core::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for Fields<'a> {
            type Value = Envelope<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Envelope<'a>, M::Error> {
                let mut envelope = Envelope::default();
                let mut seen: Vec<&'de str> = Vec::new();
                while let Some(key) = map.next_key::<&'de str>()? {
                    if seen.contains(&key) {
                        envelope.twice.get_or_insert_with(|| key.to_owned());
                    }
                    seen.push(key);
                    match key {
                        "t" => envelope.t = Some(map.next_value()?),
                        "d" => envelope.d = Some(map.next_value()?),
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(envelope)
            }
        }
        deserializer.deserialize_map(Fields(core::marker::PhantomData))
    }
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct HelloData {
    #[serde(default)]
    protocol: Option<u32>,
    #[serde(default)]
    seat: Option<String>,
    #[serde(default)]
    since: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveData {
    id: u64,
    m: String,
    #[serde(default)]
    lag: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SayData {
    phrase: Phrase,
}

#[derive(Deserialize)]
struct PingData {
    #[serde(default)]
    lag: u64,
}

/// `hello` as a page writes it: naming this server's protocol.
fn write_hello<S: Serializer>(
    seat: &Option<String>,
    since: &Option<u64>,
    s: S,
) -> Result<S::Ok, S::Error> {
    HelloData { protocol: Some(PROTOCOL_VERSION), seat: seat.clone(), since: *since }.serialize(s)
}

/// A text frame that is not a message the server can read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// Not JSON at all.
    NotJson(String),
    /// JSON, but not an object with a `t` field.
    NotAnObject,
    /// The `t` field is not a string.
    TypeNotText,
    /// No message has this type.
    UnknownType(String),
    /// The data of a known message is wrong.
    BadData {
        /// The message's type.
        t: String,
        /// What is wrong, as serde says it.
        detail: String,
    },
    /// A key given twice in one object.
    KeyTwice(String),
    /// A move text far longer than any move.
    MoveTooLong,
    /// `hello` names another version of the protocol (or none): the page is out of date.
    OtherProtocol(Option<u32>),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::NotJson(e) => write!(f, "not a message: this is not JSON ({e})"),
            ParseError::NotAnObject => {
                f.write_str("not a message: expected a JSON object with a \"t\" field")
            }
            ParseError::TypeNotText => {
                f.write_str("the \"t\" field must be a string naming the message")
            }
            ParseError::UnknownType(t) => write!(f, "unknown message type \"{t}\""),
            ParseError::BadData { t, detail } => write!(f, "\"{t}\": bad data: {detail}"),
            ParseError::KeyTwice(key) => {
                let key: String = key.chars().take(32).collect();
                write!(f, "not a message: the key \"{key}\" is given twice")
            }
            ParseError::MoveTooLong => {
                f.write_str("\"move\": the move text is too long to be a move")
            }
            ParseError::OtherProtocol(version) => {
                let theirs =
                    version.map_or_else(|| "no version".to_owned(), |v| format!("version {v}"));
                write!(
                    f,
                    "this page speaks {theirs} of the protocol and the server speaks version \
                     {PROTOCOL_VERSION}: reload the page"
                )
            }
        }
    }
}

impl std::error::Error for ParseError {}

impl ClientMessage {
    /// Reads one text frame, or says what is wrong with it.
    ///
    /// # Errors
    /// A [`ParseError`] naming what is wrong.
    pub fn parse(text: &str) -> Result<ClientMessage, ParseError> {
        // One pass reads a good message. Only a text that does not read as an envelope is read
        // again, as plain JSON, so that a broken text and a text of the wrong shape are told
        // apart.
        let envelope: Envelope<'_> = serde_json::from_str(text).map_err(|_| {
            match serde_json::from_str::<IgnoredAny>(text) {
                Err(e) => ParseError::NotJson(e.to_string()),
                Ok(_) => ParseError::NotAnObject,
            }
        })?;
        if let Some(key) = envelope.twice {
            return Err(ParseError::KeyTwice(key));
        }
        let t = envelope.t.ok_or(ParseError::NotAnObject)?;
        // Borrowed from the text, unless the name is written with escapes.
        let t: Cow<'_, str> = match serde_json::from_str::<&str>(t.get()) {
            Ok(t) => Cow::Borrowed(t),
            Err(_) => Cow::Owned(
                serde_json::from_str::<String>(t.get()).map_err(|_| ParseError::TypeNotText)?,
            ),
        };
        let data = envelope.d.map_or("null", RawValue::get);
        let is_null = data.trim() == "null";
        let bad =
            |e: serde_json::Error| ParseError::BadData { t: t.to_string(), detail: e.to_string() };
        Ok(match &*t {
            "hello" => {
                let d: HelloData = if is_null {
                    HelloData { protocol: None, seat: None, since: None }
                } else {
                    serde_json::from_str(data).map_err(bad)?
                };
                if d.protocol != Some(PROTOCOL_VERSION) {
                    return Err(ParseError::OtherProtocol(d.protocol));
                }
                ClientMessage::Hello { seat: d.seat, since: d.since }
            }
            "move" => {
                let d: MoveData = serde_json::from_str(data).map_err(bad)?;
                if d.m.len() > 64 {
                    return Err(ParseError::MoveTooLong);
                }
                ClientMessage::Move { id: d.id, text: d.m, lag: d.lag }
            }
            "say" => {
                let d: SayData = serde_json::from_str(data).map_err(bad)?;
                ClientMessage::Say { phrase: d.phrase }
            }
            "ping" => {
                let d: PingData = if is_null {
                    PingData { lag: 0 }
                } else {
                    serde_json::from_str(data).map_err(bad)?
                };
                ClientMessage::Ping { lag: d.lag }
            }
            // A message whose tag is all it says, by serde's name for it; its data, if any,
            // is not read.
            plain => {
                let tag =
                    MapDeserializer::<_, serde::de::value::Error>::new(iter::once(("t", plain)));
                ClientMessage::deserialize(tag)
                    .map_err(|_| ParseError::UnknownType(plain.chars().take(32).collect()))?
            }
        })
    }
}

/// Lag as the clock uses it.
pub fn lag(ms: u64) -> Duration {
    Duration::from_millis(ms.min(10_000))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_message() {
        assert_eq!(
            ClientMessage::parse(r#"{"t":"move","d":{"id":3,"m":"c3-c4xe5"}}"#),
            Ok(ClientMessage::Move { id: 3, text: "c3-c4xe5".into(), lag: None })
        );
        assert_eq!(
            ClientMessage::parse(r#"{"t":"move","d":{"id":4,"m":"a1","lag":35}}"#),
            Ok(ClientMessage::Move { id: 4, text: "a1".into(), lag: Some(35) })
        );
        assert_eq!(
            ClientMessage::parse(r#"{"t":"hello","d":{"protocol":1,"seat":"ab","since":4}}"#),
            Ok(ClientMessage::Hello { seat: Some("ab".into()), since: Some(4) })
        );
        assert_eq!(
            ClientMessage::parse(r#"{"t":"hello","d":{"protocol":1}}"#),
            Ok(ClientMessage::Hello { seat: None, since: None })
        );
        assert_eq!(ClientMessage::parse(r#"{"t":"resign"}"#), Ok(ClientMessage::Resign));
        // A name written with an escape is the same name.
        assert_eq!(ClientMessage::parse(r#"{"t":"re\u0073ign"}"#), Ok(ClientMessage::Resign));
        assert_eq!(
            ClientMessage::parse(r#"{"t":"draw-withdraw"}"#),
            Ok(ClientMessage::DrawWithdraw)
        );
        assert_eq!(
            ClientMessage::parse(r#"{"t":"takeback-accept"}"#),
            Ok(ClientMessage::TakebackAccept)
        );
    }

    #[test]
    fn every_message_reads_back_as_itself() {
        let all = [
            ClientMessage::Hello { seat: Some("ab12".into()), since: Some(4) },
            ClientMessage::Hello { seat: None, since: None },
            ClientMessage::Join,
            ClientMessage::Move { id: 4, text: "c3-c4xe5".into(), lag: Some(12) },
            ClientMessage::Move { id: 5, text: "a1".into(), lag: None },
            ClientMessage::Resign,
            ClientMessage::Abort,
            ClientMessage::DrawOffer,
            ClientMessage::DrawDecline,
            ClientMessage::DrawWithdraw,
            ClientMessage::Takeback,
            ClientMessage::TakebackAccept,
            ClientMessage::TakebackDecline,
            ClientMessage::TakebackWithdraw,
            ClientMessage::Rematch,
            ClientMessage::Claim,
            ClientMessage::Say { phrase: Phrase::GoodGame },
            ClientMessage::Ping { lag: 0 },
        ];
        for message in all {
            let text = serde_json::to_string(&message).unwrap();
            assert_eq!(ClientMessage::parse(&text), Ok(message), "{text}");
        }
        let written = |m: ClientMessage| serde_json::to_string(&m).unwrap();
        assert_eq!(written(ClientMessage::Join), r#"{"t":"join"}"#);
        assert_eq!(
            written(ClientMessage::Say { phrase: Phrase::WellPlayed }),
            r#"{"t":"say","d":{"phrase":"well-played"}}"#
        );
        assert_eq!(written(ClientMessage::Ping { lag: 0 }), r#"{"t":"ping","d":{"lag":0}}"#);
        assert_eq!(
            written(ClientMessage::Move { id: 4, text: "c3-c4xe5".into(), lag: Some(12) }),
            r#"{"t":"move","d":{"id":4,"m":"c3-c4xe5","lag":12}}"#
        );
        assert_eq!(
            written(ClientMessage::Hello { seat: Some("ab12".into()), since: None }),
            r#"{"t":"hello","d":{"protocol":1,"seat":"ab12","since":null}}"#
        );
    }

    #[test]
    fn explains_what_is_wrong() {
        let said = |text: &str| ClientMessage::parse(text).unwrap_err().to_string();
        assert!(said("{").starts_with("not a message"));
        assert!(said("[1]").starts_with("not a message"));
        assert_eq!(said(r#"{"t":"dance"}"#), "unknown message type \"dance\"");
        assert_eq!(said(r#"{"t":7}"#), "the \"t\" field must be a string naming the message");
        assert!(said(r#"{"t":"move","d":{"m":"c3"}}"#).contains("missing field `id`"));
        // Nothing but the fixed phrases can be said.
        let shout = said(r#"{"t":"say","d":{"phrase":"you-lose"}}"#);
        assert!(shout.starts_with("\"say\": bad data: unknown variant `you-lose`"), "{shout}");
        assert!(said(r#"{"t":"say","d":{"phrase":"hello","text":"hi"}}"#).contains("unknown field"));
    }

    #[test]
    fn a_key_given_twice_is_refused_at_every_level() {
        // Most JSON readers keep the last: this one would have resigned.
        assert_eq!(
            ClientMessage::parse(r#"{"t":"ping","t":"resign"}"#),
            Err(ParseError::KeyTwice("t".into()))
        );
        assert_eq!(
            ClientMessage::parse(r#"{"t":"resign","d":null,"d":{}}"#),
            Err(ParseError::KeyTwice("d".into()))
        );
        let inner = ClientMessage::parse(r#"{"t":"move","d":{"id":1,"m":"c3","m":"d4"}}"#);
        assert!(inner.unwrap_err().to_string().contains("duplicate field `m`"));
    }

    #[test]
    fn hello_names_this_protocol() {
        for other in [r#"{"t":"hello"}"#, r#"{"t":"hello","d":{"protocol":0}}"#] {
            let error = ClientMessage::parse(other).unwrap_err();
            assert!(matches!(error, ParseError::OtherProtocol(_)));
            assert!(error.to_string().ends_with("reload the page"), "{error}");
        }
    }
}
