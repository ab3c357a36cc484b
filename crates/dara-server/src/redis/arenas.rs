//! The arenas of a cluster in Redis. Each arena is paired by one node, the holder of its lease
//! (`node:epoch`, held through the node's liveness as a game's is, see [`leases`](super::leases)),
//! and kept in keys of its own (see [`ArenaKeys`]): its settings and shell, its journal, the
//! table of each of its games, its board as last pinned, and the requests other nodes relay to
//! it. Every write is fenced by the lease's token and the node's liveness, and an event by the
//! journal's length, so a holder that was paused past its lease cannot write once another node
//! took the arena up.
//!
//! Unlike a game, which waits for its next socket, an arena is taken up by whichever node
//! looks first ([`Redis::lapsed_arenas`], [`Redis::take_arena`]): it pairs on its own clock.
//!
//! Requests from players on other nodes (join, pause, start...) wait in the arena's list of
//! asks, which its holder drains a few times a second; each answer is left under a key of its
//! own, which the asking node waits on (`BLPOP`, on a connection of its own, as it blocks).

use std::collections::HashMap;
use std::sync::LazyLock;
use std::time::Duration;

use rand::rngs::OsRng;
use rand::RngCore;
use redis::{Script, Value};

use super::keys::{alive_key, arena_answer_key, meta_key, ArenaKeys, Keys, ARENAS, ARENAS_LISTED};
use super::{redis_error, Redis};
use crate::duration::millis;
use crate::seat::GameId;
use crate::store::error::StoreError;
use crate::store::record::StoredGame;
use crate::store::write::{ArenaWrite, StoredArena};

/// How long a relayed request waits for the arena's answer: long enough for another node to
/// take the arena up if its holder has just died.
const ASK_WAITS: Duration = Duration::from_secs(12);

/// How long a request waits in an arena's list before it is dropped unanswered (its asker has
/// given up on it).
const ASK_KEPT: Duration = Duration::from_secs(15);

/// How many relayed requests a holder takes at a time.
const ASKS_AT_ONCE: usize = 64;

/// A node's lease on one arena (`node:epoch`): the fencing token of every write it makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArenaLease(String);

/// A request relayed to an arena's holder, and where its answer goes.
#[derive(Debug)]
pub struct Ask {
    /// Where the answer is left.
    reply: String,
    /// What is asked, as the asker wrote it.
    pub what: String,
}

/// The head of every write to an arena: `KEYS[1]` its lease, `KEYS[2]` this node's liveness;
/// `ARGV[1]` the lease's token.
const ARENA_FENCE: &str = "if redis.call('GET', KEYS[1]) ~= ARGV[1] then \
     return redis.error_reply('FENCED the arena is paired by another node') end \
     if redis.call('EXISTS', KEYS[2]) == 0 then \
     return redis.error_reply('FENCED this node lapsed: its arenas may be taken') end ";

/// A new arena, made only if it is not there yet (one per scheduled slot, cluster-wide): its
/// lease, epoch 1, its settings and shell, and its id in the set of arenas. Answers 0 if it
/// was there already.
static OPEN: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        "if redis.call('EXISTS', KEYS[4]) == 1 then return 0 end \
         if redis.call('EXISTS', KEYS[2]) == 0 then \
         return redis.error_reply('FENCED this node lapsed: its arenas may be taken') end \
         redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) \
         redis.call('SET', KEYS[3], 1, 'PX', ARGV[2]) \
         redis.call('HSET', KEYS[4], 'settings', ARGV[4], 'shell', ARGV[5]) \
         redis.call('PEXPIRE', KEYS[4], ARGV[2]) \
         redis.call('SADD', KEYS[9], ARGV[3]) return 1",
    )
});

