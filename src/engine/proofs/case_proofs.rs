//! Proofs case by case: an entry that dispatches to many sub-programs (as the generated
//! programs and the HORef paper's large ones do) is proved when each of its cases is, each
//! by whichever of its Horn systems Spacer solves first (issue 12).
//!
//! The front end cuts the entry into [`ProofCase`]s — each a program of its own, whose
//! executions include every execution of the entry that takes that case — and gives each
//! case its systems with canonical names ([`crate::vc::canonical`]), so renamed copies of
//! one sub-program have one text and share one answer (Spacer runs once per distinct case;
//! the others find the answer remembered). The distinct cases are tried several at a time
//! (as many as the machine has cores, at most [`PARALLEL_CASES`]), each with its systems'
//! Spacer lanes ranked as a whole program's are ([`crate::engine::proofs::lanes`]: every
//! system's first configuration before any system's second), until one fails to be
//! proved; their copies after them.
//!
//! Guarantee: [`start`]'s answer is [`ChcAnswer::Proved`] only when every case has a
//! re-checked proof ([`crate::engine::proofs::chc`]); given the front end's guarantee that the cases cover
//! every execution of the entry, no execution of the program fails, at any depth. Any case
//! without a proof makes the answer [`ChcAnswer::NoProof`], naming the case.

use crate::engine::proofs::chc::{self, ChcAnswer, ChcLimits, ChcTask};
use crate::engine::proofs::lanes::LanePlan;
use crate::engine::proofs::proof::{Proof, Summary};
use crate::engine::search::driver::StopSignal;
use crate::engine::trace::trace;
use crate::engine::verdict::Verdict;
use crate::vc::canonical::rename_tokens;
use crate::vc::horn::HornSystem;
use boogie_like::ir::Program as IrProgram;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// One system a case may be proved by.
#[derive(Clone, Debug)]
pub struct CaseSystem {
    /// The clauses, with canonical names.
    pub system: Arc<HornSystem>,
    /// The Spacer configurations to try it in.
    pub configurations: &'static [&'static str],
    /// Canonical symbol → the symbol of the case's own program, for showing its proof.
    pub original: Arc<HashMap<String, String>>,
}

/// One case of the entry and the systems that may prove it.
#[derive(Clone, Debug)]
pub struct ProofCase {
    /// The case for the user: where it is and what it runs.
    pub what: String,
    pub systems: Vec<CaseSystem>,
    /// The case's program, for the stratified-inlining search that starts beside its
    /// Spacer lanes: its VERIFIED (a call tree that ends, or Houdini's summaries) proves
    /// the case too.
    pub ir: Option<Arc<IrProgram>>,
}

/// How long the search may try one case. It starts beside the case's first Spacer lane:
/// measured on the sub-programs of the generated programs (`benchmarks/programs`,
/// `verify --proofs none --max-depth 40 --timeout 3`), the search proves 17 of 34 in
/// 0.02–0.08 s (one of them, `compose`, takes Spacer 4.5 s of CPU) and ends 13 more
/// within 1.1 s; started only after 0.5 s per case proved at a time, it made every case
/// that Spacer does not prove at once wait that long (RESULTS.md).
pub const SEARCH_BUDGET: Duration = Duration::from_secs(3);

/// The deepest bound the search of a case goes to (a VERIFIED needs a tree that ends
/// within it).
const SEARCH_DEPTH: u32 = 40;

/// Where the cases come from: built when the proof starts, on its own thread (building
/// them means lowering and encoding every case; the search does not wait for it).
pub struct CaseSource {
    /// Identifies the program the cases are built from (equal keys, equal cases).
    pub key: u64,
    /// The cases; `None` if they cannot be built after all.
    pub build: Box<dyn Fn() -> Option<Vec<ProofCase>> + Send + Sync>,
}

impl std::fmt::Debug for CaseSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CaseSource({:x})", self.key)
    }
}

/// The key the answer for the cases of `source` is remembered under.
pub fn key(source: &CaseSource, limits: ChcLimits) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    (source.key, limits.budget).hash(&mut hasher);
    hasher.finish()
}

/// The key the answer for `cases` is remembered under.
fn cases_key(cases: &[ProofCase], limits: ChcLimits) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    for case in cases {
        for system in &case.systems {
            chc::memo_key(&system.system, limits).hash(&mut hasher);
        }
        "end of case".hash(&mut hasher);
    }
    hasher.finish()
}

/// How many times the proof budget (`--proof-budget`) a program proved case by case may
/// take: it holds many programs (measured: the 4000-line generated program, 363 cases,
/// 34 distinct, is proved in about 50 s on two cores beside the search).
pub const BUDGET_FACTOR: u32 = 3;

