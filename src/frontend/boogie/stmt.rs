//! One Boogie implementation to IR procedures: contracts, statements, loops, `goto`.
//!
//! Guarantees (CORRAL's reading of Boogie, docs/boogie.md):
//! - the implementation's procedure keeps its name; `requires` (free or not) are assumed on
//!   entry, checked `ensures` asserted at every return; at a call, the callee's checked
//!   `requires` are asserted (formals replaced by the arguments) and all its `ensures`
//!   assumed after the call; a callee without a body havocs its outs and `modifies`;
//! - a `while` loop is a recursive procedure `P#loopK` (CORRAL's loop extraction): checked
//!   invariants asserted at each iteration's head, all of them assumed;
//! - top-level labels cut the body into blocks; a block reached from more than one place is
//!   a procedure `P#L` taking every variable, and `goto` is a tail call to it (a
//!   nondeterministic choice among several targets); a block reached from one `goto`
//!   target only (and not by falling through) is inlined there, in its branch of the
//!   choice. Irreducible graphs are fine: every cycle passes through a call;
//! - nondeterminism (`havoc`, uninitialised variables, `if (*)`, `while (*)`, several `goto`
//!   targets) is an IR `havoc`, except in the entry procedure's own body, where it reads a
//!   fresh input of the entry (so witnesses give it and the replay repeats it).

use super::ast::{self, Ident, Invariant, Stmt as AStmt, StmtKind, Ty};
use super::decls::{Decls, Impl, check_arity, unique};
use super::expr::{Scope, Typed, boogie_ty, check_type, ir_type, old_globals};
use super::unsupported;
use crate::diagnostics::Diagnostic;
use crate::span::Span;
use boogie_like::ir::{
    self as ir, Expr, LocalId, ProcId, Program as IrProgram, SourcePos, Stmt, Type, Var,
};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};

mod blocks;
mod calls;
mod loops;

type TResult<T> = Result<T, Diagnostic>;

/// The entry's fresh inputs: recorded on a first pass, then read back in the same order.
pub struct Hoist {
    recording: bool,
    pub recorded: Vec<(String, Type)>,
    replay: Vec<Var>,
    next: usize,
}

impl Hoist {
    pub fn record() -> Hoist {
        Hoist {
            recording: true,
            recorded: Vec::new(),
            replay: Vec::new(),
            next: 0,
        }
    }

    pub fn replay(vars: Vec<Var>) -> Hoist {
        Hoist {
            recording: false,
            recorded: Vec::new(),
            replay: vars,
            next: 0,
        }
    }

    fn take(&mut self, base: String, ty: Type) -> Option<Var> {
        if self.recording {
            self.recorded.push((base, ty));
            return None;
        }
        let var = self.replay.get(self.next).copied();
        self.next += 1;
        var
    }
}

/// A variable every procedure made for the implementation carries.
struct SchemeVar {
    name: String,
    ty: Type,
    mutable: bool,
}

/// The IR procedure being filled.
#[derive(Clone, Copy)]
struct Frame {
    proc: ProcId,
    /// In a loop procedure: its "the implementation returned" flag, if the loop has a
    /// `return`; `None` in the implementation's procedure and its block procedures.
    in_loop: Option<Option<LocalId>>,
    hoist: bool,
}

struct Segment<'s> {
    label: Option<&'s Ident>,
    stmts: &'s [AStmt],
}

pub struct ImplTranslator<'a, 'd> {
    ir: &'a mut IrProgram,
    decls: &'a Decls<'d>,
    imp: &'a Impl<'d>,
    main: ProcId,
    hoist: Option<&'a mut Hoist>,
    scheme: Vec<SchemeVar>,
    /// Each global read under `old` and the local holding its value on entry.
    olds: Vec<(String, String)>,
    segments: Vec<Segment<'d>>,
    refs: HashMap<String, usize>,
    blocks: HashMap<String, ProcId>,
    inlined: HashSet<String>,
    pending: Vec<(usize, ProcId)>,
    loops: usize,
    empty: HashMap<String, Typed>,
    /// The Boogie type of each variable the implementation declares.
    local_types: HashMap<String, Ty>,
}

