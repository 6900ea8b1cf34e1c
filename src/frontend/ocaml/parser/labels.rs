//! Labelled arguments of the Stdlib functions that have them (`Option.value o ~default:d`,
//! `Option.fold ~none ~some o`) and labelled and optional parameters of the program's own
//! functions (`let f ~x ?(y = 0) z = ..`): read in any order and placed at the definition's
//! parameter positions (docs/ocaml.md, "Labelled and optional arguments").
//!
//! Guarantees: every labelled parameter is given (else an error naming it, or for a
//! program's function, the next unlabelled argument); an optional one left out is `None`
//! only when a later positional argument is given (OCaml's erasure); an unknown or
//! repeated label is an error at its position; unlabelled arguments fill the other
//! positions in order, extra ones apply the result; an application that would leave a
//! labelled or optional parameter unapplied is an error naming it.

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
        "Option.value" | "Result.value" => Some(&["", "default"]),
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

/// A parameter of a function defined with labelled or optional parameters (`let f ~x ?(y
/// = 0) z = ..`), in definition order.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Param {
    Positional,
    /// `~x`, `~x:p`, `~(x : t)`: an argument given as `~x:e` (or `~x`), or, with no
    /// label, by position.
    Labelled(Rc<str>),
    /// `?x`, `?(x = d)`: a parameter of type `t option`, `Some e` for `~x:e`, `e` for
    /// `?x:e`, `None` when left out.
    Optional(Rc<str>),
}

/// An optional parameter's default: the name it binds in the body and its expression.
pub(super) type Default = (Name, Expr);

impl Parser {
    /// A labelled or optional parameter of a function binding: its pattern, its kind, and
    /// for `?(x = d)` the name `x` bound in the body and the default `d` (the parameter's
    /// own variable is then `?x`, holding the option).
    pub(super) fn labelled_param(&mut self) -> PResult<(Pattern, Param, Option<Default>)> {
        let optional = self.is("?");
        self.bump();
        let parenthesised = self.eat("(");
        let Tok::Ident(label) = self.peek().clone() else {
            return Err(self.unexpected("a label"));
        };
        let span = self.bump().span;
        let name = Name {
            text: label.clone(),
            span,
        };
        let kind = if optional {
            Param::Optional(label.clone())
        } else {
            Param::Labelled(label.clone())
        };
        let var = |p: &mut Self, text: Rc<str>| Pattern {
            span,
            kind: PatternKind::Var(p.var(), Name { text, span }),
        };
        if !parenthesised {
            if !optional && self.eat(":") {
                return Ok((self.simple_pattern()?, kind, None));
            }
            return Ok((var(self, label), kind, None));
        }
        if optional && self.eat("=") {
            let default = self.expr()?;
            self.expect(")")?;
            let hidden: Rc<str> = format!("?{label}").into();
            return Ok((var(self, hidden), kind, Some((name, default))));
        }
        let mut pattern = var(self, label);
        if self.eat(":") {
            let ty = self.type_expr()?;
            if optional {
                return Err(unsupported(
                    ty.span(),
                    "a type annotation on an optional parameter",
                ));
            }
            pattern = Pattern {
                span,
                kind: PatternKind::Annot(Box::new(pattern), ty),
            };
        }
        self.expect(")")?;
        Ok((pattern, kind, None))
    }

    /// Records the parameters of the function `name` if it has labelled or optional ones
    /// (its applications by name are then placed by [`Self::labelled_application`]), and
    /// forgets an earlier function of that name otherwise.
    pub(super) fn note_labels(&mut self, name: &Rc<str>, kinds: Vec<Param>) {
        if kinds.iter().all(|k| *k == Param::Positional) {
            self.user_labels.remove(name);
        } else {
            self.user_labels.insert(name.clone(), kinds.into());
            self.labelled.push(name.clone());
        }
    }

    /// `fun .. -> body` with `let x = match ?x with Some x -> x | None -> d in body` for
    /// each optional parameter `?(x = d)`, in order (so a default sees the parameters
    /// before it).
    pub(super) fn with_defaults(
        &mut self,
        value: Expr,
        defaults: Vec<(Name, Expr)>,
    ) -> PResult<Expr> {
        if defaults.is_empty() {
            return Ok(value);
        }
        let ExprKind::Fun(params, mut body) = value.kind else {
            return Err(unsupported(value.span, "optional parameters here"));
        };
        for (name, default) in defaults.into_iter().rev() {
            let span = name.span;
            let hidden = Name {
                text: format!("?{}", name.text).into(),
                span,
            };
            let scrutinee = self.mk(span, ExprKind::Var(hidden))?;
            let bound = Pattern {
                span,
                kind: PatternKind::Var(self.var(), name.clone()),
            };
            let some = Pattern {
                span,
                kind: PatternKind::Construct(
                    Name {
                        text: "Some".into(),
                        span,
                    },
                    Some(Box::new(bound)),
                ),
            };
            let none = Pattern {
                span,
                kind: PatternKind::Construct(
                    Name {
                        text: "None".into(),
                        span,
                    },
                    None,
                ),
            };
            let value_of = self.mk(span, ExprKind::Var(name.clone()))?;
            let cases = vec![
                Case {
                    pattern: some,
                    guard: None,
                    body: value_of,
                },
                Case {
                    pattern: none,
                    guard: None,
                    body: default,
                },
            ];
            let matched = self.mk(span, ExprKind::Match(Box::new(scrutinee), cases))?;
            let binder = Pattern {
                span,
                kind: PatternKind::Var(self.var(), name),
            };
            let group = LetGroup {
                recursive: false,
                bindings: vec![Binding {
                    pattern: binder,
                    value: matched,
                }],
                span,
            };
            let body_span = body.span;
            body = Box::new(self.mk(body_span, ExprKind::Let(group, body))?);
        }
        self.mk(value.span, ExprKind::Fun(params, body))
    }

