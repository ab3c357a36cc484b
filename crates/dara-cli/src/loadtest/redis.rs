//! A cluster's Redis, as the load test reads it: how many commands it has run (`INFO stats`),
//! over a plain connection (one command, no client library needed).

use anyhow::{bail, Context, Result};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// `total_commands_processed` of the Redis at `address` (`host:port`).
///
/// # Errors
/// Redis cannot be reached or does not answer `INFO stats` as Redis does.
pub async fn commands_processed(address: &str) -> Result<u64> {
    let mut stream = TcpStream::connect(address)
        .await
        .with_context(|| format!("connecting to Redis at {address}"))?;
    stream.write_all(b"INFO stats\r\n").await?;
    let mut answer = Vec::new();
    let mut chunk = [0u8; 4096];
    // A bulk string: `$<length>\r\n<text>\r\n`; read until the text is whole.
    loop {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        answer.extend_from_slice(&chunk[..n]);
        let text = String::from_utf8_lossy(&answer);
        if let Some((head, body)) = text.split_once("\r\n") {
            let length: usize = head.trim_start_matches('$').parse().unwrap_or(usize::MAX);
            if body.len() >= length {
                break;
            }
        }
    }
    let text = String::from_utf8_lossy(&answer);
    for line in text.lines() {
        if let Some(count) = line.strip_prefix("total_commands_processed:") {
            return count.trim().parse().context("Redis's command count");
        }
    }
    bail!("Redis at {address} did not say how many commands it ran")
}
