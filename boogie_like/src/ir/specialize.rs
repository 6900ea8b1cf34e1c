//! Procedures specialised to the closures their callers pass.
//!
//! A higher-order function, once defunctionalized, takes its function argument as a value
//! of a closure datatype and dispatches on its constructor (`if (f is K_add) …`). One
//! relation per procedure then has to describe the procedure for *every* closure it is
//! called with: `iter n (add 3) 0` and `iter n (twice (add 3)) 1` from one `main` ask
//! `iter`'s summary to tell `3 · n` and `6 · n` apart by the closure's constructor, a
//! disjunctive fact Spacer rarely finds, while each call alone has a linear summary. So
//! [`specialize_known_closures`] gives every call site that passes a *known* constructor
//! term (`K_add(3)`, `K_twice(K_add(3))`, `K_add(step)`) a copy of its callee in which that
//! parameter is bound to the term at entry; the term's literals stay in the copy (so
//! `x + 3 · n` is linear), and its other leaves (`step`) become parameters of the copy,
//! passed by the call. Inside a copy the parameter is known too, so the calls it makes
//! with it (the recursive call of `iter`, the inner loop a function hands its argument
//! to) go to copies as well; a recursive call passing the parameter unchanged goes to the
//! copy itself.
//!
//! Which terms are known at a call site: a constructor application written as the
//! argument, or a local assigned exactly once in its procedure (by such a term) on every
//! path to the site, whose term reads only parameters (never assigned, as in Boogie) and
//! locals of the same kind (assigned once, before). Only datatypes that are not list-like
//! are specialised on (a list is data the measures of the Horn clauses follow, not code).
//! The copies are bounded ([`MAX_COPIES`], terms of at most [`MAX_DEPTH`] nested
//! constructors and [`MAX_HOLES`] parameters); past the bounds a call keeps its callee.
//!
//! Guarantee: the specialised program has exactly the runs of the original (the same
//! values, the same failures), its procedures' copies standing for the calls they
//! replace. A copy is its original with the parameter turned into a local assigned the
//! term at entry, the term's leaves read from the copy's new parameters; a call of the
//! copy passes the leaves' values at the site, so the parameter holds the value the
//! original call passed (for a term read through a local: the local's only assignment
//! precedes the site on every path and nothing it reads has changed since), and the
//! original never assigns a parameter, so the copy's body computes what the original's
//! would. The original procedures stay (a call past the bounds still uses them).

use super::{
    Block, CallSiteId, CtorId, DatatypeId, Expr, Local, LocalId, ProcId, Procedure, Program, Stmt,
    Type, Var,
};
use crate::arena::Arena;
use std::collections::{HashMap, HashSet};

/// At most this many copies in a program.
pub const MAX_COPIES: usize = 32;
/// At most this many constructors nested in a term specialised on.
pub const MAX_DEPTH: usize = 4;
/// At most this many leaves of a copy's terms become parameters.
pub const MAX_HOLES: usize = 6;

/// A known argument's shape: its constructors and literals; every other leaf is a hole, a
/// parameter of the copy.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Shape {
    Literal(Expr),
    Hole(Type),
    Ctor(CtorId, Vec<Shape>),
}

/// A copy's identity: the original callee and, per parameter, the shape it is bound to.
type Key = (ProcId, Vec<Option<Shape>>);

/// The program with calls that pass known constructor terms sent to copies of their
/// callees specialised to them, or `None` when no call passes one.
pub fn specialize_known_closures(program: &Program) -> Option<Program> {
    let specialised = specialised_datatypes(program);
    if specialised.is_empty() {
        return None;
    }
    let mut out = program.clone();
    let mut copies: HashMap<Key, ProcId> = HashMap::new();
    let mut queue: Vec<ProcId> = program.procs.ids().collect();
    let mut changed = false;
    while let Some(pid) = queue.pop() {
        let sites = known_arguments(&out, pid, &specialised);
        for (site, shapes, holes) in sites {
            // A site not yet rewritten names an original procedure (copies are made of
            // originals, and each procedure's sites are rewritten once).
            let original = out.procs[pid].call_sites[site].callee;
            let key: Key = (original, shapes.clone());
            let target = match copies.get(&key) {
                Some(&target) => target,
                None if copies.len() < MAX_COPIES => {
                    let copy = copy_of(program, original, &shapes, copies.len());
                    let target = out.procs.push(copy);
                    copies.insert(key, target);
                    queue.push(target);
                    target
                }
                None => continue,
            };
            let call = &mut out.procs[pid].call_sites[site];
            let args = std::mem::take(&mut call.args);
            call.args = args
                .into_iter()
                .zip(&holes)
                .flat_map(|(arg, holes)| match holes {
                    Some(holes) => holes.clone(),
                    None => vec![arg],
                })
                .collect();
            call.callee = target;
            changed = true;
        }
    }
    changed.then_some(out)
}

