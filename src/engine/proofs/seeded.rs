//! Spacer on a Horn system seeded with relational list facts that Houdini proved
//! inductive first (issue 33: "relational facts between input and output lists").
//!
//! [`crate::vc::horn_facts`] proposes, per relation, facts such as "the result's odd
//! count is the list's plus the accumulator's"; Houdini here keeps those that every clause
//! preserves (one z3 script per round, each fact checked clause by clause with the
//! surviving facts assumed at the calls, until nothing is dropped); Spacer then solves the
//! clauses with the survivors assumed at every call ([`crate::vc::horn_facts::seeded`]).
//!
//! Guarantee: [`solve`] answers [`ChcAnswer::Proved`] only for an interpretation of the
//! *original* clauses — Spacer's model of the seeded clauses conjoined with the facts —
//! that a fresh z3 re-checked clause by clause against those original clauses. Houdini's
//! answers are never trusted on their own: a fact that is not inductive makes that
//! re-check fail, and the answer is then no proof.

use crate::engine::proofs::chc::{self, ChcAnswer, ChcLimits, Interpretation, Solved};
use crate::engine::trace::trace;
use crate::solver::{ScriptOutcome, parse_reply};
use crate::vc::horn::HornSystem;
use crate::vc::horn_facts::{self, Facts};
use std::hash::{Hash, Hasher};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How long all Houdini rounds together may take, at least: on a free core they take
/// 0.1-1.3 s (`list_keep_parity.ml`: 1.3 s), niced beside eight lanes and two busy
/// processes 10-15 s. A quarter of the proof budget where that is more (a test's
/// generous budget on a loaded machine).
const HOUDINI_BUDGET: Duration = Duration::from_secs(30);

/// How long one check of one fact against one clause may take (z3's `:timeout`); a check
/// without an answer drops the fact. The checks take milliseconds on a free core; this
/// is for a z3 niced beside a search and other lanes on a loaded machine, where 1 s
/// dropped the fact `list_keep_parity.ml` needs in one run of six.
const CHECK_MS: u64 = 5000;

/// The most Houdini rounds (each drops at least one fact, or is the last).
const MAX_ROUNDS: usize = 12;

/// The key a seeded attempt's answer is remembered under: its system's and budget's,
/// told apart from the plain attempt on the same system.
pub fn key(system: &HornSystem, limits: ChcLimits) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    "seeded with inductive facts".hash(&mut hasher);
    chc::memo_key(system, limits).hash(&mut hasher);
    hasher.finish()
}

/// Whether `system` has candidate facts at all (an attempt is worth planning).
pub fn applies(system: &HornSystem) -> bool {
    horn_facts::candidates(system).iter().any(|f| !f.is_empty())
}

/// Houdini, then Spacer on the seeded clauses in `configurations`, then the re-check of
/// the model with the facts against `system` itself. `None` if cancelled.
pub fn solve(
    system: &HornSystem,
    configurations: &'static [&'static str],
    limits: ChcLimits,
    cancel: &AtomicBool,
) -> Option<ChcAnswer> {
    let facts = {
        // Houdini takes a lane's slot, as Spacer does (`lanes`).
        let permit = limits
            .lanes
            .map(|plan| super::lanes::enter(&plan, 0, cancel));
        if matches!(permit, Some(None)) {
            return None;
        }
        match inductive_facts(system, limits, cancel)? {
            Ok(facts) => facts,
            Err(why) => return Some(ChcAnswer::NoProof(why)),
        }
    };
    let count = facts.iter().map(Vec::len).sum::<usize>();
    trace!("inductive facts: {count} of the candidates hold");
    let Some(seeded) = horn_facts::seeded(system, &facts).filter(|s| s != system) else {
        return Some(ChcAnswer::NoProof(
            "no relational fact of the lists holds".into(),
        ));
    };
    Some(
        match chc::solve_checked(&seeded, configurations, limits, cancel)? {
            Solved::Model(model) => {
                let Some(model) = with_facts(system, &model, &facts) else {
                    return Some(ChcAnswer::NoProof(
                        "the model with the facts does not read back".into(),
                    ));
                };
                match chc::recheck(system, &model, limits, cancel)? {
                    Ok(()) => ChcAnswer::Proved(chc::proof(system, &model)),
                    Err(why) => ChcAnswer::NoProof(format!(
                        "the re-check of the model with the inductive facts rejected it ({why})"
                    )),
                }
            }
            Solved::Refuted => ChcAnswer::Refuted,
            Solved::NoModel(why) => ChcAnswer::NoProof(why),
        },
    )
}

