//! Linux's view of a process: CPU time and resident memory from `/proc`, and this process's own
//! limit on open files (every socket is one).

use std::io;

/// A process in `/proc`: a pid, or this process.
#[derive(Debug, Clone, Copy)]
pub enum Process {
    /// This process.
    Me,
    /// Another process.
    Pid(u32),
}

impl Process {
    fn path(self, file: &str) -> String {
        match self {
            Process::Me => format!("/proc/self/{file}"),
            Process::Pid(pid) => format!("/proc/{pid}/{file}"),
        }
    }

    /// User plus system CPU time used so far, in seconds.
    ///
    /// # Errors
    /// When the process is gone or `/proc` cannot be read.
    pub fn cpu_seconds(self) -> io::Result<f64> {
        let stat = std::fs::read_to_string(self.path("stat"))?;
        // The command name (field 2) is in parentheses and may hold spaces: count from after it.
        let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        let mut fields = after_name.split_ascii_whitespace();
        // Fields 3 (state) to 15: utime is the 14th, stime the 15th.
        let mut field = |n: usize| -> io::Result<u64> {
            fields.nth(n).and_then(|f| f.parse().ok()).ok_or_else(|| {
                io::Error::new(io::ErrorKind::InvalidData, "unexpected /proc/PID/stat")
            })
        };
        let utime = field(11)?;
        let stime = field(0)?;
        Ok((utime + stime) as f64 / clock_ticks_per_second() as f64)
    }

    /// Time the process's threads have spent ready to run but waiting for a CPU, in seconds
    /// (`/proc/PID/task/*/schedstat`): on a shared machine, what tells a server that ran out of
    /// work to do from one that was kept off its core by other programs.
    ///
    /// # Errors
    /// When the process is gone or `/proc` cannot be read.
    pub fn cpu_wait_seconds(self) -> io::Result<f64> {
        let mut waited_ns: u64 = 0;
        for task in std::fs::read_dir(self.path("task"))? {
            // A thread that ends meanwhile takes its figures with it.
            let Ok(stat) = std::fs::read_to_string(task?.path().join("schedstat")) else {
                continue;
            };
            waited_ns +=
                stat.split_ascii_whitespace().nth(1).and_then(|w| w.parse().ok()).unwrap_or(0);
        }
        Ok(waited_ns as f64 / 1e9)
    }

    /// Resident memory (`VmRSS`), in KiB.
    ///
    /// # Errors
    /// When the process is gone or `/proc` cannot be read.
    pub fn resident_kib(self) -> io::Result<u64> {
        let status = std::fs::read_to_string(self.path("status"))?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "no VmRSS in status"))
    }
}

/// The kernel's clock ticks per second, the unit of `/proc/PID/stat` times (100 on Linux).
fn clock_ticks_per_second() -> u64 {
    use nix::unistd::{sysconf, SysconfVar};
    match sysconf(SysconfVar::CLK_TCK) {
        Ok(Some(ticks)) if ticks > 0 => ticks as u64,
        _ => 100,
    }
}

/// The server processes measured, summed.
pub struct Servers(pub Vec<Process>);

impl Servers {
    fn sum<T: std::iter::Sum>(
        &self,
        each: impl Fn(Process) -> std::io::Result<T>,
    ) -> std::io::Result<Option<T>> {
        if self.0.is_empty() {
            return Ok(None);
        }
        let values = self.0.iter().map(|p| each(*p)).collect::<std::io::Result<Vec<T>>>()?;
        Ok(Some(values.into_iter().sum()))
    }

    /// [`Process::cpu_seconds`], summed over the servers; `None` without a server to measure.
    ///
    /// # Errors
    /// When a process is gone or `/proc` cannot be read.
    pub fn cpu_seconds(&self) -> std::io::Result<Option<f64>> {
        self.sum(Process::cpu_seconds)
    }

    /// [`Process::cpu_wait_seconds`], summed over the servers; `None` without a server to measure.
    ///
    /// # Errors
    /// When a process is gone or `/proc` cannot be read.
    pub fn cpu_wait_seconds(&self) -> std::io::Result<Option<f64>> {
        self.sum(Process::cpu_wait_seconds)
    }

    /// [`Process::resident_kib`], summed over the servers; `None` without a server to measure.
    ///
    /// # Errors
    /// When a process is gone or `/proc` cannot be read.
    pub fn resident_kib(&self) -> std::io::Result<Option<u64>> {
        self.sum(Process::resident_kib)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_has_cpu_time_and_memory() {
        assert!(Process::Me.cpu_seconds().unwrap() >= 0.0);
        assert!(Process::Me.resident_kib().unwrap() > 100);
        assert!(Process::Me.cpu_wait_seconds().unwrap() >= 0.0);
        let pid = std::process::id();
        assert!(Process::Pid(pid).resident_kib().unwrap() > 100);
    }
}
