//! A node's leases on its games: taking a game up from Redis when its node is gone, giving
//! games up, touching their keys, and saying that the node is alive.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use redis::{Pipeline, ServerError, Value};

use dara_table::GameEvent;

use super::keys::{alive_key, meta_key, Keys};
use super::node::NodeName;
use super::{redis_error, scripts, Redis, LEASE, ORPHANS_KEPT};
use crate::seat::GameId;
use crate::store::error::StoreError;
use crate::store::record::{GameRecord, StoredGame, StoredSeats};

/// Where a game is, as Redis says.
#[derive(Debug)]
pub enum Whereabouts {
    /// Redis has no such game (never there, or erased).
    Gone,
    /// A node holds its lease.
    Held(NodeName),
    /// Its lease had lapsed, and this node has taken it: here it is, to be taken up, with the
    /// store its new life writes through (fenced by the lease just taken).
    Taken(StoredGame, Redis),
}

/// A node's lease on one game as Redis holds it (`node:epoch`): the fencing token of every
/// write of the one life of the game that took it. Every taking up makes a new epoch, so a
/// life's writes are refused once the game has a later life, here or on another node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease(Arc<str>);

impl Lease {
    /// The lease a game begun on `node` starts with: epoch 1.
    pub(super) fn first(node: &NodeName) -> Lease {
        Lease::of(node, "1")
    }

    fn of(node: &NodeName, epoch: &str) -> Lease {
        Lease(format!("{node}:{epoch}").into())
    }

    /// The token as Redis keeps it.
    pub(super) fn token(&self) -> &str {
        &self.0
    }
}

/// The leases a node holds, and how many times it found it had lapsed: a game taken up by a
/// request sent before a lapse was found may have been taken by another node since, so its
/// lease is not noted as held (see [`Redis::find`]).
#[derive(Debug, Default)]
pub(super) struct Leases {
    pub(super) held: HashMap<GameId, Lease>,
    lapses: u64,
}

impl Leases {
    /// Whether the node holds `lease` on game `game`: not once it lapsed since that lease was
    /// taken, nor once a later life of the game took another.
    pub(super) fn holds(&self, game: &GameId, lease: &Lease) -> bool {
        self.held.get(game) == Some(lease)
    }

    /// Lets go of game `game`'s lease if it is still `lease` (a later one is another life's);
    /// says whether it was.
    pub(super) fn let_go(&mut self, game: &GameId, lease: &Lease) -> bool {
        let held = self.holds(game, lease);
        if held {
            self.held.remove(game);
        }
        held
    }
}

