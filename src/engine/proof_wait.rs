//! The wait for a proof after a search that found no bug (issue 30: a proof is a bonus that
//! must not cost time the user did not ask to spend): at most as long as `Options::proof_wait`
//! says, told to the progress line, cut short when the probe past the bound
//! (`search::beyond`) finds a failure (then no proof exists). Guarantees: a proof is taken
//! only from a task's re-checked answer; the search's own verdict (a bug, or VERIFIED from a
//! finite call tree) is never changed; a raised memory limit makes an undecided run UNKNOWN.

use crate::engine::options::{Options, Progress, ProgressObserver};
use crate::engine::proofs;
use crate::engine::proofs::deferred::PROVED_BY_CHC;
use crate::engine::search;
use crate::engine::search::driver::{Limits, RunReport, StopReason, StopSignal};
use crate::engine::verdict::UnknownReason;
use crate::solver::SolverConfig;
use boogie_like::ir::Program as IrProgram;
use std::time::{Duration, Instant};

/// What the wait settled.
pub struct Awaited {
    /// The search's stop, or `Verified` from a proof, or UNKNOWN on a raised limit.
    pub stop: StopReason,
    pub proof: Option<proofs::proof::Proof>,
    /// Why no proof came, when the proof engines ran and gave none.
    pub no_proof: Option<String>,
    /// How long the run waited, when it stopped waiting while proof engines were at work.
    pub wait_ended: Option<Duration>,
}

/// Waits for the first proof of `tasks` after the search of `report` (which started at
/// `started`), with the probe past the bound beside it. The time waited counts as solver
/// time in `config`'s clock.
pub fn await_proof(
    ir: &IrProgram,
    options: &Options,
    report: &RunReport,
    (mut tasks, not_tried): (Vec<proofs::chc::ChcTask>, bool),
    (config, limits): (&SolverConfig, &Limits),
    (started, until): (Instant, Instant),
) -> Awaited {
    let stop = &limits.stop;
    let searching = started.elapsed();
    // Waiting for Spacer is time spent in the solver: `solver_ms` counts it, so that the
    // share of time outside the solver stays true.
    let waiting = Instant::now();
    // While it waits, the progress line says so, with the time left.
    let tell_waiting = |left: Duration| {
        if let Some(ProgressObserver(tell)) = &options.progress {
            tell(Progress {
                bound: options.max_depth,
                inlined: report.inlined,
                open_sites: report.peak_open_sites,
                proof_wait_left: Some(left),
            });
        }
    };
    let (stop_reason, proof, failure_beyond) = std::thread::scope(|scope| {
        // A failure a little past the bound means no proof exists: look for one while
        // waiting (`beyond.rs`), only when there is a proof to wait for.
        let probe = match &report.stop {
            StopReason::SafeUpTo { .. } if !tasks.is_empty() && stop.raised().is_none() => {
                let probe_deadline = search::beyond::probe_budget(searching, until);
                search::beyond::start(scope, ir, config, limits, probe_deadline)
            }
            _ => None,
        };
        let (stop_reason, proof) = settle(
            report.stop.clone(),
            &mut tasks,
            stop,
            (until, &tell_waiting),
            probe.as_ref(),
        );
        (
            stop_reason,
            proof,
            probe.and_then(search::beyond::Probe::finish),
        )
    });
    let no_proof = match failure_beyond {
        Some(bound) if proof.is_none() => Some(format!(
            "the search finds a failure within depth {bound}, past the bound: no proof exists"
        )),
        _ => no_proof_reason(ir, &tasks),
    };
    // Proof engines still at work when the wait ended: a longer wait might have proved it.
    let wait_ended = (proof.is_none()
        && failure_beyond.is_none()
        && matches!(stop_reason, StopReason::SafeUpTo { .. })
        && tasks.iter().any(|task| task.answer().is_none()))
    .then(|| waiting.elapsed());
    let no_proof = match wait_ended {
        Some(waited) => Some(format!(
            "none came within the {:.2} s this run waited for one",
            waited.as_secs_f64()
        )),
        None => no_proof,
    };
    // Too short a wait to start Spacer in (its process, its re-check's): not looked for.
    let skipped = not_tried && matches!(stop_reason, StopReason::SafeUpTo { .. });
    let waits = until.saturating_duration_since(waiting);
    let wait_ended = wait_ended.or(skipped.then_some(waits));
    let no_proof = match skipped {
        true => Some(format!(
            "not looked for in the {:.2} s this run waits for one",
            waits.as_secs_f64()
        )),
        false => no_proof,
    };
    // Every engine still at work is told to stop before any is waited for: they end
    // together rather than one after the other.
    tasks.iter().for_each(proofs::chc::ChcTask::stop_soon);
    drop(tasks);
    config.clock.add(waiting.elapsed());
    Awaited {
        stop: stop_reason,
        proof,
        no_proof,
        wait_ended,
    }
}

