//! Loop invariants as a proof (issue 33): Boogie's own way of verifying a loop, on the
//! IR's loop procedures.
//!
//! A Boogie `while` loop becomes a procedure `L(shared…, state#in…) returns (state…)` of
//! the shape
//!
//! ```text
//! state := state#in; …            (the copies)
//! assert I1; assume I1; …         (the head: the invariants, checked then assumed)
//! if (cond) { B; call state… := L(shared…, state…); }
//! ```
//!
//! where `B` neither returns nor calls `L`. Every normal return of such an `L` ends at a
//! head whose checks passed with `cond` false: its results satisfy every head formula and
//! `¬cond`. So the loop can be *cut*: each call of `L` outside `L` becomes "run the head
//! on the arguments; havoc the state and the globals `L` modifies; assume the head and
//! `¬cond` on the results", and one more program checks a single iteration from any state
//! that satisfies the head (`assume head; assume cond; B; run the head on the new
//! state`). When the cut program and every iteration check are VERIFIED, the original
//! program is: a failing run fails either outside the loops (the cut call sites
//! over-approximate every normal return of `L`) or within some iteration of some loop
//! (that iteration starts at a head that passed, which the iteration check starts from
//! with every value).
//!
//! Guarantee: [`cut`] returns programs only for loops of exactly that shape with at least
//! one head formula, and only when some call of such a loop is cut; none of the programs
//! it returns has a cuttable call left, so [`cut`] of them is `None`.

use boogie_like::ir::{Block, CallSiteId, Expr, LocalId, ProcId, Procedure, Program, Stmt, Var};
use std::collections::HashMap;

/// A loop procedure of the shape above.
#[derive(Clone, Debug)]
struct Loop {
    proc: ProcId,
    /// How many leading parameters are passed unchanged (the rest are the state's).
    shared: usize,
    /// The head: asserts and assumes, over the procedure's locals.
    head: Vec<Stmt>,
    cond: Expr,
    /// The iteration before the recursive call.
    body: Block,
}

/// The programs whose VERIFIED verdicts together prove `ir`: first the cut program (same
/// entry), then one iteration check per cut loop, each with the loop's name. `None` when
/// no call of a loop with invariants can be cut.
pub fn cut(ir: &Program) -> Option<Vec<(String, Program)>> {
    let loops: HashMap<ProcId, Loop> = ir
        .procs
        .ids()
        .filter_map(|p| loop_shape(ir, p))
        .map(|l| (l.proc, l))
        .collect();
    let called = ir.procs.iter().any(|(id, p)| {
        p.call_sites
            .values()
            .any(|s| s.callee != id && loops.contains_key(&s.callee))
    });
    if !called {
        return None;
    }
    let mut whole = ir.clone();
    for proc in ir.procs.ids() {
        let body = ir.procs[proc].body.clone();
        let cut_body = cut_calls(&mut whole, proc, &body, &loops);
        whole.set_body(proc, cut_body);
    }
    let mut programs = vec![(String::new(), whole.clone())];
    let mut ids: Vec<&ProcId> = loops.keys().collect();
    ids.sort();
    for id in ids {
        let l = &loops[id];
        let mut check = whole.clone();
        let p = &ir.procs[l.proc];
        let mut body: Block = p.body[..p.returns.len()].to_vec();
        // Any globals: an iteration may start from every state.
        let mut globals: Vec<_> = p.reads.iter().chain(&p.modifies).copied().collect();
        globals.sort();
        globals.dedup();
        if !globals.is_empty() {
            body.push(Stmt::Havoc(
                globals.iter().map(|g| Var::Global(*g)).collect(),
            ));
        }
        body.extend(l.head.iter().map(|s| assumed(s.clone())));
        body.push(Stmt::Assume(l.cond.clone()));
        body.extend(cut_calls(&mut check, l.proc, &l.body, &loops));
        // The next head: its state parameters are the state now.
        let next: HashMap<LocalId, Expr> = p.params[l.shared..]
            .iter()
            .zip(&p.returns)
            .map(|(param, ret)| (*param, Expr::Var(Var::Local(*ret))))
            .collect();
        for stmt in &l.head {
            body.push(substituted(&mut check, l.proc, p, stmt, &next));
        }
        body.push(Stmt::Assume(Expr::Bool(false)));
        let proc = &mut check.procs[l.proc];
        proc.modifies = globals;
        proc.reads.clear();
        check.set_body(l.proc, body);
        check.set_entrypoint(l.proc);
        programs.push((p.name.clone(), check));
    }
    Some(programs)
}

/// An assert as an assume (the head's formulas, assumed where an iteration starts).
fn assumed(stmt: Stmt) -> Stmt {
    match stmt {
        Stmt::Assert { cond, .. } => Stmt::Assume(cond),
        other => other,
    }
}

