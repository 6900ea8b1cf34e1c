//! Code expressions `|{ … }|` as the plain expressions they mean.
//!
//! A code expression is true exactly when every execution of its blocks, from the first,
//! satisfies each `assert` it meets and the expression of the `return` it reaches: its
//! weakest precondition ("This is Boogie 2", code expressions). [`lower`] replaces each one,
//! anywhere in the program, by that formula, computed backwards over the blocks:
//! `x := e` substitutes `e` for `x`, `havoc x` and a local read before it is written are
//! `forall`, `assume p` is `p ==> …`, `assert p` is `p && …`, `goto L, M` is the
//! conjunction of the targets, `return e` is `e`. A `call` is the callee's meaning at that
//! point: its checked `requires` asserted, all assumed, then its body the same way (its
//! `return`s reaching its checked `ensures`, asserted, then all assumed), or without a
//! body, its outs arbitrary (`forall`) under its `ensures`; `old(g)` in the callee is `g`,
//! since nothing inside a code expression changes a global.
//!
//! Guarantees: the result means what the code expression means, in the verifier and in the
//! concrete replay alike (it is an ordinary expression; a quantifier appears only for a
//! `havoc`, an uninitialised local or a bodiless callee's outs). Every name it introduces
//! is `name#ce<k>`, chosen so that it occurs nowhere in the source text, so nothing is captured. Unsupported, with
//! the construct named at its position: a cycle among the blocks, a `goto` to an undefined
//! label, an assignment to anything but a local of the code expression or of an inlined
//! callee (a global, an in-parameter), a callee with `while`, `goto`, labels or `break`, a
//! recursive call, and a formula larger than [`MAX_NODES`].

use super::ast::*;
use super::unsupported;
use crate::diagnostics::Diagnostic;
use crate::span::Span;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

/// The largest formula a code expression may become (its blocks' paths are expanded).
pub const MAX_NODES: usize = 200_000;

/// How deep calls inside a code expression may be inlined within one another.
const MAX_CALL_DEPTH: usize = 16;

/// Replaces every code expression of `program` by the formula it means.
/// `text` is the program's source: fresh names avoid everything in it.
pub fn lower(program: &mut Program, text: &str) -> Result<(), Diagnostic> {
    if !has_code_expr(program) {
        return Ok(());
    }
    let callees = Callees::of(program);
    let mut lowering = Lowering {
        callees: &callees,
        fresh: Fresh { n: 0, text },
    };
    for e in program.axioms.iter_mut() {
        lowering.rewrite(e)?;
    }
    for f in program.functions.iter_mut() {
        if let Some(b) = &mut f.body {
            lowering.rewrite(b)?;
        }
    }
    for p in program.procs.iter_mut() {
        for spec in p.specs.iter_mut() {
            if let Spec::Requires { cond, .. } | Spec::Ensures { cond, .. } = spec {
                lowering.rewrite(cond)?;
            }
        }
        if let Some(body) = &mut p.body {
            lowering.stmts(&mut body.stmts)?;
        }
    }
    for i in program.impls.iter_mut() {
        lowering.stmts(&mut i.body.stmts)?;
    }
    Ok(())
}

fn has_code_expr(program: &Program) -> bool {
    let mut found = false;
    let mut see = |e: &Expr| found |= contains_code(e);
    program.axioms.iter().for_each(&mut see);
    program
        .functions
        .iter()
        .filter_map(|f| f.body.as_ref())
        .for_each(&mut see);
    for p in &program.procs {
        for spec in &p.specs {
            if let Spec::Requires { cond, .. } | Spec::Ensures { cond, .. } = spec {
                see(cond);
            }
        }
    }
    let bodies = program
        .procs
        .iter()
        .filter_map(|p| p.body.as_ref())
        .chain(program.impls.iter().map(|i| &i.body));
    for b in bodies {
        for_each_stmt_expr(&b.stmts, &mut see);
    }
    found
}

fn contains_code(e: &Expr) -> bool {
    let mut found = false;
    visit(e, &mut |x| found |= matches!(x.kind, ExprKind::Code(_)));
    found
}

