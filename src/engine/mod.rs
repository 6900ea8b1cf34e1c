//! The verification engine: one call from a checked program (or an IR program) to an
//! [`Outcome`].
//!
//! [`verify_horef`] and [`verify_ir`] lower (HORef) and hand the IR to `run`, which reads as
//! its steps: the run's solvers, a proof remembered from before, the bounded search
//! (`search`), the wait for a proof found beside it (`proof_wait`, `proofs`), the verdict
//! (a bug confirmed by concrete replay in `confirm`), and `--check-proof`'s re-check.
//! Sub-folders are private; the public API is this file's items, [`verdict`], and the few
//! re-exported types that options and outcomes name.

mod confirm;
mod cores;
mod houdini_ahead;
mod options;
mod proof_wait;
mod proofs;
mod resources;
mod search;
mod solvers;
pub(crate) mod trace;
pub mod verdict;

/// Decides a quantifier on a concrete run's values (the replay's oracle; tests run the
/// interpreter with it).
pub use confirm::quantifiers::SolverQuantifiers;
pub use options::{
    DEFAULT_CHC_BUDGET, Options, PARTIAL_DELAY, Progress, ProgressObserver, ProofWait, Proofs,
};
pub use proofs::case_proofs::{CaseSource, CaseSystem, ProofCase};
pub use proofs::chc::CONFIGURATIONS as CHC_CONFIGURATIONS;
pub use proofs::deferred::{REFINEMENT_CONFIGURATION, proof_program, specialised_program};
pub use proofs::proof::Proof;
pub use proofs::proof_cache::{identity as tool_identity, write_atomically};
pub use resources::default_limit_mib as default_memory_limit_mib;
pub use search::call_bounds::CallBounds;
pub use search::cegar::{Refinement, Start as AbstractionStart};
pub use search::driver::{InliningPolicy, Mode, StopSignal};

use crate::core_lang::Checked;
use crate::solver::{SolverClock, SolverError, SolverKind};
use boogie_like::ir::Program as IrProgram;
use boogie_like::ir::reachable::only_reachable;
use proofs::deferred::DeferredChc;
use proofs::site_facts::FactBoard;
use search::driver::{Iteration, Limits, RunReport, Runner, StopReason};
use solvers::RunSolvers;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use verdict::{Stats, UnknownReason, Verdict};

/// A verdict with its statistics.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    pub stats: Stats,
    /// What a `Verified` verdict rests on, when a proof engine can show it.
    pub proof: Option<Proof>,
    /// Why the Horn-clause engine gave no proof, when it ran and gave none.
    pub no_proof: Option<String>,
    /// Set when the run stopped waiting for a proof while proof engines were still at
    /// work: how long it waited (a longer `proof_wait` might have given a proof).
    pub wait_ended: Option<Duration>,
    /// How a `Verified` verdict was re-checked in a fresh solver (`--check-proof`).
    pub rechecked: Option<String>,
}

/// Verifies a HORef program.
pub fn verify_horef(checked: &Checked, options: &Options) -> Outcome {
    let started = Instant::now();
    let lowered = crate::lower::lower(checked);
    // What the entry cannot reach never runs: it is not encoded, searched or proved.
    let ir = only_reachable(&lowered.ir).unwrap_or(lowered.ir);
    run(&ir, options, started, |stop, depth| match stop {
        StopReason::Bug {
            inputs,
            fresh,
            failure,
            ..
        } => confirm::witness::confirm_horef(checked, (&inputs, &fresh), failure, depth),
        other => plain_verdict(other, options.bounds),
    })
}

/// Verifies an IR program (a `.bpl` file).
pub fn verify_ir(ir: &IrProgram, options: &Options) -> Outcome {
    let started = Instant::now();
    let pruned = only_reachable(ir);
    let ir = pruned.as_ref().unwrap_or(ir);
    let outcome = verify_ir_once(ir, options, started);
    by_loop_invariants(ir, options, started, outcome)
}

fn verify_ir_once(ir: &IrProgram, options: &Options, started: Instant) -> Outcome {
    run(ir, options, started, |stop, depth| match stop {
        StopReason::Bug {
            inputs,
            havocs,
            failure,
            ..
        } => confirm::witness::confirm_ir(ir, (&inputs, &havocs), failure, depth),
        other => plain_verdict(other, options.bounds),
    })
}