impl<'a, 'd> ImplTranslator<'a, 'd> {
    pub fn new(
        ir: &'a mut IrProgram,
        decls: &'a Decls<'d>,
        imp: &'a Impl<'d>,
        main: ProcId,
        hoist: Option<&'a mut Hoist>,
    ) -> TResult<Self> {
        let mut t = ImplTranslator {
            ir,
            decls,
            imp,
            main,
            hoist,
            scheme: Vec::new(),
            olds: Vec::new(),
            segments: split(&imp.body.stmts),
            refs: HashMap::new(),
            blocks: HashMap::new(),
            inlined: HashSet::new(),
            pending: Vec::new(),
            loops: 0,
            empty: HashMap::new(),
            local_types: imp
                .ins
                .iter()
                .chain(imp.outs)
                .chain(&imp.body.locals)
                .map(|b| (b.name.name.to_string(), b.ty))
                .collect(),
        };
        t.build_scheme()?;
        t.count_refs();
        Ok(t)
    }

    fn build_scheme(&mut self) -> TResult<()> {
        let imp = self.imp;
        let mut taken: BTreeSet<String> = self.decls.globals.keys().cloned().collect();
        let groups = [
            (imp.ins, false),
            (imp.outs, true),
            (&imp.body.locals[..], true),
        ];
        for (bindings, mutable) in groups {
            for b in bindings {
                if !taken.insert(b.name.name.to_string()) {
                    return Err(name_clash(
                        &b.name,
                        self.decls.globals.contains_key(&*b.name.name),
                    ));
                }
                self.scheme.push(SchemeVar {
                    name: b.name.name.to_string(),
                    ty: ir_type(b.ty),
                    mutable,
                });
            }
        }
        for g in self.old_set() {
            let local = unique(&format!("{g}#old"), &mut taken);
            let ty = ir_type(self.decls.globals[&g]);
            self.scheme.push(SchemeVar {
                name: local.clone(),
                ty,
                mutable: false,
            });
            self.olds.push((g, local));
        }
        Ok(())
    }

    /// Globals under `old` in the body, the contracts and the invariants.
    fn old_set(&self) -> Vec<String> {
        let mut out = Vec::new();
        for spec in &self.imp.proc.specs {
            if let ast::Spec::Requires { cond, .. } | ast::Spec::Ensures { cond, .. } = spec {
                old_globals(cond, &self.decls.globals, &mut out);
            }
        }
        for_each_expr(&self.imp.body.stmts, &mut |e| {
            old_globals(e, &self.decls.globals, &mut out)
        });
        out
    }

    fn count_refs(&mut self) {
        let mut refs: HashMap<String, usize> = HashMap::new();
        for_each_stmt(&self.imp.body.stmts, &mut |s| {
            if let StmtKind::Goto(targets) = &s.kind {
                for t in targets {
                    *refs.entry(t.name.to_string()).or_default() += 1;
                }
            }
        });
        for pair in self.segments.windows(2) {
            if !ends_in_jump(pair[0].stmts)
                && let Some(label) = pair[1].label
            {
                *refs.entry(label.name.to_string()).or_default() += 1;
            }
        }
        self.refs = refs;
    }

    /// Translates the implementation and every procedure made for it.
    pub fn run(mut self) -> TResult<()> {
        let frame = Frame {
            proc: self.main,
            in_loop: None,
            hoist: self.hoist.is_some(),
        };
        for v in self
            .scheme
            .iter()
            .skip(self.imp.ins.len() + self.imp.outs.len())
        {
            self.ir.procs[self.main].add_local(v.name.clone(), v.ty);
        }
        let mut body = self.prologue(frame)?;
        body.extend(self.segment(frame, 0)?);
        self.ir.set_body(self.main, body);
        while let Some((index, proc)) = self.pending.pop() {
            let frame = Frame {
                proc,
                in_loop: None,
                hoist: false,
            };
            let mut body = self.copy_in(frame);
            body.extend(self.segment(frame, index)?);
            self.ir.set_body(proc, body);
        }
        Ok(())
    }

