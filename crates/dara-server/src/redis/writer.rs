//! The writer of a node's Redis store: games send their writes over a channel, and one task
//! sends everything pending in one pipeline (group commit) and answers each game when Redis has
//! answered.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use redis::{Pipeline, RedisResult, Value};
use tokio::sync::{mpsc, oneshot};

use super::keys::{alive_key, seated_key, Keys};
use super::leases::Lease;
use super::{json, scripts, Inner, ORPHANS_KEPT};
use crate::seat::GameId;
use crate::store::error::StoreError;
use crate::store::write::Write;

/// Most writes sent in one pipeline.
const BATCH: usize = 1024;

/// What the writer is asked.
pub(super) enum Job {
    /// Writes of one game, each with its lease, to be answered together.
    Write(Vec<(Write, Lease)>, oneshot::Sender<Result<(), StoreError>>),
    /// Stop, once what came before is answered.
    Close(oneshot::Sender<()>),
}

impl Write {
    /// The game it is a write to.
    pub(super) fn game(&self) -> &GameId {
        match self {
            Write::Begin { game, .. }
            | Write::Seats { game, .. }
            | Write::Append { game, .. }
            | Write::Erase { game } => game,
            Write::Arena(_) => unreachable!("arenas are not sent to Redis (see `Store::send`)"),
        }
    }
}

/// The writer: sends everything pending in one pipeline, then answers.
pub(super) async fn write_loop(inner: Arc<Inner>, mut jobs: mpsc::UnboundedReceiver<Job>) {
    let mut conn = inner.conn.clone();
    let alive = alive_key(&inner.node);
    while let Some(first) = jobs.recv().await {
        let mut batch = vec![first];
        let mut writes = 0;
        while writes < BATCH {
            match jobs.try_recv() {
                Ok(job) => {
                    if let Job::Write(w, _) = &job {
                        writes += w.len();
                    }
                    batch.push(job);
                }
                Err(_) => break,
            }
        }
        let fenced: Vec<(&Write, &str)> = batch
            .iter()
            .flat_map(|job| match job {
                Job::Write(writes, _) => writes.as_slice(),
                Job::Close(_) => &[],
            })
            .map(|(write, lease)| (write, lease.token()))
            .collect();
        let answers: RedisResult<Vec<Value>> = if fenced.is_empty() {
            Ok(Vec::new())
        } else {
            inner.round_trips.fetch_add(1, Ordering::Relaxed);
            let script =
                |pipe: &mut Pipeline, i: usize| add(pipe, fenced[i].0, fenced[i].1, &alive);
            let answers = scripts::run(&mut conn, fenced.len(), script).await;
            // A script's refusal (fenced) comes inside the answers: only a failed round trip
            // says Redis is unreachable.
            inner.reachable.store(answers.is_ok(), Ordering::Release);
            answers
        };
        drop(fenced);
        let mut answers = match answers {
            Ok(answers) => answers.into_iter().map(Ok).collect::<Vec<_>>().into_iter(),
            Err(e) => {
                let failed = e.to_string();
                for job in batch {
                    match job {
                        Job::Write(writes, tx) => {
                            for (write, token) in &writes {
                                let_go_if_begun_or_ended(&inner, write, token);
                            }
                            drop(tx.send(Err(StoreError::Redis(failed.clone()))));
                        }
                        Job::Close(tx) => {
                            let _ = tx.send(());
                            return;
                        }
                    }
                }
                continue;
            }
        };
        for job in batch {
            match job {
                Job::Write(writes, tx) => {
                    let mut outcome = Ok(());
                    for (write, token) in &writes {
                        let answer: Result<Value, StoreError> =
                            answers.next().unwrap_or(Err(StoreError::Closed));
                        let refused = match answer {
                            Ok(Value::ServerError(e)) => Some(refusal(write, &e)),
                            Ok(_) => None,
                            Err(e) => Some(e),
                        };
                        if let Some(e) = refused {
                            let_go_if_begun_or_ended(&inner, write, token);
                            outcome = outcome.and(Err(e));
                        } else if let Write::Erase { .. } = write {
                            let_go_if_begun_or_ended(&inner, write, token);
                        }
                    }
                    let _ = tx.send(outcome);
                }
                Job::Close(tx) => {
                    let _ = tx.send(());
                    return;
                }
            }
        }
    }
}

