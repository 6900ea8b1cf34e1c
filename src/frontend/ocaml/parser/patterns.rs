//! Patterns: aliases `p as x`, or-patterns, tuples, `::`, constructor patterns, and the
//! simple ones (variables, `_`, constants, negative integers, `()`, parenthesised and
//! annotated patterns, list patterns, record patterns via parser/records.rs).
//!
//! Guarantees: array patterns are an error naming them; a list pattern `[p1; ..; pn]` is
//! the `::` chain ending in `[]`.

use super::*;

impl Parser {
    pub(super) fn pattern(&mut self) -> PResult<Pattern> {
        self.nested(|p| {
            let mut pat = p.or_pattern()?;
            while p.eat("as") {
                let (id, name) = p.pattern_var()?;
                let span = pat.span.to(name.span);
                pat = Pattern {
                    span,
                    kind: PatternKind::Alias(Box::new(pat), id, name),
                };
            }
            Ok(pat)
        })
    }

    pub(super) fn pattern_var(&mut self) -> PResult<(VarId, Name)> {
        match self.peek().clone() {
            Tok::Ident(text) => {
                let span = self.bump().span;
                Ok((self.var(), Name { text, span }))
            }
            _ => Err(self.unexpected("a variable name")),
        }
    }

    pub(super) fn or_pattern(&mut self) -> PResult<Pattern> {
        let mut pat = self.tuple_pattern()?;
        while self.is("|") && !self.starts_case_after_bar() {
            self.bump();
            let rhs = self.nested(|p| p.tuple_pattern())?;
            let span = pat.span.to(rhs.span);
            pat = Pattern {
                span,
                kind: PatternKind::Or(Box::new(pat), Box::new(rhs)),
            };
        }
        Ok(pat)
    }

    /// Never: inside a pattern, `|` always continues an or-pattern (cases are separated
    /// after their `->` body, which the body's parser stops before).
    pub(super) fn starts_case_after_bar(&self) -> bool {
        false
    }

    pub(super) fn tuple_pattern(&mut self) -> PResult<Pattern> {
        let first = self.cons_pattern()?;
        if !self.is(",") {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.eat(",") {
            items.push(self.cons_pattern()?);
        }
        let span = items[0].span.to(items[items.len() - 1].span);
        Ok(Pattern {
            span,
            kind: PatternKind::Tuple(items),
        })
    }

    pub(super) fn cons_pattern(&mut self) -> PResult<Pattern> {
        let head = self.construct_pattern()?;
        if !self.eat("::") {
            return Ok(head);
        }
        let tail = self.nested(|p| p.cons_pattern())?;
        let span = head.span.to(tail.span);
        Ok(Pattern {
            span,
            kind: PatternKind::Cons(Box::new(head), Box::new(tail)),
        })
    }

    pub(super) fn construct_pattern(&mut self) -> PResult<Pattern> {
        let Tok::UIdent(_) = self.peek() else {
            return self.simple_pattern();
        };
        let name = self.uident("a constructor")?;
        let arg = if self.starts_simple_pattern() {
            Some(Box::new(self.simple_pattern()?))
        } else {
            None
        };
        let span = arg.as_ref().map_or(name.span, |a| name.span.to(a.span));
        Ok(Pattern {
            span,
            kind: PatternKind::Construct(name, arg),
        })
    }

    pub(super) fn starts_simple_pattern(&self) -> bool {
        match self.peek() {
            Tok::Ident(_) | Tok::Int(_) | Tok::UIdent(_) => true,
            Tok::Keyword(k) => matches!(*k, "true" | "false"),
            Tok::Punct(p) => matches!(*p, "_" | "(" | "[" | "{" | "-" | "~" | "?"),
            _ => false,
        }
    }

    pub(super) fn simple_pattern(&mut self) -> PResult<Pattern> {
        self.nested(|p| p.simple_pattern_inner())
    }

    pub(super) fn simple_pattern_inner(&mut self) -> PResult<Pattern> {
        let span = self.span();
        let kind = match self.peek().clone() {
            Tok::Punct("_") => PatternKind::Wild,
            Tok::Ident(text) => PatternKind::Var(self.var(), Name { text, span }),
            Tok::Int(i) => PatternKind::Int(wrapped(i)),
            Tok::Keyword("true") => PatternKind::Bool(true),
            Tok::Keyword("false") => PatternKind::Bool(false),
            Tok::UIdent(_) => {
                let name = self.uident("a constructor")?;
                return Ok(Pattern {
                    span,
                    kind: PatternKind::Construct(name, None),
                });
            }
            Tok::Punct("-") => return self.negative_pattern(),
            Tok::Punct("(") => return self.parenthesised_pattern(),
            Tok::Punct("[") => return self.list_pattern(),
            Tok::Punct("{") => return self.record_pattern(),
            Tok::Punct("[|") => return Err(unsupported(span, "array patterns (`[| .. |]`)")),
            _ => return Err(self.unexpected("a pattern")),
        };
        self.bump();
        Ok(Pattern { span, kind })
    }

    pub(super) fn negative_pattern(&mut self) -> PResult<Pattern> {
        let start = self.expect("-")?;
        match self.peek().clone() {
            Tok::Int(i) => {
                let end = self.bump().span;
                Ok(Pattern {
                    span: start.to(end),
                    kind: PatternKind::Int(-i),
                })
            }
            _ => Err(self.unexpected("an integer after `-` in a pattern")),
        }
    }

    pub(super) fn parenthesised_pattern(&mut self) -> PResult<Pattern> {
        let start = self.expect("(")?;
        if self.is(")") {
            let end = self.bump().span;
            return Ok(Pattern {
                span: start.to(end),
                kind: PatternKind::Unit,
            });
        }
        let mut pat = self.pattern()?;
        if self.eat(":") {
            let ty = self.type_expr()?;
            pat = Pattern {
                span: pat.span,
                kind: PatternKind::Annot(Box::new(pat), ty),
            };
        }
        let end = self.expect(")")?;
        pat.span = start.to(end);
        Ok(pat)
    }

    pub(super) fn list_pattern(&mut self) -> PResult<Pattern> {
        let start = self.expect("[")?;
        let mut items = Vec::new();
        while !self.is("]") {
            items.push(self.pattern()?);
            if !self.eat(";") {
                break;
            }
        }
        let end = self.expect("]")?;
        let mut list = Pattern {
            span: end,
            kind: PatternKind::Nil,
        };
        for item in items.into_iter().rev() {
            let span = item.span.to(list.span);
            list = Pattern {
                span,
                kind: PatternKind::Cons(Box::new(item), Box::new(list)),
            };
        }
        list.span = start.to(end);
        Ok(list)
    }
}
