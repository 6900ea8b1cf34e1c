//! OCaml's structural equality on the recursive types: `=` / `<>` between two values of a
//! recursive variant (`t1 = t2` on trees, expressions) or of a list type (`[1; n] = l`),
//! and on anything holding them (a pair of lists, an option of a tree).
//!
//! Each such ground type gets one core method `equal#T(a, b)` (built the first time it is
//! needed), a recursion over the two values as OCaml's `compare_val` walks them: on a
//! datatype, the same constructor and then equal arguments; on lists, both empty, or both
//! non-empty with equal heads and (then) equal tails. The parts are compared by the
//! structural equality of their own types ([`Translator::equal_at`]: integers, tuples,
//! records, a `mutable` field by its content, non-recursive variants, references by their
//! contents), a recursive part by a call of its own method.
//!
//! Guarantees: the result is 1 exactly when OCaml's `=` is `true` on the two values (the
//! values are immutable except through cells, read at the comparison, and evaluation
//! never fails); the comparison stops at the first difference, as OCaml's does. Each
//! call of an `equal#T` method is a call: comparing lists of n elements costs n + 1 levels
//! of depth, trees their height (docs/ocaml.md, "Variants"). A type holding a function
//! is refused by name, as OCaml raises `Invalid_argument "compare: functional value"`.

use super::paths::{Step, arg_path};
use super::{R, Translator, core_type};
use crate::core_lang::ast as core;
use crate::frontend::ocaml::types::Ty;
use crate::span::Span;
use std::rc::Rc;

impl Translator<'_> {
    /// The call `equal#T(x at path, y at path)` for the list or recursive variant type `ty`.
    pub(super) fn recursive_equal(
        &mut self,
        ty: &Ty,
        x: &Rc<str>,
        y: &Rc<str>,
        path: &[Step],
        span: Span,
    ) -> R<core::Expr> {
        let method = self.equality_method(ty, span)?;
        let f = self.var(&method, span);
        let (a, b) = (self.access(x, path, span), self.access(y, path, span));
        Ok(self.call(span, f, vec![a, b]))
    }

    /// The name of the method comparing two values of `ty`, made when first needed.
    fn equality_method(&mut self, ty: &Ty, span: Span) -> R<Rc<str>> {
        if let Some(name) = self.equalities.get(ty) {
            return Ok(name.clone());
        }
        let core_ty = core_type(&self.type_cx(), ty, span)?;
        let label = match &core_ty {
            core::Type::Data(name) => name.to_string(),
            _ => "list".to_string(),
        };
        let name = self.method_name(&format!("equal#{label}"));
        let id = core::MethodId(self.methods.len() as u32);
        self.methods.push(None);
        self.placeholder_names.push((id, name.clone()));
        self.equalities.insert(ty.clone(), name.clone());
        let (a, b): (Rc<str>, Rc<str>) = (self.temp("a"), self.temp("b"));
        let body = match ty {
            Ty::List(element) => self.list_equal(element, &a, &b, span)?,
            Ty::Data(v, _, args) => self.data_equal(*v, args, &a, &b, span)?,
            other => {
                return Err(super::internal(
                    span,
                    &format!("no equality method for `{other}`"),
                ));
            }
        };
        let params = vec![
            self.binder(a, span, core_ty.clone()),
            self.binder(b, span, core_ty),
        ];
        self.methods[id.0 as usize] = Some(core::Method {
            id,
            name: core::Ident {
                name: name.clone(),
                span,
            },
            params,
            ret: core::Type::Int,
            body,
        });
        Ok(name)
    }

    /// `if is_empty a then is_empty b else if is_empty b then 0 else if hd a = hd b then
    /// equal(tl a, tl b) else 0`.
    fn list_equal(&mut self, element: &Ty, a: &Rc<str>, b: &Rc<str>, span: Span) -> R<core::Expr> {
        let list = Ty::List(Box::new(element.clone()));
        let heads = self.equal_at(element, a, b, &[Step::Hd], span)?;
        let tails = self.recursive_equal(&list, a, b, &[Step::Tl], span)?;
        let zero = self.int(0, span);
        let both = self.if_then_else(heads, tails, zero, span);
        let b_empty = self.is_empty(b, span);
        let zero = self.int(0, span);
        let a_full = self.if_then_else(b_empty, zero, both, span);
        let a_empty = self.is_empty(a, span);
        let b_empty = self.is_empty(b, span);
        Ok(self.if_then_else(a_empty, b_empty, a_full, span))
    }

    /// `if a is C0 then (if b is C0 then args equal else 0) else if a is C1 then ... else 0`.
    fn data_equal(
        &mut self,
        v: usize,
        args: &[Ty],
        a: &Rc<str>,
        b: &Rc<str>,
        span: Span,
    ) -> R<core::Expr> {
        let variant = self.typing.variants[v].clone();
        let mut result = self.int(0, span);
        for c in (0..variant.ctors.len()).rev() {
            let same = match variant.arg_type(c, args) {
                Some(arg) => self.equal_at(&arg, a, b, &arg_path(&variant, c, &[]), span)?,
                None => self.int(1, span),
            };
            let b_is = self.is_ctor(c, b, span);
            let zero = self.int(0, span);
            let then = self.if_then_else(b_is, same, zero, span);
            let a_is = self.is_ctor(c, a, span);
            result = self.if_then_else(a_is, then, result, span);
        }
        Ok(result)
    }

    fn is_empty(&mut self, x: &Rc<str>, span: Span) -> core::Expr {
        let value = Box::new(self.var(x, span));
        self.mk(span, core::ExprKind::List(core::ListOp::IsEmpty, value))
    }

    fn is_ctor(&mut self, c: usize, x: &Rc<str>, span: Span) -> core::Expr {
        let value = Box::new(self.var(x, span));
        self.mk(
            span,
            core::ExprKind::IsCtor {
                ctor: c as u32,
                value,
            },
        )
    }
}
