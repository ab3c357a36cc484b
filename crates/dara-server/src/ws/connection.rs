//! One socket served by one task: its frames are read, and what it is sent is gathered and
//! written in one go each time the task wakes.
//!
//! A turn's `accepted` and its `move` event leave in one write. On loopback, where the load
//! tests run, a send costs about as much as everything else a turn does, and a task per
//! direction (reader, writer, forwarder of events) costs three wake-ups where one is enough.

use std::future::Future;
use std::task::Poll;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};

use crate::cluster::relay::RelayLink;
use crate::protocol::Wire;

/// The peer is gone, or stopped reading: the socket is finished.
#[derive(Debug)]
pub(crate) struct Gone;

/// How a connection's task leaves its socket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The peer is gone or stopped reading: nothing more is written.
    Gone,
    /// Without a reason (see [`Connection::end`]).
    Quietly,
    /// With a close frame's code and reason (see [`Connection::close`]).
    Closed(u16, &'static str),
}

/// Where a connection's frames come from and go: a WebSocket on this node, or one on another
/// node of the cluster, relayed through Redis (see `cluster::relay`).
// Nearly every connection is a socket, so the enum is as large as a socket either way; boxing
// it would only add an allocation and a pointer to follow at every frame.
#[allow(clippy::large_enum_variant)]
enum Link {
    Socket(WebSocket),
    Relayed(RelayLink),
}

/// A WebSocket and what it is to be sent at the next flush.
pub(crate) struct Connection {
    link: Link,
    queued: Vec<Message>,
    /// How long a write may wait for the peer to take bytes: a client that reads nothing for
    /// this long is as lost as a silent one, and must not hold its task forever.
    write_timeout: Duration,
}

impl Connection {
    pub(crate) fn new(socket: WebSocket, write_timeout: Duration) -> Connection {
        Connection { link: Link::Socket(socket), queued: Vec::new(), write_timeout }
    }

    /// A connection whose socket is on another node.
    pub(crate) fn relayed(link: RelayLink, write_timeout: Duration) -> Connection {
        Connection { link: Link::Relayed(link), queued: Vec::new(), write_timeout }
    }

    /// The WebSocket, for a connection on this node.
    pub(crate) fn socket(&mut self) -> Option<&mut WebSocket> {
        match &mut self.link {
            Link::Socket(socket) => Some(socket),
            Link::Relayed(_) => None,
        }
    }

    /// The next frame from the peer; `None` when the socket has ended or broken (an oversized
    /// frame included).
    pub(crate) async fn next(&mut self) -> Option<Message> {
        match &mut self.link {
            Link::Socket(socket) => match socket.next().await {
                Some(Ok(frame)) => Some(frame),
                _ => None,
            },
            Link::Relayed(link) => link.next().await,
        }
    }

    /// Queues a message for the next flush.
    pub(crate) fn queue(&mut self, text: Wire) {
        self.queued.push(Message::Text(text));
    }

    /// Queues a ping for the next flush.
    pub(crate) fn queue_ping(&mut self) {
        self.queued.push(Message::Ping(Default::default()));
    }

    /// Writes everything queued, in order, in one send when it fits.
    pub(crate) async fn flush(&mut self) -> Result<(), Gone> {
        if self.queued.is_empty() {
            return Ok(());
        }
        let queued = &mut self.queued;
        let sent = match &mut self.link {
            Link::Socket(socket) => {
                let write = std::pin::pin!(async {
                    for message in queued.drain(..) {
                        socket.feed(message).await?;
                    }
                    socket.flush().await
                });
                matches!(within(self.write_timeout, write).await, Some(Ok(())))
            }
            Link::Relayed(link) => {
                // Boxed: only a relayed connection sends this way, and inline its state would
                // make every connection's task larger (see `ws::game::serve_game`).
                let send = Box::pin(link.send(std::mem::take(queued)));
                matches!(within(self.write_timeout, send).await, Some(true))
            }
        };
        if sent {
            Ok(())
        } else {
            Err(Gone)
        }
    }

    /// Ends the socket as `ending` says.
    ///
    /// The closing handshake is boxed: it is awaited once in a socket's life, and inline it
    /// would be the largest state of the task that holds every idle socket (it holds the whole
    /// connection by value), about 1.5 KB more for every socket, most of them idle.
    pub(crate) async fn finish(self, ending: Ending) {
        match ending {
            Ending::Gone => {}
            Ending::Quietly => Box::pin(self.end()).await,
            Ending::Closed(code, reason) => Box::pin(self.close(code, reason)).await,
        }
    }

    /// Sends what is queued, then a close frame with `code` and `reason`, and ends the socket.
    async fn close(mut self, code: u16, reason: &'static str) {
        self.queued.push(Message::Close(Some(CloseFrame { code, reason: reason.into() })));
        if self.flush().await.is_ok() {
            self.drain().await;
        }
    }

    /// Ends the socket without a reason: sends what is queued (and the reply to the peer's own
    /// close, if it sent one), then a close frame.
    async fn end(mut self) {
        let _ = self.flush().await;
        let write_timeout = self.write_timeout;
        match &mut self.link {
            Link::Socket(socket) => {
                if tokio::time::timeout(write_timeout, socket.close()).await.is_ok() {
                    self.drain().await;
                }
            }
            Link::Relayed(link) => {
                let _ = link.send(vec![Message::Close(None)]).await;
            }
        }
    }

    /// Reads and drops what the client still sends until its own close, for at most a second.
    /// Dropping the socket with unread bytes would make the kernel reset it, and the reset can
    /// reach the client before the close frame does, leaving it without the reason.
    async fn drain(&mut self) {
        let Link::Socket(socket) = &mut self.link else { return };
        let drain = async {
            while let Some(Ok(frame)) = socket.next().await {
                if matches!(frame, Message::Close(_)) {
                    break;
                }
            }
        };
        let _ = tokio::time::timeout(Duration::from_secs(1), drain).await;
    }
}

/// `write`'s outcome, or `None` if it took longer than `limit`. Nearly every write is done at
/// its first try (the kernel takes the bytes at once): the timer is only set for one that has to
/// wait, since setting and cancelling one costs as much as a small write. The write comes
/// pinned where it was made: moved in here, it would be held twice in the task's state.
async fn within<W: Future + Unpin>(limit: Duration, mut write: W) -> Option<W::Output> {
    let first =
        std::future::poll_fn(|cx| Poll::Ready(std::pin::Pin::new(&mut write).poll(cx))).await;
    match first {
        Poll::Ready(done) => Some(done),
        Poll::Pending => tokio::time::timeout(limit, write).await.ok(),
    }
}
