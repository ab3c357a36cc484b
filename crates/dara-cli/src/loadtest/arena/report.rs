//! What `dara loadtest --arena` found: the wait between games, the turns, the standings each
//! socket was sent, and what the players cost the server, as text for people and as one JSON
//! line.

use core::fmt;

use serde::Serialize;

use crate::loadtest::stats::Percentiles;
use crate::open_files::OpenFiles;

/// The results of one run.
#[derive(Debug, Serialize)]
pub struct Report {
    pub server: String,
    pub arenas: usize,
    pub players: usize,
    pub rules: String,
    pub clock: String,
    /// The mean pause before each turn.
    pub think_ms: u64,
    pub pause_share: f64,
    pub pause_seconds: f64,
    /// From the start until every player had joined (or failed to).
    pub ramp_seconds: f64,
    pub warmup_seconds: f64,
    /// The measured window.
    pub seconds: f64,

    /// Players who joined and hold their arena socket.
    pub joined: u64,
    /// New pairings seen in the window (not counting each player's first).
    pub pairings: u64,
    /// From a game's end on the game socket to the next game on the arena socket.
    pub pairing_delay_seconds: Percentiles,
    /// The same from the moment another player of the arena was free: what the pairing
    /// itself took, without the time a player left alone by an odd number had nobody to meet.
    pub pairing_delay_with_another_seconds: Percentiles,
    /// From a resume's answer to the next game.
    pub pairing_after_resume_seconds: Percentiles,
    /// Pairings the arena socket told before the game socket told the previous game's end
    /// (counted as a delay of zero).
    pub paired_before_end_seen: u64,
    pub games_ended: u64,
    pub turns: u64,
    pub turns_per_second: f64,
    pub pauses: u64,
    pub resumes: u64,
    /// Standings messages a second on each player's arena socket (one sample a socket).
    pub standings_per_second: Percentiles,
    pub standings_bytes_mean: Option<f64>,
    /// The shortest time between two standings on one socket.
    pub standings_shortest_gap_ms: Option<f64>,

    /// Every fault below, summed.
    pub errors: u64,
    pub join_failed: u64,
    pub socket_failed: u64,
    pub game_socket_failed: u64,
    pub dropped: u64,
    pub request_failed: u64,
    pub confused: u64,

    pub server_pid: Option<u32>,
    /// The server's CPU over the window, in % of one core.
    pub server_cpu_percent: Option<f64>,
    pub server_rss_kib_before: Option<u64>,
    pub server_rss_kib_after: Option<u64>,
    /// (resident at the window's end - before the arenas) / players joined.
    pub server_kib_per_player: Option<f64>,
    pub driver_cpu_percent: f64,
    /// The machine's, over the last minute, at the window's end.
    pub load_average: Option<f64>,
    pub open_files: OpenFiles,
    pub sources: usize,
}

fn seconds(p: &Percentiles) -> String {
    if p.samples == 0 {
        return "none".to_owned();
    }
    format!(
        "p50 {:.2} s, p95 {:.2} s, p99 {:.2} s, max {:.2} s ({})",
        p.p50, p.p95, p.p99, p.max, p.samples
    )
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "arena              {} players in {} arena{} on {}, {} on {}, a turn every {} ms or so, \
             {:.0} % pausing for {:.0} s now and then",
            self.players,
            self.arenas,
            if self.arenas == 1 { "" } else { "s" },
            self.server,
            self.rules,
            self.clock,
            self.think_ms,
            100.0 * self.pause_share,
            self.pause_seconds
        )?;
        writeln!(
            f,
            "ran                joined in {:.1} s, warm-up {:.0} s, measured {:.1} s",
            self.ramp_seconds, self.warmup_seconds, self.seconds
        )?;
        writeln!(
            f,
            "joined             {} of {}; {} games ended, {} pairings, {} pauses, {} resumes",
            self.joined, self.players, self.games_ended, self.pairings, self.pauses, self.resumes
        )?;
        writeln!(f, "end to next game   {}", seconds(&self.pairing_delay_seconds))?;
        writeln!(f, "  another free     {}", seconds(&self.pairing_delay_with_another_seconds))?;
        if self.paired_before_end_seen > 0 {
            writeln!(
                f,
                "                   ({} told on the arena socket before the end on the game socket)",
                self.paired_before_end_seen
            )?;
        }
        writeln!(f, "resume to game     {}", seconds(&self.pairing_after_resume_seconds))?;
        writeln!(f, "turns              {} ({:.1} a second)", self.turns, self.turns_per_second)?;
        let s = &self.standings_per_second;
        write!(f, "standings          a second per socket: median {:.2}, max {:.2}", s.p50, s.max)?;
        if let Some(gap) = self.standings_shortest_gap_ms {
            write!(f, "; shortest gap on one socket {gap:.0} ms")?;
        }
        if let Some(bytes) = self.standings_bytes_mean {
            write!(f, "; {:.1} KiB each on average", bytes / 1024.0)?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "errors             {} (joins {}, arena sockets {}, game sockets {}, dropped {}, \
             pause/resume {}, confused {})",
            self.errors,
            self.join_failed,
            self.socket_failed,
            self.game_socket_failed,
            self.dropped,
            self.request_failed,
            self.confused
        )?;
        if let Some(cpu) = self.server_cpu_percent {
            writeln!(f, "server             CPU {cpu:.1} % of a core over the window")?;
        }
        if let (Some(before), Some(after)) = (self.server_rss_kib_before, self.server_rss_kib_after)
        {
            write!(
                f,
                "                   resident {:.1} MiB before the arenas, {:.1} MiB at the window's end",
                before as f64 / 1024.0,
                after as f64 / 1024.0
            )?;
            if let Some(per) = self.server_kib_per_player {
                write!(f, ": {per:.1} KiB per player")?;
            }
            writeln!(f)?;
        }
        writeln!(
            f,
            "load driver        CPU {:.1} % of a core; load average {}; open files: soft limit {} \
             (was {}), hard {}{}",
            self.driver_cpu_percent,
            self.load_average.map_or_else(|| "?".to_owned(), |l| format!("{l:.2}")),
            self.open_files.soft,
            self.open_files.soft_before,
            self.open_files.hard,
            if self.sources > 0 {
                format!("; {} source addresses", self.sources)
            } else {
                String::new()
            }
        )
    }
}
