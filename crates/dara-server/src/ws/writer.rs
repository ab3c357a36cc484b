//! A socket's writer: one task sends what its queue holds, in order, gathering what is queued
//! by the time it runs into one write, and stops after a close.

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::SinkExt;
use tokio::sync::mpsc;

use super::Outgoing;

/// The writer half: sends what the queue holds, in order, and stops after a close.
pub(crate) fn spawn_writer(
    socket_sink: futures_util::stream::SplitSink<WebSocket, Message>,
) -> (mpsc::Sender<Outgoing>, tokio::task::JoinHandle<()>) {
    let (tx, mut rx) = mpsc::channel::<Outgoing>(256);
    let mut sink = socket_sink;
    let task = tokio::spawn(async move {
        // Everything queued by the time the writer runs goes out in one write: a turn's
        // `accepted` and its `move` event usually leave together (a send on loopback costs more
        // than rendering the event).
        'socket: while let Some(first) = rx.recv().await {
            let mut next = Some(first);
            while let Some(out) = next.take() {
                let (message, closing) = match out {
                    Outgoing::Text(text) => (Message::Text(text), false),
                    Outgoing::Ping => (Message::Ping(Default::default()), false),
                    Outgoing::Close(code, reason) => {
                        (Message::Close(Some(CloseFrame { code, reason: reason.into() })), true)
                    }
                };
                if sink.feed(message).await.is_err() {
                    break 'socket;
                }
                if closing {
                    let _ = sink.flush().await;
                    break 'socket;
                }
                next = rx.try_recv().ok();
            }
            if sink.flush().await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    (tx, task)
}
