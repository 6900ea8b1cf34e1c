//! The memory limit of a run (`--memory-limit`): a watchdog thread samples the resident
//! memory of this process and of the run's solver processes; past the limit it raises the
//! run's [`StopSignal`] and kills those solver processes, so that even a query that never
//! returns ends — as `UNKNOWN (resource)`, never as a machine brought to its knees.
//!
//! Guarantees: sampling every [`SAMPLE_EVERY`]; dropping the [`MemoryWatch`] wakes, stops
//! and joins the thread at once (a run's end never waits for the next sample); only processes registered with [`MemoryWatch::solvers`] are killed, and only
//! while they are still children of this process.

use crate::engine::search::driver::StopSignal;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// How often memory is sampled.
pub const SAMPLE_EVERY: Duration = Duration::from_millis(50);

/// The solver processes of a run, by pid.
pub type SolverPids = Arc<Mutex<Vec<u32>>>;

/// A running watchdog.
pub struct MemoryWatch {
    /// Dropped (or sent on) to end the watch: the thread waits on its receiver between
    /// samples.
    done: Option<Sender<()>>,
    handle: Option<JoinHandle<()>>,
    solvers: SolverPids,
}

impl MemoryWatch {
    /// Watches this process and the registered solvers against `limit_mib`.
    pub fn start(limit_mib: u64, stop: StopSignal) -> MemoryWatch {
        let (done, finished) = mpsc::channel::<()>();
        let solvers: SolverPids = Arc::default();
        let pids = solvers.clone();
        let handle = std::thread::spawn(move || {
            loop {
                let used = used_mib(&pids);
                if used > limit_mib {
                    stop.raise(format!(
                        "the memory limit of {limit_mib} MiB was reached ({used} MiB in use)"
                    ));
                    kill_children(&pids);
                    return;
                }
                match finished.recv_timeout(SAMPLE_EVERY) {
                    Err(RecvTimeoutError::Timeout) => {}
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
                }
            }
        });
        MemoryWatch {
            done: Some(done),
            handle: Some(handle),
            solvers,
        }
    }

    /// Where the run registers the pids of its solver processes.
    pub fn solvers(&self) -> SolverPids {
        self.solvers.clone()
    }
}

impl Drop for MemoryWatch {
    fn drop(&mut self) {
        drop(self.done.take());
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

/// The default limit: half of the machine's memory (at least 1 GiB).
pub fn default_limit_mib() -> u64 {
    let total_kib = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))
                .and_then(|rest| {
                    rest.trim()
                        .trim_end_matches("kB")
                        .trim()
                        .parse::<u64>()
                        .ok()
                })
        })
        .unwrap_or(8 * 1024 * 1024);
    (total_kib / 1024 / 2).max(1024)
}

/// Resident memory of this process and the registered solvers, in MiB.
fn used_mib(pids: &SolverPids) -> u64 {
    let own = resident_kib("self").unwrap_or(0);
    let solvers: u64 = pids
        .lock()
        .map(|pids| {
            pids.iter()
                .filter_map(|pid| resident_kib(&pid.to_string()))
                .sum()
        })
        .unwrap_or(0);
    (own + solvers) / 1024
}

/// `VmRSS` of `/proc/<pid>/status`, in KiB (`None` once the process is gone).
fn resident_kib(pid: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Kills the registered solvers that are still our children.
pub fn kill_children(pids: &SolverPids) {
    let Ok(pids) = pids.lock() else { return };
    for pid in pids.iter() {
        kill_child(*pid);
    }
}

/// Kills the solver process `pid` if it is still a child of ours (not reaped and reused).
pub fn kill_child(pid: u32) {
    if parent_of(pid) == Some(std::process::id()) {
        // SAFETY: `kill` has no memory effects; the pid is a live child of ours.
        unsafe {
            libc::kill(pid as libc::pid_t, libc::SIGKILL);
        }
    }
}

/// The parent pid of `pid`, from `/proc/<pid>/stat` (field 4, after the `(comm)`).
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_comm = &stat[stat.rfind(')')? + 1..];
    after_comm.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_has_resident_memory_and_a_parent() {
        assert!(resident_kib("self").is_some_and(|kib| kib > 0));
        let child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .expect("sleep runs");
        assert_eq!(parent_of(child.id()), Some(std::process::id()));
        let pids: SolverPids = Arc::new(Mutex::new(vec![child.id()]));
        kill_children(&pids);
        let mut child = child;
        let status = child.wait().expect("the child is reaped");
        assert!(
            !status.success(),
            "the child was killed, not left to finish"
        );
    }

    #[test]
    fn a_limit_below_the_current_use_raises_the_signal() {
        let stop = StopSignal::default();
        let watch = MemoryWatch::start(0, stop.clone());
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while stop.raised().is_none() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        drop(watch);
        let why = stop.raised().expect("the watchdog raised the signal");
        assert!(why.contains("memory limit of 0 MiB"), "{why}");
    }
}
