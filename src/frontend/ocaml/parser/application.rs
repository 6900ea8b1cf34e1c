//! Application and the constructs at its level: `f a1 .. an` (with labelled arguments
//! placed by parser/labels.rs), `assert e`, constructor application `C e`.
//!
//! Guarantees: an application has at least one argument, each an atom (or a constant
//! constructor); a constructor takes at most one atom.

use super::*;

impl Parser {
    /// Application, `assert e`, constructor application.
    pub(super) fn application(&mut self) -> PResult<Expr> {
        match self.peek().clone() {
            Tok::Keyword("assert") => {
                let start = self.bump().span;
                let arg = self.atom()?;
                let span = start.to(arg.span);
                self.mk(span, ExprKind::Assert(Box::new(arg)))
            }
            Tok::UIdent(_) if !matches!(self.peek_at(1), Tok::Punct(".")) => self.construct(),
            _ => {
                let head = self.atom()?;
                self.application_from(head)
            }
        }
    }

    pub(super) fn application_from(&mut self, head: Expr) -> PResult<Expr> {
        if let ExprKind::Var(name) = &head.kind
            && let Some(params) = self.user_labels.get(&name.text).cloned()
        {
            return self.labelled_application(head, &params);
        }
        let labels = match &head.kind {
            ExprKind::Var(name) => labels::labelled_params(&name.text),
            _ => None,
        };
        let mut args = Vec::new();
        let mut labelled: Vec<(usize, Expr)> = Vec::new();
        loop {
            if let (Some(labels), Tok::Punct("~")) = (labels, self.peek()) {
                labelled.push(self.labelled_arg(labels)?);
            } else if self.starts_atom() {
                args.push(self.atom_or_construct()?);
            } else {
                break;
            }
        }
        if let Some(labels) = labels
            && !labelled.is_empty()
        {
            args = labels::place_labelled(labels, args, labelled, head.span)?;
        }
        if args.is_empty() {
            return Ok(head);
        }
        if let Some(printed) = self.printing(&head, &args)? {
            return Ok(printed);
        }
        let span = head.span.to(args[args.len() - 1].span);
        self.mk(span, ExprKind::App(Box::new(head), args))
    }

    pub(super) fn atom_or_construct(&mut self) -> PResult<Expr> {
        match self.peek() {
            Tok::UIdent(_) if !matches!(self.peek_at(1), Tok::Punct(".")) => {
                let name = self.uident("a constructor")?;
                self.mk(name.span, ExprKind::Construct(name, None))
            }
            _ => self.atom(),
        }
    }

    /// `E` or `E atom`.
    pub(super) fn construct(&mut self) -> PResult<Expr> {
        let name = self.uident("a constructor")?;
        let arg = if self.starts_atom() {
            Some(Box::new(self.atom_or_construct()?))
        } else {
            None
        };
        let span = arg.as_ref().map_or(name.span, |a| name.span.to(a.span));
        self.mk(span, ExprKind::Construct(name, arg))
    }

    pub(super) fn starts_atom(&self) -> bool {
        match self.peek() {
            Tok::Int(_) | Tok::Ident(_) | Tok::UIdent(_) | Tok::Str(_) => true,
            Tok::Keyword(k) => matches!(*k, "true" | "false" | "begin"),
            Tok::Punct(p) => matches!(*p, "(" | "[" | "!" | "[|" | "{"),
            _ => false,
        }
    }
}
