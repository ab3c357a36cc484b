//! How many people are here, across the cluster: each node writes how many sockets it holds
//! into one Redis hash (`dara:here`, node → count and the moment it lapses) once a second, and
//! adds up everyone's. A node that died stops writing, and its count lapses after [`LAPSE`].

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::keys::HERE;
use super::{Failed, Redis};

/// How long a node's count outlives its last word.
pub const LAPSE: Duration = Duration::from_secs(10);

fn now_ms() -> u64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}

/// A node's count as Redis holds it: `count:until_ms`.
fn stored(count: u32, until_ms: u64) -> String {
    format!("{count}:{until_ms}")
}

/// A stored count, if it reads and has not lapsed by `now`.
fn read(text: &str, now: u64) -> Option<u32> {
    let (count, until) = text.split_once(':')?;
    let until: u64 = until.parse().ok()?;
    (until > now).then_some(())?;
    count.parse().ok()
}

impl Redis {
    /// Says that this node holds `sockets` sockets, and gives everyone's count added up (this
    /// node's with them); lapsed counts are erased.
    ///
    /// # Errors
    /// Redis failed.
    pub async fn count_here(&self, sockets: u32) -> Result<u32, Failed> {
        let mut conn = self.uncounted();
        let now = now_ms();
        let until = now + LAPSE.as_millis() as u64;
        let (_, all): ((), Vec<(String, String)>) = redis::pipe()
            .cmd("HSET")
            .arg(HERE)
            .arg(self.node().as_str())
            .arg(stored(sockets, until))
            .cmd("HGETALL")
            .arg(HERE)
            .query_async(&mut conn)
            .await?;
        let mut total = 0u32;
        let mut lapsed = Vec::new();
        for (node, text) in &all {
            match read(text, now) {
                Some(count) => total = total.saturating_add(count),
                None => lapsed.push(node),
            }
        }
        if !lapsed.is_empty() {
            redis::cmd("HDEL").arg(HERE).arg(lapsed).query_async::<()>(&mut conn).await?;
        }
        Ok(total)
    }

    /// Takes this node's count away at once, as it stops.
    pub async fn say_not_here(&self) {
        let mut conn = self.uncounted();
        let _ = redis::cmd("HDEL")
            .arg(HERE)
            .arg(self.node().as_str())
            .query_async::<()>(&mut conn)
            .await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_is_read_until_it_lapses_and_junk_never() {
        assert_eq!(read(&stored(12, 5_000), 4_999), Some(12));
        assert_eq!(read(&stored(12, 5_000), 5_000), None);
        for junk in ["", "12", "a:9999999999999", "12:x", ":5"] {
            assert_eq!(read(junk, 0), None, "{junk}");
        }
    }
}
