//! A Redis of a test's own: Debian's `redis-server` (which `.ci/run` installs) on a free port,
//! keeping nothing on disk, stopped when dropped.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A `redis-server` a test started.
pub struct Scratch {
    child: Child,
    port: u16,
}

impl Scratch {
    /// Starts one, and waits until it answers.
    pub async fn start() -> Scratch {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server (Debian's redis-server package; .ci/run installs it)");
        let scratch = Scratch { child, port };
        let client = redis::Client::open(scratch.url()).unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        while client.get_multiplexed_async_connection().await.is_err() {
            assert!(Instant::now() < deadline, "redis-server did not answer");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        scratch
    }

    /// Where it listens.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Pauses it (SIGSTOP): requests wait, unanswered, until [`Scratch::resume`].
    pub fn pause(&self) {
        self.signal("-STOP");
    }

    /// Lets a paused Redis run again (SIGCONT).
    pub fn resume(&self) {
        self.signal("-CONT");
    }

    fn signal(&self, signal: &str) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args([signal, &pid]).status().unwrap().success());
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
