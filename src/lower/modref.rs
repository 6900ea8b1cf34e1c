//! Mod/ref analysis: which globals each procedure reads and writes.
//!
//! Guarantee: after [`annotate`], every procedure's `modifies` lists every global it or any
//! procedure it may call (transitively) assigns, and its `reads` every other global it or they
//! read — the sets the IR verifier checks. Sets are sorted, so output is deterministic.

use boogie_like::ir::{self, GlobalId, ProcId, Program as IrProgram, Stmt, Var};
use std::collections::BTreeSet;

#[derive(Default, Clone)]
struct Effects {
    reads: BTreeSet<GlobalId>,
    writes: BTreeSet<GlobalId>,
    callees: BTreeSet<ProcId>,
}

/// Fills in `reads` and `modifies` of every procedure.
pub fn annotate(program: &mut IrProgram) {
    let mut effects: Vec<Effects> = program.procs.values().map(direct_effects).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..effects.len() {
            let callees: Vec<ProcId> = effects[i].callees.iter().copied().collect();
            for callee in callees {
                let (reads, writes) = {
                    let c = &effects[callee.0 as usize];
                    (c.reads.clone(), c.writes.clone())
                };
                let e = &mut effects[i];
                let before = e.reads.len() + e.writes.len();
                e.reads.extend(reads);
                e.writes.extend(writes);
                changed |= e.reads.len() + e.writes.len() != before;
            }
        }
    }
    for ((_, proc), e) in program.procs.iter_mut().zip(effects) {
        // A global in `modifies` may be read too; `reads` lists only the others.
        proc.reads = e.reads.difference(&e.writes).copied().collect();
        proc.modifies = e.writes.into_iter().collect();
    }
}

fn direct_effects(proc: &ir::Procedure) -> Effects {
    let mut effects = Effects::default();
    let read = |e: &ir::Expr, effects: &mut Effects| {
        e.for_each_var(&mut |v| {
            if let Var::Global(g) = v {
                effects.reads.insert(g);
            }
        })
    };
    ir::for_each_stmt(&proc.body, &mut |stmt| match stmt {
        Stmt::Assign(target, value) => {
            if let Var::Global(g) = target {
                effects.writes.insert(*g);
            }
            read(value, &mut effects);
        }
        Stmt::Havoc(vars) => {
            for v in vars {
                if let Var::Global(g) = v {
                    effects.writes.insert(*g);
                }
            }
        }
        Stmt::Assume(e) | Stmt::Assert { cond: e, .. } | Stmt::If { cond: e, .. } => {
            read(e, &mut effects)
        }
        Stmt::Call(site) => {
            let site = &proc.call_sites[*site];
            effects.callees.insert(site.callee);
            for arg in &site.args {
                read(arg, &mut effects);
            }
            for ret in &site.rets {
                if let Var::Global(g) = ret {
                    effects.writes.insert(*g);
                }
            }
        }
        Stmt::Return => {}
    });
    effects
}