/// The datatypes a call may be specialised on: all but the list-like ones (two
/// constructors, one without fields, the other with a field of the datatype itself).
fn specialised_datatypes(program: &Program) -> HashSet<DatatypeId> {
    program
        .datatypes
        .iter()
        .filter(|(id, d)| {
            let list_like = d
                .nil_and_cons()
                .is_some_and(|(_, cons)| cons.fields.iter().any(|f| f.ty == Type::Data(*id)));
            !list_like
        })
        .map(|(id, _)| id)
        .collect()
}

/// A call site of `pid` (in `out`) with a known argument: the shapes of its arguments
/// (`None`: not specialised) and, per specialised argument, the expressions its holes are
/// filled with.
type KnownSite = (CallSiteId, Vec<Option<Shape>>, Vec<Option<Vec<Expr>>>);

fn known_arguments(
    out: &Program,
    pid: ProcId,
    specialised: &HashSet<DatatypeId>,
) -> Vec<KnownSite> {
    let proc = &out.procs[pid];
    let mut assignments: HashMap<LocalId, usize> = HashMap::new();
    let mut count = |v: &Var| {
        if let Var::Local(l) = v {
            *assignments.entry(*l).or_default() += 1;
        }
    };
    super::for_each_stmt(&proc.body, &mut |s| match s {
        Stmt::Assign(v, _) => count(v),
        Stmt::Havoc(vs) => vs.iter().for_each(&mut count),
        Stmt::Call(site) => proc.call_sites[*site].rets.iter().for_each(&mut count),
        _ => {}
    });
    let mut env = Env {
        known: HashMap::new(),
        stable: proc.params.iter().copied().collect(),
    };
    let mut found = Vec::new();
    let mut visit = |site: CallSiteId, env: &Env| {
        let call = &proc.call_sites[site];
        let Some(callee) = out.procs.get(call.callee) else {
            return;
        };
        if callee.params.len() != call.args.len() {
            return;
        }
        let mut shapes = Vec::with_capacity(call.args.len());
        let mut fillings = Vec::with_capacity(call.args.len());
        let mut any = false;
        let mut holes_total = 0;
        for arg in &call.args {
            let resolved = env.resolve(arg);
            let shaped = match resolved {
                Expr::Ctor { ctor, .. } if specialised.contains(&ctor.datatype) => {
                    let mut holes = Vec::new();
                    shape_of(out, proc, resolved, env, 0, &mut holes).map(|s| (s, holes))
                }
                _ => None,
            };
            match shaped {
                Some((shape, holes)) if holes_total + holes.len() <= MAX_HOLES => {
                    holes_total += holes.len();
                    shapes.push(Some(shape));
                    fillings.push(Some(holes));
                    any = true;
                }
                _ => {
                    shapes.push(None);
                    fillings.push(None);
                }
            }
        }
        if any {
            found.push((site, shapes, fillings));
        }
    };
    walk(&proc.body, &mut env, &assignments, &mut visit);
    found
}

/// What is known at a point of a procedure's body: locals bound to constructor terms, and
/// the locals whose value can no longer change (parameters; locals assigned once, after
/// their assignment).
#[derive(Clone)]
struct Env {
    known: HashMap<LocalId, Expr>,
    stable: HashSet<LocalId>,
}

impl Env {
    /// `e`, or the term a known local `e` is bound to.
    fn resolve<'e>(&'e self, e: &'e Expr) -> &'e Expr {
        match e {
            Expr::Var(Var::Local(l)) => self.known.get(l).unwrap_or(e),
            _ => e,
        }
    }

