//! OCaml's arrays in the core: `Array.make`, `a.(i)` (`Array.get`), `a.(i) <- v`
//! (`Array.set`), `Array.length` and literals `[| e1; ..; en |]` (docs/ocaml.md, "Arrays").
//!
//! Representation: a `t array` is the core pair `(length, first)` of its length and the
//! address of its first cell (`Ref t`); its `n` cells are allocated one after the other
//! (`ref v` n times, nothing else allocating in between), so element `i` is the cell
//! `Offset(first, i)`, `i` cells after the first: the interpreter's heap and the IR's
//! allocation counter both give consecutive addresses to consecutive allocations. Every
//! copy of the pair names the same cells, so an array is mutable and aliased exactly as
//! OCaml's. An empty array still allocates one cell (its `first`), never read.
//!
//! Guarantees: every access is bounds checked before its cell is touched: an index
//! outside `0 .. length - 1`, or `Array.make` with a negative length, raises
//! `Invalid_argument` at the access (the application or `a.(i)`), as OCaml does; the
//! arguments are evaluated left to right, each once, before the check. `Array.make n v`
//! allocates its cells 2..n in a loop (`Array.make#k`, named so in traces), one call deeper per cell, so it
//! costs `n - 1` levels of depth; a literal allocates in place and costs none.

use super::super::ast::{Expr, ExprKind};
use super::{R, Translator, internal};
use crate::core_lang::ast as core;
use crate::span::Span;
use std::rc::Rc;