    // ----- positions, scopes, names -----

    fn pos(&self, span: Span) -> SourcePos {
        let lc = self.decls.file.line_col(span.start as usize);
        SourcePos {
            line: lc.line,
            col: lc.col,
        }
    }

    fn olds_in(&self, proc: ProcId) -> HashMap<String, Expr> {
        let p = &self.ir.procs[proc];
        self.olds
            .iter()
            .filter_map(|(g, l)| p.local_by_name(l).map(|id| (g.clone(), Expr::var(id))))
            .collect()
    }

    fn local(&self, proc: ProcId, name: &str) -> LocalId {
        self.ir.procs[proc]
            .local_by_name(name)
            .expect("internal error: scheme variable missing")
    }

    /// Evaluates `e` in the body of `frame`'s procedure, expecting `want`.
    fn body_expr(&mut self, frame: Frame, e: &ast::Expr, want: Option<Ty>) -> TResult<Typed> {
        let olds = self.olds_in(frame.proc);
        let bound = RefCell::new(Vec::new());
        let scope = Scope {
            ir: self.ir,
            proc: frame.proc,
            locals: true,
            subst: &self.empty,
            olds: &olds,
            functions: &self.decls.functions,
            globals: &self.decls.globals,
            local_types: &self.local_types,
            uninterpreted: &self.decls.uninterpreted,
            bound: &bound,
        };
        let translated = scope.expr(e);
        self.add_bound(frame.proc, bound);
        let (x, ty) = translated?;
        if let Some(want) = want {
            check_type(e.span, ty, want)?;
        }
        Ok((x, ty))
    }

    /// Evaluates a contract `e` with formals replaced by `subst`, old globals by `olds`.
    fn contract_expr(
        &mut self,
        proc: ProcId,
        e: &ast::Expr,
        subst: &HashMap<String, Typed>,
        olds: &HashMap<String, Expr>,
    ) -> TResult<Expr> {
        let bound = RefCell::new(Vec::new());
        let scope = Scope {
            ir: self.ir,
            proc,
            locals: false,
            subst,
            olds,
            functions: &self.decls.functions,
            globals: &self.decls.globals,
            local_types: &self.local_types,
            uninterpreted: &self.decls.uninterpreted,
            bound: &bound,
        };
        let translated = scope.expect(e, Ty::Bool);
        self.add_bound(proc, bound);
        translated
    }

    /// Adds the variables the quantifiers of one expression bind to `proc` (the ids the
    /// expression uses follow its locals, in this order).
    fn add_bound(&mut self, proc: ProcId, bound: RefCell<Vec<(String, Type)>>) {
        for (name, ty) in bound.into_inner() {
            self.ir.procs[proc].add_local(name, ty);
        }
    }

    /// The implementation's procedure's formals as the variables of `proc`.
    fn formals_in(&self, proc: ProcId) -> HashMap<String, Typed> {
        let decl = self.imp.proc;
        let pairs = decl
            .ins
            .iter()
            .zip(self.imp.ins)
            .chain(decl.outs.iter().zip(self.imp.outs));
        pairs
            .map(|(formal, actual)| {
                let id = self.local(proc, &actual.name.name);
                (formal.name.name.to_string(), (Expr::var(id), formal.ty))
            })
            .collect()
    }

    fn scheme_args(&self, proc: ProcId) -> Vec<Expr> {
        self.scheme
            .iter()
            .map(|v| Expr::var(self.local(proc, &v.name)))
            .collect()
    }

