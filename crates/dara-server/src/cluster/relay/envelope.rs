//! What crosses Redis between the node a relayed socket reached (its edge) and the node that
//! runs its game (its owner): an [`Envelope`], one of four kinds, each as JSON.
//!
//! The JSON is the one every release since the cluster began has sent (`way`, `edge`, `conn`,
//! then `owner`, `open` or `sit` as the kind needs, then `frames`): nodes of two releases
//! relay each other's sockets during a rolling upgrade, so the text is pinned by a test, and
//! the typed kinds are read from it and written to it through [`Wire`].

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::redis::node::NodeName;
use crate::seat::{GameId, SeatHash};

/// One frame of a relayed socket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "f", rename_all = "kebab-case")]
pub enum Frame {
    /// A text message.
    Text {
        /// Its text.
        t: String,
    },
    /// A binary message (refused by the owner, as from any socket).
    Binary,
    /// A WebSocket ping (from the owner's heartbeat).
    Ping,
    /// A WebSocket pong (the browser answering the ping).
    Pong,
    /// The socket closes, with a code and reason.
    Close {
        /// The close code.
        code: u16,
        /// Why.
        reason: String,
    },
}

impl Frame {
    /// The socket has ended, with no more to say.
    pub(super) fn gone() -> Frame {
        Frame::Close { code: 1000, reason: String::new() }
    }
}

/// One message between an edge and an owner. Every kind names the socket by its edge node and
/// its number there (`conn`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Envelope {
    /// To the owner: a socket opens for `game`, with the frames that came with it.
    Open { edge: NodeName, conn: u64, game: GameId, frames: Vec<Frame> },
    /// To the owner: not a socket but a question. May the holder of the seat hash `hash` sit
    /// at `game`'s open table? (The lobby's "Sit down" and "play anyone", from a node that
    /// does not run the game.) Answered with one text frame: `white`, `black`, `taken` or
    /// `closed`.
    Sit { edge: NodeName, conn: u64, game: GameId, hash: SeatHash },
    /// To the owner: frames from an open socket.
    FromSocket { edge: NodeName, conn: u64, frames: Vec<Frame> },
    /// To the edge: frames for the socket, from `owner` (so that the edge can tell the words of
    /// a node that no longer runs the game).
    ToSocket { edge: NodeName, conn: u64, owner: NodeName, frames: Vec<Frame> },
}

/// Which way a message goes: to the node that runs the game, or back to the socket's node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Way {
    ToOwner,
    ToEdge,
}

/// An envelope as JSON has it: the fields of every kind, each there only when its kind has it.
#[derive(Serialize, Deserialize)]
struct Wire<'a> {
    way: Way,
    edge: Cow<'a, str>,
    conn: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    owner: Option<Cow<'a, str>>,
    /// The game, on a socket's first message or a question.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    open: Option<Cow<'a, str>>,
    /// The seat hash, in hex, of a question.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sit: Option<String>,
    frames: Cow<'a, [Frame]>,
}

impl<'a> Wire<'a> {
    /// The fields every kind has.
    fn new(way: Way, edge: &'a NodeName, conn: u64, frames: &'a [Frame]) -> Wire<'a> {
        let edge = Cow::Borrowed(edge.as_str());
        Wire { way, edge, conn, owner: None, open: None, sit: None, frames: Cow::Borrowed(frames) }
    }
}

impl Envelope {
    fn wire(&self) -> Wire<'_> {
        match self {
            Envelope::Open { edge, conn, game, frames } => Wire {
                open: Some(game.as_str().into()),
                ..Wire::new(Way::ToOwner, edge, *conn, frames)
            },
            Envelope::Sit { edge, conn, game, hash } => Wire {
                open: Some(game.as_str().into()),
                sit: Some(hash.to_hex()),
                ..Wire::new(Way::ToOwner, edge, *conn, &[])
            },
            Envelope::FromSocket { edge, conn, frames } => {
                Wire::new(Way::ToOwner, edge, *conn, frames)
            }
            Envelope::ToSocket { edge, conn, owner, frames } => Wire {
                owner: Some(owner.as_str().into()),
                ..Wire::new(Way::ToEdge, edge, *conn, frames)
            },
        }
    }
}

impl TryFrom<Wire<'_>> for Envelope {
    type Error = String;

    fn try_from(wire: Wire<'_>) -> Result<Envelope, String> {
        let node = |name: &str| {
            name.parse::<NodeName>().map_err(|_| format!("{name:?} is not a node's name"))
        };
        let edge = node(&wire.edge)?;
        let conn = wire.conn;
        let frames = wire.frames.into_owned();
        match (wire.way, wire.open, wire.sit) {
            (Way::ToOwner, Some(game), sit) => {
                let game =
                    GameId::parse(&game).ok_or_else(|| format!("{game:?} is not a game id"))?;
                match sit {
                    None => Ok(Envelope::Open { edge, conn, game, frames }),
                    Some(hash) => match SeatHash::from_hex(&hash) {
                        Some(hash) => Ok(Envelope::Sit { edge, conn, game, hash }),
                        None => Err(format!("{hash:?} is not a seat hash")),
                    },
                }
            }
            (Way::ToOwner, None, None) => Ok(Envelope::FromSocket { edge, conn, frames }),
            (Way::ToOwner, None, Some(_)) => Err("a question to sit that names no game".into()),
            (Way::ToEdge, _, _) => match wire.owner {
                Some(owner) => Ok(Envelope::ToSocket { edge, conn, owner: node(&owner)?, frames }),
                None => Err("frames for a socket that name no owner".into()),
            },
        }
    }
}

