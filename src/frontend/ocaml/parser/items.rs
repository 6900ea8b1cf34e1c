//! Top-level items and `let` bindings: the program as a sequence of items (`let`,
//! `let rec ... and ...`, `exception`, `type`), and the bindings of a `let` group, top-level
//! or local (`f p1 .. pn [: t] = e`, `p = e`).
//!
//! `open M` is an item (inference checks that `M` is a Stdlib module of the prelude).
//!
//! Guarantees: a top-level item the subset does not read (a bare expression, `let ... in`
//! at top level, a module item) is an error naming it; a binding's parameters become one
//! `fun` (parser::prefix's `function_of`), its labelled parameters are recorded for its
//! applications (parser/labels.rs).

use super::*;

impl Parser {
    pub(super) fn program(&mut self) -> PResult<Program> {
        let mut items = Vec::new();
        loop {
            while self.eat(";;") {}
            if *self.peek() == Tok::Eof {
                break;
            }
            if self.is("let") {
                let group = self.top_group()?;
                items.extend(self.top_let(group)?);
            } else {
                // A `type` of abbreviations only is no item (parser/abbreviations.rs).
                match self.item()? {
                    Item::Types(group) if group.is_empty() => {}
                    item => items.push(item),
                }
            }
        }
        items.extend(self.effects_entry(&items)?);
        Ok(Program {
            items,
            expr_count: self.exprs,
            var_count: self.vars,
            labelled: std::mem::take(&mut self.labelled),
        })
    }

    pub(super) fn item(&mut self) -> PResult<Item> {
        if self.eat("exception") {
            return self.exception_decl();
        }
        if self.is("type") {
            return self.type_decl();
        }
        if self.is("let") {
            return Ok(Item::Let(self.top_group()?));
        }
        if self.eat("open") {
            self.eat("!");
            return Ok(Item::Open(self.uident("a module name")?));
        }
        if let Some(d) = self.unsupported_here() {
            return Err(d);
        }
        Err(unsupported(
            self.span(),
            "top-level expressions; write `let main ... = ...` (the entry is `main`)",
        ))
    }

    /// A top-level `let` group (at `let`).
    fn top_group(&mut self) -> PResult<LetGroup> {
        let start = self.span();
        let group = self.let_group()?;
        if self.is("in") {
            return Err(unsupported(
                start.to(self.span()),
                "top-level expressions (`let ... in` at top level); the entry is `main`",
            ));
        }
        Ok(group)
    }

    pub(super) fn exception_decl(&mut self) -> PResult<Item> {
        let (name, arg) = self.exception_parts()?;
        Ok(Item::Exception(name, arg))
    }

    /// `E` or `E of t` (after `exception`).
    pub(super) fn exception_parts(&mut self) -> PResult<(Name, Option<TypeExpr>)> {
        let name = self.uident("an exception name")?;
        let arg = if self.eat("of") {
            Some(self.type_expr()?)
        } else {
            None
        };
        Ok((name, arg))
    }

    pub(super) fn uident(&mut self, what: &str) -> PResult<Name> {
        match self.peek().clone() {
            Tok::UIdent(text) => Ok(Name {
                text,
                span: self.bump().span,
            }),
            _ => Err(self.unexpected(what)),
        }
    }

    pub(super) fn let_group(&mut self) -> PResult<LetGroup> {
        let start = self.expect("let")?;
        if self.is("open") || self.is("module") {
            return Err(unsupported(
                self.span(),
                "modules (`let open`, `let module`)",
            ));
        }
        if self.is("exception") {
            return Err(unsupported(self.span(), "local exception declarations"));
        }
        if matches!(self.peek(), Tok::Punct("*" | "+")) && self.span().start == start.end {
            return Err(unsupported(
                start.to(self.span()),
                "binding operators (`let*`, `let+`) at top level",
            ));
        }
        let recursive = self.eat("rec");
        let mut bindings = vec![self.binding()?];
        while self.eat("and") {
            bindings.push(self.binding()?);
        }
        Ok(LetGroup {
            recursive,
            bindings,
            span: start.to(self.prev_span()),
        })
    }

    /// `f p1 .. pn [: t] = e` or `p = e`.
    pub(super) fn binding(&mut self) -> PResult<Binding> {
        if let Some(pattern) = self.operator_binder()? {
            return self.function_binding(pattern);
        }
        if self.is("(")
            && match self.peek_at(1) {
                Tok::Keyword(k) => matches!(*k, "let" | "and" | "mod" | "or"),
                Tok::Punct(p) => !matches!(*p, "(" | "[" | "{" | "[|" | "_" | ")" | "-"),
                _ => false,
            }
        {
            return Err(unsupported(
                self.span(),
                "operator definitions of this form (`let ( mod ) ..`)",
            ));
        }
        if self.pos < self.prelude_end
            && *self.peek_at(1) == Tok::Punct(".")
            && let (Tok::UIdent(module), Tok::Ident(field)) =
                (self.peek().clone(), self.peek_at(2).clone())
        {
            let span = self.bump().span;
            self.bump();
            self.bump();
            let id = self.var();
            let text: Rc<str> = format!("{module}.{field}").into();
            let pattern = Pattern {
                span,
                kind: PatternKind::Var(id, Name { text, span }),
            };
            return self.function_binding(pattern);
        }
        // `let a, b = e` is a tuple pattern, not a function `a`.
        if let Tok::Ident(text) = self.peek().clone()
            && !matches!(self.peek_at(1), Tok::Punct(","))
        {
            let span = self.bump().span;
            let id = self.var();
            let pattern = Pattern {
                span,
                kind: PatternKind::Var(id, Name { text, span }),
            };
            return self.function_binding(pattern);
        }
        let pattern = self.pattern()?;
        self.expect("=")?;
        let value = self.expr()?;
        Ok(Binding { pattern, value })
    }

    pub(super) fn function_binding(&mut self, pattern: Pattern) -> PResult<Binding> {
        let mut params = Vec::new();
        let mut kinds = Vec::new();
        let mut defaults = Vec::new();
        loop {
            if self.is("~") || self.is("?") {
                let (param, kind, default) = self.labelled_param()?;
                params.push(param);
                kinds.push(kind);
                defaults.extend(default);
            } else if self.starts_simple_pattern() {
                params.push(self.simple_pattern()?);
                kinds.push(labels::Param::Positional);
            } else {
                break;
            }
        }
        let annot = if self.eat(":") {
            Some(self.type_expr()?)
        } else {
            None
        };
        self.expect("=")?;
        let mut value = self.expr()?;
        if let Some(t) = annot {
            let span = value.span;
            value = self.mk(span, ExprKind::Annot(Box::new(value), t))?;
        }
        if !params.is_empty() {
            let span = params[0].span.to(value.span);
            value = self.function_of(span, params, value)?;
        }
        if let PatternKind::Var(_, name) = &pattern.kind {
            self.note_labels(&name.text, kinds);
        }
        let value = self.with_defaults(value, defaults)?;
        Ok(Binding { pattern, value })
    }
}