    fn mutable_vars(&self, proc: ProcId) -> Vec<Var> {
        self.scheme
            .iter()
            .filter(|v| v.mutable)
            .map(|v| Var::Local(self.local(proc, &v.name)))
            .collect()
    }

    fn proc_name(&self, base: &str) -> String {
        let mut taken: BTreeSet<String> =
            self.ir.procs.iter().map(|(_, p)| p.name.clone()).collect();
        taken.extend(self.decls.procs.keys().cloned());
        taken.extend(self.decls.globals.keys().cloned());
        unique(base, &mut taken)
    }

    fn call_stmt(
        &mut self,
        proc: ProcId,
        callee: ProcId,
        args: Vec<Expr>,
        rets: Vec<Var>,
        at: Span,
    ) -> Stmt {
        let pos = self.pos(at);
        self.ir.procs[proc].add_call(callee, args, rets, Some(pos))
    }

    // ----- nondeterminism -----

    fn nondet(&mut self, frame: Frame, var: Var, ty: Type, base: String) -> Stmt {
        if frame.hoist
            && let Some(hoist) = self.hoist.as_deref_mut()
        {
            return match hoist.take(base, ty) {
                Some(Var::Local(input)) => Stmt::assign(var, Expr::var(input)),
                _ => Stmt::Havoc(vec![var]),
            };
        }
        Stmt::Havoc(vec![var])
    }

    /// A fresh local of `frame` holding a nondeterministic value.
    fn choice(&mut self, frame: Frame, ty: Type, span: Span, out: &mut Vec<Stmt>) -> LocalId {
        let local = self.ir.fresh_local(frame.proc, "nd", ty);
        let pos = self.pos(span);
        let stmt = self.nondet(
            frame,
            Var::Local(local),
            ty,
            format!("choice#{}.{}", pos.line, pos.col),
        );
        out.push(stmt);
        local
    }

    // ----- prologue, returns -----

    fn prologue(&mut self, frame: Frame) -> TResult<Vec<Stmt>> {
        let mut out = Vec::new();
        if frame.hoist {
            self.initial_globals(frame, &mut out)?;
        }
        let start = self.imp.ins.len();
        let mutable: Vec<(String, Type)> = self.scheme[start..]
            .iter()
            .filter(|v| v.mutable)
            .map(|v| (v.name.clone(), v.ty))
            .collect();
        for (name, ty) in mutable {
            let id = self.local(frame.proc, &name);
            let stmt = self.nondet(frame, Var::Local(id), ty, format!("{name}#init"));
            out.push(stmt);
        }
        for (g, l) in self.olds.clone() {
            let gid = self.ir.global_by_name(&g).expect("internal error: global");
            out.push(Stmt::assign(self.local(frame.proc, &l), Expr::var(gid)));
        }
        let formals = self.formals_in(frame.proc);
        let olds = self.olds_in(frame.proc);
        for spec in &self.imp.proc.specs {
            if let ast::Spec::Requires { cond, .. } = spec {
                out.push(Stmt::Assume(
                    self.contract_expr(frame.proc, cond, &formals, &olds)?,
                ));
            }
        }
        Ok(out)
    }

    /// The entry's start: globals and constants arbitrary, `unique` constants distinct,
    /// axioms assumed.
    fn initial_globals(&mut self, frame: Frame, out: &mut Vec<Stmt>) -> TResult<()> {
        let globals: Vec<(String, Type)> = self
            .ir
            .globals
            .iter()
            .map(|(_, g)| (g.name.clone(), g.ty))
            .collect();
        for (name, ty) in globals {
            let g = self
                .ir
                .global_by_name(&name)
                .expect("internal error: global");
            let stmt = self.nondet(frame, Var::Global(g), ty, format!("{name}#init"));
            out.push(stmt);
        }
        let unique: Vec<&ast::Const> = self
            .decls
            .consts
            .iter()
            .copied()
            .filter(|c| c.unique)
            .collect();
        for (i, a) in unique.iter().enumerate() {
            for b in &unique[i + 1..] {
                if a.binding.ty == b.binding.ty {
                    let ga = self
                        .ir
                        .global_by_name(&a.binding.name.name)
                        .expect("internal error: const");
                    let gb = self
                        .ir
                        .global_by_name(&b.binding.name.name)
                        .expect("internal error: const");
                    let differ = Expr::binary(ir::BinOp::Neq, Expr::var(ga), Expr::var(gb));
                    out.push(Stmt::Assume(differ));
                }
            }
        }
        let empty = HashMap::new();
        for axiom in self.decls.axioms {
            let e = self.contract_expr(frame.proc, axiom, &empty, &HashMap::new())?;
            out.push(Stmt::Assume(e));
        }
        Ok(())
    }

