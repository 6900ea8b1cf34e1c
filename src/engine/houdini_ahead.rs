//! Houdini's inference beside the search: when a core is idle as a run starts, the
//! summaries the search will ask for at its last bound are inferred on a thread of their
//! own, in a solver session of their own, while the search runs; the search takes them when
//! it first needs them ([`Runner::with_summaries_ahead`]) instead of inferring them then.
//! The summaries are the same (the same inference over the same program); only when they
//! are computed changes. Guarantees: the thread never outlives [`beside`] — when the search
//! ended without needing them, its solver is killed and the thread joined; an inference
//! that failed (or whose thread panicked) is as if none ran ahead: the search infers them
//! itself.
//!
//! [`Runner::with_summaries_ahead`]: crate::engine::search::driver::Runner::with_summaries_ahead

use crate::engine::resources::kill_child;
use crate::engine::search::driver::{SummariesAhead, infer_summaries};
use crate::engine::solvers::AheadStarter;
use crate::solver::SolverError;
use crate::vc::encode::Encoder;
use boogie_like::ir::Program as IrProgram;
use std::cell::RefCell;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// Runs `search`, handing it the summaries of `ir` inferred beside it, in a session from
/// `starter` (none without one: then `search` simply runs), until `deadline`.
pub fn beside<T>(
    ir: &IrProgram,
    starter: Option<AheadStarter>,
    deadline: Option<Instant>,
    search: impl FnOnce(Option<SummariesAhead<'_>>) -> T,
) -> T {
    let Some(starter) = starter else {
        return search(None);
    };
    // The inference's solver while it runs (emptied before its session is dropped, so
    // that the pid killed below is never one already reaped), or `Ended` once the search
    // has ended (then a solver that starts only after that is not used at all).
    let solver = Mutex::new(Solver::NotYet);
    let slot = || solver.lock().unwrap_or_else(PoisonError::into_inner);
    std::thread::scope(|scope| {
        let inference = scope.spawn(|| {
            let mut session = starter.start()?;
            {
                let mut slot = slot();
                if let Solver::Ended = *slot {
                    return Err(ended_abnormally());
                }
                *slot = Solver::Running(session.pid());
            }
            let summaries = infer_summaries(&mut Encoder::new(ir), &mut session, deadline);
            *slot() = Solver::NotYet;
            summaries
        });
        let inference = RefCell::new(Some(inference));
        let ahead: SummariesAhead<'_> = Box::new(|| match inference.borrow_mut().take() {
            Some(thread) => thread.join().unwrap_or_else(|_| Err(ended_abnormally())),
            None => Err(ended_abnormally()),
        });
        let result = search(Some(ahead));
        if let Solver::Running(pid) = std::mem::replace(&mut *slot(), Solver::Ended) {
            kill_child(pid);
        }
        if let Some(thread) = inference.borrow_mut().take() {
            drop(thread.join());
        }
        result
    })
}

/// Where the inference's solver stands.
enum Solver {
    /// Not started yet, or done with.
    NotYet,
    Running(u32),
    /// The search has ended: no solver is to run for it any more.
    Ended,
}

fn ended_abnormally() -> SolverError {
    SolverError::Interrupted {
        why: "Houdini's inference beside the search ended abnormally".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::beside;
    use crate::engine::options::Options;
    use crate::engine::search::driver::{Runner, StopReason, StopSignal, infer_summaries};
    use crate::engine::solvers::RunSolvers;
    use crate::solver::Session;

    /// A recursive procedure with a summary to find (`sum n >= 0`).
    const PROGRAM: &str = "procedure {:entrypoint} main(n: int) returns (r: int)
{
  call r := sum(n);
  assert r >= 0;
}

procedure sum(n: int) returns (r: int)
{
  var s: int;
  if (n <= 0) {
    r := 0;
  } else {
    call s := sum(n - 1);
    r := n + s;
  }
}
";

    fn solvers() -> RunSolvers {
        RunSolvers::new(&Options::default(), None, &StopSignal::default())
    }

    #[test]
    fn the_summaries_ahead_are_those_inferred_in_place() {
        let ir = boogie_like::parse(PROGRAM).expect("the test program parses");
        let solvers = solvers();
        let starter = solvers.ahead_starter().expect("no dialogue is recorded");
        let (ahead, _) =
            beside(&ir, Some(starter), None, |ahead| ahead.expect("started")()).expect("inferred");
        let mut session = Session::start(&solvers.config).expect("z3 starts");
        let encoder = &mut crate::vc::encode::Encoder::new(&ir);
        let (in_place, _) = infer_summaries(encoder, &mut session, None).expect("inferred");
        assert_eq!(ahead, in_place);
        assert!(ahead.iter().any(|summary| !summary.is_empty()), "{ahead:?}");
    }

    #[test]
    fn the_search_proves_with_the_summaries_ahead() {
        let ir = boogie_like::parse(PROGRAM).expect("the test program parses");
        let options = Options {
            max_depth: 3,
            ..Options::default()
        };
        let solvers = RunSolvers::new(&options, None, &StopSignal::default());
        let board = crate::engine::proofs::site_facts::FactBoard::restarting();
        let limits = crate::engine::search_limits(&options, None, StopSignal::default(), board);
        let session = solvers.start_search().expect("z3 starts");
        let starter = solvers.ahead_starter().expect("no dialogue is recorded");
        // Without a session factory of its own, this runner has summaries only from ahead.
        let report = beside(&ir, Some(starter), None, |ahead| {
            Runner::new(&ir, session, limits)
                .with_summaries_ahead(ahead)
                .run()
        });
        assert!(
            matches!(report.stop, StopReason::Verified),
            "{:?}",
            report.stop
        );
        let summaries = report.summaries.expect("the summaries were taken");
        assert!(summaries.iter().any(|summary| !summary.is_empty()));
    }

    #[test]
    fn an_inference_never_asked_for_ends_with_the_search() {
        let ir = boogie_like::parse(PROGRAM).expect("the test program parses");
        let solvers = solvers();
        let starter = solvers.ahead_starter().expect("no dialogue is recorded");
        beside(&ir, Some(starter), None, |_ahead| ());
        let pids = solvers.pids();
        let pids = pids.lock().expect("not poisoned");
        assert_eq!(pids.len(), 1, "one solver was started ahead: {pids:?}");
        let alive = std::path::Path::new(&format!("/proc/{}", pids[0])).exists();
        assert!(!alive, "the solver started ahead outlived the search");
    }
}
