//! The verification engine: one call from a checked program (or an IR file) to a verdict.
//!
//! [`verify_horef`] reads as the pipeline: lower, start the solver, run the
//! stratified-inlining driver, replay any bug concretely.

pub mod confirm;
pub mod proofs;
pub mod resources;
pub mod search;
pub mod verdict;

use crate::core_lang::Checked;
use crate::solver::{Session, SolverClock, SolverConfig, SolverError, SolverKind};
use crate::vc::horn::HornSystem;
use boogie_like::ir::Program as IrProgram;
use search::driver::{InliningPolicy, Limits, Mode, RunReport, Runner, StopReason, StopSignal};
use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use verdict::{Stats, UnknownReason, Verdict};

/// What the user asked for.
#[derive(Clone, Debug)]
pub struct Options {
    pub max_depth: u32,
    /// CORRAL's bounds beside the depth (`--recursion-bound`, `--stack-depth-bound`).
    pub bounds: search::call_bounds::CallBounds,
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
    /// How long a search that ended without a bug waits for a proof ([`ProofWait`];
    /// always within the budget and the run's timeout).
    pub proof_wait: ProofWait,
    /// Past this much resident memory (this process and its solvers) the run ends as
    /// UNKNOWN (resource); `None`: no limit.
    pub memory_limit_mib: Option<u64>,
    /// Further Horn systems of the same program (the front end's refinement-type
    /// clauses, `crate::verifier::refine`), each tried with [`REFINEMENT_CONFIGURATION`] beside
    /// the IR's clauses when `chc` is on; a re-checked model of any of them is a proof.
    pub extra_chc: Vec<Arc<HornSystem>>,
    /// The entry cut into cases by the front end, each with the systems that may prove
    /// it ([`case_proofs`]). When present, the Horn-clause engine proves the program case
    /// by case instead of trying the whole program's systems.
    pub proof_cases: Option<Arc<proofs::case_proofs::CaseSource>>,
    /// A signal from outside the run: once raised, the run stops as UNKNOWN (a run
    /// nested in a case proof is stopped this way once the case is proved otherwise).
    pub stop: Option<search::driver::StopSignal>,
    /// Re-check a VERIFIED of the search (and Houdini's summaries) in a fresh solver
    /// before it is reported ([`proof_check`]); Spacer's proofs are re-checked always.
    pub check_proof: bool,
    /// How long the search runs before procedures are proved on their own for it
    /// ([`partial_proofs`]; tests set it to zero to exercise them on small programs).
    pub partial_delay: Duration,
    /// Run every solver process at the lowest CPU priority: this run is a proof engine's
    /// background work beside another run's search (a case of [`case_proofs`]).
    pub background: bool,
    /// Keep proof certificates in this directory and reuse them, re-checked, in later
    /// runs ([`proof_cache`]; `--cache DIR`).
    pub proof_cache: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_depth: 10,
            bounds: search::call_bounds::CallBounds::default(),
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
            proof_wait: ProofWait::default(),
            memory_limit_mib: Some(resources::default_limit_mib()),
            extra_chc: Vec::new(),
            proof_cases: None,
            stop: None,
            check_proof: false,
            partial_delay: PARTIAL_DELAY,
            background: false,
            proof_cache: None,
        }
    }
}

/// Which proof engines may show a program safe at every depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// How long a run whose search ended without a bug waits for a proof (issue 30): the
/// bounded question is what was asked, a proof is a bonus that must not cost the user
/// noticeable time they did not ask to spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofWait {
    /// `factor` times as long as the search itself took, and at least `at_least` — counted
    /// from the run's start if `from_start` (then never longer than `max(at_least, factor
    /// × the search)`), else from the end of the search.
    LikeSearch {
        at_least: Duration,
        factor: u32,
        from_start: bool,
    },
    /// Exactly this long (`verify --proof-wait S`).
    Fixed(Duration),
    /// Until the proof budget ends (`verify --proof-wait budget`).
    Budget,
}

impl ProofWait {
    /// The default wait: as long as the search took, and until at least 0.25 s after the
    /// start (at most `max(0.25 s, the search's own time)`).
    pub const SHORT: ProofWait = ProofWait::LikeSearch {
        at_least: Duration::from_millis(250),
        factor: 1,
        from_start: true,
    };

