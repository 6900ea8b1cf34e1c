//! `for` and `while` loops, read and desugared into local recursive functions at once, so
//! that inference, the translation and every engine see only functions (docs/ocaml.md,
//! "Loops").
//!
//! Guarantees: `for i = lo to hi do body done` evaluates `lo`, then `hi`, once each, runs
//! `body` for `i = lo, lo + 1, ..., hi` (none when `lo > hi`; `downto` counts down) and is
//! `()`; the index is never incremented past `hi`, so no arithmetic the loop adds can
//! overflow. `while c do body done` evaluates `c` before each iteration. Each iteration is
//! one call of the loop's function (the first at one level below the loop, the n-th n
//! levels below), so the depth bound bounds the iterations and every run stays finite. The
//! generated names (`for#3`, `while#7`, `$hi#3`) are no OCaml identifiers, so they never
//! capture or shadow the program's.

use super::*;

impl Parser {
    /// `for i = lo to|downto hi do body done`:
    /// `let $lo = lo in let $hi = hi in let rec for#k i = body; if i < $hi then for#k (i + 1)
    /// in if $lo <= $hi then for#k $lo` (with `>`, `-` and `>=` for `downto`).
    pub(super) fn for_loop(&mut self) -> PResult<Expr> {
        let start = self.expect("for")?;
        let index_span = self.span();
        let index = match self.peek().clone() {
            Tok::Ident(text) => {
                self.bump();
                text
            }
            Tok::Punct("_") => {
                self.bump();
                format!("$index#{}", self.vars).into()
            }
            _ => return Err(self.unexpected("the loop's index variable")),
        };
        self.expect("=")?;
        let lo = self.expr()?;
        let up = if self.eat("to") {
            true
        } else if self.eat("downto") {
            false
        } else {
            return Err(self.unexpected("`to` or `downto`"));
        };
        let hi = self.expr()?;
        self.expect("do")?;
        let body = self.expr()?;
        let end = self.expect("done")?;
        let span = start.to(end);
        let k = self.vars;
        let (lo_name, hi_name, loop_name) =
            (format!("$lo#{k}"), format!("$hi#{k}"), format!("for#{k}"));
        let (next_op, more_op, enter_op) = if up {
            (BinOp::Add, BinOp::Lt, BinOp::Le)
        } else {
            (BinOp::Sub, BinOp::Gt, BinOp::Ge)
        };
        // The loop's function: `fun i -> body; if i < $hi then for#k (i + 1)`.
        let i = self.var_ref(&index, index_span)?;
        let bound = self.var_ref(&hi_name, start)?;
        let more = self.mk(
            start,
            ExprKind::Binary(more_op, Box::new(i), Box::new(bound)),
        )?;
        let i = self.var_ref(&index, index_span)?;
        let one = self.mk(start, ExprKind::Int(1.into()))?;
        let next = self.mk(start, ExprKind::Binary(next_op, Box::new(i), Box::new(one)))?;
        let again = self.call(&loop_name, start, next)?;
        let again = self.mk(start, ExprKind::If(Box::new(more), Box::new(again), None))?;
        let step = self.mk(span, ExprKind::Seq(Box::new(body), Box::new(again)))?;
        let param = self.var_pattern(&index, index_span);
        let function = self.mk(span, ExprKind::Fun(vec![param], Box::new(step)))?;
        // `if $lo <= $hi then for#k $lo`
        let first = self.var_ref(&lo_name, start)?;
        let bound = self.var_ref(&hi_name, start)?;
        let enter = self.mk(
            start,
            ExprKind::Binary(enter_op, Box::new(first), Box::new(bound)),
        )?;
        let first = self.var_ref(&lo_name, start)?;
        let call = self.call(&loop_name, start, first)?;
        let run = self.mk(span, ExprKind::If(Box::new(enter), Box::new(call), None))?;
        let run = self.let_in_of(true, &loop_name, start, function, run, span)?;
        let run = self.let_in_of(false, &hi_name, start, hi, run, span)?;
        self.let_in_of(false, &lo_name, start, lo, run, span)
    }

    /// `while c do body done`: `let rec while#k () = if c then (body; while#k ()) in while#k ()`.
    pub(super) fn while_loop(&mut self) -> PResult<Expr> {
        let start = self.expect("while")?;
        let cond = self.expr()?;
        self.expect("do")?;
        let body = self.expr()?;
        let end = self.expect("done")?;
        let span = start.to(end);
        let loop_name = format!("while#{}", self.vars);
        let unit = self.mk(start, ExprKind::Unit)?;
        let again = self.call(&loop_name, start, unit)?;
        let step = self.mk(span, ExprKind::Seq(Box::new(body), Box::new(again)))?;
        let test = self.mk(span, ExprKind::If(Box::new(cond), Box::new(step), None))?;
        let param = Pattern {
            span: start,
            kind: PatternKind::Unit,
        };
        let function = self.mk(span, ExprKind::Fun(vec![param], Box::new(test)))?;
        let unit = self.mk(start, ExprKind::Unit)?;
        let run = self.call(&loop_name, start, unit)?;
        self.let_in_of(true, &loop_name, start, function, run, span)
    }

    fn var_ref(&mut self, name: &str, span: Span) -> PResult<Expr> {
        let text = name.into();
        self.mk(span, ExprKind::Var(Name { text, span }))
    }

    fn var_pattern(&mut self, name: &str, span: Span) -> Pattern {
        let text = name.into();
        Pattern {
            span,
            kind: PatternKind::Var(self.var(), Name { text, span }),
        }
    }

    /// `name arg`, at `span`.
    fn call(&mut self, name: &str, span: Span, arg: Expr) -> PResult<Expr> {
        let func = self.var_ref(name, span)?;
        self.mk(span, ExprKind::App(Box::new(func), vec![arg]))
    }

    /// `let [rec] name = value in body`.
    fn let_in_of(
        &mut self,
        recursive: bool,
        name: &str,
        at: Span,
        value: Expr,
        body: Expr,
        span: Span,
    ) -> PResult<Expr> {
        let pattern = self.var_pattern(name, at);
        let group = LetGroup {
            recursive,
            bindings: vec![Binding { pattern, value }],
            span,
        };
        self.mk(span, ExprKind::Let(group, Box::new(body)))
    }
}
