//! The typed errors of a solver session. None of them is a verdict: the driver turns each
//! into `UNKNOWN` with the error as the reason (docs/engine.md).

use super::SolverKind;

/// Everything that can go wrong while talking to the solver.
#[derive(Debug, thiserror::Error)]
pub enum SolverError {
    /// The solver program could not be found.
    #[error("solver `{program}` not found: {hint}")]
    NotFound {
        kind: SolverKind,
        program: String,
        hint: &'static str,
    },
    /// The solver process died or closed its pipes; `detail` says what we know
    /// (exit status or signal, the last command, the end of its stderr).
    #[error("the solver process ended unexpectedly: {detail}")]
    Crashed { detail: String },
    /// The run's deadline passed (before or during a check).
    #[error("the solver ran out of time (deadline reached)")]
    Timeout,
    /// No complete reply came within the reply wait (`--solver-wait`): the solver hung,
    /// or stopped in the middle of a reply. It was killed.
    #[error(
        "the solver sent no complete reply within {} to `{command}`{}; it was stopped \
         (the wait per reply is set by --solver-wait)",
        seconds(*.waited),
        so_far(.partial)
    )]
    NoReply {
        waited: std::time::Duration,
        command: String,
        /// The part of the reply that came (trimmed, possibly empty).
        partial: String,
    },
    /// The solver said something we cannot read, or not what the command calls for.
    #[error("unexpected reply from the solver: {reply}")]
    BadReply { reply: String },
    /// The solver answered a command with `(error "...")`. This means we sent something
    /// it does not accept (an ill-sorted term, an unknown name): a bug on our side.
    #[error("the solver rejected `{command}`: {message}")]
    Rejected { command: String, message: String },
    /// The run was asked to stop from outside (another engine answered, a resource limit
    /// was reached); `why` says which.
    #[error("stopped: {why}")]
    Interrupted { why: String },
    /// An I/O error outside the solver pipes (starting the process, the dump file).
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
}

fn seconds(d: std::time::Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

fn so_far(partial: &str) -> String {
    if partial.is_empty() {
        " (nothing came)".to_string()
    } else {
        format!(" (what came: `{partial}`)")
    }
}

impl SolverError {
    pub(crate) fn io(context: impl Into<String>, source: std::io::Error) -> SolverError {
        SolverError::Io {
            context: context.into(),
            source,
        }
    }
}
