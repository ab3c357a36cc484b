//! What a browser may send over a game's socket. Parsing is in two steps, the envelope then the
//! data, so that every mistake gets a reason a person can read.

use core::fmt;
use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;

/// What a browser may ask of a game.
#[derive(Debug, Clone, PartialEq)]
pub enum ClientMessage {
    /// The first message: the seat token (if any) and the last version seen (if any).
    Hello {
        /// The seat token from the seat's link or local storage.
        seat: Option<String>,
        /// The version of the last event the client applied.
        since: Option<u64>,
    },
    /// Take the free seat (the invite link, or sitting at an open table).
    Join,
    /// Play a whole turn: the move in notation, captures included.
    Move {
        /// The client's own id for this turn, echoed in `accepted` or `rejected`.
        id: u64,
        /// The move, e.g. `c3-c4xe5`.
        text: String,
    },
    /// Give up.
    Resign,
    /// Offer a draw, or accept the one on offer.
    DrawOffer,
    /// Turn down the draw on offer.
    DrawDecline,
    /// Undo your last move (against the computer only).
    Takeback,
    /// Ask for (or agree to) another game with colours swapped.
    Rematch,
    /// Claim the win when the opponent has been gone long enough.
    Claim,
    /// Keep-alive carrying the browser's measured round trip, for lag-fair clocks.
    Ping {
        /// Milliseconds.
        lag: u64,
    },
}

#[derive(Deserialize)]
struct Envelope {
    t: Value,
    #[serde(default)]
    d: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HelloData {
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
}

#[derive(Deserialize)]
struct PingData {
    #[serde(default)]
    lag: u64,
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
    /// A move text far longer than any move.
    MoveTooLong,
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
            ParseError::MoveTooLong => {
                f.write_str("\"move\": the move text is too long to be a move")
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
        let value: Value =
            serde_json::from_str(text).map_err(|e| ParseError::NotJson(e.to_string()))?;
        if !value.is_object() {
            return Err(ParseError::NotAnObject);
        }
        let envelope: Envelope =
            serde_json::from_value(value).map_err(|_| ParseError::NotAnObject)?;
        let Value::String(t) = envelope.t else {
            return Err(ParseError::TypeNotText);
        };
        let data = envelope.d;
        let bad =
            |e: serde_json::Error| ParseError::BadData { t: t.clone(), detail: e.to_string() };
        Ok(match t.as_str() {
            "hello" => {
                let d: HelloData = if data.is_null() {
                    HelloData { seat: None, since: None }
                } else {
                    serde_json::from_value(data).map_err(bad)?
                };
                ClientMessage::Hello { seat: d.seat, since: d.since }
            }
            "join" => ClientMessage::Join,
            "move" => {
                let d: MoveData = serde_json::from_value(data).map_err(bad)?;
                if d.m.len() > 64 {
                    return Err(ParseError::MoveTooLong);
                }
                ClientMessage::Move { id: d.id, text: d.m }
            }
            "resign" => ClientMessage::Resign,
            "draw-offer" => ClientMessage::DrawOffer,
            "draw-decline" => ClientMessage::DrawDecline,
            "takeback" => ClientMessage::Takeback,
            "rematch" => ClientMessage::Rematch,
            "claim" => ClientMessage::Claim,
            "ping" => {
                let d: PingData = if data.is_null() {
                    PingData { lag: 0 }
                } else {
                    serde_json::from_value(data).map_err(bad)?
                };
                ClientMessage::Ping { lag: d.lag }
            }
            other => return Err(ParseError::UnknownType(other.chars().take(32).collect())),
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
            Ok(ClientMessage::Move { id: 3, text: "c3-c4xe5".into() })
        );
        assert_eq!(
            ClientMessage::parse(r#"{"t":"hello","d":{"seat":"ab","since":4}}"#),
            Ok(ClientMessage::Hello { seat: Some("ab".into()), since: Some(4) })
        );
        assert_eq!(
            ClientMessage::parse(r#"{"t":"hello"}"#),
            Ok(ClientMessage::Hello { seat: None, since: None })
        );
        assert_eq!(ClientMessage::parse(r#"{"t":"resign"}"#), Ok(ClientMessage::Resign));
    }

    #[test]
    fn explains_what_is_wrong() {
        let said = |text: &str| ClientMessage::parse(text).unwrap_err().to_string();
        assert!(said("{").starts_with("not a message"));
        assert!(said("[1]").starts_with("not a message"));
        assert_eq!(said(r#"{"t":"dance"}"#), "unknown message type \"dance\"");
        assert_eq!(said(r#"{"t":7}"#), "the \"t\" field must be a string naming the message");
        assert!(said(r#"{"t":"move","d":{"m":"c3"}}"#).contains("missing field `id`"));
    }
}
