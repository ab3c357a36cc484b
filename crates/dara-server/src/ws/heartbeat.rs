//! The server's side of a socket's liveness: pings to a quiet socket, the close of a silent one,
//! and the close of every socket when the server stops.

use std::time::Duration;

use tokio::time::Instant;

use super::{close, Outgoing};
use crate::state::AppState;

/// Pings a socket and notices when it has gone silent (no message, no pong) for longer than
/// the server allows, or when the server begins to stop. A browser answers pings by itself
/// while its page lives; a frozen tab, a sleeping laptop or a cut cable does not.
pub(crate) struct Heartbeat {
    ticks: tokio::time::Interval,
    last_heard: Instant,
    silence: Duration,
    stopping: tokio::sync::watch::Receiver<bool>,
}

impl Heartbeat {
    /// Looks a few times within each `silence`, so that a quiet socket is pinged twice before
    /// it counts as silent.
    pub(crate) fn new(state: &AppState) -> Heartbeat {
        let (start, silence) = (Instant::now(), state.config.silence);
        let every = silence / 4;
        let mut ticks = tokio::time::interval_at(start + every, every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        Heartbeat { ticks, last_heard: start, silence, stopping: state.stopping.subscribe() }
    }

    /// Something came from the socket.
    pub(crate) fn heard(&mut self) {
        self.last_heard = Instant::now();
    }

    /// Waits for the next look at the socket: what it must be sent of the server's own accord
    /// then, if anything: a ping, or its close (silent too long, or the server stopping).
    pub(crate) async fn beat(&mut self) -> Option<Outgoing> {
        tokio::select! {
            _ = self.stopping.wait_for(|stop| *stop) => {
                Some(Outgoing::Close(close::RESTARTING, "the server is restarting"))
            }
            _ = self.ticks.tick() => {
                let quiet = self.last_heard.elapsed();
                if quiet >= self.silence {
                    Some(Outgoing::Close(close::SILENT, "nothing heard: the connection seems lost"))
                } else if quiet >= self.silence / 2 {
                    Some(Outgoing::Ping)
                } else {
                    // A page that speaks (it pings every few seconds) needs no ping: one less
                    // message for each socket every few seconds, thousands a second in all.
                    None
                }
            }
        }
    }
}
