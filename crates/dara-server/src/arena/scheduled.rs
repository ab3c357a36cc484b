//! The task that makes the server's own arenas as its schedule says: each announced an hour
//! before its start (time to join), and one already running when the server starts made at
//! once, for its time left.

use std::collections::HashSet;
use std::sync::{Arc, Weak};
use std::time::Duration;

use dara::Ruleset;
use dara_arena::WallTime;

use super::book::Arenas;
use super::owner::{open, Plan};
use super::schedule::Schedule;
use super::wall;
use crate::game::host::Host;

/// How long before its start a scheduled arena is announced.
pub const ANNOUNCED_AHEAD: Duration = Duration::from_secs(3600);

/// How often the schedule is read against the clock.
const EVERY: Duration = Duration::from_secs(20);

/// Starts the task that makes `schedule`'s arenas at `host`, entered in `book`, while the
/// server runs.
pub fn start<H: Host>(host: &Arc<H>, book: &Arc<Arenas>, schedule: Schedule) {
    if schedule.entries.is_empty() {
        return;
    }
    let (host, book) = (Arc::downgrade(host), Arc::downgrade(book));
    tokio::spawn(run(host, book, schedule));
}

async fn run<H: Host>(host: Weak<H>, book: Weak<Arenas>, schedule: Schedule) {
    // Arenas made: the entry and its start.
    let mut made: HashSet<(usize, WallTime)> = HashSet::new();
    let longest = schedule.entries.iter().map(|e| e.length).max().unwrap_or_default();
    loop {
        let (Some(host), Some(book)) = (host.upgrade(), book.upgrade()) else { return };
        if host.stopping() {
            return;
        }
        let now = wall::now();
        for (n, starts) in schedule.starts_between(now - longest, now + ANNOUNCED_AHEAD) {
            let entry = &schedule.entries[n];
            if starts + entry.length <= now || !made.insert((n, starts)) {
                continue;
            }
            if book.has_scheduled(starts.as_millis(), &entry.clock.label()) {
                // Taken up after a restart.
                continue;
            }
            let plan = Plan {
                rules: Ruleset::default(),
                clock: entry.clock,
                starts: Some(starts),
                length: entry.length,
                maker: None,
            };
            match open(&host, &book, plan) {
                Ok(arena) => tracing::info!(arena = %arena.id, ?starts, "scheduled arena made"),
                Err(e) => tracing::warn!("a scheduled arena could not be made: {}", e.reason()),
            }
        }
        made.retain(|&(n, starts)| starts + schedule.entries[n].length > now - longest);
        drop((host, book));
        tokio::time::sleep(EVERY).await;
    }
}
