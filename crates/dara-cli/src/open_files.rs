//! The process's limit on open files: every socket is one.

/// The open-files limit before and after raising the soft limit to the hard one.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct OpenFiles {
    /// The soft limit this process started with.
    pub soft_before: u64,
    /// The soft limit now.
    pub soft: u64,
    /// The hard limit, which only a privileged process may raise.
    pub hard: u64,
}

/// Raises this process's soft limit on open files to its hard limit: each socket is a file, and
/// the usual soft limit (1024) would stop the load at about 500 games.
///
/// # Errors
/// When the limit cannot be read or set.
pub fn raise_open_files() -> nix::Result<OpenFiles> {
    use nix::sys::resource::{getrlimit, setrlimit, Resource};
    let (soft_before, hard) = getrlimit(Resource::RLIMIT_NOFILE)?;
    if soft_before < hard {
        setrlimit(Resource::RLIMIT_NOFILE, hard, hard)?;
    }
    let (soft, hard) = getrlimit(Resource::RLIMIT_NOFILE)?;
    Ok(OpenFiles { soft_before, soft, hard })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_soft_limit_reaches_the_hard_one() {
        let limits = raise_open_files().unwrap();
        assert_eq!(limits.soft, limits.hard);
        assert!(limits.soft >= limits.soft_before);
    }
}