/// Calls `f` on every sub-expression of `e` (code expressions' insides excluded).
fn visit(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    stacker::maybe_grow(32 * 1024, 1024 * 1024, || {
        f(e);
        for c in e.children() {
            visit(c, f);
        }
    })
}

/// Calls `f` on every expression directly in `stmts` (conditions, invariants, sides of
/// assignments, arguments).
fn for_each_stmt_expr(stmts: &[Stmt], f: &mut dyn FnMut(&Expr)) {
    for s in stmts {
        match &s.kind {
            StmtKind::Assign(_, rhs) => rhs.iter().for_each(&mut *f),
            StmtKind::Assume(e) | StmtKind::Assert(e) => f(e),
            StmtKind::Call { args, .. } => args.iter().for_each(&mut *f),
            StmtKind::If { cond, then, else_ } => {
                cond.iter().for_each(&mut *f);
                for_each_stmt_expr(then, f);
                for_each_stmt_expr(else_, f);
            }
            StmtKind::While {
                cond,
                invariants,
                body,
            } => {
                cond.iter().for_each(&mut *f);
                invariants.iter().for_each(|i| f(&i.cond));
                for_each_stmt_expr(body, f);
            }
            StmtKind::Havoc(_)
            | StmtKind::Break
            | StmtKind::Return
            | StmtKind::Goto(_)
            | StmtKind::Label(_) => {}
        }
    }
}

/// What a call inside a code expression needs of each procedure (copied before the
/// program is rewritten).
struct Callees {
    procs: HashMap<Rc<str>, Callee>,
}

struct Callee {
    decl: Procedure,
    /// The implementation's parameter names and body, if there is one.
    body: Option<(Vec<Binding>, Vec<Binding>, Body)>,
}

impl Callees {
    fn of(program: &Program) -> Callees {
        let mut procs: HashMap<Rc<str>, Callee> = HashMap::new();
        for p in &program.procs {
            let body = p.body.clone().map(|b| (p.ins.clone(), p.outs.clone(), b));
            let decl = Procedure {
                body: None,
                ..p.clone()
            };
            procs.insert(p.name.name.clone(), Callee { decl, body });
        }
        for i in &program.impls {
            if let Some(c) = procs.get_mut(&i.name.name)
                && c.body.is_none()
            {
                c.body = Some((i.ins.clone(), i.outs.clone(), i.body.clone()));
            }
        }
        Callees { procs }
    }
}

struct Lowering<'a> {
    callees: &'a Callees,
    fresh: Fresh<'a>,
}

/// Names that occur nowhere in the source text.
struct Fresh<'a> {
    n: usize,
    text: &'a str,
}

impl Fresh<'_> {
    fn name(&mut self, base: &str) -> Rc<str> {
        loop {
            self.n += 1;
            let name = format!("{base}#ce{}", self.n);
            if !self.text.contains(&name) {
                return name.into();
            }
        }
    }
}

/// The variables a piece of code may assign: its own name for each, the fresh name it has
/// in the formula, and its type.
type Env = HashMap<Rc<str>, (Rc<str>, Ty)>;

/// Where a `return` goes and what holds there, while a body is read backwards.
struct Exits {
    /// The formula at the end of the statements (after the last one).
    next: Expr,
    /// The formula at a `return` (a callee's ensures and the caller's continuation).
    ret: Option<Expr>,
}

