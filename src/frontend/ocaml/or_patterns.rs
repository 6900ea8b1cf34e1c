//! Or-patterns that bind variables (`(x, 0) | (0, x) -> e`), expanded into one case per
//! alternative (docs/ocaml.md, the subset's `match`). Inference asks
//! [`guard_allows`] whether a case with a `when` guard may have them; the translation
//! ([`expand_or_cases`]) expands them.
//!
//! Guarantees: the expanded cases, tried in order, choose the case and bind the variables
//! as OCaml does: the leftmost matching alternative binds them; with a guard, only when no
//! value matches two alternatives (OCaml then tries the next case, not the next
//! alternative, when the guard fails).

use super::ast::*;
use super::parser::unsupported;
use crate::diagnostics::Diagnostic;
use std::rc::Rc;

type R<T> = Result<T, Diagnostic>;

/// The most cases one case's or-patterns with variables may expand into.
const MAX_ALTERNATIVES: usize = 64;

/// `cases` with every case whose pattern has or-patterns that bind variables replaced by
/// one case per alternative, in order, with the same guard (inference allows one only
/// when the alternatives are disjoint, [`guard_allows`]) and body: `(x, 0) | (0, x) -> e` is `(x, 0) -> e | (0, x) -> e`, OCaml's
/// leftmost-first choice. The right alternatives' variables are renamed to the left one's,
/// which the body refers to.
pub(crate) fn expand_or_cases(cases: &[Case]) -> R<Vec<Case>> {
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

/// Whether the case pattern `p` may have a `when` guard: its alternatives (or-patterns
/// that bind variables distributed to the top) are pairwise disjoint, so a guard that
/// fails for the one that matched leaves no other alternative that would match, and the
/// expansion's next case is OCaml's.
pub(crate) fn guard_allows(p: &Pattern) -> bool {
    let alts = alternatives(p);
    alts.len() <= MAX_ALTERNATIVES
        && alts
            .iter()
            .enumerate()
            .all(|(i, a)| alts[i + 1..].iter().all(|b| disjoint(a, b)))
}

/// Whether no value matches both `p` and `q` (`false` when unsure).
fn disjoint(p: &Pattern, q: &Pattern) -> bool {
    use PatternKind as K;
    match (&p.kind, &q.kind) {
        (K::Alias(a, ..) | K::Annot(a, _), _) => disjoint(a, q),
        (_, K::Alias(b, ..) | K::Annot(b, _)) => disjoint(p, b),
        (K::Or(a, b), _) => disjoint(a, q) && disjoint(b, q),
        (_, K::Or(a, b)) => disjoint(p, a) && disjoint(p, b),
        (K::Int(a), K::Int(b)) => a != b,
        (K::Bool(a), K::Bool(b)) => a != b,
        (K::Nil, K::Cons(..)) | (K::Cons(..), K::Nil) => true,
        (K::Cons(h1, t1), K::Cons(h2, t2)) => disjoint(h1, h2) || disjoint(t1, t2),
        (K::Tuple(xs), K::Tuple(ys)) => xs.iter().zip(ys).any(|(x, y)| disjoint(x, y)),
        (K::Construct(c, a), K::Construct(d, b)) => match (a, b) {
            _ if c.text != d.text => true,
            (Some(a), Some(b)) => disjoint(a, b),
            _ => false,
        },
        (K::Record(fs), K::Record(gs)) => fs
            .iter()
            .any(|(f, x)| gs.iter().any(|(g, y)| f.text == g.text && disjoint(x, y))),
        _ => false,
    }
}
