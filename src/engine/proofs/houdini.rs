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

use crate::engine::search::backend::{Backend, CheckResult};
use crate::solver::SolverError;
use crate::vc::encode::{EncodedSite, Encoder, InstanceInputs};
use crate::vc::smt::Command;
use crate::vc::summaries::{Candidate, candidates};
use boogie_like::ir::{ProcId, Program as IrProgram, Type as IrType};
use easy_smt::{Context, SExpr};
use std::time::Instant;

/// The most solver checks Houdini may spend.
pub const MAX_CHECKS: usize = 400;

/// The most non-recursive callee instances one check inlines.
const MAX_INLINED_PER_CHECK: usize = 64;

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
/// `checks` counts the solver checks spent. Each check runs inside its own `push`/`pop`,
/// so its (possibly nonlinear) instance slows down neither later checks nor later queries.
pub fn infer<B: Backend + ?Sized>(
    ir: &IrProgram,
    encoder: &mut Encoder,
    backend: &mut B,
    deadline: Option<Instant>,
    checks: &mut usize,
) -> Result<Summaries, SolverError> {
    let all = candidates(ir);
    let mut done: Summaries = vec![Vec::new(); all.len()];
    let sccs = recursive_sccs(ir);
    let mut recursive = vec![false; all.len()];
    for proc in sccs.iter().flatten() {
        recursive[proc.0 as usize] = true;
    }
    // Callees first: an SCC's fixpoint relies only on final summaries of other SCCs.
    for scc in sccs {
        let mut current = done.clone();
        for proc in &scc {
            current[proc.0 as usize] = all[proc.0 as usize].clone();
        }
        match scc_fixpoint(
            ir, &scc, &recursive, current, encoder, backend, deadline, checks,
        )? {
            Some(fixed) => done = fixed,
            // Out of budget: what is done stays (each finished SCC is a fixpoint).
            None => return Ok(done),
        }
    }
    Ok(done)
}

/// The fixpoint for one SCC, or `None` if the budget ran out or the solver gave up.
#[allow(clippy::too_many_arguments)]
fn scc_fixpoint<B: Backend + ?Sized>(
    ir: &IrProgram,
    scc: &[ProcId],
    recursive: &[bool],
    mut current: Summaries,
    encoder: &mut Encoder,
    backend: &mut B,
    deadline: Option<Instant>,
    checks: &mut usize,
) -> Result<Option<Summaries>, SolverError> {
    loop {
        let mut changed = false;
        for &proc in scc {
            while !current[proc.0 as usize].is_empty() {
                *checks += 1;
                if *checks > MAX_CHECKS || deadline.is_some_and(|d| Instant::now() >= d) {
                    return Ok(None);
                }
                backend.push()?;
                let refuted = refute(ir, proc, &current, recursive, encoder, backend);
                backend.pop()?;
                match refuted? {
                    Refuted::None => break,
                    Refuted::Unknown => return Ok(None),
                    Refuted::Some(violated) => {
                        let list = &mut current[proc.0 as usize];
                        let before = list.len();
                        let mut index = 0;
                        list.retain(|_| {
                            index += 1;
                            !violated.contains(&(index - 1))
                        });
                        if list.len() == before {
                            return Ok(None);
                        }
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return Ok(Some(current));
        }
    }
}

/// The strongly connected components of the call graph that contain a cycle (recursion),
/// callees before callers. Only their call sites can stay open forever, so only they get
/// summaries; other procedures are inlined.
pub fn recursive_sccs(ir: &IrProgram) -> Vec<Vec<ProcId>> {
    let callees: Vec<Vec<usize>> = ir
        .procs
        .values()
        .map(|p| p.call_sites.values().map(|s| s.callee.0 as usize).collect())
        .collect();
    let sccs = tarjan(&callees);
    sccs.into_iter()
        .filter(|scc| scc.len() > 1 || callees[scc[0]].contains(&scc[0]))
        .map(|scc| scc.into_iter().map(|i| ProcId(i as u32)).collect())
        .collect()
}

/// Tarjan's SCC algorithm (iterative); components come out callees first.
fn tarjan(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = edges.len();
    let (mut index, mut low) = (vec![usize::MAX; n], vec![0; n]);
    let mut on_stack = vec![false; n];
    let (mut stack, mut out, mut next) = (Vec::new(), Vec::new(), 0);
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        while let Some((v, i)) = work.pop() {
            if i == 0 {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = edges[v].get(i) {
                work.push((v, i + 1));
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut scc = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    scc.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(scc);
            }
        }
    }
    out
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
fn refute<B: Backend + ?Sized>(
    ir: &IrProgram,
    proc: ProcId,
    current: &Summaries,
    recursive: &[bool],
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
    // Calls of recursive procedures are constrained by their summaries; calls of the others
    // are inlined (up to a budget; beyond it they stay unconstrained, which is sound).
    let mut pending: Vec<EncodedSite> = instance.sites.clone();
    let mut inlined = 0;
    while let Some(site) = pending.pop() {
        if recursive[site.callee.0 as usize] || inlined >= MAX_INLINED_PER_CHECK {
            if let Some(summary) = site_summary(terms, current, &site) {
                commands.push(Command::Assert(terms.imp(active, summary)));
            }
            continue;
        }
        inlined += 1;
        let callee = encoder.inline_site(terms, &site, &mut commands);
        pending.extend(callee.sites);
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
