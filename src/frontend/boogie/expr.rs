//! Boogie expressions to IR expressions, type-checked on the way (`int` and `bool`).
//!
//! Guarantees: [`Scope::expr`] returns a well-typed IR expression with its type, or a
//! [`Diagnostic`] at the offending sub-expression (undefined name, type mismatch, wrong
//! arity). Boogie's Euclidean `div`/`mod` are expressed through the IR's truncating `/` and
//! `%`; `<==>` is equality of booleans; functions with a body are expanded (macros).

use super::ast::{self, BinOp, Expr, ExprKind, Ty, UnOp};
use super::unsupported;
use crate::diagnostics::Diagnostic;
use crate::span::Span;
use boogie_like::ir::{self as ir, GlobalId, ProcId, Program as IrProgram, Type};
use std::cell::RefCell;
use std::collections::HashMap;

/// How deep function bodies may be expanded inside one another.
const MAX_EXPANSION: usize = 64;

pub fn ir_type(ty: Ty) -> Type {
    match ty {
        Ty::Int => Type::Int,
        Ty::Bool => Type::Bool,
        Ty::Map(m) => Type::map(ir_type(m.key()), ir_type(m.value())),
        Ty::Sort(_, index) => Type::Sort(ir::SortId(index)),
        // `types::resolve` leaves no type name unresolved.
        Ty::Named(_) => Type::Int,
        Ty::Data(_, index) => Type::Data(ir::DatatypeId(index)),
    }
}

/// A translated expression and its Boogie type.
pub type Typed = (ir::Expr, Ty);

/// Where names in an expression resolve: substitutions first (formals of a contract, the
/// parameters of an expanded function), then, if `locals` is set, the locals of `proc`,
/// then globals and constants. Inside `old(…)`, a global with an entry in `olds` reads it.
pub struct Scope<'a> {
    pub ir: &'a IrProgram,
    pub proc: ProcId,
    pub locals: bool,
    pub subst: &'a HashMap<String, Typed>,
    pub olds: &'a HashMap<String, ir::Expr>,
    pub functions: &'a HashMap<String, &'a ast::Function>,
    pub globals: &'a HashMap<String, Ty>,
    /// The Boogie types of the implementation's variables (the IR's lose declared types).
    pub local_types: &'a HashMap<String, Ty>,
    /// The global map holding each function without a body.
    pub uninterpreted: &'a HashMap<String, GlobalId>,
    /// The variables quantifiers bind, as locals to add to `proc` after the expression
    /// (their ids follow `proc`'s current locals, in order).
    pub bound: &'a RefCell<Vec<(String, Type)>>,
}

