//! Labelled arguments of the Stdlib functions that have them (`Option.value o ~default:d`,
//! `Option.fold ~none ~some o`): read in any order and placed at the definition's
//! parameter positions (docs/ocaml.md).
//!
//! Guarantees: every labelled parameter is given (else an error naming it); an unknown or
//! repeated label is an error at its position; unlabelled arguments fill the other
//! positions in order, extra ones apply the result.

use super::*;

impl Parser {
    /// `~label:atom` or `~label` (punned) of a Stdlib function with labelled parameters:
    /// the label's position among `labels`, and the argument.
    pub(super) fn labelled_arg(&mut self, labels: &[&str]) -> PResult<(usize, Expr)> {
        self.expect("~")?;
        let Tok::Ident(label) = self.peek().clone() else {
            return Err(self.unexpected("a label"));
        };
        let span = self.bump().span;
        let Some(position) = labels.iter().position(|l| **l == *label) else {
            return Err(Diagnostic::error(
                span,
                format!("this function has no parameter labelled `~{label}`"),
                "unknown label",
            ));
        };
        let arg = if self.eat(":") {
            self.atom_or_construct()?
        } else {
            let name = Name { text: label, span };
            self.mk(span, ExprKind::Var(name))?
        };
        Ok((position, arg))
    }
}

/// The parameters of a Stdlib function that has labelled ones, in its definition's order
/// (`""` for an unlabelled one): `Option.value o ~default`, `Option.fold ~none ~some o`.
pub(super) fn labelled_params(name: &str) -> Option<&'static [&'static str]> {
    match name {
        "Option.value" => Some(&["", "default"]),
        "Option.fold" => Some(&["none", "some", ""]),
        _ => None,
    }
}

/// The arguments in the definition's order: the labelled ones at their labels' positions,
/// the unlabelled ones filling the rest in order. Every labelled parameter must be given
/// (partial application with labels is outside the subset).
pub(super) fn place_labelled(
    labels: &[&str],
    unlabelled: Vec<Expr>,
    labelled: Vec<(usize, Expr)>,
    span: Span,
) -> PResult<Vec<Expr>> {
    let mut slots: Vec<Option<Expr>> = labels.iter().map(|_| None).collect();
    for (position, arg) in labelled {
        if slots[position].is_some() {
            return Err(Diagnostic::error(
                arg.span,
                "this label is given twice",
                "again",
            ));
        }
        slots[position] = Some(arg);
    }
    let mut rest = unlabelled.into_iter();
    let mut out = Vec::new();
    for (i, slot) in slots.into_iter().enumerate() {
        match slot {
            Some(arg) => out.push(arg),
            None if !labels[i].is_empty() => {
                return Err(unsupported(
                    span,
                    &format!("leaving out the labelled argument `~{}`", labels[i]),
                ));
            }
            None => match rest.next() {
                Some(arg) => out.push(arg),
                None => {
                    return Err(unsupported(
                        span,
                        "partial application of a function with labelled parameters",
                    ));
                }
            },
        }
    }
    // Over-application: the result applied to the rest.
    out.extend(rest);
    Ok(out)
}
