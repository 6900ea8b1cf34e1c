//! Traversal of the core AST: the direct sub-expressions of an expression, in evaluation
//! order, and a walk over every expression of a tree. The walk grows its stack on demand
//! (`stacker`), so a tree of any height is walked without overflow.

use crate::core_lang::ast::*;

/// Calls `visit` on `e` and every expression inside it, outermost first.
pub fn walk<'p>(e: &'p Expr, visit: &mut dyn FnMut(&'p Expr)) {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
        visit(e);
        for child in children(e) {
            walk(child, visit);
        }
    })
}

/// The direct sub-expressions of `e`, in evaluation order.
pub fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Int(_)
        | ExprKind::Skip
        | ExprKind::Fail
        | ExprKind::Nil
        | ExprKind::Var(_)
        | ExprKind::Deref(_) => vec![],
        ExprKind::Fun(lambda) => vec![&lambda.body],
        ExprKind::App { func, args } => std::iter::once(&**func).chain(args).collect(),
        ExprKind::Let { value, body, .. } => vec![value, body],
        ExprKind::LetRec { lambda, body, .. } => vec![&lambda.body, body],
        ExprKind::If {
            cond,
            then_branch,
            else_branch,
        } => vec![cond, then_branch, else_branch],
        ExprKind::Assert(x)
        | ExprKind::Neg(x)
        | ExprKind::List(_, x)
        | ExprKind::Alloc(x)
        | ExprKind::Load(x)
        | ExprKind::IsCtor { value: x, .. }
        | ExprKind::Field { value: x, .. } => vec![x],
        ExprKind::Construct { args, .. } => args.iter().collect(),
        ExprKind::Store { target, value } => vec![target, value],
        ExprKind::Offset { base, index } => vec![base, index],
        ExprKind::Assign { value, .. } => vec![value],
        ExprKind::Proj { pair, .. } => vec![pair],
        ExprKind::Pair(a, b) | ExprKind::Cons(a, b) => vec![a, b],
        ExprKind::Binary { lhs, rhs, .. } => vec![lhs, rhs],
        ExprKind::Raise { arg, .. } => arg.iter().map(|a| &**a).collect(),
        ExprKind::Input { below } => below.iter().map(|b| &**b).collect(),
        ExprKind::Try { body, handlers } => std::iter::once(&**body)
            .chain(handlers.iter().map(|h| &h.body))
            .collect(),
    }
}

/// Whether some `try` may handle an exception. Without one, every `raise` (and every
/// division by zero) is a failure where it happens.
pub fn catches_exceptions(program: &Program) -> bool {
    let mut found = false;
    for body in program.bodies() {
        walk(body, &mut |e| {
            found |= matches!(e.kind, ExprKind::Try { .. });
        });
    }
    found
}