impl Scope<'_> {
    pub fn expr(&self, e: &Expr) -> Result<Typed, Diagnostic> {
        self.expr_in(e, false, 0)
    }

    /// `e`, which must have type `want`.
    pub fn expect(&self, e: &Expr, want: Ty) -> Result<ir::Expr, Diagnostic> {
        let (x, ty) = self.expr(e)?;
        check_type(e.span, ty, want)?;
        Ok(x)
    }

    fn expr_in(&self, e: &Expr, old: bool, depth: usize) -> Result<Typed, Diagnostic> {
        stacker::maybe_grow(32 * 1024, 1024 * 1024, || match &e.kind {
            ExprKind::Int(i) => Ok((ir::Expr::Int(i.clone()), Ty::Int)),
            ExprKind::Bool(b) => Ok((ir::Expr::Bool(*b), Ty::Bool)),
            ExprKind::Var(name) => self.var(name, old),
            ExprKind::Old(inner) => self.expr_in(inner, true, depth),
            ExprKind::Unary(op, arg) => self.unary(*op, arg, old, depth),
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r, old, depth),
            ExprKind::Ite(c, t, f) => self.ite(c, t, f, old, depth),
            ExprKind::Apply(f, args) => self.apply(f, args, old, depth),
            ExprKind::Select(m, indices) => {
                let map = self.expr_in(m, old, depth)?;
                self.select(map, indices, old, depth)
            }
            ExprKind::Update(m, indices, v) => {
                let map = self.expr_in(m, old, depth)?;
                self.update(map, (m.span, indices), v, old, depth)
            }
            ExprKind::Is(arg, ctor) => {
                let value = self.expr_in(arg, old, depth)?;
                self.is(value, arg.span, ctor)
            }
            ExprKind::Field(arg, field) => {
                let value = self.expr_in(arg, old, depth)?;
                self.field(value, arg.span, field)
            }
            ExprKind::Quant(forall, vars, body) => self.quantifier(*forall, vars, body, old, depth),
            // `codeexpr::lower` replaced every code expression before translation.
            ExprKind::Code(_) => Err(unsupported(e.span, "a code expression here")),
        })
    }

    /// `forall x: T :: e`: each bound variable is a fresh local of `proc` (named
    /// `x#q<k>`), which only the quantifier's IR expression mentions. A variable of an
    /// uninterpreted type ranges over its SMT sort.
    fn quantifier(
        &self,
        forall: bool,
        vars: &[ast::Binding],
        body: &Expr,
        old: bool,
        depth: usize,
    ) -> Result<Typed, Diagnostic> {
        let mut subst = self.subst.clone();
        let mut ids = Vec::new();
        for v in vars {
            let proc = &self.ir.procs[self.proc];
            let mut bound = self.bound.borrow_mut();
            let id = ir::LocalId((proc.locals.len() + bound.len()) as u32);
            bound.push((format!("{}#q{}", v.name.name, id.0), ir_type(v.ty)));
            subst.insert(v.name.name.to_string(), (ir::Expr::var(id), v.ty));
            ids.push(id);
        }
        let inner = Scope {
            subst: &subst,
            ..*self
        };
        let (b, ty) = inner.expr_in(body, old, depth)?;
        check_type(body.span, ty, Ty::Bool)?;
        let quant = ir::Expr::Quant {
            forall,
            vars: ids,
            body: Box::new(b),
        };
        Ok((quant, Ty::Bool))
    }

    /// `e is C`: `e` must be of `C`'s datatype.
    fn is(&self, (x, ty): Typed, span: Span, ctor: &ast::Ident) -> Result<Typed, Diagnostic> {
        let Some(id) = find_ctor(self.ir, &ctor.name) else {
            return Err(undefined(ctor, "constructor"));
        };
        check_type(span, ty, datatype_ty(self.ir, id.datatype))?;
        Ok((ir::Expr::is(x, id), Ty::Bool))
    }

    /// `e->f`: `f` must be a field of `e`'s datatype.
    fn field(&self, (x, ty): Typed, span: Span, name: &ast::Ident) -> Result<Typed, Diagnostic> {
        let Ty::Data(_, index) = ty else {
            return Err(Diagnostic::error(
                span,
                format!("type mismatch: expected a datatype, found `{ty}`"),
                format!("this has type `{ty}`, it has no fields"),
            ));
        };
        let datatype = &self.ir.datatypes[ir::DatatypeId(index)];
        let found = datatype.ctors.iter().enumerate().find_map(|(c, ctor)| {
            let f = ctor.fields.iter().position(|f| f.name == *name.name)?;
            Some((c, f, ctor.fields[f].ty))
        });
        let Some((c, f, field_ty)) = found else {
            return Err(undefined(name, "field"));
        };
        let ctor = ir::CtorId {
            datatype: ir::DatatypeId(index),
            index: c as u32,
        };
        let field = ir::FieldRef {
            ctor,
            index: f as u32,
        };
        Ok((ir::Expr::select(x, field), boogie_ty(self.ir, field_ty)))
    }

    /// `C(args)` for the constructor `C`.
    fn construct(
        &self,
        id: ir::CtorId,
        (name, args): (&ast::Ident, &[Expr]),
        old: bool,
        depth: usize,
    ) -> Result<Typed, Diagnostic> {
        let fields = &self
            .ir
            .ctor(id)
            .expect("internal error: constructor")
            .fields;
        if fields.len() != args.len() {
            return Err(arity(
                name.span,
                "constructor",
                &name.name,
                fields.len(),
                args.len(),
            ));
        }
        let mut values = Vec::new();
        for (field, a) in fields.iter().zip(args) {
            let (x, ty) = self.expr_in(a, old, depth)?;
            check_type(a.span, ty, boogie_ty(self.ir, field.ty))?;
            values.push(x);
        }
        Ok((
            ir::Expr::ctor(id, values),
            datatype_ty(self.ir, id.datatype),
        ))
    }

    /// `m[i, j]` = `m[i][j]`
    fn select(
        &self,
        (mut x, mut ty): Typed,
        indices: &[Expr],
        old: bool,
        depth: usize,
    ) -> Result<Typed, Diagnostic> {
        for index in indices {
            let m = self.map_type(ty, index.span)?;
            let (i, it) = self.expr_in(index, old, depth)?;
            check_type(index.span, it, m.key())?;
            (x, ty) = (ir::Expr::map_get(x, i), m.value());
        }
        Ok((x, ty))
    }

    /// `m[i, j := v]` = `m[i := m[i][j := v]]`
    fn update(
        &self,
        (x, ty): Typed,
        (span, indices): (Span, &[Expr]),
        value: &Expr,
        old: bool,
        depth: usize,
    ) -> Result<Typed, Diagnostic> {
        let Some((first, rest)) = indices.split_first() else {
            let (v, vt) = self.expr_in(value, old, depth)?;
            check_type(value.span, vt, ty)?;
            return Ok((v, ty));
        };
        let m = self.map_type(ty, span)?;
        let (i, it) = self.expr_in(first, old, depth)?;
        check_type(first.span, it, m.key())?;
        let inner = (ir::Expr::map_get(x.clone(), i.clone()), m.value());
        let (v, _) = self.update(inner, (span, rest), value, old, depth)?;
        Ok((ir::Expr::map_set(x, i, v), ty))
    }

    fn map_type(&self, ty: Ty, span: Span) -> Result<ast::MapTy, Diagnostic> {
        match ty {
            Ty::Map(m) => Ok(m),
            other => Err(Diagnostic::error(
                span,
                format!("type mismatch: expected a map, found `{other}`"),
                format!("this has type `{other}`, it cannot be indexed"),
            )),
        }
    }

    fn var(&self, name: &ast::Ident, old: bool) -> Result<Typed, Diagnostic> {
        let n = &*name.name;
        if let Some(t) = self.subst.get(n) {
            return Ok(t.clone());
        }
        let proc = &self.ir.procs[self.proc];
        if self.locals
            && let Some(local) = proc.local_by_name(n)
        {
            let ty = match self.local_types.get(n) {
                Some(ty) => *ty,
                None => boogie_ty(self.ir, proc.locals[local].ty),
            };
            return Ok((ir::Expr::var(local), ty));
        }
        if let Some(ty) = self.globals.get(n) {
            if old && let Some(saved) = self.olds.get(n) {
                return Ok((saved.clone(), *ty));
            }
            let g = self
                .ir
                .global_by_name(n)
                .expect("internal error: global declared");
            return Ok((ir::Expr::var(g), *ty));
        }
        Err(Diagnostic::error(
            name.span,
            format!("undefined variable `{n}`"),
            "not declared here",
        ))
    }

    fn unary(&self, op: UnOp, arg: &Expr, old: bool, depth: usize) -> Result<Typed, Diagnostic> {
        let (x, ty) = self.expr_in(arg, old, depth)?;
        let (want, iop) = match op {
            UnOp::Neg => (Ty::Int, ir::UnOp::Neg),
            UnOp::Not => (Ty::Bool, ir::UnOp::Not),
        };
        check_type(arg.span, ty, want)?;
        Ok((ir::Expr::unary(iop, x), want))
    }

    fn binary(
        &self,
        op: BinOp,
        l: &Expr,
        r: &Expr,
        old: bool,
        depth: usize,
    ) -> Result<Typed, Diagnostic> {
        let (lx, lt) = self.expr_in(l, old, depth)?;
        let (rx, rt) = self.expr_in(r, old, depth)?;
        let (operand, result) = operand_types(op);
        match operand {
            Some(want) => {
                check_type(l.span, lt, want)?;
                check_type(r.span, rt, want)?;
            }
            None => check_type(r.span, rt, lt)?,
        }
        Ok((build_binary(op, lx, rx), result))
    }

    fn ite(
        &self,
        c: &Expr,
        t: &Expr,
        f: &Expr,
        old: bool,
        depth: usize,
    ) -> Result<Typed, Diagnostic> {
        let (cx, ct) = self.expr_in(c, old, depth)?;
        check_type(c.span, ct, Ty::Bool)?;
        let (tx, tt) = self.expr_in(t, old, depth)?;
        let (fx, ft) = self.expr_in(f, old, depth)?;
        check_type(f.span, ft, tt)?;
        Ok((ir::Expr::ite(cx, tx, fx), tt))
    }

    /// A function application: with a body, the body with the parameters replaced by the
    /// arguments; without one, a read of the function's map.
    fn apply(
        &self,
        f: &ast::Ident,
        args: &[Expr],
        old: bool,
        depth: usize,
    ) -> Result<Typed, Diagnostic> {
        if let Some(id) = find_ctor(self.ir, &f.name) {
            return self.construct(id, (f, args), old, depth);
        }
        let Some(func) = self.functions.get(&*f.name) else {
            return Err(undefined(f, "function"));
        };
        if depth >= MAX_EXPANSION {
            return Err(unsupported(f.span, "recursive functions"));
        }
        if func.params.len() != args.len() {
            return Err(arity(
                f.span,
                "function",
                &f.name,
                func.params.len(),
                args.len(),
            ));
        }
        let mut subst = HashMap::new();
        let mut actuals = Vec::new();
        for (p, a) in func.params.iter().zip(args) {
            let (x, ty) = self.expr_in(a, old, depth)?;
            check_type(a.span, ty, p.ty)?;
            subst.insert(p.name.name.to_string(), (x.clone(), ty));
            actuals.push(x);
        }
        let Some(body) = &func.body else {
            return Ok((self.uninterpreted(&f.name, actuals), func.result));
        };
        let inner = Scope {
            locals: false,
            subst: &subst,
            ..*self
        };
        let (x, ty) = inner.expr_in(body, false, depth + 1)?;
        check_type(body.span, ty, func.result)?;
        Ok((x, ty))
    }

    /// `f(a, b)` of a function without a body: `f[a][b]`, a read of the global map that
    /// holds the function (`to_ir::uninterpreted_globals`; never written, so fixed).
    fn uninterpreted(&self, name: &str, args: Vec<ir::Expr>) -> ir::Expr {
        let Some(global) = self.uninterpreted.get(name) else {
            panic!("internal error: no global for the function `{name}`")
        };
        let f = ir::Expr::var(*global);
        args.into_iter().fold(f, ir::Expr::map_get)
    }
}

