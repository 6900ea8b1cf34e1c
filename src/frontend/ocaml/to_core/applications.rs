//! Applications and the prelude in the core: saturating calls, over-application,
//! partial applications as wrapper closures, and the prelude's functions (`fst`, `min`,
//! `incr`, comparisons, ...) as primitives when applied directly or as functions when
//! passed (docs/ocaml.md, "Depth", "The translation into the core").
//!
//! Guarantees: one saturating application is one core call; a partial application costs
//! no depth; a prelude function applied directly costs none either.

use super::*;
use crate::core_lang::ast as core;

impl Translator<'_> {
    pub(super) fn application(&mut self, e: &Expr, f: &Expr, args: &[Expr]) -> R<core::Expr> {
        if let (ExprKind::Var(_), Some(Resolved::Prelude(name))) =
            (&f.kind, self.typing.resolutions.get(&f.id))
        {
            return self.prelude_application(e, f, name, args);
        }
        let func = self.expr(f)?;
        let t = self.ground(&self.typing.expr_types[f.id.0 as usize]);
        self.apply(e, func, t, args)
    }

    /// Applies `func` (of ground type `t`) to `args`: one core call per saturated function,
    /// the result applied to the arguments left over.
    pub(super) fn apply(
        &mut self,
        e: &Expr,
        mut func: core::Expr,
        mut t: Ty,
        mut args: &[Expr],
    ) -> R<core::Expr> {
        while !args.is_empty() {
            let Ty::Fun(params, result) = t else {
                return Err(internal(e.span, "applying a non-function"));
            };
            if params.len() > args.len() {
                return self.partial(e, func, &params, *result, args);
            }
            let mut core_args = Vec::new();
            for a in &args[..params.len()] {
                core_args.push(self.expr(a)?);
            }
            // The call's position is in the application `e`, from its function to its
            // last argument, even when a translated part carries the position of a
            // top-level value's definition (a use of `let cells = [a; b]` is translated
            // again at each use, with the definition's spans).
            let start = match func.span.start >= e.span.start && func.span.end <= e.span.end {
                true => func.span.start,
                false => e.span.start,
            };
            let end = args[..params.len()]
                .last()
                .map_or(func.span.end, |a| a.span.end)
                .max(start);
            let span = Span { start, end };
            let kind = core::ExprKind::App {
                func: Box::new(func),
                args: core_args,
            };
            func = self.mk(span, kind);
            args = &args[params.len()..];
            t = *result;
        }
        Ok(func)
    }

    /// `func a1 .. ak` with fewer arguments than `func`'s parameters: a wrapper closure
    /// whose body is the one call that saturates `func` (`func` is evaluated first).
    pub(super) fn partial(
        &mut self,
        e: &Expr,
        func: core::Expr,
        params: &[Ty],
        result: Ty,
        args: &[Expr],
    ) -> R<core::Expr> {
        let span = e.span;
        if let core::ExprKind::Var(_) = func.kind {
            return self.wrap_partial(span, args, &params[args.len()..], result, |t, all| {
                Ok(t.call(span, func, all))
            });
        }
        let name = self.temp("f");
        let ty = core_type(
            &self.type_cx(),
            &Ty::Fun(params.to_vec(), Box::new(result.clone())),
            span,
        )?;
        let f = self.var(&name, span);
        let value = self.wrap_partial(span, args, &params[args.len()..], result, |t, all| {
            Ok(t.call(span, f, all))
        })?;
        let b = self.binder(name, span, ty);
        Ok(self.let_in(b, func, value, span))
    }

    pub(super) fn call(
        &mut self,
        span: Span,
        func: core::Expr,
        args: Vec<core::Expr>,
    ) -> core::Expr {
        let kind = core::ExprKind::App {
            func: Box::new(func),
            args,
        };
        self.mk(span, kind)
    }

    /// The value of a partial application of something to `args` that takes `left` more
    /// parameters: the arguments are evaluated now (`let $a1 = a1 in ..`), and the value is
    /// a wrapper closure ([`core::Lambda::wrapper`]) `fun ($y1, ..) -> body($a1, .., $y1, ..)`
    /// (applying it costs no depth; only the call in `body` does, if any).
    pub(super) fn wrap_partial(
        &mut self,
        span: Span,
        args: &[Expr],
        left: &[Ty],
        result: Ty,
        body: impl FnOnce(&mut Self, Vec<core::Expr>) -> R<core::Expr>,
    ) -> R<core::Expr> {
        let mut bound = Vec::new();
        let mut all = Vec::new();
        for a in args {
            let ty = self.expr_type(a)?;
            let value = self.expr(a)?;
            let tmp = self.temp("a");
            all.push(self.var(&tmp, span));
            bound.push((tmp, ty, value));
        }
        let mut wrapper_params = Vec::new();
        for p in left {
            let tmp = self.temp("y");
            all.push(self.var(&tmp, span));
            wrapper_params.push(self.binder(tmp, span, core_type(&self.type_cx(), p, span)?));
        }
        let body = body(self, all)?;
        let ret = core_type(&self.type_cx(), &result, span)?;
        let lambda = self.new_lambda(wrapper_params, ret, body, span, true);
        let mut value = self.mk(span, core::ExprKind::Fun(lambda));
        for (tmp, ty, arg) in bound.into_iter().rev() {
            let b = self.binder(tmp, span, ty);
            value = self.let_in(b, arg, value, span);
        }
        Ok(value)
    }

    pub(super) fn prelude_application(
        &mut self,
        e: &Expr,
        f: &Expr,
        name: &'static str,
        args: &[Expr],
    ) -> R<core::Expr> {
        let Ty::Fun(params, result) = self.ground(&self.typing.expr_types[f.id.0 as usize]) else {
            return Err(internal(
                f.span,
                "a prelude function without a function type",
            ));
        };
        if let (Some(op), Some(first)) = (comparison_symbol(name), params.first()) {
            comparable(op, first, f.span)?;
        }
        let n = params.len();
        if args.len() < n {
            return self.prelude_partial(e, name, &params, *result, args);
        }
        let span = f.span.to(args[n - 1].span);
        let prim = match self.special_prelude(span, name, &args[..n])? {
            Some(prim) => prim,
            None => {
                let mut core_args = Vec::new();
                for a in &args[..n] {
                    core_args.push(self.expr(a)?);
                }
                self.primitive(span, name, core_args)?
            }
        };
        self.apply(e, prim, *result, &args[n..])
    }

    /// `incr r` / `decr r`: `r := !r ± 1`, evaluating `r` once.
    pub(super) fn incr_decr(&mut self, span: Span, up: bool, r: &Expr) -> R<core::Expr> {
        let op = if up {
            core::BinOp::Add
        } else {
            core::BinOp::Sub
        };
        if let Some(reference) = self.top_reference(r) {
            let read = self.mk(span, core::ExprKind::Deref(reference.clone()));
            let one = self.int(1, span);
            let value = Box::new(self.binary(op, read, one, span));
            return Ok(self.mk(span, core::ExprKind::Assign { reference, value }));
        }
        let cell = self.expr(r)?;
        let name = self.temp("cell");
        let ty = core::Type::reference(core::Type::Int);
        let binder = self.binder(name.clone(), span, ty);
        let target = Box::new(self.var(&name, span));
        let address = Box::new(self.var(&name, span));
        let read = self.mk(span, core::ExprKind::Load(address));
        let one = self.int(1, span);
        let value = Box::new(self.binary(op, read, one, span));
        let store = self.mk(span, core::ExprKind::Store { target, value });
        Ok(self.let_in(binder, cell, store, span))
    }

    /// The prelude functions that look at their argument's syntax (strings, exceptions,
    /// references) or are not in the core yet; `None` for the ordinary ones.
    pub(super) fn special_prelude(
        &mut self,
        span: Span,
        name: &str,
        args: &[Expr],
    ) -> R<Option<core::Expr>> {
        Ok(Some(match name {
            "print_string" | "print_endline" => self.mk(span, core::ExprKind::Skip),
            "failwith" => self.raise_named(span, "Failure"),
            "invalid_arg" => self.raise_named(span, "Invalid_argument"),
            "raise" => self.raise(span, &args[0])?,
            "ref" => {
                let content = Box::new(self.expr(&args[0])?);
                self.mk(span, core::ExprKind::Alloc(content))
            }
            "incr" | "decr" => self.incr_decr(span, name == "incr", &args[0])?,
            "Random.int" | "Random.bool" | "read_int" => {
                return self.fresh_input(span, name, &args[0]);
            }
            _ => return self.array_primitive(span, name, args),
        }))
    }

    /// A pure prelude function or operator applied to core arguments.
    pub(super) fn primitive(
        &mut self,
        span: Span,
        name: &str,
        mut args: Vec<core::Expr>,
    ) -> R<core::Expr> {
        use core::BinOp as B;
        let op = match name {
            "( + )" => Some(B::Add),
            "( - )" => Some(B::Sub),
            "( * )" => Some(B::Mul),
            "( = )" | "( == )" => Some(B::Eq),
            "( <> )" | "( != )" => Some(B::Ne),
            "( < )" => Some(B::Lt),
            "( <= )" => Some(B::Le),
            "( > )" => Some(B::Gt),
            "( >= )" => Some(B::Ge),
            "( && )" | "( & )" => Some(B::And),
            "( || )" | "( or )" => Some(B::Or),
            _ => None,
        };
        if let Some(op) = op {
            let b = args
                .pop()
                .expect("internal error: a binary operator's argument");
            let a = args
                .pop()
                .expect("internal error: a binary operator's argument");
            return Ok(self.binary(op, a, b, span));
        }
        let a = args.remove(0);
        Ok(match name {
            "fst" | "snd" => {
                let which = if name == "fst" {
                    core::Proj::Fst
                } else {
                    core::Proj::Snd
                };
                self.mk(
                    span,
                    core::ExprKind::Proj {
                        which,
                        annot: None,
                        pair: Box::new(a),
                    },
                )
            }
            "Array.length" => self.mk(
                span,
                core::ExprKind::Proj {
                    which: core::Proj::Fst,
                    annot: None,
                    pair: Box::new(a),
                },
            ),
            "succ" | "pred" => {
                let one = self.int(1, span);
                self.binary(if name == "succ" { B::Add } else { B::Sub }, a, one, span)
            }
            "not" => {
                let zero = self.int(0, span);
                self.binary(B::Eq, a, zero, span)
            }
            "ignore" | "print_int" | "print_newline" => {
                let skip = self.mk(span, core::ExprKind::Skip);
                self.seq(a, skip, span)
            }
            "abs" => self.with_temp(a, span, |t, x| {
                let zero = t.int(0, span);
                let vx = t.var(&x, span);
                let test = t.binary(B::Lt, vx, zero, span);
                let neg = t.var(&x, span);
                let neg = t.mk(span, core::ExprKind::Neg(Box::new(neg)));
                let pos = t.var(&x, span);
                t.if_then_else(test, neg, pos, span)
            }),
            "min" | "max" => {
                let b = args.remove(0);
                let op = if name == "min" { B::Le } else { B::Ge };
                self.with_temp(a, span, |t, x| {
                    t.with_temp(b, span, |t, y| {
                        let (ax, ay) = (t.var(&x, span), t.var(&y, span));
                        let test = t.binary(op, ax, ay, span);
                        let (vx, vy) = (t.var(&x, span), t.var(&y, span));
                        t.if_then_else(test, vx, vy, span)
                    })
                })
            }
            // `compare` on `int`: -1, 0 or 1, as the Stdlib's.
            "compare" => {
                let b = args.remove(0);
                self.with_temp(a, span, |t, x| {
                    t.with_temp(b, span, |t, y| {
                        let (lx, ly) = (t.var(&x, span), t.var(&y, span));
                        let less = t.binary(B::Lt, lx, ly, span);
                        let (gx, gy) = (t.var(&x, span), t.var(&y, span));
                        let greater = t.binary(B::Gt, gx, gy, span);
                        let (minus_one, one, zero) =
                            (t.int(-1, span), t.int(1, span), t.int(0, span));
                        let rest = t.if_then_else(greater, one, zero, span);
                        t.if_then_else(less, minus_one, rest, span)
                    })
                })
            }
            "division" | "( / )" | "( mod )" => {
                return Err(unsupported(
                    span,
                    "integer division and `mod` (not yet in the core)",
                ));
            }
            _ => {
                return Err(unsupported(
                    span,
                    &format!("the prelude function `{name}` here"),
                ));
            }
        })
    }

    /// `let %t = value in body(%t)` for an integer `value`.
    pub(super) fn with_temp(
        &mut self,
        value: core::Expr,
        span: Span,
        body: impl FnOnce(&mut Self, Rc<str>) -> core::Expr,
    ) -> core::Expr {
        let name = self.temp("t");
        let inner = body(self, name.clone());
        let binder = self.binder(name, span, core::Type::Int);
        self.let_in(binder, value, inner, span)
    }

    /// A prelude function used as a value: `fun a1 .. an -> prim a1 .. an`.
    /// A prelude function given fewer arguments than it takes (`max 0`): a wrapper closure
    /// whose body is the primitive, so applying it costs nothing, as applying the prelude
    /// function directly does.
    pub(super) fn prelude_partial(
        &mut self,
        e: &Expr,
        name: &'static str,
        params: &[Ty],
        result: Ty,
        args: &[Expr],
    ) -> R<core::Expr> {
        let span = e.span;
        if matches!(
            name,
            "Array.make" | "Array.get" | "Array.set" | ARRAY_LITERAL
        ) {
            return Err(unsupported(
                span,
                &format!("`{name}` applied partially (apply it to all its arguments)"),
            ));
        }
        self.wrap_partial(span, args, &params[args.len()..], result, |t, all| {
            t.primitive(span, name, all)
        })
    }

    pub(super) fn prelude_value(&mut self, e: &Expr, name: &'static str) -> R<core::Expr> {
        let span = e.span;
        if let Some(bound) = int_constant(name) {
            return Ok(self.mk(span, core::ExprKind::Int(bound)));
        }
        let Ty::Fun(params, result) = self.ground(&self.typing.expr_types[e.id.0 as usize]) else {
            return Err(internal(span, "a prelude function without a function type"));
        };
        if matches!(
            name,
            "print_string"
                | "print_endline"
                | "failwith"
                | "invalid_arg"
                | "raise"
                | "ref"
                | "incr"
                | "decr"
                | "Random.int"
                | "Random.bool"
                | "read_int"
                | "Array.make"
                | "Array.get"
                | "Array.set"
                | ARRAY_LITERAL
        ) {
            return Err(unsupported(
                span,
                &format!("`{name}` used as a value (apply it directly)"),
            ));
        }
        if let (Some(op), Some(first)) = (comparison_symbol(name), params.first()) {
            comparable(op, first, span)?;
        }
        let mut binders = Vec::new();
        let mut args = Vec::new();
        for p in &params {
            let name = self.temp("a");
            binders.push(self.binder(name.clone(), span, core_type(&self.type_cx(), p, span)?));
            args.push(self.var(&name, span));
        }
        let body = self.primitive(span, name, args)?;
        let ret = core_type(&self.type_cx(), &result, span)?;
        let lambda = self.lambda(binders, ret, body, span);
        Ok(self.mk(span, core::ExprKind::Fun(lambda)))
    }
}

