//! The Lua scripts a node runs in Redis, each a [`redis::Script`] beside the one function that
//! gives it its keys and arguments in their order. A script is sent by its hash (`EVALSHA`),
//! not its text: Redis keeps every script it has been given until it restarts, fails over to a
//! replica or is told `SCRIPT FLUSH`, and a script it has lost is loaded again and rerun (by
//! the library for a call of its own, by [`run`] for a pipeline).
//!
//! The text of every script is the same, byte for byte, as the previous release sent with
//! `EVAL` (a test pins their hashes): nodes of both releases fence each other's writes in a
//! rolling upgrade, and share Redis's cache of scripts.

use std::sync::LazyLock;
use std::time::Duration;

use redis::aio::ConnectionManager;
use redis::{Pipeline, RedisResult, Script, ServerErrorKind, Value};

use super::keys::Keys;
use crate::duration::millis;

/// The head of every write to a game that runs: `KEYS[1]` is the game's lease, `KEYS[2]` this
/// node's liveness; `ARGV[1]` the lease's token.
const FENCE: &str = "if redis.call('GET', KEYS[1]) ~= ARGV[1] then \
     return redis.error_reply('FENCED the lease of the game is held by another node') end \
     if redis.call('EXISTS', KEYS[2]) == 0 then \
     return redis.error_reply('FENCED this node lapsed: its games may be taken') end ";

/// A new game: its lease, epoch 1, its record and seats.
static BEGIN: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        "if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[4]) then \
         return redis.error_reply('FENCED a game with this id is running elsewhere') end \
         if redis.call('EXISTS', KEYS[2]) == 0 then \
         return redis.error_reply('FENCED this node lapsed: its games may be taken') end \
         redis.call('SET', KEYS[3], 1, 'PX', ARGV[4]) \
         redis.call('HSET', KEYS[4], 'record', ARGV[2], 'seats', ARGV[3]) \
         redis.call('PEXPIRE', KEYS[4], ARGV[4]) return 1",
    )
});

/// The seats change.
static SEATS: LazyLock<Script> = LazyLock::new(|| {
    Script::new(&format!("{FENCE}redis.call('HSET', KEYS[3], 'seats', ARGV[2]) return 1"))
});

/// Event `v`, only as the journal's next.
static APPEND: LazyLock<Script> = LazyLock::new(|| {
    Script::new(&format!(
        "{FENCE}if redis.call('LLEN', KEYS[3]) ~= tonumber(ARGV[2]) - 1 then \
         return redis.error_reply('FENCED the journal is not at the version before this event') \
         end redis.call('RPUSH', KEYS[3], ARGV[3]) redis.call('PEXPIRE', KEYS[3], ARGV[4]) \
         return 1"
    ))
});

/// The game ends its life: nothing of it is left, and the seats taken at it from the lobby
/// (`KEYS[6]`, see `counts`) are no longer counted against their addresses.
/// (The counts it takes back are named in that list, not in KEYS: on a sharded Redis the
/// per-address counts would live on a shard of their own, and be taken back in a second step.)
static ERASE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(&format!(
        "{FENCE}for _, counter in ipairs(redis.call('LRANGE', KEYS[6], 0, -1)) do \
         if tonumber(redis.call('GET', counter) or '0') > 0 then redis.call('DECR', counter) end \
         end \
         redis.call('DEL', KEYS[1], KEYS[3], KEYS[4], KEYS[5], KEYS[6]) return 1"
    ))
});

/// Keeps a game's keys from being taken for an orphan's, if it is still this node's.
static TOUCH: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        "if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end \
         for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end return 1",
    )
});

/// Gives a lease up (a game's, or a pool's hold while a seeker is paired), if it is still its
/// holder's.
static RELEASE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        "if redis.call('GET', KEYS[1]) == ARGV[1] then \
         return redis.call('DEL', KEYS[1]) end return 0",
    )
});

