//! The open tables: games waiting for anyone to sit down, listed live for every visitor of the
//! home page, and the "play anyone" pairing that seats two people who asked for the same
//! ruleset at one table: the one that has waited longest, whatever its clock, so that a small
//! crowd split over five clocks still meets (the seeker plays on the table's clock).
//!
//! The list is only an offer: the seat itself is given by the game (`GameHandle::sit`), which
//! alone knows whether it is still free. So a listing a moment old does no harm.
//!
//! "Play anyone" pairs one seeker at a time in each pool, on every node ([`pairing`]): two
//! seekers with the same rules who arrive together find each other, where each would otherwise
//! open a table of their own and wait there.
//!
//! The lobby also counts who is here ([`Presence`]): the people on the site's pages, the games
//! being played, and for each of the [`pools`] the tables waiting and the games playing. The
//! counts are given by the shell once a second ([`Lobby::count`]); the lobby's message
//! ([`view`]) carries them with the tables.
//!
//! The message goes to every lobby socket, so how often it is made again is the lobby's cost
//! (docs/PERFORMANCE.md, "The lobby's counts"). A table whose person called it off or left is
//! taken off every listing within the second ([`COUNT_EVERY`]): someone might otherwise try to
//! sit there, and a seek never outlives its browser. Everything else (a table opened or taken,
//! the counts) waits for the next calm message, [`CALM_EVERY`]: a taken table that someone tries
//! is answered "someone else sat down first", and "play anyone" pairs from the list itself,
//! not from anyone's page.
//!
//! "Play anyone" never pairs a browser with itself: a table opened by it remembers the
//! browser's id (see [`BrowserId`]), here and in the cluster's shared list, and a seeker is not
//! given a table its own browser opened. The id is kept while the game lives on this node; a
//! game taken up after a restart or by another node is listed without it.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use dara::Ruleset;
use dara_table::clock::TimeControl;
use dara_table::wire::OpenTable;
use tokio::sync::watch;
use tokio::time::Instant;

use crate::browser::BrowserId;
use crate::one_at_a_time::OneAtATime;
use crate::protocol::{wire, Wire};
use crate::seat::GameId;
use pairing::{Hold, Holder};
use view::{LobbyMessage, LobbyView, TableView};

pub mod counting;
pub mod pairing;
pub mod pools;
pub mod view;

/// How often who is here is counted, and the least time between two messages to one lobby
/// socket: a table called off leaves every listing within this.
pub const COUNT_EVERY: Duration = Duration::from_secs(1);

/// The least time between two messages that carry no urgent change (see the module's doc).
/// Every message goes to every lobby socket: with ten thousand of them and ten arrivals a
/// second, tables open and are taken every second, and a message a second cost 21 % of a core
/// where one every 3 s costs 9 to 10 % (docs/PERFORMANCE.md, "The lobby: at once for a table
/// called off").
pub const CALM_EVERY: Duration = Duration::from_secs(3);

/// A listed table, and the browser that opened it if it said.
#[derive(Debug, Clone)]
pub struct Listed {
    /// The table as every visitor sees it.
    pub table: OpenTable,
    /// Who waits at it, never shown to anyone: only compared with a seeker's id.
    pub opener: Option<BrowserId>,
    /// When it was first listed, in milliseconds since the Unix epoch on the server's clock:
    /// "play anyone" takes the table that has waited longest first.
    pub since: u64,
}

