//! The Horn-clause proof engine (issue 12): z3's Spacer solves the program's constrained
//! Horn clauses ([`crate::vc::horn`]) in a process of its own, on a thread of its own,
//! while the stratified-inlining loop looks for bugs — it never delays bug finding.
//!
//! - `sat`: Spacer's model interprets every procedure's relation. Before anything is
//!   believed, a *fresh* z3 process checks every clause under that interpretation
//!   (`body ∧ ¬head` unsatisfiable, clause by clause, with Spacer nowhere involved). Only
//!   then is the answer a [`Proof`]: no execution fails, at any depth.
//! - `unsat`: the clauses have a counterexample. Only a hint: a bug is reported only
//!   from the loop's under-approximation, confirmed by replay.
//! - `unknown`, a timeout, a crash, a model the re-check rejects: no proof, with the
//!   reason.
//!
//! Guarantee: [`ChcTask::answer`] is [`ChcAnswer::Proved`] only after the re-check passed;
//! dropping (or [`ChcTask::cancel`]ling) a task kills its solver processes and joins its
//! thread.

use crate::engine::proofs::proof::{Proof, Summary};
use crate::engine::proofs::proof_cache::{self, Entry, Subject};
use crate::engine::trace::trace;
use crate::solver::{ScriptOutcome, Sx};
use crate::vc::horn::{Clause, HornSystem, Relation, declare_datatypes};
pub(crate) use crate::vc::smt::unbarred;
use boogie_like::ir::Program as IrProgram;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What the Horn-clause engine found.
#[derive(Clone, Debug)]
pub enum ChcAnswer {
    /// A re-checked interpretation: no execution fails at any depth.
    Proved(Proof),
    /// The clauses have a counterexample (a hint, never a verdict).
    Refuted,
    /// No answer, with the reason.
    NoProof(String),
}

/// Limits of one attempt.
#[derive(Clone, Copy, Debug)]
pub struct ChcLimits {
    /// When Spacer is stopped.
    pub deadline: Instant,
    /// The budget the deadline was computed from (answers are remembered per budget).
    pub budget: Duration,
    /// The memory each z3 process may use, in MiB.
    pub memory_mib: Option<u64>,
    /// Where proof certificates are kept across runs ([`super::proof_cache`]); `None`:
    /// nowhere but this process's memory.
    pub cache: Option<&'static std::path::Path>,
    /// Run Spacer and its re-checks at the lowest CPU priority (beside a search that
    /// must not be slowed).
    pub background: bool,
    /// Where its lanes wait their turn ([`super::lanes`]); `None`: all at once.
    pub lanes: Option<super::lanes::LanePlan>,
    /// Write each Horn system Spacer is started on beside this file (`--dump-smt FILE`:
    /// `FILE.horn-KEY.smt2`, replayed with `z3 FILE.horn-KEY.smt2` after one configuration
    /// line of [`CONFIGURATIONS`]).
    pub dump: Option<&'static std::path::Path>,
}

/// An attempt running in the background.
pub struct ChcTask {
    /// The key its answer is remembered under.
    pub key: u64,
    handle: Option<JoinHandle<()>>,
    cancel: Arc<AtomicBool>,
    answer: Arc<OnceLock<ChcAnswer>>,
}