/// Takes a game whose node is no longer alive (or is this node, which no longer runs it): a
/// new epoch, and the lease with it. Answers `{'gone'}`, `{'held', token}` or
/// `{'taken', epoch}`. (It reads the holder's liveness key, which it cannot name in KEYS: on a
/// sharded Redis the liveness keys would have to live beside each game's.)
static TAKE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        "if redis.call('EXISTS', KEYS[3]) == 0 then return {'gone'} end \
         local held = redis.call('GET', KEYS[1]) \
         if held then \
         local node = string.match(held, '^(.*):') \
         if node ~= ARGV[1] and redis.call('EXISTS', 'dara:node:' .. node .. ':alive') == 1 then \
         return {'held', held} end end \
         local epoch = redis.call('INCR', KEYS[2]) \
         redis.call('SET', KEYS[1], ARGV[1] .. ':' .. epoch, 'PX', ARGV[2]) \
         return {'taken', tostring(epoch)}",
    )
});

/// Says a node is alive; answers whether it still was (0: it lapsed meanwhile).
static ALIVE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        "local was = redis.call('EXISTS', KEYS[1]) \
         redis.call('SET', KEYS[1], 1, 'PX', ARGV[1]) return was",
    )
});

/// Counts one more, unless the count is at `limit` already.
static COUNT: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        "local n = redis.call('INCR', KEYS[1]) \
         redis.call('PEXPIRE', KEYS[1], ARGV[2]) \
         if n > tonumber(ARGV[1]) then redis.call('DECR', KEYS[1]) return 0 end return 1",
    )
});

/// Counts one fewer, never below nothing.
static UNCOUNT: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        "if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then \
         redis.call('DECR', KEYS[1]) end return 1",
    )
});

/// Counts one more seat, unless the count is at `limit` already, and notes the count beside the
/// game (`KEYS[2]`), for the game's erasure to take it back wherever it ends.
static COUNT_SEAT: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        "local n = redis.call('INCR', KEYS[1]) \
         redis.call('PEXPIRE', KEYS[1], ARGV[2]) \
         if n > tonumber(ARGV[1]) then redis.call('DECR', KEYS[1]) return 0 end \
         redis.call('RPUSH', KEYS[2], KEYS[1]) redis.call('PEXPIRE', KEYS[2], ARGV[2]) return 1",
    )
});

/// Takes back a seat counted beside the game, if it still is.
static UNCOUNT_SEAT: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        "if redis.call('LREM', KEYS[2], 1, KEYS[1]) == 1 and \
         tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end \
         return 1",
    )
});

/// Every script, to be loaded together.
fn every_script() -> [&'static Script; 12] {
    [
        &BEGIN,
        &SEATS,
        &APPEND,
        &ERASE,
        &TOUCH,
        &RELEASE,
        &TAKE,
        &ALIVE,
        &COUNT,
        &UNCOUNT,
        &COUNT_SEAT,
        &UNCOUNT_SEAT,
    ]
    .map(|script| &**script)
}

/// Adds the loading of every script to `pipe`, their answers ignored.
fn load_every_script(pipe: &mut Pipeline) {
    for script in every_script() {
        pipe.load_script(script).ignore();
    }
}

/// Loads every script into Redis, in one round trip: a node does so when it starts, so that its
/// first writes find them.
pub(super) async fn load(conn: &mut ConnectionManager) -> RedisResult<()> {
    let mut pipe = redis::pipe();
    load_every_script(&mut pipe);
    pipe.query_async(conn).await
}

/// A game begins: its lease as `token` (fenced by this node's liveness key `alive`), its
/// `record` and `seats` as JSON, its keys kept for `kept_for` after the last write.
pub(super) fn begin(
    pipe: &mut Pipeline,
    keys: &Keys,
    alive: &str,
    token: &str,
    (record, seats): (&str, &str),
    kept_for: Duration,
) {
    pipe.invoke_script(
        BEGIN
            .key(&keys.lease)
            .key(alive)
            .key(&keys.epoch)
            .key(&keys.meta)
            .arg(token)
            .arg(record)
            .arg(seats)
            .arg(millis(kept_for)),
    );
}

/// A game's seats are now `seats` (JSON).
pub(super) fn seats(pipe: &mut Pipeline, keys: &Keys, alive: &str, token: &str, seats: &str) {
    pipe.invoke_script(SEATS.key(&keys.lease).key(alive).key(&keys.meta).arg(token).arg(seats));
}