/// A future the cluster's list answers with.
pub type Answer<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The list of tables every node of a cluster shares, as the lobby tells it of its own (kept in
/// Redis: `crate::redis::lobby`). The lobby only says what changed; how the list is kept, and
/// read back into [`Lobby::replace`], is the cluster's. So is the hold on a pool that makes
/// "play anyone" pair one seeker at a time in it on every node ([`pairing`]).
pub trait SharedList: Send + Sync + std::fmt::Debug {
    /// Lists a table for every node (in the background: the lobby is only an offer).
    fn open(&self, listed: &Listed);

    /// Lists a table for every node now: true once any node that reads the list finds it,
    /// false if it could not be listed.
    fn list<'a>(&'a self, listed: &'a Listed) -> Answer<'a, bool>;

    /// Takes a table off every node's list (in the background).
    fn close(&self, game: &GameId);

    /// Takes table `game` for a seeker: true if it was still listed, so that no other node
    /// seats anyone there from the list.
    fn take<'a>(&'a self, game: &'a GameId) -> Answer<'a, bool>;

    /// Every node's tables, read afresh (this node's copy may lag behind by a round trip or
    /// more); `None` if they could not be read.
    fn read(&self) -> Answer<'_, Option<BTreeMap<GameId, Listed>>>;

    /// Asks, once, for the hold on pool `rules` for `holder`: no seeker with these rules is
    /// paired on any node while someone holds it.
    fn hold(&self, rules: Ruleset, holder: Holder) -> Answer<'_, Hold>;

    /// Gives the hold on pool `rules` back, if `holder` still has it (a hold lapses by itself
    /// after a while, should its node die holding it).
    fn release(&self, rules: Ruleset, holder: Holder) -> Answer<'static, ()>;
}

/// The list of open tables, and a channel that always holds it as a ready-made message.
#[derive(Debug)]
pub struct Lobby {
    // A std mutex: held only to edit the maps and render the list, never across an await.
    tables: Mutex<Tables>,
    listing: watch::Sender<Wire>,
    /// In a cluster, the list every node shares, which this one mirrors.
    shared: OnceLock<Box<dyn SharedList>>,
    /// One seeker at a time in each pool on this node (see [`pairing`]).
    pools: OneAtATime<Ruleset>,
}

#[derive(Debug, Default)]
struct Tables {
    /// Every listed table (in a cluster, every node's).
    listed: BTreeMap<GameId, Listed>,
    /// The browsers that opened this node's open tables, listed or not at the moment (a table
    /// leaves the list while the person waiting at it is disconnected), until the game is
    /// forgotten.
    openers: HashMap<GameId, BrowserId>,
    /// When this node first listed each of its open tables (see [`Listed::since`]): a table
    /// listed again once the person waiting is back keeps its place in the queue.
    first_listed: HashMap<GameId, u64>,
    /// Who is here, as last counted.
    presence: Presence,
    /// Whether the tables changed since the message was last made.
    changed: bool,
    /// Whether a table was called off or left since the message was last made: the message is
    /// made again at the next count, whatever the time since the last.
    urgent: bool,
    /// When the message was last made.
    made_at: Option<Instant>,
}

/// Who is here, as the shell counts it once a second.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Presence {
    /// People on the site's pages: the sockets open (in a cluster, on every node).
    pub here: u32,
    /// The settings of each game being played between people who met in the lobby.
    pub playing: Vec<(Ruleset, Option<TimeControl>)>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby {
            tables: Mutex::default(),
            listing: watch::Sender::new(render(&Tables::default())),
            shared: OnceLock::new(),
            pools: OneAtATime::default(),
        }
    }
}

/// The lobby's message: its tables, the longest waiting first, with the counts.
fn render(tables: &Tables) -> Wire {
    let mut listed: Vec<&Listed> = tables.listed.values().collect();
    listed.sort_by_key(|l| (l.since, &l.table.game));
    let settings = |l: &&Listed| (l.table.rules, l.table.clock);
    let pools = pools::count(listed.iter().map(settings), tables.presence.playing.iter().copied());
    let view = LobbyView {
        now: now_ms(),
        tables: listed.iter().map(|l| TableView { table: &l.table, since: l.since }).collect(),
        pools: &pools,
        here: tables.presence.here,
        playing: u32::try_from(tables.presence.playing.len()).unwrap_or(u32::MAX),
    };
    wire(&LobbyMessage::Lobby(view))
}

impl Lobby {
    /// Notes that `browser` opened the table of game `id`, before it is first listed.
    pub fn opened_by(&self, id: &GameId, browser: BrowserId) {
        self.tables.lock().expect("lobby lock").openers.insert(id.clone(), browser);
    }

    /// Lists a table.
    pub fn open(&self, id: GameId, table: OpenTable) {
        let Some(listed) = self.enter(id, table) else { return };
        if let Some(shared) = self.shared.get() {
            shared.open(&listed);
        }
    }

    /// Lists a table that `opener`'s browser opened now: in a cluster, once every node that
    /// reads the shared list finds it (see [`pairing`]).
    pub async fn list_now(&self, table: OpenTable, opener: Option<BrowserId>) {
        let id = table.game.clone();
        if let Some(browser) = opener {
            self.opened_by(&id, browser);
        }
        self.enter(id.clone(), table);
        let Some(shared) = self.shared.get() else { return };
        // Awaited even if the game had listed it already, in the background.
        let listed = self.tables.lock().expect("lobby lock").listed.get(&id).cloned();
        let Some(listed) = listed else { return };
        if !shared.list(&listed).await {
            // Off this node's copy too, so that the game lists it again, as any table, when
            // the person waiting at it connects.
            self.unlist_here(&id);
        }
    }

    /// Enters a table in this node's list: what is to be listed for every node, unless it was
    /// listed already.
    fn enter(&self, id: GameId, table: OpenTable) -> Option<Listed> {
        let mut tables = self.tables.lock().expect("lobby lock");
        if tables.listed.get(&id).is_some_and(|l| l.table.game == table.game) {
            return None;
        }
        let since = *tables.first_listed.entry(id.clone()).or_insert_with(now_ms);
        let listed = Listed { table, opener: tables.openers.get(&id).cloned(), since };
        tables.listed.insert(id, listed.clone());
        tables.changed = true;
        Some(listed)
    }

