//! Definitional axioms as function bodies.
//!
//! `axiom (forall x: T, y: U :: f(x, y) == e)` (or `<==>`, either side), where `f` is a
//! function without a body, its arguments are the bound variables, each once, with the
//! parameters' types, and `e` does not apply `f`, defines `f`: [`inline_definitions`] makes
//! `e` the body of `f` (a macro, expanded where applied, its parameters renamed to the
//! bound variables) and drops the axiom. Guarantee: the program means the same — the axiom
//! holds exactly when `f` is that function — and the quantifier is gone, so neither the
//! solver nor the replay has to instantiate it (SMACK's prelude: `$pa`, `$i2p`, `$p2b` …).
//! Only the first such axiom of a function is taken; a second stays an axiom.

use super::ast::{BinOp, Binding, Expr, ExprKind, Program};

/// Turns every definitional axiom of `program` into its function's body.
pub fn inline_definitions(program: &mut Program) {
    let mut kept = Vec::new();
    for axiom in std::mem::take(&mut program.axioms) {
        match definition(program, &axiom) {
            Some((index, params, body)) => {
                let f = &mut program.functions[index];
                for (param, name) in f.params.iter_mut().zip(params) {
                    param.name = name;
                }
                f.body = Some(body);
            }
            None => kept.push(axiom),
        }
    }
    program.axioms = kept;
}

/// The function `axiom` defines: its index, the parameter names, the body.
fn definition(program: &Program, axiom: &Expr) -> Option<(usize, Vec<super::ast::Ident>, Expr)> {
    let ExprKind::Quant(true, vars, body) = &axiom.kind else {
        return None;
    };
    let ExprKind::Binary(BinOp::Eq | BinOp::Iff, l, r) = &body.kind else {
        return None;
    };
    [(l, r), (r, l)]
        .into_iter()
        .find_map(|(app, e)| defines(program, vars, app, e))
}

fn defines(
    program: &Program,
    vars: &[Binding],
    app: &Expr,
    e: &Expr,
) -> Option<(usize, Vec<super::ast::Ident>, Expr)> {
    let ExprKind::Apply(name, args) = &app.kind else {
        return None;
    };
    let index = program
        .functions
        .iter()
        .position(|f| f.name.name == name.name)?;
    let f = &program.functions[index];
    if f.body.is_some() || f.params.len() != args.len() || args.len() != vars.len() {
        return None;
    }
    let mut params = Vec::new();
    for (arg, param) in args.iter().zip(&f.params) {
        let ExprKind::Var(v) = &arg.kind else {
            return None;
        };
        let bound = vars.iter().find(|b| b.name.name == v.name)?;
        if bound.ty != param.ty || params.iter().any(|p: &super::ast::Ident| p.name == v.name) {
            return None;
        }
        params.push(v.clone());
    }
    if applies(e, &name.name) {
        return None;
    }
    Some((index, params, e.clone()))
}

/// Whether `e` applies the function `name` (or has an `old`, which no body may).
fn applies(e: &Expr, name: &str) -> bool {
    stacker::maybe_grow(32 * 1024, 1024 * 1024, || match &e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Var(_) => false,
        ExprKind::Old(_) | ExprKind::Code(_) => true,
        ExprKind::Apply(f, args) => &*f.name == name || args.iter().any(|a| applies(a, name)),
        ExprKind::Unary(_, a) | ExprKind::Is(a, _) | ExprKind::Field(a, _) => applies(a, name),
        ExprKind::Quant(_, _, a) => applies(a, name),
        ExprKind::Binary(_, a, b) => applies(a, name) || applies(b, name),
        ExprKind::Ite(a, b, c) => applies(a, name) || applies(b, name) || applies(c, name),
        ExprKind::Select(m, idx) => applies(m, name) || idx.iter().any(|a| applies(a, name)),
        ExprKind::Update(m, idx, v) => {
            applies(m, name) || applies(v, name) || idx.iter().any(|a| applies(a, name))
        }
    })
}