/// Event `v` of a game, `event` as JSON.
pub(super) fn append(
    pipe: &mut Pipeline,
    keys: &Keys,
    alive: &str,
    token: &str,
    (v, event): (u64, &str),
    kept_for: Duration,
) {
    pipe.invoke_script(
        APPEND
            .key(&keys.lease)
            .key(alive)
            .key(&keys.events)
            .arg(token)
            .arg(v)
            .arg(event)
            .arg(millis(kept_for)),
    );
}

/// A game ends its life, and the seats counted at it (listed at `seated`) are taken back.
pub(super) fn erase(pipe: &mut Pipeline, keys: &Keys, alive: &str, seated: &str, token: &str) {
    pipe.invoke_script(
        ERASE
            .key(&keys.lease)
            .key(alive)
            .key(&keys.epoch)
            .key(&keys.meta)
            .key(&keys.events)
            .key(seated)
            .arg(token),
    );
}

/// A game's keys live `kept_for` longer, if its lease is still `token`.
pub(super) fn touch(pipe: &mut Pipeline, keys: &Keys, token: &str, kept_for: Duration) {
    pipe.invoke_script(
        TOUCH
            .key(&keys.lease)
            .key(&keys.epoch)
            .key(&keys.meta)
            .key(&keys.events)
            .arg(token)
            .arg(millis(kept_for)),
    );
}

/// The lease `lease` is given up, if it is still `token`.
pub(super) fn release(pipe: &mut Pipeline, lease: &str, token: &str) {
    pipe.invoke_script(RELEASE.key(lease).arg(token));
}

/// [`release`], on its own: answers 1 if it was given up, 0 if it was not `token`'s any more.
pub(super) async fn release_now(
    conn: &mut ConnectionManager,
    lease: &str,
    token: &str,
) -> RedisResult<i64> {
    RELEASE.key(lease).arg(token).invoke_async(conn).await
}

/// Takes a game for node `node` if its holder is no longer alive, the lease's key kept for
/// `kept_for`: answers `["gone"]`, `["held", token]` or `["taken", epoch]`.
pub(super) async fn take(
    conn: &mut ConnectionManager,
    keys: &Keys,
    node: &str,
    kept_for: Duration,
) -> RedisResult<Vec<String>> {
    TAKE.key(&keys.lease)
        .key(&keys.epoch)
        .key(&keys.meta)
        .arg(node)
        .arg(millis(kept_for))
        .invoke_async(conn)
        .await
}

/// Says a node (its liveness key `alive`) is alive for `lease`; answers 1 if it still was.
pub(super) async fn say_alive(
    conn: &mut ConnectionManager,
    alive: &str,
    lease: Duration,
) -> RedisResult<i64> {
    ALIVE.key(alive).arg(millis(lease)).invoke_async(conn).await
}

/// Counts one more at `counter` (kept for `kept_for`) unless it is at `limit`: answers 1 if it
/// counted, 0 if not.
pub(super) async fn count(
    conn: &mut ConnectionManager,
    counter: &str,
    limit: usize,
    kept_for: Duration,
) -> RedisResult<i64> {
    COUNT.key(counter).arg(limit).arg(millis(kept_for)).invoke_async(conn).await
}

/// Counts one fewer at `counter`, never below nothing.
pub(super) async fn uncount(conn: &mut ConnectionManager, counter: &str) -> RedisResult<i64> {
    UNCOUNT.key(counter).invoke_async(conn).await
}

/// [`count`] for a seat, noting `counter` in the game's list `seated` when it counts.
pub(super) async fn count_seat(
    conn: &mut ConnectionManager,
    (counter, seated): (&str, &str),
    limit: usize,
    kept_for: Duration,
) -> RedisResult<i64> {
    COUNT_SEAT.key(counter).key(seated).arg(limit).arg(millis(kept_for)).invoke_async(conn).await
}