/// `proc` as a [`Loop`], if it has the shape (and a head).
fn loop_shape(ir: &Program, proc: ProcId) -> Option<Loop> {
    let p = &ir.procs[proc];
    if p.entrypoint || p.returns.is_empty() || p.params.len() < p.returns.len() {
        return None;
    }
    let shared = p.params.len() - p.returns.len();
    let copies = p.returns.len();
    for (j, ret) in p.returns.iter().enumerate() {
        let copy = Stmt::Assign(
            Var::Local(*ret),
            Expr::Var(Var::Local(p.params[shared + j])),
        );
        if p.body.get(j) != Some(&copy) {
            return None;
        }
    }
    let rest = &p.body[copies..];
    let head_len = rest
        .iter()
        .take_while(|s| matches!(s, Stmt::Assert { .. } | Stmt::Assume(_)))
        .count();
    let head = rest[..head_len].to_vec();
    let [Stmt::If { cond, then, else_ }] = &rest[head_len..] else {
        return None;
    };
    if head.is_empty() || !else_.is_empty() {
        return None;
    }
    let (Stmt::Call(site), body) = then.split_last()? else {
        return None;
    };
    let site = &p.call_sites[*site];
    let mut expected: Vec<Expr> = p.params[..shared]
        .iter()
        .map(|l| Expr::Var(Var::Local(*l)))
        .collect();
    expected.extend(p.returns.iter().map(|l| Expr::Var(Var::Local(*l))));
    let rets: Vec<Var> = p.returns.iter().map(|l| Var::Local(*l)).collect();
    if site.callee != proc || site.args != expected || site.rets != rets {
        return None;
    }
    if !plain(p, proc, body) {
        return None;
    }
    Some(Loop {
        proc,
        shared,
        head,
        cond: cond.clone(),
        body: body.to_vec(),
    })
}

/// No `return` and no call of `proc` anywhere in `block`.
fn plain(p: &Procedure, proc: ProcId, block: &[Stmt]) -> bool {
    block.iter().all(|s| match s {
        Stmt::Return => false,
        Stmt::Call(site) => p.call_sites[*site].callee != proc,
        Stmt::If { then, else_, .. } => plain(p, proc, then) && plain(p, proc, else_),
        _ => true,
    })
}

/// `block` of `proc` with every call of a loop other than `proc` itself cut.
fn cut_calls(
    ir: &mut Program,
    proc: ProcId,
    block: &[Stmt],
    loops: &HashMap<ProcId, Loop>,
) -> Block {
    let mut out = Vec::with_capacity(block.len());
    for stmt in block {
        match stmt {
            Stmt::Call(site) => {
                let callee = ir.procs[proc].call_sites[*site].callee;
                match loops.get(&callee) {
                    Some(l) if callee != proc => out.extend(cut_call(ir, proc, *site, l)),
                    _ => out.push(stmt.clone()),
                }
            }
            Stmt::If { cond, then, else_ } => {
                let then = cut_calls(ir, proc, then, loops);
                let else_ = cut_calls(ir, proc, else_, loops);
                out.push(Stmt::If {
                    cond: cond.clone(),
                    then,
                    else_,
                });
            }
            other => out.push(other.clone()),
        }
    }
    out
}

/// The statements that replace call `site` of `proc` to loop `l`: the arguments into
/// fresh locals, the head on them, the state and `l`'s modified globals havocked, the head
/// and `¬cond` assumed of the results.
fn cut_call(ir: &mut Program, proc: ProcId, site: CallSiteId, l: &Loop) -> Block {
    let call = ir.procs[proc].call_sites[site].clone();
    let callee = ir.procs[l.proc].clone();
    let mut out = Vec::new();
    let mut temps = Vec::with_capacity(call.args.len());
    for (param, arg) in callee.params.iter().zip(&call.args) {
        let local = &callee.locals[*param];
        let base = format!("{}#arg", local.name);
        let temp = ir.fresh_local(proc, &base, local.ty);
        out.push(Stmt::Assign(Var::Local(temp), arg.clone()));
        temps.push(Expr::Var(Var::Local(temp)));
    }
    // On entry the state is the arguments; on return it is the results.
    let mut before: HashMap<LocalId, Expr> = HashMap::new();
    let mut after: HashMap<LocalId, Expr> = HashMap::new();
    for (i, param) in callee.params.iter().enumerate() {
        before.insert(*param, temps[i].clone());
        let value = match i.checked_sub(l.shared) {
            Some(j) => Expr::Var(call.rets[j]),
            None => temps[i].clone(),
        };
        after.insert(*param, value);
    }
    for (j, ret) in callee.returns.iter().enumerate() {
        before.insert(*ret, temps[l.shared + j].clone());
        after.insert(*ret, Expr::Var(call.rets[j]));
    }
    for stmt in &l.head {
        out.push(substituted(ir, proc, &callee, stmt, &before));
    }
    let mut havocked = call.rets.clone();
    havocked.extend(callee.modifies.iter().map(|g| Var::Global(*g)));
    out.push(Stmt::Havoc(havocked));
    for stmt in &l.head {
        out.push(assumed(substituted(ir, proc, &callee, stmt, &after)));
    }
    let exit = Stmt::Assume(Expr::unary(boogie_like::ir::UnOp::Not, l.cond.clone()));
    out.push(substituted(ir, proc, &callee, &exit, &after));
    out
}

