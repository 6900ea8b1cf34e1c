//! OCaml exceptions in the core: `exception` declarations become the core's exception
//! table, `raise`/`failwith`/`invalid_arg` and a failed `match` become `Raise`, `try ...
//! with` becomes `Try` (docs/ocaml.md, "Exceptions").
//!
//! Guarantees: the predefined exceptions come first, in [`PREDEFINED`] order, then the
//! declared ones in program order (a top-level name declared twice, or a predefined one
//! declared again, is refused: uses are resolved by name), then the local ones (`let
//! exception`) in source order; an exception carries the core value of its argument
//! (any type the subset has), except one carrying a `string` (`Failure`,
//! `Invalid_argument`, `exception E of string`), which carries nothing: its message may
//! be bound (`Failure s`) only to be passed on where strings are accepted.
//! A handler's pattern is `_`, `E`, `E x`, `E _`, `E p` (a pattern testing the argument)
//! or an or-pattern of those, with or without a `when` guard; an exception with a guarded
//! or testing case gets one selective handler trying its cases in order and raising it
//! again when none matches. A `try` some case of which needs the exception as a value (a
//! variable for it, `_ when ..`, a local exception) is matched by value instead
//! ([`super::exn_values`]).

use super::super::ast::*;
use super::super::parser::unsupported;
use super::super::types::Ty;
use super::{R, Translator, core_type, internal};
use crate::core_lang::ast as core;
use crate::span::Span;
use std::rc::Rc;

/// The predefined exceptions (`Failure` and `Invalid_argument` carry a string in OCaml,
/// nothing in the core).
pub const PREDEFINED: &[&str] = &[
    core::DIVISION_BY_ZERO,
    "Not_found",
    "Exit",
    "Failure",
    "Invalid_argument",
    "Match_failure",
];

