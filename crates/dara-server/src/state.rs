//! What every request handler and game shares: the settings, the live games, the lobby and
//! the computer.

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use dara::ByColour;
use dara_table::GameSettings;

use crate::address::TrustedProxies;
use crate::arena::book::Arenas;
use crate::cluster::Cluster;
use crate::config::Config;
use crate::connections::Connections;
use crate::error::AppError;
use crate::game::computer::Computer;
use crate::game::handle::{GameHandle, Life};
use crate::game::host::Host;
use crate::lobby::Lobby;
use crate::metrics::measures::Metrics;
use crate::seat::{GameId, Seat, SeatKey};
use crate::store::kept::Store;
use crate::watch::WatchList;

/// The server's shared state, cheap to clone.
pub type AppState = Arc<Shared>;

/// See [`AppState`].
#[derive(Debug)]
pub struct Shared {
    /// The settings.
    pub config: Config,
    // A std mutex: only held to look up, add or remove a game, never across an await.
    registry: Mutex<Registry>,
    /// The open tables.
    pub lobby: Lobby,
    /// The games anyone may watch.
    pub watch: WatchList,
    /// The live arenas (shared with each arena's owner, which leaves the book at its end).
    pub arenas: Arc<Arenas>,
    /// The engine pool.
    pub computer: Computer,
    /// Open connections, per client address.
    pub connections: Arc<Connections>,
    /// What an operator watches.
    pub metrics: Metrics,
    /// Turns true when the server begins to stop: every socket is closed with 1012, so pages
    /// reconnect at once to whatever serves next.
    pub stopping: tokio::sync::watch::Sender<bool>,
    /// Where live games are kept.
    pub store: Store,
    /// The key seat tokens are hashed with.
    pub seat_key: SeatKey,
    /// This node's part in a cluster, if it is one (`--redis`).
    pub cluster: Option<Cluster>,
}

/// The proxies whose `X-Forwarded-For` names the client a request counts against
/// ([`crate::address::Client`]).
impl AsRef<TrustedProxies> for AppState {
    fn as_ref(&self) -> &TrustedProxies {
        &self.config.trusted_proxies
    }
}

/// The live games, and how many of them each client address asked for.
#[derive(Debug, Default)]
struct Registry {
    games: HashMap<GameId, Held>,
    /// Games whose record in the store does not read: set apart, served to nobody.
    damaged: HashSet<GameId>,
    per_address: HashMap<IpAddr, usize>,
    seats_per_address: HashMap<IpAddr, usize>,
}

#[derive(Debug)]
struct Held {
    handle: GameHandle,
    asked_from: Option<IpAddr>,
    /// Clients that took a seat here from the lobby, each counted until the game is forgotten.
    seated_from: Vec<IpAddr>,
    /// When the game ended, if it has: a full server makes room by forgetting the game that
    /// ended first, rather than refusing new ones.
    finished: Option<tokio::time::Instant>,
    /// Whether the cluster's count of the game (see `cluster::limits`) is given back only once
    /// its erasure from the store is acknowledged: its creation's outcome is unknown, so it
    /// may be in Redis.
    counted_until_erased: bool,
}

impl Shared {
    /// Fresh state with these settings, keeping games in memory only.
    pub fn new(config: Config) -> AppState {
        Shared::keeping(config, Store::Memory, SeatKey::random())
    }

    /// Fresh state with these settings, keeping games in `store`, their seats hashed with
    /// `seat_key`.
    pub fn keeping(config: Config, store: Store, seat_key: SeatKey) -> AppState {
        Shared::build(config, store, seat_key, None)
    }

    /// Fresh state of a node of `cluster`, keeping games in its Redis, their seats hashed with
    /// the cluster's `seat_key`.
    pub fn clustered(config: Config, cluster: Cluster, seat_key: SeatKey) -> AppState {
        let store = Store::Redis(cluster.redis.clone());
        Shared::build(config, store, seat_key, Some(cluster))
    }

    fn build(
        config: Config,
        store: Store,
        seat_key: SeatKey,
        cluster: Option<Cluster>,
    ) -> AppState {
        let computer =
            Computer::new(config.engine_threads, config.engine_queue, config.human_pause)
                .with_tablebase(config.tablebase.clone());
        Arc::new(Shared {
            config,
            registry: Mutex::default(),
            lobby: Lobby::default(),
            watch: WatchList::default(),
            arenas: Arc::default(),
            computer,
            connections: Arc::default(),
            metrics: Metrics::default().with_store(&store),
            stopping: tokio::sync::watch::Sender::new(false),
            store,
            seat_key,
            cluster,
        })
    }

    /// The live game `id`.
    pub fn game(&self, id: &GameId) -> Option<GameHandle> {
        self.registry.lock().expect("games lock").games.get(id).map(|held| held.handle.clone())
    }

