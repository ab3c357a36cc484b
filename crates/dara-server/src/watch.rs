//! The games anyone may watch: those being played between strangers at open tables and in
//! arenas (a [`Kind`] each), listed live for `/watch`, the liveliest first.
//!
//! Never a friend's game (private to its link) nor a game against the computer: a game says
//! itself whether it is listed ([`WatchList::show`]), and only one at an open table or in an
//! arena, both seats taken and not ended, is. Nothing about its players is listed: no seat, no address, no name.
//!
//! In a cluster the list is shared through Redis (`crate::redis::watch`) as the lobby's is: each
//! node writes its own games, keeps them alive there, and mirrors everyone's.

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, OnceLock, Weak};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use dara::Ruleset;
use dara_table::clock::TimeControl;
use serde::{Deserialize, Serialize};
use tokio::sync::watch;
use tokio::time::MissedTickBehavior;

use crate::protocol::{wire, Wire};
use crate::seat::GameId;

/// The least time between two lists sent to one socket, and between two reads of a cluster's
/// shared list: the list changes with every turn of every game, and nobody needs it faster.
pub const EVERY: Duration = Duration::from_secs(1);

/// How many games the list sends at most: the liveliest.
pub const LISTED: usize = 50;

/// How often the list's changes are written into the message its sockets send. Every turn of
/// every listed game changes the list; ranking all of them and writing the first fifty at each
/// turn cost a thousand arena players' server twice the CPU of their games (`dara loadtest
/// --arena`: 158 µs a turn, 82 without arena games listed).
pub const PUBLISH_EVERY: Duration = Duration::from_millis(250);

/// Where a watched game is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// At an open table of the lobby ("play anyone", "sit down").
    Table,
    /// In an arena, paired by it.
    Arena,
}

/// One game being played, as `/watch` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Playing {
    /// The game, opened as a watcher at `/g/<id>`.
    pub game: GameId,
    /// Where it is played.
    pub kind: Kind,
    /// The ruleset, in notation.
    pub rules: Ruleset,
    /// The clock, if any.
    pub clock: Option<TimeControl>,
    /// Turns played so far.
    pub turns: u32,
    /// How many watch it now.
    pub watchers: u32,
    /// When its last turn was played (or play began), in ms since 1970.
    pub last_turn_ms: u64,
}

impl Playing {
    /// How it ranks: more watchers first, then the game whose last turn came in a later minute,
    /// then more turns played (the id last, so that the order never flickers).
    fn rank(&self) -> impl Ord + '_ {
        (
            Reverse(self.watchers),
            Reverse(self.last_turn_ms / 60_000),
            Reverse(self.turns),
            &self.game,
        )
    }
}

/// A game as it tells the list about itself (the list stamps when its turns changed).
#[derive(Debug, Clone, Copy)]
pub struct Shown {
    /// Where it is played.
    pub kind: Kind,
    /// The ruleset.
    pub rules: Ruleset,
    /// The clock, if any.
    pub clock: Option<TimeControl>,
    /// Turns played so far.
    pub turns: u32,
    /// How many watch it now.
    pub watchers: u32,
}

/// What the watch socket sends.
#[derive(Debug, Serialize)]
#[serde(tag = "t", content = "d", rename_all = "kebab-case")]
pub enum WatchMessage<'a> {
    /// The games being played, the liveliest first, at most [`LISTED`].
    Playing(&'a [&'a Playing]),
}

/// The list every node of a cluster shares (kept in Redis: `crate::redis::watch`). The list
/// only says what changed on this node; the cluster reads everyone's back into
/// [`WatchList::replace`].
pub trait SharedWatch: Send + Sync + std::fmt::Debug {
    /// Lists or updates one of this node's games (in the background).
    fn show(&self, playing: &Playing);

    /// Takes one of this node's games off the list (in the background).
    fn hide(&self, game: &GameId);
}

/// The games being played, and a channel that always holds them as a ready-made message.
#[derive(Debug)]
pub struct WatchList {
    // A std mutex: held only to edit the maps and render the list, never across an await.
    games: Mutex<Games>,
    listing: watch::Sender<Wire>,
    shared: OnceLock<Box<dyn SharedWatch>>,
}

#[derive(Debug, Default)]
struct Games {
    /// This node's games.
    mine: HashMap<GameId, Playing>,
    /// Every node's (this node's own as it knows them, which is never older than Redis's).
    all: BTreeMap<GameId, Playing>,
    /// Whether `all` changed since the message was last written.
    unpublished: bool,
}

impl Default for WatchList {
    fn default() -> WatchList {
        WatchList {
            games: Mutex::default(),
            listing: watch::Sender::new(render(&BTreeMap::new())),
            shared: OnceLock::new(),
        }
    }
}

/// The liveliest games, first to last, at most [`LISTED`].
fn ranked(all: &BTreeMap<GameId, Playing>) -> Vec<&Playing> {
    let mut ranked: Vec<&Playing> = all.values().collect();
    ranked.sort_by(|a, b| a.rank().cmp(&b.rank()));
    ranked.truncate(LISTED);
    ranked
}

/// The list as a message.
fn render(all: &BTreeMap<GameId, Playing>) -> Wire {
    wire(&WatchMessage::Playing(&ranked(all)))
}

