//! What the load test says while it runs: a line on stderr every few seconds, with the rate of
//! turns, the round trips so far and the faults.

use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use tokio::time::Instant;

use super::stats::Stats;

/// How often a progress line goes to stderr.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// One line on stderr every few seconds.
pub(super) struct Progress {
    games: usize,
    /// Whether the computer's replies are counted too.
    against_computer: bool,
    /// When the load test began.
    pub(super) start: Instant,
    last: Instant,
    last_turns: u64,
    last_replies: u64,
}

impl Progress {
    pub(super) fn new(games: usize, against_computer: bool) -> Progress {
        let now = Instant::now();
        Progress { games, against_computer, start: now, last: now, last_turns: 0, last_replies: 0 }
    }

    /// Sleeps until `end`, printing progress lines on the way.
    pub(super) async fn until(&mut self, stats: &Stats, phase: &str, end: Instant) {
        while Instant::now() < end {
            let next = (self.last + PROGRESS_EVERY).min(end);
            tokio::time::sleep_until(next).await;
            self.maybe_print(stats, phase);
        }
    }

    /// Prints a line if the last is [`PROGRESS_EVERY`] old.
    pub(super) fn maybe_print(&mut self, stats: &Stats, phase: &str) {
        let now = Instant::now();
        let since = now - self.last;
        if since < PROGRESS_EVERY {
            return;
        }
        let turns = stats.turns_ever.load(Relaxed);
        let rate = (turns - self.last_turns) as f64 / since.as_secs_f64();
        let replies = stats.replies_ever.load(Relaxed);
        let (accepted, delivered) = stats.percentiles();
        let latency = match (accepted.samples > 0, self.against_computer) {
            (false, _) => String::new(),
            (true, false) => format!(
                ", accepted p50 {:.2} p99 {:.2} ms, opponent's move p99 {:.2} ms",
                accepted.p50, accepted.p99, delivered.p99
            ),
            (true, true) => {
                let replied = stats.reply_percentiles();
                format!(
                    ", accepted p50 {:.2} p99 {:.2} ms, the computer's reply p50 {:.0} p99 {:.0} ms",
                    accepted.p50, accepted.p99, replied.p50, replied.p99
                )
            }
        };
        let replies_rate = if self.against_computer {
            format!(
                ", {:.1} computer replies/s",
                (replies - self.last_replies) as f64 / since.as_secs_f64()
            )
        } else {
            String::new()
        };
        eprintln!(
            "[{:5.0} s {phase}] {} of {} games in play, {rate:.0} turns/s{replies_rate}{latency}; {} rejected, \
             {} desynced, {} disconnected, {} refused, {} connect failures",
            (now - self.start).as_secs_f64(),
            stats.in_play.load(Relaxed),
            self.games,
            stats.rejected.load(Relaxed),
            stats.desynced.load(Relaxed),
            stats.disconnected.load(Relaxed),
            stats.refused.load(Relaxed),
            stats.connect_failed.load(Relaxed),
        );
        self.last = now;
        self.last_turns = turns;
        self.last_replies = replies;
    }
}