/// The script that carries out one write, fenced by `token` and this node's liveness
/// (`alive`).
fn add(pipe: &mut Pipeline, write: &Write, token: &str, alive: &str) {
    let keys = Keys::of(write.game());
    match write {
        Write::Begin { record, seats, .. } => {
            let stored = (json(record), json(seats));
            scripts::begin(pipe, &keys, alive, token, (&stored.0, &stored.1), ORPHANS_KEPT);
        }
        Write::Seats { seats, .. } => scripts::seats(pipe, &keys, alive, token, &json(seats)),
        Write::Append { v, event, .. } => {
            scripts::append(pipe, &keys, alive, token, (*v, &json(event)), ORPHANS_KEPT);
        }
        Write::Erase { game } => scripts::erase(pipe, &keys, alive, &seated_key(game), token),
        Write::Arena(_) => {}
    }
}

/// What Redis's refusal of one write means. The scripts refuse with `FENCED` when the game is
/// not this node's to write; any other refusal (`OOM`, `MISCONF`, `READONLY`) comes from Redis
/// itself, before the script ran (Redis checks them before a script that writes), so nothing
/// of the write was kept and the game pauses.
fn refusal(write: &Write, e: &redis::ServerError) -> StoreError {
    let said = format!("game {}: {}", write.game(), e.details().unwrap_or("refused"));
    match e.code() {
        "FENCED" => StoreError::Fenced(said),
        code => StoreError::Refused(format!("{code} {said}")),
    }
}

/// A game whose beginning Redis did not keep (refused, or no answer came) is not this node's:
/// its lease, noted when the beginning was sent, is let go of, or the node would go on renewing
/// and counting a lease it may not hold, for a game that runs nowhere. (Had the beginning
/// landed unanswered, its keys lapse untouched.) Only that token: a later one is another
/// beginning's. So too a game whose erasure Redis did not keep: it ended its life here, the
/// erasure is the last write it sends, and its lease (another node's by then, if the erasure
/// was fenced) is not to be renewed and counted on.
fn let_go_if_begun_or_ended(inner: &Inner, write: &Write, lease: &Lease) {
    if let Write::Begin { game, .. } | Write::Erase { game } = write {
        inner.leases.lock().expect("leases lock").let_go(game, lease);
    }
}

#[cfg(test)]
mod tests {
    use dara_table::{GameSettings, Opponent};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;
    use crate::redis::node::NodeName;
    use crate::redis::Redis;
    use crate::seat::Seat;
    use crate::store::record::{GameRecord, StoredSeats};

    /// A server that answers a connection's setup as Redis does, and drops the connection when
    /// a script comes: whether the script ran is never known.
    async fn deaf_to_scripts() -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("redis://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                tokio::spawn(async move {
                    let mut buf = vec![0u8; 1 << 16];
                    while let Ok(n @ 1..) = socket.read(&mut buf).await {
                        let text = String::from_utf8_lossy(&buf[..n]);
                        if text.contains("EVALSHA") {
                            return;
                        }
                        let commands = text.split("\r\n").filter(|l| l.starts_with('*')).count();
                        if socket.write_all("+OK\r\n".repeat(commands).as_bytes()).await.is_err() {
                            return;
                        }
                    }
                });
            }
        });
        url
    }

    /// A game's `BEGIN` whose answer never came is not this node's game: the lease noted as it
    /// was sent is let go of, not kept (renewed, counted, and used to fence the erasure) for a
    /// game that runs nowhere.
    #[tokio::test]
    async fn a_beginning_without_an_answer_keeps_no_lease() {
        let client = redis::Client::open(deaf_to_scripts().await).unwrap();
        let conn = client.get_connection_manager().await.unwrap();
        let redis = Redis::writing(NodeName::given("n1").unwrap().incarnation(), client, conn);
        let settings = GameSettings {
            rules: dara::Ruleset::default(),
            opponent: Opponent::Friend,
            creator: dara::Colour::White,
            clock: None,
        };
        let begin = Write::Begin {
            game: GameId::from_bits(7),
            record: GameRecord::new(&settings, "2026.12.04"),
            seats: StoredSeats::new(&dara::ByColour { white: Seat::Open, black: Seat::Open }),
        };
        let answer = redis.send(vec![begin]).await.unwrap();
        assert!(answer.as_ref().is_err_and(StoreError::outcome_unknown), "{answer:?}");
        assert_eq!(redis.held(), 0, "the lease of a game that runs nowhere is kept");
    }
}
