//! The verification engine: one call from a checked program (or an IR file) to a verdict.
//!
//! [`verify_horef`] reads as the pipeline: lower, start the solver, run the
//! stratified-inlining driver, replay any bug concretely.

pub mod backend;
pub mod chc;
pub mod driver;
pub mod entry_split;
pub mod formula;
pub mod groups;
pub mod houdini;
pub mod proof;
pub mod report;
pub mod resources;
pub mod tree_size;
pub mod verdict;
pub mod witness;

use crate::frontend::Checked;
use crate::solver::{Session, SolverClock, SolverConfig, SolverError, SolverKind};
use crate::vc::horn::HornSystem;
use boogie_like::ir::Program as IrProgram;
use driver::{InliningPolicy, Limits, Mode, RunReport, Runner, StopReason, StopSignal};
use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use verdict::{Stats, UnknownReason, Verdict};

/// What the user asked for.
#[derive(Clone, Debug)]
pub struct Options {
    pub max_depth: u32,
    pub mode: Mode,
    pub timeout: Option<Duration>,
    /// How long one solver reply may take (`--solver-wait`); past it the run is UNKNOWN.
    pub solver_wait: Duration,
    pub solver: SolverKind,
    pub dump_smt: Option<PathBuf>,
    pub policy: InliningPolicy,
    /// Told after every round of the driver, for a progress line (the CLI draws one).
    pub progress: Option<ProgressObserver>,
    /// Infer procedure summaries (Houdini) for the call sites left open (SI mode).
    pub summaries: bool,
    /// Try a proof from the program's Horn clauses (z3's Spacer), beside the search (SI
    /// mode).
    pub chc: bool,
    /// How long Spacer may take, from the start of the run (capped by `timeout`).
    pub chc_budget: Duration,
    /// How long a search that ended without a bug waits for Spacer's proof: at least
    /// this, and at most as long again as the search took (always within the budget).
    /// `None`: until the budget ends.
    pub chc_wait: Option<Duration>,
    /// Past this much resident memory (this process and its solvers) the run ends as
    /// UNKNOWN (resource); `None`: no limit.
    pub memory_limit_mib: Option<u64>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_depth: 10,
            mode: Mode::Si,
            timeout: None,
            solver_wait: crate::solver::DEFAULT_REPLY_WAIT,
            solver: SolverKind::Z3,
            dump_smt: None,
            policy: InliningPolicy::default(),
            progress: None,
            summaries: true,
            chc: true,
            chc_budget: DEFAULT_CHC_BUDGET,
            chc_wait: None,
            memory_limit_mib: Some(resources::default_limit_mib()),
        }
    }
}

/// Which proof engines may show a program safe at every depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Proofs {
    /// Houdini's template summaries only.
    Houdini,
    /// Horn clauses solved by z3's Spacer only.
    Chc,
    /// Both (the default).
    Both,
    /// Neither: VERIFIED only where the call tree is finite.
    None,
}

impl Proofs {
    pub fn houdini(self) -> bool {
        matches!(self, Proofs::Houdini | Proofs::Both)
    }

    pub fn chc(self) -> bool {
        matches!(self, Proofs::Chc | Proofs::Both)
    }
}

/// How long a suite's run waits for a proof after its search (see `Options::chc_wait`).
pub const SUITE_CHC_WAIT: Duration = Duration::from_secs(2);

/// How long Spacer may take by default.
pub const DEFAULT_CHC_BUDGET: Duration = Duration::from_secs(20);

/// Where the driver stands after a round: what a progress line shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The current depth bound of the iterative deepening (up to `max_depth`).
    pub bound: u32,
    /// Procedure instances inlined so far.
    pub inlined: usize,
    /// Call sites left open after the round.
    pub open_sites: usize,
}

/// A callback told the [`Progress`] after every round; shared by the threads of a suite.
#[derive(Clone)]
pub struct ProgressObserver(pub Arc<dyn Fn(Progress) + Send + Sync>);

impl std::fmt::Debug for ProgressObserver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressObserver")
    }
}

/// A verdict with its statistics.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    pub stats: Stats,
    /// What a `Verified` verdict rests on, when a proof engine can show it.
    pub proof: Option<proof::Proof>,
    /// Why the Horn-clause engine gave no proof, when it ran and gave none.
    pub no_proof: Option<String>,
}

/// Verifies a HORef program.
pub fn verify_horef(checked: &Checked, options: &Options) -> Outcome {
    let started = Instant::now();
    let lowered = crate::lower::lower(checked);
    run(&lowered.ir, options, started, |stop, depth| match stop {
        StopReason::Bug {
            inputs, failure, ..
        } => witness::confirm_horef(checked, &inputs, failure, depth),
        other => plain_verdict(other),
    })
}