/// One write to an arena, fenced, by its kind (`ARGV[4]`); its keys then live `ARGV[2]` ms
/// longer. `KEYS`: lease, liveness, epoch, meta, events, tables, board, asks, the set of
/// arenas, the listing; `ARGV`: token, keeping, id, kind, then the kind's own.
static WRITE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(&format!(
        "{ARENA_FENCE}local kind = ARGV[4] \
         if kind == 'meta' then redis.call('HSET', KEYS[4], 'settings', ARGV[5], 'shell', ARGV[6]) \
         elseif kind == 'events' then \
         if redis.call('LLEN', KEYS[5]) ~= tonumber(ARGV[5]) - 1 then \
         return redis.error_reply('FENCED the journal is not at the version before these events') \
         end for i = 6, #ARGV do redis.call('RPUSH', KEYS[5], ARGV[i]) end \
         elseif kind == 'table' then redis.call('HSET', KEYS[6], ARGV[5], ARGV[6]) \
         elseif kind == 'board' then redis.call('SET', KEYS[7], ARGV[5]) \
         if ARGV[6] ~= '' then redis.call('HSET', KEYS[10], ARGV[3], ARGV[6]) end \
         elseif kind == 'erase' then \
         redis.call('DEL', KEYS[1], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8]) \
         redis.call('SREM', KEYS[9], ARGV[3]) redis.call('HDEL', KEYS[10], ARGV[3]) return 1 \
         end \
         for _, i in ipairs({{1, 3, 4, 5, 6, 7}}) do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end \
         return 1"
    ))
});

/// The arenas whose holder is no longer alive, that have no holder, or whose holder is the
/// asking node `ARGV[1]` (its owner there stopped: a write of its was refused); forgets those
/// whose keys have lapsed. (It reads keys it cannot name in KEYS, as the games' takeover does.)
static LAPSED: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        "local lapsed = {} \
         for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do \
         local base = 'dara:arena:{' .. id .. '}:' \
         if redis.call('EXISTS', base .. 'meta') == 0 then redis.call('SREM', KEYS[1], id) \
         redis.call('HDEL', KEYS[2], id) else \
         local held = redis.call('GET', base .. 'lease') \
         local node = held and string.match(held, '^(.*):') \
         if not node or node == ARGV[1] or \
         redis.call('EXISTS', 'dara:node:' .. node .. ':alive') == 0 then \
         table.insert(lapsed, id) end end end \
         return lapsed",
    )
});

/// Takes an arena whose holder is no longer alive (or is this node, whose owner of it stopped):
/// a new epoch, and the lease with it. Answers
/// `{'gone'}`, `{'held', token}` or `{'taken', epoch}`.
static TAKE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        "if redis.call('EXISTS', KEYS[3]) == 0 then return {'gone'} end \
         local held = redis.call('GET', KEYS[1]) \
         if held then local node = string.match(held, '^(.*):') \
         if node and node ~= ARGV[1] and \
         redis.call('EXISTS', 'dara:node:' .. node .. ':alive') == 1 then \
         return {'held', held} end end \
         local epoch = redis.call('INCR', KEYS[2]) \
         redis.call('SET', KEYS[1], ARGV[1] .. ':' .. epoch, 'PX', ARGV[2]) \
         return {'taken', tostring(epoch)}",
    )
});