impl Redis {
    /// Where game `game` is; if its node is no longer alive, it is this node's now (see
    /// [`Whereabouts::Taken`]).
    ///
    /// # Errors
    /// Redis failed, or the game does not read.
    pub async fn find(&self, game: &GameId) -> Result<Whereabouts, StoreError> {
        let keys = Keys::of(game);
        let lapses = self.inner.leases.lock().expect("leases lock").lapses;
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
                let epoch = answer.get(1).map(String::as_str).unwrap_or_default();
                let lease = Lease::of(&self.inner.node, epoch);
                let noted = {
                    let mut leases = self.inner.leases.lock().expect("leases lock");
                    let noted = leases.lapses == lapses;
                    if noted {
                        leases.held.insert(game.clone(), lease.clone());
                    }
                    noted
                };
                // This node found it had lapsed while the take was on its way: Redis may have
                // run the take before this node said it was alive again, when another node
                // could take the game from it. Only a take sent after that is surely its own.
                if !noted {
                    self.give_up(&[(game.clone(), lease)]).await;
                    let why = format!("this node lapsed as it took game {game} up: given back");
                    return Err(StoreError::Fenced(why));
                }
                match self.load(game, &keys).await {
                    Ok(stored) => Ok(Whereabouts::Taken(stored, self.leased(lease))),
                    Err(e) => {
                        self.leased(lease).release(game).await;
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
            scripts::touch(pipe, &Keys::of(game), token.token(), ORPHANS_KEPT);
        };
        let answers = scripts::run(&mut self.connection(), held.len(), touch).await;
        match answers.map_err(redis_error)?.into_iter().find_map(refusal) {
            Some(e) => Err(StoreError::Redis(e.to_string())),
            None => Ok(()),
        }
    }

    fn held_tokens(&self) -> Vec<(GameId, Lease)> {
        let leases = self.inner.leases.lock().expect("leases lock");
        leases.held.iter().map(|(g, t)| (g.clone(), t.clone())).collect()
    }

    /// Forgets every lease this node held: it lapsed, so other nodes may have taken its games.
    /// Gives the games it ran.
    pub fn forget_leases(&self) -> Vec<GameId> {
        let mut leases = self.inner.leases.lock().expect("leases lock");
        leases.lapses += 1;
        leases.held.drain().map(|(game, _)| game).collect()
    }

    /// Gives up the lease of game `game` this life took, so that another node may take the
    /// game at once (nothing, through the node's own handle, or once a later life took it).
    pub async fn release(&self, game: &GameId) {
        let Some(lease) = self.lease.clone() else { return };
        let held = self.inner.leases.lock().expect("leases lock").let_go(game, &lease);
        if held {
            self.give_up(&[(game.clone(), lease)]).await;
        }
    }

    /// Gives up every lease (a node that stops hands its games over at once), in one round
    /// trip: a stopping node has seconds, not one round trip per game.
    pub async fn release_all(&self) {
        let held: Vec<(GameId, Lease)> =
            self.inner.leases.lock().expect("leases lock").held.drain().collect();
        self.give_up(&held).await;
    }

    async fn give_up(&self, leases: &[(GameId, Lease)]) {
        if leases.is_empty() {
            return;
        }
        let release = |pipe: &mut Pipeline, i: usize| {
            let (game, token) = &leases[i];
            scripts::release(pipe, &Keys::of(game).lease, token.token());
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
        self.inner.leases.lock().expect("leases lock").held.len()
    }

    /// Whether this life of game `game` still holds its lease, as far as this node knows (it
    /// may have lapsed since, which the next renewal finds): not if the node lapsed since it
    /// took it, nor if a later life took the game anew.
    pub fn holds(&self, game: &GameId) -> bool {
        let leases = self.inner.leases.lock().expect("leases lock");
        self.lease.as_ref().is_some_and(|lease| leases.holds(game, lease))
    }

    /// Whether Redis answers.
    pub async fn ping(&self) -> bool {
        let mut conn = self.connection();
        let cmd = redis::cmd("PING");
        let ping = cmd.query_async::<String>(&mut conn);
        matches!(tokio::time::timeout(Duration::from_secs(1), ping).await, Ok(Ok(_)))
    }

    /// The game `game` as Redis keeps it, to be taken up.
    pub(super) async fn load(&self, game: &GameId, keys: &Keys) -> Result<StoredGame, StoreError> {
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use dara::{ByColour, Colour};
    use dara_table::{GameSettings, Opponent};

    use super::super::scratch::Scratch;
    use super::*;
    use crate::seat::Seat;
    use crate::store::write::Write;

    async fn node(scratch: &Scratch) -> Redis {
        let name = NodeName::given("n1").unwrap().incarnation();
        let (redis, _) = Redis::connect(&scratch.url(), name).await.unwrap();
        redis.say_alive().await.unwrap();
        redis
    }

    fn seats(game: &GameId) -> Write {
        let seats = StoredSeats::new(&ByColour { white: Seat::Open, black: Seat::Open });
        Write::Seats { game: game.clone(), seats }
    }

    /// A game begun on `redis`'s node: the life that began it.
    async fn begun(redis: &Redis, game: &GameId) -> Redis {
        let settings = GameSettings {
            rules: dara::Ruleset::default(),
            opponent: Opponent::Friend,
            creator: Colour::White,
            clock: None,
        };
        let Write::Seats { seats, .. } = seats(game) else { unreachable!() };
        let record = GameRecord::new(&settings, "2026.12.04");
        let life = redis.for_new_game();
        life.send(vec![Write::Begin { game: game.clone(), record, seats }]).await.unwrap().unwrap();
        life
    }

    /// A node that takes a game up again while an earlier life of it still runs there (it
    /// was given up, and winds down): only the later life writes. The earlier one used to
    /// write through whatever lease the node held for the game, the later life's, and so went
    /// on as the game while the later life, entered in the node's book, served its older
    /// snapshot to whoever came.
    #[tokio::test]
    async fn only_the_latest_life_of_a_game_writes() {
        let scratch = Scratch::start().await;
        let redis = node(&scratch).await;
        let game = GameId::from_bits(11);
        let first = begun(&redis, &game).await;
        assert!(first.holds(&game));

        let Whereabouts::Taken(_, second) = redis.find(&game).await.unwrap() else {
            panic!("a node's own game, not running there, is taken up again");
        };
        assert!(second.holds(&game) && !first.holds(&game));
        let refused = first.send(vec![seats(&game)]).await.unwrap();
        assert!(matches!(refused, Err(StoreError::Fenced(_))), "{refused:?}");
        second.send(vec![seats(&game)]).await.unwrap().unwrap();
    }

    /// A take that Redis answers after the node found it had lapsed is given back: Redis may
    /// have run it while the node was not alive, when another node could take the game too.
    #[tokio::test]
    async fn a_take_answered_after_a_lapse_is_given_back() {
        let scratch = Scratch::start().await;
        let redis = node(&scratch).await;
        let game = GameId::from_bits(12);
        begun(&redis, &game).await;
        redis.forget_leases();

        scratch.pause();
        let finding = tokio::spawn({
            let redis = redis.clone();
            let game = game.clone();
            async move { redis.find(&game).await }
        });
        tokio::time::sleep(Duration::from_millis(300)).await;
        // The renewal finds the node lapsed while the take waits in the paused Redis.
        redis.forget_leases();
        scratch.resume();
        let found = finding.await.unwrap();
        assert!(matches!(found, Err(StoreError::Fenced(_))), "{found:?}");
        assert_eq!(redis.held(), 0, "a lease noted that the node may not hold");
        let lease: Option<String> = redis::cmd("GET")
            .arg(Keys::of(&game).lease)
            .query_async(&mut redis.connection())
            .await
            .unwrap();
        assert_eq!(lease, None, "the lease taken was not given back");
    }
}
