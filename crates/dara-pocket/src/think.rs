//! The computer's move for a request, as the server's computer would choose it.

use dara_engine::level::PLAY_HASH_MIB;
use dara_engine::rng::Rng;
use dara_engine::stopwatch::Now;
use dara_engine::Searcher;

use crate::reply::Reply;
use crate::request::Request;

/// Searches `request` at its level, reading time on `now`: the level's plan (its limits and
/// dice, drawn from the request's seed) over a fresh table, as the server's computer does.
/// Where the request leaves the limits to the level, a level bounded by time also searches at
/// least its node floor.
pub fn think(request: &Request, now: Now) -> Reply {
    let mut rng = Rng::new(request.seed);
    let (mut limits, style) = request.level.plan(&request.limits, &mut rng);
    if request.limits.is_unbounded() {
        limits.min_nodes = request.level.node_floor();
    }
    let mut searcher = Searcher::new(PLAY_HASH_MIB);
    searcher.set_clock(now);
    searcher.search(&request.pos, &request.history, &limits, &style, &mut |_| {}).into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use dara_engine::stopwatch::system_now;
    use std::time::Duration;

    fn answer(line: &str) -> Reply {
        think(&line.parse().unwrap(), system_now)
    }

    #[test]
    fn a_level_and_a_seed_choose_one_move() {
        let line = "position start moves c3 d4 level 4 seed 9";
        let (a, b) = (answer(line), answer(line));
        assert_eq!((a.0.best, a.0.nodes, a.0.score), (b.0.best, b.0.nodes, b.0.score));
        assert!(a.0.nodes <= 15_001, "{a}");
    }

    #[test]
    fn no_move_where_the_game_is_over() {
        let reply = answer("position 6/6/6/5B/WW2BB w 0 0 0");
        assert_eq!(reply.0.best, None);
        assert!(reply.to_string().starts_with("bestmove none score loss 0 depth 0 nodes 0"));
    }

    /// A clock on which a second passes between any two readings.
    fn racing_clock() -> Duration {
        use std::sync::atomic::{AtomicU64, Ordering};
        static READS: AtomicU64 = AtomicU64::new(0);
        Duration::from_secs(READS.fetch_add(1, Ordering::Relaxed))
    }

    #[test]
    fn level_8_searches_its_node_floor_on_a_slow_clock() {
        // A second passes between two readings: the time is up at once, the floor is not.
        let request: Request = "position start level 8".parse().unwrap();
        let floor = request.level.node_floor().unwrap();
        let reply = think(&request, racing_clock);
        assert!(reply.0.nodes >= floor && reply.0.nodes <= floor + 1024, "{reply}");
        // With limits of the request's own, the level's floor does not apply.
        let request: Request = "position start level 8 go movetime 1000".parse().unwrap();
        assert!(think(&request, racing_clock).0.nodes <= 1024);
    }
}