/// A head statement of `callee` moved into `proc` with its locals replaced by `values`
/// (bound variables become fresh locals of `proc`).
fn substituted(
    ir: &mut Program,
    proc: ProcId,
    callee: &Procedure,
    stmt: &Stmt,
    values: &HashMap<LocalId, Expr>,
) -> Stmt {
    let mut values = values.clone();
    match stmt {
        Stmt::Assert { cond, source } => Stmt::Assert {
            cond: moved(ir, proc, callee, cond, &mut values),
            source: *source,
        },
        Stmt::Assume(cond) => Stmt::Assume(moved(ir, proc, callee, cond, &mut values)),
        other => other.clone(),
    }
}

fn moved(
    ir: &mut Program,
    proc: ProcId,
    callee: &Procedure,
    e: &Expr,
    values: &mut HashMap<LocalId, Expr>,
) -> Expr {
    match e {
        Expr::Var(Var::Local(l)) => values.get(l).cloned().unwrap_or_else(|| e.clone()),
        Expr::Int(_) | Expr::Bool(_) | Expr::Var(Var::Global(_)) => e.clone(),
        Expr::Unary { op, arg } => Expr::Unary {
            op: *op,
            arg: Box::new(moved(ir, proc, callee, arg, values)),
        },
        Expr::Binary { op, lhs, rhs } => Expr::Binary {
            op: *op,
            lhs: Box::new(moved(ir, proc, callee, lhs, values)),
            rhs: Box::new(moved(ir, proc, callee, rhs, values)),
        },
        Expr::Ite { cond, then, else_ } => Expr::Ite {
            cond: Box::new(moved(ir, proc, callee, cond, values)),
            then: Box::new(moved(ir, proc, callee, then, values)),
            else_: Box::new(moved(ir, proc, callee, else_, values)),
        },
        Expr::Ctor { ctor, args } => Expr::Ctor {
            ctor: *ctor,
            args: args
                .iter()
                .map(|a| moved(ir, proc, callee, a, values))
                .collect(),
        },
        Expr::Is { arg, ctor } => Expr::Is {
            arg: Box::new(moved(ir, proc, callee, arg, values)),
            ctor: *ctor,
        },
        Expr::Select { arg, field } => Expr::Select {
            arg: Box::new(moved(ir, proc, callee, arg, values)),
            field: *field,
        },
        Expr::MapConst { key, value } => Expr::MapConst {
            key: *key,
            value: Box::new(moved(ir, proc, callee, value, values)),
        },
        Expr::MapGet { map, index } => Expr::MapGet {
            map: Box::new(moved(ir, proc, callee, map, values)),
            index: Box::new(moved(ir, proc, callee, index, values)),
        },
        Expr::MapSet { map, index, value } => Expr::MapSet {
            map: Box::new(moved(ir, proc, callee, map, values)),
            index: Box::new(moved(ir, proc, callee, index, values)),
            value: Box::new(moved(ir, proc, callee, value, values)),
        },
        Expr::Quant { forall, vars, body } => {
            let fresh: Vec<LocalId> = vars
                .iter()
                .map(|v| {
                    let local = &callee.locals[*v];
                    let fresh = ir.fresh_local(proc, &local.name, local.ty);
                    values.insert(*v, Expr::Var(Var::Local(fresh)));
                    fresh
                })
                .collect();
            Expr::Quant {
                forall: *forall,
                vars: fresh,
                body: Box::new(moved(ir, proc, callee, body, values)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::cut;

    /// The IR of `while (i < n) invariant 0 <= i; { i := i + 1; }` in `main`, with `body`
    /// as the loop's iteration.
    fn program(body: &str) -> boogie_like::ir::Program {
        let text = format!(
            "procedure {{:entrypoint}} main(n: int) {{
  var i: int;
  i := 0;
  call i := main#loop1(n, i);
  assert i >= n;
}}
procedure main#loop1(n: int, i#in: int) returns (i: int) {{
  i := i#in;
  assert 0 <= i;
  assume 0 <= i;
  if (i < n) {{
    {body}
    call i := main#loop1(n, i);
  }}
}}
"
        );
        boogie_like::parse(&text).expect("parses")
    }

    #[test]
    fn a_loop_with_a_head_is_cut_once_and_checked_one_iteration_at_a_time() {
        let programs = cut(&program("i := i + 1;")).expect("cut");
        let names: Vec<&str> = programs.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["", "main#loop1"]);
        for (_, p) in &programs {
            assert!(boogie_like::verify(p).is_ok(), "{}", boogie_like::print(p));
            assert!(cut(p).is_none(), "{}", boogie_like::print(p));
        }
        // The cut program's entry no longer calls the loop; the check's entry is the loop,
        // which no longer calls itself.
        for (program, name) in [(&programs[0].1, "main"), (&programs[1].1, "main#loop1")] {
            let proc = program.proc_by_name(name).expect("procedure");
            assert!(program.procs[proc].call_sites.is_empty(), "{name}");
            assert!(program.procs[proc].entrypoint, "{name}");
        }
    }

    #[test]
    fn a_loop_that_returns_from_its_body_is_not_cut() {
        assert!(cut(&program("if (i == 3) { return; } i := i + 1;")).is_none());
    }
}
