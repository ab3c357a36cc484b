//! A seat's WebSocket: connected at the pacer's moment (from a chosen loopback address, if
//! any), hello said, and what the seat has been told since.

use std::collections::VecDeque;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use dara::Colour;
use dara_table::GameId;
use futures_util::SinkExt;
use tokio::net::{TcpSocket, TcpStream};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::WebSocketStream;

use super::Shared;
use crate::loadtest::pacer::Pacer;
use crate::loadtest::target::Target;
use crate::loadtest::wire;

/// For a connection, or a WebSocket handshake, to complete.
pub(crate) const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

pub(crate) type Socket = WebSocketStream<TcpStream>;

/// A seat's socket, which has said hello (with the seat's token, or none to join after).
pub(super) async fn sit(
    shared: &Shared,
    target: &Target,
    source: Option<IpAddr>,
    game: &GameId,
    token: Option<&str>,
    protocol: Option<u32>,
) -> Option<Seat> {
    let mut ws = open_socket(shared, target, source, game).await?;
    let hello = wire::hello(token, protocol);
    if let Err(e) = ws.send(Message::Text(hello.into())).await {
        shared.stats.connect_failed.fetch_add(1, Relaxed);
        shared.stats.tell(|| format!("hello not sent: {e}"));
        return None;
    }
    Some(Seat::new(ws, token, protocol.is_some()))
}

/// A connection to the server, from `source` if given, at the pacer's moment.
pub(crate) async fn connect(
    pacer: &Pacer,
    target: &Target,
    source: Option<IpAddr>,
) -> std::io::Result<TcpStream> {
    pacer.wait().await;
    let addr = target.addr;
    let socket = if addr.is_ipv4() { TcpSocket::new_v4()? } else { TcpSocket::new_v6()? };
    if let Some(ip) = source {
        socket.bind(SocketAddr::new(ip, 0))?;
    }
    let stream = tokio::time::timeout(CONNECT_TIMEOUT, socket.connect(addr))
        .await
        .map_err(|_| std::io::Error::from(std::io::ErrorKind::TimedOut))??;
    // A turn is one small frame: send it now, not after a delayed acknowledgement.
    stream.set_nodelay(true)?;
    Ok(stream)
}

/// A game's WebSocket, or `None` (counted) when it cannot be opened.
async fn open_socket(
    shared: &Shared,
    target: &Target,
    source: Option<IpAddr>,
    game: &GameId,
) -> Option<Socket> {
    let stats = &shared.stats;
    let stream = match connect(&shared.pacer, target, source).await {
        Ok(stream) => stream,
        Err(e) => {
            stats.connect_failed.fetch_add(1, Relaxed);
            stats.tell(|| format!("cannot connect: {e}"));
            return None;
        }
    };
    match handshake(stream, target, &format!("/ws/game/{game}")).await {
        Ok(ws) => Some(ws),
        Err(e) => {
            stats.connect_failed.fetch_add(1, Relaxed);
            stats.tell(|| format!("WebSocket handshake failed: {e}"));
            None
        }
    }
}

/// The WebSocket handshake for `path` on `stream`, within [`CONNECT_TIMEOUT`].
///
/// # Errors
/// When the handshake fails or times out.
pub(crate) async fn handshake(
    stream: TcpStream,
    target: &Target,
    path: &str,
) -> Result<Socket, WsError> {
    let url = format!("ws://{}{path}", target.authority);
    // Messages are a few KiB at most: small buffers keep thousands of sockets light, and each
    // frame is written at once.
    let config = WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0)
        .max_message_size(Some(1 << 20))
        .max_frame_size(Some(1 << 20));
    let handshake = tokio_tungstenite::client_async_with_config(url, stream, Some(config));
    match tokio::time::timeout(CONNECT_TIMEOUT, handshake).await {
        Ok(Ok((ws, _))) => Ok(ws),
        Ok(Err(e)) => Err(e),
        Err(_) => Err(WsError::Io(std::io::ErrorKind::TimedOut.into())),
    }
}

/// One seat's socket and what it has been told.
#[derive(Debug)]
pub(super) struct Seat {
    pub(super) ws: Socket,
    /// The creator's seat token; none for the second player.
    pub(super) token: Option<String>,
    /// Takes the free seat after its snapshot (the second player, by the invite link).
    pub(super) joiner: bool,
    /// Its `hello` carried the `protocol` field.
    pub(super) hello_had_protocol: bool,
    /// Known from the snapshot (`you`) or from `joined`.
    pub(super) colour: Option<Colour>,
    /// The last event's version; `None` until the snapshot.
    pub(super) version: Option<u64>,
    /// Turns played, by the events this socket received.
    pub(super) ply: u64,
    /// This socket has been told that both seats are taken.
    pub(super) seated: bool,
    /// The turn it will play next, picked from the last position when it is its side to move.
    pub(super) choice: Option<String>,
    /// The last position's legal turns, kept only while the seat's colour is unknown.
    pub(super) legal_before_joining: Option<(Colour, Vec<String>)>,
    /// The last turn it sent, the ply it makes, and when it was sent.
    pub(super) sent: String,
    pub(super) sent_ply: u64,
    pub(super) sent_at: Instant,
    /// Turns sent and not yet `accepted`, oldest first.
    pub(super) awaiting: VecDeque<(u64, Instant)>,
    /// When it last sent anything: a ping is due after `PING_WHEN_QUIET`.
    pub(super) last_sent: Instant,
    /// Half its last turn's round trip, in milliseconds: the lag a page reports with a turn.
    pub(super) lag_ms: u64,
}

impl Seat {
    pub(super) fn new(ws: Socket, token: Option<&str>, hello_had_protocol: bool) -> Seat {
        Seat {
            ws,
            token: token.map(str::to_owned),
            joiner: token.is_none(),
            hello_had_protocol,
            colour: None,
            version: None,
            ply: 0,
            seated: false,
            choice: None,
            legal_before_joining: None,
            sent: String::new(),
            sent_ply: 0,
            sent_at: Instant::now(),
            awaiting: VecDeque::with_capacity(2),
            last_sent: Instant::now(),
            lag_ms: 0,
        }
    }
}
