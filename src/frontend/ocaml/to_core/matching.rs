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

/// The most cases one case's or-patterns with variables may expand into.
const MAX_ALTERNATIVES: usize = 64;

/// `cases` with every case whose pattern has or-patterns that bind variables replaced by
/// one case per alternative, in order, with the same guard (inference allows them only
/// without one) and body: `(x, 0) | (0, x) -> e` is `(x, 0) -> e | (0, x) -> e`, OCaml's
/// leftmost-first choice. The right alternatives' variables are renamed to the left one's,
/// which the body refers to.
fn expand_or_cases(cases: &[Case]) -> R<Vec<Case>> {
    let mut out = Vec::with_capacity(cases.len());
    for case in cases {
        let alternatives = alternatives(&case.pattern);
        if alternatives.len() > MAX_ALTERNATIVES {
            return Err(unsupported(
                case.pattern.span,
                &format!("or-patterns with variables of more than {MAX_ALTERNATIVES} alternatives"),
            ));
        }
        for pattern in alternatives {
            out.push(Case {
                pattern,
                guard: case.guard.clone(),
                body: case.body.clone(),
            });
        }
    }
    Ok(out)
}

/// The alternatives of `p` with its or-patterns that bind variables distributed to the top
/// (those without variables stay, as tests); `[p]` when it has none.
fn alternatives(p: &Pattern) -> Vec<Pattern> {
    let with = |kind| Pattern { span: p.span, kind };
    match &p.kind {
        PatternKind::Or(a, b) if binds_variables(p) => {
            let left = alternatives(a);
            let mut names = Vec::new();
            collect_names(a, &mut names);
            let mut out = left;
            out.extend(alternatives(b).iter().map(|q| renamed(q, &names)));
            out
        }
        PatternKind::Tuple(items) => {
            let mut out: Vec<Vec<Pattern>> = vec![Vec::new()];
            for item in items {
                let alts = alternatives(item);
                out = out
                    .iter()
                    .flat_map(|prefix| {
                        alts.iter().map(move |alt| {
                            let mut next = prefix.clone();
                            next.push(alt.clone());
                            next
                        })
                    })
                    .take(MAX_ALTERNATIVES + 1)
                    .collect();
            }
            out.into_iter()
                .map(|items| with(PatternKind::Tuple(items)))
                .collect()
        }
        PatternKind::Record(fields) => {
            // As a tuple of the fields' patterns.
            let items: Vec<Pattern> = fields.iter().map(|(_, q)| q.clone()).collect();
            let tuple = Pattern {
                span: p.span,
                kind: PatternKind::Tuple(items),
            };
            alternatives(&tuple)
                .into_iter()
                .map(|alt| match alt.kind {
                    PatternKind::Tuple(items) => with(PatternKind::Record(
                        fields.iter().map(|(n, _)| n.clone()).zip(items).collect(),
                    )),
                    _ => alt,
                })
                .collect()
        }
        PatternKind::Cons(h, t) => {
            let tails = alternatives(t);
            alternatives(h)
                .iter()
                .flat_map(|h| {
                    tails.iter().map(move |t| {
                        with(PatternKind::Cons(Box::new(h.clone()), Box::new(t.clone())))
                    })
                })
                .take(MAX_ALTERNATIVES + 1)
                .collect()
        }
        PatternKind::Alias(inner, id, name) => alternatives(inner)
            .into_iter()
            .map(|q| with(PatternKind::Alias(Box::new(q), *id, name.clone())))
            .collect(),
        PatternKind::Annot(inner, te) => alternatives(inner)
            .into_iter()
            .map(|q| with(PatternKind::Annot(Box::new(q), te.clone())))
            .collect(),
        PatternKind::Construct(name, Some(inner)) => alternatives(inner)
            .into_iter()
            .map(|q| with(PatternKind::Construct(name.clone(), Some(Box::new(q)))))
            .collect(),
        _ => vec![p.clone()],
    }
}

fn binds_variables(p: &Pattern) -> bool {
    let mut names = Vec::new();
    collect_names(p, &mut names);
    !names.is_empty()
}

/// Every variable `p` binds, on any side of its or-patterns.
fn collect_names(p: &Pattern, out: &mut Vec<(Rc<str>, VarId)>) {
    match &p.kind {
        PatternKind::Var(id, name) => out.push((name.text.clone(), *id)),
        PatternKind::Alias(inner, id, name) => {
            out.push((name.text.clone(), *id));
            collect_names(inner, out);
        }
        PatternKind::Tuple(items) => items.iter().for_each(|q| collect_names(q, out)),
        PatternKind::Record(fields) => fields.iter().for_each(|(_, q)| collect_names(q, out)),
        PatternKind::Cons(a, b) | PatternKind::Or(a, b) => {
            collect_names(a, out);
            collect_names(b, out);
        }
        PatternKind::Annot(inner, _) | PatternKind::Construct(_, Some(inner)) => {
            collect_names(inner, out)
        }
        _ => {}
    }
}

/// `p` with each variable named as one of `names` given that one's id.
fn renamed(p: &Pattern, names: &[(Rc<str>, VarId)]) -> Pattern {
    let id_of = |id: VarId, name: &Name| {
        names
            .iter()
            .find(|(n, _)| *n == name.text)
            .map_or(id, |(_, id)| *id)
    };
    let kind = match &p.kind {
        PatternKind::Var(id, name) => PatternKind::Var(id_of(*id, name), name.clone()),
        PatternKind::Alias(inner, id, name) => PatternKind::Alias(
            Box::new(renamed(inner, names)),
            id_of(*id, name),
            name.clone(),
        ),
        PatternKind::Tuple(items) => {
            PatternKind::Tuple(items.iter().map(|q| renamed(q, names)).collect())
        }
        PatternKind::Record(fields) => PatternKind::Record(
            fields
                .iter()
                .map(|(n, q)| (n.clone(), renamed(q, names)))
                .collect(),
        ),
        PatternKind::Cons(a, b) => {
            PatternKind::Cons(Box::new(renamed(a, names)), Box::new(renamed(b, names)))
        }
        PatternKind::Or(a, b) => {
            PatternKind::Or(Box::new(renamed(a, names)), Box::new(renamed(b, names)))
        }
        PatternKind::Annot(inner, te) => {
            PatternKind::Annot(Box::new(renamed(inner, names)), te.clone())
        }
        PatternKind::Construct(n, Some(inner)) => {
            PatternKind::Construct(n.clone(), Some(Box::new(renamed(inner, names))))
        }
        other => other.clone(),
    };
    Pattern { span: p.span, kind }
}
