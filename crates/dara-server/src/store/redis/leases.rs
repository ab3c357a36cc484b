//! A node's leases on its games: taking a game up from Redis when its node is gone, giving
//! games up, touching their keys, and saying that the node is alive.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::time::Duration;

use redis::{Pipeline, ServerError, Value};

use super::keys::{alive_key, meta_key, Keys};
use super::{redis_error, scripts, Redis, LEASE, ORPHANS_KEPT};
use crate::cluster::NodeName;
use crate::game::GameEvent;
use crate::seat::GameId;
use crate::store::record::{GameRecord, StoredGame, StoredSeats};
use crate::store::StoreError;

/// Where a game is, as Redis says.
#[derive(Debug)]
pub enum Whereabouts {
    /// Redis has no such game (never there, or erased).
    Gone,
    /// A node holds its lease.
    Held(NodeName),
    /// Its lease had lapsed, and this node has taken it: here it is, to be taken up.
    Taken(StoredGame),
}

impl Redis {
    /// Where game `game` is; if its node is no longer alive, it is this node's now (see
    /// [`Whereabouts::Taken`]).
    ///
    /// # Errors
    /// Redis failed, or the game does not read.
    pub async fn find(&self, game: &GameId) -> Result<Whereabouts, StoreError> {
        let keys = Keys::of(game);
        let mut conn = self.connection();
        let answer = scripts::take(&mut conn, &keys, self.inner.node.as_str(), ORPHANS_KEPT)
            .await
            .map_err(redis_error)?;
        match answer.first().map(String::as_str) {
            Some("gone") => Ok(Whereabouts::Gone),
            Some("held") => {
                let token = answer.get(1).map(String::as_str).unwrap_or_default();
                let node = token.rsplit_once(':').map_or(token, |(node, _)| node);
                match node.parse() {
                    Ok(node) => Ok(Whereabouts::Held(node)),
                    Err(_) => Err(StoreError::Corrupt(format!("a lease {token:?} of game {game}"))),
                }
            }
            Some("taken") => {
                let epoch = answer.get(1).cloned().unwrap_or_default();
                let token = format!("{}:{epoch}", self.inner.node);
                self.inner.held.lock().expect("leases lock").insert(game.clone(), token);
                match self.load(game, &keys).await {
                    Ok(stored) => Ok(Whereabouts::Taken(stored)),
                    Err(e) => {
                        self.release(game).await;
                        Err(e)
                    }
                }
            }
            _ => Err(StoreError::Corrupt(format!("an answer {answer:?} about game {game}"))),
        }
    }

    /// Whether Redis has game `game`.
    ///
    /// # Errors
    /// Redis failed.
    pub async fn exists(&self, game: &GameId) -> Result<bool, StoreError> {
        let mut conn = self.connection();
        redis::cmd("EXISTS").arg(meta_key(game)).query_async(&mut conn).await.map_err(redis_error)
    }

    /// Touches the keys of every game this node runs (see [`TOUCH_EVERY`](super::TOUCH_EVERY)).
    ///
    /// # Errors
    /// Redis failed.
    pub async fn touch(&self) -> Result<(), StoreError> {
        let held = self.held_tokens();
        if held.is_empty() {
            return Ok(());
        }
        let touch = |pipe: &mut Pipeline, i: usize| {
            let (game, token) = &held[i];
            scripts::touch(pipe, &Keys::of(game), token, ORPHANS_KEPT);
        };
        let answers = scripts::run(&mut self.connection(), held.len(), touch).await;
        match answers.map_err(redis_error)?.into_iter().find_map(refusal) {
            Some(e) => Err(StoreError::Redis(e.to_string())),
            None => Ok(()),
        }
    }

    fn held_tokens(&self) -> Vec<(GameId, String)> {
        let held = self.inner.held.lock().expect("leases lock");
        held.iter().map(|(g, t)| (g.clone(), t.clone())).collect()
    }

    /// Forgets every lease this node held: it lapsed, so other nodes may have taken its games.
    /// Gives the games it ran.
    pub fn forget_leases(&self) -> Vec<GameId> {
        self.inner.held.lock().expect("leases lock").drain().map(|(game, _)| game).collect()
    }

    /// Gives up game `game`'s lease, so that another node may take it at once.
    pub async fn release(&self, game: &GameId) {
        let token = self.inner.held.lock().expect("leases lock").remove(game);
        if let Some(token) = token {
            self.give_up(&[(game.clone(), token)]).await;
        }
    }