impl Serialize for Envelope {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.wire().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Envelope {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Envelope, D::Error> {
        Envelope::try_from(Wire::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "0123456789abcdef";
    const HASH: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    /// Every frame there is, in the order the pinned envelopes carry them.
    fn every_frame() -> Vec<Frame> {
        vec![
            Frame::Text { t: "{\"t\":\"move\"}".into() },
            Frame::Binary,
            Frame::Ping,
            Frame::Pong,
            Frame::Close { code: 4000, reason: "why".into() },
        ]
    }

    const FRAMES: &str = r#"[{"f":"text","t":"{\"t\":\"move\"}"},{"f":"binary"},{"f":"ping"},{"f":"pong"},{"f":"close","code":4000,"reason":"why"}]"#;

    /// Each kind of envelope as it crosses Redis, taken from the release before the envelope
    /// was typed: a node of either release reads what the other sends (a rolling upgrade runs
    /// both side by side), so these texts are a promise, not a detail.
    fn pinned() -> Vec<(Envelope, String)> {
        let edge: NodeName = "edge.0a1b2c".parse().unwrap();
        let game = GameId::parse(GAME).unwrap();
        vec![
            (
                Envelope::Sit {
                    edge: edge.clone(),
                    conn: 7,
                    game: game.clone(),
                    hash: SeatHash::from_hex(HASH).unwrap(),
                },
                format!(
                    r#"{{"way":"to-owner","edge":"edge.0a1b2c","conn":7,"open":"{GAME}","sit":"{HASH}","frames":[]}}"#
                ),
            ),
            (
                Envelope::Open { edge: edge.clone(), conn: 7, game, frames: Vec::new() },
                format!(
                    r#"{{"way":"to-owner","edge":"edge.0a1b2c","conn":7,"open":"{GAME}","frames":[]}}"#
                ),
            ),
            (
                Envelope::FromSocket { edge: edge.clone(), conn: 7, frames: every_frame() },
                format!(r#"{{"way":"to-owner","edge":"edge.0a1b2c","conn":7,"frames":{FRAMES}}}"#),
            ),
            (
                Envelope::ToSocket {
                    edge,
                    conn: 7,
                    owner: "owner.3d4e5f".parse().unwrap(),
                    frames: every_frame(),
                },
                format!(
                    r#"{{"way":"to-edge","edge":"edge.0a1b2c","conn":7,"owner":"owner.3d4e5f","frames":{FRAMES}}}"#
                ),
            ),
        ]
    }

    #[test]
    fn envelopes_cross_redis_as_they_always_have() {
        for (envelope, text) in pinned() {
            assert_eq!(serde_json::to_string(&envelope).unwrap(), text);
            let read: Envelope = serde_json::from_str(&text).unwrap();
            assert_eq!(read, envelope, "{text}");
        }
    }

    /// An opening's frames are the socket's first (a previous release never sent any, but
    /// read them), and a question's are none.
    #[test]
    fn an_opening_keeps_the_frames_that_came_with_it() {
        let text = format!(
            r#"{{"way":"to-owner","edge":"e","conn":1,"open":"{GAME}","frames":[{{"f":"ping"}}]}}"#
        );
        let read: Envelope = serde_json::from_str(&text).unwrap();
        assert!(matches!(read, Envelope::Open { frames, .. } if frames == [Frame::Ping]));
    }

    /// What no node sends is not read: a message that is not one of the kinds, or names a
    /// node, a game or a seat hash that cannot be.
    #[test]
    fn only_the_four_kinds_read() {
        let hash = HASH;
        for text in [
            r#"{"way":"to-owner","edge":"e","conn":1,"sit":"00","frames":[]}"#.to_owned(),
            r#"{"way":"to-edge","edge":"e","conn":1,"frames":[]}"#.to_owned(),
            r#"{"way":"to-owner","edge":"e","conn":1}"#.to_owned(),
            r#"{"way":"sideways","edge":"e","conn":1,"frames":[]}"#.to_owned(),
            r#"{"way":"to-owner","edge":"e:1","conn":1,"frames":[]}"#.to_owned(),
            r#"{"way":"to-edge","edge":"e","conn":1,"owner":"o/1","frames":[]}"#.to_owned(),
            r#"{"way":"to-owner","edge":"e","conn":1,"open":"G","frames":[]}"#.to_owned(),
            format!(
                r#"{{"way":"to-owner","edge":"e","conn":1,"open":"{GAME}","sit":"{}","frames":[]}}"#,
                &hash[1..]
            ),
        ] {
            assert!(serde_json::from_str::<Envelope>(&text).is_err(), "{text}");
        }
    }
}
