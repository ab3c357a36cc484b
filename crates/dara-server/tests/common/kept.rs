//! A server that keeps its games in a data directory, run in a runtime of its own so that a
//! test can crash it mid-flight (the runtime dropped at once) and start another on the same
//! directory.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use dara_server::store::{Store, StoreError};
use dara_server::{AppState, Config, Shared};

/// A server keeping its games in a data directory, on a runtime of its own.
pub struct Process {
    pub runtime: tokio::runtime::Runtime,
    pub addr: SocketAddr,
    pub state: AppState,
}

impl Process {
    /// Opens `dir` (waiting for a crashed predecessor's writer to let go of it) and serves.
    pub fn start(dir: &Path, config: Config) -> Process {
        let deadline = Instant::now() + Duration::from_secs(10);
        let opened = loop {
            match Store::open(dir) {
                Ok(opened) => break opened,
                Err(StoreError::Locked(_)) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => panic!("{e}"),
            }
        };
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        // Started from the tests' own runtime, which may not block on another.
        let (tx, rx) = std::sync::mpsc::channel();
        runtime.spawn(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            let state = Shared::keeping(config, opened.store, opened.key);
            dara_server::set_apart(&state, opened.damaged);
            dara_server::take_up_with_arenas(&state, opened.games, opened.arenas);
            tokio::spawn(dara_server::serve(listener, state.clone(), std::future::pending()));
            tx.send((addr, state)).unwrap();
        });
        let (addr, state) = rx.recv().unwrap();
        Process { runtime, addr, state }
    }

    /// Gone at once, mid-flight: nothing more is written.
    pub fn crash(self) {
        let Process { runtime, state, .. } = self;
        drop(state);
        runtime.shutdown_background();
    }
}

/// A data directory of the test's own, removed afterwards.
pub struct DataDir(pub PathBuf);

impl DataDir {
    pub fn new(name: &str) -> DataDir {
        let dir = std::env::temp_dir().join(format!("dara-restart-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        DataDir(dir)
    }
}

impl Drop for DataDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
