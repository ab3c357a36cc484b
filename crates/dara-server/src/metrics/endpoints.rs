//! What an operator asks: `/healthz` (the process answers), `/readyz` (whether to send this
//! node players) and `/metrics` (Prometheus text).

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::error::AppError;

use crate::state::AppState;

/// `GET /metrics`, for whoever holds the operator's token (`--metrics-token`), or, without one,
/// for a request made on this machine that no proxy forwarded: what the server measures is not
/// the public's (how busy it is, how many sockets each node holds).
pub async fn metrics(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Response {
    if !may_see_measures(state.config.metrics_token.as_deref(), peer.ip(), &headers) {
        return AppError::NotFound.into_response();
    }
    let metrics = &state.metrics;
    metrics.games.set(state.live_games() as i64);
    metrics.connections.set(state.connections.total() as i64);
    metrics.engine_queue.set(state.computer.waiting() as i64);
    metrics.engine_searches.set(i64::try_from(state.computer.booked()).unwrap_or(i64::MAX));
    if let Some(cluster) = &state.cluster {
        metrics.leases.set(cluster.redis.held() as i64);
        metrics.redis_round_trips.set(cluster.redis.round_trips() as i64);
    }
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], metrics.encode())
        .into_response()
}

/// Whether a request from `peer` with `headers` may read `/metrics`.
fn may_see_measures(token: Option<&str>, peer: IpAddr, headers: &HeaderMap) -> bool {
    match token {
        Some(token) => headers
            .get(header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.strip_prefix("Bearer "))
            // Compared in constant time: how long a refusal takes says nothing of the token.
            .is_some_and(|given| blake3::hash(given.as_bytes()) == blake3::hash(token.as_bytes())),
        None => {
            let forwarded =
                headers.contains_key("x-forwarded-for") || headers.contains_key(header::FORWARDED);
            peer.is_loopback() && !forwarded
        }
    }
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
