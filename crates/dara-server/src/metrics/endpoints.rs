//! What an operator asks: `/healthz` (the process answers), `/readyz` (whether to send this
//! node players) and `/metrics` (Prometheus text).

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;

use crate::state::AppState;

/// `GET /metrics`.
pub async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    let metrics = &state.metrics;
    metrics.games.set(state.live_games() as i64);
    metrics.connections.set(state.connections.total() as i64);
    metrics.engine_queue.set(state.computer.waiting() as i64);
    if let Some(cluster) = &state.cluster {
        metrics.leases.set(cluster.redis.held() as i64);
        metrics.redis_round_trips.set(cluster.redis.round_trips() as i64);
    }
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], metrics.encode())
}

/// `GET /healthz`: the process is up and its runtime answers.
pub async fn healthz() -> &'static str {
    "ok\n"
}

/// `GET /readyz`: whether to send this node players. A node that is stopping is not, nor one
/// whose data directory's last commit failed (a full disk: its games are paused until a
/// commit succeeds); in a cluster, neither is one that cannot reach Redis (it could not keep a
/// move).
pub async fn readyz(State(state): State<AppState>) -> (StatusCode, &'static str) {
    if *state.stopping.borrow() {
        return (StatusCode::SERVICE_UNAVAILABLE, "stopping\n");
    }
    // The data directory's last commit failed (a full disk): the games are paused.
    if state.store.failing() {
        return (StatusCode::SERVICE_UNAVAILABLE, "saving paused\n");
    }
    match &state.cluster {
        Some(cluster) if !cluster.is_ready() => {
            (StatusCode::SERVICE_UNAVAILABLE, "redis unreachable\n")
        }
        _ => (StatusCode::OK, "ready\n"),
    }
}
