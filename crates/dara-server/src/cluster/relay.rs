//! Sockets relayed between nodes: a player may reach any node, and only the node that holds a
//! game's lease runs it. A socket that reaches another node (the edge) is carried to the owner
//! through Redis pub/sub: every node listens on its own inbox channel, `dara:node:NAME`. The
//! edge sends the socket's frames to the owner's inbox; the owner serves them exactly as it
//! serves its own sockets (the same hello, checks and game; see `ws::game`) and sends what the
//! socket is to be told to the edge's inbox, which writes it out.
//!
//! Why pub/sub and not streams: what crosses is a live conversation, not a record. The record
//! is the game's journal, written before any `accepted`; a frame lost with a node is resent by
//! the page (the same move id) once it reconnects, and it reconnects because the edge closes
//! its socket with 1012 as soon as it cannot reach the owner. Pub/sub keeps the order of
//! one publisher's messages, and costs Redis nothing to keep.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use redis::aio::ConnectionManager;
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use super::NodeName;
use crate::game::SitRefused;
use crate::seat::{GameId, SeatHash};
use dara::Colour;

/// One frame of a relayed socket.
#[derive(Debug, Clone, Serialize, Deserialize)]
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

/// Which way a message goes: to the node that runs the game, or back to the socket's node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Way {
    ToOwner,
    ToEdge,
}

/// What crosses Redis: frames of one relayed socket, named by its edge node and its number
/// there; the first message to the owner names the game.
#[derive(Debug, Serialize, Deserialize)]
struct Envelope {
    way: Way,
    /// The edge node.
    edge: String,
    /// The socket's number on its edge.
    conn: u64,
    /// The owner, sending to the edge (so the edge can tell a stale owner's words).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    owner: Option<String>,
    /// The game, on the socket's first message to the owner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    open: Option<String>,
    /// Not a socket but a question: may the holder of this seat hash sit at the game's open
    /// table? (The lobby's "Sit down" and "play anyone", from a node that does not run the
    /// game.) Answered with one text frame: `white`, `black`, `taken` or `closed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sit: Option<String>,
    frames: Vec<Frame>,
}

/// What a message in the inbox asks of this node.
#[derive(Debug)]
pub enum Delivered {
    /// Serve a socket of another node's.
    Socket(Opened),
    /// Seat someone at an open table of a game this node runs, and answer.
    Sit {
        /// The game.
        game: GameId,
        /// The keyed hash of the token that will hold the seat.
        hash: SeatHash,
        /// Where the answer goes (see [`sat_word`]).
        answer: RelayLink,
    },
}

/// The answer to a [`Delivered::Sit`], as one word.
pub fn sat_word(sat: Option<Result<Colour, SitRefused>>) -> &'static str {
    match sat {
        Some(Ok(Colour::White)) => "white",
        Some(Ok(Colour::Black)) => "black",
        Some(Err(SitRefused::Taken)) => "taken",
        Some(Err(SitRefused::Closed)) | None => "closed",
    }
}

/// A node's inbox channel.
pub fn inbox(node: &NodeName) -> String {
    format!("dara:node:{node}")
}

/// A socket the owner serves for an edge: opened, with its frames to come.
#[derive(Debug)]
pub struct Opened {
    /// The game it is for.
    pub game: GameId,
    /// Its end at the owner.
    pub link: RelayLink,
}

/// The owner's end of a relayed socket: frames in from the edge, frames out through Redis.
#[derive(Debug)]
pub struct RelayLink {
    frames: mpsc::UnboundedReceiver<Frame>,
    edge: NodeName,
    conn: u64,
    hub: Arc<Hub>,
}

/// Every relayed socket of this node, both ways.
#[derive(Debug)]
pub struct Hub {
    node: NodeName,
    publisher: ConnectionManager,
    next_conn: AtomicU64,
    /// Sockets on this node carried to an owner elsewhere: their number, the owner, and
    /// where the owner's frames go.
    edges: Mutex<HashMap<u64, (NodeName, mpsc::UnboundedSender<Frame>)>>,
    /// Sockets elsewhere whose game this node runs.
    served: Mutex<HashMap<(NodeName, u64), mpsc::UnboundedSender<Frame>>>,
}