/// A SAFE UP TO answer made VERIFIED by the program's loop invariants, when the program
/// with its loops cut (each cut call checking one iteration in its context) is VERIFIED
/// ([`proofs::loop_cut`]); any other answer as it is.
fn by_loop_invariants(
    ir: &IrProgram,
    options: &Options,
    started: Instant,
    outcome: Outcome,
) -> Outcome {
    // `--mode unroll` stays the plain baseline, and `--proofs none` means no proof.
    let proofs_on = options.mode == Mode::Si && (options.chc || options.summaries);
    if !proofs_on || !matches!(outcome.verdict, Verdict::SafeUpTo { .. }) {
        return outcome;
    }
    let Some((cut, loops)) = proofs::loop_cut::cut(ir) else {
        return outcome;
    };
    let timeout = match options.timeout {
        Some(t) if t <= started.elapsed() => return outcome,
        Some(t) => Some(t - started.elapsed()),
        None => None,
    };
    let sub = Options {
        timeout,
        dump_smt: None,
        progress: None,
        extra_chc: Vec::new(),
        proof_cases: None,
        proof_cache: None,
        ..options.clone()
    };
    let cut = only_reachable(&cut).unwrap_or(cut);
    if verify_ir_once(&cut, &sub, Instant::now()).verdict != Verdict::Verified {
        return outcome;
    }
    let summaries = loops
        .into_iter()
        .map(|procedure| proofs::proof::Summary {
            procedure,
            inputs: Vec::new(),
            outputs: Vec::new(),
            formula: "its loop invariants hold at every iteration".to_string(),
            smt: String::new(),
        })
        .collect();
    Outcome {
        verdict: Verdict::Verified,
        proof: Some(Proof {
            engine: "loop invariants".to_string(),
            summaries,
        }),
        no_proof: None,
        wait_ended: None,
        ..outcome
    }
}

fn run(
    ir: &IrProgram,
    options: &Options,
    started: Instant,
    to_verdict: impl FnOnce(StopReason, u32) -> Verdict,
) -> Outcome {
    trace::trace!("run: the search starts (max depth {})", options.max_depth);
    let deadline = options.timeout.map(|t| started + t);
    let stop = options.stop.clone().unwrap_or_default();
    let solvers = RunSolvers::new(options, deadline, &stop);
    let board = FactBoard::restarting();
    let chc = DeferredChc::new(ir, options, started, (&stop, &board, &solvers.pids()));
    if let Some(proof) = chc.as_ref().and_then(DeferredChc::remembered_proof) {
        return proved_before(proof, options, started);
    }
    let limits = search_limits(options, deadline, stop, board);
    let chc = Mutex::new(chc);
    let searched = std::thread::scope(|scope| {
        let (search_over, over) = std::sync::mpsc::channel::<()>();
        let chc = &chc;
        scope.spawn(move || tick_beside_the_search(ir, chc, started, over));
        let searched = search(ir, options, (&solvers, &limits));
        drop(search_over);
        searched
    });
    let report = match searched {
        Ok(report) => report,
        Err(e) => return solver_failure(e, options, started, &solvers.config.clock),
    };
    let until = proof_wait::proof_wait_until(deadline, started.elapsed(), options);
    trace::trace!(
        "run: the search ended ({}); a proof is awaited for {:.3} s",
        match &report.stop {
            StopReason::Verified => "verified",
            StopReason::Bug { .. } => "a bug",
            StopReason::SafeUpTo { .. } => "safe up to the bound",
            StopReason::Unknown { .. } => "unknown",
        },
        until
            .saturating_duration_since(Instant::now())
            .as_secs_f64()
    );
    let tasks = (chc.into_inner())
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .map(|chc| chc.search_ended(&report.stop, until))
        .unwrap_or_default();
    let mut awaited = proof_wait::await_proof(
        ir,
        options,
        &report,
        tasks,
        (&solvers.config, &limits),
        (started, until),
    );
    if matches!(report.stop, StopReason::Verified) {
        awaited.proof = proof_of_search(ir, &report);
    }
    let verdict = to_verdict(awaited.stop, options.max_depth);
    trace::trace!("run: the answer is {}", verdict.key());
    let by_search = matches!(report.stop, StopReason::Verified);
    let (verdict, proof, rechecked) =
        check_proof(verdict, awaited.proof, by_search, &solvers, options);
    Outcome {
        verdict,
        stats: stats(&report, started, &solvers.config.clock),
        proof,
        no_proof: awaited.no_proof,
        wait_ended: awaited.wait_ended,
        rechecked,
    }
}

