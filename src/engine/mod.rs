//! The verification engine: one call from a checked program (or an IR file) to a verdict.
//!
//! [`verify_horef`] reads as the pipeline: lower, start the solver, run the
//! stratified-inlining driver, replay any bug concretely.

pub mod backend;
pub mod driver;
pub mod entry_split;
pub mod groups;
pub mod houdini;
pub mod report;
pub mod tree_size;
pub mod verdict;
pub mod witness;

use crate::frontend::Checked;
use crate::solver::{Session, SolverClock, SolverConfig, SolverError, SolverKind};
use boogie_like::ir::Program as IrProgram;
use driver::{InliningPolicy, Limits, Mode, RunReport, Runner, StopReason};
use indicatif::{ProgressBar, ProgressDrawTarget};
use std::path::PathBuf;
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
    /// Show a progress line on stderr (only drawn when stderr is a terminal).
    pub progress: bool,
    /// Infer procedure summaries (Houdini) for the call sites left open (SI mode).
    pub summaries: bool,
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
            progress: false,
            summaries: true,
        }
    }
}

/// A verdict with its statistics.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    pub stats: Stats,
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
    let session = match Session::start(&config) {
        Ok(session) => session,
        Err(e) => return solver_failure(e, options, started, &config.clock),
    };
    let limits = Limits {
        max_depth: options.max_depth,
        first_bound: 1,
        final_bound: true,
        mode: options.mode,
        deadline,
        policy: options.policy,
        summaries: options.summaries,
    };
    let progress = progress_line(options.progress);
    // Houdini's own session; its dialogue goes to `<dump>.houdini` when dumping.
    let houdini_config = SolverConfig {
        dump: options.dump_smt.as_ref().map(|path| {
            let mut name = path.clone().into_os_string();
            name.push(".houdini");
            name.into()
        }),
        ..config.clone()
    };
    let observer = |iteration: &driver::Iteration, inlined: usize| {
        progress.set_message(format!(
            "depth bound {}, {inlined} instances inlined, {} open call sites",
            iteration.bound, iteration.open_sites
        ));
    };
    // Unrolling stays the plain bound-K translation (the baseline), and with K = 0 there is
    // nothing below the entry to split.
    let split = match options.mode {
        Mode::Si if options.max_depth > 0 => entry_split::entry_groups(ir),
        _ => None,
    };
    let report = match &split {
        None => Runner::new(ir, session, limits)
            .with_houdini_sessions(|| Session::start(&houdini_config))
            .with_observer(observer)
            .run(),
        Some(split) => {
            let mut session = session;
            groups::run(
                split,
                &mut session,
                &limits,
                || Session::start(&houdini_config),
                observer,
            )
        }
    };
    progress.finish_and_clear();
    let verdict = to_verdict(report.stop.clone(), options.max_depth);
    Outcome {
        verdict,
        stats: stats(&report, started, &config.clock),
    }
}

/// A spinner with a message on stderr when it is a terminal and `enabled`; hidden otherwise.
fn progress_line(enabled: bool) -> ProgressBar {
    if !enabled {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
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
        stats: Stats {
            time_ms: started.elapsed().as_millis() as u64,
            solver_ms: clock.total().as_millis() as u64,
            solver_calls: 0,
            inlined: 0,
            open_sites: 0,
            mode: format!("{:?}", options.mode).to_lowercase(),
            iterations: 0,
        },
    }
}
