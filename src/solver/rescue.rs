//! A second solver raced against a check that takes long: the session's commands so far
//! replayed into a fresh process in the other tuning ([`SolverKind::rescue_tuning`]), the
//! same check sent, and the first answer taken ([`super::Session::enable_rescue`]).
//!
//! Why: z3's heuristics have queries they do not answer in any time we can wait, and
//! which another configuration answers at once (`tests/proofs/loop_lcg_band-e.ml`: a bug
//! at depth 2 went unfound, the depth-4 query getting no answer in 300 s with relevancy
//! splitting, 0.06 s without). Changing an option inside the running session after a
//! timeout does not help (measured on that dialogue), so the rescue is a second process.
//!
//! Guarantees:
//! - the rescue answers the same question: the transcript holds every command that
//!   changed the session's state (declarations, assertions, scopes, options), in the
//!   order sent, and the rescue gets the session's start-up commands with only the tuning
//!   changed, then the transcript, then the check; every replayed command must be
//!   acknowledged `success`, or the rescue is dropped;
//! - whichever answers first stays: the session goes on with it (models, later checks),
//!   and the other is killed and reaped at once (dropping a [`SolverProcess`] does);
//! - a rescue's pid is registered as the session's was (the run's list, killed when a
//!   proof ends the run; the memory watch), and its exchanges have the session's bounds;
//! - bounded memory: past [`MAX_TRANSCRIPT_BYTES`] the transcript is dropped and no rescue
//!   starts again in that session.

use super::SolverKind;
use super::error::SolverError;
use super::process::SolverProcess;
use std::ffi::OsString;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a check runs alone before a rescue is raced against it. Most of our checks
/// take milliseconds; a large program's bug query at a large bound takes seconds in
/// either tuning, and a rescue then only shares the cores.
pub(crate) const RESCUE_AFTER: Duration = Duration::from_secs(3);

/// The most command text a transcript keeps (a generated program's dialogue at K = 15 is
/// tens of megabytes).
const MAX_TRANSCRIPT_BYTES: usize = 64 << 20;

/// Registers a new solver process's pid where the run keeps its solvers' pids.
pub type Register = Arc<dyn Fn(u32) + Send + Sync>;

/// What a session needs to start a rescue: its transcript and how it was started.
pub(crate) struct Rescue {
    /// Every state-changing command sent so far; `None` once too large.
    transcript: Option<Vec<String>>,
    bytes: usize,
    kind: SolverKind,
    program: OsString,
    reply_wait: Duration,
    register: Register,
    /// The session's current process's tuning, and the other one.
    tunings: [&'static [&'static str]; 2],
}

impl Rescue {
    /// For a session of `kind` started with `program` in its usual tuning; `None` if the
    /// solver has no rescue tuning.
    pub(crate) fn new(
        kind: SolverKind,
        program: OsString,
        reply_wait: Duration,
        register: Register,
    ) -> Option<Rescue> {
        Some(Rescue {
            transcript: Some(Vec::new()),
            bytes: 0,
            kind,
            program,
            reply_wait,
            register,
            tunings: [kind.tuning(), kind.rescue_tuning()?],
        })
    }

    /// Whether a rescue can still start.
    pub(crate) fn ready(&self) -> bool {
        self.transcript.is_some()
    }

    /// Notes commands the session sent that change its state.
    pub(crate) fn record(&mut self, commands: impl IntoIterator<Item = impl AsRef<str>>) {
        let Some(transcript) = &mut self.transcript else {
            return;
        };
        for command in commands {
            let command = command.as_ref();
            self.bytes += command.len();
            transcript.push(command.to_string());
        }
        if self.bytes > MAX_TRANSCRIPT_BYTES {
            self.give_up();
        }
    }

    /// No rescue starts again (one failed to start, or the transcript grew too large).
    pub(crate) fn give_up(&mut self) {
        self.transcript = None;
    }

    /// A fresh process in the other tuning, the transcript replayed and acknowledged, and
    /// `check` sent (its reply to be polled); every exchange bounded by `limit`.
    pub(crate) fn start(
        &mut self,
        check: &str,
        limit: Option<Instant>,
    ) -> Result<SolverProcess, SolverError> {
        let Some(transcript) = &self.transcript else {
            return Err(SolverError::Crashed {
                detail: "no transcript to replay".to_string(),
            });
        };
        let mut process = SolverProcess::spawn(self.kind, &self.program, None, self.reply_wait)?;
        (self.register)(process.pid());
        let setup: Vec<String> = [
            "(set-option :print-success true)",
            "(set-option :produce-models true)",
        ]
        .into_iter()
        .chain(self.tunings[1].iter().copied())
        .chain(["(set-logic ALL)"])
        .map(str::to_string)
        .collect();
        process.send_many(&setup, limit)?;
        process.send_many(transcript, limit)?;
        let replies = process.receive_many(setup.len() + transcript.len(), limit)?;
        if let Some(bad) = replies.iter().find(|r| !r.is_atom("success")) {
            return Err(SolverError::BadReply {
                reply: bad.to_string(),
            });
        }
        process.send_for_poll(check, limit)?;
        Ok(process)
    }

    /// The rescue answered first and the session goes on with it: the next rescue uses
    /// the tuning the session started with.
    pub(crate) fn won(&mut self) {
        self.tunings.swap(0, 1);
    }
}