/// What the search is allowed: the user's depth and bounds, the run's deadline and stop
/// signal, and the board on which partial proofs publish facts.
fn search_limits(
    options: &Options,
    deadline: Option<Instant>,
    stop: StopSignal,
    facts: FactBoard,
) -> Limits {
    Limits {
        max_depth: options.max_depth,
        first_bound: 1,
        final_bound: true,
        mode: options.mode,
        deadline,
        policy: options.policy,
        summaries: options.summaries,
        stop,
        bounds: options.bounds,
        facts,
    }
}

/// How often the proof engines are told the time while the search runs
/// ([`tick_beside_the_search`]).
const TICK: Duration = Duration::from_millis(20);

/// Tells the proof engines the time every [`TICK`] until the search is over (`over`
/// disconnected), so that Spacer joins the search at its delay and the partial proofs at
/// theirs however long one of the search's queries takes: told between the search's
/// rounds only, a first query that z3 never answers (`lcg_walk`, a walk driven by a
/// linear congruence, under our `smt.case_split 5`) left the run without a proof engine.
fn tick_beside_the_search(
    ir: &IrProgram,
    chc: &Mutex<Option<DeferredChc>>,
    started: Instant,
    over: std::sync::mpsc::Receiver<()>,
) {
    while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = over.recv_timeout(TICK) {
        let mut chc = chc
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(chc) = chc.as_mut() {
            chc.tick(ir, started);
        }
    }
}

/// How often a run's search starts again with the facts of new partial proofs.
const MAX_RESTARTS: usize = 2;

/// The bounded search: the stratified-inlining driver over the whole entry, or group by
/// group when the entry dispatches to many sub-programs. It starts again (at most
/// [`MAX_RESTARTS`] times) when partial proofs brought facts for procedures it had
/// inlined, so that their trees are never built.
fn search(
    ir: &IrProgram,
    options: &Options,
    (solvers, limits): (&RunSolvers, &Limits),
) -> Result<RunReport, SolverError> {
    let mut start_houdini = || solvers.start_houdini();
    let mut observer = |iteration: &Iteration, inlined: usize| {
        if let Some(ProgressObserver(tell)) = &options.progress {
            tell(Progress {
                bound: iteration.bound,
                inlined,
                open_sites: iteration.open_sites,
                proof_wait_left: None,
            });
        }
    };
    // Unrolling stays the plain bound-K translation (the baseline), and with K = 0 there is
    // nothing below the entry to split.
    let split = match options.mode {
        Mode::Si if options.max_depth > 0 => search::entry_split::entry_groups(ir),
        _ => None,
    };
    let tracked = match options.abstraction {
        Some(start) if options.mode == Mode::Si && split.is_none() => {
            search::cegar::start(ir, start)
        }
        _ => None,
    };
    // Houdini infers its summaries beside the search only on a core nobody else uses
    // (counted before the search's own solver starts), for the first whole-entry search.
    let whole_entry = split.is_none() && tracked.is_none();
    let houdini = options.summaries && options.mode == Mode::Si;
    let mut ahead = if whole_entry && houdini && cores::idle_cores() > 0 {
        solvers.ahead_starter()
    } else {
        None
    };
    let mut restarts = 0;
    loop {
        let mut session = solvers.start_search()?;
        let report = match (&split, &tracked) {
            (None, Some(tracked)) => search::cegar::run(
                ir,
                (tracked.clone(), options.refinement),
                &mut session,
                limits,
                &mut start_houdini,
                &mut observer,
            ),
            (None, None) => houdini_ahead::beside(ir, ahead.take(), limits.deadline, |a| {
                Runner::new(ir, session, limits.clone())
                    .with_houdini_sessions(&mut start_houdini)
                    .with_observer(&mut observer)
                    .with_summaries_ahead(a)
                    .run()
            }),
            (Some(split), _) => search::groups::run(
                split,
                &mut session,
                limits,
                &mut start_houdini,
                &mut observer,
            ),
        };
        let restart = matches!(&report.stop, StopReason::Unknown {
            reason: UnknownReason::Interrupted(why),
        } if why == search::driver::RESTART_WITH_FACTS);
        if !restart {
            return Ok(report);
        }
        restarts += 1;
        if restarts >= MAX_RESTARTS {
            limits.facts.stop_restarting();
        }
    }
}