impl Translator<'_> {
    /// The core of an array primitive applied to `args` (its parameters' number); `None`
    /// for other names.
    pub(super) fn array_primitive(
        &mut self,
        span: Span,
        name: &str,
        args: &[Expr],
    ) -> R<Option<core::Expr>> {
        Ok(Some(match name {
            "Array.make" => self.array_make(span, &args[0], &args[1])?,
            "Array.get" => self.array_access(span, &args[0], &args[1], None)?,
            "Array.set" => self.array_access(span, &args[0], &args[1], Some(&args[2]))?,
            super::super::ast::ARRAY_LITERAL => self.array_literal(span, &args[0])?,
            _ => return Ok(None),
        }))
    }

    /// `let n = N in let v = V in if n < 0 then raise Invalid_argument else let first =
    /// ref v in (if 1 < n then fill 1); (n, first)` with `let rec fill k = ignore (ref v);
    /// if k + 1 < n then fill (k + 1)`.
    fn array_make(&mut self, span: Span, n: &Expr, v: &Expr) -> R<core::Expr> {
        let element = self.expr_type(v)?;
        let cell = core::Type::reference(element.clone());
        let (n_value, v_value) = (self.expr(n)?, self.expr(v)?);
        let (n_name, v_name) = (self.temp("n"), self.temp("v"));
        let first = self.temp("first");
        // The loop allocating cells 2..n.
        let fill: Rc<str> = self.temp("").replace('$', "Array.make#").into();
        let k = self.temp("k");
        let alloc = {
            let v = Box::new(self.var(&v_name, span));
            self.mk(span, core::ExprKind::Alloc(v))
        };
        let mut next = || {
            let k = self.var(&k, span);
            let one = self.int(1, span);
            self.binary(core::BinOp::Add, k, one, span)
        };
        let (next, next_again) = (next(), next());
        let more = {
            let next = next_again;
            let n = self.var(&n_name, span);
            self.binary(core::BinOp::Lt, next, n, span)
        };
        let again = {
            let f = self.var(&fill, span);
            self.call(span, f, vec![next])
        };
        let skip = self.mk(span, core::ExprKind::Skip);
        let rest = self.if_then_else(more, again, skip, span);
        let dropped = self.temp("cell");
        let dropped = self.binder(dropped, span, cell.clone());
        let fill_body = self.let_in(dropped, alloc, rest, span);
        let k_binder = self.binder(k, span, core::Type::Int);
        let lambda = self.lambda(vec![k_binder], core::Type::Unit, fill_body, span);
        let start = {
            let f = self.var(&fill, span);
            let one = self.int(1, span);
            self.call(span, f, vec![one])
        };
        let fill_binder = self.binder(
            fill,
            span,
            core::Type::arrow(vec![core::Type::Int], core::Type::Unit),
        );
        let start = self.mk(
            span,
            core::ExprKind::LetRec {
                binder: fill_binder,
                lambda,
                body: Box::new(start),
            },
        );
        let several = {
            let one = self.int(1, span);
            let n = self.var(&n_name, span);
            self.binary(core::BinOp::Lt, one, n, span)
        };
        let skip = self.mk(span, core::ExprKind::Skip);
        let filled = self.if_then_else(several, start, skip, span);
        let array = {
            let n = self.var(&n_name, span);
            let f = self.var(&first, span);
            self.mk(span, core::ExprKind::Pair(Box::new(n), Box::new(f)))
        };
        let body = self.seq(filled, array, span);
        let first_alloc = {
            let v = Box::new(self.var(&v_name, span));
            self.mk(span, core::ExprKind::Alloc(v))
        };
        let first_binder = self.binder(first, span, cell);
        let made = self.let_in(first_binder, first_alloc, body, span);
        let negative = {
            let n = self.var(&n_name, span);
            let zero = self.int(0, span);
            self.binary(core::BinOp::Lt, n, zero, span)
        };
        let invalid = self.raise_named(span, "Invalid_argument");
        let checked = self.if_then_else(negative, invalid, made, span);
        let v_binder = self.binder(v_name, span, element);
        let checked = self.let_in(v_binder, v_value, checked, span);
        let n_binder = self.binder(n_name, span, core::Type::Int);
        Ok(self.let_in(n_binder, n_value, checked, span))
    }

    /// `let a = A in let i = I in [let v = V in] if 0 <= i && i < fst a then
    /// !(Offset(snd a, i)) [or Offset(snd a, i) := v] else raise Invalid_argument`.
    fn array_access(
        &mut self,
        span: Span,
        array: &Expr,
        index: &Expr,
        value: Option<&Expr>,
    ) -> R<core::Expr> {
        let array_ty = self.expr_type(array)?;
        let (a_name, i_name) = (self.temp("array"), self.temp("index"));
        let a_value = self.expr(array)?;
        let i_value = self.expr(index)?;
        let stored = match value {
            Some(v) => Some((self.temp("value"), self.expr_type(v)?, self.expr(v)?)),
            None => None,
        };
        let in_bounds = {
            let zero = self.int(0, span);
            let i = self.var(&i_name, span);
            let low = self.binary(core::BinOp::Le, zero, i, span);
            let i = self.var(&i_name, span);
            let length = self.projection(core::Proj::Fst, &a_name, span);
            let high = self.binary(core::BinOp::Lt, i, length, span);
            self.binary(core::BinOp::And, low, high, span)
        };
        let cell = {
            let first = self.projection(core::Proj::Snd, &a_name, span);
            let i = self.var(&i_name, span);
            self.mk(
                span,
                core::ExprKind::Offset {
                    base: Box::new(first),
                    index: Box::new(i),
                },
            )
        };
        let touch = match &stored {
            Some((v_name, ..)) => {
                let v = self.var(v_name, span);
                self.mk(
                    span,
                    core::ExprKind::Store {
                        target: Box::new(cell),
                        value: Box::new(v),
                    },
                )
            }
            None => self.mk(span, core::ExprKind::Load(Box::new(cell))),
        };
        let invalid = self.raise_named(span, "Invalid_argument");
        let mut body = self.if_then_else(in_bounds, touch, invalid, span);
        if let Some((v_name, v_ty, v_value)) = stored {
            let b = self.binder(v_name, span, v_ty);
            body = self.let_in(b, v_value, body, span);
        }
        let i_binder = self.binder(i_name, span, core::Type::Int);
        let body = self.let_in(i_binder, i_value, body, span);
        let a_binder = self.binder(a_name, span, array_ty);
        Ok(self.let_in(a_binder, a_value, body, span))
    }

    /// `[| e1; ..; en |]` (`list` is the parser's list literal `[e1; ..; en]`): the elements
    /// evaluated in order into temporaries, then `n` cells allocated in place.
    fn array_literal(&mut self, span: Span, list: &Expr) -> R<core::Expr> {
        let core::Type::List(element) = self.expr_type(list)? else {
            return Err(internal(span, "an array literal without a list type"));
        };
        let element = *element;
        let mut items = Vec::new();
        let mut rest = list;
        while let ExprKind::Cons(head, tail) = &rest.kind {
            items.push(&**head);
            rest = tail;
        }
        let mut values = Vec::new();
        for item in &items {
            let name = self.temp("elem");
            values.push((name, self.expr(item)?));
        }
        let cell = core::Type::reference(element.clone());
        let first = self.temp("first");
        let length = self.int(items.len() as i64, span);
        let address = self.var(&first, span);
        let mut body = self.mk(
            span,
            core::ExprKind::Pair(Box::new(length), Box::new(address)),
        );
        // The cells after the first, innermost last.
        for (name, _) in values.iter().skip(1).rev() {
            let v = Box::new(self.var(name, span));
            let alloc = self.mk(span, core::ExprKind::Alloc(v));
            let b = self.temp("cell");
            let b = self.binder(b, span, cell.clone());
            body = self.let_in(b, alloc, body, span);
        }
        let first_content = match values.first() {
            Some((name, _)) => self.var(name, span),
            None => self.placeholder("Array.empty", &element, span)?,
        };
        let first_alloc = self.mk(span, core::ExprKind::Alloc(Box::new(first_content)));
        let b = self.binder(first, span, cell);
        body = self.let_in(b, first_alloc, body, span);
        for (name, value) in values.into_iter().rev() {
            let b = self.binder(name, span, element.clone());
            body = self.let_in(b, value, body, span);
        }
        Ok(body)
    }

    /// `fst x` / `snd x` on the variable `x`.
    fn projection(&mut self, which: core::Proj, x: &Rc<str>, span: Span) -> core::Expr {
        let pair = Box::new(self.var(x, span));
        self.mk(
            span,
            core::ExprKind::Proj {
                which,
                annot: None,
                pair,
            },
        )
    }
}