impl Lowering<'_> {
    fn stmts(&mut self, stmts: &mut [Stmt]) -> Result<(), Diagnostic> {
        for s in stmts {
            match &mut s.kind {
                StmtKind::Assign(_, rhs) => {
                    for e in rhs {
                        self.rewrite(e)?;
                    }
                }
                StmtKind::Assume(e) | StmtKind::Assert(e) => self.rewrite(e)?,
                StmtKind::Call { args, .. } => {
                    for e in args {
                        self.rewrite(e)?;
                    }
                }
                StmtKind::If { cond, then, else_ } => {
                    if let Some(c) = cond {
                        self.rewrite(c)?;
                    }
                    self.stmts(then)?;
                    self.stmts(else_)?;
                }
                StmtKind::While {
                    cond,
                    invariants,
                    body,
                } => {
                    if let Some(c) = cond {
                        self.rewrite(c)?;
                    }
                    for i in invariants {
                        self.rewrite(&mut i.cond)?;
                    }
                    self.stmts(body)?;
                }
                StmtKind::Havoc(_)
                | StmtKind::Break
                | StmtKind::Return
                | StmtKind::Goto(_)
                | StmtKind::Label(_) => {}
            }
        }
        Ok(())
    }

    /// Replaces every code expression inside `e` (innermost first).
    fn rewrite(&mut self, e: &mut Expr) -> Result<(), Diagnostic> {
        if !contains_code(e) {
            return Ok(());
        }
        stacker::maybe_grow(32 * 1024, 1024 * 1024, || {
            if let ExprKind::Code(code) = &mut e.kind {
                let span = e.span;
                let mut code = std::mem::replace(
                    code.as_mut(),
                    CodeExpr {
                        locals: Vec::new(),
                        blocks: Vec::new(),
                    },
                );
                for b in code.blocks.iter_mut() {
                    self.stmts(&mut b.stmts)?;
                    if let CodeEnd::Return(r) = &mut b.end {
                        self.rewrite(r)?;
                    }
                }
                *e = self.code_expr(&code, span)?;
                return Ok(());
            }
            for c in e.children_mut() {
                self.rewrite(c)?;
            }
            Ok(())
        })
    }

    fn fresh(&mut self, base: &str) -> Rc<str> {
        self.fresh.name(base)
    }

    /// The formula a code expression (without nested ones) means.
    fn code_expr(&mut self, code: &CodeExpr, span: Span) -> Result<Expr, Diagnostic> {
        let mut env = Env::new();
        for b in &code.locals {
            let fresh = self.fresh(&b.name.name);
            env.insert(b.name.name.clone(), (fresh, b.ty));
        }
        let labels: HashMap<Rc<str>, usize> = code
            .blocks
            .iter()
            .enumerate()
            .map(|(k, b)| (b.label.name.clone(), k))
            .collect();
        let mut memo: Vec<Option<Expr>> = vec![None; code.blocks.len()];
        let mut on_path = vec![false; code.blocks.len()];
        let mut order = Vec::new();
        let mut seen = BTreeSet::new();
        postorder_in(code, &labels, 0, &mut on_path, &mut seen, &mut order)?;
        for k in order {
            let block = &code.blocks[k];
            let end = match &block.end {
                CodeEnd::Return(r) => rename(r, &env, &mut self.fresh),
                CodeEnd::Goto(targets) => {
                    let parts: Vec<Expr> = targets
                        .iter()
                        .map(|t| memo[labels[&t.name]].clone().expect("target lowered first"))
                        .collect();
                    conjunction(parts, block.label.span)
                }
            };
            let exits = Exits {
                next: end,
                ret: None,
            };
            let wp = self.seq(&block.stmts, exits, &env, 0)?;
            check_size(&wp, span)?;
            memo[k] = Some(wp);
        }
        let wp = memo[0].take().expect("the first block is lowered");
        let vars: Vec<Binding> = code
            .locals
            .iter()
            .map(|b| binding(&env[&b.name.name].0, b.ty, b.name.span))
            .collect();
        Ok(forall_free(vars, wp, span))
    }

    /// The formula before `stmts`, given what holds at their exits.
    fn seq(
        &mut self,
        stmts: &[Stmt],
        exits: Exits,
        env: &Env,
        depth: usize,
    ) -> Result<Expr, Diagnostic> {
        let Some((last, rest)) = stmts.split_last() else {
            return Ok(exits.next);
        };
        let after = self.stmt(last, &exits, env, depth)?;
        check_size(&after, last.span)?;
        self.seq(
            rest,
            Exits {
                next: after,
                ret: exits.ret,
            },
            env,
            depth,
        )
    }

    /// The formula before `s`, given what holds after it (`exits.next`).
    fn stmt(
        &mut self,
        s: &Stmt,
        exits: &Exits,
        env: &Env,
        depth: usize,
    ) -> Result<Expr, Diagnostic> {
        let q = &exits.next;
        let span = s.span;
        Ok(match &s.kind {
            StmtKind::Assign(lhs, rhs) => {
                if lhs.len() != rhs.len() {
                    return Err(Diagnostic::error(
                        span,
                        "the assignment has a different number of targets and values",
                        "here",
                    ));
                }
                let mut map = HashMap::new();
                for (x, e) in lhs.iter().zip(rhs) {
                    let (fresh, _) = target(env, x)?;
                    map.insert(fresh, rename(e, env, &mut self.fresh));
                }
                substitute(q, &map, &mut self.fresh)
            }
            StmtKind::Havoc(xs) => {
                let mut body = q.clone();
                for x in xs.iter().rev() {
                    let (fresh, ty) = target(env, x)?;
                    let bound = self.fresh(&x.name);
                    let map = HashMap::from([(fresh, var(&bound, x.span))]);
                    body = substitute(&body, &map, &mut self.fresh);
                    body = quant(vec![binding(&bound, ty, x.span)], body, span);
                }
                body
            }
            StmtKind::Assume(p) => binary(
                BinOp::Implies,
                rename(p, env, &mut self.fresh),
                q.clone(),
                span,
            ),
            StmtKind::Assert(p) => {
                binary(BinOp::And, rename(p, env, &mut self.fresh), q.clone(), span)
            }
            StmtKind::Call { outs, proc, args } => {
                let args: Vec<Expr> = args
                    .iter()
                    .map(|a| rename(a, env, &mut self.fresh))
                    .collect();
                self.call(span, outs, proc, &args, q, env, depth)?
            }
            StmtKind::If { cond, then, else_ } => {
                let t = self.seq(then, exits.clone_exits(), env, depth)?;
                let f = self.seq(else_, exits.clone_exits(), env, depth)?;
                match cond {
                    None => binary(BinOp::And, t, f, span),
                    Some(c) => {
                        let c = rename(c, env, &mut self.fresh);
                        let not_c = Expr {
                            kind: ExprKind::Unary(UnOp::Not, Box::new(c.clone())),
                            span: c.span,
                        };
                        binary(
                            BinOp::And,
                            binary(BinOp::Implies, c, t, span),
                            binary(BinOp::Implies, not_c, f, span),
                            span,
                        )
                    }
                }
            }
            StmtKind::Return => match &exits.ret {
                Some(r) => r.clone(),
                None => return Err(unsupported(span, "`return` without a value here")),
            },
            StmtKind::While { .. } => {
                return Err(unsupported(
                    span,
                    "a loop in a procedure called by a code expression",
                ));
            }
            StmtKind::Break | StmtKind::Goto(_) | StmtKind::Label(_) => {
                let what = "labels, `goto` or `break` in a procedure called by a code expression";
                return Err(unsupported(span, what));
            }
        })
    }

    /// `call outs := proc(args)` before the formula `q`.
    #[allow(clippy::too_many_arguments)]
    fn call(
        &mut self,
        span: Span,
        outs: &[Ident],
        proc: &Ident,
        args: &[Expr],
        q: &Expr,
        env: &Env,
        depth: usize,
    ) -> Result<Expr, Diagnostic> {
        let callees = self.callees;
        let Some(callee) = callees.procs.get(&proc.name) else {
            return Err(Diagnostic::error(
                proc.span,
                format!("no procedure `{}`", proc.name),
                "called here",
            ));
        };
        if depth >= MAX_CALL_DEPTH {
            return Err(unsupported(
                span,
                "a recursive call inside a code expression",
            ));
        }
        let decl = &callee.decl;
        if decl
            .specs
            .iter()
            .any(|s| matches!(s, Spec::Modifies(m) if !m.is_empty()))
        {
            let what = "a call inside a code expression to a procedure that modifies globals";
            return Err(unsupported(span, what));
        }
        let (ins, outs_b, body) = match &callee.body {
            Some((i, o, b)) => (i.as_slice(), o.as_slice(), Some(b)),
            None => (decl.ins.as_slice(), decl.outs.as_slice(), None),
        };
        if ins.len() != args.len() || outs_b.len() != outs.len() {
            return Err(Diagnostic::error(
                span,
                format!(
                    "`{}` takes {} arguments and returns {} values",
                    proc.name,
                    ins.len(),
                    outs_b.len()
                ),
                "called here",
            ));
        }
        // The callee's variables under fresh names: its parameters (as the implementation
        // names them, and as the declaration does, for the contracts), outs and locals.
        let mut callee_env = Env::new();
        let mut contract_env = Env::new();
        for (k, b) in ins.iter().chain(outs_b).enumerate() {
            let fresh = self.fresh(&b.name.name);
            callee_env.insert(b.name.name.clone(), (fresh.clone(), b.ty));
            if let Some(d) = decl.ins.iter().chain(&decl.outs).nth(k) {
                contract_env.insert(d.name.name.clone(), (fresh, d.ty));
            }
        }
        let locals: Vec<Binding> = body.map(|b| b.locals.clone()).unwrap_or_default();
        for b in &locals {
            let fresh = self.fresh(&b.name.name);
            callee_env.insert(b.name.name.clone(), (fresh, b.ty));
        }
        let contract = |free_too: bool, requires: bool, fresh: &mut Fresh| -> Vec<Expr> {
            decl.specs
                .iter()
                .filter_map(|s| match s {
                    Spec::Requires { free, cond } if requires && (free_too || !free) => Some(cond),
                    Spec::Ensures { free, cond } if !requires && (free_too || !free) => Some(cond),
                    _ => None,
                })
                .map(|c| strip_old(&rename(c, &contract_env, fresh)))
                .collect()
        };
        // After the call: the caller's targets hold the callee's outs.
        let mut map = HashMap::new();
        for (target_name, out) in outs.iter().zip(outs_b) {
            let (fresh, _) = target(env, target_name)?;
            map.insert(fresh, var(&callee_env[&out.name.name].0, target_name.span));
        }
        let after = substitute(q, &map, &mut self.fresh);
        let assumed_ens = binary(
            BinOp::Implies,
            conjunction(contract(true, false, &mut self.fresh), span),
            after,
            span,
        );
        let at_return = binary(
            BinOp::And,
            conjunction(contract(false, false, &mut self.fresh), span),
            assumed_ens,
            span,
        );
        let out_vars: Vec<Binding> = outs_b
            .iter()
            .chain(&locals)
            .map(|b| binding(&callee_env[&b.name.name].0, b.ty, b.name.span))
            .collect();
        let inside = match body {
            Some(b) => {
                let exits = Exits {
                    next: at_return.clone(),
                    ret: Some(at_return),
                };
                let stmts = strip_old_stmts(&b.stmts);
                self.seq(&stmts, exits, &callee_env, depth + 1)?
            }
            None => at_return,
        };
        let inside = forall_free(out_vars, inside, span);
        let assumed_req = binary(
            BinOp::Implies,
            conjunction(contract(true, true, &mut self.fresh), span),
            inside,
            span,
        );
        let pre = binary(
            BinOp::And,
            conjunction(contract(false, true, &mut self.fresh), span),
            assumed_req,
            span,
        );
        // The arguments, read in the caller's state, for the in-parameters.
        let map: HashMap<Rc<str>, Expr> = ins
            .iter()
            .zip(args)
            .map(|(b, a)| (callee_env[&b.name.name].0.clone(), a.clone()))
            .collect();
        Ok(substitute(&pre, &map, &mut self.fresh))
    }
}

