//! What a connection is sent, shared by the connection's own task and the game it is connected
//! to. The game's owner writes its answers and events to the socket itself, at once, when the
//! socket takes the bytes (on loopback and on a healthy line it nearly always does): a turn
//! then wakes two tasks, the mover's socket to read it and the game's owner to play, tell and
//! answer, as it did when the socket's task played the turn under the game's lock. The
//! opponent's and the watchers' socket tasks sleep through it. What a socket does not take at
//! once is left here, and its own task is woken to finish the write, within its write timeout.
//!
//! The socket itself sits here, behind a plain mutex held only while a frame is read or a write
//! is handed to it, never across an await.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

use axum::extract::ws::{Message, WebSocket};
use futures_util::task::noop_waker_ref;
use futures_util::{Sink, Stream};

use crate::protocol::close;
use crate::protocol::Wire;

/// How a connection's task leaves its socket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The peer is gone or stopped reading: nothing more is written.
    Gone,
    /// Without a reason: what is queued is sent, then a close frame.
    Quietly,
    /// With a close frame's code and reason.
    Closed(u16, &'static str),
}

impl Ending {
    /// The game has ended its life on the server: the page stops.
    pub const GAME_GONE: Ending =
        Ending::Closed(close::GONE, "this game has finished and been forgotten");
    /// The game stopped here but is kept: another node runs it now, or this one could not keep
    /// its last change (Redis unreachable). The page reconnects and resends what was not
    /// acknowledged.
    pub const MOVED: Ending =
        Ending::Closed(close::RESTARTING, "the game cannot go on on this server: reconnecting");
    /// Newer connections to the same seat replaced this one.
    pub const REPLACED: Ending =
        Ending::Closed(close::REPLACED, "this game is open in other tabs or windows: go on there");
    /// The connection fell too far behind: it reconnects with its last version and gets
    /// exactly what it missed.
    pub const BEHIND: Ending = Ending::Closed(close::BEHIND, "fell behind: reconnect to catch up");
}

/// The peer is gone, or stopped reading: the socket is finished.
#[derive(Debug)]
pub struct Gone;

/// The most messages a connection may be told while its socket takes nothing, before it is
/// closed as fallen behind (it reconnects with its last version and gets exactly what it missed
/// from the journal). The socket's own buffers hold far more than a game tells in a while: this
/// is reached only by a client that stopped reading. What it is sent as a welcome or an answer
/// does not count: a catch-up of a hundred events is written at the pace the socket takes it.
const MOST_BEHIND: usize = 16;

/// The most requests a connection may have posted to its game and not yet had answered: its
/// task reads no further frame until the game catches up, so a game that waits on its store
/// (a paused disk, a slow Redis) never gathers more than this many of one socket's letters.
pub const MOST_ASKED: u32 = 4;

/// A connection's write side (and, for a socket on this node, the socket), shared between its
/// task and its game.
#[derive(Debug, Clone)]
pub struct Outlet(Arc<Mutex<Out>>);

/// What an outlet holds.
struct Out {
    /// The WebSocket, when it is on this node and not lent out; `None` for a connection whose
    /// frames its task carries elsewhere (relayed to another node) or reads itself (a test).
    socket: Option<WebSocket>,
    /// What waits to be handed to the socket, in order.
    waiting: VecDeque<Message>,
    /// Whether the socket was handed messages it has not yet flushed to the peer.
    unflushed: bool,
    /// How many messages it was told since its socket last took all that waited.
    behind: usize,
    /// The connection's task, woken when something is left for it.
    task: Option<Waker>,
    /// How the game wants the connection ended, once what waits is written.
    end: Option<Ending>,
    /// Requests posted to the game and not yet answered.
    asked: u32,
}

impl std::fmt::Debug for Out {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Out")
            .field("here", &self.socket.is_some())
            .field("waiting", &self.waiting.len())
            .field("end", &self.end)
            .field("asked", &self.asked)
            .finish_non_exhaustive()
    }
}

/// What a connection's task finds when it looks at its outlet.
#[derive(Debug)]
pub enum Heard {
    /// A frame from the peer.
    Frame(Message),
    /// The peer is gone (or its socket broke, an oversized frame included).
    Nothing,
    /// The game left something the socket did not take at once: the task is to write it.
    Owed,
    /// The game ends the connection.
    End(Ending),
}

impl Outlet {
    /// An outlet for `socket`, or, with `None`, one whose messages its task takes (see
    /// [`Outlet::take_waiting`]).
    pub fn new(socket: Option<WebSocket>) -> Outlet {
        Outlet(Arc::new(Mutex::new(Out {
            socket,
            waiting: VecDeque::new(),
            unflushed: false,
            behind: 0,
            task: None,
            end: None,
            asked: 0,
        })))
    }

    fn lock(&self) -> MutexGuard<'_, Out> {
        // Nothing panics while holding it; a poisoned lock still holds a consistent outlet.
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    // --- The game's side ------------------------------------------------------------------

    /// Queues `wire` to be written with the next [`Outlet::send`], without writing it yet.
    pub fn queue(&self, wire: Wire) {
        self.lock().waiting.push_back(Message::Text(wire));
    }

    /// Queues the answer to one of the connection's requests (see [`Outlet::queue`]): the
    /// connection may post another.
    pub fn answer(&self, wire: Wire) {
        let mut out = self.lock();
        out.waiting.push_back(Message::Text(wire));
        if out.asked == MOST_ASKED {
            wake(&mut out);
        }
        out.asked = out.asked.saturating_sub(1);
    }

