//! Houdini: which candidate summaries hold for every call (CORRAL §4, Flanagan–Leino).
//!
//! Start from all candidates of [`crate::vc::summaries::candidates`]; for each procedure,
//! ask whether an instance of it — with every call inside constrained by the callees'
//! current candidates — can return normally while violating one of its own candidates.
//! Drop the candidates the model violates and repeat until nothing changes.
//!
//! Guarantee: the result holds of every call that returns, at any depth (by induction on
//! the height of the call tree: a call returns only after its calls returned, and the
//! fixpoint is inductive). Only a fixpoint is sound: if the budget runs out or the solver
//! answers `unknown`, every summary is dropped. Each check is guarded by a fresh activation
//! literal (also the instance's entry condition), so nothing it asserts constrains later
//! queries.

use super::backend::{Backend, CheckResult};
use crate::solver::SolverError;
use crate::vc::encode::{EncodedSite, Encoder, InstanceInputs};
use crate::vc::smt::Command;
use crate::vc::summaries::{Candidate, candidates};
use boogie_like::ir::{ProcId, Program as IrProgram, Type as IrType};
use easy_smt::{Context, SExpr};
use std::time::Instant;

/// The most solver checks Houdini may spend.
pub const MAX_CHECKS: usize = 400;

/// The summaries that hold, by `ProcId` index (empty: nothing known).
pub type Summaries = Vec<Vec<Candidate>>;

/// `(b ∧ ¬f) ⇒ S_callee(args, rets)` for a call site, if the callee has a summary.
pub fn site_summary(terms: &Context, summaries: &Summaries, site: &EncodedSite) -> Option<SExpr> {
    let facts = &summaries[site.callee.0 as usize];
    if facts.is_empty() {
        return None;
    }
    let holds = conjunction(
        terms,
        facts
            .iter()
            .map(|c| c.instantiate(terms, &site.args, &site.rets))
            .collect(),
    );
    let returns = terms.and(site.reach, terms.not(site.fail));
    Some(terms.imp(returns, holds))
}

/// Runs Houdini to its fixpoint; all summaries empty when it cannot finish in budget.
/// `checks` counts the solver checks spent. Everything it sends is popped afterwards, so
/// its (possibly nonlinear) instances do not slow down later queries.
pub fn infer<B: Backend>(
    ir: &IrProgram,
    encoder: &mut Encoder,
    backend: &mut B,
    deadline: Option<Instant>,
    checks: &mut usize,
) -> Result<Summaries, SolverError> {
    backend.push()?;
    let result = fixpoint(ir, encoder, backend, deadline, checks);
    backend.pop()?;
    result
}

fn fixpoint<B: Backend>(
    ir: &IrProgram,
    encoder: &mut Encoder,
    backend: &mut B,
    deadline: Option<Instant>,
    checks: &mut usize,
) -> Result<Summaries, SolverError> {
    let mut current = candidates(ir);
    let nothing: Summaries = vec![Vec::new(); current.len()];
    loop {
        let mut changed = false;
        for (proc, _) in ir.procs.iter() {
            loop {
                if current[proc.0 as usize].is_empty() {
                    break;
                }
                *checks += 1;
                if *checks > MAX_CHECKS || deadline.is_some_and(|d| Instant::now() >= d) {
                    return Ok(nothing);
                }
                match refute(ir, proc, &current, encoder, backend)? {
                    Refuted::None => break,
                    Refuted::Unknown => return Ok(nothing),
                    Refuted::Some(violated) => {
                        let list = &mut current[proc.0 as usize];
                        let before = list.len();
                        let mut index = 0;
                        list.retain(|_| {
                            index += 1;
                            !violated.contains(&(index - 1))
                        });
                        if list.len() == before {
                            return Ok(nothing);
                        }
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return Ok(current);
        }
    }
}

/// `(and terms...)`, without a unary `and`.
fn conjunction(terms: &Context, mut items: Vec<SExpr>) -> SExpr {
    match items.len() {
        0 => terms.true_(),
        1 => items.pop().expect("one item"),
        _ => terms.and_many(items),
    }
}

enum Refuted {
    None,
    /// Indices of the candidates the model violates.
    Some(Vec<usize>),
    Unknown,
}

/// One check: can `proc` return normally violating one of its current candidates?
fn refute<B: Backend>(
    ir: &IrProgram,
    proc: ProcId,
    current: &Summaries,
    encoder: &mut Encoder,
    backend: &mut B,
) -> Result<Refuted, SolverError> {
    let mut commands = Vec::new();
    let terms = backend.terms();
    let active = encoder.fresh(terms, "houdini", IrType::Bool, &mut commands);
    let p = &ir.procs[proc];
    let args: Vec<SExpr> = p
        .params
        .iter()
        .map(|l| encoder.fresh(terms, "hp", p.locals[*l].ty, &mut commands))
        .collect();
    let globals = p
        .reads
        .iter()
        .chain(&p.modifies)
        .map(|g| {
            (
                *g,
                encoder.fresh(terms, "hg", ir.globals[*g].ty, &mut commands),
            )
        })
        .collect();
    let inputs = InstanceInputs {
        args: args.clone(),
        globals,
        entry: active,
    };
    let instance = encoder.instance(terms, proc, &inputs, &mut commands);
    for site in &instance.sites {
        if let Some(summary) = site_summary(terms, current, site) {
            commands.push(Command::Assert(terms.imp(active, summary)));
        }
    }
    let candidate_terms: Vec<SExpr> = current[proc.0 as usize]
        .iter()
        .map(|c| c.instantiate(terms, &args, &instance.rets))
        .collect();
    let all_hold = conjunction(terms, candidate_terms.clone());
    let goal = terms.and(terms.not(instance.fail), terms.not(all_hold));
    commands.push(Command::Assert(terms.imp(active, goal)));
    backend.send(commands)?;
    match backend.check(&[active])? {
        CheckResult::Unsat => Ok(Refuted::None),
        CheckResult::Unknown { .. } => Ok(Refuted::Unknown),
        CheckResult::Sat => {
            let values = backend.values(&candidate_terms)?;
            Ok(Refuted::Some(
                values
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| v.as_bool() != Some(true))
                    .map(|(i, _)| i)
                    .collect(),
            ))
        }
    }
}