impl Exits {
    fn clone_exits(&self) -> Exits {
        Exits {
            next: self.next.clone(),
            ret: self.ret.clone(),
        }
    }
}

/// The blocks reachable from block `k`, each after its successors; a cycle or an undefined
/// label is an error.
fn postorder_in(
    code: &CodeExpr,
    labels: &HashMap<Rc<str>, usize>,
    k: usize,
    on_path: &mut [bool],
    seen: &mut BTreeSet<usize>,
    order: &mut Vec<usize>,
) -> Result<(), Diagnostic> {
    if seen.contains(&k) {
        return Ok(());
    }
    on_path[k] = true;
    if let CodeEnd::Goto(targets) = &code.blocks[k].end {
        for t in targets {
            let Some(&j) = labels.get(&t.name) else {
                return Err(Diagnostic::error(
                    t.span,
                    format!("no block `{}` in this code expression", t.name),
                    "undefined label",
                ));
            };
            if on_path[j] {
                return Err(unsupported(
                    t.span,
                    "a loop among a code expression's blocks",
                ));
            }
            stacker::maybe_grow(32 * 1024, 1024 * 1024, || {
                postorder_in(code, labels, j, on_path, seen, order)
            })?;
        }
    }
    on_path[k] = false;
    seen.insert(k);
    order.push(k);
    Ok(())
}