/// Refuses a comparison `op` (as OCaml spells it) on operands of type `ty` that the core
/// cannot compare: ordering and `=` are on `int` and `bool`, physical equality (`==`,
/// `!=`) also on references (the same cell). `=` on references is translated before
/// this check ([`Translator::structural_ref_equality`]).
pub(super) fn comparable(op: &str, ty: &Ty, span: Span) -> R<()> {
    match (op, ty) {
        (_, Ty::Int | Ty::Bool) | ("==" | "!=", Ty::Ref(_)) => Ok(()),
        ("==" | "!=", other) => Err(unsupported(
            span,
            &format!(
                "physical equality `{op}` on values of type `{other}` (it is supported on `int`, `bool` and references)"
            ),
        )),
        (_, other) => Err(unsupported(
            span,
            &format!("comparing values of type `{other}` (comparisons are on `int` and `bool`)"),
        )),
    }
}

/// The comparison an operator value names (`( = )` is `=`), if it is one.
pub(super) fn comparison_symbol(name: &str) -> Option<&str> {
    match name {
        "( = )" | "( <> )" | "( == )" | "( != )" | "( < )" | "( <= )" | "( > )" | "( >= )" => {
            Some(name.trim_start_matches("( ").trim_end_matches(" )"))
        }
        _ => None,
    }
}

/// The prelude's integer constants: OCaml's `max_int` and `min_int`.
fn int_constant(name: &str) -> Option<BigInt> {
    let (min, max) = core::ocaml_int_range();
    match name {
        "max_int" => Some(max),
        "min_int" => Some(min),
        _ => None,
    }
}
