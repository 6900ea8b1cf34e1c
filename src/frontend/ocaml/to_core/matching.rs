//! `match`, `function` and pattern bindings in the core: each case's pattern becomes tests
//! (`is_empty`, `==`) and accesses (`fst`, `snd`, `hd`, `tl`) on the scrutinee, tried in
//! order; no matching case raises `Match_failure` at the match (docs/ocaml.md).
//!
//! Guarantees: a case runs exactly when its pattern matches and its guard holds, with its
//! variables bound to the accessed parts; a last case that matches whatever the earlier
//! unguarded ones leave is not tested.

use super::paths::{Step, collect_vars_in, extend, record_field_path, tuple_path};
use super::*;
use crate::core_lang::ast as core;
use crate::frontend::ocaml::or_patterns::expand_or_cases;

impl Translator<'_> {
    /// The cases on the value of the core variable `name`, tried in order; no match fails.
    pub(super) fn match_on(&mut self, name: &Rc<str>, cases: &[Case], span: Span) -> R<core::Expr> {
        let otherwise = self.raise_named(span, "Match_failure");
        self.cases_then(name, cases, otherwise)
    }

    /// The cases on the value of the core variable `name`, tried in order; no match is
    /// `otherwise`.
    pub(super) fn cases_then(
        &mut self,
        name: &Rc<str>,
        cases: &[Case],
        otherwise: core::Expr,
    ) -> R<core::Expr> {
        let expanded = expand_or_cases(cases)?;
        let cases = &expanded[..];
        let mut result = otherwise;
        for (i, case) in cases.iter().enumerate().rev() {
            let certain = i + 1 == cases.len()
                && (completes(&cases[..i], case) || self.completes_variant(&cases[..i], case));
            result = self.case(name, case, result, certain)?;
        }
        Ok(result)
    }

    /// One case tried before `otherwise`; when `certain` (the earlier cases leave only
    /// values it matches), without its test, so `otherwise` is dropped.
    pub(super) fn case(
        &mut self,
        name: &Rc<str>,
        case: &Case,
        otherwise: core::Expr,
        certain: bool,
    ) -> R<core::Expr> {
        let span = case.pattern.span;
        self.declare(&case.pattern);
        let mut test = match certain {
            true => None,
            false => self.test(&case.pattern, name, &[])?,
        };
        if let Some(guard) = &case.guard {
            let g = self.expr(guard)?;
            let g = self.with_bindings(&case.pattern, name, g)?;
            test = Some(match test {
                Some(t) => self.binary(core::BinOp::And, t, g, span),
                None => g,
            });
        }
        let body = self.expr(&case.body)?;
        let body = self.with_bindings(&case.pattern, name, body)?;
        Ok(match test {
            None => body,
            Some(test) => self.if_then_else(test, body, otherwise, span),
        })
    }

    /// The core access to the part of `name` at `path`.
    pub(super) fn access(&mut self, name: &Rc<str>, path: &[Step], span: Span) -> core::Expr {
        let mut e = self.var(name, span);
        for step in path {
            let kind = match step {
                Step::Fst => core::ExprKind::Proj {
                    which: core::Proj::Fst,
                    annot: None,
                    pair: Box::new(e),
                },
                Step::Snd => core::ExprKind::Proj {
                    which: core::Proj::Snd,
                    annot: None,
                    pair: Box::new(e),
                },
                Step::Hd => core::ExprKind::List(core::ListOp::Hd, Box::new(e)),
                Step::Tl => core::ExprKind::List(core::ListOp::Tl, Box::new(e)),
                Step::Load => core::ExprKind::Load(Box::new(e)),
                Step::Field(ctor) => core::ExprKind::Field {
                    ctor: *ctor,
                    field: 0,
                    value: Box::new(e),
                },
            };
            e = self.mk(span, kind);
        }
        e
    }

    /// The condition under which `p` matches the part of `name` at `path` (None: always).
    pub(super) fn test(
        &mut self,
        p: &Pattern,
        name: &Rc<str>,
        path: &[Step],
    ) -> R<Option<core::Expr>> {
        let span = p.span;
        Ok(match &p.kind {
            PatternKind::Wild | PatternKind::Var(..) | PatternKind::Unit => None,
            PatternKind::Int(i) => {
                let v = self.access(name, path, span);
                let lit = self.mk(span, core::ExprKind::Int(i.clone()));
                Some(self.binary(core::BinOp::Eq, v, lit, span))
            }
            PatternKind::Bool(true) => Some(self.access(name, path, span)),
            PatternKind::Bool(false) => {
                let v = self.access(name, path, span);
                let zero = self.int(0, span);
                Some(self.binary(core::BinOp::Eq, v, zero, span))
            }
            PatternKind::Nil => {
                let v = self.access(name, path, span);
                Some(self.mk(
                    span,
                    core::ExprKind::List(core::ListOp::IsEmpty, Box::new(v)),
                ))
            }
            PatternKind::Cons(h, t) => {
                let v = self.access(name, path, span);
                let empty = self.mk(
                    span,
                    core::ExprKind::List(core::ListOp::IsEmpty, Box::new(v)),
                );
                let zero = self.int(0, span);
                let nonempty = self.binary(core::BinOp::Eq, empty, zero, span);
                let h = self.test(h, name, &extend(path, Step::Hd))?;
                let t = self.test(t, name, &extend(path, Step::Tl))?;
                self.conjoin(vec![Some(nonempty), h, t], span)
            }
            PatternKind::Tuple(items) => {
                let mut tests = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    tests.push(self.test(item, name, &tuple_path(path, i, items.len()))?);
                }
                self.conjoin(tests, span)
            }
            PatternKind::Or(a, b) => {
                let a = self.test(a, name, path)?;
                let b = self.test(b, name, path)?;
                match (a, b) {
                    (Some(a), Some(b)) => Some(self.binary(core::BinOp::Or, a, b, span)),
                    _ => None,
                }
            }
            PatternKind::Alias(inner, ..) | PatternKind::Annot(inner, _) => {
                self.test(inner, name, path)?
            }
            PatternKind::Record(fields) => {
                let mut tests = Vec::new();
                for (field, p) in fields {
                    let field_path = record_field_path(self.typing, span, field, path);
                    tests.push(self.test(p, name, &field_path)?);
                }
                self.conjoin(tests, span)
            }
            PatternKind::Construct(_, arg) if self.typing.ctor_of(p).is_some() => {
                let ctor = self.typing.ctor_of(p).unwrap_or_default();
                self.variant_test(ctor, arg.as_deref(), name, path, span)?
            }
            PatternKind::Construct(exn, arg) => {
                self.exception_test(exn, arg.as_deref(), name, path, span)?
            }
        })
    }

    /// Whether `last` is `C p` (`p` irrefutable) and every other constructor of its
    /// variant is matched by an unguarded earlier case `D q` (`q` irrefutable) or `_`:
    /// its test would always hold (the exhaustive `match` OCaml programs write).
    fn completes_variant(&self, earlier: &[Case], last: &Case) -> bool {
        let ctor_of = |p: &Pattern| match &p.kind {
            PatternKind::Construct(_, arg) if arg.as_deref().is_none_or(irrefutable) => {
                self.typing.ctor_of(p)
            }
            _ => None,
        };
        let Some((v, c)) = ctor_of(&last.pattern).filter(|_| last.guard.is_none()) else {
            return false;
        };
        let covered: Vec<usize> = earlier
            .iter()
            .filter(|case| case.guard.is_none())
            .filter_map(|case| ctor_of(&case.pattern))
            .filter(|(w, _)| *w == v)
            .map(|(_, d)| d)
            .collect();
        (0..self.typing.variants[v].ctors.len()).all(|d| d == c || covered.contains(&d))
    }

    pub(super) fn conjoin(
        &mut self,
        tests: Vec<Option<core::Expr>>,
        span: Span,
    ) -> Option<core::Expr> {
        tests
            .into_iter()
            .flatten()
            .reduce(|a, b| self.binary(core::BinOp::And, a, b, span))
    }

    /// `body` under `let x = <part of name>` for every variable of `p`.
    pub(super) fn with_bindings(
        &mut self,
        p: &Pattern,
        name: &Rc<str>,
        body: core::Expr,
    ) -> R<core::Expr> {
        let mut vars = Vec::new();
        collect_vars_in(self.typing, &|exn| self.exn_steps(exn), p, &[], &mut vars);
        let mut body = body;
        for (id, var_name, path) in vars.into_iter().rev() {
            if self.is_message(id) {
                self.entries.insert(id, Entry::Message);
                continue;
            }
            let ty = self.core_type(&self.typing.var_types[id.0 as usize], var_name.span)?;
            self.entries.insert(id, Entry::Local(var_name.text.clone()));
            let value = self.access(name, &path, var_name.span);
            let binder = self.binder(var_name.text.clone(), var_name.span, ty);
            body = self.let_in(binder, value, body, p.span);
        }
        Ok(body)
    }
}