/// Starts building the cases of `source` and proving them one after the other, on a
/// thread of its own.
pub fn start(
    source: Arc<CaseSource>,
    limits: ChcLimits,
    on_answer: impl FnOnce(&ChcAnswer) + Send + 'static,
) -> ChcTask {
    let key = key(&source, limits);
    let work = move |cancel: &AtomicBool| match (source.build)() {
        Some(cases) => prove_all(&cases, limits, cancel),
        None => Some(ChcAnswer::NoProof(
            "the entry's cases could not be built".into(),
        )),
    };
    ChcTask::spawn(key, work, on_answer)
}

fn prove_all(cases: &[ProofCase], limits: ChcLimits, cancel: &AtomicBool) -> Option<ChcAnswer> {
    let outcomes = prove_each(cases, limits, cancel)?;
    let no_proof = |index: usize, why: &str| {
        let case = &cases[index].what;
        let count = cases.len();
        Some(ChcAnswer::NoProof(format!(
            "case {} of {count} ({case}): {why}",
            index + 1
        )))
    };
    // The first case without a proof, in the entry's order, is the reason; a case left
    // untried (once another had none) is never taken as proved.
    if let Some((index, Some(Err(why)))) = outcomes
        .iter()
        .enumerate()
        .find(|(_, outcome)| matches!(outcome, Some(Err(_))))
    {
        return no_proof(index, why);
    }
    let mut summaries = Vec::new();
    for (index, outcome) in outcomes.into_iter().enumerate() {
        let Some(Ok((proof, original))) = outcome else {
            return no_proof(index, "not tried");
        };
        summaries.extend(
            proof
                .summaries
                .into_iter()
                .map(|s| in_case_names(s, &original)),
        );
    }
    Some(ChcAnswer::Proved(Proof {
        engine: format!("chc, case by case: {} cases", cases.len()),
        summaries,
    }))
}

/// How many cases are proved at once, at most (fewer on a machine with fewer cores).
const PARALLEL_CASES: usize = 4;

/// Each case's proof or why it has none, by index; `None` once cancelled. The distinct
/// cases (by their systems' text) are proved first, [`PARALLEL_CASES`] at a time where the
/// machine has the cores; their copies after, each finding its original's answer
/// remembered. Once a case has no proof the others are left (`None` in their place).
fn prove_each(
    cases: &[ProofCase],
    limits: ChcLimits,
    cancel: &AtomicBool,
) -> Option<Vec<Option<Result<CaseProof, String>>>> {
    let mut seen = std::collections::HashSet::new();
    let (originals, copies): (Vec<usize>, Vec<usize>) = (0..cases.len())
        .partition(|&i| seen.insert(cases_key(std::slice::from_ref(&cases[i]), limits)));
    let workers = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .clamp(1, PARALLEL_CASES);
    let outcomes = std::sync::Mutex::new(vec![None; cases.len()]);
    let ended = AtomicBool::new(false);
    for (batch, workers) in [(originals, workers), (copies, 1)] {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let work = || {
            while !ended.load(Ordering::SeqCst) {
                let Some(&index) = batch.get(next.fetch_add(1, Ordering::SeqCst)) else {
                    return;
                };
                let Some(outcome) = prove_case(&cases[index], limits, &ended) else {
                    return;
                };
                if outcome.is_err() {
                    ended.store(true, Ordering::SeqCst);
                }
                if let Ok(mut outcomes) = outcomes.lock() {
                    outcomes[index] = Some(outcome);
                }
            }
        };
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..workers).map(|_| scope.spawn(work)).collect();
            while !handles.iter().all(|h| h.is_finished()) {
                if cancel.load(Ordering::SeqCst) {
                    ended.store(true, Ordering::SeqCst);
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        });
        if cancel.load(Ordering::SeqCst) {
            return None;
        }
    }
    outcomes.into_inner().ok()
}