    /// Gives up every lease (a node that stops hands its games over at once), in one round
    /// trip: a stopping node has seconds, not one round trip per game.
    pub async fn release_all(&self) {
        let held: Vec<(GameId, String)> =
            self.inner.held.lock().expect("leases lock").drain().collect();
        self.give_up(&held).await;
    }

    async fn give_up(&self, leases: &[(GameId, String)]) {
        if leases.is_empty() {
            return;
        }
        let release = |pipe: &mut Pipeline, i: usize| {
            let (game, token) = &leases[i];
            scripts::release(pipe, &Keys::of(game).lease, token);
        };
        let answers = scripts::run(&mut self.connection(), leases.len(), release).await;
        let failed = match answers {
            Ok(answers) => answers.into_iter().find_map(refusal).map(|e| e.to_string()),
            Err(e) => Some(e.to_string()),
        };
        if let Some(e) = failed {
            tracing::warn!(
                leases = leases.len(),
                "leases could not be given up (they lapse by themselves): {e}"
            );
        }
    }

    /// Says this node is alive, for [`LEASE`]; answers whether it still was (false: it
    /// lapsed since it last said so, and other nodes may have taken its games).
    ///
    /// # Errors
    /// Redis failed.
    pub async fn say_alive(&self) -> Result<bool, StoreError> {
        let mut conn = self.connection();
        let was = scripts::say_alive(&mut conn, &alive_key(&self.inner.node), LEASE).await;
        self.inner.reachable.store(was.is_ok(), Ordering::Release);
        Ok(was.map_err(redis_error)? == 1)
    }

    /// Says this node is gone (it stops).
    pub async fn say_gone(&self) {
        let mut conn = self.connection();
        let _ =
            redis::cmd("DEL").arg(alive_key(&self.inner.node)).query_async::<()>(&mut conn).await;
    }

    /// Which of `nodes` have said they are alive within [`LEASE`].
    ///
    /// # Errors
    /// Redis failed.
    pub async fn alive(&self, nodes: &[NodeName]) -> Result<Vec<bool>, StoreError> {
        if nodes.is_empty() {
            return Ok(Vec::new());
        }
        let mut pipe = redis::pipe();
        for node in nodes {
            pipe.cmd("EXISTS").arg(alive_key(node));
        }
        pipe.query_async(&mut self.connection()).await.map_err(redis_error)
    }

    /// How many games this node runs.
    pub fn held(&self) -> usize {
        self.inner.held.lock().expect("leases lock").len()
    }

    /// Whether this node holds game `game`'s lease, as far as it knows (it may have lapsed
    /// since, which the next renewal finds).
    pub fn holds(&self, game: &GameId) -> bool {
        self.inner.held.lock().expect("leases lock").contains_key(game)
    }

    /// Whether Redis answers.
    pub async fn ping(&self) -> bool {
        let mut conn = self.connection();
        let cmd = redis::cmd("PING");
        let ping = cmd.query_async::<String>(&mut conn);
        matches!(tokio::time::timeout(Duration::from_secs(1), ping).await, Ok(Ok(_)))
    }

    /// The game `game` as Redis keeps it, to be taken up.
    async fn load(&self, game: &GameId, keys: &Keys) -> Result<StoredGame, StoreError> {
        let mut conn = self.connection();
        let (meta, events): (HashMap<String, String>, Vec<String>) = redis::pipe()
            .cmd("HGETALL")
            .arg(&keys.meta)
            .cmd("LRANGE")
            .arg(&keys.events)
            .arg(0)
            .arg(-1)
            .query_async(&mut conn)
            .await
            .map_err(redis_error)?;
        let corrupt = |what: &str, e: &dyn std::fmt::Display| {
            StoreError::Corrupt(format!("{what} of game {game} that does not read: {e}"))
        };
        let field = |name: &str| meta.get(name).ok_or_else(|| corrupt(name, &"it is missing"));
        let record: GameRecord =
            serde_json::from_str(field("record")?).map_err(|e| corrupt("a record", &e))?;
        let seats: StoredSeats =
            serde_json::from_str(field("seats")?).map_err(|e| corrupt("seats", &e))?;
        let events = events
            .iter()
            .map(|text| {
                serde_json::from_str::<GameEvent>(text).map_err(|e| corrupt("an event", &e))
            })
            .collect::<Result<_, _>>()?;
        Ok(StoredGame { id: game.clone(), record, seats, events })
    }
}

/// A script's refusal among a pipeline's answers.
fn refusal(answer: Value) -> Option<ServerError> {
    match answer {
        Value::ServerError(e) => Some(e),
        _ => None,
    }
}