    /// Queues `told` after what waits, and writes it all now, as far as the socket takes it at
    /// once; the rest is left for the connection's task. A connection too far behind is ended.
    pub fn send(&self, told: &[Wire]) {
        let mut out = self.lock();
        if out.end.is_some() {
            return;
        }
        out.waiting.extend(told.iter().cloned().map(Message::Text));
        if out.waiting.is_empty() && !out.unflushed {
            return;
        }
        // Not the task's waker: the task is woken below if it has anything to finish, and then
        // waits for the socket with its own.
        let done = write(&mut out, &mut Context::from_waker(noop_waker_ref()));
        match done {
            Poll::Ready(Ok(())) => out.behind = 0,
            Poll::Ready(Err(Gone)) => end(&mut out, Ending::Gone),
            Poll::Pending => {
                out.behind += told.len();
                if out.behind > MOST_BEHIND {
                    out.waiting.clear();
                    end(&mut out, Ending::BEHIND);
                } else {
                    wake(&mut out);
                }
            }
        }
    }

    /// Ends the connection as `ending` says, once what waits is written (the first ending
    /// asked for is kept).
    pub fn end(&self, ending: Ending) {
        end(&mut self.lock(), ending);
    }

    // --- The connection's side ------------------------------------------------------------

    /// Notes one more request posted to the game.
    pub fn asked(&self) {
        self.lock().asked += 1;
    }

    /// What the task is to do next: finish a write the game left, end as the game said, or
    /// read the next frame (unless `read` is false: the frames come from elsewhere). No frame
    /// is read while [`MOST_ASKED`] requests wait for their answers.
    pub fn poll_heard(&self, cx: &mut Context<'_>, read: bool) -> Poll<Heard> {
        let mut out = self.lock();
        if !out.task.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
            out.task = Some(cx.waker().clone());
        }
        if !out.waiting.is_empty() || out.unflushed {
            return Poll::Ready(Heard::Owed);
        }
        if let Some(ending) = out.end {
            return Poll::Ready(Heard::End(ending));
        }
        if !read || out.asked >= MOST_ASKED {
            return Poll::Pending;
        }
        let Some(socket) = &mut out.socket else { return Poll::Pending };
        match Pin::new(socket).poll_next(cx) {
            Poll::Ready(Some(Ok(frame))) => Poll::Ready(Heard::Frame(frame)),
            Poll::Ready(_) => Poll::Ready(Heard::Nothing),
            Poll::Pending => Poll::Pending,
        }
    }

    /// Writes what waits to the socket on this node, waiting for it to take it.
    pub fn poll_write(&self, cx: &mut Context<'_>) -> Poll<Result<(), Gone>> {
        let mut out = self.lock();
        let written = write(&mut out, cx);
        if matches!(written, Poll::Ready(Ok(()))) {
            out.behind = 0;
        }
        written
    }

    /// Queues `message` for the task's next write.
    pub fn push(&self, message: Message) {
        self.lock().waiting.push_back(message);
    }

    /// Drops what waits to be written (a welcome made from what was not kept).
    pub fn clear(&self) {
        self.lock().waiting.clear();
    }

    /// Takes what waits, for a task that carries it elsewhere itself (a relayed connection).
    pub fn take_waiting(&self) -> Vec<Message> {
        let mut out = self.lock();
        out.behind = 0;
        out.waiting.drain(..).collect()
    }

    /// Whether the socket is on this node (not relayed, not lent out).
    pub fn is_here(&self) -> bool {
        self.lock().socket.is_some()
    }

    /// Lends the socket out (to be carried to another node), or takes it for its closing
    /// handshake, with what still waits to be written to it; nothing the game sends is written
    /// to it meanwhile.
    pub fn take_socket(&self) -> Option<(WebSocket, Vec<Message>)> {
        let mut out = self.lock();
        let socket = out.socket.take()?;
        Some((socket, out.waiting.drain(..).collect()))
    }

    /// Gives back a socket lent out.
    pub fn give_back(&self, socket: WebSocket) {
        self.lock().socket = Some(socket);
    }
}

/// Hands the socket what waits and flushes it, as far as it goes without waiting.
fn write(out: &mut Out, cx: &mut Context<'_>) -> Poll<Result<(), Gone>> {
    let Out { socket, waiting, unflushed, .. } = out;
    let Some(socket) = socket else {
        // Nothing here to write to: the task takes it.
        return if waiting.is_empty() { Poll::Ready(Ok(())) } else { Poll::Pending };
    };
    let mut socket = Pin::new(socket);
    while !waiting.is_empty() {
        match socket.as_mut().poll_ready(cx) {
            Poll::Ready(Ok(())) => {}
            Poll::Ready(Err(_)) => return Poll::Ready(Err(Gone)),
            Poll::Pending => return Poll::Pending,
        }
        let Some(message) = waiting.pop_front() else { break };
        if socket.as_mut().start_send(message).is_err() {
            return Poll::Ready(Err(Gone));
        }
        *unflushed = true;
    }
    if *unflushed {
        match socket.poll_flush(cx) {
            Poll::Ready(Ok(())) => *unflushed = false,
            Poll::Ready(Err(_)) => return Poll::Ready(Err(Gone)),
            Poll::Pending => return Poll::Pending,
        }
    }
    Poll::Ready(Ok(()))
}

fn end(out: &mut Out, ending: Ending) {
    if out.end.is_none() {
        out.end = Some(ending);
        wake(out);
    }
}

fn wake(out: &mut Out) {
    if let Some(task) = &out.task {
        task.wake_by_ref();
    }
}