    /// Registers a new game asked for from `asked_from` (see `address::requester`; `None`
    /// when the server itself starts it), unless the server, or that address's share of
    /// it, is full.
    ///
    /// # Errors
    /// [`AppError::Full`] or [`AppError::TooManyGames`].
    pub fn register(&self, handle: GameHandle, asked_from: Option<IpAddr>) -> Result<(), AppError> {
        let mut registry = self.registry.lock().expect("games lock");
        if registry.games.len() >= self.config.max_games {
            let Some(forgotten) = registry.make_room() else { return Err(AppError::Full) };
            forgotten.handle.forget();
            self.uncount_in_cluster(forgotten.asked_from);
        }
        if let Some(address) = asked_from {
            let limit = self.config.games_per_address;
            if registry.per_address.get(&address).copied().unwrap_or(0) >= limit {
                return Err(self.too_many_games());
            }
            *registry.per_address.entry(address).or_default() += 1;
        }
        let id = handle.id.clone();
        // A game taken up again while a life of it is still entered: that life is not the game
        // any more (the node took the game anew, so the lease that life wrote with is gone),
        // and left running it would serve its older snapshot, or write, with nothing to say
        // which life is the game. Only one life of a game runs on a node.
        let replaced = registry.remove(&id);
        let held = Held {
            handle,
            asked_from,
            seated_from: Vec::new(),
            finished: None,
            counted_until_erased: false,
        };
        registry.games.insert(id, held);
        drop(registry);
        if let Some(replaced) = replaced {
            let (game, life) = (&replaced.handle.id, replaced.handle.life());
            tracing::warn!(%game, %life, "a life of the game replaced by a later one: handed over");
            replaced.handle.hand_over();
            // A life handed over erases nothing, so a count waiting for its erasure lapses
            // with the game's keys.
            let _ = self.give_back_count(&replaced);
        }
        Ok(())
    }

    /// Stops game `handle` here for good, for another node (or a later life here) to take it
    /// up from what Redis keeps: it is forgotten at once, so that the next socket for it is
    /// not served by it while its owner winds down.
    pub fn give_up(&self, handle: &GameHandle) {
        handle.hand_over();
        self.forget(&handle.id, handle.life());
    }

    /// Why a client address may start no more games now.
    pub fn too_many_games(&self) -> AppError {
        AppError::TooManyGames {
            limit: self.config.games_per_address,
            grace: self.config.finished_grace,
        }
    }

    /// Why a client address may take no more seats at open tables now.
    pub fn too_many_seats(&self) -> AppError {
        AppError::TooManySeats {
            limit: self.config.seats_per_address,
            grace: self.config.finished_grace,
        }
    }

    /// Counts a seat `client` takes at the open table `id`, unless that client already holds
    /// as many as it may.
    ///
    /// # Errors
    /// [`AppError::TooManySeats`], or [`AppError::TableClosed`] if the game has gone.
    pub fn count_seat(&self, id: &GameId, client: IpAddr) -> Result<(), AppError> {
        let mut registry = self.registry.lock().expect("games lock");
        if registry.seats_per_address.get(&client).copied().unwrap_or(0)
            >= self.config.seats_per_address
        {
            return Err(self.too_many_seats());
        }
        let held = registry.games.get_mut(id).ok_or(AppError::TableClosed)?;
        held.seated_from.push(client);
        *registry.seats_per_address.entry(client).or_default() += 1;
        Ok(())
    }

    /// Takes back a seat counted by [`Shared::count_seat`] that was not taken after all.
    pub fn uncount_seat(&self, id: &GameId, client: IpAddr) {
        let mut registry = self.registry.lock().expect("games lock");
        let Some(held) = registry.games.get_mut(id) else { return };
        if let Some(i) = held.seated_from.iter().position(|c| *c == client) {
            held.seated_from.swap_remove(i);
            decrement(&mut registry.seats_per_address, client);
        }
    }

    /// Notes that `life` of game `id` ended at `at` (or, after a takeback, that it goes on:
    /// `None`).
    pub fn set_finished(&self, id: &GameId, life: Life, at: Option<tokio::time::Instant>) {
        let mut registry = self.registry.lock().expect("games lock");
        if let Some(held) = registry.games.get_mut(id).filter(|held| held.handle.life() == life) {
            held.finished = at;
        }
    }

    /// Forgets `life` of game `id`, whose owner has stopped, unless a later life replaced it.
    /// Gives the address whose count in the cluster waits for the game's erasure (see
    /// [`Shared::count_until_erased`]), if any.
    pub fn forget(&self, id: &GameId, life: Life) -> Option<IpAddr> {
        let forgotten = {
            let mut registry = self.registry.lock().expect("games lock");
            match registry.games.get(id) {
                // A later life's entry, and its table in the lobby, stay.
                Some(held) if held.handle.life() != life => return None,
                Some(_) => registry.remove(id),
                None => None,
            }
        };
        self.lobby.forget(id);
        self.watch.hide(id);
        self.give_back_count(&forgotten?)
    }

