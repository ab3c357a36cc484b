//! An arena on a node of a cluster (see `crate::redis::arenas`): kept in Redis, its writes
//! fenced by its lease; its requests from players on other nodes drained from Redis a few
//! times a second; its games that do not run here under its eye (a game taken up by another
//! node after its node died, or one begun by the arena's previous holder) read from Redis
//! every second for their first moves and their end. What each of these means for the arena is
//! decided by the arena, which ignores news it has had already.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use dara::Colour;
use dara_arena::Input;
use dara_table::{Ending, Moment, Patience, Table};
use serde::{Deserialize, Serialize};
use tokio::time::Instant;

use super::refused::ArenaError;
use crate::game::observer::News;
use crate::redis::arenas::{ArenaLease, Ask};
use crate::redis::Redis;
use crate::seat::{GameId, SeatHash};
use crate::store::error::StoreError;
use crate::store::write::ArenaWrite;

/// How often a holder looks for requests relayed from other nodes (and that it still holds
/// the arena).
pub const ASKS_EVERY: Duration = Duration::from_millis(200);

/// How often a holder reads from Redis the games of its arena it does not run itself.
pub const PEEK_EVERY: Duration = Duration::from_secs(1);

/// Every how many readings a game begun here is read too: its news come through the owner's
/// observer, unless this node gave it up (it lapsed for a moment, and another node took the
/// game while the arena stayed here), when Redis is the only way left to hear it.
const OBSERVED_TOO_EVERY: u32 = 10;

/// How long an arena's keys outlive its end (besides the hour it is kept after it): a cluster
/// whose every node stopped leaves nothing behind for ever.
const KEYS_OUTLIVE: Duration = Duration::from_secs(3600);

/// A request relayed from another node to the arena's holder: a player's input, as the arena
/// takes it (only a player's: see `super::there`), or the maker's press.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub enum Asked {
    /// A player's join, pause, return, leave or berserk.
    Act {
        /// The input, whole.
        input: Input,
    },
    /// The maker pressed start (their secret was checked by the node they pressed it on).
    Start,
}

/// The holder's answer to a relayed request, its refusal as the holder made it (the arena's,
/// or its shell's: a berserk the game could not keep).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub enum Answered {
    /// Done.
    Done,
    /// Refused, and why.
    Refused {
        /// Why.
        refusal: ArenaError,
    },
    /// Whether the press started the arena.
    Started {
        /// Whether it did.
        started: bool,
    },
}

/// What an arena's owner needs to keep it in Redis.
#[derive(Debug)]
pub(super) struct InRedis {
    pub(super) redis: Redis,
    /// The arena's lease, once made or taken up here.
    pub(super) lease: Option<ArenaLease>,
    /// The games whose news come to the owner through its observer: begun here by it.
    pub(super) observed: HashSet<GameId>,
    /// How many first moves of each game read from Redis the arena was told of.
    told: HashMap<GameId, usize>,
    /// Readings of its games so far.
    readings: u32,
    /// When the requests are next looked for, and the games next read.
    pub(super) asks_at: Instant,
    pub(super) peek_at: Instant,
    /// Lost: another node took the arena (this one lapsed), or it could not be made.
    pub(super) lost: bool,
}

impl InRedis {
    pub(super) fn new(redis: Redis, lease: Option<ArenaLease>) -> InRedis {
        InRedis {
            redis,
            lease,
            observed: HashSet::new(),
            told: HashMap::new(),
            readings: 0,
            asks_at: Instant::now(),
            peek_at: Instant::now(),
            lost: false,
        }
    }

    /// The next moment it has something to do.
    pub(super) fn next_wake(&self) -> Instant {
        self.asks_at.min(self.peek_at)
    }

    /// Writes `writes` to Redis, fenced; says whether they were written. A fenced refusal
    /// means the arena is another node's now.
    pub(super) async fn write(
        &mut self,
        arena: &str,
        writes: &[ArenaWrite],
        kept: Duration,
    ) -> bool {
        let Some(lease) = &self.lease else { return false };
        if writes.is_empty() {
            return true;
        }
        match self.redis.write_arena(lease, writes, kept).await {
            Ok(()) => true,
            Err(StoreError::Fenced(why)) => {
                tracing::warn!(arena, "the arena is no longer this node's: {why}");
                self.lost = true;
                false
            }
            Err(e) => {
                tracing::error!(arena, "the arena's writes could not be kept in Redis: {e}");
                false
            }
        }
    }