/// The Boogie type of an IR type.
pub fn boogie_ty(ir: &IrProgram, ty: Type) -> Ty {
    match ty {
        Type::Bool => Ty::Bool,
        Type::Map(m) => Ty::Map(ast::MapTy::new(
            boogie_ty(ir, m.key()),
            boogie_ty(ir, m.value()),
        )),
        Type::Data(id) => datatype_ty(ir, id),
        Type::Sort(id) => Ty::Sort(ast::TyName::new(&ir.sorts[id].name), id.0),
        Type::Int => Ty::Int,
    }
}

fn datatype_ty(ir: &IrProgram, id: ir::DatatypeId) -> Ty {
    Ty::Data(ast::TyName::new(&ir.datatypes[id].name), id.0)
}

/// The constructor named `name`, in any datatype.
fn find_ctor(ir: &IrProgram, name: &str) -> Option<ir::CtorId> {
    ir.datatypes.iter().find_map(|(datatype, d)| {
        let index = d.ctors.iter().position(|c| c.name == name)?;
        Some(ir::CtorId {
            datatype,
            index: index as u32,
        })
    })
}

fn undefined(name: &ast::Ident, what: &str) -> Diagnostic {
    Diagnostic::error(
        name.span,
        format!("undefined {what} `{}`", name.name),
        "not declared here",
    )
}