/// Verifies an IR program (a `.bpl` file).
pub fn verify_ir(ir: &IrProgram, options: &Options) -> Outcome {
    let started = Instant::now();
    run(ir, options, started, |stop, depth| match stop {
        StopReason::Bug {
            inputs, failure, ..
        } => witness::confirm_ir(ir, &inputs, failure, depth),
        other => plain_verdict(other),
    })
}

fn run(
    ir: &IrProgram,
    options: &Options,
    started: Instant,
    to_verdict: impl FnOnce(StopReason, u32) -> Verdict,
) -> Outcome {
    let deadline = options.timeout.map(|t| started + t);
    let config = SolverConfig {
        kind: options.solver,
        deadline,
        reply_wait: options.solver_wait,
        dump: options.dump_smt.clone(),
        clock: SolverClock::default(),
    };
    let stop = StopSignal::default();
    let memory = options
        .memory_limit_mib
        .map(|limit| resources::MemoryWatch::start(limit, stop.clone()));
    let solver_pids = memory.as_ref().map(|m| m.solvers());
    let register = |pid: u32| {
        if let Some(pids) = &solver_pids
            && let Ok(mut pids) = pids.lock()
        {
            pids.push(pid);
        }
    };
    let chc = RefCell::new(DeferredChc::new(ir, options, started, &stop));
    if let Some(proof) = chc
        .borrow()
        .as_ref()
        .and_then(DeferredChc::remembered_proof)
    {
        return proved_before(proof, options, started);
    }
    let session = match Session::start(&config) {
        Ok(session) => session,
        Err(e) => return solver_failure(e, options, started, &config.clock),
    };
    register(session.pid());
    let limits = Limits {
        max_depth: options.max_depth,
        first_bound: 1,
        final_bound: true,
        mode: options.mode,
        deadline,
        policy: options.policy,
        summaries: options.summaries,
        stop: stop.clone(),
    };
    // Houdini's own session; its dialogue goes to `<dump>.houdini` when dumping.
    let houdini_config = SolverConfig {
        dump: options.dump_smt.as_ref().map(|path| {
            let mut name = path.clone().into_os_string();
            name.push(".houdini");
            name.into()
        }),
        ..config.clone()
    };
    let start_houdini = || {
        let session = Session::start(&houdini_config)?;
        register(session.pid());
        Ok(session)
    };
    let observer = |iteration: &driver::Iteration, inlined: usize| {
        if let Some(chc) = chc.borrow_mut().as_mut() {
            chc.tick(started);
        }
        if let Some(ProgressObserver(tell)) = &options.progress {
            tell(Progress {
                bound: iteration.bound,
                inlined,
                open_sites: iteration.open_sites,
            });
        }
    };
    // Unrolling stays the plain bound-K translation (the baseline), and with K = 0 there is
    // nothing below the entry to split.
    let split = match options.mode {
        Mode::Si if options.max_depth > 0 => entry_split::entry_groups(ir),
        _ => None,
    };
    let report = match &split {
        None => Runner::new(ir, session, limits)
            .with_houdini_sessions(start_houdini)
            .with_observer(observer)
            .run(),
        Some(split) => {
            let mut session = session;
            groups::run(split, &mut session, &limits, start_houdini, observer)
        }
    };
    let mut chc = chc.into_inner();
    if !matches!(report.stop, StopReason::Bug { .. } | StopReason::Verified)
        && let Some(chc) = chc.as_mut()
    {
        chc.start_now();
    }
    let mut task = chc.and_then(|c| c.task);
    let searching = started.elapsed();
    let (stop_reason, mut proof) = settle(
        report.stop.clone(),
        task.as_mut(),
        &stop,
        deadline,
        (searching, options.chc_wait),
    );
    if matches!(report.stop, StopReason::Verified)
        && let Some(summaries) = &report.summaries
    {
        proof = proof::Proof::from_houdini(ir, summaries);
    }
    let no_proof = match task.as_ref().and_then(|task| task.answer()) {
        Some(chc::ChcAnswer::NoProof(why)) => Some(why.clone()),
        Some(chc::ChcAnswer::Refuted) => Some("the Horn clauses have a counterexample".into()),
        _ => None,
    };
    drop(task);
    let verdict = to_verdict(stop_reason, options.max_depth);
    Outcome {
        verdict,
        stats: stats(&report, started, &config.clock),
        proof,
        no_proof,
    }
}

/// The Horn-clause engine of a run: it starts once the search has run for
/// [`CHC_DELAY`] (a bug found at once needs no proof, and a small run should not share
/// its cores with Spacer), or when the search has ended without a bug.
struct DeferredChc {
    pending: Option<(HornSystem, chc::ChcLimits)>,
    task: Option<chc::ChcTask>,
    stop: StopSignal,
}

