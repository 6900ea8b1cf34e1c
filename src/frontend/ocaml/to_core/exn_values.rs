//! Exceptions as values (docs/ocaml.md, "Exceptions"): OCaml's `exn` is a core datatype
//! with one constructor per exception of the program ([`super::variants::exn_datatype`]),
//! its one field the exception's core argument. An exception constructor outside `raise`
//! builds such a value; `raise e` of a value raises the exception it was built by, with
//! its argument; a `try` (or a `match`'s `exception` cases) that needs the exception as a
//! value catches every exception as one and matches it after the `try`; a local exception
//! is a new exception at each evaluation, by a stamp.
//!
//! Guarantees: the encodings are exact. A `try` by value runs its body under handlers that
//! only turn the exception into its value (`(0, (_, E a))`, the body's value being
//! `(1, (v, _))`, `_` a placeholder never read), then matches that value against the cases
//! in order outside the `try` — an exception a case raises is not caught by the same `try`,
//! as in OCaml — and raises it again when no case matches. `let exception E in e` reads and
//! increments the global counter `exn#stamp`; `E`'s argument is `(stamp, arg)`, so a
//! handler or pattern for `E` matches exactly the exceptions raised by the same evaluation
//! of the declaration (OCaml's generative local exceptions). No call is added: the depth is
//! as in OCaml.

use super::paths::{Step, extend};
use super::*;
use crate::core_lang::ast as core;

/// The `Store` reference counting the evaluations of local exception declarations.
const STAMP_COUNTER: &str = "exn#stamp";

