//! Type declarations: `type T;` (uninterpreted), `type T = U;` (synonyms) and `datatype
//! T { … }`, resolved in every binding of the program before translation.
//!
//! Guarantees: after [`resolve`], no [`Ty::Named`] is left in the program: synonyms are
//! replaced by what they stand for (cycles are an error), an uninterpreted type is
//! [`Ty::Sort`] with its position among the program's `type T;` declarations (its IR
//! `SortId`, an SMT sort), a datatype's name is [`Ty::Data`] with its position, and no map
//! is indexed by a map.

use super::ast::{
    Binding, Expr, ExprKind, Function, Ident, Implementation, MapTy, Procedure, Program, Spec,
    Stmt, StmtKind, Ty, TyName,
};
use super::unsupported;
use crate::diagnostics::Diagnostic;
use std::collections::HashMap;

/// How many synonyms may stand behind one another (deeper is a cycle).
const MAX_SYNONYMS: usize = 64;

/// Replaces synonyms in every binding; an undefined type name is an error at its binding.
pub fn resolve(program: &mut Program) -> Result<(), Diagnostic> {
    let mut decls: HashMap<&str, Option<Ty>> = HashMap::new();
    let sorts = program.types.iter().filter(|t| t.synonym.is_none());
    let sort_index: HashMap<&str, u32> = sorts
        .enumerate()
        .map(|(k, t)| (&*t.name.name, k as u32))
        .collect();
    for t in &program.types {
        let ty = match sort_index.get(&*t.name.name) {
            Some(k) if t.synonym.is_none() => Some(Ty::Sort(TyName::new(&t.name.name), *k)),
            _ => t.synonym,
        };
        if decls.insert(&t.name.name, ty).is_some() {
            return Err(Diagnostic::error(
                t.name.span,
                format!("the type `{}` is declared twice", t.name.name),
                "declared again here",
            ));
        }
    }
    let datatypes: Vec<Ident> = program.datatypes.iter().map(|d| d.name.clone()).collect();
    for (index, name) in datatypes.iter().enumerate() {
        let ty = Ty::Data(TyName::new(&name.name), index as u32);
        if decls.insert(&name.name, Some(ty)).is_some() {
            return Err(Diagnostic::error(
                name.span,
                format!("the type `{}` is declared twice", name.name),
                "declared again here",
            ));
        }
    }
    let resolver = Resolver { decls };
    for t in &program.types {
        if let Some(ty) = t.synonym {
            resolver.ty(ty, &t.name, 0)?;
        }
    }
    let resolver = &resolver;
    let mut bindings: Vec<&mut Binding> = Vec::new();
    bindings.extend(program.globals.iter_mut());
    bindings.extend(program.consts.iter_mut().map(|c| &mut c.binding));
    for d in &mut program.datatypes {
        bindings.extend(d.ctors.iter_mut().flat_map(|c| c.fields.iter_mut()));
    }
    for p in &mut program.procs {
        bindings.extend(p.ins.iter_mut().chain(p.outs.iter_mut()));
        if let Some(body) = &mut p.body {
            bindings.extend(body.locals.iter_mut());
        }
    }
    for i in &mut program.impls {
        bindings.extend(i.ins.iter_mut().chain(i.outs.iter_mut()));
        bindings.extend(i.body.locals.iter_mut());
    }
    for b in bindings {
        b.ty = resolver.ty(b.ty, &b.name, 0)?;
    }
    let mut bound = Vec::new();
    quantifier_bindings(
        (&mut program.axioms, &mut program.functions),
        (&mut program.procs, &mut program.impls),
        &mut bound,
    );
    for b in bound {
        b.ty = resolver.ty(b.ty, &b.name, 0)?;
    }
    for f in &mut program.functions {
        for p in &mut f.params {
            p.ty = resolver.ty(p.ty, &p.name, 0)?;
        }
        f.result = resolver.ty(f.result, &f.name, 0)?;
    }
    Ok(())
}