    /// An application of a function defined with labelled or optional parameters, by name:
    /// `~x:e` / `~x` go to `x`'s position, `?x:e` passes the option `e`, an optional one
    /// left out is `None`, a labelled one left out takes the next unlabelled argument (as
    /// OCaml's total application without labels); the other arguments fill the positional
    /// parameters in order, extra ones apply the result. An application that stops
    /// before a labelled or optional parameter is outside the subset.
    pub(super) fn labelled_application(&mut self, head: Expr, params: &[Param]) -> PResult<Expr> {
        let mut unlabelled = Vec::new();
        let mut given: Vec<(Rc<str>, bool, Expr, Span)> = Vec::new();
        loop {
            if self.is("~") || self.is("?") {
                let optional = self.is("?");
                let start = self.bump().span;
                let Tok::Ident(label) = self.peek().clone() else {
                    return Err(self.unexpected("a label"));
                };
                let span = self.bump().span;
                let arg = if self.eat(":") {
                    self.atom_or_construct()?
                } else {
                    let name = Name {
                        text: label.clone(),
                        span,
                    };
                    self.mk(span, ExprKind::Var(name))?
                };
                if given.iter().any(|(l, ..)| *l == label) {
                    return Err(Diagnostic::error(
                        span,
                        "this label is given twice",
                        "again",
                    ));
                }
                given.push((label, optional, arg, start.to(span)));
            } else if self.starts_atom() {
                unlabelled.push(self.atom_or_construct()?);
            } else {
                break;
            }
        }
        for (l, _, _, span) in &given {
            let known = params
                .iter()
                .any(|p| matches!(p, Param::Labelled(x) | Param::Optional(x) if x == l));
            if !known {
                return Err(Diagnostic::error(
                    *span,
                    format!("this function has no parameter labelled `{l}`"),
                    "unknown label",
                ));
            }
        }
        let mut rest = unlabelled.into_iter();
        let mut args = Vec::new();
        for (i, param) in params.iter().enumerate() {
            let label = match param {
                Param::Positional => None,
                Param::Labelled(l) | Param::Optional(l) => Some(l),
            };
            let taken = label.and_then(|l| {
                let at = given.iter().position(|(g, ..)| g == l)?;
                Some(given.remove(at))
            });
            let arg = match (param, taken) {
                (Param::Labelled(_), Some((_, false, arg, _))) => arg,
                (Param::Optional(_), Some((_, true, arg, _))) => arg,
                (Param::Optional(_), Some((_, false, arg, span))) => {
                    let some = Name {
                        text: "Some".into(),
                        span,
                    };
                    let span = span.to(arg.span);
                    self.mk(span, ExprKind::Construct(some, Some(Box::new(arg))))?
                }
                (_, Some((l, _, _, span))) => {
                    return Err(Diagnostic::error(
                        span,
                        format!(
                            "`~{l}` is a labelled parameter: give it as `~{l}:e`, not `?{l}:e`"
                        ),
                        "not an optional parameter",
                    ));
                }
                (Param::Optional(_), None) => {
                    if rest.len() == 0 || !params[i..].contains(&Param::Positional) {
                        return Err(unsupported(
                            head.span,
                            "partial application of a function with labelled or optional parameters",
                        ));
                    }
                    let none = Name {
                        text: "None".into(),
                        span: head.span,
                    };
                    self.mk(head.span, ExprKind::Construct(none, None))?
                }
                (_, None) => match rest.next() {
                    Some(arg) => arg,
                    None => {
                        if params[i..].iter().all(|p| *p == Param::Positional) && given.is_empty() {
                            break;
                        }
                        return Err(unsupported(
                            head.span,
                            "partial application of a function with labelled or optional parameters",
                        ));
                    }
                },
            };
            args.push(arg);
        }
        if let Some((l, _, _, span)) = given.first() {
            return Err(Diagnostic::error(
                *span,
                format!("this function has no parameter labelled `{l}`"),
                "unknown label",
            ));
        }
        args.extend(rest);
        if args.is_empty() {
            return Ok(head);
        }
        let span = head.span.to(args[args.len() - 1].span);
        self.mk(span, ExprKind::App(Box::new(head), args))
    }
}