fn now_ms() -> u64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}

impl WatchList {
    /// Game `id`, on this node, is being played as `shown` says.
    pub fn show(&self, id: &GameId, shown: Shown) {
        let mut games = self.games.lock().expect("watch lock");
        let last_turn_ms = match games.mine.get(id) {
            Some(before) if before.turns == shown.turns => before.last_turn_ms,
            _ => now_ms(),
        };
        let Shown { kind, rules, clock, turns, watchers } = shown;
        let playing =
            Playing { game: id.clone(), kind, rules, clock, turns, watchers, last_turn_ms };
        if games.mine.get(id) == Some(&playing) {
            return;
        }
        if let Some(shared) = self.shared.get() {
            shared.show(&playing);
        }
        games.mine.insert(id.clone(), playing.clone());
        games.all.insert(id.clone(), playing);
        games.unpublished = true;
    }

    /// Game `id` is not (or no longer) to be watched here: not at an open table, not both seated,
    /// ended, or forgotten.
    pub fn hide(&self, id: &GameId) {
        let mut games = self.games.lock().expect("watch lock");
        if games.mine.remove(id).is_none() {
            return;
        }
        if let Some(shared) = self.shared.get() {
            shared.hide(id);
        }
        games.all.remove(id);
        games.unpublished = true;
    }

    /// Mirrors the cluster's shared list from now on.
    pub fn share(&self, shared: Box<dyn SharedWatch>) {
        let _ = self.shared.set(shared);
    }

    /// Replaces the list with the cluster's, as just read (this node's own games as it knows
    /// them).
    pub fn replace(&self, all: BTreeMap<GameId, Playing>) {
        let mut games = self.games.lock().expect("watch lock");
        let mut all = all;
        all.extend(games.mine.iter().map(|(id, p)| (id.clone(), p.clone())));
        if all != games.all {
            games.all = all;
            games.unpublished = true;
        }
    }

    /// Writes the list's changes since the last time into the message its sockets send (see
    /// [`PUBLISH_EVERY`] and [`start_publishing`]).
    pub fn publish(&self) {
        let mut games = self.games.lock().expect("watch lock");
        if std::mem::take(&mut games.unpublished) {
            self.listing.send_replace(render(&games.all));
        }
    }

    /// This node's games, for the cluster to keep them alive in the shared list.
    pub fn mine(&self) -> Vec<Playing> {
        self.games.lock().expect("watch lock").mine.values().cloned().collect()
    }

    /// The settings of every game being played (in a cluster, on every node), for the lobby's
    /// counts.
    pub fn settings(&self) -> Vec<(Ruleset, Option<TimeControl>)> {
        let games = self.games.lock().expect("watch lock");
        games.all.values().map(|p| (p.rules, p.clock)).collect()
    }

    /// The current list, the liveliest first.
    pub fn playing(&self) -> Vec<Playing> {
        ranked(&self.games.lock().expect("watch lock").all).into_iter().cloned().collect()
    }

    /// The list as a message, as last published.
    pub fn listing(&self) -> watch::Receiver<Wire> {
        self.listing.subscribe()
    }
}

/// Publishes the list of `owner` (`list` finds it) every [`PUBLISH_EVERY`], for as long as
/// `owner` lives.
pub fn start_publishing<S: Send + Sync + 'static>(owner: Weak<S>, list: fn(&S) -> &WatchList) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(PUBLISH_EVERY);
        every.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            let Some(owner) = owner.upgrade() else { return };
            list(&owner).publish();
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(turns: u32, watchers: u32) -> Shown {
        Shown { kind: Kind::Table, rules: Ruleset::default(), clock: None, turns, watchers }
    }

    #[test]
    fn the_most_watched_game_comes_first_then_the_most_recent_then_the_longest() {
        let list = WatchList::default();
        let (a, b, c) = (GameId::from_bits(1), GameId::from_bits(2), GameId::from_bits(3));
        list.show(&a, shown(4, 0));
        list.show(&b, shown(9, 0));
        list.show(&c, shown(1, 2));
        assert!(!list.listing().borrow().contains(a.as_str()), "not published yet");
        list.publish();
        let text = list.listing().borrow().to_string();
        let order: Vec<_> = [&c, &b, &a].iter().map(|id| text.find(id.as_str())).collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
        assert!(text.starts_with(r#"{"t":"playing","d":[{"game":"#), "{text}");
        list.hide(&c);
        list.publish();
        assert!(!list.listing().borrow().contains(c.as_str()));
    }

    #[test]
    fn a_game_shown_again_unchanged_changes_nothing() {
        let list = WatchList::default();
        let a = GameId::from_bits(1);
        list.show(&a, shown(4, 0));
        list.publish();
        let mut listing = list.listing();
        listing.borrow_and_update();
        list.show(&a, shown(4, 0));
        list.publish();
        assert!(!listing.has_changed().unwrap());
        list.show(&a, shown(4, 1));
        list.show(&a, shown(5, 1));
        assert!(!listing.has_changed().unwrap(), "not published yet");
        list.publish();
        assert!(listing.has_changed().unwrap());
        assert!(listing.borrow_and_update().contains(r#""turns":5"#));
    }
}