/// The fresh name and type of the assignable variable `x`.
fn target(env: &Env, x: &Ident) -> Result<(Rc<str>, Ty), Diagnostic> {
    match env.get(&x.name) {
        Some((fresh, ty)) => Ok((fresh.clone(), *ty)),
        None => Err(unsupported(
            x.span,
            "an assignment inside a code expression to a variable that is not its own local \
             (or a local of a procedure it calls)",
        )),
    }
}

/// `e` with the variables of `env` under their fresh names.
fn rename(e: &Expr, env: &Env, fresh: &mut Fresh) -> Expr {
    let map: HashMap<Rc<str>, Expr> = env
        .iter()
        .map(|(name, (new, _))| (name.clone(), var(new, e.span)))
        .collect();
    substitute(e, &map, fresh)
}

/// `e` with `map`'s variables replaced, without capture (a bound variable that a
/// replacement mentions is renamed).
fn substitute(e: &Expr, map: &HashMap<Rc<str>, Expr>, fresh: &mut Fresh) -> Expr {
    if map.is_empty() {
        return e.clone();
    }
    stacker::maybe_grow(32 * 1024, 1024 * 1024, || {
        let sub = |x: &Expr, fresh: &mut Fresh| Box::new(substitute(x, map, fresh));
        let kind = match &e.kind {
            ExprKind::Var(v) => match map.get(&v.name) {
                Some(r) => return r.clone(),
                None => e.kind.clone(),
            },
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Code(_) => e.kind.clone(),
            ExprKind::Old(a) => ExprKind::Old(sub(a, fresh)),
            ExprKind::Unary(op, a) => ExprKind::Unary(*op, sub(a, fresh)),
            ExprKind::Is(a, c) => ExprKind::Is(sub(a, fresh), c.clone()),
            ExprKind::Field(a, f) => ExprKind::Field(sub(a, fresh), f.clone()),
            ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, sub(a, fresh), sub(b, fresh)),
            ExprKind::Ite(a, b, c) => ExprKind::Ite(sub(a, fresh), sub(b, fresh), sub(c, fresh)),
            ExprKind::Apply(f, args) => ExprKind::Apply(
                f.clone(),
                args.iter().map(|a| substitute(a, map, fresh)).collect(),
            ),
            ExprKind::Select(m, idx) => ExprKind::Select(
                sub(m, fresh),
                idx.iter().map(|a| substitute(a, map, fresh)).collect(),
            ),
            ExprKind::Update(m, idx, v) => ExprKind::Update(
                sub(m, fresh),
                idx.iter().map(|a| substitute(a, map, fresh)).collect(),
                sub(v, fresh),
            ),
            ExprKind::Quant(forall, vars, body) => {
                let mut inner = map.clone();
                let mut vars = vars.clone();
                for v in vars.iter_mut() {
                    inner.remove(&v.name.name);
                }
                let mut free = BTreeSet::new();
                for r in inner.values() {
                    free_vars(r, &mut Vec::new(), &mut free);
                }
                for v in vars.iter_mut() {
                    if free.contains(&v.name.name) {
                        let new = fresh.name(&v.name.name);
                        inner.insert(v.name.name.clone(), var(&new, v.name.span));
                        v.name.name = new;
                    }
                }
                ExprKind::Quant(*forall, vars, Box::new(substitute(body, &inner, fresh)))
            }
        };
        Expr { kind, span: e.span }
    })
}

