//! Who of one arena is waiting for a game, so as to tell how long each waited with nobody else
//! free. A player whom an odd number leaves alone can be paired by no server until another
//! player of the arena comes free (a game ends, someone comes back): that part of the wait is
//! the arena's population, not the server's pairing, and the report gives the wait both whole
//! and from the moment another was free.
//!
//! A player waits from its game's end on its game socket (or its resume's answer) until its
//! arena socket names its next game. Those who were just paired together stay in the room
//! until their sockets say so, a second at most: the time someone waited alone is counted
//! short rather than long, so the wait "with another free" is never flattered.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

/// One arena's waiting players, by player index.
#[derive(Debug, Default)]
pub struct WaitingRoom {
    // A std mutex: held for a few map operations, never across an await.
    waiting: Mutex<HashMap<usize, Waiter>>,
}

#[derive(Debug, Clone, Copy)]
struct Waiter {
    since: Instant,
    resumed: bool,
    /// Since when nobody else has been waiting, if nobody is.
    alone_since: Option<Instant>,
    /// The time waited alone before that.
    alone: Duration,
}

/// A wait that ended: the player was paired (or, with a pause, stopped waiting).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Waited {
    /// From the game's end (or the resume) to the next game.
    pub whole: Duration,
    /// Of that, the time nobody else of the arena was waiting.
    pub alone: Duration,
    /// Whether the wait began with a resume rather than a game's end.
    pub resumed: bool,
}

impl Waited {
    /// The wait from the moment another player of the arena was free.
    pub fn with_another(&self) -> Duration {
        self.whole.saturating_sub(self.alone)
    }
}

impl WaitingRoom {
    /// Player `me` begins to wait at `now`.
    pub fn arrive(&self, me: usize, now: Instant, resumed: bool) {
        let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        waiting.remove(&me);
        // The one who was alone is alone no more.
        for other in waiting.values_mut() {
            if let Some(at) = other.alone_since.take() {
                other.alone += now.saturating_duration_since(at);
            }
        }
        let alone_since = waiting.is_empty().then_some(now);
        waiting.insert(me, Waiter { since: now, resumed, alone_since, alone: Duration::ZERO });
    }

    /// Player `me` stops waiting at `now` (paired, or paused): how it waited, if it was.
    pub fn leave(&self, me: usize, now: Instant) -> Option<Waited> {
        let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        let w = waiting.remove(&me)?;
        if waiting.len() == 1 {
            for other in waiting.values_mut() {
                other.alone_since = Some(now);
            }
        }
        let alone = w.alone + w.alone_since.map_or(Duration::ZERO, |at| now - at);
        Some(Waited { whole: now - w.since, alone, resumed: w.resumed })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(secs: u64) -> Duration {
        Duration::from_secs(secs)
    }

    #[test]
    fn a_wait_alone_counts_until_another_comes_free() {
        let room = WaitingRoom::default();
        let t = Instant::now();
        // 1 waits alone from 0 to 5; 2 and 3 come free at 5; 1 and 2 are paired at 6.
        room.arrive(1, t, false);
        room.arrive(2, t + s(5), false);
        room.arrive(3, t + s(5), false);
        let one = room.leave(1, t + s(6)).unwrap();
        assert_eq!((one.whole, one.alone, one.with_another()), (s(6), s(5), s(1)));
        let two = room.leave(2, t + s(6)).unwrap();
        assert_eq!((two.whole, two.alone), (s(1), s(0)));
        // 3 is now alone, from 6 until 4 comes back at 9; they are paired at 10.
        room.arrive(4, t + s(9), true);
        let three = room.leave(3, t + s(10)).unwrap();
        assert_eq!((three.whole, three.alone, three.with_another()), (s(5), s(3), s(2)));
        let four = room.leave(4, t + s(10)).unwrap();
        assert_eq!((four.whole, four.alone, four.resumed), (s(1), s(0), true));
        assert_eq!(room.leave(4, t + s(11)), None, "not waiting");
    }
}