impl Translator<'_> {
    /// Declares the predefined exceptions and those of `program`.
    pub(super) fn declare_exceptions(&mut self, program: &Program) -> R<()> {
        for name in PREDEFINED {
            let id = self.declare_exception(Rc::from(*name), None);
            self.exception_ids.insert(Rc::from(*name), id);
            if matches!(*name, "Failure" | "Invalid_argument") {
                self.messages.insert(id);
            }
        }
        for item in &program.items {
            let Item::Exception(name, arg) = item else {
                continue;
            };
            // A use is resolved by name against the whole program, so a second declaration
            // would take over the uses before it too (OCaml keeps them on the first).
            if self.exception_ids.contains_key(&name.text) {
                return Err(unsupported(
                    name.span,
                    "an exception declared again at top level (a second `exception` of one name)",
                ));
            }
            let declared = match arg {
                Some(_) => self.typing.exceptions.get(&name.text).cloned().flatten(),
                None => None,
            };
            let (carried, message) = self.carried(declared.as_ref(), name.span)?;
            let id = self.declare_exception(name.text.clone(), carried);
            self.exception_ids.insert(name.text.clone(), id);
            if message {
                self.messages.insert(id);
            }
        }
        let typing = self.typing;
        for (name, declared) in &typing.local_exceptions {
            let (carried, message) = self.carried(declared.as_ref(), name.span)?;
            // The stamp of the instance, then the argument (docs/ocaml.md, "Exceptions").
            let carried = core::Type::pair(core::Type::Int, carried.unwrap_or(core::Type::Unit));
            let id = self.declare_exception(name.text.clone(), Some(carried));
            if message {
                self.messages.insert(id);
            }
            self.local_exceptions.insert(name.span, id);
        }
        self.datatypes.borrow_mut().set_exceptions(&self.exceptions);
        Ok(())
    }

    /// The core argument of an exception whose OCaml argument has type `declared`, and
    /// whether it is a message (a `string`, which has no core value).
    fn carried(&self, declared: Option<&Ty>, span: Span) -> R<(Option<core::Type>, bool)> {
        match declared.map(|t| self.ground(t)) {
            None => Ok((None, false)),
            Some(Ty::Str) => Ok((None, true)),
            Some(t) => Ok((Some(core_type(&self.type_cx(), &t, span)?), false)),
        }
    }

    fn declare_exception(&mut self, name: Rc<str>, arg: Option<core::Type>) -> core::ExnId {
        let id = core::ExnId(self.exceptions.len() as u32);
        self.exceptions.push(core::ExnDecl { name, arg });
        id
    }

    pub(super) fn exception_id(&self, name: &Name) -> R<core::ExnId> {
        self.exception_ids
            .get(&name.text)
            .copied()
            .ok_or_else(|| internal(name.span, "an undeclared exception"))
    }

    /// `raise E` of a predefined exception without an argument in the core.
    pub(super) fn raise_named(&mut self, span: Span, name: &str) -> core::Expr {
        let exn = self.exception_ids[name];
        self.mk(span, core::ExprKind::Raise { exn, arg: None })
    }

    /// `raise E` / `raise (E e)` / `raise (Failure "...")`, or `raise e` of an exception
    /// value ([`Translator::raise_value`]).
    pub(super) fn raise(&mut self, span: Span, exn: &Expr) -> R<core::Expr> {
        let ExprKind::Construct(name, arg) = &exn.kind else {
            let v = self.temp("exn");
            let ty = self.expr_type(exn)?;
            let value = self.expr(exn)?;
            let raised = self.raise_value(&v, span);
            let binder = self.binder(v, exn.span, ty);
            return Ok(self.let_in(binder, value, raised, span));
        };
        let id = self.exception_id(name)?;
        let arg = self
            .exception_arg(id, arg.as_deref(), name.span)?
            .map(Box::new);
        Ok(self.mk(span, core::ExprKind::Raise { exn: id, arg }))
    }

    /// The core argument of exception `id` built from `arg` (`E arg`): its value, after the
    /// stamp of the instance in scope for a local exception; none for a message (a string
    /// literal or a variable: a string has no core value and no effect).
    pub(super) fn exception_arg(
        &mut self,
        id: core::ExnId,
        arg: Option<&Expr>,
        span: Span,
    ) -> R<Option<core::Expr>> {
        let value = match arg {
            Some(arg) if self.messages.contains(&id) => match &arg.kind {
                ExprKind::Str(_) | ExprKind::Var(_) => None,
                _ => {
                    return Err(unsupported(
                        arg.span,
                        "an exception message other than a string literal or a variable",
                    ));
                }
            },
            Some(arg) => Some(self.expr(arg)?),
            None => None,
        };
        if !self.local_exceptions.values().any(|x| *x == id) {
            return Ok(value);
        }
        let Some(stamp) = self.stamps.get(&id).cloned() else {
            return Err(internal(span, "a local exception outside its scope"));
        };
        let stamp = self.var(&stamp, span);
        let value = match value {
            Some(v) => v,
            None => self.mk(span, core::ExprKind::Skip),
        };
        Ok(Some(self.mk(
            span,
            core::ExprKind::Pair(Box::new(stamp), Box::new(value)),
        )))
    }

    /// `try body with cases`. An exception some case of which has a `when` guard or tests
    /// its argument (`E 0 ->`) gets one handler, at its first case, that tries in order
    /// every case that may match it ([`Translator::selective_handler`]).
    pub(super) fn try_with(&mut self, span: Span, body: &Expr, cases: &[Case]) -> R<core::Expr> {
        if self.needs_value(cases, false) {
            let ty = self.expr_type(body)?;
            let body = self.expr(body)?;
            return self.by_value(span, body, ty, None, cases);
        }
        let body = Box::new(self.expr(body)?);
        let selective = selective_exceptions(cases);
        let mut handlers = Vec::new();
        let mut merged: Vec<Rc<str>> = Vec::new();
        for (i, case) in cases.iter().enumerate() {
            let names = case_exceptions(&case.pattern);
            let chosen: Vec<&Rc<str>> = names.iter().filter(|n| selective.contains(n)).collect();
            for name in chosen {
                if !merged.contains(name) {
                    merged.push(name.clone());
                    let handler = self.selective_handler(name, &cases[i..], span)?;
                    handlers.push(handler);
                }
            }
            if names.iter().all(|n| selective.contains(n)) && !names.is_empty() {
                continue;
            }
            if let Some(guard) = &case.guard {
                return Err(unsupported(
                    guard.span,
                    "`when` guards in `try ... with` on a case that is not an exception constructor (`_ when ..`)",
                ));
            }
            let plain = drop_exceptions(&case.pattern, &selective);
            self.handlers(&plain, &case.body, &mut handlers)?;
        }
        Ok(self.mk(span, core::ExprKind::Try { body, handlers }))
    }

    /// The handler of exception `name` whose cases test its argument or have guards: it
    /// binds the argument and tries, in order, every case of `cases` that may match the
    /// exception (`E p when g -> h`, `_ -> h`) as a `match` on the argument; when none
    /// does, it raises the exception again, with its argument, so it propagates out of
    /// the `try` as OCaml's unmatched exception does (from the `try`'s position).
    fn selective_handler(
        &mut self,
        name: &Rc<str>,
        cases: &[Case],
        span: Span,
    ) -> R<core::Handler> {
        let id = self
            .exception_ids
            .get(name)
            .copied()
            .ok_or_else(|| internal(span, "an undeclared exception in a selective handler"))?;
        let carried = self.exceptions[id.index()].arg.clone();
        let arg_name = self.temp("exn");
        let mut arm_cases = Vec::new();
        for case in cases {
            for pattern in arg_patterns(&case.pattern, name) {
                let pattern = self.message_pattern(id, pattern)?;
                if carried.is_none() && !matches!(pattern.kind, PatternKind::Wild) {
                    return Err(internal(pattern.span, "a pattern on a missing argument"));
                }
                arm_cases.push(Case {
                    pattern,
                    guard: case.guard.clone(),
                    body: case.body.clone(),
                });
            }
        }
        let again = carried
            .as_ref()
            .map(|_| Box::new(self.var(&arg_name, span)));
        let mut result = self.mk(
            span,
            core::ExprKind::Raise {
                exn: id,
                arg: again,
            },
        );
        for case in arm_cases.iter().rev() {
            result = self.case(&arg_name, case, result, false)?;
        }
        let arg = carried.map(|ty| self.binder(arg_name.clone(), span, ty));
        Ok(core::Handler {
            exn: Some(id),
            arg,
            body: result,
            span,
        })
    }

    /// A pattern on the message of `id` (`s` in `Failure s`) is `_`, its variable marked as
    /// a message ([`super::Entry::Message`]); any other pattern is kept.
    fn message_pattern(&mut self, id: core::ExnId, p: Pattern) -> R<Pattern> {
        if !self.messages.contains(&id) {
            return Ok(p);
        }
        match &p.kind {
            PatternKind::Var(var, _) => {
                self.entries.insert(*var, super::Entry::Message);
            }
            PatternKind::Wild => {}
            PatternKind::Annot(inner, _) => return self.message_pattern(id, (**inner).clone()),
            _ => {
                return Err(unsupported(
                    p.span,
                    "a pattern testing an exception's message (bind it to a variable or write `_`)",
                ));
            }
        }
        Ok(Pattern {
            span: p.span,
            kind: PatternKind::Wild,
        })
    }

    /// `match x with cases | exception p -> h`: the scrutinee is evaluated under a `try`
    /// whose value is a tagged pair, `(1, (x, _))` or, from a handler, `(0, (_, h))` (`_` a
    /// placeholder never read, as start-up values have); then the tag chooses between
    /// matching `x` against the value cases, outside the `try` (so their exceptions are not
    /// caught), and the handler's value. No call is added: the depth is as in OCaml.
    pub(super) fn match_with_exceptions(
        &mut self,
        e: &Expr,
        scrutinee: &Expr,
        cases: &[Case],
        exceptions: &[Case],
    ) -> R<core::Expr> {
        let span = e.span;
        let value_ty = self.expr_type(scrutinee)?;
        let result_ty = self.expr_type(e)?;
        let value = self.expr(scrutinee)?;
        if self.needs_value(exceptions, true) {
            return self.by_value(span, value, value_ty, Some(cases), exceptions);
        }
        let unset = self.placeholder("match#exn", &result_ty, span)?;
        let tagged = self.tagged(1, value, unset, span);
        let mut handlers = Vec::new();
        for case in exceptions {
            self.handlers(&case.pattern, &case.body, &mut handlers)?;
        }
        let handlers = handlers
            .into_iter()
            .map(|mut handler| {
                let unset = self.placeholder("match#exn", &value_ty, span)?;
                handler.body = self.tagged(0, unset, handler.body, span);
                Ok(handler)
            })
            .collect::<R<Vec<_>>>()?;
        let r = self.temp("r");
        let m = self.temp("m");
        let matched = self.match_on(&m, cases, span)?;
        let value = self.component(&r, true, span);
        let binder = self.binder(m, scrutinee.span, value_ty.clone());
        let on_value = self.let_in(binder, value, matched, span);
        let on_exception = self.component(&r, false, span);
        let branches = (on_value, on_exception);
        let tried = (tagged, handlers);
        Ok(self.choose_tagged(r, tried, (value_ty, result_ty), branches, span))
    }

    /// `let r : Int * (a * b) = try tagged with handlers in if fst r = 1 then on_value else
    /// on_exception`.
    pub(super) fn choose_tagged(
        &mut self,
        r: Rc<str>,
        (tagged, handlers): (core::Expr, Vec<core::Handler>),
        (a, b): (core::Type, core::Type),
        (on_value, on_exception): (core::Expr, core::Expr),
        span: Span,
    ) -> core::Expr {
        let tag = self.var(&r, span);
        let tag = self.proj(core::Proj::Fst, tag, span);
        let one = self.int(1, span);
        let is_value = self.binary(core::BinOp::Eq, tag, one, span);
        let chosen = self.if_then_else(is_value, on_value, on_exception, span);
        let pair_ty = core::Type::pair(core::Type::Int, core::Type::pair(a, b));
        let binder = self.binder(r, span, pair_ty);
        let body = Box::new(tagged);
        let tried = self.mk(span, core::ExprKind::Try { body, handlers });
        self.let_in(binder, tried, chosen, span)
    }

    /// `(tag, (a, b))`.
    pub(super) fn tagged(
        &mut self,
        tag: i64,
        a: core::Expr,
        b: core::Expr,
        span: Span,
    ) -> core::Expr {
        let tag = self.int(tag, span);
        let inner = self.mk(span, core::ExprKind::Pair(Box::new(a), Box::new(b)));
        self.mk(span, core::ExprKind::Pair(Box::new(tag), Box::new(inner)))
    }

    pub(super) fn proj(&mut self, which: core::Proj, pair: core::Expr, span: Span) -> core::Expr {
        let kind = core::ExprKind::Proj {
            which,
            annot: None,
            pair: Box::new(pair),
        };
        self.mk(span, kind)
    }

    /// The handlers of one case (several for an or-pattern: one per alternative).
    fn handlers(&mut self, p: &Pattern, body: &Expr, out: &mut Vec<core::Handler>) -> R<()> {
        let span = p.span;
        let (exn, arg) = match &p.kind {
            PatternKind::Wild => (None, None),
            PatternKind::Annot(inner, _) => return self.handlers(inner, body, out),
            PatternKind::Or(a, b) => {
                self.handlers(a, body, out)?;
                return self.handlers(b, body, out);
            }
            PatternKind::Construct(name, arg) => {
                let id = self.exception_id(name)?;
                let arg = self.handler_arg(id, arg.as_deref())?;
                (Some(id), arg)
            }
            PatternKind::Var(..) | PatternKind::Alias(..) => {
                return Err(unsupported(
                    span,
                    "binding the exception itself to a variable in `try ... with` (write `_`, or name the exception)",
                ));
            }
            _ => return Err(internal(span, "a non-exception pattern in `try ... with`")),
        };
        let body = self.expr(body)?;
        out.push(core::Handler {
            exn,
            arg,
            body,
            span,
        });
        Ok(())
    }

    /// The binder of `E x` (none for `E _` and for an exception without a core argument).
    fn handler_arg(&mut self, exn: core::ExnId, arg: Option<&Pattern>) -> R<Option<core::Binder>> {
        let Some(arg) = arg else {
            return Ok(None);
        };
        let carried = self.exceptions[exn.index()].arg.clone();
        match &arg.kind {
            PatternKind::Wild => Ok(None),
            PatternKind::Annot(inner, _) => self.handler_arg(exn, Some(inner)),
            PatternKind::Var(id, name) if carried.is_some() => {
                self.entries
                    .insert(*id, super::Entry::Local(name.text.clone()));
                let ty = carried.unwrap_or(core::Type::Int);
                Ok(Some(self.binder(name.text.clone(), name.span, ty)))
            }
            PatternKind::Var(id, _) if self.messages.contains(&exn) => {
                self.entries.insert(*id, super::Entry::Message);
                Ok(None)
            }
            PatternKind::Var(..) => Err(internal(arg.span, "a variable for a missing argument")),
            _ => Err(unsupported(
                arg.span,
                "a pattern testing an exception's argument (bind it to a variable and test it with `if`)",
            )),
        }
    }
}

