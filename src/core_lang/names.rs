//! Human-readable names for every function of a program.
//!
//! Methods are named by their declaration; a `let rec` function by its bound name and a
//! `fun` by its position (`fun@3:5`). These are the names traces and witnesses show.

use crate::core_lang::ast::*;
use crate::core_lang::visit::walk;
use crate::span::SourceFile;

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