/// The variables bound by the quantifiers of every expression of the program.
fn quantifier_bindings<'p>(
    (axioms, functions): (&'p mut [Expr], &'p mut [Function]),
    (procs, impls): (&'p mut [Procedure], &'p mut [Implementation]),
    out: &mut Vec<&'p mut Binding>,
) {
    for e in axioms {
        expr_bindings(e, out);
    }
    for f in functions {
        if let Some(body) = &mut f.body {
            expr_bindings(body, out);
        }
    }
    for p in procs {
        for spec in &mut p.specs {
            if let Spec::Requires { cond, .. } | Spec::Ensures { cond, .. } = spec {
                expr_bindings(cond, out);
            }
        }
        if let Some(body) = &mut p.body {
            stmts_bindings(&mut body.stmts, out);
        }
    }
    for i in impls {
        stmts_bindings(&mut i.body.stmts, out);
    }
}

fn stmts_bindings<'p>(stmts: &'p mut [Stmt], out: &mut Vec<&'p mut Binding>) {
    for s in stmts {
        match &mut s.kind {
            StmtKind::Assign(_, es) | StmtKind::Call { args: es, .. } => {
                es.iter_mut().for_each(|e| expr_bindings(e, out));
            }
            StmtKind::Assume(e) | StmtKind::Assert(e) => expr_bindings(e, out),
            StmtKind::If { cond, then, else_ } => {
                if let Some(c) = cond {
                    expr_bindings(c, out);
                }
                stmts_bindings(then, out);
                stmts_bindings(else_, out);
            }
            StmtKind::While {
                cond,
                invariants,
                body,
            } => {
                if let Some(c) = cond {
                    expr_bindings(c, out);
                }
                for inv in invariants {
                    expr_bindings(&mut inv.cond, out);
                }
                stmts_bindings(body, out);
            }
            StmtKind::Havoc(_)
            | StmtKind::Break
            | StmtKind::Return
            | StmtKind::Goto(_)
            | StmtKind::Label(_) => {}
        }
    }
}

fn expr_bindings<'p>(e: &'p mut Expr, out: &mut Vec<&'p mut Binding>) {
    stacker::maybe_grow(32 * 1024, 1024 * 1024, || match &mut e.kind {
        // `codeexpr::lower` ran before: no code expression is left.
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Var(_) | ExprKind::Code(_) => {}
        ExprKind::Old(a) | ExprKind::Unary(_, a) | ExprKind::Is(a, _) | ExprKind::Field(a, _) => {
            expr_bindings(a, out)
        }
        ExprKind::Binary(_, a, b) => {
            expr_bindings(a, out);
            expr_bindings(b, out);
        }
        ExprKind::Ite(a, b, c) => {
            expr_bindings(a, out);
            expr_bindings(b, out);
            expr_bindings(c, out);
        }
        ExprKind::Apply(_, args) => args.iter_mut().for_each(|a| expr_bindings(a, out)),
        ExprKind::Select(m, idx) => {
            expr_bindings(m, out);
            idx.iter_mut().for_each(|a| expr_bindings(a, out));
        }
        ExprKind::Update(m, idx, v) => {
            expr_bindings(m, out);
            idx.iter_mut().for_each(|a| expr_bindings(a, out));
            expr_bindings(v, out);
        }
        ExprKind::Quant(_, vars, body) => {
            out.extend(vars.iter_mut());
            expr_bindings(body, out);
        }
    })
}

struct Resolver<'p> {
    decls: HashMap<&'p str, Option<Ty>>,
}

impl Resolver<'_> {
    /// `ty` with synonyms replaced; errors point at `at` (the binding using the type).
    fn ty(&self, ty: Ty, at: &Ident, depth: usize) -> Result<Ty, Diagnostic> {
        if depth > MAX_SYNONYMS {
            return Err(Diagnostic::error(
                at.span,
                "the type synonyms used here form a cycle",
                "a cyclic type synonym",
            ));
        }
        match ty {
            Ty::Int | Ty::Bool | Ty::Data(..) | Ty::Sort(..) => Ok(ty),
            Ty::Map(m) => {
                let key = self.ty(m.key(), at, depth + 1)?;
                if let Ty::Map(_) = key {
                    return Err(unsupported(at.span, "maps indexed by maps"));
                }
                let value = self.ty(m.value(), at, depth + 1)?;
                Ok(Ty::Map(MapTy::new(key, value)))
            }
            Ty::Named(n) => match self.decls.get(n.as_str()) {
                Some(Some(synonym)) => self.ty(*synonym, at, depth + 1),
                Some(None) | None => Err(Diagnostic::error(
                    at.span,
                    format!("undefined type `{}`", n.as_str()),
                    "the type of this is not declared",
                )),
            },
        }
    }
}
