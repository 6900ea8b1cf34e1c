//! The solver session (docs/engine.md): one SMT solver process (z3 or cvc5) per run,
//! driven over SMT-LIB 2 on its stdin and used incrementally — declarations and instances
//! are asserted once, queries are `check-sat-assuming` over literals.
//!
//! This module is the only one that touches easy-smt. It uses easy-smt's [`Context`] (without
//! a solver) as the term store: [`SExpr`] is a cheap hash-consed handle, and the store frees
//! nothing until its [`Session`] is dropped. The process, the dialogue and the replies are
//! ours, because easy-smt's solver wrapper hides the child process (no pid to kill, no exit
//! status), lets the solver's stderr through, skips reply lines it cannot parse (which
//! desynchronises the dialogue), and panics in `get_value` on an `(error ...)` reply.
//!
//! Guarantees:
//! - **No verdict from a broken solver.** Every failure is a typed [`SolverError`]: not
//!   found (with how to install it), crashed (with exit status, last command, end of
//!   stderr), timeout, bad reply, rejected command, I/O. No solver behaviour makes us panic.
//! - **The deadline holds.** Before each check the solver is told the time left (z3
//!   `:timeout`, cvc5 `:tlimit-per`); a watchdog thread kills it when an exchange overruns
//!   the deadline by [`DEADLINE_GRACE`]. A check past the deadline is always
//!   `Err(SolverError::Timeout)`, never `Ok(SatResult::Unknown)`.
//! - **No exchange waits forever**, deadline or not: a reply that has not arrived in full
//!   within the reply wait ([`SolverConfig::reply_wait`], [`DEFAULT_REPLY_WAIT`]) — a hung
//!   solver, or one that stopped mid-reply — gets the solver killed and is
//!   [`SolverError::NoReply`], quoting the command and what came.
//! - **No zombies, no orphans.** Dropping a [`Session`] (also on error or unwinding) kills
//!   and reaps the solver. (If our process itself is killed, the solver sees its stdin close
//!   and exits once it is idle.)
//! - **Dead is dead.** After a crash, a watchdog kill or an unreadable/unexpected reply, the
//!   solver is killed and every later call fails at once without I/O.
//! - **Replayable dump.** With `--dump-smt FILE`, FILE (overwritten) receives every command
//!   before it is sent and every reply as a `;` comment, flushed each time, so `z3 FILE`
//!   replays the dialogue even if we stopped on an error. Nothing else is written anywhere.
//! - **Model values are read, not guessed**: integers of any size and sign, booleans,
//!   constructors of declared datatypes ([`ModelValue`]); anything else is `BadReply`.

pub mod children;
mod clock;
mod config;
mod error;
mod locate;
mod model;
mod process;
mod reply;
mod rescue;
mod script;
mod session;
mod terms;
mod version;
mod watchdog;

pub use clock::SolverClock;
pub use config::{DEFAULT_REPLY_WAIT, SolverConfig, SolverKind};
pub use easy_smt::{Context, SExpr};
pub use error::SolverError;
pub use locate::{Installed, installed};
pub use model::ModelValue;
pub(crate) use reply::Sx;
#[cfg(test)]
pub(crate) use reply::parse as parse_sx;
pub(crate) use reply::parse as parse_reply;
pub use rescue::Register as RescueRegister;
pub use script::lower_priority;
pub(crate) use script::{ScriptOutcome, run_to_end};
pub use session::{BatchCommand, DEADLINE_GRACE, SatResult, Session, SolverStats};
pub use terms::{
    CtorDecl, DatatypeDecl, DeclKind, FieldDecl, Sort, declaration_commands, elem_function,
    symbol_text,
};
pub use version::version;
