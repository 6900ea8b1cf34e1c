//! Which variables each `fun` captures: its free local variables.
//!
//! Guarantee: for every lambda, [`Captures::of`] lists (in `BinderId` order, so
//! deterministically) exactly the local binders its body uses that are bound outside it —
//! excluding its own parameters and, for a `let rec` function, its own name (a self-call is
//! a direct call and the closure value is rebuilt from the captured values). A nested
//! `fun`'s captures count as uses of its enclosing function.

use crate::core_lang::ast::*;
use crate::core_lang::typecheck::{Resolution, TypeInfo};
use crate::core_lang::visit::children;
use std::collections::{BTreeSet, HashMap};

#[derive(Debug, Default)]
pub struct Captures {
    by_lambda: HashMap<LambdaId, Vec<BinderId>>,
}

impl Captures {
    pub fn of(&self, lambda: LambdaId) -> &[BinderId] {
        &self.by_lambda[&lambda]
    }
}

/// Computes the captures of every lambda in the program.
pub fn compute(program: &Program, info: &TypeInfo) -> Captures {
    let mut captures = Captures::default();
    for body in super::bodies(program) {
        free_binders(body, info, &mut captures);
    }
    captures
}

/// The free local binders of `e`, recording the captures of every lambda inside.
fn free_binders(e: &Expr, info: &TypeInfo, captures: &mut Captures) -> BTreeSet<BinderId> {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || match &e.kind {
        // `!r` / `r := e` on a local of a `Ref` type use that local.
        ExprKind::Var(_) | ExprKind::Deref(_) | ExprKind::Assign { .. } => {
            let mut free: BTreeSet<BinderId> = children(e)
                .into_iter()
                .flat_map(|child| free_binders(child, info, captures))
                .collect();
            if let Some(Resolution::Local(b)) = info.resolution(e) {
                free.insert(b);
            }
            free
        }
        ExprKind::Fun(lambda) => lambda_captures(lambda, None, info, captures),
        ExprKind::Let {
            binder,
            value,
            body,
        } => {
            let mut free = free_binders(body, info, captures);
            free.remove(&binder.id);
            free.extend(free_binders(value, info, captures));
            free
        }
        ExprKind::LetRec {
            binder,
            lambda,
            body,
        } => {
            let mut free = lambda_captures(lambda, Some(binder.id), info, captures);
            free.extend(free_binders(body, info, captures));
            free.remove(&binder.id);
            free
        }
        ExprKind::Try { body, handlers } => {
            let mut free = free_binders(body, info, captures);
            for handler in handlers {
                let mut handled = free_binders(&handler.body, info, captures);
                if let Some(binder) = &handler.arg {
                    handled.remove(&binder.id);
                }
                free.extend(handled);
            }
            free
        }
        _ => children(e)
            .into_iter()
            .flat_map(|child| free_binders(child, info, captures))
            .collect(),
    })
}

fn lambda_captures(
    lambda: &Lambda,
    self_binder: Option<BinderId>,
    info: &TypeInfo,
    captures: &mut Captures,
) -> BTreeSet<BinderId> {
    let mut free = free_binders(&lambda.body, info, captures);
    for param in &lambda.params {
        free.remove(&param.id);
    }
    if let Some(me) = self_binder {
        free.remove(&me);
    }
    captures
        .by_lambda
        .insert(lambda.id, free.iter().copied().collect());
    free
}
