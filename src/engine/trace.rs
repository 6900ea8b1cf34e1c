//! A timeline of the run's proof work on standard error, for the engineer tuning it: set
//! `HOREF_TRACE=1` and every event (Spacer joining, a lane starting and answering, the
//! search ending, the wait's end, a case proved) is one line `[trace +0.153 s] what`,
//! the time counted from the first
//! event (a run's start). Off by default; reading the
//! variable once, it costs a branch per event. Guarantee: tracing never changes what a
//! run does or answers (it only writes to standard error, and ignores write errors).

use std::sync::OnceLock;
use std::time::Instant;

/// Whether `HOREF_TRACE` is set (to anything but empty or `0`), and the instant tracing
/// counts from.
fn state() -> &'static Option<Instant> {
    static STATE: OnceLock<Option<Instant>> = OnceLock::new();
    STATE.get_or_init(|| {
        let on = std::env::var_os("HOREF_TRACE").is_some_and(|v| !v.is_empty() && v != "0");
        on.then(Instant::now)
    })
}

/// Whether events are written (callers may skip building an expensive message).
pub fn enabled() -> bool {
    state().is_some()
}

/// Writes one event, if tracing is on.
pub fn event(what: std::fmt::Arguments<'_>) {
    if let Some(start) = state() {
        use std::io::Write;
        let seconds = start.elapsed().as_secs_f64();
        let _ = writeln!(std::io::stderr(), "[trace +{seconds:.3} s] {what}");
    }
}

/// `trace!("lane {index} started")`: an [`event`] with `format!`'s syntax.
macro_rules! trace {
    ($($arg:tt)*) => {
        $crate::engine::trace::event(format_args!($($arg)*))
    };
}
pub(crate) use trace;
