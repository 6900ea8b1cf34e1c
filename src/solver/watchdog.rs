//! Bounding every exchange with a solver process: which bound applies ([`ExchangeBound`])
//! and the thread that kills the process when it passes ([`Watchdog`]).
//!
//! Guarantees: every exchange has a bound, with or without a run deadline — the earlier of
//! the run's limit (deadline plus grace) and the *reply wait* (how long one reply may take
//! to arrive in full, [`super::DEFAULT_REPLY_WAIT`] unless configured). When the bound
//! passes, the watchdog kills the child (whether we are blocked writing or reading), and
//! [`ExchangeBound::error`] names what passed: the deadline is [`SolverError::Timeout`],
//! the reply wait is [`SolverError::NoReply`] with the command and the part of the reply
//! that came. Any solver process (z3 for SMT, a Horn-clause solver, ...) can use it: it
//! needs only the child.

use super::error::SolverError;
use std::process::Child;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How much of a partial reply an error quotes.
const PARTIAL_QUOTE: usize = 200;

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What bounds one exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cause {
    /// The run's deadline (plus grace).
    Deadline,
    /// The reply wait, this long.
    ReplyWait(Duration),
}

/// The bound of one exchange: when it ends, and why then.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ExchangeBound {
    pub(crate) until: Instant,
    pub(crate) cause: Cause,
}

impl ExchangeBound {
    /// The bound of an exchange starting now: the run's `limit` (if any) or `reply_wait`
    /// from now, whichever comes first.
    pub(crate) fn starting_now(limit: Option<Instant>, reply_wait: Duration) -> ExchangeBound {
        // A reply wait too long to add (about 10^9 s and more) is the same as no reply
        // wait, but we keep a bound anyway: a year.
        let now = Instant::now();
        let waited = now
            .checked_add(reply_wait)
            .unwrap_or_else(|| now + Duration::from_secs(365 * 24 * 3600));
        match limit {
            Some(limit) if limit <= waited => ExchangeBound {
                until: limit,
                cause: Cause::Deadline,
            },
            _ => ExchangeBound {
                until: waited,
                cause: Cause::ReplyWait(reply_wait),
            },
        }
    }

    /// The error of an exchange this bound ended, after `command`, with `partial` the
    /// reply text that had come (possibly empty).
    pub(crate) fn error(&self, command: &str, partial: &str) -> SolverError {
        match self.cause {
            Cause::Deadline => SolverError::Timeout,
            Cause::ReplyWait(waited) => SolverError::NoReply {
                waited,
                command: command.to_string(),
                partial: quote_partial(partial),
            },
        }
    }
}

fn quote_partial(partial: &str) -> String {
    let partial = partial.trim();
    match partial.char_indices().nth(PARTIAL_QUOTE) {
        Some((cut, _)) => format!("{}...", &partial[..cut]),
        None => partial.to_string(),
    }
}

/// Kills the child when an armed bound passes.
pub(crate) struct Watchdog {
    shared: Arc<WatchShared>,
    thread: JoinHandle<()>,
}

#[derive(Default)]
struct WatchShared {
    state: Mutex<WatchState>,
    wake: Condvar,
}

#[derive(Default)]
struct WatchState {
    until: Option<Instant>,
    fired: bool,
    stop: bool,
}

impl Watchdog {
    pub(crate) fn start(child: Arc<Mutex<Child>>) -> std::io::Result<Watchdog> {
        let shared = Arc::new(WatchShared::default());
        let for_thread = shared.clone();
        let thread = thread::Builder::new()
            .name("solver-watchdog".into())
            .spawn(move || watch(&for_thread, &child))?;
        Ok(Watchdog { shared, thread })
    }

    pub(crate) fn arm(&self, until: Instant) {
        lock(&self.shared.state).until = Some(until);
        self.shared.wake.notify_all();
    }

    pub(crate) fn disarm(&self) {
        lock(&self.shared.state).until = None;
    }

    /// Whether the watchdog has killed the child.
    pub(crate) fn fired(&self) -> bool {
        lock(&self.shared.state).fired
    }

    pub(crate) fn stop(self) {
        lock(&self.shared.state).stop = true;
        self.shared.wake.notify_all();
        let _ = self.thread.join();
    }
}

/// The watchdog thread. Lock order: state, then child (nobody takes them the other way).
fn watch(shared: &WatchShared, child: &Mutex<Child>) {
    let mut state = lock(&shared.state);
    while !state.stop {
        let Some(until) = state.until else {
            state = shared
                .wake
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
            continue;
        };
        let now = Instant::now();
        if now >= until {
            let _ = lock(child).kill();
            state.fired = true;
            state.until = None;
            continue;
        }
        state = shared
            .wake
            .wait_timeout(state, until - now)
            .unwrap_or_else(PoisonError::into_inner)
            .0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_earlier_bound_applies_and_names_itself() {
        let wait = Duration::from_secs(300);
        let soon = Instant::now() + Duration::from_secs(1);
        let bound = ExchangeBound::starting_now(Some(soon), wait);
        assert_eq!((bound.until, bound.cause), (soon, Cause::Deadline));
        assert!(matches!(bound.error("c", ""), SolverError::Timeout));
        let late = Instant::now() + Duration::from_secs(1000);
        let bound = ExchangeBound::starting_now(Some(late), wait);
        assert_eq!(bound.cause, Cause::ReplyWait(wait));
        assert!(bound.until < late);
        let bound = ExchangeBound::starting_now(None, Duration::MAX);
        assert_eq!(bound.cause, Cause::ReplyWait(Duration::MAX));
    }

    #[test]
    fn a_passed_reply_wait_quotes_the_command_and_the_partial_reply() {
        let bound = ExchangeBound::starting_now(None, Duration::from_secs(2));
        let error = bound.error("(get-value (x))", "((x 1)\n");
        let message = error.to_string();
        assert!(message.contains("(get-value (x))"), "{message}");
        assert!(message.contains("`((x 1)`"), "{message}");
        assert!(message.contains("2 s"), "{message}");
    }
}
