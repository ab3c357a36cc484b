//! The lobby's onlookers: N sockets on `GET /ws/lobby`, as N visitors of the home page hold,
//! each counting what the server sends it while the seekers come and go. Every text frame
//! counts, whatever its type (the lobby's messages change: a list of tables, presence counts),
//! so the same driver measures any server; the types are only tallied beside.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use futures_util::StreamExt;
use hdrhistogram::Histogram;
use serde::Deserialize;
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;

use crate::loadtest::game::seat::{connect, handshake};
use crate::loadtest::pacer::Pacer;
use crate::loadtest::stats::{histogram, Percentiles};
use crate::loadtest::target::Target;

/// Where the run is: messages are counted only inside the measured window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Connecting and settling.
    Before,
    /// The seekers arrive: every message counts.
    Measuring,
    /// Over: the sockets stay open (their memory is measured) but nothing counts.
    After,
}

/// What every lobby socket shares.
#[derive(Debug)]
pub struct Listeners {
    /// Sockets that have tried to connect (the ramp is over when all have).
    pub attempted: AtomicU64,
    /// Sockets open now.
    pub open: AtomicU64,
    /// Sockets that could not connect.
    pub failed: AtomicU64,
    /// Sockets the server closed, or that broke, once open.
    pub dropped: AtomicU64,
    /// Text frames that are not JSON with a `"t"` (counted as messages all the same).
    pub unreadable: AtomicU64,
    phase: watch::Sender<Phase>,
    /// Messages each socket received inside the window, one sample per socket.
    // A std mutex: each socket records once, never across an await.
    counts: Mutex<Histogram<u64>>,
    /// Messages inside the window by type, all sockets together.
    types: Mutex<BTreeMap<String, u64>>,
}

impl Listeners {
    pub fn new() -> Listeners {
        Listeners {
            attempted: AtomicU64::new(0),
            open: AtomicU64::new(0),
            failed: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
            unreadable: AtomicU64::new(0),
            phase: watch::Sender::new(Phase::Before),
            counts: Mutex::new(histogram()),
            types: Mutex::new(BTreeMap::new()),
        }
    }

    /// Opens or closes the window.
    pub fn enter(&self, phase: Phase) {
        self.phase.send_replace(phase);
    }

    /// Messages a second per socket over a window of `seconds` (every socket that was open at
    /// its end, or closed within it, is one sample).
    pub fn per_second(&self, seconds: f64) -> Percentiles {
        Percentiles::scaled(&self.counts.lock().unwrap_or_else(|e| e.into_inner()), seconds)
    }

    /// Messages inside the window by type.
    pub fn types(&self) -> BTreeMap<String, u64> {
        self.types.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// One socket's counts at the end of the window (or of the socket).
    fn record(&self, count: u64, types: BTreeMap<String, u64>) {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).saturating_record(count);
        let mut all = self.types.lock().unwrap_or_else(|e| e.into_inner());
        for (t, n) in types {
            *all.entry(t).or_default() += n;
        }
    }
}

/// A message's type, `t`. The server writes it first, so most frames are read by their first
/// bytes: at thousands of sockets the driver would otherwise spend its core parsing lists of
/// tables it never looks at. Any other frame is read whole.
fn type_of(text: &str) -> Option<&str> {
    if let Some(rest) = text.strip_prefix(r#"{"t":""#) {
        if let Some((t, _)) = rest.split_once('"') {
            return Some(t);
        }
    }
    #[derive(Deserialize)]
    struct Typed<'a> {
        #[serde(borrow)]
        t: &'a str,
    }
    serde_json::from_str::<Typed>(text).ok().map(|typed| typed.t)
}

/// One lobby socket, from `source` if given, counting what it is sent until the process ends.
pub async fn listen(
    listeners: Arc<Listeners>,
    pacer: Arc<Pacer>,
    target: Target,
    source: Option<IpAddr>,
) {
    let mut phase = listeners.phase.subscribe();
    let opened = match connect(&pacer, &target, source).await {
        Ok(stream) => handshake(stream, &target, "/ws/lobby").await.ok(),
        Err(_) => None,
    };
    listeners.attempted.fetch_add(1, Relaxed);
    let Some(mut ws) = opened else {
        listeners.failed.fetch_add(1, Relaxed);
        return;
    };
    listeners.open.fetch_add(1, Relaxed);
    let mut count = 0;
    let mut types = BTreeMap::<String, u64>::new();
    let mut recorded = false;
    loop {
        tokio::select! {
            changed = phase.changed() => {
                if changed.is_err() { break }
                if *phase.borrow_and_update() == Phase::After && !recorded {
                    listeners.record(count, std::mem::take(&mut types));
                    recorded = true;
                }
            }
            // Reading also answers the server's pings (the library queues each pong): the
            // lobby socket needs no other keep-alive.
            frame = ws.next() => match frame {
                Some(Ok(Message::Text(text))) => {
                    if *phase.borrow() != Phase::Measuring {
                        continue;
                    }
                    count += 1;
                    match type_of(text.as_str()) {
                        Some(t) => match types.get_mut(t) {
                            Some(n) => *n += 1,
                            None => { types.insert(t.to_owned(), 1); }
                        },
                        None => { listeners.unreadable.fetch_add(1, Relaxed); }
                    }
                }
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                Some(Ok(_)) => {}
            },
        }
    }
    listeners.open.fetch_sub(1, Relaxed);
    if *phase.borrow() != Phase::After {
        listeners.dropped.fetch_add(1, Relaxed);
    }
    if *phase.borrow() == Phase::Measuring && !recorded {
        listeners.record(count, types);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dara_server::lobby::view::{LobbyMessage, LobbyView};
    use dara_server::protocol::wire;

    #[test]
    fn any_message_is_counted_by_its_type() {
        let view = LobbyView { now: 0, tables: Vec::new(), pools: &[], here: 0, playing: 0 };
        let lobby = wire(&LobbyMessage::Lobby(view));
        assert_eq!(type_of(lobby.as_str()), Some("lobby"));
        // Another order of keys, or another message, read whole.
        assert_eq!(type_of(r#"{"d": {"here": 3}, "t": "presence"}"#), Some("presence"));
        assert_eq!(type_of(r#"{"t":"lobby","d":{"tables":[],"here":12}}"#), Some("lobby"));
        assert_eq!(type_of("not json"), None);
        assert_eq!(type_of(r#"{"d": 1}"#), None);
    }

    #[test]
    fn messages_a_second_are_per_socket() {
        let listeners = Listeners::new();
        for count in [10, 20, 30, 40, 1000] {
            listeners.record(count, BTreeMap::from([("tables".to_owned(), count)]));
        }
        let rate = listeners.per_second(10.0);
        assert_eq!(rate.samples, 5);
        assert!((rate.p50 - 3.0).abs() < 0.01, "{}", rate.p50);
        assert!((rate.max - 100.0).abs() < 0.1, "{}", rate.max);
        assert_eq!(listeners.types()["tables"], 1100);
    }
}