impl Hub {
    /// The hub of node `node`, publishing through `publisher`.
    pub fn new(node: NodeName, publisher: ConnectionManager) -> Hub {
        Hub {
            node,
            publisher,
            next_conn: AtomicU64::new(1),
            edges: Mutex::default(),
            served: Mutex::default(),
        }
    }

    /// Handles one message from this node's inbox; gives what it asks of this node, if
    /// anything.
    pub fn deliver(self: &Arc<Self>, payload: &[u8]) -> Option<Delivered> {
        let envelope: Envelope = match serde_json::from_slice(payload) {
            Ok(envelope) => envelope,
            Err(e) => {
                tracing::warn!("a relayed message does not read: {e}");
                return None;
            }
        };
        let edge: NodeName = envelope.edge.parse().ok()?;
        match envelope.way {
            Way::ToOwner => {
                if let Some(game) = envelope.open {
                    let game = GameId::parse(&game)?;
                    let (tx, frames) = mpsc::unbounded_channel();
                    for frame in envelope.frames {
                        let _ = tx.send(frame);
                    }
                    let key = (edge.clone(), envelope.conn);
                    self.served.lock().expect("relay lock").insert(key, tx);
                    let link = RelayLink { frames, edge, conn: envelope.conn, hub: self.clone() };
                    if let Some(hash) = envelope.sit {
                        let hash = SeatHash::from_hex(&hash)?;
                        return Some(Delivered::Sit { game, hash, answer: link });
                    }
                    return Some(Delivered::Socket(Opened { game, link }));
                }
                let served = self.served.lock().expect("relay lock");
                if let Some(tx) = served.get(&(edge, envelope.conn)) {
                    for frame in envelope.frames {
                        let _ = tx.send(frame);
                    }
                }
            }
            Way::ToEdge => {
                let edges = self.edges.lock().expect("relay lock");
                if let Some((owner, tx)) = edges.get(&envelope.conn) {
                    // Words from a node that no longer runs the game are not this socket's.
                    if envelope.owner.as_deref() == Some(owner.as_str()) {
                        for frame in envelope.frames {
                            let _ = tx.send(frame);
                        }
                    }
                }
            }
        }
        None
    }

    /// Asks node `owner` to seat the holder of `hash` at game `game`'s open table; `None` if
    /// it does not answer within a few seconds.
    pub async fn ask_sit(
        &self,
        owner: &NodeName,
        game: &GameId,
        hash: &SeatHash,
    ) -> Option<Result<Colour, SitRefused>> {
        let conn = self.next_conn.fetch_add(1, Ordering::Relaxed);
        let (tx, mut answer) = mpsc::unbounded_channel();
        self.edges.lock().expect("relay lock").insert(conn, (owner.clone(), tx));
        let envelope = Envelope {
            way: Way::ToOwner,
            edge: self.node.to_string(),
            conn,
            owner: None,
            open: Some(game.to_string()),
            sit: Some(hash.to_hex()),
            frames: Vec::new(),
        };
        let word = if self.publish(owner, &envelope).await {
            tokio::time::timeout(Duration::from_secs(3), answer.recv()).await.ok().flatten()
        } else {
            None
        };
        self.edges.lock().expect("relay lock").remove(&conn);
        match word? {
            Frame::Text { t } => match t.as_str() {
                "white" => Some(Ok(Colour::White)),
                "black" => Some(Ok(Colour::Black)),
                "taken" => Some(Err(SitRefused::Taken)),
                _ => Some(Err(SitRefused::Closed)),
            },
            _ => None,
        }
    }

    /// Publishes `envelope` to `to`'s inbox. False if Redis failed: the socket is then lost.
    async fn publish(&self, to: &NodeName, envelope: &Envelope) -> bool {
        let payload = serde_json::to_vec(envelope).expect("envelopes serialise");
        let mut publisher = self.publisher.clone();
        let sent: redis::RedisResult<i64> =
            redis::cmd("PUBLISH").arg(inbox(to)).arg(payload).query_async(&mut publisher).await;
        // Nobody listening: the node has died, which is the same as a failed send.
        matches!(sent, Ok(n) if n > 0)
    }

