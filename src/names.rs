//! Human-readable names for every function of a program.
//!
//! Methods are named by their declaration; a `let rec` function by its bound name and a
//! `fun` by its position (`fun@3:5`). These are the names traces and witnesses show.

use crate::span::SourceFile;
use crate::syntax::ast::*;

/// The display name of every lambda, by `LambdaId`.
#[derive(Clone, Debug)]
pub struct FunctionNames {
    lambdas: Vec<String>,
}

impl FunctionNames {
    pub fn new(program: &Program, file: &SourceFile) -> FunctionNames {
        let mut names = FunctionNames {
            lambdas: vec![String::new(); program.lambda_count as usize],
        };
        let mut visit = |e: &Expr| names.name_expr(e, file);
        for decl in &program.store {
            walk(&decl.init, &mut visit);
        }
        for method in &program.methods {
            walk(&method.body, &mut visit);
        }
        walk(&program.main.body, &mut visit);
        names
    }

    fn name_expr(&mut self, e: &Expr, file: &SourceFile) {
        match &e.kind {
            ExprKind::Fun(lambda) => {
                let at = file.line_col(lambda.span.start as usize);
                self.lambdas[lambda.id.index()] = format!("fun@{at}");
            }
            ExprKind::LetRec { binder, lambda, .. } => {
                self.lambdas[lambda.id.index()] = binder.name.name.to_string();
            }
            _ => {}
        }
    }

    pub fn lambda(&self, id: LambdaId) -> &str {
        &self.lambdas[id.index()]
    }
}

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
        | ExprKind::Load(x) => vec![x],
        ExprKind::Store { target, value } => vec![target, value],
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
