//! The server's side of a socket's liveness: pings to a quiet socket, the close of a silent one,
//! and the close of every socket when the server stops.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::time::{Instant, Sleep};

use crate::protocol::close;
use crate::state::AppState;

/// What a socket is sent of the server's own accord.
pub(crate) enum Beat {
    Ping,
    Close(u16, &'static str),
}

/// Pings a socket and notices when it has gone silent (no message, no pong) for longer than
/// the server allows, or when the server begins to stop. A browser answers pings by itself
/// while its page lives; a frozen tab, a sleeping laptop or a cut cable does not.
///
/// Its two futures live as long as the socket and are polled where they stand: with tens of
/// thousands of sockets, building them afresh at each of a socket's wake-ups (a timer entry, a
/// place in the stop signal's list of waiters) would cost more than the heartbeat itself.
pub(crate) struct Heartbeat {
    /// Wakes the socket when it may next need a ping or a close. It is not moved forward each
    /// time the socket is heard (that would touch the timer wheel for every message): when it
    /// fires early it is simply set again from the last time heard.
    look: Pin<Box<Sleep>>,
    last_heard: Instant,
    silence: Duration,
    stopping: Pin<Box<dyn Future<Output = ()> + Send>>,
}

impl Heartbeat {
    pub(crate) fn new(state: &AppState) -> Heartbeat {
        let (now, silence) = (Instant::now(), state.config.silence);
        let mut stopping = state.stopping.subscribe();
        Heartbeat {
            look: Box::pin(tokio::time::sleep_until(now + silence / 2)),
            last_heard: now,
            silence,
            stopping: Box::pin(async move {
                // A dropped sender means the server is gone: stop too.
                let _ = stopping.wait_for(|stop| *stop).await;
            }),
        }
    }

    /// Something came from the socket.
    pub(crate) fn heard(&mut self) {
        self.last_heard = Instant::now();
    }

    /// Waits for what the socket must be sent of the server's own accord: a ping after half
    /// the silence allowed (and again half-way to the end, so a quiet socket is pinged twice),
    /// or its close (silent too long, or the server stopping).
    pub(crate) fn poll_beat(&mut self, cx: &mut Context<'_>) -> Poll<Beat> {
        if self.stopping.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Beat::Close(close::RESTARTING, "the server is restarting"));
        }
        loop {
            if self.look.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            let now = Instant::now();
            let quiet = now.saturating_duration_since(self.last_heard);
            let (beat, next) = if quiet >= self.silence {
                let close = Beat::Close(close::SILENT, "nothing heard: the connection seems lost");
                (Some(close), now + self.silence)
            } else if quiet >= self.silence / 2 {
                // A page that speaks (it pings when it has had nothing to send for a few
                // seconds) needs no ping: one less message for each socket every few seconds,
                // thousands a second in all.
                (Some(Beat::Ping), (now + self.silence / 4).min(self.last_heard + self.silence))
            } else {
                (None, self.last_heard + self.silence / 2)
            };
            self.look.as_mut().reset(next);
            if let Some(beat) = beat {
                return Poll::Ready(beat);
            }
        }
    }

    /// [`Heartbeat::poll_beat`] as a future, for `select!`.
    pub(crate) fn beat(&mut self) -> impl Future<Output = Beat> + '_ {
        std::future::poll_fn(move |cx| self.poll_beat(cx))
    }
}