/// How long the search runs alone before Spacer joins it.
const CHC_DELAY: Duration = Duration::from_millis(150);

impl DeferredChc {
    /// `None` unless the run may use it (SI mode, z3, asked for) and the entry may fail.
    fn new(ir: &IrProgram, options: &Options, started: Instant, stop: &StopSignal) -> Option<Self> {
        if !options.chc || options.mode != Mode::Si || options.solver != SolverKind::Z3 {
            return None;
        }
        let budget = match options.timeout {
            Some(timeout) => options.chc_budget.min(timeout),
            None => options.chc_budget,
        };
        let limits = chc::ChcLimits {
            deadline: started + budget,
            budget,
            memory_mib: options.memory_limit_mib,
        };
        Some(DeferredChc {
            pending: Some((chc::system_of(ir)?, limits)),
            task: None,
            stop: stop.clone(),
        })
    }

    /// A proof this process already found for the same clauses.
    fn remembered_proof(&self) -> Option<proof::Proof> {
        let (system, limits) = self.pending.as_ref()?;
        match chc::remembered_answer(system, *limits)? {
            chc::ChcAnswer::Proved(proof) => Some(proof),
            _ => None,
        }
    }

    /// Starts Spacer if the search has run for long enough.
    fn tick(&mut self, started: Instant) {
        if started.elapsed() >= CHC_DELAY {
            self.start_now();
        }
    }

    fn start_now(&mut self) {
        let Some((system, limits)) = self.pending.take() else {
            return;
        };
        let stop = self.stop.clone();
        self.task = Some(chc::ChcTask::start(system, limits, move |answer| {
            if matches!(answer, chc::ChcAnswer::Proved(_)) {
                stop.raise(PROVED_BY_CHC);
            }
        }));
    }
}

/// Why the search stops when the Horn-clause engine proved the program.
const PROVED_BY_CHC: &str = "the Horn clauses were proved";

/// The final answer from the search's and the Horn-clause engine's. A bug (to be
/// confirmed by replay) and a verification by the search stand; otherwise a re-checked
/// proof, waited for until its budget ends, makes the program verified; a raised memory
/// limit is UNKNOWN (resource).
fn settle(
    searched: StopReason,
    chc: Option<&mut chc::ChcTask>,
    stop: &StopSignal,
    deadline: Option<Instant>,
    (searching, chc_wait): (Duration, Option<Duration>),
) -> (StopReason, Option<proof::Proof>) {
    if matches!(searched, StopReason::Bug { .. } | StopReason::Verified) {
        return (searched, None);
    }
    let out_of_memory = stop.raised().filter(|why| *why != PROVED_BY_CHC);
    if let Some(task) = chc
        && out_of_memory.is_none()
    {
        // Waiting costs time the search did not: with `chc_wait`, at most as long again
        // as the search took and at least `chc_wait`; otherwise until the budget ends.
        let until = match chc_wait {
            Some(wait) => Instant::now() + wait.max(2 * searching),
            None => Instant::now() + DEFAULT_CHC_BUDGET.max(searching),
        };
        let until = deadline.map_or(until, |d| d.min(until));
        match task.wait_until(until) {
            Some(chc::ChcAnswer::Proved(proof)) => {
                return (StopReason::Verified, Some(proof.clone()));
            }
            Some(_) => {}
            None => {
                let why = "no proof within the time this run waits for one";
                chc::remember_no_proof(task.key, why);
            }
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

fn plain_verdict(stop: StopReason) -> Verdict {
    match stop {
        StopReason::Verified => Verdict::Verified,
        StopReason::SafeUpTo { depth } => Verdict::SafeUpTo { depth },
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
        mode: match report.mode_used {
            Mode::Si => "si".to_string(),
            Mode::Unroll => "unroll".to_string(),
        },
        iterations: report.iterations.len(),
    }
}

/// VERIFIED from a proof this process found for the same program before.
fn proved_before(proof: proof::Proof, options: &Options, started: Instant) -> Outcome {
    Outcome {
        verdict: Verdict::Verified,
        stats: no_search_stats(options, started, &SolverClock::default()),
        proof: Some(proof),
        no_proof: None,
    }
}

/// The statistics of a run that searched nothing.
fn no_search_stats(options: &Options, started: Instant, clock: &SolverClock) -> Stats {
    Stats {
        time_ms: started.elapsed().as_millis() as u64,
        solver_ms: clock.total().as_millis() as u64,
        solver_calls: 0,
        inlined: 0,
        open_sites: 0,
        mode: format!("{:?}", options.mode).to_lowercase(),
        iterations: 0,
    }
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
    }
}
