//! Variants in the core (docs/ocaml.md, "Variants"): a value of a variant type whose
//! constructors carry no argument is its constructor's index (an `Int`); otherwise it is
//! the pair `(tag, (slot1, (slot2, ..)))` of its constructor's index and one slot per
//! constructor that carries an argument, in definition order: the constructor's own slot
//! holds its argument, every other slot a placeholder of its type that is never read (as
//! the start-up values' placeholders). A `match` tests the tag and reads the slot; `=` and
//! `<>` compare tags, then the slot of the common constructor.
//!
//! Guarantees: the encoding is exact (no over- or under-approximation): a value is built
//! only by its constructor, a pattern `C p` matches exactly the values built by `C` whose
//! argument matches `p`, and a placeholder is never read by a test, a binding or an
//! equality; building a value costs no depth (a placeholder function is a method whose
//! body is `fail`, never called). A variant that contains itself (`type t = Leaf | Node
//! of t * t`) has no such finite layout and is refused by name at its use.

use super::matching::{Step, extend, tuple_path};
use super::*;
use crate::core_lang::ast as core;

/// The core type of a variant with the slot types `slots` (see the module doc).
pub(super) fn layout(slots: Vec<core::Type>) -> core::Type {
    match slots.is_empty() {
        true => core::Type::Int,
        false => core::Type::pair(core::Type::Int, nest_pair_types(slots)),
    }
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
    tuple_path(
        &extend(path, Step::Snd),
        variant.slot(c),
        variant.carrying(),
    )
}

impl Translator<'_> {
    /// `C` or `C e` of a variant type.
    pub(super) fn variant_value(
        &mut self,
        e: &Expr,
        (v, c): (usize, usize),
        arg: Option<&Expr>,
    ) -> R<core::Expr> {
        let span = e.span;
        let variant = self.typing.variants[v].clone();
        let tag = self.int(c as i64, span);
        if variant.carrying() == 0 {
            return Ok(tag);
        }
        let Ty::Data(_, _, args) = self.ground(&self.typing.expr_types[e.id.0 as usize]) else {
            return Err(internal(span, "a constructor without its variant type"));
        };
        let mut value = match arg {
            Some(arg) => Some(self.expr(arg)?),
            None => None,
        };
        let mut parts = Vec::new();
        for k in 0..variant.ctors.len() {
            let Some(arg_ty) = variant.arg_type(k, &args) else {
                continue;
            };
            let part = match (k == c, value.take()) {
                (true, Some(v)) => v,
                (true, None) => return Err(internal(span, "a constructor without its argument")),
                (false, v) => {
                    value = v;
                    let ty = self.core_type(&arg_ty, span)?;
                    self.placeholder("variant", &ty, span)?
                }
            };
            parts.push(part);
        }
        let payload = self.nest_pairs(parts, span);
        Ok(self.mk(span, core::ExprKind::Pair(Box::new(tag), Box::new(payload))))
    }

    /// The test that the value at `path` of `name` is built by constructor `(v, c)` and its
    /// argument matches `arg`.
    pub(super) fn variant_test(
        &mut self,
        (v, c): (usize, usize),
        arg: Option<&Pattern>,
        name: &Rc<str>,
        path: &[Step],
        span: Span,
    ) -> R<Option<core::Expr>> {
        let variant = self.typing.variants[v].clone();
        let tag = self.access(name, &tag_path(&variant, path), span);
        let index = self.int(c as i64, span);
        let is_c = self.binary(core::BinOp::Eq, tag, index, span);
        let inner = match arg {
            Some(arg) => self.test(arg, name, &arg_path(&variant, c, path))?,
            None => None,
        };
        Ok(self.conjoin(vec![Some(is_c), inner], span))
    }

    /// `a = b` (or with `!equal`, `a <> b`) on a type other than `int` and `bool`: OCaml's
    /// structural equality on tuples, records, variants and references (their contents),
    /// evaluating `a`, then `b`, once each. Anything holding a list or a function is
    /// refused by name.
    pub(super) fn structural_equality(
        &mut self,
        e: &Expr,
        equal: bool,
        a: &Expr,
        b: &Expr,
    ) -> R<core::Expr> {
        let span = e.span;
        let ty = self.ground(&self.typing.expr_types[a.id.0 as usize]);
        let core_ty = self.core_type(&ty, span)?;
        let (x, y) = (self.temp("l"), self.temp("r"));
        let test = self.equal_at(&ty, &x, &y, &[], a.span)?;
        let mut result = match equal {
            true => test,
            false => {
                let zero = self.int(0, span);
                self.binary(core::BinOp::Eq, test, zero, span)
            }
        };
        let (va, vb) = (self.expr(a)?, self.expr(b)?);
        let bx = self.binder(y, span, core_ty.clone());
        result = self.let_in(bx, vb, result, span);
        let by = self.binder(x, span, core_ty);
        Ok(self.let_in(by, va, result, span))
    }

    /// Whether the parts at `path` of `x` and `y`, of type `ty`, are structurally equal.
    fn equal_at(
        &mut self,
        ty: &Ty,
        x: &Rc<str>,
        y: &Rc<str>,
        path: &[Step],
        span: Span,
    ) -> R<core::Expr> {
        Ok(match ty {
            Ty::Int | Ty::Bool => {
                let (a, b) = (self.access(x, path, span), self.access(y, path, span));
                self.binary(core::BinOp::Eq, a, b, span)
            }
            Ty::Unit => self.int(1, span),
            Ty::Ref(content) => self.equal_at(content, x, y, &extend(path, Step::Load), span)?,
            Ty::Tuple(ts) => {
                let mut tests = Vec::new();
                for (i, t) in ts.iter().enumerate() {
                    let p = tuple_path(path, i, ts.len());
                    tests.push(Some(self.equal_at(t, x, y, &p, span)?));
                }
                self.conjoin(tests, span)
                    .unwrap_or_else(|| self.int(1, span))
            }
            Ty::Data(v, _, args) => {
                let variant = self.typing.variants[*v].clone();
                let tag = tag_path(&variant, path);
                let (a, b) = (self.access(x, &tag, span), self.access(y, &tag, span));
                let same_tag = self.binary(core::BinOp::Eq, a, b, span);
                // The tags are equal: compare the argument of that constructor.
                let mut args_equal = self.int(1, span);
                for c in (0..variant.ctors.len()).rev() {
                    let Some(arg_ty) = variant.arg_type(c, args) else {
                        continue;
                    };
                    let here = self.equal_at(&arg_ty, x, y, &arg_path(&variant, c, path), span)?;
                    let tag = self.access(x, &tag_path(&variant, path), span);
                    let index = self.int(c as i64, span);
                    let is_c = self.binary(core::BinOp::Eq, tag, index, span);
                    args_equal = self.if_then_else(is_c, here, args_equal, span);
                }
                let zero = self.int(0, span);
                self.if_then_else(same_tag, args_equal, zero, span)
            }
            other => {
                return Err(unsupported(
                    span,
                    &format!(
                        "comparing values of type `{other}` with `=` or `<>` (structural equality is supported on `int`, `bool`, `unit`, tuples, records, variants and references of those)"
                    ),
                ));
            }
        })
    }
}
