//! OCaml's nondeterministic inputs in the core: `read_int ()`, `Random.int n` and
//! `Random.bool ()` become the core's fresh input ([`core::ExprKind::Input`]).
//!
//! Guarantees: each evaluation of one of them is one fresh input, evaluated where OCaml
//! evaluates it (its argument first). `read_int ()` is any integer; `Random.bool ()` is
//! 0 or 1 (`false`/`true`); `Random.int n` is in `0 .. n - 1` when `n > 0` and raises
//! `Invalid_argument` at the application otherwise, as OCaml's does (OCaml also refuses
//! `n >= 2^30`; integers here are unbounded, so that bound is not modelled).

use super::super::ast::Expr;
use super::{R, Translator};
use crate::core_lang::ast as core;
use crate::span::Span;

impl Translator<'_> {
    /// The core of `name arg` for the three input functions; `None` for other names.
    pub(super) fn fresh_input(
        &mut self,
        span: Span,
        name: &str,
        arg: &Expr,
    ) -> R<Option<core::Expr>> {
        Ok(Some(match name {
            "read_int" => {
                let unit = self.expr(arg)?;
                let input = self.mk(span, core::ExprKind::Input { below: None });
                self.seq(unit, input, span)
            }
            "Random.bool" => {
                let unit = self.expr(arg)?;
                let two = Box::new(self.int(2, span));
                let input = self.mk(span, core::ExprKind::Input { below: Some(two) });
                self.seq(unit, input, span)
            }
            "Random.int" => self.random_int(span, arg)?,
            _ => return Ok(None),
        }))
    }

    /// `let n = arg in if n > 0 then <input below n> else raise (Invalid_argument _)`.
    fn random_int(&mut self, span: Span, arg: &Expr) -> R<core::Expr> {
        let bound = self.expr(arg)?;
        let name = self.temp("bound");
        let binder = self.binder(name.clone(), span, core::Type::Int);
        let n = Box::new(self.var(&name, span));
        let input = self.mk(span, core::ExprKind::Input { below: Some(n) });
        let n = self.var(&name, span);
        let zero = self.int(0, span);
        let positive = self.binary(core::BinOp::Gt, n, zero, span);
        let invalid = self.raise_named(span, "Invalid_argument");
        let body = self.if_then_else(positive, input, invalid, span);
        Ok(self.let_in(binder, bound, body, span))
    }
}