    /// `v := v#in` for every mutable variable of a loop or block procedure.
    fn copy_in(&self, frame: Frame) -> Vec<Stmt> {
        let proc = &self.ir.procs[frame.proc];
        let mut out = Vec::new();
        for (k, v) in self.scheme.iter().enumerate() {
            if v.mutable {
                let param = proc.params[k];
                out.push(Stmt::assign(
                    self.local(frame.proc, &v.name),
                    Expr::var(param),
                ));
            }
        }
        out
    }

    /// Leaving the implementation: checked `ensures` asserted, then `return`.
    fn ret(&mut self, frame: Frame) -> TResult<Vec<Stmt>> {
        if let Some(flag) = frame.in_loop {
            let flag = flag.expect("internal error: a loop with `return` has a flag");
            return Ok(vec![Stmt::assign(flag, Expr::Bool(true)), Stmt::Return]);
        }
        let mut out = self.ensures(frame)?;
        out.push(Stmt::Return);
        Ok(out)
    }

    fn ensures(&mut self, frame: Frame) -> TResult<Vec<Stmt>> {
        let formals = self.formals_in(frame.proc);
        let olds = self.olds_in(frame.proc);
        let mut out = Vec::new();
        for spec in &self.imp.proc.specs {
            if let ast::Spec::Ensures { free: false, cond } = spec {
                let e = self.contract_expr(frame.proc, cond, &formals, &olds)?;
                out.push(Stmt::assert(e, Some(self.pos(cond.span))));
            }
        }
        Ok(out)
    }

    // ----- blocks and goto -----

    /// A procedure taking the scheme (mutable variables as `v#in`) and returning `returns`.
    fn declare_with_scheme(&mut self, name: &str, returns: &[(String, Type)]) -> ProcId {
        let mut taken: BTreeSet<String> = self.scheme.iter().map(|v| v.name.clone()).collect();
        taken.extend(self.decls.globals.keys().cloned());
        let params: Vec<(String, Type)> = self
            .scheme
            .iter()
            .map(|v| {
                let name = if v.mutable {
                    unique(&format!("{}#in", v.name), &mut taken)
                } else {
                    v.name.clone()
                };
                (name, v.ty)
            })
            .collect();
        let p: Vec<(&str, Type)> = params.iter().map(|(n, t)| (n.as_str(), *t)).collect();
        let r: Vec<(&str, Type)> = returns.iter().map(|(n, t)| (n.as_str(), *t)).collect();
        self.ir.declare_proc(name, &p, &r)
    }

    // ----- statements -----

    fn stmts(&mut self, frame: Frame, stmts: &[AStmt]) -> TResult<Vec<Stmt>> {
        let mut out = Vec::new();
        for s in stmts {
            out.extend(self.stmt(frame, s)?);
        }
        Ok(out)
    }

    fn stmt(&mut self, frame: Frame, s: &AStmt) -> TResult<Vec<Stmt>> {
        stacker::maybe_grow(64 * 1024, 2 * 1024 * 1024, || self.stmt_inner(frame, s))
    }

