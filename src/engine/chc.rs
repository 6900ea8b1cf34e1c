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

use super::proof::{Proof, Summary};
use crate::solver::{ScriptOutcome, ScriptRun, Sx};
use crate::vc::horn::{Clause, HornSystem, Relation, bindings, declare_datatypes};
use boogie_like::ir::Program as IrProgram;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
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
    /// The memory each z3 process may use, in MiB.
    pub memory_mib: Option<u64>,
}

/// An attempt running in the background.
pub struct ChcTask {
    handle: Option<JoinHandle<()>>,
    cancel: Arc<AtomicBool>,
    answer: Arc<OnceLock<ChcAnswer>>,
}

impl ChcTask {
    /// Starts Spacer on the clauses of `ir`; `on_answer` runs on the task's thread once the
    /// answer is known. `None` when there is nothing to prove (no entry, or an entry that
    /// cannot fail at all).
    pub fn start(
        ir: &IrProgram,
        limits: ChcLimits,
        on_answer: impl FnOnce(&ChcAnswer) + Send + 'static,
    ) -> Option<ChcTask> {
        let system = HornSystem::of(ir)?;
        if !system.has_goal() {
            return None;
        }
        let cancel = Arc::new(AtomicBool::new(false));
        let answer = Arc::new(OnceLock::new());
        let (cancelled, slot) = (cancel.clone(), answer.clone());
        let handle = std::thread::spawn(move || {
            let Some(found) = solve(&system, limits, &cancelled) else {
                return;
            };
            on_answer(&found);
            let _ = slot.set(found);
        });
        Some(ChcTask {
            handle: Some(handle),
            cancel,
            answer,
        })
    }