impl ChcTask {
    /// Starts Spacer on `system` in the given configurations (option commands, e.g.
    /// [`CONFIGURATIONS`]); `on_answer` runs on the task's thread once the answer is
    /// known. An answer this process already found for the same clauses and budget is
    /// taken as it is (a suite verifies one program at many bounds; the answer does not
    /// depend on the bound).
    pub fn start_with(
        system: HornSystem,
        configurations: &'static [&'static str],
        limits: ChcLimits,
        on_answer: impl FnOnce(&ChcAnswer) + Send + 'static,
    ) -> ChcTask {
        let key = memo_key(&system, limits);
        let work = move |cancelled: &AtomicBool| solve(&system, configurations, limits, cancelled);
        ChcTask::spawn(key, work, on_answer)
    }

    /// An attempt of any shape: `work` runs on the task's thread (it returns `None` once
    /// the flag it is given is raised) and its answer is remembered under `key`; an answer
    /// already remembered under `key` is taken as it is, without running `work`.
    pub fn spawn(
        key: u64,
        work: impl FnOnce(&AtomicBool) -> Option<ChcAnswer> + Send + 'static,
        on_answer: impl FnOnce(&ChcAnswer) + Send + 'static,
    ) -> ChcTask {
        let cancel = Arc::new(AtomicBool::new(false));
        let answer = Arc::new(OnceLock::new());
        if let Some(known) = remembered(key) {
            on_answer(&known);
            let _ = answer.set(known);
            return ChcTask {
                key,
                handle: None,
                cancel,
                answer,
            };
        }
        let (cancelled, slot) = (cancel.clone(), answer.clone());
        let handle = std::thread::spawn(move || {
            let Some(found) = work(&cancelled) else {
                return;
            };
            remember(key, &found);
            // Set before `on_answer` runs: it may end the search, which then reads it.
            on_answer(slot.get_or_init(|| found));
        });
        ChcTask {
            key,
            handle: Some(handle),
            cancel,
            answer,
        }
    }

    /// The answer, if there is one yet.
    pub fn answer(&self) -> Option<&ChcAnswer> {
        self.answer.get()
    }

    /// Whether its thread has ended (with or without an answer).
    pub fn is_finished(&self) -> bool {
        self.handle.as_ref().is_none_or(|h| h.is_finished())
    }

    /// Waits for the answer until `until`.
    pub fn wait_until(&self, until: Instant) -> Option<&ChcAnswer> {
        loop {
            if let Some(answer) = self.answer.get() {
                return Some(answer);
            }
            let finished = self.handle.as_ref().is_none_or(|h| h.is_finished());
            if finished || Instant::now() >= until {
                return self.answer.get();
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Tells the attempt to stop without waiting for it (a [`ChcTask::cancel`] or the
    /// drop then waits less).
    pub fn stop_soon(&self) {
        self.cancel.store(true, Ordering::SeqCst);
    }

    /// Stops the attempt: its solver processes are killed, its thread joined.
    pub fn cancel(&mut self) {
        self.cancel.store(true, Ordering::SeqCst);
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

impl Drop for ChcTask {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// Remembers that no proof came within what a run was willing to wait, so later runs of
/// the same clauses (a suite's other bounds) do not wait again.
pub fn remember_no_proof(system_key: u64, why: &str) {
    remember(system_key, &ChcAnswer::NoProof(why.to_string()));
}

/// The clauses of `ir`, if there is anything to prove (an entry that may fail).
pub fn system_of(ir: &IrProgram) -> Option<HornSystem> {
    HornSystem::of(ir).filter(HornSystem::has_goal)
}

/// Answers found in this process, by clauses and budget.
static MEMO: Mutex<Option<HashMap<u64, ChcAnswer>>> = Mutex::new(None);

pub fn memo_key(system: &HornSystem, limits: ChcLimits) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    system.script().hash(&mut hasher);
    limits.budget.hash(&mut hasher);
    hasher.finish()
}

/// The answer found for `key` in this process, if any.
pub fn remembered_answer(system: &HornSystem, limits: ChcLimits) -> Option<ChcAnswer> {
    remembered(memo_key(system, limits))
}

/// The answer remembered under `key` in this process, if any.
pub fn remembered(key: u64) -> Option<ChcAnswer> {
    MEMO.lock().ok()?.as_ref()?.get(&key).cloned()
}

/// Remembers `answer` under `key` for the rest of the process.
pub fn remember(key: u64, answer: &ChcAnswer) {
    if let Ok(mut memo) = MEMO.lock() {
        memo.get_or_insert_with(HashMap::new)
            .insert(key, answer.clone());
    }
}

/// Spacer's configurations, best first: beside a search they run one after the other
/// as cores allow ([`super::lanes`]), elsewhere side by side (the first checked proof or
/// refutation ends the others). Measured on the Horn systems of the shared suite,
/// benchmarks/programs and tests/proofs (RESULTS.md, "Spacer's lanes one after the
/// other"): global guidance solves 67 of the 68 IR systems any configuration solves
/// (alone: mutual recursion, `evenodd`, and `l-zipmap`) and all 101 refinement systems,
/// without inlining of predicates 64 IR systems (alone: state flowing through globals,
/// `counter`; its models, with no predicate eliminated, carry no quantifiers), the default
/// 64 (none alone, but often the quickest).
pub const CONFIGURATIONS: &[&str] = &[
    "(set-option :fp.spacer.global true)",
    "(set-option :fp.xform.inline_eager false)(set-option :fp.xform.inline_linear false)",
    "",
];

/// Spacer without its weak abstraction of array terms and without ground proof
/// obligations: the configuration that solves systems passing heap maps (arrays) between
/// procedures where the others time out (RESULTS.md, "Spacer on heap maps"; z3's issue
/// #4054). Its models carry quantifiers, re-checked by [`QUANTIFIED_CLAUSE_CHECK`].
pub const HEAP_CONFIGURATION: &str =
    "(set-option :fp.spacer.weak_abs false)(set-option :fp.spacer.ground_pobs false)";

/// The configurations the whole program's exact clauses run in beside a search: the
/// first two of [`CONFIGURATIONS`] (global guidance; no inlining of predicates). The
/// third, Spacer's default, is left out: with the lanes started one after the other by
/// rank ([`super::lanes`]) it starts last, and on every safe program of tests/proofs it
/// never gave the run's first model (74 first models by a configuration 0, 4 by a
/// configuration 1, none by a configuration 2; `benchmarks/system_kinds.py`, RESULTS.md,
/// "Which systems prove what"), while its process took a share of the cores from the
/// lanes that do prove (up to 16 lanes on 2 cores).
const WHOLE_PROGRAM_CONFIGURATIONS: &[&str] = &[CONFIGURATIONS[0], CONFIGURATIONS[1]];

/// [`WHOLE_PROGRAM_CONFIGURATIONS`] and, last, [`HEAP_CONFIGURATION`].
const WHOLE_PROGRAM_CONFIGURATIONS_WITH_HEAP: &[&str] =
    &[CONFIGURATIONS[0], CONFIGURATIONS[1], HEAP_CONFIGURATION];

/// The configurations to try on the whole program's exact clauses `system`:
/// [`WHOLE_PROGRAM_CONFIGURATIONS`], and [`HEAP_CONFIGURATION`] last when a relation
/// carries an array.
pub fn configurations_for(system: &HornSystem) -> &'static [&'static str] {
    let carries_array = system.relations.iter().any(|r| {
        r.params
            .iter()
            .any(|p| matches!(p.sort, crate::solver::Sort::Array(..)))
    });
    if carries_array {
        WHOLE_PROGRAM_CONFIGURATIONS_WITH_HEAP
    } else {
        WHOLE_PROGRAM_CONFIGURATIONS
    }
}

/// Spacer in every configuration at once, until one model passes the re-check or one
/// run finds the clauses unsatisfiable. `None` if cancelled.
fn solve(
    system: &HornSystem,
    configurations: &[&'static str],
    limits: ChcLimits,
    cancel: &AtomicBool,
) -> Option<ChcAnswer> {
    Some(
        match solve_checked(system, configurations, limits, cancel)? {
            Solved::Model(definitions) => ChcAnswer::Proved(proof(system, &definitions)),
            Solved::Refuted => ChcAnswer::Refuted,
            Solved::NoModel(why) => ChcAnswer::NoProof(why),
        },
    )
}

/// What Spacer found for a system.
#[derive(Clone, Debug)]
pub(crate) enum Solved {
    /// An interpretation every clause holds under, re-checked in a fresh z3.
    Model(Interpretation),
    /// The clauses are unsatisfiable.
    Refuted,
    /// Neither, with the reason.
    NoModel(String),
}

/// A model's definitions of the relations, by (unquoted) relation name.
pub(crate) type Interpretation = HashMap<String, Definition>;

/// [`solve`], with the re-checked model itself rather than a proof to show.
pub(crate) fn solve_checked(
    system: &HornSystem,
    configurations: &[&'static str],
    limits: ChcLimits,
    cancel: &AtomicBool,
) -> Option<Solved> {
    if let Some(known) = cached(system, configurations, limits, cancel)? {
        return Some(known);
    }
    let solved = solve_afresh(system, configurations, limits, cancel)?;
    if let Some(dir) = limits.cache {
        let script = system.script();
        let subject = Subject {
            script: &script,
            configurations,
            budget: limits.budget,
        };
        let entry = match &solved {
            Solved::Model(model) => {
                Entry::Certificate(model.values().map(|d| d.text.clone()).collect())
            }
            Solved::Refuted => Entry::Refuted,
            Solved::NoModel(why) => Entry::NoProof(why.clone()),
        };
        proof_cache::store(dir, subject, &entry);
    }
    Some(solved)
}

/// What the proof cache of `limits` knows of `system` ([`proof_cache`]): a certificate
/// only once it has passed the re-check (one that fails it is forgotten), a refutation,
/// or no proof within this budget; `Some(None)` when it knows nothing, `None` if
/// cancelled.
pub(crate) fn cached(
    system: &HornSystem,
    configurations: &[&str],
    limits: ChcLimits,
    cancel: &AtomicBool,
) -> Option<Option<Solved>> {
    let Some(dir) = limits.cache else {
        return Some(None);
    };
    let script = system.script();
    let subject = Subject {
        script: &script,
        configurations,
        budget: limits.budget,
    };
    Some(match proof_cache::lookup(dir, subject) {
        None => None,
        Some(Entry::Refuted) => Some(Solved::Refuted),
        Some(Entry::NoProof(why)) => Some(Solved::NoModel(why)),
        Some(Entry::Certificate(texts)) => {
            let parsed = texts
                .iter()
                .filter_map(|t| crate::solver::parse_reply(t).ok());
            let model = definitions(&parsed.collect::<Vec<Sx>>());
            match recheck(system, &model, limits, cancel)? {
                Ok(()) => Some(Solved::Model(model)),
                Err(_) => {
                    proof_cache::forget_certificate(dir, subject);
                    None
                }
            }
        }
    })
}

/// Spacer in every configuration at once, as [`solve_checked`], without the proof cache.
fn solve_afresh(
    system: &HornSystem,
    configurations: &[&'static str],
    limits: ChcLimits,
    cancel: &AtomicBool,
) -> Option<Solved> {
    let clauses = Arc::new(system.script());
    if let Some(file) = limits.dump {
        dump_clauses(file, &clauses);
    }
    let id = if crate::engine::trace::enabled() {
        clauses_key(&clauses)
    } else {
        0
    };
    let system = Arc::new(system.clone());
    let lanes_stop = Arc::new(AtomicBool::new(false));
    let (sender, receiver) = std::sync::mpsc::channel();
    let lanes: Vec<JoinHandle<()>> = configurations
        .iter()
        .enumerate()
        .map(|(index, options)| {
            let (system, clauses, options) = (system.clone(), clauses.clone(), *options);
            let (stop, sender) = (lanes_stop.clone(), sender.clone());
            std::thread::spawn(move || {
                let permit = limits
                    .lanes
                    .map(|plan| super::lanes::enter(&plan, index, &stop));
                let result = match permit {
                    Some(None) => None,
                    _ => {
                        trace!("Spacer lane: system {id:016x}, configuration {index} starts");
                        let script = format!("{options}\n{clauses}(get-model)\n");
                        let result = attempt_once(&system, &script, limits, &stop);
                        trace!(
                            "Spacer lane: system {id:016x}, configuration {index}: {}",
                            match &result {
                                None => "stopped".to_string(),
                                Some(Ok(Solved::Model(_))) => "a model, re-checked".to_string(),
                                Some(Ok(Solved::Refuted)) =>
                                    "the clauses are unsatisfiable".to_string(),
                                Some(Ok(Solved::NoModel(why))) | Some(Err(why)) => why.clone(),
                            }
                        );
                        result
                    }
                };
                let _ = sender.send((index, result));
            })
        })
        .collect();
    drop(sender);
    let mut reasons = Vec::new();
    let mut answer = None;
    while answer.is_none() && reasons.len() < configurations.len() {
        if cancel.load(Ordering::SeqCst) {
            break;
        }
        match receiver.recv_timeout(Duration::from_millis(5)) {
            Ok((_, Some(Ok(found)))) => answer = Some(found),
            Ok((index, Some(Err(why)))) => reasons.push((index, why)),
            Ok((index, None)) => reasons.push((index, "stopped".to_string())),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    lanes_stop.store(true, Ordering::SeqCst);
    for lane in lanes {
        let _ = lane.join();
    }
    if cancel.load(Ordering::SeqCst) && answer.is_none() {
        return None;
    }
    Some(answer.unwrap_or_else(|| Solved::NoModel(merged_reasons(reasons))))
}

/// The name of `system` in a trace, the KEY of its `FILE.horn-KEY.smt2` ([`clauses_key`]).
pub(crate) fn system_key(system: &HornSystem) -> u64 {
    clauses_key(&system.script())
}

/// The KEY of `FILE.horn-KEY.smt2` for `clauses` (also the system's name in a trace).
fn clauses_key(clauses: &str) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    clauses.hash(&mut hasher);
    hasher.finish()
}

/// Writes `clauses` to `FILE.horn-KEY.smt2` (KEY their hash); a file that cannot be
/// written is skipped (a dump never changes a verdict).
fn dump_clauses(file: &std::path::Path, clauses: &str) {
    let mut name = file.as_os_str().to_owned();
    name.push(format!(".horn-{:016x}.smt2", clauses_key(clauses)));
    let _ = std::fs::write(name, format!("{clauses}(get-model)\n"));
}

/// Why no configuration gave a proof, each distinct reason once: `why` when every
/// configuration says the same, else `configurations 1, 3: why; configuration 2: other`.
fn merged_reasons(mut reasons: Vec<(usize, String)>) -> String {
    reasons.sort();
    let mut distinct: Vec<(Vec<usize>, String)> = Vec::new();
    for (index, why) in reasons {
        match distinct.iter_mut().find(|(_, seen)| *seen == why) {
            Some((indices, _)) => indices.push(index + 1),
            None => distinct.push((vec![index + 1], why)),
        }
    }
    if let [(_, why)] = distinct.as_slice() {
        return why.clone();
    }
    let named = |indices: &[usize]| {
        let list: Vec<String> = indices.iter().map(ToString::to_string).collect();
        let noun = if indices.len() == 1 {
            "configuration"
        } else {
            "configurations"
        };
        format!("{noun} {}", list.join(", "))
    };
    distinct
        .iter()
        .map(|(indices, why)| format!("{}: {why}", named(indices)))
        .collect::<Vec<_>>()
        .join("; ")
}

/// One Spacer run and the re-check of its model: `Ok` for a checked model or a
/// refutation, `Err` with the reason otherwise. `None` if cancelled.
fn attempt_once(
    system: &HornSystem,
    script: &str,
    limits: ChcLimits,
    cancel: &AtomicBool,
) -> Option<Result<Solved, String>> {
    let replies = match run_to_end(script, limits, cancel)? {
        ScriptOutcome::Replies(replies) => replies,
        ScriptOutcome::TimedOut => return Some(Err("out of time".into())),
        ScriptOutcome::Failed(why) => return Some(Err(why)),
    };
    Some(match replies.first().and_then(Sx::atom) {
        Some("sat") => {
            trace!("Spacer: sat, the model is re-checked");
            let definitions = definitions(&replies[1..]);
            match recheck(system, &definitions, limits, cancel)? {
                Ok(()) => Ok(Solved::Model(checked_interpretation(system, definitions))),
                Err(why) => Err(format!("the re-check rejected the model ({why})")),
            }
        }
        Some("unsat") => Ok(Solved::Refuted),
        Some("unknown") => Err("Spacer answered unknown".into()),
        _ => Err(format!("unexpected reply: {}", replies[0])),
    })
}

/// Runs `script` within `limits` to its end, its deadline or a cancellation (`None`).
fn run_to_end(script: &str, limits: ChcLimits, cancel: &AtomicBool) -> Option<ScriptOutcome> {
    // Beside a search, Spacer and its re-checks are background work: the search goes
    // first (issue 30; `ChcLimits::background`).
    crate::solver::run_to_end(
        script,
        (limits.deadline, limits.memory_mib),
        limits.background,
        cancel,
    )
}

/// A relation's interpretation: `(define-fun name ((x S) …) Bool body)`.
#[derive(Clone, Debug)]
pub(crate) struct Definition {
    /// The parameters' names, in order.
    pub params: Vec<String>,
    pub body: Sx,
    /// The whole `define-fun`, as the solver printed it.
    pub text: String,
}

/// The definitions the re-check used: Spacer's, with the entry's replaced by
/// [`HornSystem::entry_interpretation`] where the system has one (the re-check checked
/// that one, not the solver's).
fn checked_interpretation(system: &HornSystem, mut definitions: Interpretation) -> Interpretation {
    let Some(text) = &system.entry_interpretation else {
        return definitions;
    };
    let entry = system
        .relations
        .iter()
        .find(|r| r.proc.is_some() && r.proc == system.entry);
    if let Some(relation) = entry {
        let parsed = crate::solver::parse_reply(text).ok();
        match parsed
            .as_ref()
            .map(|sx| self::definitions(std::slice::from_ref(sx)))
        {
            Some(mut found) => {
                if let Some(definition) = found.remove(unbarred(&relation.name)) {
                    definitions.insert(unbarred(&relation.name).to_string(), definition);
                }
            }
            None => {
                definitions.remove(unbarred(&relation.name));
            }
        }
    }
    definitions
}

/// The `define-fun`s of a model reply (as one list of them, or one by one), by name.
pub(crate) fn definitions(replies: &[Sx]) -> HashMap<String, Definition> {
    let mut found = HashMap::new();
    let mut add = |item: &Sx| {
        if let Some([head, name, params, _sort, body]) = item.list()
            && head.is_atom("define-fun")
            && let (Some(name), Some(params)) = (name.atom(), params.list())
        {
            let params = params
                .iter()
                .filter_map(|p| p.list()?.first()?.atom().map(str::to_string))
                .collect();
            let definition = Definition {
                params,
                body: body.clone(),
                text: item.to_string(),
            };
            found.insert(name.to_string(), definition);
        }
    };
    for reply in replies {
        match reply.list() {
            Some(items) if items.first().is_some_and(|i| i.list().is_some()) => {
                items.iter().for_each(&mut add)
            }
            _ => add(reply),
        }
    }
    found
}

/// The interpretation's definition of `relation` (`true` if the model leaves it out: any
/// interpretation is checked, whatever it is; `true` always for a relation the system
/// defines so, whatever the model says: the clauses are checked with the definition the
/// solver was given).
fn definition_text(relation: &Relation, definitions: &HashMap<String, Definition>) -> String {
    if !relation.defined_true
        && let Some(definition) = definitions.get(unbarred(&relation.name))
    {
        return definition.text.clone();
    }
    relation.true_definition()
}

/// Checks every clause under the interpretation in a fresh z3: `Ok` iff each
/// `vars. body ∧ ¬head` is unsatisfiable. `None` if cancelled.
pub(crate) fn recheck(
    system: &HornSystem,
    definitions: &HashMap<String, Definition>,
    limits: ChcLimits,
    cancel: &AtomicBool,
) -> Option<Result<(), String>> {
    let mut preamble = String::from("(set-logic ALL)\n");
    preamble.push_str(&declare_datatypes(&system.datatypes));
    for relation in &system.relations {
        match &system.entry_interpretation {
            Some(text) if relation.proc.is_some() && relation.proc == system.entry => {
                preamble.push_str(text)
            }
            _ => preamble.push_str(&definition_text(relation, definitions)),
        }
        preamble.push('\n');
    }
    let mut plain = preamble.clone();
    for clause in &system.clauses {
        plain.push_str("(push 1)\n");
        plain.push_str(&clause_check(clause, "(check-sat)"));
        plain.push_str("(pop 1)\n");
    }
    if !definitions.values().any(|d| quantified(&d.body)) {
        return run_recheck(system, &plain, RECHECK_BUDGET, limits, cancel);
    }
    // A quantified model: z3's default check first, briefly (it decides most such models
    // at once), then each clause in a solver of its own (`reset` between them: after a
    // `pop`, z3's quantifier engines keep state that made a later clause's check run for
    // minutes where alone it takes a tenth of a second) through quantifier elimination.
    // A clause the default check finds satisfiable refutes the model at once.
    match run_recheck(system, &plain, QUICK_RECHECK_BUDGET, limits, cancel)? {
        Ok(()) => return Some(Ok(())),
        Err(why) if why.ends_with(": sat") => return Some(Err(why)),
        Err(_) => {}
    }
    recheck_eliminating(system, &preamble, limits, cancel)
}

/// The re-check of a quantified model through quantifier elimination, each clause after
/// `preamble` (the logic, datatypes and the model's definitions) in a solver of its own.
fn recheck_eliminating(
    system: &HornSystem,
    preamble: &str,
    limits: ChcLimits,
    cancel: &AtomicBool,
) -> Option<Result<(), String>> {
    let mut eliminated = String::new();
    for clause in &system.clauses {
        eliminated.push_str(preamble);
        eliminated.push_str(&clause_check(clause, QUANTIFIED_CLAUSE_CHECK));
        eliminated.push_str("(reset)\n");
    }
    run_recheck(
        system,
        &eliminated,
        QUANTIFIED_RECHECK_BUDGET,
        limits,
        cancel,
    )
}

/// Runs one re-check script (one `check-sat` per clause, in order) within `budget` of
/// its own (a proof found just before the run's deadline should not be lost to it):
/// `Ok` iff every answer is `unsat`; written beside `--dump-smt`'s file.
fn run_recheck(
    system: &HornSystem,
    script: &str,
    budget: Duration,
    limits: ChcLimits,
    cancel: &AtomicBool,
) -> Option<Result<(), String>> {
    if let Some(file) = limits.dump {
        let mut name = file.as_os_str().to_owned();
        name.push(format!(".recheck-{:016x}.smt2", clauses_key(script)));
        let _ = std::fs::write(name, script);
    }
    let limits = ChcLimits {
        deadline: Instant::now() + budget,
        ..limits
    };
    let replies = match run_to_end(script, limits, cancel)? {
        ScriptOutcome::Replies(replies) => replies,
        ScriptOutcome::TimedOut => return Some(Err("the re-check ran out of time".into())),
        ScriptOutcome::Failed(why) => return Some(Err(why)),
    };
    for (clause, reply) in system.clauses.iter().zip(&replies) {
        if !reply.is_atom("unsat") {
            return Some(Err(format!("{}: {reply}", clause.what)));
        }
    }
    if replies.len() != system.clauses.len() {
        return Some(Err(format!(
            "{} answers for {} clauses",
            replies.len(),
            system.clauses.len()
        )));
    }
    Some(Ok(()))
}

/// How long z3's default check may take on a quantified model before the clauses go
/// through quantifier elimination instead.
const QUICK_RECHECK_BUDGET: Duration = Duration::from_secs(2);

/// How long the re-check of a model may take.
const RECHECK_BUDGET: Duration = Duration::from_secs(20);

/// How long the re-check of a quantified model may take (each clause may try four
/// tactics, [`QUANTIFIED_CLAUSE_CHECK`]).
const QUANTIFIED_RECHECK_BUDGET: Duration = Duration::from_secs(45);

/// How a clause is checked when the model has quantifiers (Spacer's models of systems
/// over arrays can: `forall` over an array's index, `exists` over a callee's outputs).
/// Where z3's default check (tried first, briefly: [`QUICK_RECHECK_BUDGET`]) decides
/// nothing (RESULTS.md, "Spacer on heap maps"), each clause goes through quantifier
/// elimination: model-based projection (`qe2`, for at most 1 s), then light elimination
/// of variables defined by equalities (`qe-light`, 6 s), recursive elimination (`qe_rec`,
/// 3 s) and `qe2` again (3 s), and the quantifier-free rest to the SMT core. `qe2` goes
/// first: on the clauses where `qe-light` runs out of its time (a callee's summary with
/// `exists` over a list and its measures, `list_odd_filter_shift.ml`; a closure array
/// copied, `copy.horef`), it decides in 0.1–0.5 s (RESULTS.md, "`qe2` first in the
/// quantified re-check"), and where it does not, the others still get their time. Each
/// tactic turns the clause's negation into an equisatisfiable formula, so an `unsat` is
/// as trustworthy as the default check's; a tactic that cannot eliminate its quantifiers
/// fails and the next is tried; when all fail the answer is `unknown` and the model is
/// not a proof.
const QUANTIFIED_CLAUSE_CHECK: &str = "(check-sat-using (or-else \
    (try-for (then simplify qe2 smt) 1000) \
    (try-for (then simplify qe-light smt) 6000) \
    (try-for (then simplify qe_rec smt) 3000) \
    (try-for (then simplify qe2 smt) 3000)))";

/// Whether a model's definition has a quantifier.
fn quantified(body: &Sx) -> bool {
    match body {
        Sx::Atom(a) => a == "forall" || a == "exists",
        Sx::Str(_) => false,
        Sx::List(items) => items.iter().any(quantified),
    }
}

/// `(declare-const v S)… (assert body)… (assert (not head)) CHECK`.
fn clause_check(clause: &Clause, check: &str) -> String {
    let mut out = String::new();
    for (name, sort) in &clause.vars {
        out.push_str(&format!("(declare-const {name} {})\n", sort.text()));
    }
    for fact in &clause.body {
        out.push_str(&format!("(assert {fact})\n"));
    }
    if let Some(head) = &clause.head {
        out.push_str(&format!("(assert (not {head}))\n"));
    }
    out.push_str(check);
    out.push('\n');
    out
}

/// The checked interpretation as summaries in the procedures' terms.
pub(crate) fn proof(system: &HornSystem, definitions: &HashMap<String, Definition>) -> Proof {
    let mut summaries = Vec::new();
    // The entry's relation only restates the goal (it never fails): not shown.
    for relation in system
        .relations
        .iter()
        .filter(|r| (r.proc.is_none() || r.proc != system.entry) && !r.defined_true)
    {
        let Some(definition) = definitions.get(unbarred(&relation.name)) else {
            continue;
        };
        // A relation of calling contexts (`vc::horn_contexts`) has no `active` flag.
        let context = relation.params.first().is_none_or(|p| p.role != "active");
        let mut env: HashMap<String, Sx> = HashMap::new();
        for (i, param) in definition.params.iter().enumerate() {
            let value = match relation.params.get(i) {
                Some(_) if i == 0 && !context => Sx::Atom("true".into()),
                Some(p) => Sx::Atom(p.role.clone()),
                None => Sx::Atom(param.clone()),
            };
            env.insert(param.clone(), value);
        }
        let fact = crate::engine::proofs::formula::simplify(&definition.body, &env);
        if fact.is_atom("true") {
            continue;
        }
        let (inputs, outputs, procedure) = match context {
            false => {
                let (inputs, outputs) = roles(relation);
                let name = unbarred(&relation.name).trim_end_matches("!rel");
                (inputs, outputs, name.to_string())
            }
            true => {
                let inputs = relation.params.iter().map(|p| p.role.clone()).collect();
                let name = unbarred(&relation.name).trim_end_matches("!ctx");
                (inputs, Vec::new(), format!("calls of {name}"))
            }
        };
        summaries.push(Summary {
            procedure,
            inputs,
            outputs,
            formula: crate::engine::proofs::formula::render(&fact),
            smt: definition.text.clone(),
        });
    }
    Proof {
        engine: "chc".into(),
        summaries,
    }
}

/// The relation's inputs and outputs by role (the `active` flag left out).
fn roles(relation: &Relation) -> (Vec<String>, Vec<String>) {
    let p = &relation.params;
    let outputs_start = relation.inputs + 1;
    let inputs = p[1..outputs_start].iter().map(|p| p.role.clone()).collect();
    let outputs = p[outputs_start..].iter().map(|p| p.role.clone()).collect();
    (inputs, outputs)
}

#[cfg(test)]
mod tests {
    use super::{ChcLimits, Definition, definition_text, merged_reasons};
    use crate::solver::{Sort, Sx};
    use crate::vc::horn::{Clause, HornSystem, Relation, RelationParam};
    use std::collections::HashMap;
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};

    #[test]
    fn a_relation_defined_true_is_checked_as_true_whatever_the_model_says() {
        let relation = |defined_true| Relation {
            proc: None,
            name: "f.pre".into(),
            params: vec![
                RelationParam {
                    role: "active".into(),
                    sort: Sort::Bool,
                },
                RelationParam {
                    role: "x".into(),
                    sort: Sort::Int,
                },
            ],
            inputs: 1,
            defined_true,
        };
        let text = "(define-fun f.pre ((a Bool) (x Int)) Bool false)".to_string();
        let model = HashMap::from([(
            "f.pre".to_string(),
            Definition {
                params: vec!["a".into(), "x".into()],
                body: Sx::Atom("false".into()),
                text: text.clone(),
            },
        )]);
        assert_eq!(definition_text(&relation(false), &model), text);
        let checked = definition_text(&relation(true), &model);
        assert_eq!(
            checked,
            "(define-fun f.pre ((x!0 Bool) (x!1 Int)) Bool true)"
        );
        assert_eq!(checked, relation(true).true_definition());
    }

    /// `inv(a, n)`: `a` holds 1 at every index below `n` (a loop that stores 1 at `n`
    /// and counts up); the goal asks that no such index holds anything else.
    fn fill_system() -> HornSystem {
        let array = Sort::Array(Box::new(Sort::Int), Box::new(Sort::Int));
        let clause =
            |what: &str, vars: Vec<(&str, Sort)>, body: &[&str], head: Option<&str>| Clause {
                what: what.into(),
                vars: vars.into_iter().map(|(v, s)| (v.to_string(), s)).collect(),
                body: body.iter().map(|b| b.to_string()).collect(),
                head: head.map(str::to_string),
            };
        HornSystem {
            entry: None,
            datatypes: Vec::new(),
            relations: vec![Relation {
                proc: None,
                name: "inv".into(),
                params: vec![
                    RelationParam {
                        role: "a".into(),
                        sort: array.clone(),
                    },
                    RelationParam {
                        role: "n".into(),
                        sort: Sort::Int,
                    },
                ],
                inputs: 2,
                defined_true: false,
            }],
            clauses: vec![
                clause(
                    "start",
                    vec![("a", array.clone()), ("n", Sort::Int)],
                    &["(= n 0)"],
                    Some("(inv a n)"),
                ),
                clause(
                    "step",
                    vec![("a", array.clone()), ("n", Sort::Int)],
                    &["(inv a n)"],
                    Some("(inv (store a n 1) (+ n 1))"),
                ),
                clause(
                    "goal",
                    vec![("a", array), ("n", Sort::Int), ("i", Sort::Int)],
                    &[
                        "(inv a n)",
                        "(<= 0 i)",
                        "(< i n)",
                        "(not (= (select a i) 1))",
                    ],
                    None,
                ),
            ],
            entry_interpretation: None,
        }
    }

    fn recheck_with(body: &str) -> Result<(), String> {
        let text = format!("(define-fun inv ((a (Array Int Int)) (n Int)) Bool {body})");
        let parsed = crate::solver::parse_reply(&text).expect("parses");
        let model = super::definitions(std::slice::from_ref(&parsed));
        assert!(super::quantified(&model["inv"].body));
        let limits = ChcLimits {
            deadline: Instant::now() + Duration::from_secs(30),
            budget: Duration::from_secs(30),
            memory_mib: None,
            cache: None,
            background: false,
            lanes: None,
            dump: None,
        };
        let cancel = AtomicBool::new(false);
        let whole = super::recheck(&fill_system(), &model, limits, &cancel).expect("not cancelled");
        // The quantifier-eliminating check alone decides the same way.
        let mut preamble = String::from("(set-logic ALL)\n");
        preamble.push_str(&model["inv"].text);
        preamble.push('\n');
        let eliminating = super::recheck_eliminating(&fill_system(), &preamble, limits, &cancel)
            .expect("not cancelled");
        assert_eq!(
            whole.is_ok(),
            eliminating.is_ok(),
            "{whole:?} {eliminating:?}"
        );
        if let Err(why) = &eliminating {
            assert!(why.starts_with("step:"), "{why}");
        }
        whole
    }

    #[test]
    fn a_quantified_model_is_decided_clause_by_clause() {
        // The invariant a loop over an array needs: right, so every clause holds.
        let right =
            "(and (>= n 0) (forall ((j Int)) (=> (and (<= 0 j) (< j n)) (= (select a j) 1))))";
        assert_eq!(recheck_with(right), Ok(()));
        // Claims 2 where the loop stores 1: the step clause fails (the start clause holds
        // vacuously, the goal's too).
        let wrong =
            "(and (>= n 0) (forall ((j Int)) (=> (and (<= 0 j) (< j n)) (= (select a j) 2))))";
        let why = recheck_with(wrong).expect_err("the step clause fails");
        assert!(why.starts_with("step:"), "{why}");
    }

    #[test]
    fn a_reason_every_configuration_gives_is_said_once() {
        let same = (0..3)
            .map(|i| (i, "the budget ran out".to_string()))
            .collect();
        assert_eq!(merged_reasons(same), "the budget ran out");
        let mixed = vec![
            (2, "a".to_string()),
            (0, "a".to_string()),
            (1, "b".to_string()),
        ];
        assert_eq!(
            merged_reasons(mixed),
            "configurations 1, 3: a; configuration 2: b"
        );
    }
}
