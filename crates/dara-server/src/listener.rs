//! Accepting connections: what a public server owes every client before any route runs. A
//! client gets a bounded number of connections at once (counted by its address: an IPv6 /64
//! is one client), of which only a few may be unfinished requests, must send its request
//! headers within a deadline, and cannot keep the server from stopping. When the process runs
//! out of file descriptors, the oldest unfinished request is let go so that a new client is
//! still served (`connections`). Everything else is axum's router, served by hyper.

use std::future::Future;
use std::sync::Arc;
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
use crate::connections::{Connections, Share};

/// How long stopping waits for connections to finish before it drops them. A request still
/// being read (a half-open one) holds the drain this long, and the process has 5 s in all to
/// exit: 2 s leaves the rest (closing the sockets, up to 1 s; closing the store) room on a busy
/// machine, where 3 s once did not.
pub const DRAIN_TIMEOUT: Duration = Duration::from_secs(2);

/// What the accept loop needs to know.
#[derive(Debug, Clone)]
pub struct Limits {
    /// What one client address may hold at once (not counted for trusted proxies, whose
    /// clients are counted by the address they forward, where it matters).
    pub per_address: Share,
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
                Err(e) if out_of_descriptors(&e) && connections.let_oldest_go() => {
                    // A moment for its task to close it, and the new client is taken.
                    tokio::time::sleep(Duration::from_millis(1)).await;
                    continue;
                }
                Err(e) => {
                    // Nothing to let go (or another failure): let some connections close.
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let client = (!limits.trusted.contains(peer.ip())).then(|| requester(peer.ip()));
        let Some((counted, let_go)) = connections.admit(client, limits.per_address) else {
            // Closed at once: this client already holds its share of the server.
            continue;
        };
        let counted = Arc::new(counted);
        let heard = Arc::clone(&counted);
        // Moves are small messages that must leave at once: without this, Nagle's algorithm
        // holds a move event back until the previous message is acknowledged (tens of ms).
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        // The peer's address reaches the handlers as axum's `ConnectInfo`.
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            // Its headers have all come: no longer an unfinished request.
            heard.heard();
            request.extensions_mut().insert(ConnectInfo(peer));
            router.clone().oneshot(request)
        });
        let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), service);
        let connection = graceful.watch(connection.into_owned());
        tokio::spawn(async move {
            let _counted = counted;
            tokio::select! {
                _ = connection => {}
                () = let_go.wait() => {}
            }
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

/// Whether an accept failed for want of file descriptors (`EMFILE`, `ENFILE`: the same numbers
/// on Linux and the BSDs), which letting a connection go cures.
fn out_of_descriptors(e: &std::io::Error) -> bool {
    matches!(e.raw_os_error(), Some(23 | 24))
}