/// The exceptions some case of which has a `when` guard or a pattern testing the
/// argument (`E 0`, `E (Some _)`): they get a selective handler.
fn selective_exceptions(cases: &[Case]) -> Vec<Rc<str>> {
    let mut out: Vec<Rc<str>> = Vec::new();
    for case in cases {
        for (name, arg) in case_alternatives(&case.pattern) {
            let tests = arg.is_some_and(|a| !irrefutable_arg(a));
            if (case.guard.is_some() || tests) && !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// `x`, `_` or an annotation of those: an argument pattern that tests nothing.
fn irrefutable_arg(p: &Pattern) -> bool {
    match &p.kind {
        PatternKind::Wild | PatternKind::Var(..) => true,
        PatternKind::Annot(inner, _) => irrefutable_arg(inner),
        _ => false,
    }
}

/// The exception constructors of a handler pattern with their argument patterns (one per
/// alternative of an or-pattern).
fn case_alternatives(p: &Pattern) -> Vec<(Rc<str>, Option<&Pattern>)> {
    match &p.kind {
        PatternKind::Construct(name, arg) => vec![(name.text.clone(), arg.as_deref())],
        PatternKind::Or(a, b) => {
            let mut out = case_alternatives(a);
            out.extend(case_alternatives(b));
            out
        }
        PatternKind::Annot(inner, _) => case_alternatives(inner),
        _ => Vec::new(),
    }
}

fn case_exceptions(p: &Pattern) -> Vec<Rc<str>> {
    case_alternatives(p).into_iter().map(|(n, _)| n).collect()
}

/// The argument patterns with which `p` may match exception `name`: one per alternative
/// naming it (`_` for `E` without an argument), and `_` for a wildcard `p`.
fn arg_patterns(p: &Pattern, name: &Rc<str>) -> Vec<Pattern> {
    let wild = |span| Pattern {
        span,
        kind: PatternKind::Wild,
    };
    match &p.kind {
        PatternKind::Wild => vec![wild(p.span)],
        PatternKind::Construct(n, arg) if n.text == *name => {
            vec![arg.as_deref().cloned().unwrap_or_else(|| wild(p.span))]
        }
        PatternKind::Or(a, b) => {
            let mut out = arg_patterns(a, name);
            out.extend(arg_patterns(b, name));
            out
        }
        PatternKind::Annot(inner, _) => arg_patterns(inner, name),
        _ => Vec::new(),
    }
}

/// `p` without its alternatives for the exceptions in `selective` (which have their own
/// handler); `p` itself when it names none of them.
fn drop_exceptions(p: &Pattern, selective: &[Rc<str>]) -> Pattern {
    match &p.kind {
        PatternKind::Or(a, b) => {
            let keep_a = !case_exceptions(a).iter().all(|n| selective.contains(n))
                || case_exceptions(a).is_empty();
            let keep_b = !case_exceptions(b).iter().all(|n| selective.contains(n))
                || case_exceptions(b).is_empty();
            match (keep_a, keep_b) {
                (true, true) => Pattern {
                    span: p.span,
                    kind: PatternKind::Or(
                        Box::new(drop_exceptions(a, selective)),
                        Box::new(drop_exceptions(b, selective)),
                    ),
                },
                (true, false) => drop_exceptions(a, selective),
                _ => drop_exceptions(b, selective),
            }
        }
        _ => p.clone(),
    }
}
