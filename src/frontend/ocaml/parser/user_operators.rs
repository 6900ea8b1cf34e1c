//! User-defined operators: their definitions `let ( +! ) a b = ..` and `let ( let* ) r f =
//! ..`, and the binding operators `let* p = e in body` (docs/ocaml.md, "Operators").
//!
//! Guarantees: an operator symbol the lexer reads as one [`Tok::Op`] is bound, and used
//! by `a +! b` or `( +! )`, as the variable [`operator_name`] gives it, so it is an ordinary
//! function for inference and the translation; `let* p = e in body` is the application
//! `( let* ) e (fun p -> body)`, as OCaml defines it. Redefining a built-in operator
//! (`let ( + ) ..`) and `and*` are errors naming them.

use super::operators::{binary_op, operator_name};
use super::*;

impl Parser {
    /// `( sym )` at the start of a binding: the pattern binding the operator, if it is one.
    pub(super) fn operator_binder(&mut self) -> PResult<Option<Pattern>> {
        if !self.is("(") {
            return Ok(None);
        }
        let start = self.span();
        let (sym, len) = match (self.peek_at(1), self.peek_at(2), self.peek_at(3)) {
            (Tok::Op(sym), Tok::Punct(")"), _) => (sym.to_string(), 3),
            (Tok::Keyword("let"), Tok::Punct(p @ ("*" | "+")), Tok::Punct(")")) => {
                (format!("let{p}"), 4)
            }
            (Tok::Keyword("let"), Tok::Op(sym), Tok::Punct(")")) if sym.starts_with(['*', '+']) => {
                (format!("let{sym}"), 4)
            }
            (Tok::Keyword("and"), Tok::Punct("*" | "+") | Tok::Op(_), _) => {
                return Err(unsupported(start, "binding operators `and*`, `and+`"));
            }
            (Tok::Punct(p) | Tok::Keyword(p), Tok::Punct(")"), _)
                if binary_op(self.peek_at(1)).is_some() || matches!(*p, "!" | "~-") =>
            {
                return Err(unsupported(
                    start,
                    &format!("redefining the built-in operator `{p}` (`let ( {p} ) ..`)"),
                ));
            }
            _ => return Ok(None),
        };
        for _ in 0..len {
            self.bump();
        }
        let span = start.to(self.prev_span());
        let name = Name {
            text: operator_name(&sym),
            span,
        };
        Ok(Some(Pattern {
            span,
            kind: PatternKind::Var(self.var(), name),
        }))
    }

    /// Whether a binding operator `let*` (`let` and an operator written against it) starts
    /// here.
    pub(super) fn at_binding_operator(&self) -> bool {
        let op_follows = match self.peek_at(1) {
            Tok::Punct("*" | "+") => true,
            Tok::Op(sym) => sym.starts_with(['*', '+']),
            _ => false,
        };
        let next = (self.pos + 1).min(self.tokens.len() - 1);
        op_follows && self.is("let") && self.tokens[next].span.start == self.span().end
    }

    /// `let* p = e in body` (at `let`): `( let* ) e (fun p -> body)`.
    pub(super) fn binding_operator_let(&mut self) -> PResult<Expr> {
        let start = self.expect("let")?;
        let op = self.bump();
        let sym = match &op.tok {
            Tok::Op(sym) => format!("let{sym}"),
            Tok::Punct(p) => format!("let{p}"),
            other => unreachable!("at_binding_operator saw an operator, not {other}"),
        };
        let pattern = self.pattern()?;
        self.expect("=")?;
        let value = self.expr()?;
        if self.is("and") {
            return Err(unsupported(self.span(), "binding operators `and*`, `and+`"));
        }
        self.expect("in")?;
        let body = self.expr()?;
        let span = start.to(body.span);
        let name = Name {
            text: operator_name(&sym),
            span: start.to(op.span),
        };
        let func = self.mk(name.span, ExprKind::Var(name))?;
        let cont = self.mk(body.span, ExprKind::Fun(vec![pattern], Box::new(body)))?;
        self.mk(span, ExprKind::App(Box::new(func), vec![value, cont]))
    }
}
