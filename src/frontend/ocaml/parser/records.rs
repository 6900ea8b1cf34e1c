//! Records in the parser: `type t = { f : int; mutable g : int list }`, the expressions
//! `{ f = e; g }` (a field alone is punned: `{ g }` is `{ g = g }`), `{ r with f = e }`,
//! `e.f` and `e.f <- v` (docs/ocaml.md, "Records").
//!
//! Variant type definitions (`type 'a t = A | B of 'a * int and u = ...`) are read here
//! too, since both start with `type`.
//!
//! Guarantees: a record definition has at least one field; a
//! variant definition has at least one constructor; a record
//! expression lists at least one field; `.` after an expression is followed by a field
//! name (`a.(i)`, arrays, is named as outside the subset).

use super::*;

impl Parser {
    /// A group of variant types, record types and abbreviations `type 'a t = A | B of 'a
    /// and u = int * int and 'a r = { f : 'a } ...` (at `type`); the abbreviations are
    /// recorded (parser/abbreviations.rs), not items.
    pub(super) fn type_decl(&mut self) -> PResult<Item> {
        self.expect("type")?;
        let mut group = TypeGroup::default();
        loop {
            let params = self.type_params()?;
            let name = match self.peek().clone() {
                Tok::Ident(text) => Name {
                    text,
                    span: self.bump().span,
                },
                _ => return Err(self.unexpected("a type name")),
            };
            self.expect("=")?;
            self.abbreviations.remove(&name.text);
            if self.is("{") {
                group.records.push(self.record_decl(name, params)?);
                if !self.eat("and") {
                    break;
                }
                continue;
            }
            if !matches!(self.peek(), Tok::UIdent(_) | Tok::Punct("|")) {
                self.abbreviation(&params, &name)?;
                if !self.eat("and") {
                    break;
                }
                continue;
            }
            group.variants.push(VariantDecl {
                name,
                params,
                ctors: self.constructors()?,
            });
            if !self.eat("and") {
                break;
            }
        }
        Ok(Item::Types(group))
    }

    /// `'a`, `('a, 'b)` or nothing, before a type name in a definition.
    fn type_params(&mut self) -> PResult<Vec<Name>> {
        let mut params = Vec::new();
        match self.peek().clone() {
            Tok::TyVar(text) => params.push(Name {
                text,
                span: self.bump().span,
            }),
            Tok::Punct("(") => {
                self.bump();
                loop {
                    match self.peek().clone() {
                        Tok::TyVar(text) => params.push(Name {
                            text,
                            span: self.bump().span,
                        }),
                        _ => return Err(self.unexpected("a type parameter (`'a`)")),
                    }
                    if !self.eat(",") {
                        break;
                    }
                }
                self.expect(")")?;
            }
            _ => {}
        }
        Ok(params)
    }

    /// `| A | B of t ...` (the first `|` optional).
    fn constructors(&mut self) -> PResult<Vec<CtorDecl>> {
        self.eat("|");
        let mut ctors = Vec::new();
        loop {
            let name = self.uident("a constructor")?;
            let arg = if self.eat("of") {
                Some(self.type_expr()?)
            } else {
                None
            };
            ctors.push(CtorDecl { name, arg });
            if !self.eat("|") {
                break;
            }
        }
        Ok(ctors)
    }

    /// The fields of a record type definition (at `{`).
    fn record_decl(&mut self, name: Name, params: Vec<Name>) -> PResult<RecordDecl> {
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
        Ok(RecordDecl {
            name,
            params,
            fields,
        })
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

    /// `{ f = p; g; _ }` (at `{`): a record pattern; a field alone binds a variable of its
    /// name, `_` stands for the fields not named.
    pub(super) fn record_pattern(&mut self) -> PResult<Pattern> {
        let start = self.expect("{")?;
        let mut fields = Vec::new();
        loop {
            if self.eat("_") {
                self.eat(";");
                break;
            }
            let name = match self.peek().clone() {
                Tok::Ident(text) => Name {
                    text,
                    span: self.bump().span,
                },
                _ => return Err(self.unexpected("a field name")),
            };
            let pattern = if self.eat("=") {
                self.pattern()?
            } else {
                Pattern {
                    span: name.span,
                    kind: PatternKind::Var(self.var(), name.clone()),
                }
            };
            fields.push((name, pattern));
            if self.eat(";") && !self.is("}") {
                continue;
            }
            break;
        }
        let end = self.expect("}")?;
        if fields.is_empty() {
            return Err(self.unexpected("a field name"));
        }
        Ok(Pattern {
            span: start.to(end),
            kind: PatternKind::Record(fields),
        })
    }

    /// `e.f.g ...` after the atom `e`.
    pub(super) fn fields_after(&mut self, mut e: Expr) -> PResult<Expr> {
        while self.is(".") {
            if self.peek_at(1) == &Tok::Punct("(") {
                // `a.(i)` is `Array.get a i`, as in OCaml.
                self.bump();
                self.bump();
                let index = self.expr()?;
                let end = self.expect(")")?;
                let whole = e.span.to(end);
                let get = self.mk(
                    whole,
                    ExprKind::Var(Name {
                        text: "Array.get".into(),
                        span: whole,
                    }),
                )?;
                e = self.mk(whole, ExprKind::App(Box::new(get), vec![e, index]))?;
                continue;
            }
            let Tok::Ident(text) = self.peek_at(1).clone() else {
                return Err(unsupported(
                    self.span(),
                    "module paths after an expression (`e.M.f`)",
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
