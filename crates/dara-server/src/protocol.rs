//! The WebSocket messages, both ways: small JSON objects `{"t": type, "d": data, "v": version}`
//! (see `PROTOCOL.md`). Parsing is in two steps, the envelope then the data, so that every
//! mistake gets a reason a person can read.

use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{json, Value};

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

impl ClientMessage {
    /// Reads one text frame, or says what is wrong with it.
    pub fn parse(text: &str) -> Result<ClientMessage, String> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| format!("not a message: this is not JSON ({e})"))?;
        if !value.is_object() {
            return Err("not a message: expected a JSON object with a \"t\" field".to_owned());
        }
        let envelope: Envelope = serde_json::from_value(value)
            .map_err(|_| "not a message: expected a JSON object with a \"t\" field".to_owned())?;
        let Value::String(t) = envelope.t else {
            return Err("the \"t\" field must be a string naming the message".to_owned());
        };
        let data = envelope.d;
        let bad = |e: serde_json::Error| format!("\"{t}\": bad data: {e}");
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
                    return Err("\"move\": the move text is too long to be a move".to_owned());
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
            other => {
                let shown: String = other.chars().take(32).collect();
                return Err(format!("unknown message type \"{shown}\""));
            }
        })
    }
}

/// Lag as the clock uses it.
pub fn lag(ms: u64) -> Duration {
    Duration::from_millis(ms.min(10_000))
}

/// A message with no version: replies, errors, presence.
pub fn message(t: &str, d: Value) -> Arc<str> {
    json!({ "t": t, "d": d }).to_string().into()
}

/// A game event with its version.
pub fn event(t: &str, d: Value, v: u64) -> Arc<str> {
    json!({ "t": t, "d": d, "v": v }).to_string().into()
}

/// The reply to a message that could not be read or is not allowed now.
pub fn error(reason: &str) -> Arc<str> {
    message("error", json!({ "reason": reason }))
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
        assert!(ClientMessage::parse("{").unwrap_err().starts_with("not a message"));
        assert!(ClientMessage::parse("[1]").unwrap_err().starts_with("not a message"));
        assert_eq!(
            ClientMessage::parse(r#"{"t":"dance"}"#).unwrap_err(),
            "unknown message type \"dance\""
        );
        assert_eq!(
            ClientMessage::parse(r#"{"t":7}"#).unwrap_err(),
            "the \"t\" field must be a string naming the message"
        );
        assert!(ClientMessage::parse(r#"{"t":"move","d":{"m":"c3"}}"#)
            .unwrap_err()
            .contains("missing field `id`"));
    }
}
