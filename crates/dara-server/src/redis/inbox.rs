//! The nodes' inboxes: every node listens on a channel of its own (`dara:node:NAME`), through
//! which other nodes relay sockets to it (`cluster::relay`), and on the lobby's and the watch
//! list's channels, on which a node says the shared tables ([`lobby`](super::lobby)) or games
//! to watch ([`watch`](super::watch)) changed. Redis pub/sub: what
//! crosses is a live conversation, not a record, and a message nobody hears is lost.

use futures_util::stream::BoxStream;
use futures_util::StreamExt;

use super::keys::{inbox, TABLES_CHANGED, WATCH_CHANGED};
use super::node::NodeName;
use super::{Failed, Redis};

/// What this node heard on the channels it listens to.
#[derive(Debug)]
pub enum Heard {
    /// A node changed the lobby's tables: they are to be read again.
    TablesChanged,
    /// A node changed the games to watch: they are to be read again.
    WatchChanged,
    /// A message in this node's inbox (see [`Letter::payload`]).
    Letter(Letter),
}

/// A message another node posted to this one's inbox.
#[derive(Debug)]
pub struct Letter(redis::Msg);

impl Letter {
    /// What the message says, as the sender posted it.
    pub fn payload(&self) -> &[u8] {
        self.0.get_payload_bytes()
    }
}

impl Redis {
    /// Posts `payload` to node `to`'s inbox; says whether a node heard it (none did: it has
    /// died, which is the same as a failed post).
    pub async fn post(&self, to: &NodeName, payload: Vec<u8>) -> bool {
        let sent: redis::RedisResult<i64> = redis::cmd("PUBLISH")
            .arg(inbox(to))
            .arg(payload)
            .query_async(&mut self.uncounted())
            .await;
        matches!(sent, Ok(n) if n > 0)
    }

    /// Listens, on a connection of its own, to this node's inbox and to the lobby's and the watch
    /// list's channels, until that connection is lost (the stream ends).
    ///
    /// # Errors
    /// Redis cannot be reached.
    pub async fn listen(&self) -> Result<BoxStream<'static, Heard>, Failed> {
        let mut pubsub = self.inner.client.get_async_pubsub().await?;
        pubsub.subscribe(inbox(&self.inner.node)).await?;
        pubsub.subscribe(TABLES_CHANGED).await?;
        pubsub.subscribe(WATCH_CHANGED).await?;
        Ok(pubsub
            .into_on_message()
            .map(|message| {
                let channel = message.get_channel_name();
                if channel == TABLES_CHANGED {
                    Heard::TablesChanged
                } else if channel == WATCH_CHANGED {
                    Heard::WatchChanged
                } else {
                    Heard::Letter(Letter(message))
                }
            })
            .boxed())
    }
}