/// The variables `e` mentions and does not bind.
fn free_vars(e: &Expr, bound: &mut Vec<Rc<str>>, out: &mut BTreeSet<Rc<str>>) {
    stacker::maybe_grow(32 * 1024, 1024 * 1024, || match &e.kind {
        ExprKind::Var(v) => {
            if !bound.contains(&v.name) {
                out.insert(v.name.clone());
            }
        }
        ExprKind::Quant(_, vars, body) => {
            let n = bound.len();
            bound.extend(vars.iter().map(|v| v.name.name.clone()));
            free_vars(body, bound, out);
            bound.truncate(n);
        }
        _ => {
            for c in e.children() {
                free_vars(c, bound, out);
            }
        }
    })
}

/// `e` with every `old(a)` replaced by `a` (inside a code expression no global changes, so
/// a callee's `old(g)` is `g`).
fn strip_old(e: &Expr) -> Expr {
    stacker::maybe_grow(32 * 1024, 1024 * 1024, || {
        if let ExprKind::Old(a) = &e.kind {
            return strip_old(a);
        }
        let mut out = e.clone();
        for c in out.children_mut() {
            *c = strip_old(c);
        }
        out
    })
}

fn strip_old_stmts(stmts: &[Stmt]) -> Vec<Stmt> {
    stmts
        .iter()
        .map(|s| {
            let kind = match &s.kind {
                StmtKind::Assign(l, r) => {
                    StmtKind::Assign(l.clone(), r.iter().map(strip_old).collect())
                }
                StmtKind::Assume(e) => StmtKind::Assume(strip_old(e)),
                StmtKind::Assert(e) => StmtKind::Assert(strip_old(e)),
                StmtKind::Call { outs, proc, args } => StmtKind::Call {
                    outs: outs.clone(),
                    proc: proc.clone(),
                    args: args.iter().map(strip_old).collect(),
                },
                StmtKind::If { cond, then, else_ } => StmtKind::If {
                    cond: cond.as_ref().map(strip_old),
                    then: strip_old_stmts(then),
                    else_: strip_old_stmts(else_),
                },
                other => other.clone(),
            };
            Stmt { kind, span: s.span }
        })
        .collect()
}