    /// The nodes this node's sockets are carried to.
    pub fn owners(&self) -> Vec<NodeName> {
        let edges = self.edges.lock().expect("relay lock");
        let mut owners: Vec<NodeName> = edges.values().map(|(owner, _)| owner.clone()).collect();
        owners.sort();
        owners.dedup();
        owners
    }

    /// Closes (1012) every socket carried to `owner`, which has stopped saying it is alive:
    /// the pages reconnect and find their games where they are taken up.
    pub fn drop_owner(&self, owner: &NodeName) {
        for (to, tx) in self.edges.lock().expect("relay lock").values() {
            if to == owner {
                let _ = tx.send(restarting());
            }
        }
    }

    /// Closes every socket relayed through this node, as when its inbox was lost: the pages
    /// reconnect, and find the games where they now are.
    pub fn drop_all(&self) {
        for (_, (_, tx)) in self.edges.lock().expect("relay lock").drain() {
            let _ = tx.send(restarting());
        }
        for (_, tx) in self.served.lock().expect("relay lock").drain() {
            let _ = tx.send(Frame::Close { code: 1012, reason: "relay lost".into() });
        }
    }
}

impl Frame {
    /// The socket has ended, with no more to say.
    fn gone() -> Frame {
        Frame::Close { code: 1000, reason: String::new() }
    }
}

fn restarting() -> Frame {
    Frame::Close {
        code: crate::ws::close::RESTARTING,
        reason: "the game's server changed: reconnecting".into(),
    }
}

impl RelayLink {
    /// The next frame from the socket; `None` once the edge has gone.
    pub async fn next(&mut self) -> Option<Message> {
        let frame = self.frames.recv().await?;
        Some(match frame {
            Frame::Text { t } => Message::Text(t.into()),
            Frame::Binary => Message::Binary(Default::default()),
            Frame::Ping => Message::Ping(Default::default()),
            Frame::Pong => Message::Pong(Default::default()),
            Frame::Close { code, reason } => {
                Message::Close(Some(CloseFrame { code, reason: reason.into() }))
            }
        })
    }

    /// Sends `messages` to the socket, in order, in one message through Redis.
    pub async fn send(&mut self, messages: Vec<Message>) -> bool {
        let frames = messages
            .into_iter()
            .filter_map(|message| match message {
                Message::Text(text) => Some(Frame::Text { t: text.as_str().to_owned() }),
                Message::Ping(_) => Some(Frame::Ping),
                Message::Pong(_) | Message::Binary(_) => None,
                Message::Close(frame) => Some(match frame {
                    Some(frame) => {
                        Frame::Close { code: frame.code, reason: frame.reason.as_str().to_owned() }
                    }
                    None => Frame::Close { code: 1000, reason: String::new() },
                }),
            })
            .collect();
        let envelope = Envelope {
            way: Way::ToEdge,
            edge: self.edge.to_string(),
            conn: self.conn,
            owner: Some(self.hub.node.to_string()),
            open: None,
            sit: None,
            frames,
        };
        self.hub.publish(&self.edge, &envelope).await
    }
}

impl Drop for RelayLink {
    fn drop(&mut self) {
        self.hub.served.lock().expect("relay lock").remove(&(self.edge.clone(), self.conn));
    }
}

/// Why an edge stopped relaying.
#[derive(Debug)]
pub enum Ended {
    /// The page closed its socket, or the owner closed it (its close frame was passed on).
    Closed,
    /// The owner cannot be reached or no longer runs the game: the page is to reconnect.
    Moved,
}