    /// Whether `e` reads only stable locals (no global, no quantifier).
    fn is_stable(&self, e: &Expr) -> bool {
        let mut stable = !e.has_quantifier();
        e.for_each_var(&mut |v| match v {
            Var::Local(l) => stable &= self.stable.contains(&l),
            Var::Global(_) => stable = false,
        });
        stable
    }
}

/// Walks `block` in order, telling `visit` about every call with what is known there.
fn walk(
    block: &Block,
    env: &mut Env,
    assignments: &HashMap<LocalId, usize>,
    visit: &mut impl FnMut(CallSiteId, &Env),
) {
    for stmt in block {
        match stmt {
            Stmt::Assign(Var::Local(l), e) if assignments.get(l) == Some(&1) => {
                // Its only assignment: its value no longer changes; it is known when the
                // term reads only values that no longer change either.
                if env.is_stable(e) && matches!(env.resolve(e), Expr::Ctor { .. }) {
                    env.known.insert(*l, env.resolve(e).clone());
                }
                env.stable.insert(*l);
            }
            Stmt::Call(site) => visit(*site, env),
            Stmt::If { then, else_, .. } => {
                stacker::maybe_grow(32 * 1024, 1024 * 1024, || {
                    walk(then, &mut env.clone(), assignments, visit);
                    walk(else_, &mut env.clone(), assignments, visit);
                });
            }
            _ => {}
        }
    }
}

/// The shape of the constructor term `e` (known locals read through), its holes' fillings
/// pushed onto `holes`; `None` past [`MAX_DEPTH`] or for a leaf of unknown type.
fn shape_of(
    program: &Program,
    proc: &Procedure,
    e: &Expr,
    env: &Env,
    depth: usize,
    holes: &mut Vec<Expr>,
) -> Option<Shape> {
    match env.resolve(e) {
        Expr::Ctor { ctor, args } => {
            if depth >= MAX_DEPTH {
                return None;
            }
            let args = args
                .iter()
                .map(|a| shape_of(program, proc, a, env, depth + 1, holes))
                .collect::<Option<Vec<_>>>()?;
            Some(Shape::Ctor(*ctor, args))
        }
        literal @ (Expr::Int(_) | Expr::Bool(_)) => Some(Shape::Literal(literal.clone())),
        leaf => {
            let ty = program.expr_type(proc, leaf)?;
            holes.push(leaf.clone());
            Some(Shape::Hole(ty))
        }
    }
}

/// The copy of `original` with the parameters of `shapes` bound to their terms; `index`
/// makes its name unique.
fn copy_of(
    program: &Program,
    original: ProcId,
    shapes: &[Option<Shape>],
    index: usize,
) -> Procedure {
    let proc = &program.procs[original];
    let mut locals: Arena<LocalId, Local> = Arena::new();
    let mut renamed: HashMap<LocalId, LocalId> = HashMap::new();
    let mut params = Vec::new();
    // Per specialised parameter: the term over the copy's new parameters.
    let mut bindings: Vec<(LocalId, Expr)> = Vec::new();
    let mut described = Vec::new();
    for (param, shape) in proc.params.iter().zip(shapes) {
        let local = &proc.locals[*param];
        match shape {
            None => {
                let new = locals.push(local.clone());
                renamed.insert(*param, new);
                params.push(new);
            }
            Some(shape) => {
                let mut holes = 0;
                let term = instantiate(shape, &mut |ty| {
                    holes += 1;
                    let new = locals.push(Local {
                        name: format!("{}~{}", local.name, holes),
                        ty,
                    });
                    params.push(new);
                    Expr::Var(Var::Local(new))
                });
                described.push(format!("{}~{}", local.name, describe(program, shape)));
                bindings.push((*param, term));
            }
        }
    }
    let returns: Vec<LocalId> = (proc.returns.iter())
        .map(|r| {
            let new = locals.push(proc.locals[*r].clone());
            renamed.insert(*r, new);
            new
        })
        .collect();
    for (id, local) in proc.locals.iter() {
        if !renamed.contains_key(&id) && !proc.params.contains(&id) {
            renamed.insert(id, locals.push(local.clone()));
        }
    }
    for (param, _) in &bindings {
        renamed.insert(*param, locals.push(proc.locals[*param].clone()));
    }
    let rename = |l: LocalId| renamed.get(&l).copied().unwrap_or(l);
    let mut copy = Procedure {
        name: format!("{}${}#{}", proc.name, described.join("$"), index + 1),
        params,
        returns,
        locals,
        modifies: proc.modifies.clone(),
        reads: proc.reads.clone(),
        entrypoint: false,
        body: proc.body.clone(),
        call_sites: proc.call_sites.clone(),
    };
    rename_locals(&mut copy, &rename);
    let entry = bindings
        .into_iter()
        .map(|(param, term)| Stmt::Assign(Var::Local(rename(param)), term));
    copy.body.splice(0..0, entry);
    copy
}

