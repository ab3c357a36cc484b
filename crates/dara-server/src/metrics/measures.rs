//! The server's measures, which the places where things happen update and `/metrics` shows.

use std::sync::atomic::{AtomicI64, AtomicU64};

use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

use crate::store::kept::Store;

/// The server's measures, updated where things happen.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    /// Games held (in play, waiting, or finished and not yet forgotten).
    pub games: Gauge<i64, AtomicI64>,
    /// TCP connections open.
    pub connections: Gauge<i64, AtomicI64>,
    /// WebSockets open (game and lobby).
    pub sockets: Gauge<i64, AtomicI64>,
    /// In a cluster: of those, the sockets another node relays here (its browser is
    /// connected to that node, and counted there).
    pub relayed_sockets: Gauge<i64, AtomicI64>,
    /// Turns accepted, people's and the computer's.
    pub turns: Counter<u64, AtomicU64>,
    /// Seconds from a turn's frame read to its answer queued.
    pub turn_seconds: Histogram,
    /// Searches waiting for an engine thread (read when asked).
    pub engine_queue: Gauge<i64, AtomicI64>,
    /// Searches the server's computer has run or queued since it started.
    pub engine_searches: Gauge<i64, AtomicI64>,
    /// In a cluster: games this node took up from Redis (their node had died or stopped).
    pub takeovers: Counter<u64, AtomicU64>,
    /// In a cluster: the games whose lease this node holds (read when asked).
    pub leases: Gauge<i64, AtomicI64>,
    /// In a cluster: round trips to Redis so far (read when asked).
    pub redis_round_trips: Gauge<i64, AtomicI64>,
    /// Turns and other changes refused because the store could not be reached (in a cluster,
    /// while Redis does not answer): the players saw `store-unreachable`.
    pub refused_unkept: Counter<u64, AtomicU64>,
}

impl Default for Metrics {
    fn default() -> Metrics {
        let mut registry = Registry::with_prefix("dara");
        let games = Gauge::default();
        registry.register("games", "Games held", games.clone());
        let connections = Gauge::default();
        registry.register("connections", "TCP connections open", connections.clone());
        let sockets = Gauge::default();
        registry.register("sockets", "WebSockets open", sockets.clone());
        let relayed_sockets = Gauge::default();
        registry.register(
            "relayed_sockets",
            "WebSockets another node relays here",
            relayed_sockets.clone(),
        );
        let turns = Counter::default();
        registry.register("turns", "Turns accepted", turns.clone());
        // 10 µs to about 0.7 s.
        let turn_seconds = Histogram::new(exponential_buckets(1e-5, 2.0, 17));
        registry.register(
            "turn_seconds",
            "Seconds from a turn's frame to its answer",
            turn_seconds.clone(),
        );
        let engine_queue = Gauge::default();
        registry.register(
            "engine_queue",
            "Searches waiting for an engine thread",
            engine_queue.clone(),
        );
        let engine_searches = Gauge::default();
        registry.register(
            "engine_searches",
            "Searches the server's computer has run or queued since the server started",
            engine_searches.clone(),
        );
        let takeovers = Counter::default();
        registry.register("takeovers", "Games taken up from Redis", takeovers.clone());
        let leases = Gauge::default();
        registry.register("leases", "Games whose lease this node holds", leases.clone());
        let redis_round_trips = Gauge::default();
        registry.register(
            "redis_round_trips",
            "Round trips to Redis since the node started",
            redis_round_trips.clone(),
        );
        let refused_unkept = Counter::default();
        registry.register(
            "refused_unkept",
            "Turns and other changes refused while the store could not be reached",
            refused_unkept.clone(),
        );
        Metrics {
            registry,
            games,
            connections,
            sockets,
            relayed_sockets,
            turns,
            turn_seconds,
            engine_queue,
            engine_searches,
            takeovers,
            leases,
            redis_round_trips,
            refused_unkept,
        }
    }
}

impl Metrics {
    /// Every measure in Prometheus's text format.
    pub fn encode(&self) -> String {
        let mut text = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut text, &self.registry);
        text
    }

    /// Also shows how long the store's commits take, if it is the embedded one: a slow disk
    /// holds every turn behind it.
    pub fn with_store(mut self, store: &Store) -> Metrics {
        if let Some(commit_seconds) = store.commit_seconds() {
            self.registry.register(
                "store_commit_seconds",
                "Seconds each commit of live games to the data directory took, sync included",
                commit_seconds.clone(),
            );
        }
        self
    }
}