    /// Pins the board where the other nodes read it.
    pub(super) async fn pin(
        &mut self,
        arena: &str,
        board: &str,
        listed: Option<&str>,
        kept: Duration,
    ) {
        let Some(lease) = &self.lease else { return };
        match self.redis.pin_arena(lease, arena, (board, listed), kept).await {
            Ok(()) => {}
            Err(StoreError::Fenced(why)) => {
                tracing::warn!(arena, "the arena is no longer this node's: {why}");
                self.lost = true;
            }
            Err(e) => tracing::warn!(arena, "the board could not be pinned in Redis: {e}"),
        }
    }

    /// The requests relayed since last asked, each read (one that does not read is answered
    /// with nothing, and its asker hears nothing in time); notes if the arena was lost.
    pub(super) async fn asks(&mut self, arena: &str) -> Vec<(Ask, Asked)> {
        self.asks_at = Instant::now() + ASKS_EVERY;
        let Some(lease) = &self.lease else { return Vec::new() };
        match self.redis.arena_asks(lease, arena).await {
            Ok((held, asks)) => {
                if !held {
                    tracing::warn!(arena, "the arena's lease is another node's now");
                    self.lost = true;
                    return Vec::new();
                }
                asks.into_iter()
                    .filter_map(|ask| {
                        let asked = serde_json::from_str(&ask.what).ok()?;
                        Some((ask, asked))
                    })
                    .collect()
            }
            Err(e) => {
                tracing::warn!(arena, "the arena's requests could not be read from Redis: {e}");
                Vec::new()
            }
        }
    }

    /// Answers a relayed request.
    pub(super) async fn answer(&self, ask: &Ask, answered: &Answered) {
        let text = serde_json::to_string(answered).expect("answers serialise");
        if let Err(e) = self.redis.answer_ask(ask, &text).await {
            tracing::warn!("an arena's answer could not be left in Redis: {e}");
        }
    }

    /// The news of `games` (those not begun here; now and then those too) as Redis has them now: their first moves
    /// not told yet, and their end; `None` for a game Redis no longer has (lost: called off).
    pub(super) async fn peek(
        &mut self,
        games: Vec<GameId>,
        patience: Patience,
    ) -> Vec<(GameId, Option<News>)> {
        self.peek_at = Instant::now() + PEEK_EVERY;
        self.readings = self.readings.wrapping_add(1);
        let observed_too = self.readings % OBSERVED_TOO_EVERY == 0;
        let mut news = Vec::new();
        for game in games.into_iter().filter(|g| observed_too || !self.observed.contains(g)) {
            match self.redis.peek_game(&game).await {
                Ok(Some(stored)) => {
                    let Some((movers, ending)) = progress(stored, patience) else { continue };
                    let told = self.told.entry(game.clone()).or_default();
                    for by in movers.into_iter().skip(*told) {
                        *told += 1;
                        news.push((game.clone(), Some(News::Moved { by })));
                    }
                    if let Some((ending, plies)) = ending {
                        self.told.remove(&game);
                        news.push((game, Some(News::Ended { ending, plies })));
                    }
                }
                Ok(None) => {
                    self.told.remove(&game);
                    news.push((game, None));
                }
                Err(e) => tracing::debug!(%game, "an arena's game could not be read: {e}"),
            }
        }
        news
    }
}

/// How far a game has gone: its first movers (at most two, in order), and its end with its
/// turns.
type Progress = (Vec<Colour>, Option<(Ending, u32)>);

/// How far a game has gone, as its journal in Redis says; `None` if it does not replay.
fn progress(stored: crate::store::record::StoredGame, patience: Patience) -> Option<Progress> {
    let settings = stored.record.settings().ok()?;
    let seats = stored.seats.seats().ok()?;
    // Only what was played is read, not the clocks: any moment will do.
    let table: Table<SeatHash> =
        Table::restore(settings, seats, patience, stored.events, Moment::ORIGIN).ok()?;
    let moves = table.played().moves().len();
    let side = table.played().pos().side();
    // Turns alternate (a turn takes its captures with it): the last was the other side's.
    let movers =
        (1..=moves.min(2)).map(|ply| if (moves - ply) % 2 == 0 { !side } else { side }).collect();
    let plies = u32::try_from(moves).unwrap_or(u32::MAX);
    Some((movers, table.ending().map(|ending| (*ending, plies))))
}

/// How long an arena's keys are to live from now: until an hour after it is forgotten.
pub(super) fn keys_kept(ends_in: Duration, kept_after: Duration) -> Duration {
    ends_in + kept_after + KEYS_OUTLIVE
}