impl Translator<'_> {
    /// Whether `cases` (a `try`'s, or with `guards_too` a `match`'s `exception` cases,
    /// which have no selective handlers) need the exception as a value: a case binding it
    /// (`e ->`, `(E _ as e) ->`), a guard on a case that matches every exception (`_ when
    /// ..`), any guard when `guards_too`, or a local exception.
    pub(super) fn needs_value(&self, cases: &[Case], guards_too: bool) -> bool {
        cases.iter().any(|case| {
            let guarded = case.guard.is_some();
            exn_alternatives(&case.pattern)
                .iter()
                .any(|p| match &p.kind {
                    PatternKind::Wild => guarded,
                    PatternKind::Construct(name, _) => {
                        self.is_local(&name.text) || (guards_too && guarded)
                    }
                    _ => true,
                })
        })
    }

    /// Whether `name` is a local exception (in scope).
    fn is_local(&self, name: &str) -> bool {
        self.exception_ids
            .get(name)
            .is_some_and(|id| self.local_exceptions.values().any(|x| x == id))
    }

    /// The datatype of exception values, with its name.
    fn exn_datatype(&self, span: Span) -> R<(core::Type, Rc<str>)> {
        match self.core_type(&Ty::Exn, span)? {
            core::Type::Data(name) => Ok((core::Type::Data(name.clone()), name)),
            _ => Err(internal(span, "the exception datatype")),
        }
    }

    /// `E` or `E e` outside `raise`: an exception value.
    pub(super) fn exception_value(
        &mut self,
        span: Span,
        name: &Name,
        arg: Option<&Expr>,
    ) -> R<core::Expr> {
        let id = self.exception_id(name)?;
        let (_, data) = self.exn_datatype(span)?;
        let args = self.exception_arg(id, arg, name.span)?;
        let kind = core::ExprKind::Construct {
            data,
            ctor: id.0,
            args: args.into_iter().collect(),
        };
        Ok(self.mk(span, kind))
    }

    /// `raise v` of the exception value in the core variable `v`: a test per exception
    /// (the last one untested), raising the one `v` was built by with its argument.
    pub(super) fn raise_value(&mut self, v: &Rc<str>, span: Span) -> core::Expr {
        let decls = self.exceptions.clone();
        let mut result: Option<core::Expr> = None;
        for (k, decl) in decls.iter().enumerate().rev() {
            let arg = decl.arg.as_ref().map(|_| {
                let value = Box::new(self.var(v, span));
                let kind = core::ExprKind::Field {
                    ctor: k as u32,
                    field: 0,
                    value,
                };
                Box::new(self.mk(span, kind))
            });
            let exn = core::ExnId(k as u32);
            let raise = self.mk(span, core::ExprKind::Raise { exn, arg });
            result = Some(match result {
                None => raise,
                Some(otherwise) => {
                    let value = Box::new(self.var(v, span));
                    let is = self.mk(span, core::ExprKind::IsCtor { ctor: exn.0, value });
                    self.if_then_else(is, raise, otherwise, span)
                }
            });
        }
        result.unwrap_or_else(|| self.mk(span, core::ExprKind::Fail))
    }

    /// `let exception E in body`: `let $stamp = !exn#stamp in exn#stamp := $stamp + 1;
    /// body`, with `E` this local exception and `$stamp` its instance in `body`.
    pub(super) fn let_exception(&mut self, span: Span, name: &Name, body: &Expr) -> R<core::Expr> {
        let id = self
            .local_exceptions
            .get(&name.span)
            .copied()
            .ok_or_else(|| internal(name.span, "an undeclared local exception"))?;
        let counter = self.stamp_counter(span);
        let stamp = self.temp("stamp");
        let hidden = self.exception_ids.insert(name.text.clone(), id);
        let outer = self.stamps.insert(id, stamp.clone());
        let body = self.expr(body);
        match hidden {
            Some(h) => self.exception_ids.insert(name.text.clone(), h),
            None => self.exception_ids.remove(&name.text),
        };
        match outer {
            Some(s) => self.stamps.insert(id, s),
            None => self.stamps.remove(&id),
        };
        let body = body?;
        let current = self.var(&stamp, span);
        let one = self.int(1, span);
        let next = Box::new(self.binary(core::BinOp::Add, current, one, span));
        let reference = core::Ident {
            name: counter.clone(),
            span,
        };
        let bump = self.mk(
            span,
            core::ExprKind::Assign {
                reference,
                value: next,
            },
        );
        let body = self.seq(bump, body, span);
        let read = self.mk(
            span,
            core::ExprKind::Deref(core::Ident {
                name: counter,
                span,
            }),
        );
        let binder = self.binder(stamp, name.span, core::Type::Int);
        Ok(self.let_in(binder, read, body, span))
    }

    /// The `Store` reference `exn#stamp` (declared at its first use, starting at 0).
    fn stamp_counter(&mut self, span: Span) -> Rc<str> {
        let name: Rc<str> = Rc::from(STAMP_COUNTER);
        if !self.store.iter().any(|d| d.name.name == name) {
            let zero = self.int(0, span);
            self.declare_store(&name, span, core::Type::Int, zero);
        }
        name
    }

    /// `body` under `cases` matched by value: `let r = try (1, (body, _)) with E a -> (0,
    /// (_, E a)) | .. (every exception) in if fst r = 1 then <value> else let v = snd (snd
    /// r) in match v with cases | _ -> raise v`, where `<value>` is `fst (snd r)` matched
    /// against `value_cases` when given (`match .. with exception`); `value_ty` is the
    /// body's type.
    pub(super) fn by_value(
        &mut self,
        span: Span,
        body: core::Expr,
        value_ty: core::Type,
        value_cases: Option<&[Case]>,
        cases: &[Case],
    ) -> R<core::Expr> {
        let (exn_ty, data) = self.exn_datatype(span)?;
        let unset = self.placeholder("try#exn", &exn_ty, span)?;
        let tagged = self.tagged(1, body, unset, span);
        let handlers = self.value_handlers(&data, &value_ty, span)?;
        let r = self.temp("r");
        let value = self.component(&r, true, span);
        let on_value = match value_cases {
            Some(value_cases) => {
                let m = self.temp("m");
                let matched = self.match_on(&m, value_cases, span)?;
                let binder = self.binder(m, span, value_ty.clone());
                self.let_in(binder, value, matched, span)
            }
            None => value,
        };
        let v = self.temp("exn");
        let exn_value = self.component(&r, false, span);
        let otherwise = self.raise_value(&v, span);
        let matched = self.cases_then(&v, cases, otherwise)?;
        let binder = self.binder(v, span, exn_ty.clone());
        let on_exception = self.let_in(binder, exn_value, matched, span);
        let branches = (on_value, on_exception);
        let tried = (tagged, handlers);
        Ok(self.choose_tagged(r, tried, (value_ty, exn_ty), branches, span))
    }

    /// One handler per exception of the program, `E a -> (0, (_, E a))`: the exception as
    /// a value of the datatype `data` (`_` a placeholder of `value_ty`, never read).
    fn value_handlers(
        &mut self,
        data: &Rc<str>,
        value_ty: &core::Type,
        span: Span,
    ) -> R<Vec<core::Handler>> {
        let mut handlers = Vec::new();
        for (k, decl) in self.exceptions.clone().iter().enumerate() {
            let a = self.temp("arg");
            let args = match decl.arg {
                Some(_) => vec![self.var(&a, span)],
                None => Vec::new(),
            };
            let kind = core::ExprKind::Construct {
                data: data.clone(),
                ctor: k as u32,
                args,
            };
            let value = self.mk(span, kind);
            let unset = self.placeholder("try#value", value_ty, span)?;
            let body = self.tagged(0, unset, value, span);
            let arg = decl.arg.clone().map(|ty| self.binder(a, span, ty));
            let exn = Some(core::ExnId(k as u32));
            handlers.push(core::Handler {
                exn,
                arg,
                body,
                span,
            });
        }
        Ok(handlers)
    }

    /// `fst (snd r)` (`first`) or `snd (snd r)`.
    pub(super) fn component(&mut self, r: &Rc<str>, first: bool, span: Span) -> core::Expr {
        let r = self.var(r, span);
        let rest = self.proj(core::Proj::Snd, r, span);
        let which = if first {
            core::Proj::Fst
        } else {
            core::Proj::Snd
        };
        self.proj(which, rest, span)
    }

    /// The condition under which the exception value at `path` of `name` matches `E arg`:
    /// built by `E`, of the instance in scope for a local `E`, its argument matching `arg`.
    pub(super) fn exception_test(
        &mut self,
        exn: &Name,
        arg: Option<&Pattern>,
        name: &Rc<str>,
        path: &[Step],
        span: Span,
    ) -> R<Option<core::Expr>> {
        let id = self.exception_id(exn)?;
        let value = Box::new(self.access(name, path, span));
        let is = self.mk(span, core::ExprKind::IsCtor { ctor: id.0, value });
        let mut tests = vec![Some(is)];
        let mut arg_path = extend(path, Step::Field(id.0));
        if self.local_exceptions.values().any(|x| *x == id) {
            let Some(stamp) = self.stamps.get(&id).cloned() else {
                return Err(internal(span, "a local exception outside its scope"));
            };
            let instance = self.access(name, &extend(&arg_path, Step::Fst), span);
            let current = self.var(&stamp, span);
            tests.push(Some(self.binary(core::BinOp::Eq, instance, current, span)));
            arg_path.push(Step::Snd);
        }
        match arg {
            Some(arg) if self.messages.contains(&id) && !super::matching::irrefutable(arg) => {
                return Err(unsupported(
                    arg.span,
                    "a pattern testing an exception's message (bind it to a variable or write `_`)",
                ));
            }
            Some(_) if self.messages.contains(&id) => {}
            Some(arg) => tests.push(self.test(arg, name, &arg_path)?),
            None => {}
        }
        Ok(self.conjoin(tests, span))
    }

    /// The steps from an exception value to the argument of the exception `exn` names
    /// (after the stamp, for a local one).
    pub(super) fn exn_steps(&self, exn: &Name) -> Vec<Step> {
        let Some(id) = self.exception_ids.get(&exn.text) else {
            return Vec::new();
        };
        let mut steps = vec![Step::Field(id.0)];
        if self.local_exceptions.values().any(|x| x == id) {
            steps.push(Step::Snd);
        }
        steps
    }
}

/// The alternatives of an exception pattern (its or-patterns split, annotations dropped).
fn exn_alternatives(p: &Pattern) -> Vec<&Pattern> {
    match &p.kind {
        PatternKind::Or(a, b) => {
            let mut out = exn_alternatives(a);
            out.extend(exn_alternatives(b));
            out
        }
        PatternKind::Annot(inner, _) => exn_alternatives(inner),
        _ => vec![p],
    }
}