/// The first proof of `case` by any of its systems or by its search, or why there is
/// none; `None` once cancelled.
fn prove_case(
    case: &ProofCase,
    limits: ChcLimits,
    cancel: &AtomicBool,
) -> Option<Result<CaseProof, String>> {
    let searched_key = cases_key(std::slice::from_ref(case), limits) ^ SEARCHED;
    if let Some(ChcAnswer::Proved(proof)) = chc::remembered(searched_key) {
        return Some(Ok((proof, Arc::default())));
    }
    let started = Instant::now();
    trace!(
        "case {}: {} system(s) and a search",
        case.what,
        case.systems.len()
    );
    let step = u32::try_from(case.systems.len()).unwrap_or(u32::MAX);
    let tasks: Vec<ChcTask> = (0u32..)
        .zip(&case.systems)
        .map(|(first, s)| {
            // The case's lanes one after the other where the cores are busy: every
            // system's first configuration before any system's second (`lanes`).
            // After the lanes of the attempts before this one, if it has a place among them.
            let lanes = match limits.lanes {
                Some(after) => LanePlan {
                    began: after.began,
                    first: after.first.saturating_add(first),
                    step,
                },
                None => LanePlan {
                    began: started,
                    first,
                    step,
                },
            };
            let limits = ChcLimits {
                lanes: Some(lanes),
                ..limits
            };
            ChcTask::start_with((*s.system).clone(), s.configurations, limits, |_| {})
        })
        .collect();
    let mut search: Option<Search> = None;
    loop {
        if cancel.load(Ordering::SeqCst) {
            return None;
        }
        let mut open = false;
        for (index, (task, system)) in tasks.iter().zip(&case.systems).enumerate() {
            match task.answer() {
                Some(ChcAnswer::Proved(proof)) => {
                    trace!("case {}: proved by its system {index}", case.what);
                    return Some(Ok((proof.clone(), system.original.clone())));
                }
                Some(_) => {}
                None => open |= !task.is_finished(),
            }
        }
        if let Some(found) = search.as_mut().and_then(Search::proof) {
            trace!("case {}: proved by its search", case.what);
            chc::remember(searched_key, &ChcAnswer::Proved(found.clone()));
            return Some(Ok((found, Arc::default())));
        }
        if search.is_none()
            && let Some(ir) = &case.ir
        {
            search = Some(Search::start(ir.clone(), limits));
        }
        let searching = search.as_ref().is_some_and(|s| !s.is_finished());
        if !open && !searching {
            trace!("case {}: no proof", case.what);
            return Some(Err(reasons(&tasks)));
        }
        if Instant::now() >= limits.deadline {
            return Some(Err("out of time".into()));
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// A proof of one case, with the way back from its canonical names to the case's own
/// (empty when the proof is in the case's own names already).
type CaseProof = (Proof, Arc<HashMap<String, String>>);

/// Mixed into a case's key for the answer of its search.
const SEARCHED: u64 = 0x5ea4c4ed;

/// The stratified-inlining search of one case, on a thread of its own; stopped (and
/// joined) when dropped.
struct Search {
    handle: Option<JoinHandle<Option<Proof>>>,
    stop: StopSignal,
}

impl Search {
    fn start(ir: Arc<IrProgram>, limits: ChcLimits) -> Search {
        let stop = StopSignal::default();
        let remaining = limits.deadline.saturating_duration_since(Instant::now());
        let options = crate::engine::Options {
            max_depth: SEARCH_DEPTH,
            timeout: Some(SEARCH_BUDGET.min(remaining)),
            chc: false,
            memory_limit_mib: None,
            stop: Some(stop.clone()),
            background: limits.background,
            ..crate::engine::Options::default()
        };
        let handle = std::thread::spawn(move || {
            let outcome = crate::engine::verify_ir(&ir, &options);
            (outcome.verdict == Verdict::Verified).then(|| {
                outcome.proof.unwrap_or(Proof {
                    engine: "si".into(),
                    summaries: Vec::new(),
                })
            })
        });
        Search {
            handle: Some(handle),
            stop,
        }
    }

    fn is_finished(&self) -> bool {
        self.handle.as_ref().is_none_or(JoinHandle::is_finished)
    }

    /// The proof, once the search has ended with one.
    fn proof(&mut self) -> Option<Proof> {
        if !self.is_finished() {
            return None;
        }
        self.handle.take()?.join().ok().flatten()
    }
}

impl Drop for Search {
    fn drop(&mut self) {
        self.stop.raise("the case was decided otherwise");
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

fn reasons(tasks: &[ChcTask]) -> String {
    let reasons: Vec<String> = tasks
        .iter()
        .map(|task| match task.answer() {
            Some(ChcAnswer::NoProof(why)) => why.clone(),
            Some(ChcAnswer::Refuted) => "the Horn clauses have a counterexample".into(),
            Some(ChcAnswer::Proved(_)) => "proved".into(),
            None => "no answer".into(),
        })
        .collect();
    if reasons.is_empty() {
        return "nothing to prove it with".into();
    }
    reasons.join("; ")
}

/// A summary of a canonical system, told in the names of the case's program.
fn in_case_names(summary: Summary, original: &HashMap<String, String>) -> Summary {
    let back = |token: &str| original.get(token).map(|name| shown(name));
    let procedure = match original.get(&summary.procedure) {
        Some(name) => shown(name).trim_end_matches("!rel").to_string(),
        None => summary.procedure,
    };
    Summary {
        procedure,
        formula: rename_tokens(&summary.formula, &back),
        ..summary
    }
}

/// A symbol as the user reads it (without SMT-LIB's bars).
fn shown(symbol: &str) -> String {
    symbol
        .trim_start_matches('|')
        .trim_end_matches('|')
        .to_string()
}
