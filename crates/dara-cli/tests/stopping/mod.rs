//! What a deploy promises, checked the same way by every test that stops a real server.

use std::io::{Read, Write};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use tungstenite::{Message, WebSocket};

/// Sends SIGTERM to `server` and checks what a stopping server promises (PROTOCOL.md): every
/// socket in `sockets` is closed with 1012 ("restarting"), and the process exits cleanly
/// within 5 s, whatever half-open requests it still holds.
pub fn terminate_with_1012<'a, S: Read + Write + 'a>(
    server: &mut Child,
    sockets: impl IntoIterator<Item = &'a mut WebSocket<S>>,
) {
    let stopped_at = Instant::now();
    let pid = server.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    for ws in sockets {
        let code = loop {
            match ws.read() {
                Ok(Message::Close(frame)) => break frame.map(|f| u16::from(f.code)),
                Ok(_) => continue,
                Err(e) => panic!("no close frame: {e}"),
            }
        };
        assert_eq!(code, Some(1012));
    }
    let status = loop {
        if let Some(status) = server.try_wait().unwrap() {
            break status;
        }
        assert!(stopped_at.elapsed() < Duration::from_secs(5), "still running after 5 s");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
}
