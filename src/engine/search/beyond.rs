//! A search past the user's bound while a run waits for a proof.
//!
//! When the search ends "no failure within K" and the Horn-clause engine has not answered
//! yet, the run waits for a proof. A program that fails a little deeper than K has none,
//! and Spacer may take long to say so (it must find the counterexample itself). Meanwhile
//! this probe runs the same stratified-inlining search at the bounds K + 1 ..= K +
//! [`EXTRA_DEPTH`], in a solver session of its own, for about as long again as the search
//! took ([`probe_budget`]). A failure it finds ends the wait at once.
//!
//! Guarantee: the probe never changes a verdict. Its only effect is to stop waiting for a
//! proof that cannot exist (its failure is the search's model, not replayed: it is reported
//! as the reason no proof came, never as a bug). It stops when asked ([`Probe::finish`]:
//! its solver process is killed), at its deadline, or when its search ends.

use crate::engine::search::driver::{Limits, Runner, StopReason, StopSignal};
use crate::solver::{Session, SolverClock, SolverConfig};
use boogie_like::ir::Program as IrProgram;
use std::sync::{Arc, OnceLock};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::{Duration, Instant};

/// How far past the user's bound the probe looks.
pub const EXTRA_DEPTH: u32 = 2;

/// A probe running on a scoped thread.
pub struct Probe<'scope> {
    handle: ScopedJoinHandle<'scope, ()>,
    stop: StopSignal,
    /// Its solver process, killed when the probe is no longer wanted mid-query.
    solver_pid: u32,
    failed_within: Arc<OnceLock<u32>>,
}

impl Probe<'_> {
    /// The bound within which the probe found a failure, once it has.
    pub fn failure_within(&self) -> Option<u32> {
        self.failed_within.get().copied()
    }

    /// Whether its search has ended (with or without a failure).
    #[cfg(test)]
    pub fn has_ended(&self) -> bool {
        self.handle.is_finished()
    }

    /// Stops the probe and waits for its thread; the bound of its failure, if it found one.
    pub fn finish(self) -> Option<u32> {
        self.stop.raise("the wait for a proof ended");
        if !self.handle.is_finished() {
            // The runner looks at its stop signal between rounds; a query under way ends
            // with its solver (the runner then stops with a solver error, unseen).
            crate::engine::resources::kill_child(self.solver_pid);
        }
        let _ = self.handle.join();
        self.failed_within.get().copied()
    }
}

/// How long the probe may run: as long again as the search took (a deeper search of a
/// small program is cheap; of a large one it would compete with Spacer for the cores), at
/// least [`MIN_BUDGET`], and never past `until`.
pub fn probe_budget(searching: Duration, until: Instant) -> Instant {
    let wanted = Instant::now() + searching.max(MIN_BUDGET);
    wanted.min(until)
}

/// The least time a probe gets (a process start and a few queries).
const MIN_BUDGET: Duration = Duration::from_millis(150);

/// Starts the probe past `searched` (the limits of the search that ended without a
/// failure within `searched.max_depth`), with a session like `config`'s, stopping at
/// `deadline`. `None` if its solver does not start.
pub fn start<'scope, 'env>(
    scope: &'scope Scope<'scope, 'env>,
    ir: &'env IrProgram,
    config: &SolverConfig,
    searched: &Limits,
    deadline: Instant,
) -> Option<Probe<'scope>> {
    let config = SolverConfig {
        deadline: Some(deadline),
        // Its dialogue is no part of the run's proof: never recorded.
        dump: None,
        // It runs while the run waits for a proof, a wait already counted as solver time.
        clock: SolverClock::default(),
        ..config.clone()
    };
    let session = Session::start(&config).ok()?;
    let solver_pid = session.pid();
    let stop = StopSignal::default();
    let limits = Limits {
        max_depth: searched.max_depth + EXTRA_DEPTH,
        first_bound: searched.max_depth + 1,
        final_bound: false,
        deadline: Some(deadline),
        summaries: false,
        stop: stop.clone(),
        ..searched.clone()
    };
    let failed_within = Arc::new(OnceLock::new());
    let found = failed_within.clone();
    let handle = scope.spawn(move || {
        let report = Runner::new(ir, session, limits).run();
        if let StopReason::Bug { bound, .. } = report.stop {
            let _ = found.set(bound);
        }
    });
    Some(Probe {
        handle,
        stop,
        solver_pid,
        failed_within,
    })
}

#[cfg(test)]
mod tests {
    //! The probe on its own: a failure just past the bound is found, a safe program gives
    //! it nothing. Needs `z3` on PATH.
    use super::*;
    use crate::engine::search::call_bounds::CallBounds;
    use crate::engine::search::driver::{InliningPolicy, Mode};

    /// `g` runs at depth 2 and fails for `a = 5`: safe within depth 1, a failure within 2.
    const FAILS_AT_DEPTH_2: &str = "procedure g(n: int) { assert n != 5; }\n\
        procedure f(n: int) { call g(n); }\n\
        procedure {:entrypoint} Main(a: int) { call f(a); }\n";

    /// The same calls, never failing.
    const SAFE: &str = "procedure g(n: int) { assert n == n; }\n\
        procedure f(n: int) { call g(n); }\n\
        procedure {:entrypoint} Main(a: int) { call f(a); }\n";

    fn probe(text: &str, searched_depth: u32) -> Option<u32> {
        let ir = boogie_like::parse(text).expect("the test program parses");
        let limits = Limits {
            max_depth: searched_depth,
            first_bound: 1,
            final_bound: true,
            mode: Mode::Si,
            deadline: None,
            policy: InliningPolicy::default(),
            summaries: true,
            stop: StopSignal::default(),
            bounds: CallBounds::default(),
            facts: Default::default(),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        std::thread::scope(|scope| {
            let probe = start(scope, &ir, &SolverConfig::default(), &limits, deadline)
                .expect("the probe's solver starts");
            // Wait for its search to end on its own (these are tiny).
            let waited = Instant::now();
            while !probe.has_ended() && waited.elapsed() < Duration::from_secs(20) {
                std::thread::sleep(Duration::from_millis(5));
            }
            probe.finish()
        })
    }

    #[test]
    fn a_failure_just_past_the_bound_is_found() {
        assert_eq!(probe(FAILS_AT_DEPTH_2, 1), Some(2));
        // From K = 0, depth 2 is two past the bound: still in reach.
        assert_eq!(probe(FAILS_AT_DEPTH_2, 0), Some(2));
    }

    #[test]
    fn a_safe_program_gives_the_probe_nothing() {
        assert_eq!(probe(SAFE, 1), None);
    }
}
