//! One-shot solver runs in the background: an SMT-LIB script is written to a temporary
//! file, z3 reads it in a process of its own, and the caller polls for the end while it
//! does other work (the Horn-clause prover runs beside the stratified-inlining loop).
//!
//! Guarantees:
//! - **Never blocks.** [`ScriptRun::poll`] returns at once; [`run_to_end`]
//!   returns by its deadline. The output goes to a temporary file, not a pipe, so a
//!   chatty solver never stalls on a full pipe.
//! - **Bounded.** Each run has a memory limit (z3's `-memory:`, in MiB) and is killed at its
//!   deadline; dropping a [`ScriptRun`] kills and reaps the process and removes its files.
//!   z3 also gets a hard time limit of its own a little past the deadline (`-T:`), so a run
//!   whose caller was killed from outside (no drop ran) still ends by then instead of
//!   running on, orphaned, until it finishes; and it dies with `horef-si` in any case
//!   ([`super::children`]), whose signal handling also removes the script file.
//! - **In the background.** A run started with `background` set runs at the lowest CPU
//!   priority ([`lower_priority`]): the proof engines' Spacer processes take only the
//!   cores the bounded search leaves free, so they never slow it (issue 30).
//! - **No verdict from a broken solver.** Anything but a readable reply is a
//!   [`ScriptOutcome::Failed`] with the reason (exit status, the end of the output).

use super::SolverError;
use super::reply::{Framer, Sx, parse};
use std::io::{Read, Seek, Write};
use std::process::{Child, Command, Stdio};
use std::time::Instant;
use tempfile::NamedTempFile;

/// How long past its deadline z3's own time limit (`-T:`) ends a run nobody kills: the
/// deadline itself is kept by [`ScriptRun::poll`]; this only bounds an orphaned z3.
const ORPHAN_GRACE_SECONDS: u64 = 2;

/// A script being solved.
pub(crate) struct ScriptRun {
    child: Child,
    output: std::fs::File,
    /// Kept so the script file lives as long as the run (and is removed on a signal).
    _script: (NamedTempFile, super::children::Tracked),
    deadline: Instant,
    finished: Option<ScriptOutcome>,
}

/// How a run ended.
#[derive(Clone, Debug)]
pub(crate) enum ScriptOutcome {
    /// Every reply the solver printed, in order (`sat`, `unsat`, `unknown`, models,
    /// `(error ...)` for a command it refused).
    Replies(Vec<Sx>),
    /// Killed at its deadline.
    TimedOut,
    /// The solver crashed, ran out of memory or printed something unreadable.
    Failed(String),
}

impl ScriptRun {
    /// Starts z3 on `script`, to be killed at `deadline`, with at most `memory_mib` of
    /// memory (`None`: no limit of its own); at the lowest CPU priority if `background`.
    pub fn start(
        script: &str,
        deadline: Instant,
        memory_mib: Option<u64>,
        background: bool,
    ) -> Result<ScriptRun, SolverError> {
        let mut file = NamedTempFile::new().map_err(|e| SolverError::io("a script file", e))?;
        let tracked = super::children::track(file.path());
        file.write_all(script.as_bytes())
            .and_then(|_| file.flush())
            .map_err(|e| SolverError::io("writing the script file", e))?;
        let output = tempfile::tempfile().map_err(|e| SolverError::io("an output file", e))?;
        let program = super::locate::program("z3");
        let mut command = Command::new(&program);
        command.arg("-smt2");
        if let Some(mib) = memory_mib {
            command.arg(format!("-memory:{mib}"));
        }
        let seconds = deadline.saturating_duration_since(Instant::now()).as_secs();
        command.arg(format!("-T:{}", seconds + ORPHAN_GRACE_SECONDS));
        command
            .arg(file.path())
            .stdin(Stdio::null())
            .stdout(
                output
                    .try_clone()
                    .map_err(|e| SolverError::io("an output file", e))?,
            )
            .stderr(Stdio::null());
        let child = super::children::spawn(command).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => SolverError::NotFound {
                kind: super::SolverKind::Z3,
                program: program.to_string_lossy().into_owned(),
                hint: super::SolverKind::Z3.install_hint(),
            },
            _ => SolverError::io("starting z3", e),
        })?;
        if background {
            lower_priority(child.id());
        }
        Ok(ScriptRun {
            child,
            output,
            _script: (file, tracked),
            deadline,
            finished: None,
        })
    }

    /// The outcome if the run has ended (killing it if its deadline passed), else `None`.
    pub fn poll(&mut self) -> Option<ScriptOutcome> {
        if self.finished.is_none() {
            self.finished = self.check();
        }
        self.finished.clone()
    }

    fn check(&mut self) -> Option<ScriptOutcome> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(self.read_outcome(status)),
            Ok(None) if Instant::now() >= self.deadline => {
                self.kill();
                Some(ScriptOutcome::TimedOut)
            }
            Ok(None) => None,
            Err(e) => Some(ScriptOutcome::Failed(format!("waiting for z3: {e}"))),
        }
    }

    fn read_outcome(&mut self, status: std::process::ExitStatus) -> ScriptOutcome {
        let mut text = String::new();
        let read = self
            .output
            .rewind()
            .and_then(|_| self.output.read_to_string(&mut text));
        if let Err(e) = read {
            return ScriptOutcome::Failed(format!("reading z3's output: {e}"));
        }
        let mut framer = Framer::new();
        framer.push(&text);
        let mut replies = Vec::new();
        while let Some(datum) = framer.next_datum() {
            match parse(&datum) {
                Ok(sx) => replies.push(sx),
                Err(e) => return ScriptOutcome::Failed(format!("unreadable reply: {e}")),
            }
        }
        if replies.is_empty() {
            let tail: String = text.chars().rev().take(200).collect();
            let tail: String = tail.chars().rev().collect();
            return ScriptOutcome::Failed(format!("z3 ended ({status}) without an answer: {tail}"));
        }
        ScriptOutcome::Replies(replies)
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ScriptRun {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.kill();
        }
    }
}

/// The niceness of background solver processes: the lowest priority there is.
const BACKGROUND_NICENESS: libc::c_int = 19;

/// Makes the process `pid` (a solver of ours) run at the lowest CPU priority, so that it
/// takes only the cores nothing else of ours wants. Best effort: a failure (the process
/// has ended already) changes nothing but the priority.
pub fn lower_priority(pid: u32) {
    // SAFETY: `setpriority` has no memory effects; it changes the scheduling priority of
    // the given process only (a lower priority is always allowed).
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, pid as libc::id_t, BACKGROUND_NICENESS);
    }
}

/// Runs `script` to its end, its deadline or a cancellation (`None`), polling every 2 ms;
/// at the lowest CPU priority if `background`. A solver that cannot be started is a
/// [`ScriptOutcome::Failed`].
pub(crate) fn run_to_end(
    script: &str,
    (deadline, memory_mib): (Instant, Option<u64>),
    background: bool,
    cancel: &std::sync::atomic::AtomicBool,
) -> Option<ScriptOutcome> {
    let mut run = match ScriptRun::start(script, deadline, memory_mib, background) {
        Ok(run) => run,
        Err(e) => return Some(ScriptOutcome::Failed(e.to_string())),
    };
    loop {
        if cancel.load(std::sync::atomic::Ordering::SeqCst) {
            return None;
        }
        if let Some(outcome) = run.poll() {
            return Some(outcome);
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}