    /// Takes a table off this node's list only (every node's is the cluster's to change).
    fn unlist_here(&self, id: &GameId) {
        let mut tables = self.tables.lock().expect("lobby lock");
        if tables.listed.remove(id).is_some() {
            tables.changed = true;
        }
    }

    /// Takes a table off the list because its person called it off or went away for now: every
    /// listing hears of it at the next count.
    pub fn close(&self, id: &GameId) {
        self.unlist(id, true);
    }

    /// Takes a table off the list because someone sat down: listings hear of it with the next
    /// calm message.
    pub fn taken(&self, id: &GameId) {
        self.unlist(id, false);
    }

    fn unlist(&self, id: &GameId, urgent: bool) {
        let mut tables = self.tables.lock().expect("lobby lock");
        if tables.listed.remove(id).is_some() {
            if let Some(shared) = self.shared.get() {
                shared.close(id);
            }
            tables.changed = true;
            tables.urgent |= urgent;
        }
    }

    /// Takes a game that has gone away off the list, and forgets who opened it.
    pub fn forget(&self, id: &GameId) {
        let mut tables = self.tables.lock().expect("lobby lock");
        tables.openers.remove(id);
        tables.first_listed.remove(id);
        drop(tables);
        self.close(id);
    }

    /// Takes the listed table with these rules that has waited longest, whatever its clock,
    /// and not opened by `seeker`'s browser, off the list for a "play anyone" seeker to sit at:
    /// removing it at once keeps the next seeker from trying it too (in a cluster, on every
    /// node: of two nodes that pick it at once, one gets it).
    ///
    /// This node's list may lag behind the cluster's: "play anyone" pairs from it only when the
    /// hold on the pool could not be had ([`pairing`]).
    pub async fn pair(&self, rules: Ruleset, seeker: Option<&BrowserId>) -> Option<GameId> {
        loop {
            let id = {
                let mut tables = self.tables.lock().expect("lobby lock");
                let id = longest_waiting(&tables.listed, rules, seeker)?;
                tables.listed.remove(&id);
                tables.changed = true;
                id
            };
            match self.shared.get() {
                None => return Some(id),
                Some(shared) if shared.take(&id).await => return Some(id),
                // Another node's seeker took it first: the next one.
                Some(_) => continue,
            }
        }
    }

    /// Mirrors the cluster's shared list from now on.
    pub fn share(&self, shared: Box<dyn SharedList>) {
        let _ = self.shared.set(shared);
    }

    /// Replaces the list with the cluster's, as just read. A table gone from it may have been
    /// called off on another node (the list does not say why): it is urgent.
    pub fn replace(&self, tables: BTreeMap<GameId, Listed>) {
        let mut mine = self.tables.lock().expect("lobby lock");
        let gone = mine.listed.keys().any(|id| !tables.contains_key(id));
        mine.listed = tables;
        mine.changed = true;
        mine.urgent |= gone;
    }

    /// Who is here `now`, as counted once a second ([`COUNT_EVERY`]), which also sends what
    /// changed since: the message is made again only if the tables or a count changed, and then
    /// at once if a table was called off, else once [`CALM_EVERY`] has passed since the last;
    /// so every lobby socket is woken at most once a second, whatever the crowd's comings and
    /// goings, and mostly every few seconds.
    pub fn count(&self, presence: Presence, now: Instant) {
        let mut tables = self.tables.lock().expect("lobby lock");
        let calm = match tables.made_at {
            None => true,
            Some(at) => now.duration_since(at) >= CALM_EVERY,
        };
        let changed = tables.changed || tables.presence != presence;
        if changed && (tables.urgent || calm) {
            tables.presence = presence;
            tables.changed = false;
            tables.urgent = false;
            tables.made_at = Some(now);
            self.listing.send_replace(render(&tables));
        }
    }

    /// The lobby, as a message.
    pub fn listing(&self) -> watch::Receiver<Wire> {
        self.listing.subscribe()
    }

    /// The current list, the longest waiting first.
    pub fn tables(&self) -> Vec<OpenTable> {
        let tables = self.tables.lock().expect("lobby lock");
        let mut listed: Vec<&Listed> = tables.listed.values().collect();
        listed.sort_by_key(|l| (l.since, &l.table.game));
        listed.into_iter().map(|l| l.table.clone()).collect()
    }
}

/// The table of `tables` with these rules that has waited longest, whatever its clock, and not
/// opened by `seeker`'s browser.
fn longest_waiting(
    tables: &BTreeMap<GameId, Listed>,
    rules: Ruleset,
    seeker: Option<&BrowserId>,
) -> Option<GameId> {
    let own = |l: &Listed| seeker.is_some() && l.opener.as_ref() == seeker;
    tables
        .iter()
        .filter(|(_, l)| l.table.rules == rules && !own(l))
        .min_by_key(|(_, l)| l.since)
        .map(|(id, _)| id.clone())
}

/// Now, in milliseconds since the Unix epoch.
fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

#[cfg(test)]
mod tests;