/// `forall vars :: e` over those of `vars` that `e` mentions (none: `e`).
fn forall_free(vars: Vec<Binding>, e: Expr, span: Span) -> Expr {
    let mut free = BTreeSet::new();
    free_vars(&e, &mut Vec::new(), &mut free);
    let used: Vec<Binding> = vars
        .into_iter()
        .filter(|b| free.contains(&b.name.name))
        .collect();
    if used.is_empty() {
        e
    } else {
        quant(used, e, span)
    }
}

fn quant(vars: Vec<Binding>, body: Expr, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Quant(true, vars, Box::new(body)),
        span,
    }
}

fn var(name: &Rc<str>, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Var(Ident {
            name: name.clone(),
            span,
        }),
        span,
    }
}

fn binding(name: &Rc<str>, ty: Ty, span: Span) -> Binding {
    Binding {
        name: Ident {
            name: name.clone(),
            span,
        },
        ty,
    }
}

fn binary(op: BinOp, a: Expr, b: Expr, span: Span) -> Expr {
    match (op, &a.kind, &b.kind) {
        (BinOp::And, ExprKind::Bool(true), _) | (BinOp::Implies, ExprKind::Bool(true), _) => b,
        (BinOp::And, _, ExprKind::Bool(true)) => a,
        (BinOp::Implies, _, ExprKind::Bool(true)) => b,
        _ => Expr {
            kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
            span,
        },
    }
}

fn conjunction(parts: Vec<Expr>, span: Span) -> Expr {
    parts
        .into_iter()
        .reduce(|a, b| binary(BinOp::And, a, b, span))
        .unwrap_or(Expr {
            kind: ExprKind::Bool(true),
            span,
        })
}

fn check_size(e: &Expr, span: Span) -> Result<(), Diagnostic> {
    let mut n = 0usize;
    visit(e, &mut |_| n += 1);
    if n > MAX_NODES {
        let what = format!(
            "a code expression whose formula has more than {MAX_NODES} nodes (its paths are \
             expanded one by one)"
        );
        return Err(unsupported(span, &what));
    }
    Ok(())
}
