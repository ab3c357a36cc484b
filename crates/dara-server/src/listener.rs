//! Accepting connections: what a public server owes every client before any route runs. A
//! client gets a bounded number of connections at once (counted by its address: an IPv6 /64
//! is one client), must send its request headers within a deadline, and cannot keep the
//! server from stopping. Everything else is axum's router, served by hyper.

use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tower::ServiceExt;

use crate::address::{requester, TrustedProxies};

/// How long stopping waits for connections to finish before it drops them. A request still
/// being read (a half-open one) holds the drain this long, and the process has 5 s in all to
/// exit: 2 s leaves the rest (closing the sockets, up to 1 s; closing the store) room on a busy
/// machine, where 3 s once did not.
pub const DRAIN_TIMEOUT: Duration = Duration::from_secs(2);

/// Open connections per client address.
#[derive(Debug, Default)]
pub struct Connections {
    // A std mutex: held only to count, never across an await.
    open: Mutex<HashMap<IpAddr, u32>>,
}

/// One counted connection; uncounted when dropped.
#[derive(Debug)]
pub struct Counted {
    connections: Arc<Connections>,
    client: IpAddr,
}

impl Connections {
    /// Counts a connection from `client`, unless it already holds `limit`.
    pub fn admit(self: &Arc<Self>, client: IpAddr, limit: u32) -> Option<Counted> {
        let mut open = self.open.lock().expect("connections lock");
        let count = open.entry(client).or_default();
        if *count >= limit {
            return None;
        }
        *count += 1;
        Some(Counted { connections: Arc::clone(self), client })
    }

    /// Connections open now, from every client.
    pub fn total(&self) -> u64 {
        self.open.lock().expect("connections lock").values().map(|n| u64::from(*n)).sum()
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        let mut open = self.connections.open.lock().expect("connections lock");
        if let Some(count) = open.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.client);
            }
        }
    }
}

/// What the accept loop needs to know.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Connections one client address may hold at once (not counted for trusted proxies,
    /// whose clients are counted by the address they forward, where it matters).
    pub per_address: u32,
    /// Proxies whose connections carry many clients.
    pub trusted: TrustedProxies,
    /// How long a client has to send a request's headers.
    pub header_timeout: Duration,
}

/// Serves `router` on `listener` until `shutdown` completes, then stops accepting, lets open
/// connections finish for at most [`DRAIN_TIMEOUT`] and returns.
///
/// # Errors
/// Never at present: a failed accept (say, out of file descriptors) is logged and retried.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    connections: Arc<Connections>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mut builder = Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new()).header_read_timeout(limits.header_timeout);
    builder.http2().timer(TokioTimer::new());
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors, most likely: let some connections close.
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let client = requester(peer.ip());
        let counted = if limits.trusted.contains(peer.ip()) {
            None
        } else {
            match connections.admit(client, limits.per_address) {
                Some(counted) => Some(counted),
                // Closed at once: this client already holds its share of the server.
                None => continue,
            }
        };
        // Moves are small messages that must leave at once: without this, Nagle's algorithm
        // holds a move event back until the previous message is acknowledged (tens of ms).
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        // The peer's address reaches the handlers as axum's `ConnectInfo`.
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            router.clone().oneshot(request)
        });
        let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), service);
        let connection = graceful.watch(connection.into_owned());
        tokio::spawn(async move {
            let _counted = counted;
            let _ = connection.await;
        });
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(DRAIN_TIMEOUT) => {
            tracing::info!("stopping with connections still open");
        }
    }
    Ok(())
}
