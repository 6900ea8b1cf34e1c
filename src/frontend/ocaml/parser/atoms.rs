//! Atoms: literals, variables, qualified names `M.x`, `begin ... end`, parenthesised
//! expressions (with annotations `(e : t)` and operator sections `( + )`), list and array
//! literals, records, `!e`, and the field accesses after them.
//!
//! Guarantees: an integer literal is read as OCaml reads it ([`wrapped`]); `Stdlib.x` is
//! `x`; a module path other than `M.x` is an error naming modules.

use super::operators::binary_op;
use super::*;

impl Parser {
    pub(super) fn atom(&mut self) -> PResult<Expr> {
        let atom = self.nested(|p| p.atom_inner())?;
        self.fields_after(atom)
    }

    pub(super) fn atom_inner(&mut self) -> PResult<Expr> {
        let span = self.span();
        match self.peek().clone() {
            Tok::Int(i) => {
                self.bump();
                self.mk(span, ExprKind::Int(wrapped(i)))
            }
            Tok::Str(s) => {
                self.bump();
                self.mk(span, ExprKind::Str(s))
            }
            Tok::Keyword("true") => self.leaf(ExprKind::Bool(true)),
            Tok::Keyword("false") => self.leaf(ExprKind::Bool(false)),
            // `raise_notrace` is `raise` (they differ only in the backtrace).
            Tok::Ident(text) if &*text == "raise_notrace" => self.leaf(ExprKind::Var(Name {
                text: "raise".into(),
                span,
            })),
            Tok::Ident(text) => self.leaf(ExprKind::Var(Name { text, span })),
            Tok::UIdent(_) => self.qualified(),
            Tok::Keyword("begin") => self.begin_end(),
            Tok::Punct("(") => self.parenthesised(),
            Tok::Punct("[") => self.list_literal(),
            Tok::Punct("[|") => self.array_literal(),
            Tok::Punct("{") => self.record(),
            Tok::Punct("!") => {
                // `!` binds tighter than field access: `!r.f` is `(!r).f`, as in OCaml.
                self.bump();
                let inner = self.nested(|p| p.atom_inner())?;
                let span = span.to(inner.span);
                self.mk(span, ExprKind::Deref(Box::new(inner)))
            }
            _ => Err(self.unexpected("an expression")),
        }
    }

    pub(super) fn leaf(&mut self, kind: ExprKind) -> PResult<Expr> {
        let span = self.bump().span;
        self.mk(span, kind)
    }

    /// `Module.name` (only the prelude's `Random.int`, `Random.bool`, ... are known).
    pub(super) fn qualified(&mut self) -> PResult<Expr> {
        let mut module = self.uident("a module name")?;
        // `Stdlib.x` is `x`, `Stdlib.List.x` is `List.x`: the Stdlib is open.
        if &*module.text == "Stdlib" && self.is(".") {
            match self.peek_at(1).clone() {
                Tok::Ident(text) => {
                    self.bump();
                    let span = module.span.to(self.bump().span);
                    return self.mk(span, ExprKind::Var(Name { text, span }));
                }
                Tok::UIdent(_) => {
                    self.bump();
                    module = self.uident("a module name")?;
                }
                _ => {}
            }
        }
        if !self.eat(".") {
            return self.mk(module.span, ExprKind::Construct(module, None));
        }
        if self.is("(") {
            // `M.(e)`: `e` with `M` opened.
            let inner = self.parenthesised()?;
            let span = module.span.to(self.prev_span());
            return self.mk(span, ExprKind::Open(module, Box::new(inner)));
        }
        match self.peek().clone() {
            Tok::Ident(field) => {
                let span = module.span.to(self.bump().span);
                let text: Rc<str> = format!("{}.{}", module.text, field).into();
                self.mk(span, ExprKind::Var(Name { text, span }))
            }
            _ => Err(unsupported(module.span, "modules (`M.(...)`, `M.M`)")),
        }
    }

    pub(super) fn begin_end(&mut self) -> PResult<Expr> {
        let start = self.expect("begin")?;
        if self.is("end") {
            let end = self.bump().span;
            return self.mk(start.to(end), ExprKind::Unit);
        }
        let inner = self.expr()?;
        self.expect("end")?;
        Ok(inner)
    }

    pub(super) fn parenthesised(&mut self) -> PResult<Expr> {
        let start = self.expect("(")?;
        if self.is(")") {
            let end = self.bump().span;
            return self.mk(start.to(end), ExprKind::Unit);
        }
        if let Some(op) = self.operator_section() {
            return self.mk(start.to(self.prev_span()), op);
        }
        let inner = self.expr()?;
        if self.eat(":") {
            let ty = self.type_expr()?;
            self.expect(")")?;
            let span = start.to(self.prev_span());
            return self.mk(span, ExprKind::Annot(Box::new(inner), ty));
        }
        self.expect(")")?;
        Ok(inner)
    }

    /// `( + )` and the like: the operator as a function value (named by its symbol).
    pub(super) fn operator_section(&mut self) -> Option<ExprKind> {
        if let (Tok::Op(sym), Tok::Punct(")")) = (self.peek().clone(), self.peek_at(1)) {
            let span = self.bump().span;
            self.bump();
            return Some(ExprKind::Var(Name {
                text: super::operators::operator_name(&sym),
                span,
            }));
        }
        let symbol = match (self.peek(), self.peek_at(1)) {
            (Tok::Punct(p) | Tok::Keyword(p), Tok::Punct(")"))
                if binary_op(self.peek()).is_some() =>
            {
                *p
            }
            _ => return None,
        };
        let span = self.bump().span;
        self.bump();
        Some(ExprKind::Var(Name {
            text: format!("( {symbol} )").into(),
            span,
        }))
    }

    pub(super) fn list_literal(&mut self) -> PResult<Expr> {
        self.bracketed_list("[", "]")
    }

    /// `open e1; ..; en close` as the list `e1 :: .. :: en :: []`, spanning the brackets.
    pub(super) fn bracketed_list(&mut self, open: &str, close: &str) -> PResult<Expr> {
        let start = self.expect(open)?;
        let mut items = Vec::new();
        while !self.is(close) {
            items.push(self.expr_nonseq()?);
            if !self.eat(";") {
                break;
            }
        }
        let end = self.expect(close)?;
        let mut list = self.mk(end, ExprKind::Nil)?;
        for item in items.into_iter().rev() {
            let span = item.span.to(list.span);
            list = self.mk(span, ExprKind::Cons(Box::new(item), Box::new(list)))?;
        }
        list.span = start.to(end);
        Ok(list)
    }

    /// `[| e1; ..; en |]`: the primitive `Array.of_list#lit` applied to the list literal
    /// `[e1; ..; en]` (to_core allocates the cells in place, docs/ocaml.md "Arrays").
    pub(super) fn array_literal(&mut self) -> PResult<Expr> {
        let list = self.bracketed_list("[|", "|]")?;
        let whole = list.span;
        let lit = self.mk(
            whole,
            ExprKind::Var(Name {
                text: ARRAY_LITERAL.into(),
                span: whole,
            }),
        )?;
        self.mk(whole, ExprKind::App(Box::new(lit), vec![list]))
    }
}