/// The proof behind a VERIFIED of the search itself (a finite call tree): Houdini's
/// summaries and the partial proofs it assumed, when there are any to show.
fn proof_of_search(ir: &IrProgram, report: &RunReport) -> Option<Proof> {
    let houdini = report.summaries.as_ref();
    let houdini = houdini.and_then(|summaries| Proof::from_houdini(ir, summaries));
    let partial: Vec<&Proof> = report.facts.iter().map(|f| &f.shown).collect();
    Proof::of_search(houdini, &partial)
}

/// `--check-proof`: a VERIFIED (of the search when `by_search`) re-checked in a fresh
/// solver; one whose proof does not stand becomes UNKNOWN. Other verdicts pass unchanged.
fn check_proof(
    verdict: Verdict,
    proof: Option<Proof>,
    by_search: bool,
    solvers: &RunSolvers,
    options: &Options,
) -> (Verdict, Option<Proof>, Option<String>) {
    if !options.check_proof || verdict != Verdict::Verified {
        return (verdict, proof, None);
    }
    let rechecking = Instant::now();
    let rechecked = recheck_proof(by_search, &solvers.dialogues(), options);
    // Re-checking is time spent in the solver.
    solvers.config.clock.add(rechecking.elapsed());
    match rechecked {
        Ok(how) => (verdict, proof, Some(how)),
        Err(why) => {
            let reason = UnknownReason::SolverError(format!(
                "the proof did not survive its re-check: {why}"
            ));
            (Verdict::Unknown { reason }, None, None)
        }
    }
}

/// How a Spacer proof is re-checked (always, `--check-proof` or not).
const SPACER_RECHECK: &str =
    "re-checked: each Horn clause holds under the summaries, in a fresh z3";

/// `--check-proof`: how a VERIFIED was re-checked, or why it does not stand.
fn recheck_proof(
    by_search: bool,
    dialogues: &proofs::proof_check::Dialogues,
    options: &Options,
) -> Result<String, String> {
    if !by_search {
        // Spacer's models, whole or case by case, are re-checked clause by clause in a
        // fresh z3 before they become a proof (`proofs::chc::recheck`).
        return Ok(SPACER_RECHECK.into());
    }
    if dialogues.paths.is_empty() {
        return Err("the solver dialogues could not be recorded (no temporary directory)".into());
    }
    let keep_options = options.solver == SolverKind::Z3;
    proofs::proof_check::recheck(dialogues, keep_options, options.memory_limit_mib)
        .map(|checked| checked.describe())
}

fn plain_verdict(stop: StopReason, bounds: CallBounds) -> Verdict {
    match stop {
        StopReason::Verified => Verdict::Verified,
        StopReason::SafeUpTo { depth } => Verdict::SafeUpTo { depth, bounds },
        StopReason::Unknown { reason } => Verdict::Unknown { reason },
        StopReason::Bug { .. } => unreachable!("internal error: bugs are confirmed by the caller"),
    }
}

fn stats(report: &RunReport, started: Instant, clock: &SolverClock) -> Stats {
    Stats {
        time_ms: started.elapsed().as_millis() as u64,
        solver_ms: clock.total().as_millis() as u64,
        solver_calls: report.solver_calls,
        inlined: report.inlined,
        open_sites: report.peak_open_sites,
        mode: report.mode_used.name().to_string(),
        iterations: report.iterations.len(),
        abstraction: report.abstraction.clone(),
    }
}

/// VERIFIED from a proof this process found for the same program before.
fn proved_before(proof: Proof, options: &Options, started: Instant) -> Outcome {
    Outcome {
        verdict: Verdict::Verified,
        stats: no_search_stats(options, started, &SolverClock::default()),
        proof: Some(proof),
        no_proof: None,
        wait_ended: None,
        rechecked: options.check_proof.then(|| SPACER_RECHECK.to_string()),
    }
}

/// The statistics of a run that searched nothing.
fn no_search_stats(options: &Options, started: Instant, clock: &SolverClock) -> Stats {
    Stats::without_search(started.elapsed(), clock.total(), options.mode.name())
}

fn solver_failure(
    e: SolverError,
    options: &Options,
    started: Instant,
    clock: &SolverClock,
) -> Outcome {
    let reason = match e {
        SolverError::Timeout => UnknownReason::Timeout,
        other => UnknownReason::SolverError(other.to_string()),
    };
    Outcome {
        verdict: Verdict::Unknown { reason },
        stats: no_search_stats(options, started, clock),
        proof: None,
        no_proof: None,
        wait_ended: None,
        rechecked: None,
    }
}