pub fn check_type(span: Span, found: Ty, want: Ty) -> Result<(), Diagnostic> {
    if found == want {
        return Ok(());
    }
    Err(Diagnostic::error(
        span,
        format!("type mismatch: expected `{want}`, found `{found}`"),
        format!("this has type `{found}`"),
    ))
}

pub fn arity(span: Span, what: &str, name: &str, want: usize, found: usize) -> Diagnostic {
    Diagnostic::error(
        span,
        format!("the {what} `{name}` takes {want} argument(s), given {found}"),
        "wrong number of arguments",
    )
}

/// The operand type (`None`: both of one type) and the result type of `op`.
fn operand_types(op: BinOp) -> (Option<Ty>, Ty) {
    match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod => (Some(Ty::Int), Ty::Int),
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => (Some(Ty::Int), Ty::Bool),
        BinOp::Eq | BinOp::Neq => (None, Ty::Bool),
        BinOp::Iff | BinOp::Implies | BinOp::And | BinOp::Or => (Some(Ty::Bool), Ty::Bool),
    }
}

fn build_binary(op: BinOp, l: ir::Expr, r: ir::Expr) -> ir::Expr {
    let simple = |iop| ir::Expr::binary(iop, l.clone(), r.clone());
    match op {
        BinOp::Add => simple(ir::BinOp::Add),
        BinOp::Sub => simple(ir::BinOp::Sub),
        BinOp::Mul => simple(ir::BinOp::Mul),
        BinOp::Lt => simple(ir::BinOp::Lt),
        BinOp::Le => simple(ir::BinOp::Le),
        BinOp::Gt => simple(ir::BinOp::Gt),
        BinOp::Ge => simple(ir::BinOp::Ge),
        BinOp::Eq | BinOp::Iff => simple(ir::BinOp::Eq),
        BinOp::Neq => simple(ir::BinOp::Neq),
        BinOp::And => simple(ir::BinOp::And),
        BinOp::Or => simple(ir::BinOp::Or),
        BinOp::Implies => simple(ir::BinOp::Implies),
        BinOp::Div => simple(ir::BinOp::EuclidDiv),
        BinOp::Mod => simple(ir::BinOp::EuclidMod),
    }
}

