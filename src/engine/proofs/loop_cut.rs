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
//! `¬cond`. So the loop can be *cut*, as Boogie verifies loops: each call of `L` from
//! elsewhere becomes "run the head on the arguments; on a branch of its own, check one
//! iteration (havoc the state and the globals `L` modifies, assume the head and `cond`,
//! run `B` — its inner loops cut the same way — check the head on the new state, stop);
//! havoc the state and globals; assume the head and `¬cond`". The iteration check runs
//! in the caller's context, so facts about what the loop does not modify (a map filled
//! by an earlier loop) hold in it, as in Boogie. When the cut program is VERIFIED, the
//! original program is: a failing run fails either outside the loops (the cut call sites
//! allow every normal return of `L`) or in some iteration of some loop, which starts at a
//! head that passed and in the same context (the iteration check covers every such
//! state).
//!
//! Guarantee: [`cut`] changes only calls of loops of exactly that shape with at least one
//! head formula, and answers `None` when there is no such call.

use boogie_like::ir::{Block, CallSiteId, Expr, LocalId, ProcId, Procedure, Program, Stmt, Var};
use std::collections::{HashMap, HashSet};

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

/// The program with every call of a loop with invariants cut (from outside the loop),
/// each cut call carrying its loop's iteration check, and the names of the loops cut.
/// `None` when no such call exists.
pub fn cut(ir: &Program) -> Option<(Program, Vec<String>)> {
    let loops: HashMap<ProcId, Loop> = ir
        .procs
        .ids()
        .filter_map(|p| loop_shape(ir, p))
        .map(|l| (l.proc, l))
        .collect();
    let known = &loops;
    let mut names: Vec<String> = ir
        .procs
        .iter()
        .flat_map(|(id, p)| {
            p.call_sites
                .values()
                .filter(move |s| s.callee != id && known.contains_key(&s.callee))
        })
        .map(|s| ir.procs[s.callee].name.clone())
        .collect();
    if names.is_empty() {
        return None;
    }
    names.sort();
    names.dedup();
    let mut whole = ir.clone();
    for proc in ir.procs.ids() {
        let body = ir.procs[proc].body.clone();
        let cut_body = cut_calls(&mut whole, proc, &body, &loops, &[proc]);
        whole.set_body(proc, cut_body);
    }
    Some((whole, names))
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

/// `block` of `proc` with every call of a loop cut, except calls of the loops in `inside`
/// (`proc` itself, and the loops whose iterations are being moved into `proc`).
fn cut_calls(
    ir: &mut Program,
    proc: ProcId,
    block: &[Stmt],
    loops: &HashMap<ProcId, Loop>,
    inside: &[ProcId],
) -> Block {
    let mut out = Vec::with_capacity(block.len());
    for stmt in block {
        match stmt {
            Stmt::Call(site) => {
                let callee = ir.procs[proc].call_sites[*site].callee;
                match loops.get(&callee) {
                    Some(l) if !inside.contains(&callee) => {
                        out.extend(cut_call(ir, proc, *site, (l, loops), inside));
                    }
                    _ => out.push(stmt.clone()),
                }
            }
            Stmt::If { cond, then, else_ } => {
                let then = cut_calls(ir, proc, then, loops, inside);
                let else_ = cut_calls(ir, proc, else_, loops, inside);
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

/// The statements that replace call `site` of `proc` to loop `l` (Boogie's loop cut, in
/// the caller's context): the arguments into fresh locals and the head run on them; then,
/// on a nondeterministic branch that ends in `assume false`, one iteration from any state
/// satisfying the head and `cond` (the state and `l`'s modified globals havocked), its
/// inner loops cut, and the head checked on the new state; then the state and globals
/// havocked, the head and `¬cond` assumed.
fn cut_call(
    ir: &mut Program,
    proc: ProcId,
    site: CallSiteId,
    (l, loops): (&Loop, &HashMap<ProcId, Loop>),
    inside: &[ProcId],
) -> Block {
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
    // On entry the state is the arguments; at any later head it is the call's results.
    let mut before: HashMap<LocalId, Expr> = HashMap::new();
    let mut state: HashMap<LocalId, Var> = HashMap::new();
    for (i, param) in callee.params.iter().enumerate() {
        before.insert(*param, temps[i].clone());
        if let Some(j) = i.checked_sub(l.shared) {
            state.insert(*param, call.rets[j]);
        }
    }
    for (j, ret) in callee.returns.iter().enumerate() {
        before.insert(*ret, temps[l.shared + j].clone());
        state.insert(*ret, call.rets[j]);
    }
    for (id, local) in callee.locals.iter() {
        if !state.contains_key(&id) && !before.contains_key(&id) {
            state.insert(id, Var::Local(ir.fresh_local(proc, &local.name, local.ty)));
        }
    }
    let mut after: HashMap<LocalId, Expr> = callee.params[..l.shared]
        .iter()
        .map(|p| (*p, before[p].clone()))
        .collect();
    after.extend(state.iter().map(|(l, v)| (*l, Expr::Var(*v))));
    for stmt in &l.head {
        out.push(substituted(ir, proc, &callee, stmt, &before));
    }
    // State the iteration never writes keeps its entry value at every head (Boogie
    // havocs only a loop's targets): it is assigned, not havocked.
    let written = written_locals(&callee, &l.body);
    let mut havocked = Vec::new();
    for (j, ret) in callee.returns.iter().enumerate() {
        if written.contains(ret) {
            havocked.push(call.rets[j]);
        } else {
            out.push(Stmt::Assign(call.rets[j], temps[l.shared + j].clone()));
        }
    }
    havocked.extend(callee.modifies.iter().map(|g| Var::Global(*g)));
    // A loop that changes nothing has nothing to havoc (an empty `havoc` is ill-formed IR).
    let havoc = |vars: &Vec<Var>| (!vars.is_empty()).then(|| Stmt::Havoc(vars.clone()));
    let mut iteration: Vec<Stmt> = havoc(&havocked).into_iter().collect();
    for stmt in &l.head {
        iteration.push(assumed(substituted(ir, proc, &callee, stmt, &after)));
    }
    let enter = Stmt::Assume(l.cond.clone());
    iteration.push(substituted(ir, proc, &callee, &enter, &after));
    let moved_body = moved_block(ir, proc, &callee, &l.body, (&after, &state));
    let mut within = inside.to_vec();
    within.push(l.proc);
    iteration.extend(cut_calls(ir, proc, &moved_body, loops, &within));
    for stmt in &l.head {
        iteration.push(substituted(ir, proc, &callee, stmt, &after));
    }
    iteration.push(Stmt::Assume(Expr::Bool(false)));
    let choice = ir.fresh_local(proc, "iteration", boogie_like::ir::Type::Bool);
    out.push(Stmt::Havoc(vec![Var::Local(choice)]));
    out.push(Stmt::If {
        cond: Expr::Var(Var::Local(choice)),
        then: iteration,
        else_: Vec::new(),
    });
    out.extend(havoc(&havocked));
    for stmt in &l.head {
        out.push(assumed(substituted(ir, proc, &callee, stmt, &after)));
    }
    let exit = Stmt::Assume(Expr::unary(boogie_like::ir::UnOp::Not, l.cond.clone()));
    out.push(substituted(ir, proc, &callee, &exit, &after));
    out
}

/// The locals of `p` that `block` assigns, havocs or receives a call's result in.
fn written_locals(p: &Procedure, block: &[Stmt]) -> HashSet<LocalId> {
    let mut targets: Vec<Var> = Vec::new();
    let mut written = HashSet::new();
    for stmt in block {
        match stmt {
            Stmt::Assign(target, _) => targets.push(*target),
            Stmt::Havoc(vars) => targets.extend(vars),
            Stmt::Call(site) => targets.extend(&p.call_sites[*site].rets),
            Stmt::If { then, else_, .. } => {
                written.extend(written_locals(p, then));
                written.extend(written_locals(p, else_));
            }
            Stmt::Assume(_) | Stmt::Assert { .. } | Stmt::Return => {}
        }
    }
    written.extend(targets.into_iter().filter_map(|v| match v {
        Var::Local(l) => Some(l),
        Var::Global(_) => None,
    }));
    written
}

/// `block` of `callee` moved into `proc`: expressions over `values`, assignments and
/// havocs to `vars`, calls re-created as call sites of `proc`.
fn moved_block(
    ir: &mut Program,
    proc: ProcId,
    callee: &Procedure,
    block: &[Stmt],
    (values, vars): (&HashMap<LocalId, Expr>, &HashMap<LocalId, Var>),
) -> Block {
    let var = |v: &Var| match v {
        Var::Local(l) => vars.get(l).copied().unwrap_or(*v),
        Var::Global(_) => *v,
    };
    let mut out = Vec::with_capacity(block.len());
    for stmt in block {
        let mut values = values.clone();
        out.push(match stmt {
            Stmt::Assign(target, e) => {
                Stmt::Assign(var(target), moved(ir, proc, callee, e, &mut values))
            }
            Stmt::Havoc(targets) => Stmt::Havoc(targets.iter().map(var).collect()),
            Stmt::Call(site) => {
                let cs = &callee.call_sites[*site];
                let args = cs
                    .args
                    .iter()
                    .map(|a| moved(ir, proc, callee, a, &mut values))
                    .collect();
                let rets = cs.rets.iter().map(var).collect();
                ir.procs[proc].add_call(cs.callee, args, rets, cs.source)
            }
            Stmt::If { cond, then, else_ } => Stmt::If {
                cond: moved(ir, proc, callee, cond, &mut values),
                then: moved_block(ir, proc, callee, then, (&values, vars)),
                else_: moved_block(ir, proc, callee, else_, (&values, vars)),
            },
            other => substituted(ir, proc, callee, other, &values),
        });
    }
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

/// `e` of `callee` moved into `proc` (see [`substituted`]).
fn moved(
    ir: &mut Program,
    proc: ProcId,
    callee: &Procedure,
    e: &Expr,
    values: &mut HashMap<LocalId, Expr>,
) -> Expr {
    let mut e = e.clone();
    rewrite(ir, (proc, callee), &mut e, values);
    e
}

fn rewrite(
    ir: &mut Program,
    (proc, callee): (ProcId, &Procedure),
    e: &mut Expr,
    values: &mut HashMap<LocalId, Expr>,
) {
    stacker::maybe_grow(32 * 1024, 1024 * 1024, || match e {
        Expr::Var(Var::Local(l)) => {
            if let Some(value) = values.get(&*l).cloned() {
                *e = value;
            }
        }
        Expr::Int(_) | Expr::Bool(_) | Expr::Var(Var::Global(_)) => {}
        Expr::Quant { vars, body, .. } => {
            for v in vars.iter_mut() {
                let local = &callee.locals[*v];
                let fresh = ir.fresh_local(proc, &local.name, local.ty);
                values.insert(*v, Expr::Var(Var::Local(fresh)));
                *v = fresh;
            }
            rewrite(ir, (proc, callee), body, values);
        }
        Expr::Unary { arg, .. }
        | Expr::Is { arg, .. }
        | Expr::Select { arg, .. }
        | Expr::MapConst { value: arg, .. } => rewrite(ir, (proc, callee), arg, values),
        Expr::Binary { lhs, rhs, .. } => {
            rewrite(ir, (proc, callee), lhs, values);
            rewrite(ir, (proc, callee), rhs, values);
        }
        Expr::MapGet { map, index } => {
            rewrite(ir, (proc, callee), map, values);
            rewrite(ir, (proc, callee), index, values);
        }
        Expr::MapSet { map, index, value } => {
            rewrite(ir, (proc, callee), map, values);
            rewrite(ir, (proc, callee), index, values);
            rewrite(ir, (proc, callee), value, values);
        }
        Expr::Ite { cond, then, else_ } => {
            rewrite(ir, (proc, callee), cond, values);
            rewrite(ir, (proc, callee), then, values);
            rewrite(ir, (proc, callee), else_, values);
        }
        Expr::Ctor { args, .. } => args
            .iter_mut()
            .for_each(|a| rewrite(ir, (proc, callee), a, values)),
    })
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
    fn a_loop_with_a_head_is_cut_and_checked_one_iteration_at_a_time_in_context() {
        let (cut_program, names) = cut(&program("i := i + 1;")).expect("cut");
        assert_eq!(names, ["main#loop1"]);
        let text = boogie_like::print(&cut_program);
        assert!(boogie_like::verify(&cut_program).is_ok(), "{text}");
        assert!(cut(&cut_program).is_none(), "{text}");
        // The entry no longer calls the loop: it checks the head on entry, one iteration
        // (which increments its own copy of `i`), and assumes the exit.
        let main = cut_program.proc_by_name("main").expect("main");
        assert!(cut_program.procs[main].call_sites.is_empty(), "{text}");
        assert!(text.contains("assume !(i < n#arg);"), "{text}");
        assert!(text.contains("i := i + 1;"), "{text}");
    }

    #[test]
    fn a_loop_that_returns_from_its_body_is_not_cut() {
        assert!(cut(&program("if (i == 3) { return; } i := i + 1;")).is_none());
    }
}
