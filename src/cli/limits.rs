//! `verify --timeout` and `--memory-limit` hold from the first moment: a thread started
//! before the program is read ends the command if loading (or anything else) runs past them.
//!
//! Guarantees: once the time since [`start`] passes the timeout — while the program is
//! still being read and checked, or by [`GRACE`] once the engine runs (it answers by its
//! deadline itself; this only catches what runs unchecked, such as lowering a huge
//! program) — or this process's resident memory passes the limit, the
//! command prints `UNKNOWN` with the reason in the command's output format (the caller's
//! [`Answer`]), removes its temporary files and exits 5 (its solver processes die with it,
//! `solver::children`). Exactly one of this thread and the command prints a verdict
//! ([`claim`]).

use crate::core_lang::interp::memory::MemoryGuard;
use crate::engine::verdict::UnknownReason;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long past the timeout the engine may take to answer before this thread does.
pub const GRACE: Duration = Duration::from_secs(1);

/// How often the thread looks at the clock and the memory.
const TICK: Duration = Duration::from_millis(20);

/// Whether a verdict is being printed (one command per process).
static ANSWERED: AtomicBool = AtomicBool::new(false);

/// Whether the program is loaded (the engine, which keeps its own deadline, may run).
static LOADED: AtomicBool = AtomicBool::new(false);

/// How the command's UNKNOWN is written, in its output format.
pub type Answer = Box<dyn Fn(&UnknownReason) -> String + Send>;

/// Starts watching the time (`timeout`) and the memory (`memory_limit_mib`) from now; a
/// limit reached is answered with the text `answer` makes of it.
pub fn start(timeout: Option<Duration>, memory_limit_mib: Option<u64>, answer: Answer) {
    let started = Instant::now();
    let deadline = timeout.and_then(|t| started.checked_add(t));
    let memory = memory_limit_mib.map(|mib| MemoryGuard::new(Some(mib)));
    let flag = &ANSWERED;
    let watch = move || {
        loop {
            std::thread::sleep(TICK);
            if flag.load(Ordering::SeqCst) {
                return;
            }
            let grace = match LOADED.load(Ordering::SeqCst) {
                true => GRACE,
                false => Duration::ZERO,
            };
            let reason = if deadline.is_some_and(|d| Instant::now() >= d + grace) {
                UnknownReason::Timeout
            } else if let Some(mib) =
                memory_limit_mib.filter(|_| memory.is_some_and(|m| m.exceeded()))
            {
                UnknownReason::Resource(format!("the memory limit of {mib} MiB was reached"))
            } else {
                continue;
            };
            if flag.swap(true, Ordering::SeqCst) {
                return;
            }
            crate::solver::children::remove_tracked();
            println!("{}", answer(&reason));
            std::process::exit(i32::from(crate::exit_code::ExitCode::Inconclusive.code()));
        }
    };
    if deadline.is_some() || memory.is_some() {
        // Without the thread the engine's own limits still hold once loading is done.
        let _ = std::thread::Builder::new()
            .name("limits".to_string())
            .spawn(watch);
    }
}

/// The program is loaded: from now on the engine answers by its own deadline, and the
/// watch gives it [`GRACE`] to do so.
pub fn loaded() {
    LOADED.store(true, Ordering::SeqCst);
}

/// Claims the right to print the verdict; when the watch has claimed it (it is printing
/// UNKNOWN and ending the process), this never returns.
pub fn claim() {
    if ANSWERED.swap(true, Ordering::SeqCst) {
        loop {
            std::thread::park();
        }
    }
}