/// The term of `shape`, each hole filled by `fill(type)`.
fn instantiate(shape: &Shape, fill: &mut impl FnMut(Type) -> Expr) -> Expr {
    match shape {
        Shape::Literal(e) => e.clone(),
        Shape::Hole(ty) => fill(*ty),
        Shape::Ctor(ctor, args) => Expr::Ctor {
            ctor: *ctor,
            args: args.iter().map(|a| instantiate(a, fill)).collect(),
        },
    }
}

/// `K_add.3`, `K_twice.K_add._`: the shape as a part of a name (identifier characters
/// only: the copy of `iter` for `f = K_add(3)` is `iter$f~K_add.3#1`).
fn describe(program: &Program, shape: &Shape) -> String {
    match shape {
        Shape::Literal(Expr::Int(n)) => n.to_string().replace('-', "~"),
        Shape::Literal(Expr::Bool(b)) => b.to_string(),
        Shape::Literal(_) | Shape::Hole(_) => "_".to_string(),
        Shape::Ctor(ctor, args) => {
            let name = program.ctor(*ctor).map_or("?", |c| c.name.as_str());
            let parts = std::iter::once(name.to_string());
            let parts = parts.chain(args.iter().map(|a| describe(program, a)));
            parts.collect::<Vec<_>>().join(".")
        }
    }
}

