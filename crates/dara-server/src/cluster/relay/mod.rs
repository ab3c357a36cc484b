//! Sockets relayed between nodes: a player may reach any node, and only the node that holds a
//! game's lease runs it. A socket that reaches another node (the edge) is carried to the owner
//! through Redis pub/sub: every node listens on its own inbox (`crate::redis::inbox`). The
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
use std::task::Poll;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;

use crate::game::mailbox::SitRefused;
use crate::redis::node::NodeName;
use crate::redis::Redis;
use crate::seat::{GameId, SeatHash};
use dara::Colour;
use envelope::Envelope;
pub use envelope::Frame;

mod envelope;

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
        // A node of a cluster keeps its games in Redis, which never pauses a game.
        Some(Err(SitRefused::Closed | SitRefused::Unkept)) | None => "closed",
    }
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
    /// Where envelopes are posted to the other nodes' inboxes.
    redis: Redis,
    next_conn: AtomicU64,
    /// Sockets on this node carried to an owner elsewhere: their number, the owner, and
    /// where the owner's frames go.
    edges: Mutex<HashMap<u64, (NodeName, mpsc::UnboundedSender<Frame>)>>,
    /// Sockets elsewhere whose game this node runs.
    served: Mutex<HashMap<(NodeName, u64), mpsc::UnboundedSender<Frame>>>,
}

impl Hub {
    /// The hub of node `node`, posting through `redis`.
    pub fn new(node: NodeName, redis: Redis) -> Hub {
        Hub {
            node,
            redis,
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
        match envelope {
            Envelope::Open { edge, conn, game, frames } => {
                let link = self.serve(edge, conn, frames);
                Some(Delivered::Socket(Opened { game, link }))
            }
            Envelope::Sit { edge, conn, game, hash } => {
                let answer = self.serve(edge, conn, Vec::new());
                Some(Delivered::Sit { game, hash, answer })
            }
            Envelope::FromSocket { edge, conn, frames } => {
                let served = self.served.lock().expect("relay lock");
                if let Some(tx) = served.get(&(edge, conn)) {
                    for frame in frames {
                        let _ = tx.send(frame);
                    }
                }
                None
            }
            Envelope::ToSocket { conn, owner: from, frames, .. } => {
                let edges = self.edges.lock().expect("relay lock");
                if let Some((owner, tx)) = edges.get(&conn) {
                    // Words from a node that no longer runs the game are not this socket's.
                    if from == *owner {
                        for frame in frames {
                            let _ = tx.send(frame);
                        }
                    }
                }
                None
            }
        }
    }

    /// Serves here the socket `conn` of node `edge`, its `frames` first.
    fn serve(self: &Arc<Self>, edge: NodeName, conn: u64, frames: Vec<Frame>) -> RelayLink {
        let (tx, rx) = mpsc::unbounded_channel();
        for frame in frames {
            let _ = tx.send(frame);
        }
        self.served.lock().expect("relay lock").insert((edge.clone(), conn), tx);
        RelayLink { frames: rx, edge, conn, hub: self.clone() }
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
        let envelope =
            Envelope::Sit { edge: self.node.clone(), conn, game: game.clone(), hash: *hash };
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

    /// Publishes `envelope` to `to`'s inbox. False if Redis failed, or nobody listens there
    /// (the node has died): the socket is then lost.
    async fn publish(&self, to: &NodeName, envelope: &Envelope) -> bool {
        let payload = serde_json::to_vec(envelope).expect("envelopes serialise");
        self.redis.post(to, payload).await
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

fn restarting() -> Frame {
    Frame::Close {
        code: crate::protocol::close::RESTARTING,
        reason: "the game's server changed: reconnecting".into(),
    }
}

impl RelayLink {
    /// The next frame from the socket; `None` once the edge has gone.
    pub async fn next(&mut self) -> Option<Message> {
        std::future::poll_fn(|cx| self.poll_next(cx)).await
    }

    /// [`RelayLink::next`], polled where it stands (beside the connection's outlet).
    pub fn poll_next(&mut self, cx: &mut std::task::Context<'_>) -> Poll<Option<Message>> {
        let Some(frame) = std::task::ready!(self.frames.poll_recv(cx)) else {
            return Poll::Ready(None);
        };
        Poll::Ready(Some(match frame {
            Frame::Text { t } => Message::Text(t.into()),
            Frame::Binary => Message::Binary(Default::default()),
            Frame::Ping => Message::Ping(Default::default()),
            Frame::Pong => Message::Pong(Default::default()),
            Frame::Close { code, reason } => {
                Message::Close(Some(CloseFrame { code, reason: reason.into() }))
            }
        }))
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
        let envelope = Envelope::ToSocket {
            edge: self.edge.clone(),
            conn: self.conn,
            owner: self.hub.node.clone(),
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
    let envelope = |frames| Envelope::FromSocket { edge: hub.node.clone(), conn, frames };
    let opening =
        Envelope::Open { edge: hub.node.clone(), conn, game: game.clone(), frames: Vec::new() };
    if !hub.publish(&owner, &opening).await {
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
                let sent = hub.publish(&owner, &envelope(vec![frame])).await;
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
                        Frame::Close { code, .. } if code == crate::protocol::close::RESTARTING => {
                            return Ended::Moved;
                        }
                        Frame::Close { code, reason } => {
                            let close = Message::Close(Some(CloseFrame { code, reason: reason.into() }));
                            let _ = socket.send(close).await;
                            return Ended::Closed;
                        }
                    };
                    if socket.feed(message).await.is_err() {
                        let _ = hub.publish(&owner, &envelope(vec![Frame::gone()])).await;
                        return Ended::Closed;
                    }
                }
                if socket.flush().await.is_err() {
                    let _ = hub.publish(&owner, &envelope(vec![Frame::gone()])).await;
                    return Ended::Closed;
                }
            }
            () = &mut stopped => {
                let _ = hub.publish(&owner, &envelope(vec![Frame::gone()])).await;
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