/// Carries `socket`, opened on this node, to game `game` on node `owner`, until one side
/// closes, the owner stops answering (see [`Hub::drop_owner`]) or this node stops.
pub async fn carry(
    hub: &Arc<Hub>,
    socket: &mut WebSocket,
    game: &GameId,
    owner: NodeName,
    mut stopping: tokio::sync::watch::Receiver<bool>,
) -> Ended {
    let conn = hub.next_conn.fetch_add(1, Ordering::Relaxed);
    let (tx, mut from_owner) = mpsc::unbounded_channel();
    hub.edges.lock().expect("relay lock").insert(conn, (owner.clone(), tx));
    let _gone = Unregister(hub.clone(), conn);
    let envelope = |frames, open| Envelope {
        way: Way::ToOwner,
        edge: hub.node.to_string(),
        conn,
        owner: None,
        open,
        sit: None,
        frames,
    };
    if !hub.publish(&owner, &envelope(Vec::new(), Some(game.to_string()))).await {
        return Ended::Moved;
    }
    let stopped = async move {
        // A dropped sender means the node is gone: stop too.
        let _ = stopping.wait_for(|stop| *stop).await;
    };
    tokio::pin!(stopped);
    loop {
        tokio::select! {
            frame = socket.next() => {
                let (frame, last) = match frame {
                    Some(Ok(Message::Text(text))) => (Frame::Text { t: text.as_str().to_owned() }, false),
                    Some(Ok(Message::Pong(_))) => (Frame::Pong, false),
                    // The WebSocket library answers pings itself.
                    Some(Ok(Message::Ping(_))) => continue,
                    Some(Ok(Message::Binary(_))) => (Frame::Binary, false),
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => {
                        (Frame::gone(), true)
                    }
                };
                let sent = hub.publish(&owner, &envelope(vec![frame], None)).await;
                if last {
                    return Ended::Closed;
                }
                if !sent {
                    return Ended::Moved;
                }
            }
            frame = from_owner.recv() => {
                let Some(frame) = frame else { return Ended::Moved };
                let mut frames = vec![frame];
                while let Ok(more) = from_owner.try_recv() {
                    frames.push(more);
                }
                for frame in frames {
                    let message = match frame {
                        Frame::Text { t } => Message::Text(t.into()),
                        Frame::Ping => Message::Ping(Default::default()),
                        Frame::Pong | Frame::Binary => continue,
                        // The owner is gone (see `Hub::drop_owner`): the page reconnects.
                        Frame::Close { code, .. } if code == crate::ws::close::RESTARTING => {
                            return Ended::Moved;
                        }
                        Frame::Close { code, reason } => {
                            let close = Message::Close(Some(CloseFrame { code, reason: reason.into() }));
                            let _ = socket.send(close).await;
                            return Ended::Closed;
                        }
                    };
                    if socket.feed(message).await.is_err() {
                        let _ = hub.publish(&owner, &envelope(vec![Frame::gone()], None)).await;
                        return Ended::Closed;
                    }
                }
                if socket.flush().await.is_err() {
                    let _ = hub.publish(&owner, &envelope(vec![Frame::gone()], None)).await;
                    return Ended::Closed;
                }
            }
            () = &mut stopped => {
                let _ = hub.publish(&owner, &envelope(vec![Frame::gone()], None)).await;
                return Ended::Moved;
            }
        }
    }
}

struct Unregister(Arc<Hub>, u64);

impl Drop for Unregister {
    fn drop(&mut self) {
        self.0.edges.lock().expect("relay lock").remove(&self.1);
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
        let envelope =
            |way, owner: Option<&str>, open: Option<&str>, sit: Option<&str>, frames| Envelope {
                way,
                edge: "edge.0a1b2c".into(),
                conn: 7,
                owner: owner.map(str::to_owned),
                open: open.map(str::to_owned),
                sit: sit.map(str::to_owned),
                frames,
            };
        vec![
            (
                envelope(Way::ToOwner, None, Some(GAME), Some(HASH), Vec::new()),
                format!(
                    r#"{{"way":"to-owner","edge":"edge.0a1b2c","conn":7,"open":"{GAME}","sit":"{HASH}","frames":[]}}"#
                ),
            ),
            (
                envelope(Way::ToOwner, None, Some(GAME), None, Vec::new()),
                format!(
                    r#"{{"way":"to-owner","edge":"edge.0a1b2c","conn":7,"open":"{GAME}","frames":[]}}"#
                ),
            ),
            (
                envelope(Way::ToOwner, None, None, None, every_frame()),
                format!(r#"{{"way":"to-owner","edge":"edge.0a1b2c","conn":7,"frames":{FRAMES}}}"#),
            ),
            (
                envelope(Way::ToEdge, Some("owner.3d4e5f"), None, None, every_frame()),
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
            assert_eq!(serde_json::to_string(&read).unwrap(), text, "reads back");
        }
    }
}
