//! One game kept in play: asked for over HTTP, each of the driver's seats on its own WebSocket
//! (both seats of a game between people; the one seat of a game against the computer), each
//! playing a random legal turn from the last position it was sent when it is its side to move;
//! replaced by a new game when it ends or fails.
//!
//! One task holds the game's seats, so a turn's round trips (to its `accepted`, and to the
//! opponent's `move` event or the computer's reply) are timed from one clock with no shared state
//! but the counters. This file keeps a slot in play, game after game; `seat` opens a seat's
//! socket and says hello, `play` runs one game's sockets until it ends.

mod play;
pub(super) mod seat;

use std::net::IpAddr;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Duration;

use dara_table::Opponent;
use rand::rngs::SmallRng;
use rand::SeedableRng;

use super::http::{create_game, CreateError};
use super::pacer::Pacer;
use super::stats::Stats;
use super::target::Target;
use seat::{connect, sit, CONNECT_TIMEOUT};

/// A game that has said nothing for this long (not even `pong`) is given up as stuck.
pub const SILENCE: Duration = Duration::from_secs(30);
/// Before trying again after a refusal or a failure, so a failing server is not hammered.
const RETRY_AFTER: Duration = Duration::from_secs(1);

/// What every game task shares: where the server is, what to play, and what to count.
#[derive(Debug)]
pub struct Shared {
    /// The servers (several nodes of one cluster, or one server): a game is created on one and
    /// its second seat sits on the next, so that in a cluster every game spans two nodes.
    pub targets: Vec<Target>,
    /// Who the games are against: a friend (the driver's second seat) or the computer.
    pub opponent: Opponent,
    /// The body of `POST /api/games`.
    pub new_game: String,
    /// Between two turns of one game; `None`: as fast as the server answers.
    pub turn_every: Option<Duration>,
    /// Seats only keep their sockets alive.
    pub idle: bool,
    /// The `protocol` field of `hello`, if any.
    pub protocol: Option<u32>,
    /// Loopback addresses to bind sockets to, one per game in turn; empty: the system's choice.
    pub sources: Vec<IpAddr>,
    pub seed: u64,
    pub pacer: Pacer,
    pub stats: Stats,
}

impl Shared {
    /// Whether the games are against the server's computer, whose moves no seat of the
    /// driver's sends.
    pub fn against_computer(&self) -> bool {
        matches!(self.opponent, Opponent::Computer(_))
    }
}

/// Why a game stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// By the rules (an `end` event).
    Ended,
    /// Anything else: counted where it was seen.
    Failed,
}

/// Keeps one game in play for as long as the task lives: the `slot`th of the load.
pub async fn keep_in_play(slot: usize, shared: Arc<Shared>) {
    let mut rng =
        SmallRng::seed_from_u64(shared.seed ^ (slot as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let source = (!shared.sources.is_empty()).then(|| shared.sources[slot % shared.sources.len()]);
    let mut first = true;
    loop {
        let n = shared.targets.len();
        let sides = [&shared.targets[slot % n], &shared.targets[(slot + 1) % n]];
        let stop = play_one(&shared, sides, source, &mut rng, &mut first).await;
        if std::mem::take(&mut first) {
            shared.stats.first_attempts.fetch_add(1, Relaxed);
        }
        match stop {
            Stop::Ended => {
                shared.stats.finished.fetch_add(1, Relaxed);
            }
            Stop::Failed => tokio::time::sleep(RETRY_AFTER).await,
        }
    }
}

/// One game from its creation to its end (or failure).
async fn play_one(
    shared: &Shared,
    [home, away]: [&Target; 2],
    source: Option<IpAddr>,
    rng: &mut SmallRng,
    first: &mut bool,
) -> Stop {
    let stats = &shared.stats;
    let created = match connect(&shared.pacer, home, source).await {
        Ok(stream) => {
            let create = create_game(stream, &home.authority, &shared.new_game);
            tokio::time::timeout(CONNECT_TIMEOUT, create)
                .await
                .unwrap_or_else(|_| Err(CreateError::Io(std::io::ErrorKind::TimedOut.into())))
        }
        Err(e) => Err(CreateError::Io(e)),
    };
    let created = match created {
        Ok(created) => created,
        Err(CreateError::Refused { status, reason }) => {
            stats.refused(status);
            stats.tell(|| format!("POST /api/games refused: {status} {reason}"));
            return Stop::Failed;
        }
        Err(CreateError::Io(e)) => {
            stats.connect_failed.fetch_add(1, Relaxed);
            stats.tell(|| format!("POST /api/games failed: {e}"));
            return Stop::Failed;
        }
        Err(CreateError::Unreadable(e)) => {
            stats.desynced.fetch_add(1, Relaxed);
            stats.tell(|| format!("POST /api/games answered {e}"));
            return Stop::Failed;
        }
    };
    stats.created.fetch_add(1, Relaxed);

    let protocol = shared.protocol.filter(|_| !stats.protocol_refused.load(Relaxed));
    let Some(creator) =
        sit(shared, home, source, &created.game, Some(&created.seat), protocol).await
    else {
        return Stop::Failed;
    };
    let mut seats = vec![creator];
    if !shared.against_computer() {
        let Some(joiner) = sit(shared, away, source, &created.game, None, protocol).await else {
            return Stop::Failed;
        };
        seats.push(joiner);
    }
    play::play(shared, rng, seats, first).await
}