/// Takes back a seat counted at `counter`, if the game's list `seated` still holds it.
pub(super) async fn uncount_seat(
    conn: &mut ConnectionManager,
    counter: &str,
    seated: &str,
) -> RedisResult<i64> {
    UNCOUNT_SEAT.key(counter).key(seated).invoke_async(conn).await
}

/// Whether an answer says Redis did not have the script (so it did nothing).
fn is_lost_script(answer: &Value) -> bool {
    matches!(answer, Value::ServerError(e) if e.kind() == Some(ServerErrorKind::NoScript))
}

/// Runs `count` script invocations in one pipeline, `add(pipe, i)` adding the `i`th, and
/// answers each in order (a script's refusal among them, as a [`Value::ServerError`]).
///
/// If Redis had lost scripts (it restarted, failed over, or was told `SCRIPT FLUSH`: the
/// library loads a script again for a call of its own, not in a pipeline), every script is
/// loaded and the invocations that found theirs missing, which did nothing, are sent again in
/// their order, in a second round trip. They then run after the invocations behind them that
/// did run, which changes nothing that matters: every write to a game is fenced by its lease
/// and an event by the journal's length, so a write that ran before one it needed was refused
/// (its game stops, as after any failed write, and goes on from what Redis has), and the rest
/// (a game's seats and its events) are kept in keys of their own.
pub(super) async fn run(
    conn: &mut ConnectionManager,
    count: usize,
    add: impl Fn(&mut Pipeline, usize),
) -> RedisResult<Vec<Value>> {
    if count == 0 {
        return Ok(Vec::new());
    }
    let mut pipe = redis::pipe();
    pipe.ignore_errors();
    (0..count).for_each(|i| add(&mut pipe, i));
    let mut answers: Vec<Value> = pipe.query_async(conn).await?;
    let lost: Vec<usize> = (0..answers.len()).filter(|&i| is_lost_script(&answers[i])).collect();
    if lost.is_empty() {
        return Ok(answers);
    }
    tracing::info!(invocations = lost.len(), "Redis had lost its scripts: they are loaded again");
    let mut again = redis::pipe();
    again.ignore_errors();
    load_every_script(&mut again);
    lost.iter().for_each(|&i| add(&mut again, i));
    let rerun: Vec<Value> = again.query_async(conn).await?;
    for (i, answer) in lost.into_iter().zip(rerun) {
        answers[i] = answer;
    }
    Ok(answers)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scripts' hashes as the previous release's `EVAL` texts give them: a script changed
    /// by a byte here would no longer be the one an older node runs beside it.
    #[test]
    fn the_scripts_are_the_previous_releases() {
        let pinned = [
            (&BEGIN, "cbd9a5cbe466c56d8f0e858c3dd6588e7b341988"),
            (&SEATS, "3365583ad8eda8be8c3f18ec460d8df3cef0831b"),
            (&APPEND, "cb0637c91da1103e6f62e9d44f0a14ad75dd6763"),
            (&ERASE, "3afd4f5169596f68f9f0af07a73850a91a405b0d"),
            (&TOUCH, "5eb326d3248b61b732d8515e4bfdfe30f166d6e6"),
            (&RELEASE, "6fbe84d1140fd2047394924af9d845b83c070bec"),
            (&TAKE, "bc14ea6c45aae0aada3d78e05ad439a6221d1341"),
            (&ALIVE, "f789f34b82f36c4b42f840335a3989f3baa950f2"),
            (&COUNT, "fd6f1d2554c7c7c784cad41d1eb391c72ec99507"),
            (&UNCOUNT, "a66cdeef3fbd6701e60dc94d3d30b1bb8c958ac0"),
            (&COUNT_SEAT, "9c5fdf74a176532801e39bdb62b6e55edc13f8db"),
            (&UNCOUNT_SEAT, "260dcd6ad9dc09c81271ef8087101c2105e576c7"),
        ];
        for (script, hash) in pinned {
            assert_eq!(script.get_hash(), hash);
        }
        let loaded: Vec<&str> = every_script().iter().map(|script| script.get_hash()).collect();
        let hashes: Vec<&str> = pinned.iter().map(|(_, hash)| *hash).collect();
        assert_eq!(loaded, hashes, "every script is loaded");
    }
}
