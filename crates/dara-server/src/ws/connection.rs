//! One socket served by one task: its frames are read, and what it is sent waits in its
//! [`Outlet`], which the task writes in one go each time it wakes, and which the game it is
//! connected to writes as well (see `crate::outlet`).
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
use crate::outlet::{Ending, Gone, Heard, Outlet};
use crate::protocol::Wire;

/// A connection: its outlet (which holds the WebSocket, when it is on this node), and for a
/// socket on another node of the cluster, the relay its frames come through (see
/// `cluster::relay`).
pub(crate) struct Connection {
    outlet: Outlet,
    relay: Option<RelayLink>,
    /// How long a write may wait for the peer to take bytes: a client that reads nothing for
    /// this long is as lost as a silent one, and must not hold its task forever.
    write_timeout: Duration,
}

/// Where a closing connection's last frames go.
// Nearly every connection is a socket, so the enum is as large as a socket either way; boxing
// it would only add an allocation, once in a socket's life.
#[allow(clippy::large_enum_variant)]
enum Link {
    Socket(WebSocket),
    Relayed(RelayLink),
}

impl Connection {
    pub(crate) fn new(socket: WebSocket, write_timeout: Duration) -> Connection {
        Connection { outlet: Outlet::new(Some(socket)), relay: None, write_timeout }
    }

    /// A connection whose socket is on another node.
    pub(crate) fn relayed(link: RelayLink, write_timeout: Duration) -> Connection {
        Connection { outlet: Outlet::new(None), relay: Some(link), write_timeout }
    }

    /// Its outlet, for the game it connects to.
    pub(crate) fn outlet(&self) -> &Outlet {
        &self.outlet
    }

    /// Lends the WebSocket out, for a connection on this node (to be relayed to another).
    pub(crate) fn lend_socket(&mut self) -> Option<WebSocket> {
        self.outlet.take_socket().map(|(socket, _)| socket)
    }

    /// Gives back the WebSocket lent out.
    pub(crate) fn give_back(&mut self, socket: WebSocket) {
        self.outlet.give_back(socket);
    }

    /// What comes next: a frame from the peer, the peer gone, a write the game left unfinished,
    /// or the game ending the connection.
    pub(crate) async fn next(&mut self) -> Heard {
        let Connection { outlet, relay, .. } = self;
        std::future::poll_fn(|cx| {
            let heard = outlet.poll_heard(cx, relay.is_none());
            match (heard, relay.as_mut()) {
                (Poll::Pending, Some(link)) => {
                    link.poll_next(cx).map(|frame| frame.map_or(Heard::Nothing, Heard::Frame))
                }
                (heard, _) => heard,
            }
        })
        .await
    }

    /// Queues a message for the next flush.
    pub(crate) fn queue(&mut self, text: Wire) {
        self.outlet.push(Message::Text(text));
    }

    /// Queues a ping for the next flush.
    pub(crate) fn queue_ping(&mut self) {
        self.outlet.push(Message::Ping(Default::default()));
    }

    /// Writes everything queued, in order, in one send when it fits.
    pub(crate) async fn flush(&mut self) -> Result<(), Gone> {
        let sent = match &mut self.relay {
            None => {
                let outlet = &self.outlet;
                let write = std::future::poll_fn(|cx| outlet.poll_write(cx));
                matches!(within(self.write_timeout, write).await, Some(Ok(())))
            }
            Some(link) => {
                let waiting = self.outlet.take_waiting();
                if waiting.is_empty() {
                    return Ok(());
                }
                // Boxed: only a relayed connection sends this way, and inline its state would
                // make every connection's task larger (see `ws::game::serve_game`).
                let send = Box::pin(link.send(waiting));
                matches!(within(self.write_timeout, send).await, Some(true))
            }
        };
        if sent {
            Ok(())
        } else {
            Err(Gone)
        }
    }

    /// Ends the connection as `ending` says. From here on its game writes nothing more to it.
    ///
    /// The closing handshake is boxed: it is awaited once in a socket's life, and inline it
    /// would be the largest state of the task that holds every idle socket.
    pub(crate) async fn finish(self, ending: Ending) {
        let Connection { outlet, relay, write_timeout } = self;
        let (link, queued) = match (outlet.take_socket(), relay) {
            (Some((socket, queued)), _) => (Link::Socket(socket), queued),
            (None, Some(link)) => (Link::Relayed(link), outlet.take_waiting()),
            (None, None) => return,
        };
        let closing = Closing { link, queued, write_timeout };
        match ending {
            Ending::Gone => {}
            Ending::Quietly => Box::pin(closing.end()).await,
            Ending::Closed(code, reason) => Box::pin(closing.close(code, reason)).await,
        }
    }
}

/// A connection being closed, its socket taken back from its outlet.
struct Closing {
    link: Link,
    queued: Vec<Message>,
    write_timeout: Duration,
}

impl Closing {
    /// Writes everything queued.
    async fn flush(&mut self) -> Result<(), Gone> {
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