    /// How long a suite's run waits: `max(2 s, twice the search's time)` (each program's
    /// answer is then remembered for its other bounds, so a suite waits once per program).
    pub const SUITE: ProofWait = ProofWait::LikeSearch {
        at_least: Duration::from_secs(2),
        factor: 2,
        from_start: false,
    };

    /// How long to wait after a search that took `searching`, given the proof budget.
    pub fn after(self, searching: Duration, budget: Duration) -> Duration {
        match self {
            ProofWait::LikeSearch {
                at_least,
                factor,
                from_start,
            } => {
                let at_least = match from_start {
                    true => at_least.saturating_sub(searching),
                    false => at_least,
                };
                (searching * factor).max(at_least)
            }
            ProofWait::Fixed(wait) => wait,
            ProofWait::Budget => budget.max(searching),
        }
    }
}

impl Default for ProofWait {
    fn default() -> ProofWait {
        ProofWait::SHORT
    }
}

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
    /// Set once the search has ended without a bug and the run waits for a proof: the
    /// time left of that wait.
    pub proof_wait_left: Option<Duration>,
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
    pub proof: Option<proofs::proof::Proof>,
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
    run(&lowered.ir, options, started, |stop, depth| match stop {
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

fn run(
    ir: &IrProgram,
    options: &Options,
    started: Instant,
    to_verdict: impl FnOnce(StopReason, u32) -> Verdict,
) -> Outcome {
    let deadline = options.timeout.map(|t| started + t);
    // `--check-proof` needs the dialogues: the user's dump files, or temporary ones.
    let recording = match (options.check_proof, &options.dump_smt) {
        (true, None) => tempfile::tempdir().ok(),
        _ => None,
    };
    let _removed_on_signals = recording
        .as_ref()
        .map(|dir| crate::solver::children::track(dir.path()));
    let dump = options.dump_smt.clone().or_else(|| {
        recording
            .as_ref()
            .map(|dir| dir.path().join("dialogue.smt2"))
    });
    let config = SolverConfig {
        kind: options.solver,
        deadline,
        reply_wait: options.solver_wait,
        dump: dump.clone(),
        clock: SolverClock::default(),
    };
    let stop = options.stop.clone().unwrap_or_default();
    let memory = options
        .memory_limit_mib
        .map(|limit| resources::MemoryWatch::start(limit, stop.clone()));
    let solver_pids = memory.as_ref().map(|m| m.solvers());
    let register = |pid: u32| {
        if options.background {
            crate::solver::lower_priority(pid);
        }
        if let Some(pids) = &solver_pids
            && let Ok(mut pids) = pids.lock()
        {
            pids.push(pid);
        }
    };
    let board = proofs::site_facts::FactBoard::restarting();
    let chc = RefCell::new(DeferredChc::new(ir, options, started, (&stop, &board)));
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
        bounds: options.bounds,
        facts: board.clone(),
    };
    // Houdini's sessions; their dialogues go to `<dump>.houdini`, `<dump>.houdini.2`, ...
    // when dumping.
    let houdini_dumps: RefCell<Vec<PathBuf>> = RefCell::new(Vec::new());
    let start_houdini = || {
        let houdini_config = SolverConfig {
            dump: dump.as_ref().map(|path| {
                let mut name = path.clone().into_os_string();
                name.push(".houdini");
                let count = houdini_dumps.borrow().len();
                if count > 0 {
                    name.push(format!(".{}", count + 1));
                }
                let name: PathBuf = name.into();
                houdini_dumps.borrow_mut().push(name.clone());
                name
            }),
            ..config.clone()
        };
        let session = Session::start(&houdini_config)?;
        register(session.pid());
        Ok(session)
    };
    let observer = |iteration: &search::driver::Iteration, inlined: usize| {
        if let Some(chc) = chc.borrow_mut().as_mut() {
            chc.tick(ir, started);
        }
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
    let (mut start_houdini, mut observer) = (start_houdini, observer);
    let mut session = session;
    let mut restarts = 0;
    let report = loop {
        let report = match &split {
            None => Runner::new(ir, session, limits.clone())
                .with_houdini_sessions(&mut start_houdini)
                .with_observer(&mut observer)
                .run(),
            Some(split) => {
                let mut session = session;
                search::groups::run(
                    split,
                    &mut session,
                    &limits,
                    &mut start_houdini,
                    &mut observer,
                )
            }
        };
        // Facts of a partial proof arrived for procedures the search had inlined: it
        // starts again with them assumed from the start, so their trees are never built.
        let restart = matches!(&report.stop, StopReason::Unknown {
            reason: UnknownReason::Interrupted(why),
        } if why == search::driver::RESTART_WITH_FACTS);
        if !restart {
            break report;
        }
        restarts += 1;
        if restarts >= MAX_RESTARTS {
            board.stop_restarting();
        }
        session = match Session::start(&config) {
            Ok(session) => session,
            Err(e) => return solver_failure(e, options, started, &config.clock),
        };
        register(session.pid());
    };
    let mut chc = chc.into_inner();
    if let Some(chc) = chc.as_mut() {
        // The search is over: partial proofs have nothing left to prune.
        chc.partial = PartialPlan::Ended;
        if !matches!(report.stop, StopReason::Bug { .. } | StopReason::Verified) {
            chc.start_now();
        }
    }
    let mut tasks = chc.map(|c| c.tasks).unwrap_or_default();
    let searching = started.elapsed();
    // Waiting for Spacer (and, below, re-checking a proof) is time spent in the solver:
    // `solver_ms` counts it, so that the share of time outside the solver stays true.
    let waiting = Instant::now();
    let until = proof_wait_until(deadline, searching, options);
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
    let (stop_reason, mut proof, failure_beyond) = std::thread::scope(|scope| {
        // A failure a little past the bound means no proof exists: look for one while
        // waiting (`beyond.rs`), only when there is a proof to wait for.
        let probe = match &report.stop {
            StopReason::SafeUpTo { .. } if !tasks.is_empty() && stop.raised().is_none() => {
                let probe_deadline = search::beyond::probe_budget(searching, until);
                search::beyond::start(scope, ir, &config, &limits, probe_deadline)
            }
            _ => None,
        };
        let (stop_reason, proof) = settle(
            report.stop.clone(),
            &mut tasks,
            &stop,
            (until, &tell_waiting),
            probe.as_ref(),
        );
        (
            stop_reason,
            proof,
            probe.and_then(search::beyond::Probe::finish),
        )
    });
    if matches!(report.stop, StopReason::Verified) {
        let houdini = report.summaries.as_ref();
        let houdini =
            houdini.and_then(|summaries| proofs::proof::Proof::from_houdini(ir, summaries));
        let partial: Vec<&proofs::proof::Proof> = report.facts.iter().map(|f| &f.shown).collect();
        proof = proofs::proof::Proof::of_search(houdini, &partial);
    }
    let no_proof = match failure_beyond {
        Some(bound) if proof.is_none() => Some(format!(
            "the search finds a failure within depth {bound}, past the bound: no proof exists"
        )),
        _ => no_proof_reason(&tasks),
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
    drop(tasks);
    config.clock.add(waiting.elapsed());
    let mut verdict = to_verdict(stop_reason, options.max_depth);
    let mut rechecked = None;
    if options.check_proof && verdict == Verdict::Verified {
        let by_search = matches!(report.stop, StopReason::Verified);
        let dialogues = proofs::proof_check::Dialogues {
            paths: dump.iter().cloned().chain(houdini_dumps.take()).collect(),
        };
        let rechecking = Instant::now();
        let rechecked_proof = recheck_proof(by_search, &dialogues, options);
        config.clock.add(rechecking.elapsed());
        match rechecked_proof {
            Ok(how) => rechecked = Some(how),
            Err(why) => {
                verdict = Verdict::Unknown {
                    reason: UnknownReason::SolverError(format!(
                        "the proof did not survive its re-check: {why}"
                    )),
                };
                proof = None;
            }
        }
    }
    drop(recording);
    Outcome {
        verdict,
        stats: stats(&report, started, &config.clock),
        proof,
        no_proof,
        wait_ended,
        rechecked,
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

/// The Horn-clause engine of a run: it starts once the search has run for
/// [`CHC_DELAY`] (a bug found at once needs no proof, and a small run should not share
/// its cores with Spacer), or when the search has ended without a bug. It tries the IR's
/// clauses and every system of `Options::extra_chc`, each in a task of its own.
struct DeferredChc {
    pending: Vec<Attempt>,
    tasks: Vec<proofs::chc::ChcTask>,
    stop: StopSignal,
    /// The procedures proved on their own for the search ([`partial_proofs`]).
    partial: PartialPlan,
    board: proofs::site_facts::FactBoard,
}

/// Where the partial proofs of a run stand.
enum PartialPlan {
    /// To start once the search has run for the delay ([`Options::partial_delay`]).
    Waiting(proofs::chc::ChcLimits, Duration),
    /// Running; held so that they run, dropping them kills their solvers.
    Started(
        #[expect(dead_code, reason = "held, never read")] Vec<proofs::partial_proofs::PartialTask>,
    ),
    /// Not tried, or no longer of use.
    Ended,
}

/// What to try: one Horn system in the given Spacer configurations, or the entry's
/// cases.
enum Attempt {
    Whole {
        system: HornSystem,
        configurations: &'static [&'static str],
        limits: proofs::chc::ChcLimits,
    },
    Cases {
        source: Arc<proofs::case_proofs::CaseSource>,
        limits: proofs::chc::ChcLimits,
    },
}

impl Attempt {
    /// A proof this process already found for the same attempt, or a certificate of the
    /// proof cache that passes its re-check.
    fn remembered_proof(&self) -> Option<proofs::proof::Proof> {
        use proofs::chc;
        let answer = match self {
            Attempt::Whole {
                system,
                configurations,
                limits,
            } => match chc::remembered_answer(system, *limits) {
                Some(answer) => answer,
                None => {
                    let never = std::sync::atomic::AtomicBool::new(false);
                    match chc::cached(system, configurations, *limits, &never).flatten()? {
                        chc::Solved::Model(model) => {
                            chc::ChcAnswer::Proved(chc::proof(system, &model))
                        }
                        _ => return None,
                    }
                }
            },
            Attempt::Cases { source, limits } => {
                proofs::chc::remembered(proofs::case_proofs::key(source, *limits))?
            }
        };
        match answer {
            proofs::chc::ChcAnswer::Proved(proof) => Some(proof),
            _ => None,
        }
    }

    fn start(
        self,
        on_answer: impl FnOnce(&proofs::chc::ChcAnswer) + Send + 'static,
    ) -> proofs::chc::ChcTask {
        match self {
            Attempt::Whole {
                system,
                configurations,
                limits,
            } => proofs::chc::ChcTask::start_with(system, configurations, limits, on_answer),
            Attempt::Cases { source, limits } => {
                proofs::case_proofs::start(source, limits, on_answer)
            }
        }
    }
}

/// How the systems of `Options::extra_chc` are solved: Spacer with global guidance.
/// Measured on the refinement clauses (20 s each): it solves `array`, `a-init`, which
/// the default configuration does not within 20 s, and everything the default solves.
pub const REFINEMENT_CONFIGURATION: &[&str] = &["(set-option :fp.spacer.global true)"];

/// How often a run's search starts again with the facts of new partial proofs.
const MAX_RESTARTS: usize = 2;

/// How long the search runs alone before Spacer joins it.
const CHC_DELAY: Duration = Duration::from_millis(150);

/// How long the search runs before procedures are proved on their own
/// ([`partial_proofs`]), by default: a search that ends sooner needs no pruning, and the
/// whole program's proof has had its head start.
pub const PARTIAL_DELAY: Duration = Duration::from_millis(500);

impl DeferredChc {
    /// `None` unless the run may use it (SI mode, z3, asked for) and the entry may fail.
    fn new(
        ir: &IrProgram,
        options: &Options,
        started: Instant,
        (stop, board): (&StopSignal, &proofs::site_facts::FactBoard),
    ) -> Option<Self> {
        if !options.chc || options.mode != Mode::Si || options.solver != SolverKind::Z3 {
            return None;
        }
        let budget = match &options.proof_cases {
            Some(_) => options.chc_budget * proofs::case_proofs::BUDGET_FACTOR,
            None => options.chc_budget,
        };
        let budget = match options.timeout {
            Some(timeout) => budget.min(timeout),
            None => budget,
        };
        let limits = proofs::chc::ChcLimits {
            deadline: started + budget,
            budget,
            memory_mib: options.memory_limit_mib,
            cache: options
                .proof_cache
                .as_deref()
                .map(proofs::proof_cache::intern),
            // Beside the whole program's search, Spacer is background work. A program
            // proved case by case (the generated ones) is one whose search at a large K
            // is hopeless and whose proof is the answer: its cases keep normal priority.
            background: options.proof_cases.is_none(),
        };
        let attempt = |system, configurations| Attempt::Whole {
            system,
            configurations,
            limits,
        };
        let pending: Vec<Attempt> = match &options.proof_cases {
            Some(source) => vec![Attempt::Cases {
                source: source.clone(),
                limits,
            }],
            None => {
                let mut pending: Vec<Attempt> = proofs::chc::system_of(ir)
                    .map(|system| attempt(system, proofs::chc::CONFIGURATIONS))
                    .into_iter()
                    .collect();
                let extra = options.extra_chc.iter().filter(|s| s.has_goal());
                pending.extend(extra.map(|s| attempt((**s).clone(), REFINEMENT_CONFIGURATION)));
                pending
            }
        };
        if pending.is_empty() {
            return None;
        }
        let partial = match &options.proof_cases {
            // Cases are proved one by one already; the roots would be the cases again.
            Some(_) => PartialPlan::Ended,
            None => PartialPlan::Waiting(limits, options.partial_delay),
        };
        Some(DeferredChc {
            pending,
            tasks: Vec::new(),
            stop: stop.clone(),
            partial,
            board: board.clone(),
        })
    }

    /// A proof this process already found for the same clauses.
    fn remembered_proof(&self) -> Option<proofs::proof::Proof> {
        self.pending.iter().find_map(Attempt::remembered_proof)
    }

    /// Starts Spacer if the search has run for long enough, and the partial proofs if it
    /// has run longer.
    fn tick(&mut self, ir: &IrProgram, started: Instant) {
        if started.elapsed() >= CHC_DELAY {
            self.start_now();
        }
        if let PartialPlan::Waiting(limits, delay) = &self.partial
            && started.elapsed() >= *delay
        {
            let tasks = proofs::partial_proofs::start(ir, *limits, &self.board);
            self.partial = PartialPlan::Started(tasks);
        }
    }

    fn start_now(&mut self) {
        for attempt in std::mem::take(&mut self.pending) {
            let stop = self.stop.clone();
            let on_answer = move |answer: &proofs::chc::ChcAnswer| {
                if matches!(answer, proofs::chc::ChcAnswer::Proved(_)) {
                    stop.raise(PROVED_BY_CHC);
                }
            };
            self.tasks.push(attempt.start(on_answer));
        }
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
fn proof_wait_until(deadline: Option<Instant>, searching: Duration, options: &Options) -> Instant {
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

/// Why the Horn-clause engine gave no proof: each task's reason, in order.
fn no_proof_reason(tasks: &[proofs::chc::ChcTask]) -> Option<String> {
    let reasons: Vec<String> = tasks
        .iter()
        .filter_map(|task| match task.answer()? {
            proofs::chc::ChcAnswer::NoProof(why) => Some(why.clone()),
            proofs::chc::ChcAnswer::Refuted => {
                Some("the Horn clauses have a counterexample".into())
            }
            proofs::chc::ChcAnswer::Proved(_) => None,
        })
        .collect();
    (!reasons.is_empty()).then(|| reasons.join("; "))
}

fn plain_verdict(stop: StopReason, bounds: search::call_bounds::CallBounds) -> Verdict {
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
        mode: match report.mode_used {
            Mode::Si => "si".to_string(),
            Mode::Unroll => "unroll".to_string(),
        },
        iterations: report.iterations.len(),
    }
}

/// VERIFIED from a proof this process found for the same program before.
fn proved_before(proof: proofs::proof::Proof, options: &Options, started: Instant) -> Outcome {
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
    Stats::without_search(started.elapsed(), clock.total(), options.mode)
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

#[cfg(test)]
mod tests {
    use super::ProofWait;
    use std::time::Duration;

    #[test]
    fn the_default_wait_is_the_search_time_and_fills_the_first_quarter_second() {
        let ms = Duration::from_millis;
        let budget = Duration::from_secs(20);
        assert_eq!(ProofWait::SHORT.after(ms(40), budget), ms(210));
        assert_eq!(ProofWait::SHORT.after(ms(200), budget), ms(200));
        assert_eq!(ProofWait::SHORT.after(ms(3000), budget), ms(3000));
        assert_eq!(ProofWait::SUITE.after(ms(500), budget), ms(2000));
        assert_eq!(ProofWait::SUITE.after(ms(1500), budget), ms(3000));
        assert_eq!(ProofWait::Fixed(ms(7)).after(ms(3000), budget), ms(7));
        assert_eq!(ProofWait::Budget.after(ms(3000), budget), budget);
    }
}
