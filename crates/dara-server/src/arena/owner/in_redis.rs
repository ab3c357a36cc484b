//! The arena on a node of a cluster (see `crate::arena::cluster`): made in Redis under a lease,
//! its journal and board kept there, the requests other nodes relay to it answered, and the
//! news of its games that run elsewhere read.

use std::time::Duration;

use dara_arena::{Input, Verdict};
use tokio::time::Instant;

use super::Owner;
use crate::arena::book::Listed;
use crate::arena::cluster::{keys_kept, Answered, Asked};
use crate::arena::refused::{ArenaError, Shell as Refused};
use crate::arena::wall;
use crate::game::host::Host;
use crate::seat::GameId;
use crate::store::write::{ArenaWrite, Write};

impl<H: Host> Owner<H> {
    /// How long its keys in Redis are to live from now.
    pub(super) fn keys_kept(&self) -> Duration {
        let kept = self.host.upgrade().map_or(Duration::ZERO, |h| h.config().arena_kept_after);
        keys_kept(self.arena.settings().ends().saturating_since(wall::now()), kept)
    }

    /// Makes a new arena in Redis, held here; false if it cannot be, or another node made it
    /// first (a scheduled arena, which every node makes). True for an arena kept elsewhere.
    pub(super) async fn made_in_redis(&mut self) -> bool {
        let kept = self.keys_kept();
        let settings = serde_json::to_string(self.arena.settings()).expect("settings serialise");
        let shell = serde_json::to_string(&self.shell).expect("the shell serialises");
        let Some(cluster) = &mut self.cluster else { return true };
        if cluster.lease.is_some() {
            return true;
        }
        match cluster.redis.open_arena(self.id.as_str(), (&settings, &shell), kept).await {
            Ok(Some(lease)) => {
                cluster.lease = Some(lease);
                true
            }
            Ok(None) => {
                tracing::info!(arena = %self.id, "the arena was made by another node");
                false
            }
            Err(e) => {
                tracing::error!(arena = %self.id, "the arena could not be made in Redis: {e}");
                false
            }
        }
    }

    /// Keeps the arena's `writes` in Redis; says whether they were.
    pub(super) async fn keep_in_redis(&mut self, writes: Vec<Write>) -> bool {
        let kept = self.keys_kept();
        let writes: Vec<ArenaWrite> = writes
            .into_iter()
            .filter_map(|w| match w {
                Write::Arena(write) => Some(write),
                _ => None,
            })
            .collect();
        match &mut self.cluster {
            Some(cluster) => cluster.write(self.id.as_str(), &writes, kept).await,
            None => false,
        }
    }

    /// Pins the board just pinned here where the other nodes read it.
    pub(super) async fn pin_in_redis(&mut self) {
        if self.cluster.is_none() {
            return;
        }
        let kept = self.keys_kept();
        let board = self.board.borrow().clone();
        let text = serde_json::to_string(&*board).expect("boards serialise");
        let listed = self.shell.scheduled.then(|| {
            let listed = Listed {
                about: board.about.clone(),
                phase: board.standings.phase,
                players: board.standings.players,
            };
            serde_json::to_string(&listed).expect("listings serialise")
        });
        if let Some(cluster) = &mut self.cluster {
            cluster.pin(self.id.as_str(), &text, listed.as_deref(), kept).await;
        }
    }

    /// What falls due on a node of a cluster: the requests relayed from other nodes, and the
    /// news of the games that do not tell it theirs.
    pub(super) async fn in_cluster(&mut self) {
        let now = Instant::now();
        let Some(cluster) = &mut self.cluster else { return };
        if cluster.asks_at <= now {
            let asks = cluster.asks(self.id.as_str()).await;
            for (ask, asked) in asks {
                let done = |outcome: Result<(), ArenaError>| match outcome {
                    Ok(()) => Answered::Done,
                    Err(refusal) => Answered::Refused { refusal },
                };
                let answered = match asked {
                    Asked::Act { input } => done(self.act(input).await),
                    // Started, or not waiting, as every release answers; a start not kept as
                    // a refusal (a node of the release before hears no answer: not now).
                    Asked::Start => match self.start_now().await {
                        Ok(()) => Answered::Started { started: true },
                        Err(ArenaError::Shell(Refused::NotTheMaker)) => {
                            Answered::Started { started: false }
                        }
                        Err(refusal) => Answered::Refused { refusal },
                    },
                };
                if let Some(cluster) = &self.cluster {
                    cluster.answer(&ask, &answered).await;
                }
            }
        }
        let Some(cluster) = &mut self.cluster else { return };
        if cluster.peek_at <= now {
            let games: Vec<GameId> = self.numbers.keys().cloned().collect();
            let patience = self.host.upgrade().map(|h| h.config().patience).unwrap_or_default();
            for (game, news) in cluster.peek(games, patience).await {
                match news {
                    Some(news) => self.news(&game, news).await,
                    None => {
                        let Some(no) = self.numbers.remove(&game) else { continue };
                        self.tables.remove(&no);
                        tracing::warn!(arena = %self.id, %no, "a game of the arena was lost: called off");
                        let ended =
                            Input::GameEnded { game: no, verdict: Verdict::Cancelled, plies: 0 };
                        self.feed(ended).await;
                    }
                }
            }
        }
    }
}