/// The final answer from the search's and the Horn-clause engine's. A bug (to be
/// confirmed by replay) and a verification by the search stand; otherwise a re-checked
/// proof, waited for until its budget ends, makes the program verified; a raised memory
/// limit is UNKNOWN (resource).
fn settle(
    searched: StopReason,
    tasks: &mut [proofs::chc::ChcTask],
    stop: &StopSignal,
    (until, waiting): (Instant, &dyn Fn(Duration)),
    probe: Option<&search::beyond::Probe>,
) -> (StopReason, Option<proofs::proof::Proof>) {
    if matches!(searched, StopReason::Bug { .. } | StopReason::Verified) {
        return (searched, None);
    }
    let out_of_memory = stop.raised().filter(|why| *why != PROVED_BY_CHC);
    if !tasks.is_empty() && out_of_memory.is_none() {
        let hopeless = || probe.is_some_and(|p| p.failure_within().is_some());
        if let Some(proof) = first_proof(tasks, (until, waiting), hopeless) {
            return (StopReason::Verified, Some(proof));
        }
        for task in tasks.iter().filter(|task| task.answer().is_none()) {
            let why = "no proof within the time this run waits for one";
            proofs::chc::remember_no_proof(task.key, why);
        }
    }
    match (searched, stop.raised()) {
        (StopReason::Unknown { .. }, Some(why)) if why != PROVED_BY_CHC => (
            StopReason::Unknown {
                reason: UnknownReason::Resource(why.to_string()),
            },
            None,
        ),
        (other, _) => (other, None),
    }
}

/// Until when a run that ended its search (after `searching`) without a bug waits for a
/// proof: as `Options::proof_wait` says, never past the run's deadline.
pub fn proof_wait_until(
    deadline: Option<Instant>,
    searching: Duration,
    options: &Options,
) -> Instant {
    let until = Instant::now() + options.proof_wait.after(searching, options.chc_budget);
    deadline.map_or(until, |d| d.min(until))
}

/// How often the progress line is told the time left while a run waits for a proof.
const WAIT_TICK: Duration = Duration::from_millis(100);

/// The first proof any task finds by `until`; `None` once every task has answered
/// without one, or at `until`. `waiting` is told the time left, every [`WAIT_TICK`].
fn first_proof(
    tasks: &[proofs::chc::ChcTask],
    (until, waiting): (Instant, &dyn Fn(Duration)),
    hopeless: impl Fn() -> bool,
) -> Option<proofs::proof::Proof> {
    let mut told: Option<Instant> = None;
    loop {
        if told.is_none_or(|at| at.elapsed() >= WAIT_TICK) {
            waiting(until.saturating_duration_since(Instant::now()));
            told = Some(Instant::now());
        }
        let mut open = false;
        for task in tasks {
            match task.wait_until(Instant::now()) {
                Some(proofs::chc::ChcAnswer::Proved(proof)) => return Some(proof.clone()),
                Some(_) => {}
                None => open |= !task.is_finished(),
            }
        }
        if !open || Instant::now() >= until || hopeless() {
            return None;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Why the Horn-clause engine gave no proof, once, in the program's terms ([`proofs::no_proof`]).
fn no_proof_reason(ir: &IrProgram, tasks: &[proofs::chc::ChcTask]) -> Option<String> {
    let answers: Vec<&proofs::chc::ChcAnswer> = tasks
        .iter()
        .filter_map(proofs::chc::ChcTask::answer)
        .collect();
    proofs::no_proof::why_no_proof(ir, &answers)
}
