//! `POST /api/games` over a plain socket: one request per connection, so the game counts
//! against the source address the driver chose for it.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::wire::Created;

/// How a request for a game went wrong.
#[derive(Debug)]
pub enum CreateError {
    /// The socket failed.
    Io(std::io::Error),
    /// The server answered, but not with a game: its status and its reason.
    Refused { status: u16, reason: String },
    /// The answer is not HTTP with a JSON game in it.
    Unreadable(String),
}

impl From<std::io::Error> for CreateError {
    fn from(e: std::io::Error) -> CreateError {
        CreateError::Io(e)
    }
}

/// The answer is small; anything longer is not the server's.
const MAX_ANSWER: u64 = 16 * 1024;

/// Asks for a game on `stream` (connected to `authority`) with `body`, and reads the seat.
///
/// # Errors
/// When the socket fails, the server refuses, or its answer cannot be read.
pub async fn create_game(
    mut stream: TcpStream,
    authority: &str,
    body: &str,
) -> Result<Created, CreateError> {
    let request = format!(
        "POST /api/games HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await?;
    let mut answer = Vec::with_capacity(1024);
    // `Connection: close`: the answer ends where the stream does.
    (&mut stream).take(MAX_ANSWER).read_to_end(&mut answer).await?;
    let text = String::from_utf8_lossy(&answer);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| CreateError::Unreadable(format!("no end of headers in {text:?}")))?;
    let status: u16 = head
        .split_ascii_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| CreateError::Unreadable(format!("no status in {head:?}")))?;
    if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        return Err(CreateError::Unreadable("a chunked answer (not read by this client)".into()));
    }
    if status != 201 {
        let reason = serde_json::from_str::<serde_json::Value>(body)
            .ok()
            .and_then(|v| v.get("error").and_then(|e| e.as_str()).map(str::to_owned))
            .unwrap_or_else(|| body.trim().to_owned());
        return Err(CreateError::Refused { status, reason });
    }
    serde_json::from_str(body).map_err(|e| CreateError::Unreadable(format!("{e}: {body:?}")))
}