/// Renames every local the procedure's statements and call sites mention.
fn rename_locals(proc: &mut Procedure, rename: &impl Fn(LocalId) -> LocalId) {
    let var = |v: &mut Var| {
        if let Var::Local(l) = v {
            *l = rename(*l);
        }
    };
    let expr = |e: &mut Expr| {
        e.rewrite_bottom_up(&mut |e| match e {
            Expr::Var(v) => var(v),
            Expr::Quant { vars, .. } => vars.iter_mut().for_each(|l| *l = rename(*l)),
            _ => {}
        })
    };
    proc.for_each_expr_mut(&mut |e| expr(e));
    for (_, site) in proc.call_sites.iter_mut() {
        site.rets.iter_mut().for_each(var);
    }
    fn targets(block: &mut Block, var: &impl Fn(&mut Var)) {
        for stmt in block {
            match stmt {
                Stmt::Assign(v, _) => var(v),
                Stmt::Havoc(vs) => vs.iter_mut().for_each(var),
                Stmt::If { then, else_, .. } => stacker::maybe_grow(32 * 1024, 1024 * 1024, || {
                    targets(then, var);
                    targets(else_, var);
                }),
                _ => {}
            }
        }
    }
    targets(&mut proc.body, &var);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `iter n f x` applies `f` n times; `main` iterates `add 3` and `twice (add k)`.
    const ITERATE: &str = "datatype Clo {\n\
          K_add(a: int),\n\
          K_twice(g: Clo)\n\
        }\n\
        procedure apply(f: Clo, x: int) returns (r: int) {\n\
          var r1: int;\n\
          if (f is K_add) { r := x + f->a; } else {\n\
            call r1 := apply(f->g, x); call r := apply(f->g, r1);\n\
          }\n\
        }\n\
        procedure iter(n: int, f: Clo, x: int) returns (r: int) {\n\
          var y: int;\n\
          if (n <= 0) { r := x; } else {\n\
            call y := apply(f, x); call r := iter(n - 1, f, y);\n\
          }\n\
        }\n\
        procedure {:entrypoint} Main(n: int, k: int) {\n\
          var r: int; var s: int; var inner: Clo;\n\
          call r := iter(n, K_add(3), 0);\n\
          assert n < 0 || r == 3 * n;\n\
          inner := K_add(k);\n\
          call s := iter(n, K_twice(inner), 1);\n\
          assert n < 0 || s == 2 * k * n + 1;\n\
        }\n";

    fn specialised(text: &str) -> Option<Program> {
        let program = crate::parse(text).expect("parses");
        let out = specialize_known_closures(&program)?;
        crate::verify(&out).expect("still a valid program");
        Some(out)
    }

    fn callees(program: &Program, proc: &str) -> Vec<String> {
        let proc = &program.procs[program.proc_by_name(proc).expect("exists")];
        let sites = proc.call_sites.values();
        sites
            .map(|s| program.procs[s.callee].name.clone())
            .collect()
    }

    #[test]
    fn each_known_closure_gets_a_copy_that_calls_itself() {
        let out = specialised(ITERATE).expect("Main passes known closures");
        let main = callees(&out, "Main");
        assert_eq!(main, ["iter$f~K_add.3#1", "iter$f~K_twice.K_add._#2"]);
        // The copy's recursive call passes `f` unchanged: the copy itself.
        assert_eq!(callees(&out, &main[0])[1], main[0]);
        assert_eq!(callees(&out, &main[1])[1], main[1]);
        // The literal stays in the copy; the other leaf is a parameter.
        let text = crate::print(&out);
        assert!(text.contains("f := K_add(3);"), "{text}");
        assert!(text.contains("f := K_twice(K_add(f~1));"), "{text}");
        assert!(text.contains("(n, k, 1);"), "{text}");
    }

    #[test]
    fn runs_agree_with_the_original() {
        let failing = ITERATE.replace("2 * k * n + 1", "2 * k * n");
        for (text, fails_somewhere) in [(ITERATE.to_string(), false), (failing, true)] {
            let program = crate::parse(&text).expect("parses");
            let out = specialize_known_closures(&program).expect("specialised");
            let mut failed_any = false;
            for n in -1..4 {
                for k in [-2, 0, 1, 5] {
                    let outcome = |p: &Program| {
                        let inputs = [crate::interp::Value::from(n), crate::interp::Value::from(k)];
                        let config = crate::interp::RunConfig::with_depth(12);
                        let run = crate::interp::run(p, &inputs, &config).expect("runs");
                        matches!(run.outcome, crate::interp::Outcome::Failure { .. })
                    };
                    let (before, after) = (outcome(&program), outcome(&out));
                    assert_eq!(before, after, "n = {n}, k = {k}");
                    failed_any |= after;
                }
            }
            assert_eq!(failed_any, fails_somewhere);
        }
    }

    /// A local assigned on one branch only, or twice, or from a value that changes later,
    /// is not known at a later call.
    #[test]
    fn a_local_not_assigned_once_before_the_call_is_not_known() {
        let on_a_branch = ITERATE.replace(
            "inner := K_add(k);",
            "inner := K_add(1); if (k > 0) { inner := K_add(k); }",
        );
        let out = specialised(&on_a_branch).expect("the first call still is");
        // `inner` is a hole of the copy, not a known `K_add`.
        assert_eq!(callees(&out, "Main")[1], "iter$f~K_twice._#2");
        let stale = "datatype Clo { K_add(a: int) }\n\
            procedure apply(f: Clo, x: int) returns (r: int) { r := x + f->a; }\n\
            procedure {:entrypoint} Main(k: int) {\n\
              var r: int; var c: Clo; var j: int;\n\
              j := k; c := K_add(j); j := 7;\n\
              call r := apply(c, 0);\n\
              assert r == k;\n\
            }\n";
        assert!(specialised(stale).is_none());
    }

    /// Lists are data the measures follow: a call passing `cons(…)` keeps its callee.
    #[test]
    fn list_arguments_are_not_specialised() {
        let list = "datatype L { nil(), cons(h: int, t: L) }\n\
            procedure len(l: L) returns (r: int) {\n\
              if (l is nil) { r := 0; } else { call r := len(l->t); r := r + 1; }\n\
            }\n\
            procedure {:entrypoint} Main(x: int) {\n\
              var r: int;\n\
              call r := len(cons(x, nil()));\n\
              assert r == 1;\n\
            }\n";
        assert!(specialised(list).is_none());
    }
}
