//! HTTP over a plain socket (`POST /api/games`, and the lobby's requests for `--seekers`): one
//! request per connection, so the game or seat counts against the source address the driver
//! chose for it.

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

/// The answer is small (a seat, or the list of open tables); anything longer is not the
/// server's.
const MAX_ANSWER: u64 = 256 * 1024;

/// A request the driver makes: a method, a path, and a JSON body for `POST`.
#[derive(Debug, Clone, Copy)]
pub enum Request<'a> {
    /// `GET path`.
    Get(&'a str),
    /// `POST path` with a JSON body.
    Post(&'a str, &'a str),
}

/// The server's answer: its status and its body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: String,
}

impl Answer {
    /// The body as `T` if the status is `expected`, or why not.
    ///
    /// # Errors
    /// Another status (`Refused`, with the server's reason), or a body that does not read.
    pub fn read<T: serde::de::DeserializeOwned>(&self, expected: u16) -> Result<T, CreateError> {
        if self.status != expected {
            let reason = serde_json::from_str::<serde_json::Value>(&self.body)
                .ok()
                .and_then(|v| v.get("error").and_then(|e| e.as_str()).map(str::to_owned))
                .unwrap_or_else(|| self.body.trim().to_owned());
            return Err(CreateError::Refused { status: self.status, reason });
        }
        serde_json::from_str(&self.body)
            .map_err(|e| CreateError::Unreadable(format!("{e}: {:?}", self.body)))
    }
}

/// Asks for a game on `stream` (connected to `authority`) with `body`, and reads the seat.
///
/// # Errors
/// When the socket fails, the server refuses, or its answer cannot be read.
pub async fn create_game(
    stream: TcpStream,
    authority: &str,
    body: &str,
) -> Result<Created, CreateError> {
    exchange(stream, authority, Request::Post("/api/games", body)).await?.read(201)
}

/// Makes `request` on `stream` (connected to `authority`), one request per connection, and
/// reads the answer.
///
/// # Errors
/// When the socket fails or the answer is not HTTP the driver reads.
pub async fn exchange(
    mut stream: TcpStream,
    authority: &str,
    request: Request<'_>,
) -> Result<Answer, CreateError> {
    let request = match request {
        Request::Get(path) => {
            format!("GET {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n")
        }
        Request::Post(path, body) => format!(
            "POST {path} HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    };
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
    Ok(Answer { status, body: body.to_owned() })
}
