//! Records in the parser: `type t = { f : int; mutable g : int list }`, the expressions
//! `{ f = e; g }` (a field alone is punned: `{ g }` is `{ g = g }`), `{ r with f = e }`,
//! `e.f` and `e.f <- v` (docs/ocaml.md, "Records").
//!
//! Guarantees: a record definition has at least one field and no type parameters (a
//! parameterised or variant type definition is named as outside the subset); a record
//! expression lists at least one field; `.` after an expression is followed by a field
//! name (`a.(i)`, arrays, is named as outside the subset).

use super::*;

impl Parser {
    /// `type t = { ... }` (after `type`).
    pub(super) fn type_decl(&mut self) -> PResult<Item> {
        let start = self.expect("type")?;
        let name = match self.peek().clone() {
            Tok::Ident(text) => Name {
                text,
                span: self.bump().span,
            },
            Tok::TyVar(_) | Tok::Punct("(") => {
                return Err(unsupported(self.span(), "parameterised type definitions"));
            }
            _ => return Err(self.unexpected("a type name")),
        };
        self.expect("=")?;
        if !self.is("{") {
            return Err(unsupported(
                start.to(self.span()),
                "type definitions other than records (variants, abbreviations)",
            ));
        }
        self.bump();
        let mut fields = Vec::new();
        loop {
            let mutable = self.eat("mutable");
            let field = match self.peek().clone() {
                Tok::Ident(text) => Name {
                    text,
                    span: self.bump().span,
                },
                _ => return Err(self.unexpected("a field name")),
            };
            self.expect(":")?;
            let ty = self.type_expr()?;
            fields.push(FieldDecl {
                name: field,
                mutable,
                ty,
            });
            if self.eat(";") && !self.is("}") {
                continue;
            }
            self.expect("}")?;
            break;
        }
        if self.is("and") {
            return Err(unsupported(
                self.span(),
                "mutually recursive type definitions",
            ));
        }
        Ok(Item::Record(RecordDecl { name, fields }))
    }

    /// `{ f = e; ... }` or `{ e with f = e; ... }` (at `{`).
    pub(super) fn record(&mut self) -> PResult<Expr> {
        let start = self.expect("{")?;
        let field_list_starts = matches!(self.peek(), Tok::Ident(_))
            && matches!(self.peek_at(1), Tok::Punct("=" | ";" | "}"));
        let base = if field_list_starts {
            None
        } else {
            let base = self.nested(|p| p.binary(0))?;
            self.expect("with")?;
            Some(Box::new(base))
        };
        let mut fields = Vec::new();
        loop {
            let name = match self.peek().clone() {
                Tok::Ident(text) => Name {
                    text,
                    span: self.bump().span,
                },
                _ => return Err(self.unexpected("a field name")),
            };
            let value = if self.eat("=") {
                self.expr_nonseq()?
            } else {
                let var = ExprKind::Var(name.clone());
                self.mk(name.span, var)?
            };
            fields.push((name, value));
            if self.eat(";") && !self.is("}") {
                continue;
            }
            break;
        }
        let end = self.expect("}")?;
        self.mk(start.to(end), ExprKind::Record(fields, base))
    }

    /// `e.f.g ...` after the atom `e`.
    pub(super) fn fields_after(&mut self, mut e: Expr) -> PResult<Expr> {
        while self.is(".") {
            let Tok::Ident(text) = self.peek_at(1).clone() else {
                return Err(unsupported(
                    self.span(),
                    "arrays and module paths after an expression (`a.(i)`, `e.M.f`)",
                ));
            };
            self.bump();
            let span = self.bump().span;
            let whole = e.span.to(span);
            e = self.mk(whole, ExprKind::Field(Box::new(e), Name { text, span }))?;
        }
        Ok(e)
    }
}