/// The globals read under `old(…)` in `e` (names in `globals`).
pub fn old_globals(e: &Expr, globals: &HashMap<String, Ty>, out: &mut Vec<String>) {
    walk(e, false, &mut |name, old| {
        if old && globals.contains_key(name) && !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
    });
}

fn walk(e: &Expr, old: bool, f: &mut impl FnMut(&str, bool)) {
    stacker::maybe_grow(32 * 1024, 1024 * 1024, || match &e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) => {}
        ExprKind::Var(n) => f(&n.name, old),
        ExprKind::Old(inner) => walk(inner, true, f),
        ExprKind::Unary(_, a) => walk(a, old, f),
        ExprKind::Binary(_, a, b) => {
            walk(a, old, f);
            walk(b, old, f);
        }
        ExprKind::Ite(a, b, c) => {
            walk(a, old, f);
            walk(b, old, f);
            walk(c, old, f);
        }
        ExprKind::Apply(_, args) => args.iter().for_each(|a| walk(a, old, f)),
        ExprKind::Select(m, indices) => {
            walk(m, old, f);
            indices.iter().for_each(|a| walk(a, old, f));
        }
        ExprKind::Update(m, indices, v) => {
            walk(m, old, f);
            indices.iter().for_each(|a| walk(a, old, f));
            walk(v, old, f);
        }
        ExprKind::Is(a, _) | ExprKind::Field(a, _) | ExprKind::Quant(_, _, a) => walk(a, old, f),
        ExprKind::Code(_) => {}
    })
}
