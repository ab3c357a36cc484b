//! An outside engine as a match player: a child process spoken to in the engine protocol
//! (`ENGINE.md`) over its standard input and output, every wait bounded by a timeout so that a
//! silent or dead engine loses its game instead of hanging the match.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use dara::{Move, Position, Ruleset};

use super::player::{MoveAllowance, Player, PlayerError};

/// An outside engine: its standard input, and its output lines arriving on a channel so that
/// waiting for them can time out.
pub(super) struct OutsideEngine {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl OutsideEngine {
    /// Starts `command` through `sh -c` and waits for its handshake.
    pub(super) fn spawn(command: &str) -> Result<OutsideEngine, PlayerError> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| PlayerError(format!("cannot start {command:?}: {e}")))?;
        let stdin = child.stdin.take().ok_or_else(|| PlayerError("no stdin".into()))?;
        let stdout = child.stdout.take().ok_or_else(|| PlayerError("no stdout".into()))?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = OutsideEngine { child, stdin, lines };
        e.send("dep")?;
        e.wait_for(|l| l == "depok", Duration::from_secs(10))?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| PlayerError(format!("engine input closed: {e}")))
    }

    /// Reads lines until one is `done`, passing over the rest (`info`, `id`, `option`...).
    fn wait_for(
        &mut self,
        done: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Result<String, PlayerError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if done(&line) => return Ok(line),
                Ok(_) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    return Err(PlayerError("engine did not answer in time".into()))
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PlayerError("engine exited".into()))
                }
            }
        }
    }
}

impl Player for OutsideEngine {
    fn new_game(&mut self, rules: Ruleset, _: u64) -> Result<(), PlayerError> {
        self.send("newgame")?;
        self.send(&format!("rules {rules}"))?;
        self.send("isready")?;
        self.wait_for(|l| l == "readyok", Duration::from_secs(10)).map(drop)
    }

    fn choose(
        &mut self,
        _: &Position,
        moves: &[Move],
        _: &[u64],
        allowance: MoveAllowance,
    ) -> Result<String, PlayerError> {
        let mut position = String::from("position start");
        if !moves.is_empty() {
            position.push_str(" moves");
            for m in moves {
                position.push(' ');
                position.push_str(&m.to_string());
            }
        }
        self.send(&position)?;
        let mut go = String::from("go");
        if let Some(ms) = allowance.movetime {
            go.push_str(&format!(" movetime {ms}"));
        }
        if let Some(n) = allowance.nodes {
            go.push_str(&format!(" nodes {n}"));
        }
        self.send(&go)?;
        // Three times the time asked and two seconds to spare: slow, but not lost.
        let timeout = match allowance.movetime {
            Some(ms) => Duration::from_millis(ms * 3 + 2000),
            None => Duration::from_secs(30),
        };
        let line = self.wait_for(|l| l.starts_with("bestmove"), timeout)?;
        Ok(line.trim_start_matches("bestmove").trim().to_owned())
    }
}

impl Drop for OutsideEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // A moment to quit by itself before it is killed.
        std::thread::sleep(Duration::from_millis(20));
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