    /// Gives back the cluster's count of a game taken off the books, unless it waits for the
    /// game's erasure (see [`Shared::count_until_erased`]): then gives the address it is
    /// counted against.
    fn give_back_count(&self, held: &Held) -> Option<IpAddr> {
        if held.counted_until_erased {
            return held.asked_from;
        }
        self.uncount_in_cluster(held.asked_from);
        None
    }

    /// Keeps the cluster's count of game `id` when it is forgotten, until its erasure from the
    /// store is acknowledged: the write that made it has an unknown outcome (Redis's answer
    /// never came), so the game may be in Redis. Given back then, it would let its client hold
    /// more games than its share while the game lingers; kept, it is given back by the erasure,
    /// or lapses an hour after its last change, as the game's keys do.
    pub fn count_until_erased(&self, id: &GameId) {
        if let Some(held) = self.registry.lock().expect("games lock").games.get_mut(id) {
            held.counted_until_erased = true;
        }
    }

    /// In a cluster, takes back the count of a game asked for from `address` (see
    /// `cluster::limits`).
    pub fn uncount_in_cluster(&self, address: Option<IpAddr>) {
        if let Some((cluster, address)) = self.cluster.as_ref().zip(address) {
            cluster.games.uncount(address);
        }
    }

    /// Sets game `id` apart: its record in the store does not read. Its players are told so
    /// (close code 4010) and nothing is served of it; every other game goes on.
    pub fn quarantine(&self, id: GameId) {
        self.registry.lock().expect("games lock").damaged.insert(id);
    }

    /// Whether game `id` was set apart as damaged.
    pub fn is_damaged(&self, id: &GameId) -> bool {
        self.registry.lock().expect("games lock").damaged.contains(id)
    }

    /// How many games are held.
    pub fn live_games(&self) -> usize {
        self.registry.lock().expect("games lock").games.len()
    }
}

impl Registry {
    /// Forgets the game that ended first, if any has ended: gives it, for its owner to be told
    /// to stop.
    fn make_room(&mut self) -> Option<Held> {
        let oldest = self
            .games
            .iter()
            .filter_map(|(id, held)| held.finished.map(|at| (at, id)))
            .min()
            .map(|(_, id)| id.clone());
        self.remove(&oldest?)
    }

    /// Takes a game off the books: its client's counts go down.
    fn remove(&mut self, id: &GameId) -> Option<Held> {
        let held = self.games.remove(id)?;
        if let Some(address) = held.asked_from {
            decrement(&mut self.per_address, address);
        }
        for client in &held.seated_from {
            decrement(&mut self.seats_per_address, *client);
        }
        Some(held)
    }
}

/// One fewer for `address`, which is forgotten at none.
fn decrement(counts: &mut HashMap<IpAddr, usize>, address: IpAddr) {
    if let Some(count) = counts.get_mut(&address) {
        *count -= 1;
        if *count == 0 {
            counts.remove(&address);
        }
    }
}

/// What the games see of the server: its parts, and the book of live games.
impl Host for Shared {
    fn config(&self) -> &Config {
        &self.config
    }

    fn stopping(&self) -> bool {
        *self.stopping.borrow()
    }

    fn store(&self) -> &Store {
        &self.store
    }

    fn seat_key(&self) -> &SeatKey {
        &self.seat_key
    }

    fn computer(&self) -> &Computer {
        &self.computer
    }

    fn lobby(&self) -> &Lobby {
        &self.lobby
    }

    fn watch_list(&self) -> &WatchList {
        &self.watch
    }

    fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    fn register(&self, handle: GameHandle, asked_from: Option<IpAddr>) -> Result<(), AppError> {
        Shared::register(self, handle, asked_from)
    }

    fn start_game(
        self: Arc<Self>,
        settings: GameSettings,
        seats: ByColour<Seat>,
        asked_from: Option<IpAddr>,
    ) -> Result<GameId, AppError> {
        crate::game::start::spawn(&self, settings, seats, asked_from).map(|(handle, _)| handle.id)
    }

    fn set_finished(&self, id: &GameId, life: Life, at: Option<tokio::time::Instant>) {
        Shared::set_finished(self, id, life, at);
    }

    fn forget(&self, id: &GameId, life: Life) -> Option<IpAddr> {
        Shared::forget(self, id, life)
    }

    fn erased(&self, counted: IpAddr) {
        self.uncount_in_cluster(Some(counted));
    }

    fn live_game(&self, id: &GameId) -> Option<GameHandle> {
        Shared::game(self, id)
    }
}
