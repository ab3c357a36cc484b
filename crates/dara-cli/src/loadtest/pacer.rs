//! Connections opened at a steady rate, so that the server's accept queue is not what a load
//! test measures (unless asked to be).

use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

/// Hands out evenly spaced moments to open a connection at.
#[derive(Debug)]
pub struct Pacer {
    /// Between two connections; `None`: no pacing.
    gap: Option<Duration>,
    // A std mutex: held for two lines, never across an await.
    next: Mutex<Instant>,
}

impl Pacer {
    /// `per_second` connections a second; 0 or less: as fast as they come.
    pub fn new(per_second: f64) -> Pacer {
        let gap = (per_second > 0.0).then(|| Duration::from_secs_f64(1.0 / per_second));
        Pacer { gap, next: Mutex::new(Instant::now()) }
    }

    /// Waits for this connection's moment.
    pub async fn wait(&self) {
        let Some(gap) = self.gap else { return };
        let at = {
            let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
            let at = (*next).max(Instant::now());
            *next = at + gap;
            at
        };
        tokio::time::sleep_until(at).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn connections_are_spaced_evenly() {
        let pacer = Pacer::new(100.0);
        let start = Instant::now();
        for _ in 0..5 {
            pacer.wait().await;
        }
        assert_eq!(start.elapsed(), Duration::from_millis(40));
    }
}