/// Whether `last` (the last case) matches every list the unguarded `earlier` cases leave:
/// `[] -> .. | h :: t -> ..` or `h :: t -> .. | [] -> ..` with irrefutable `h` and `t`. Its
/// test would always hold, so it is not made (a `match` on a list costs one test, as
/// `if is_empty l` does in BMC-2 syntax).
pub(super) fn completes(earlier: &[Case], last: &Case) -> bool {
    let is_cons = |p: &Pattern| matches!(&p.kind, PatternKind::Cons(h, t) if irrefutable(h) && irrefutable(t));
    let is_nil = |p: &Pattern| matches!(p.kind, PatternKind::Nil);
    last.guard.is_none()
        && earlier.iter().filter(|c| c.guard.is_none()).any(|c| {
            (is_nil(&c.pattern) && is_cons(&last.pattern))
                || (is_cons(&c.pattern) && is_nil(&last.pattern))
        })
}

/// Whether `p` matches every value of its type.
pub(super) fn irrefutable(p: &Pattern) -> bool {
    match &p.kind {
        PatternKind::Wild | PatternKind::Var(..) | PatternKind::Unit => true,
        PatternKind::Tuple(items) => items.iter().all(irrefutable),
        PatternKind::Record(fields) => fields.iter().all(|(_, p)| irrefutable(p)),
        PatternKind::Alias(inner, ..) => irrefutable(inner),
        _ => false,
    }
}