/// Houdini over the candidates of [`horn_facts::candidates`]: the facts every clause
/// preserves, or why there are none. `None` if cancelled.
fn inductive_facts(
    system: &HornSystem,
    limits: ChcLimits,
    cancel: &AtomicBool,
) -> Option<Result<Facts, String>> {
    let mut facts = horn_facts::candidates(system);
    trace!(
        "inductive facts: Houdini starts on {} candidates",
        facts.iter().map(Vec::len).sum::<usize>()
    );
    let budget = HOUDINI_BUDGET.max(limits.budget / 4);
    let deadline = limits.deadline.min(Instant::now() + budget);
    for _ in 0..MAX_ROUNDS {
        if facts.iter().all(Vec::is_empty) {
            return Some(Err("no relational fact of the lists holds".into()));
        }
        let Some(round) = horn_facts::round_script(system, &facts, CHECK_MS) else {
            return Some(Err("a clause does not parse".into()));
        };
        if round.checks.is_empty() {
            return Some(Ok(facts));
        }
        let replies = match crate::solver::run_to_end(
            &round.script,
            (deadline, limits.memory_mib),
            limits.background,
            cancel,
        )? {
            ScriptOutcome::Replies(replies) => replies,
            ScriptOutcome::TimedOut => {
                return Some(Err("the inductive facts were not decided in time".into()));
            }
            ScriptOutcome::Failed(why) => return Some(Err(why)),
        };
        if replies.len() != round.checks.len() {
            return Some(Err(format!(
                "{} answers to {} checks of inductive facts",
                replies.len(),
                round.checks.len()
            )));
        }
        let unanswered = (replies.iter())
            .filter(|r| !r.is_atom("unsat") && !r.is_atom("sat"))
            .count();
        if unanswered > 0 {
            trace!("inductive facts: {unanswered} check(s) unanswered, their facts dropped");
        }
        let mut dropped: Vec<(usize, usize)> = (round.checks.iter().zip(&replies))
            .filter(|(_, reply)| !reply.is_atom("unsat"))
            .map(|(check, _)| *check)
            .collect();
        if dropped.is_empty() {
            return Some(Ok(facts));
        }
        dropped.sort_unstable();
        dropped.dedup();
        for (relation, fact) in dropped.into_iter().rev() {
            facts[relation].remove(fact);
        }
    }
    Some(Err("the inductive facts reached no fixpoint".into()))
}

/// `model` with each relation's facts conjoined to its definition (`true` where the
/// model has none); `None` if a definition does not read back.
fn with_facts(
    system: &HornSystem,
    model: &Interpretation,
    facts: &Facts,
) -> Option<Interpretation> {
    let mut out = model.clone();
    for (relation, facts) in system.relations.iter().zip(facts) {
        if facts.is_empty() || relation.defined_true {
            continue;
        }
        let name = chc::unbarred(&relation.name);
        let (params, body): (Vec<String>, String) = match model.get(name) {
            Some(definition) => (definition.params.clone(), definition.body.to_string()),
            None => (
                (0..relation.params.len())
                    .map(|i| format!("x!{i}"))
                    .collect(),
                "true".to_string(),
            ),
        };
        let bindings: Vec<String> = (params.iter().zip(&relation.params))
            .map(|(name, param)| format!("({name} {})", param.sort.text()))
            .collect();
        let conjuncts: Vec<String> = facts
            .iter()
            .map(|fact| horn_facts::instance(fact, &params))
            .collect();
        let text = format!(
            "(define-fun {} ({}) Bool (and {body} {}))",
            relation.name,
            bindings.join(" "),
            conjuncts.join(" ")
        );
        let definition = chc::definitions(&[parse_reply(&text).ok()?]);
        out.insert(name.to_string(), definition.into_values().next()?);
    }
    Some(out)
}
