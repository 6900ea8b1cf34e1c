//! Top-level values computed at start-up (`let x = f 3`, `let g = let id y = y in id h`).
//!
//! OCaml evaluates such a value once, when the module is initialised, in the order of the
//! definitions, before the entry runs. Each becomes a `Store` reference named after it,
//! whose initial value is a placeholder of its type (`0`, `skip`, `[]`, pairs of those, and
//! for a function a method `x#unset` whose body is `fail`); the entry's body starts by
//! assigning every such reference its value, in definition order (`x := e; ...`), and each
//! use of `x` reads `!x`.
//!
//! Guarantee: no use reads a placeholder. A value's expression can only mention earlier
//! definitions (a top-level `let` is not recursive unless it is a function), so it runs
//! after every value it reads has been assigned, and every function that mentions `x` runs
//! only once the entry has started, after all the assignments. A computation that fails,
//! raises or draws inputs does so at the start of the entry, where OCaml's module
//! initialisation would, before the entry's own body. A polymorphic value (only syntactic
//! values generalise, so such a value is at most weakly polymorphic) and one holding a
//! reference are refused by name.

use super::super::ast::{Expr, Name, VarId};
use super::super::parser::unsupported;
use super::{Entry, R, Translator};
use crate::span::Span;
use crate::syntax::ast as core;
use std::rc::Rc;

impl Translator<'_> {
    /// Records the top-level value `name = value` to compute at start-up.
    pub(super) fn startup_value(&mut self, id: VarId, name: &Name, value: &Expr) -> R<()> {
        if self
            .typing
            .quantified
            .get(&id)
            .is_some_and(|vars| !vars.is_empty())
        {
            return Err(unsupported(
                value.span,
                "a polymorphic top-level value computed at start-up",
            ));
        }
        let ty = self.core_type(&self.typing.var_types[id.0 as usize], value.span)?;
        let core_name = self.method_name(&name.text);
        let init = self.placeholder(&core_name, &ty, name.span)?;
        self.declare_store(&core_name, name.span, ty, init);
        self.entries
            .insert(id, Entry::TopComputed(core_name.clone()));
        self.startup
            .push((core_name, name.span, Rc::new(value.clone())));
        Ok(())
    }

    /// A constant of type `ty`, never read (see the module doc).
    fn placeholder(&mut self, name: &str, ty: &core::Type, span: Span) -> R<core::Expr> {
        Ok(match ty {
            core::Type::Int => self.int(0, span),
            core::Type::Unit => self.mk(span, core::ExprKind::Skip),
            core::Type::List(_) => self.mk(span, core::ExprKind::Nil),
            core::Type::Pair(a, b) => {
                let a = self.placeholder(name, a, span)?;
                let b = self.placeholder(name, b, span)?;
                self.mk(span, core::ExprKind::Pair(Box::new(a), Box::new(b)))
            }
            core::Type::Arrow(params, ret) => {
                let method = self.unset_method(name, params, ret, span);
                self.var(&method, span)
            }
            core::Type::Ref(_) => {
                return Err(unsupported(
                    span,
                    "a top-level value computed at start-up that holds a reference",
                ));
            }
        })
    }

    /// The method `name#unset` of type `params -> ret`, whose body is `fail`.
    fn unset_method(
        &mut self,
        name: &str,
        params: &[core::Type],
        ret: &core::Type,
        span: Span,
    ) -> Rc<str> {
        let method_name = self.method_name(&format!("{name}#unset"));
        let id = core::MethodId(self.methods.len() as u32);
        let params = params
            .iter()
            .enumerate()
            .map(|(i, ty)| self.binder(format!("x{i}").into(), span, ty.clone()))
            .collect();
        let body = self.mk(span, core::ExprKind::Fail);
        self.placeholder_names.push((id, method_name.clone()));
        self.methods.push(Some(core::Method {
            id,
            name: core::Ident {
                name: method_name.clone(),
                span,
            },
            params,
            ret: ret.clone(),
            body,
        }));
        method_name
    }

    /// `body` preceded by the assignment of every start-up value, in definition order.
    pub(super) fn with_startup(&mut self, body: core::Expr) -> R<core::Expr> {
        let startup = std::mem::take(&mut self.startup);
        let mut assignments = Vec::new();
        for (name, span, value) in &startup {
            let value = self.expr(value)?;
            let kind = core::ExprKind::Assign {
                reference: core::Ident {
                    name: name.clone(),
                    span: *span,
                },
                value: Box::new(value),
            };
            assignments.push(self.mk(*span, kind));
        }
        let span = body.span;
        Ok(assignments
            .into_iter()
            .rev()
            .fold(body, |rest, assign| self.seq(assign, rest, span)))
    }
}
