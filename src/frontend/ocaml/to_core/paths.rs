//! Paths into a core value: the steps (`fst`, `snd`, `hd`, `tl`, `!`, a datatype's field)
//! from a matched value to the part a pattern tests or binds, for tuples, lists, records
//! and variants (docs/ocaml.md), shared by `match`, pattern `let`s and structural
//! equality.
//!
//! Guarantees: a path leads to exactly the part of the value its pattern names, under the
//! layouts of [`super::variants`] and [`super::records`]; a path into a variant's argument
//! or a record's field is taken only after the pattern's tests have passed.

use super::*;
use crate::frontend::ocaml::infer::Variant;

/// One step into a value: a component of a pair, the head or tail of a list, the content
/// of a cell (for structural equality only: a pattern never reads a cell).
#[derive(Clone, Copy, Debug)]
pub(super) enum Step {
    Fst,
    Snd,
    Hd,
    Tl,
    Load,
    /// The argument of a value of a recursive variant built by this constructor.
    Field(u32),
}

pub(super) fn extend(path: &[Step], step: Step) -> Vec<Step> {
    let mut p = path.to_vec();
    p.push(step);
    p
}

/// The path to component `i` of an `n`-tuple stored as nested pairs.
pub(super) fn tuple_path(path: &[Step], i: usize, n: usize) -> Vec<Step> {
    let mut p = path.to_vec();
    p.extend(std::iter::repeat_n(Step::Snd, i));
    if i + 1 < n {
        p.push(Step::Fst);
    }
    p
}

/// The variables of `p` with the path to the part of the value each one names.
pub(super) fn collect_vars(
    typing: &Typing,
    p: &Pattern,
    path: &[Step],
    out: &mut Vec<(VarId, Name, Vec<Step>)>,
) {
    collect_vars_in(typing, &|_| Vec::new(), p, path, out)
}

/// [`collect_vars`], with `exn` giving the steps from an exception value to the argument
/// of the exception a name stands for.
pub(super) fn collect_vars_in(
    typing: &Typing,
    exn: &dyn Fn(&Name) -> Vec<Step>,
    p: &Pattern,
    path: &[Step],
    out: &mut Vec<(VarId, Name, Vec<Step>)>,
) {
    let collect_vars =
        |p: &Pattern, path: &[Step], out: &mut Vec<_>| collect_vars_in(typing, exn, p, path, out);
    match &p.kind {
        PatternKind::Var(id, name) => out.push((*id, name.clone(), path.to_vec())),
        PatternKind::Alias(inner, id, name) => {
            out.push((*id, name.clone(), path.to_vec()));
            collect_vars(inner, path, out);
        }
        PatternKind::Tuple(items) => {
            for (i, item) in items.iter().enumerate() {
                collect_vars(item, &tuple_path(path, i, items.len()), out);
            }
        }
        PatternKind::Cons(h, t) => {
            collect_vars(h, &extend(path, Step::Hd), out);
            collect_vars(t, &extend(path, Step::Tl), out);
        }
        PatternKind::Annot(inner, _) => collect_vars(inner, path, out),
        PatternKind::Record(fields) => {
            for (field, inner) in fields {
                collect_vars(inner, &record_field_path(typing, p.span, field, path), out);
            }
        }
        PatternKind::Construct(name, Some(inner)) => match typing.ctor_of(p) {
            Some((v, c)) => {
                let variant = &typing.variants[v];
                collect_vars(inner, &arg_path(variant, c, path), out)
            }
            // An exception's argument: a field of the exception value.
            None => collect_vars(inner, &[path, &exn(name)].concat(), out),
        },
        _ => {}
    }
}

/// The path to the field `field` (its content, for a `mutable` one) of the record at
/// `path` matched by the record pattern at `span`.
pub(super) fn record_field_path(
    typing: &Typing,
    span: Span,
    field: &Name,
    path: &[Step],
) -> Vec<Step> {
    let Some(record) = typing
        .record_of_pattern
        .get(&span)
        .and_then(|i| typing.records.get(*i))
    else {
        return path.to_vec();
    };
    let i = record.index_of(&field.text).unwrap_or_default();
    let mut p = tuple_path(path, i, record.fields.len());
    if record.fields[i].1 {
        p.push(Step::Load);
    }
    p
}

/// The path to the tag of a variant value at `path`.
pub(super) fn tag_path(variant: &Variant, path: &[Step]) -> Vec<Step> {
    match variant.carrying() {
        0 => path.to_vec(),
        _ => extend(path, Step::Fst),
    }
}

/// The path to constructor `c`'s argument in a variant value at `path`.
pub(super) fn arg_path(variant: &Variant, c: usize, path: &[Step]) -> Vec<Step> {
    match variant.recursive {
        true => extend(path, Step::Field(c as u32)),
        false => tuple_path(
            &extend(path, Step::Snd),
            variant.slot(c),
            variant.carrying(),
        ),
    }
}