    fn stmt_inner(&mut self, frame: Frame, s: &AStmt) -> TResult<Vec<Stmt>> {
        Ok(match &s.kind {
            StmtKind::Assign(lhs, rhs) => self.assign(frame, lhs, rhs, s.span)?,
            StmtKind::Havoc(names) => {
                let mut out = Vec::new();
                for n in names {
                    let (var, ty) = self.lhs(frame, n)?;
                    let pos = self.pos(n.span);
                    let stmt = self.nondet(
                        frame,
                        var,
                        ir_type(ty),
                        format!("{}#{}.{}", n.name, pos.line, pos.col),
                    );
                    out.push(stmt);
                }
                out
            }
            StmtKind::Assume(e) => vec![Stmt::Assume(self.body_expr(frame, e, Some(Ty::Bool))?.0)],
            StmtKind::Assert(e) => {
                let cond = self.body_expr(frame, e, Some(Ty::Bool))?.0;
                vec![Stmt::assert(cond, Some(self.pos(s.span)))]
            }
            StmtKind::Call { outs, proc, args } => self.call(frame, outs, proc, args, s.span)?,
            StmtKind::If { cond, then, else_ } => {
                let mut out = Vec::new();
                let c = match cond {
                    Some(c) => self.body_expr(frame, c, Some(Ty::Bool))?.0,
                    None => Expr::var(self.choice(frame, Type::Bool, s.span, &mut out)),
                };
                let then = self.stmts(frame, then)?;
                let else_ = self.stmts(frame, else_)?;
                out.push(Stmt::if_(c, then, else_));
                out
            }
            StmtKind::While {
                cond,
                invariants,
                body,
            } => self.while_(frame, cond.as_ref(), invariants, body, s.span)?,
            StmtKind::Break => match frame.in_loop {
                Some(_) => vec![Stmt::Return],
                None => {
                    return Err(Diagnostic::error(
                        s.span,
                        "`break` outside a loop",
                        "not in a loop",
                    ));
                }
            },
            StmtKind::Return => self.ret(frame)?,
            StmtKind::Goto(targets) => self.goto(frame, targets, s.span)?,
            StmtKind::Label(l) => {
                if self.refs.contains_key(&*l.name) {
                    return Err(unsupported(
                        l.span,
                        "a `goto` target inside a nested statement",
                    ));
                }
                Vec::new()
            }
        })
    }

    /// An assignable variable: a local that is not an in-parameter, or a global variable.
    fn lhs(&self, frame: Frame, name: &Ident) -> TResult<(Var, Ty)> {
        let proc = &self.ir.procs[frame.proc];
        if let Some(id) = proc.local_by_name(&name.name) {
            let ty = match self.local_types.get(&*name.name) {
                Some(ty) => *ty,
                None => boogie_ty(self.ir, proc.locals[id].ty),
            };
            if proc.is_param(id) || self.imp.ins.iter().any(|b| b.name.name == name.name) {
                return Err(Diagnostic::error(
                    name.span,
                    format!("`{}` is an in-parameter and cannot be assigned", name.name),
                    "read-only",
                ));
            }
            return Ok((Var::Local(id), ty));
        }
        if let Some(ty) = self.decls.globals.get(&*name.name) {
            if self
                .decls
                .consts
                .iter()
                .any(|c| c.binding.name.name == name.name)
            {
                return Err(Diagnostic::error(
                    name.span,
                    format!("`{}` is a constant and cannot be assigned", name.name),
                    "a constant",
                ));
            }
            let g = self
                .ir
                .global_by_name(&name.name)
                .expect("internal error: global");
            return Ok((Var::Global(g), *ty));
        }
        Err(Diagnostic::error(
            name.span,
            format!("undefined variable `{}`", name.name),
            "not declared here",
        ))
    }

