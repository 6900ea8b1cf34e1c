//! Solver processes never outlive `horef-si`, and neither do its temporary files.
//!
//! Guarantees:
//! - **Children die with the parent.** Every solver process is started by [`spawn`] with
//!   `PR_SET_PDEATHSIG = SIGKILL` (Linux): the kernel kills it when `horef-si` ends, however
//!   it ends (an exit, a signal, `kill -9`, a crash). The kernel counts the *thread* that
//!   started a child as its parent, so every child is started by one thread that lives as
//!   long as the process; a child whose parent is already gone when it starts exits at once.
//! - **Signals clean up.** After [`clean_up_on_signals`] (the binary calls it first thing),
//!   SIGINT, SIGTERM and SIGHUP are taken by a thread of their own: it removes every
//!   temporary file and folder registered with [`track`] that is still there, then ends
//!   the process by the same signal (exit status 128 + n for the shell), which kills the
//!   solvers (above).

use std::io;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// A request to the spawning thread: the command, and where to send the child.
type Request = (Command, Sender<io::Result<Child>>);

/// Starts `command` as a child that is killed when this process ends (see the module doc).
pub(crate) fn spawn(mut command: Command) -> io::Result<Child> {
    die_with_parent(&mut command);
    let (reply, answer) = channel();
    spawner()?
        .send((command, reply))
        .map_err(|_| io::Error::other("the thread that starts solvers is gone"))?;
    answer
        .recv()
        .map_err(|_| io::Error::other("the thread that starts solvers is gone"))?
}

/// The spawning thread's queue; the thread is started on first use and never ends.
fn spawner() -> io::Result<Sender<Request>> {
    static SPAWNER: OnceLock<Mutex<Sender<Request>>> = OnceLock::new();
    if let Some(sender) = SPAWNER.get() {
        return Ok(lock(sender).clone());
    }
    let (sender, requests) = channel::<Request>();
    let started = std::thread::Builder::new()
        .name("solver-spawner".to_string())
        .spawn(move || {
            for (mut command, reply) in requests {
                let _ = reply.send(command.spawn());
            }
        });
    match started {
        // Another thread may have won the race: its spawner is used, this one ends as
        // its queue (the sender dropped here) closes.
        Ok(_) => Ok(lock(SPAWNER.get_or_init(|| Mutex::new(sender))).clone()),
        Err(e) => Err(e),
    }
}

#[cfg(target_os = "linux")]
fn die_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: the closure runs in the child between fork and exec and calls only
    // async-signal-safe functions (prctl, getppid); it allocates nothing.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            // The parent ended before the line above: nobody would kill this child.
            if libc::getppid() != parent {
                return Err(io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_parent(_command: &mut Command) {}

/// The temporary files and folders to remove when a signal ends the process.
fn tracked() -> MutexGuard<'static, Vec<PathBuf>> {
    static TRACKED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    lock(&TRACKED)
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A temporary file or folder removed if a signal ends the process; dropping this (after
/// or as the owner removes the path itself) forgets it.
#[derive(Debug)]
pub struct Tracked(PathBuf);

/// Registers `path` (a temporary file or folder) for removal on SIGINT/SIGTERM/SIGHUP.
pub fn track(path: &Path) -> Tracked {
    tracked().push(path.to_path_buf());
    Tracked(path.to_path_buf())
}

impl Drop for Tracked {
    fn drop(&mut self) {
        let mut paths = tracked();
        if let Some(i) = paths.iter().rposition(|p| *p == self.0) {
            paths.swap_remove(i);
        }
    }
}

/// Takes SIGINT, SIGTERM and SIGHUP away from every thread started after this call (call it
/// before any other thread starts) and handles them on a thread of its own: the tracked
/// temporary paths are removed, then the process ends by the signal. Without the thread
/// (it cannot be started) the signals keep their default action.
#[cfg(unix)]
pub fn clean_up_on_signals() {
    // SAFETY: plain libc calls on a local, initialised signal set.
    let set = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::sigaddset(&mut set, signal);
        }
        set
    };
    // SAFETY: as above; blocking only changes this thread's mask (and its future threads').
    if unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) } != 0 {
        return;
    }
    let handler = std::thread::Builder::new()
        .name("signals".to_string())
        .spawn(move || {
            let mut signal: libc::c_int = 0;
            // SAFETY: `set` and `signal` are valid for the call.
            while unsafe { libc::sigwait(&set, &mut signal) } != 0 {}
            remove_tracked();
            end_by(signal);
        });
    if handler.is_err() {
        // SAFETY: as above.
        unsafe { libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut()) };
    }
}

#[cfg(not(unix))]
pub fn clean_up_on_signals() {}

/// Removes every tracked temporary path (before the process ends without dropping them).
pub fn remove_tracked() {
    let paths = std::mem::take(&mut *tracked());
    for path in paths {
        let _ = if path.is_dir() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
    }
}

/// Ends the process by `signal` with its default action (so the exit status says which).
#[cfg(unix)]
fn end_by(signal: libc::c_int) -> ! {
    // SAFETY: restoring a default disposition and unblocking the signal in this thread;
    // `raise` then delivers it here, ending the process.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, signal);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        libc::raise(signal);
    }
    std::process::exit(128 + signal);
}