impl Redis {
    /// The keys of a write to arena `arena`, in the order [`WRITE`] and [`OPEN`] read them.
    fn arena_script<'a>(
        &self,
        script: &'a Script,
        keys: &ArenaKeys,
    ) -> redis::ScriptInvocation<'a> {
        let mut invocation = script.prepare_invoke();
        invocation
            .key(&keys.lease)
            .key(alive_key(&self.inner.node))
            .key(&keys.epoch)
            .key(&keys.meta)
            .key(&keys.events)
            .key(&keys.tables)
            .key(&keys.board)
            .key(&keys.asks)
            .key(ARENAS)
            .key(ARENAS_LISTED);
        invocation
    }

    /// Makes arena `arena` in Redis, held by this node, its keys kept for `kept`; `None` if
    /// it was there already (another node made this scheduled arena first).
    ///
    /// # Errors
    /// Redis failed, or this node lapsed.
    pub async fn open_arena(
        &self,
        arena: &str,
        (settings, shell): (&str, &str),
        kept: Duration,
    ) -> Result<Option<ArenaLease>, StoreError> {
        let lease = ArenaLease(format!("{}:1", self.inner.node));
        let keys = ArenaKeys::of(arena);
        let mut invocation = self.arena_script(&OPEN, &keys);
        invocation.arg(&lease.0).arg(millis(kept)).arg(arena).arg(settings).arg(shell);
        let made: i64 =
            invocation.invoke_async(&mut self.connection()).await.map_err(redis_error)?;
        Ok((made == 1).then_some(lease))
    }

    /// Writes `writes` to arena `arena` through `lease`, in order, each fenced; its keys then
    /// live `kept` longer.
    ///
    /// # Errors
    /// Redis failed; [`StoreError::Fenced`] if another node holds the arena now.
    pub async fn write_arena(
        &self,
        lease: &ArenaLease,
        writes: &[ArenaWrite],
        kept: Duration,
    ) -> Result<(), StoreError> {
        let mut pipe = redis::pipe();
        pipe.ignore_errors();
        for write in writes {
            let (arena, kind, args): (&str, &str, Vec<String>) = match write {
                ArenaWrite::Open { arena, settings, shell } => {
                    (arena, "meta", vec![settings.clone(), shell.clone()])
                }
                ArenaWrite::Events { arena, from, events } => {
                    let mut args = vec![from.to_string()];
                    args.extend(events.iter().cloned());
                    (arena, "events", args)
                }
                ArenaWrite::Table { arena, no, game } => {
                    (arena, "table", vec![no.to_string(), game.to_string()])
                }
                ArenaWrite::Erase { arena } => (arena, "erase", Vec::new()),
            };
            let keys = ArenaKeys::of(arena);
            let mut invocation = self.arena_script(&WRITE, &keys);
            invocation.arg(&lease.0).arg(millis(kept)).arg(arena).arg(kind).arg(args);
            pipe.invoke_script(&invocation);
        }
        self.fenced_pipe(pipe).await
    }

    /// Pins arena `arena`'s board (JSON) for the other nodes' sockets, and its listing if it
    /// is one of the server's own.
    ///
    /// # Errors
    /// Redis failed; [`StoreError::Fenced`] if another node holds the arena now.
    pub async fn pin_arena(
        &self,
        lease: &ArenaLease,
        arena: &str,
        (board, listed): (&str, Option<&str>),
        kept: Duration,
    ) -> Result<(), StoreError> {
        let keys = ArenaKeys::of(arena);
        let mut invocation = self.arena_script(&WRITE, &keys);
        invocation
            .arg(&lease.0)
            .arg(millis(kept))
            .arg(arena)
            .arg("board")
            .arg(board)
            .arg(listed.unwrap_or_default());
        let mut pipe = redis::pipe();
        pipe.ignore_errors();
        pipe.invoke_script(&invocation);
        self.fenced_pipe(pipe).await
    }

    /// Runs a pipeline of fenced scripts (loading them if Redis lost them); the first refusal
    /// is the answer.
    async fn fenced_pipe(&self, pipe: redis::Pipeline) -> Result<(), StoreError> {
        let mut conn = self.connection();
        let mut answers: Vec<Value> = pipe.query_async(&mut conn).await.map_err(redis_error)?;
        if answers.iter().any(|a| matches!(a, Value::ServerError(e) if e.code() == "NOSCRIPT")) {
            let mut load = redis::pipe();
            load.load_script(&WRITE).ignore();
            load.query_async::<()>(&mut conn).await.map_err(redis_error)?;
            answers = pipe.query_async(&mut conn).await.map_err(redis_error)?;
        }
        for answer in answers {
            if let Value::ServerError(e) = answer {
                let text = e.details().unwrap_or_default().to_owned();
                return Err(if e.code() == "FENCED" {
                    StoreError::Fenced(text)
                } else {
                    StoreError::Redis(format!("{}: {text}", e.code()))
                });
            }
        }
        Ok(())
    }

    /// The arenas whose node died, that have no holder, or that this node holds (if it does
    /// not run them, their owner here stopped): to be taken up.
    ///
    /// # Errors
    /// Redis failed.
    pub async fn lapsed_arenas(&self) -> Result<Vec<String>, StoreError> {
        LAPSED
            .key(ARENAS)
            .key(ARENAS_LISTED)
            .arg(self.inner.node.as_str())
            .invoke_async(&mut self.connection())
            .await
            .map_err(redis_error)
    }

    /// Takes arena `arena` up if its holder is no longer alive: it as Redis keeps it, and the
    /// lease taken; `None` if it is gone or another node holds it.
    ///
    /// # Errors
    /// Redis failed.
    pub async fn take_arena(
        &self,
        arena: &str,
        kept: Duration,
    ) -> Result<Option<(StoredArena, ArenaLease)>, StoreError> {
        let keys = ArenaKeys::of(arena);
        let answer: Vec<String> = TAKE
            .key(&keys.lease)
            .key(&keys.epoch)
            .key(&keys.meta)
            .arg(self.inner.node.as_str())
            .arg(millis(kept))
            .invoke_async(&mut self.connection())
            .await
            .map_err(redis_error)?;
        if answer.first().map(String::as_str) != Some("taken") {
            return Ok(None);
        }
        let lease = ArenaLease(format!("{}:{}", self.inner.node, answer[1]));
        let (meta, events, tables): (HashMap<String, String>, Vec<String>, HashMap<u32, String>) =
            redis::pipe()
                .cmd("HGETALL")
                .arg(&keys.meta)
                .cmd("LRANGE")
                .arg(&keys.events)
                .arg(0)
                .arg(-1)
                .cmd("HGETALL")
                .arg(&keys.tables)
                .query_async(&mut self.connection())
                .await
                .map_err(redis_error)?;
        let field = |name: &str| meta.get(name).cloned().unwrap_or_default();
        let stored = StoredArena {
            id: arena.to_owned(),
            settings: field("settings"),
            shell: field("shell"),
            events,
            tables: tables.into_iter().collect(),
        };
        Ok(Some((stored, lease)))
    }

    /// Whether this node still holds arena `arena` through `lease`, and the requests relayed
    /// to it meanwhile (taken: each is to be answered).
    ///
    /// # Errors
    /// Redis failed.
    pub async fn arena_asks(
        &self,
        lease: &ArenaLease,
        arena: &str,
    ) -> Result<(bool, Vec<Ask>), StoreError> {
        let keys = ArenaKeys::of(arena);
        let (held, asks): (Option<String>, Option<Vec<String>>) = redis::pipe()
            .cmd("GET")
            .arg(&keys.lease)
            .cmd("LPOP")
            .arg(&keys.asks)
            .arg(ASKS_AT_ONCE)
            .query_async(&mut self.uncounted())
            .await
            .map_err(redis_error)?;
        let asks = asks
            .unwrap_or_default()
            .into_iter()
            .filter_map(|entry| {
                let (reply, what) = entry.split_once('\n')?;
                Some(Ask { reply: reply.to_owned(), what: what.to_owned() })
            })
            .collect();
        Ok((held.as_deref() == Some(lease.0.as_str()), asks))
    }

    /// Answers a relayed request.
    ///
    /// # Errors
    /// Redis failed.
    pub async fn answer_ask(&self, ask: &Ask, answer: &str) -> Result<(), StoreError> {
        redis::pipe()
            .cmd("RPUSH")
            .arg(&ask.reply)
            .arg(answer)
            .ignore()
            .cmd("PEXPIRE")
            .arg(&ask.reply)
            .arg(millis(ASK_KEPT))
            .ignore()
            .query_async::<()>(&mut self.uncounted())
            .await
            .map_err(redis_error)
    }

    /// Relays request `what` to arena `arena`'s holder, wherever it is, and waits for its
    /// answer; `None` if none came in time.
    ///
    /// # Errors
    /// Redis failed.
    pub async fn ask_arena(&self, arena: &str, what: &str) -> Result<Option<String>, StoreError> {
        let keys = ArenaKeys::of(arena);
        let reply = arena_answer_key(&format!("{:016x}", OsRng.next_u64()));
        // A blocking pop holds its connection: one of its own, not the node's shared one, which
        // waits as long as the pop does (a connection's own default gives up after half a
        // second, before most answers come).
        let waits = redis::AsyncConnectionConfig::new()
            .set_response_timeout(Some(ASK_WAITS + Duration::from_secs(1)))
            .set_connection_timeout(Some(Duration::from_secs(5)));
        let mut conn = self
            .inner
            .client
            .get_multiplexed_async_connection_with_config(&waits)
            .await
            .map_err(redis_error)?;
        // The request is left on that connection too, and waited on as one with its answer:
        // left on the shared one, whose answers are awaited 5 s, a request to a Redis stopped
        // longer was answered `not-now` here, then read when Redis woke, and carried out.
        let mut push = redis::pipe();
        push.cmd("RPUSH")
            .arg(&keys.asks)
            .arg(format!("{reply}\n{what}"))
            .ignore()
            .cmd("PEXPIRE")
            .arg(&keys.asks)
            .arg(millis(ASK_KEPT))
            .ignore();
        let mut blpop = redis::cmd("BLPOP");
        blpop.arg(&reply).arg(ASK_WAITS.as_secs());
        let asked = async {
            push.query_async::<()>(&mut conn).await?;
            blpop.query_async::<Option<(String, String)>>(&mut conn).await
        };
        match tokio::time::timeout(ASK_WAITS + Duration::from_secs(2), asked).await {
            Ok(popped) => Ok(popped.map_err(redis_error)?.map(|(_, answer)| answer)),
            Err(_) => Ok(None),
        }
    }

    /// Arena `arena`'s board as last pinned, and its shell; `None` if Redis has no such arena.
    ///
    /// # Errors
    /// Redis failed.
    pub async fn arena_board(
        &self,
        arena: &str,
    ) -> Result<Option<(Option<String>, String)>, StoreError> {
        let keys = ArenaKeys::of(arena);
        let (board, shell): (Option<String>, Option<String>) = redis::pipe()
            .cmd("GET")
            .arg(&keys.board)
            .cmd("HGET")
            .arg(&keys.meta)
            .arg("shell")
            .query_async(&mut self.uncounted())
            .await
            .map_err(redis_error)?;
        Ok(shell.map(|shell| (board, shell)))
    }

    /// The server's own arenas, as their holders last listed them.
    ///
    /// # Errors
    /// Redis failed.
    pub async fn listed_arenas(&self) -> Result<Vec<String>, StoreError> {
        redis::cmd("HVALS")
            .arg(ARENAS_LISTED)
            .query_async(&mut self.uncounted())
            .await
            .map_err(redis_error)
    }

    /// Game `game` as Redis keeps it now, wherever it runs, for its arena to read its news;
    /// `None` if Redis no longer has it.
    ///
    /// # Errors
    /// Redis failed, or the game does not read.
    pub async fn peek_game(&self, game: &GameId) -> Result<Option<StoredGame>, StoreError> {
        let there: bool = redis::cmd("EXISTS")
            .arg(meta_key(game))
            .query_async(&mut self.uncounted())
            .await
            .map_err(redis_error)?;
        if !there {
            return Ok(None);
        }
        self.load(game, &Keys::of(game)).await.map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::super::node::NodeName;
    use super::super::scratch::Scratch;
    use super::*;

    async fn node(scratch: &Scratch, name: &str) -> Redis {
        let name = NodeName::given(name).unwrap().incarnation();
        let (redis, _) = Redis::connect(&scratch.url(), name).await.unwrap();
        redis.say_alive().await.unwrap();
        redis
    }

    fn events(from: u64, texts: &[&str]) -> ArenaWrite {
        let events = texts.iter().map(|t| (*t).to_owned()).collect();
        ArenaWrite::Events { arena: "00000000000000aa".into(), from, events }
    }

    const KEPT: Duration = Duration::from_secs(60);

    /// An arena whose node died is taken up by another, with its journal and tables; the old
    /// holder, back from a pause, cannot write a single event after that, nor pin its board.
    #[tokio::test]
    async fn an_arena_taken_up_fences_its_old_holder() {
        let scratch = Scratch::start().await;
        let (first, second) = (node(&scratch, "a1").await, node(&scratch, "a2").await);
        let arena = "00000000000000aa";
        let old = first.open_arena(arena, ("{}", "{}"), KEPT).await.unwrap().unwrap();
        assert_eq!(second.open_arena(arena, ("{}", "{}"), KEPT).await.unwrap(), None);
        first.write_arena(&old, &[events(1, &["e1", "e2"])], KEPT).await.unwrap();
        let table = ArenaWrite::Table { arena: arena.into(), no: 1, game: GameId::from_bits(5) };
        first.write_arena(&old, &[table], KEPT).await.unwrap();
        // Out of order: refused.
        let gap = first.write_arena(&old, &[events(5, &["e5"])], KEPT).await;
        assert!(matches!(gap, Err(StoreError::Fenced(_))), "{gap:?}");
        assert!(second.lapsed_arenas().await.unwrap().is_empty(), "its node is alive");
        // Its own node lists it, to take it up again if it does not run it.
        assert_eq!(first.lapsed_arenas().await.unwrap(), [arena]);
        assert_eq!(second.take_arena(arena, KEPT).await.unwrap().map(|(s, _)| s.id), None);

        // The first node dies (its word that it is alive lapses).
        first.say_gone().await;
        assert_eq!(second.lapsed_arenas().await.unwrap(), vec![arena.to_owned()]);
        let (stored, new) = second.take_arena(arena, KEPT).await.unwrap().unwrap();
        assert_eq!(stored.events, ["e1", "e2"]);
        assert_eq!(stored.tables, [(1, GameId::from_bits(5).to_string())]);
        assert!(first.lapsed_arenas().await.unwrap().is_empty());

        // The first comes back: fenced, whatever it writes.
        first.say_alive().await.unwrap();
        let late = first.write_arena(&old, &[events(3, &["late"])], KEPT).await;
        assert!(matches!(late, Err(StoreError::Fenced(_))), "{late:?}");
        let pinned = first.pin_arena(&old, arena, ("{}", None), KEPT).await;
        assert!(matches!(pinned, Err(StoreError::Fenced(_))), "{pinned:?}");
        assert!(!first.arena_asks(&old, arena).await.unwrap().0, "it still thinks it holds it");
        second.write_arena(&new, &[events(3, &["e3"])], KEPT).await.unwrap();
        assert!(second.arena_asks(&new, arena).await.unwrap().0);
    }

    /// A request relayed from another node is answered by the holder, whatever node asks.
    #[tokio::test]
    async fn a_request_reaches_the_holder_and_its_answer_comes_back() {
        let scratch = Scratch::start().await;
        let (holder, asker) = (node(&scratch, "h").await, node(&scratch, "q").await);
        let arena = "00000000000000bb";
        let lease = holder.open_arena(arena, ("{}", "{}"), KEPT).await.unwrap().unwrap();
        let asking = tokio::spawn(async move { asker.ask_arena(arena, "join please").await });
        let asks = loop {
            let (held, asks) = holder.arena_asks(&lease, arena).await.unwrap();
            assert!(held);
            if !asks.is_empty() {
                break asks;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        assert_eq!(asks.len(), 1);
        assert_eq!(asks[0].what, "join please");
        // A holder busy for a while (pairing, writing) answers late: still heard.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        holder.answer_ask(&asks[0], "done").await.unwrap();
        assert_eq!(asking.await.unwrap().unwrap().as_deref(), Some("done"));
    }
}