    fn assign(
        &mut self,
        frame: Frame,
        lhs: &[Ident],
        rhs: &[ast::Expr],
        span: Span,
    ) -> TResult<Vec<Stmt>> {
        check_arity(span, "assignment", lhs.len(), rhs.len(), "parallel")?;
        let mut targets = Vec::new();
        for (l, r) in lhs.iter().zip(rhs) {
            let (var, ty) = self.lhs(frame, l)?;
            if targets.iter().any(|(v, _): &(Var, Expr)| *v == var) {
                return Err(Diagnostic::error(
                    l.span,
                    format!("`{}` is assigned twice", l.name),
                    "again here",
                ));
            }
            let value = self.body_expr(frame, r, Some(ty))?.0;
            targets.push((var, value));
        }
        if let [(var, value)] = targets.as_slice() {
            return Ok(vec![Stmt::assign(*var, value.clone())]);
        }
        // Parallel: every right-hand side first, into temporaries.
        let mut out = Vec::new();
        let mut temps = Vec::new();
        for (var, value) in &targets {
            let ty = self.var_type(frame, *var);
            let t = self.ir.fresh_local(frame.proc, "tmp", ty);
            out.push(Stmt::assign(t, value.clone()));
            temps.push((*var, t));
        }
        out.extend(
            temps
                .into_iter()
                .map(|(var, t)| Stmt::assign(var, Expr::var(t))),
        );
        Ok(out)
    }

    fn var_type(&self, frame: Frame, var: Var) -> Type {
        self.ir
            .var_type(&self.ir.procs[frame.proc], var)
            .expect("internal error: variable type")
    }
}

fn name_clash(name: &Ident, global: bool) -> Diagnostic {
    let message = if global {
        format!(
            "unsupported: the local `{}` has the name of a global variable",
            name.name
        )
    } else {
        format!("`{}` is declared twice", name.name)
    };
    Diagnostic::error(name.span, message, "declared again here")
}

/// The body cut at its top-level labels: the statements before the first label, then one
/// segment per label.
fn split(stmts: &[AStmt]) -> Vec<Segment<'_>> {
    let mut segments = vec![Segment {
        label: None,
        stmts: &[],
    }];
    let mut start = 0;
    for (i, s) in stmts.iter().enumerate() {
        if let StmtKind::Label(l) = &s.kind {
            if let Some(last) = segments.last_mut() {
                last.stmts = &stmts[start..i];
            }
            segments.push(Segment {
                label: Some(l),
                stmts: &[],
            });
            start = i + 1;
        }
    }
    if let Some(last) = segments.last_mut() {
        last.stmts = &stmts[start..];
    }
    segments
}

fn ends_in_jump(stmts: &[AStmt]) -> bool {
    matches!(
        stmts.last().map(|s| &s.kind),
        Some(StmtKind::Goto(_) | StmtKind::Return)
    )
}

fn contains(stmts: &[AStmt], pred: &dyn Fn(&StmtKind) -> bool) -> bool {
    let mut found = false;
    for_each_stmt(stmts, &mut |s| found |= pred(&s.kind));
    found
}

fn for_each_stmt(stmts: &[AStmt], f: &mut dyn FnMut(&AStmt)) {
    for s in stmts {
        f(s);
        match &s.kind {
            StmtKind::If { then, else_, .. } => {
                for_each_stmt(then, f);
                for_each_stmt(else_, f);
            }
            StmtKind::While { body, .. } => for_each_stmt(body, f),
            _ => {}
        }
    }
}

fn for_each_expr(stmts: &[AStmt], f: &mut dyn FnMut(&ast::Expr)) {
    for_each_stmt(stmts, &mut |s| match &s.kind {
        StmtKind::Assign(_, es) | StmtKind::Call { args: es, .. } => es.iter().for_each(&mut *f),
        StmtKind::Assume(e) | StmtKind::Assert(e) => f(e),
        StmtKind::If { cond: Some(e), .. } => f(e),
        StmtKind::While {
            cond, invariants, ..
        } => {
            cond.iter().for_each(&mut *f);
            invariants.iter().for_each(|i| f(&i.cond));
        }
        _ => {}
    });
}
