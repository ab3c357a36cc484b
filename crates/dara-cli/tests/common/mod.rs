//! What the `dara` binary's test files share: the binary as a command, its output, and a scratch
//! folder for the files it reads.

use std::path::PathBuf;

use assert_cmd::Command;

/// The `dara` binary that cargo built for these tests.
pub fn dara() -> Command {
    Command::cargo_bin("dara").unwrap()
}

/// Runs `cmd`: whether it succeeded, its standard output and its standard error.
pub fn output(cmd: &mut Command) -> (bool, String, String) {
    let out = cmd.output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.success(), text(out.stdout), text(out.stderr))
}

/// Runs `cmd`, which must succeed, and gives its standard output.
pub fn stdout(cmd: &mut Command) -> String {
    let (ok, out, err) = output(cmd);
    assert!(ok, "{err}");
    out
}

/// A folder of this test process's own under the system's temporary folder, removed when dropped
/// (so also when the test fails).
pub struct Scratch(PathBuf);

impl Scratch {
    /// A new folder; `name` tells the tests of one process apart.
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("dara-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// Writes `text` to the file `name` in the folder, and gives its path.
    pub fn file(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