    /// The answer, if there is one yet.
    pub fn answer(&self) -> Option<&ChcAnswer> {
        self.answer.get()
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

/// Spacer's configurations, tried one after another, each with at most its share of
/// what is left of the budget. Measured on benchmarks/programs and the shared suite
/// (benchmarks/RESULTS.md, "Horn-clause proofs"): the default solves most programs within
/// a second; global guidance alone proves mutual recursion (`evenodd`) and list
/// programs (`l-zipmap`, `l-zipunzip`); without inlining of predicates, programs whose
/// state flows through globals (`counter`) — and its models, having no predicates
/// eliminated, carry no quantifiers.
const CONFIGURATIONS: &[(&str, u32)] = &[
    ("", 4),
    ("(set-option :fp.spacer.global true)", 3),
    (
        "(set-option :fp.spacer.global true)(set-option :fp.xform.inline_eager false)\
         (set-option :fp.xform.inline_linear false)",
        2,
    ),
    (
        "(set-option :fp.xform.inline_eager false)(set-option :fp.xform.inline_linear false)",
        1,
    ),
];

/// Spacer in each configuration until one model passes the re-check or one finds the
/// clauses unsatisfiable. `None` if cancelled.
fn solve(system: &HornSystem, limits: ChcLimits, cancel: &AtomicBool) -> Option<ChcAnswer> {
    let clauses = system.script();
    let mut reasons = Vec::new();
    for (index, (options, share)) in CONFIGURATIONS.iter().enumerate() {
        let now = Instant::now();
        if now >= limits.deadline {
            reasons.push("its time budget ran out".to_string());
            break;
        }
        // Each configuration gets 1/share of what is left; the last one all of it.
        let left = limits.deadline - now;
        let slice = if index + 1 == CONFIGURATIONS.len() {
            left
        } else {
            left / *share
        };
        let attempt = ChcLimits {
            deadline: now + slice,
            ..limits
        };
        let script = format!("{options}\n{clauses}(get-model)\n");
        match attempt_once(system, &script, attempt, cancel)? {
            Ok(answer) => return Some(answer),
            Err(why) => reasons.push(format!("configuration {}: {why}", index + 1)),
        }
    }
    Some(ChcAnswer::NoProof(reasons.join("; ")))
}

/// One Spacer run and the re-check of its model: `Ok` for a checked proof or a
/// refutation, `Err` with the reason otherwise. `None` if cancelled.
fn attempt_once(
    system: &HornSystem,
    script: &str,
    limits: ChcLimits,
    cancel: &AtomicBool,
) -> Option<Result<ChcAnswer, String>> {
    let replies = match run_to_end(script, limits, cancel)? {
        ScriptOutcome::Replies(replies) => replies,
        ScriptOutcome::TimedOut => return Some(Err("out of time".into())),
        ScriptOutcome::Failed(why) => return Some(Err(why)),
    };
    Some(match replies.first().and_then(Sx::atom) {
        Some("sat") => {
            let definitions = definitions(&replies[1..]);
            match recheck(system, &definitions, limits, cancel)? {
                Ok(()) => Ok(ChcAnswer::Proved(proof(system, &definitions))),
                Err(why) => Err(format!("the re-check rejected the model ({why})")),
            }
        }
        Some("unsat") => Ok(ChcAnswer::Refuted),
        Some("unknown") => Err("Spacer answered unknown".into()),
        _ => Err(format!("unexpected reply: {}", replies[0])),
    })
}

/// Runs `script` to its end, its deadline or a cancellation (`None`).
fn run_to_end(script: &str, limits: ChcLimits, cancel: &AtomicBool) -> Option<ScriptOutcome> {
    let mut run = match ScriptRun::start(script, limits.deadline, limits.memory_mib) {
        Ok(run) => run,
        Err(e) => return Some(ScriptOutcome::Failed(e.to_string())),
    };
    loop {
        if cancel.load(Ordering::SeqCst) {
            return None;
        }
        if let Some(outcome) = run.poll() {
            return Some(outcome);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// A relation's interpretation: `(define-fun name ((x S) …) Bool body)`.
#[derive(Clone, Debug)]
struct Definition {
    params: Vec<String>,
    body: Sx,
    text: String,
}

/// The `define-fun`s of a model reply (as one list of them, or one by one), by name.
fn definitions(replies: &[Sx]) -> HashMap<String, Definition> {
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
/// interpretation is checked, whatever it is).
fn definition_text(relation: &Relation, definitions: &HashMap<String, Definition>) -> String {
    if let Some(definition) = definitions.get(unbarred(&relation.name)) {
        return definition.text.clone();
    }
    let params: Vec<(String, crate::solver::Sort)> = relation
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| (format!("x!{i}"), p.sort.clone()))
        .collect();
    format!(
        "(define-fun {} ({}) Bool true)",
        relation.name,
        bindings(&params)
    )
}

fn unbarred(name: &str) -> &str {
    name.strip_prefix('|')
        .and_then(|n| n.strip_suffix('|'))
        .unwrap_or(name)
}

/// Checks every clause under the interpretation in a fresh z3: `Ok` iff each
/// `vars. body ∧ ¬head` is unsatisfiable. `None` if cancelled.
fn recheck(
    system: &HornSystem,
    definitions: &HashMap<String, Definition>,
    limits: ChcLimits,
    cancel: &AtomicBool,
) -> Option<Result<(), String>> {
    let mut script = String::from("(set-logic ALL)\n");
    script.push_str(&declare_datatypes(&system.datatypes));
    for relation in &system.relations {
        script.push_str(&definition_text(relation, definitions));
        script.push('\n');
    }
    for clause in &system.clauses {
        script.push_str(&clause_check(clause));
    }
    // The re-check gets its own budget: it is quick, and a proof found just before the
    // deadline should not be lost to it.
    let limits = ChcLimits {
        deadline: Instant::now() + RECHECK_BUDGET,
        ..limits
    };
    let replies = match run_to_end(&script, limits, cancel)? {
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

/// How long the re-check of a model may take.
const RECHECK_BUDGET: Duration = Duration::from_secs(20);

/// `(push 1) (declare-const v S)… (assert body)… (assert (not head)) (check-sat) (pop 1)`.
fn clause_check(clause: &Clause) -> String {
    let mut out = String::from("(push 1)\n");
    for (name, sort) in &clause.vars {
        out.push_str(&format!("(declare-const {name} {})\n", sort.text()));
    }
    for fact in &clause.body {
        out.push_str(&format!("(assert {fact})\n"));
    }
    if let Some(head) = &clause.head {
        out.push_str(&format!("(assert (not {head}))\n"));
    }
    out.push_str("(check-sat)\n(pop 1)\n");
    out
}

/// The checked interpretation as summaries in the procedures' terms.
fn proof(system: &HornSystem, definitions: &HashMap<String, Definition>) -> Proof {
    let mut summaries = Vec::new();
    // The entry's relation only restates the goal (it never fails): not shown.
    for relation in system
        .relations
        .iter()
        .filter(|r| Some(r.proc) != system.entry)
    {
        let Some(definition) = definitions.get(unbarred(&relation.name)) else {
            continue;
        };
        let mut env: HashMap<String, Sx> = HashMap::new();
        for (i, param) in definition.params.iter().enumerate() {
            let value = match relation.params.get(i) {
                Some(p) if i == 0 => {
                    debug_assert_eq!(p.role, "active");
                    Sx::Atom("true".into())
                }
                Some(p) => Sx::Atom(p.role.clone()),
                None => Sx::Atom(param.clone()),
            };
            env.insert(param.clone(), value);
        }
        let fact = super::formula::simplify(&definition.body, &env);
        if fact.is_atom("true") {
            continue;
        }
        let (inputs, outputs) = roles(relation);
        summaries.push(Summary {
            procedure: unbarred(&relation.name)
                .trim_end_matches("!rel")
                .to_string(),
            inputs,
            outputs,
            formula: super::formula::render(&fact),
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
