//! OCaml exceptions in the core: `exception` declarations become the core's exception
//! table, `raise`/`failwith`/`invalid_arg` and a failed `match` become `Raise`, `try ...
//! with` becomes `Try` (docs/ocaml.md, "Exceptions").
//!
//! Guarantees: the predefined exceptions come first, in [`PREDEFINED`] order, then the
//! declared ones in program order (a redeclared name means the later one from there on);
//! an exception carries a core `Int` exactly when it is declared `of int` or `of bool`.
//! A handler's pattern is `_`, `E`, `E x`, `E _` or an or-pattern of those without
//! variables; anything else (a `when` guard, a variable for the exception, a pattern that
//! tests the argument) is a diagnostic naming it.

use super::super::ast::*;
use super::super::parser::unsupported;
use super::super::types::Ty;
use super::{R, Translator, core_type, internal};
use crate::core_lang::ast as core;
use crate::span::Span;
use std::rc::Rc;

/// The predefined exceptions (`Failure` and `Invalid_argument` carry a string in OCaml,
/// nothing in the core).
pub const PREDEFINED: &[&str] = &[
    core::DIVISION_BY_ZERO,
    "Not_found",
    "Exit",
    "Failure",
    "Invalid_argument",
    "Match_failure",
];

impl Translator<'_> {
    /// Declares the predefined exceptions and those of `program`.
    pub(super) fn declare_exceptions(&mut self, program: &Program) -> R<()> {
        for name in PREDEFINED {
            self.declare_exception(Rc::from(*name), None);
        }
        for item in &program.items {
            let Item::Exception(name, arg) = item else {
                continue;
            };
            let carried = match self.typing.exceptions.get(&name.text) {
                Some(None) | None => None,
                Some(Some(Ty::Int | Ty::Bool)) => Some(core::Type::Int),
                // A reference is one integer in the IR too (its address).
                Some(Some(t @ Ty::Ref(_))) => {
                    Some(core_type(&self.type_cx(), &self.ground(t), name.span)?)
                }
                Some(Some(_)) if arg.is_some() => {
                    return Err(unsupported(
                        name.span,
                        "exceptions carrying a value other than an `int`, a `bool` or a reference",
                    ));
                }
                Some(Some(_)) => None,
            };
            self.declare_exception(name.text.clone(), carried);
        }
        Ok(())
    }

    fn declare_exception(&mut self, name: Rc<str>, arg: Option<core::Type>) {
        let id = core::ExnId(self.exceptions.len() as u32);
        self.exceptions.push(core::ExnDecl {
            name: name.clone(),
            arg,
        });
        self.exception_ids.insert(name, id);
    }

    fn exception_id(&self, name: &Name) -> R<core::ExnId> {
        self.exception_ids
            .get(&name.text)
            .copied()
            .ok_or_else(|| internal(name.span, "an undeclared exception"))
    }

    /// `raise E` of a predefined exception without an argument in the core.
    pub(super) fn raise_named(&mut self, span: Span, name: &str) -> core::Expr {
        let exn = self.exception_ids[name];
        self.mk(span, core::ExprKind::Raise { exn, arg: None })
    }

    /// `raise E` / `raise (E e)` / `raise (Failure "...")`.
    pub(super) fn raise(&mut self, span: Span, exn: &Expr) -> R<core::Expr> {
        let ExprKind::Construct(name, arg) = &exn.kind else {
            return Err(unsupported(
                exn.span,
                "raising an exception value held in a variable (write `raise E`)",
            ));
        };
        let id = self.exception_id(name)?;
        let arg = match arg {
            Some(arg) if self.exceptions[id.index()].arg.is_some() => {
                Some(Box::new(self.expr(arg)?))
            }
            Some(arg) if matches!(arg.kind, ExprKind::Str(_)) => None,
            Some(arg) => {
                return Err(unsupported(
                    arg.span,
                    "an exception argument other than an `int`, a `bool`, a reference or a string literal",
                ));
            }
            None => None,
        };
        Ok(self.mk(span, core::ExprKind::Raise { exn: id, arg }))
    }

    /// `try body with cases`.
    pub(super) fn try_with(&mut self, span: Span, body: &Expr, cases: &[Case]) -> R<core::Expr> {
        let body = Box::new(self.expr(body)?);
        let mut handlers = Vec::new();
        for case in cases {
            if let Some(guard) = &case.guard {
                return Err(unsupported(guard.span, "`when` guards in `try ... with`"));
            }
            self.handlers(&case.pattern, &case.body, &mut handlers)?;
        }
        Ok(self.mk(span, core::ExprKind::Try { body, handlers }))
    }

    /// `match x with cases | exception p -> h`: the scrutinee is evaluated under a `try`
    /// whose value is a tagged pair, `(1, (x, _))` or, from a handler, `(0, (_, h))` (`_` a
    /// placeholder never read, as start-up values have); then the tag chooses between
    /// matching `x` against the value cases, outside the `try` (so their exceptions are not
    /// caught), and the handler's value. No call is added: the depth is as in OCaml.
    pub(super) fn match_with_exceptions(
        &mut self,
        e: &Expr,
        scrutinee: &Expr,
        cases: &[Case],
        exceptions: &[Case],
    ) -> R<core::Expr> {
        let span = e.span;
        let value_ty = self.expr_type(scrutinee)?;
        let result_ty = self.expr_type(e)?;
        let value = self.expr(scrutinee)?;
        let unset = self.placeholder("match#exn", &result_ty, span)?;
        let tagged = self.tagged(1, value, unset, span);
        let mut handlers = Vec::new();
        for case in exceptions {
            if let Some(guard) = &case.guard {
                return Err(unsupported(
                    guard.span,
                    "`when` guards on `exception` cases",
                ));
            }
            self.handlers(&case.pattern, &case.body, &mut handlers)?;
        }
        let handlers = handlers
            .into_iter()
            .map(|mut handler| {
                let unset = self.placeholder("match#exn", &value_ty, span)?;
                handler.body = self.tagged(0, unset, handler.body, span);
                Ok(handler)
            })
            .collect::<R<Vec<_>>>()?;
        let tried = self.mk(
            span,
            core::ExprKind::Try {
                body: Box::new(tagged),
                handlers,
            },
        );
        let r = self.temp("r");
        let m = self.temp("m");
        let matched = self.match_on(&m, cases, span)?;
        let component = |this: &mut Self, first: bool| {
            let r = this.var(&r, span);
            let rest = this.proj(core::Proj::Snd, r, span);
            let which = if first {
                core::Proj::Fst
            } else {
                core::Proj::Snd
            };
            this.proj(which, rest, span)
        };
        let value = component(self, true);
        let binder = self.binder(m, scrutinee.span, value_ty.clone());
        let on_value = self.let_in(binder, value, matched, span);
        let on_exception = component(self, false);
        let tag = self.var(&r, span);
        let tag = self.proj(core::Proj::Fst, tag, span);
        let one = self.int(1, span);
        let is_value = self.binary(core::BinOp::Eq, tag, one, span);
        let chosen = self.if_then_else(is_value, on_value, on_exception, span);
        let pair_ty = core::Type::pair(core::Type::Int, core::Type::pair(value_ty, result_ty));
        let binder = self.binder(r, span, pair_ty);
        Ok(self.let_in(binder, tried, chosen, span))
    }

    /// `(tag, (a, b))`.
    fn tagged(&mut self, tag: i64, a: core::Expr, b: core::Expr, span: Span) -> core::Expr {
        let tag = self.int(tag, span);
        let inner = self.mk(span, core::ExprKind::Pair(Box::new(a), Box::new(b)));
        self.mk(span, core::ExprKind::Pair(Box::new(tag), Box::new(inner)))
    }

    fn proj(&mut self, which: core::Proj, pair: core::Expr, span: Span) -> core::Expr {
        let kind = core::ExprKind::Proj {
            which,
            annot: None,
            pair: Box::new(pair),
        };
        self.mk(span, kind)
    }

    /// The handlers of one case (several for an or-pattern: one per alternative).
    fn handlers(&mut self, p: &Pattern, body: &Expr, out: &mut Vec<core::Handler>) -> R<()> {
        let span = p.span;
        let (exn, arg) = match &p.kind {
            PatternKind::Wild => (None, None),
            PatternKind::Annot(inner, _) => return self.handlers(inner, body, out),
            PatternKind::Or(a, b) => {
                self.handlers(a, body, out)?;
                return self.handlers(b, body, out);
            }
            PatternKind::Construct(name, arg) => {
                let id = self.exception_id(name)?;
                let arg = self.handler_arg(id, arg.as_deref())?;
                (Some(id), arg)
            }
            PatternKind::Var(..) | PatternKind::Alias(..) => {
                return Err(unsupported(
                    span,
                    "binding the exception itself to a variable in `try ... with` (write `_`, or name the exception)",
                ));
            }
            _ => return Err(internal(span, "a non-exception pattern in `try ... with`")),
        };
        let body = self.expr(body)?;
        out.push(core::Handler {
            exn,
            arg,
            body,
            span,
        });
        Ok(())
    }

    /// The binder of `E x` (none for `E _` and for an exception without a core argument).
    fn handler_arg(&mut self, exn: core::ExnId, arg: Option<&Pattern>) -> R<Option<core::Binder>> {
        let Some(arg) = arg else {
            return Ok(None);
        };
        let carried = self.exceptions[exn.index()].arg.clone();
        match &arg.kind {
            PatternKind::Wild => Ok(None),
            PatternKind::Annot(inner, _) => self.handler_arg(exn, Some(inner)),
            PatternKind::Var(id, name) if carried.is_some() => {
                self.entries
                    .insert(*id, super::Entry::Local(name.text.clone()));
                let ty = carried.unwrap_or(core::Type::Int);
                Ok(Some(self.binder(name.text.clone(), name.span, ty)))
            }
            PatternKind::Var(..) => Err(unsupported(
                arg.span,
                "binding the message of `Failure`/`Invalid_argument` (write `_`)",
            )),
            _ => Err(unsupported(
                arg.span,
                "a pattern testing an exception's argument (bind it to a variable and test it with `if`)",
            )),
        }
    }
}
