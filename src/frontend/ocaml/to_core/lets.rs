//! Local `let`, `let ... and ...` and `let rec ... and ...` in the core: monomorphic ones
//! as one core `let` (or `let rec`), polymorphic ones as one `let` per ground instance used,
//! mutually recursive groups nested (docs/ocaml.md, "The translation into the core").
//!
//! Guarantees: a polymorphic value with effects is computed once, or refused when it is
//! used at several types; a local `let rec ... and ...` of more than four functions is a
//! diagnostic naming the limit.

use super::*;
use crate::core_lang::ast as core;

impl Translator<'_> {
    pub(super) fn let_expr(&mut self, e: &Expr, group: &LetGroup, body: &Expr) -> R<core::Expr> {
        if group.recursive && group.bindings.len() > 1 {
            return self.let_rec_and(group, body);
        }
        let Some(b) = group.bindings.first() else {
            return Err(internal(group.span, "an empty `let`"));
        };
        if group.bindings.len() > 1 {
            return self.let_and(e, group, body);
        }
        match var_pattern(&b.pattern) {
            Some((id, name)) if self.typing.quantified.contains_key(&id) => {
                self.let_poly(e, group.recursive, id, name, &b.value, body)
            }
            Some((id, name)) => {
                let name = name.text.clone();
                self.let_mono(e, group.recursive, id, &name, &b.value, body)
            }
            None => {
                let value = self.expr(&b.value)?;
                let ty = self.expr_type(&b.value)?;
                let tmp = self.temp("v");
                self.declare(&b.pattern);
                let core_body = self.expr(body)?;
                let inner = self.bind_pattern(&tmp, &b.pattern, core_body)?;
                let binder = self.binder(tmp, b.pattern.span, ty);
                Ok(self.let_in(binder, value, inner, e.span))
            }
        }
    }

    /// `let p1 = e1 and p2 = e2 in body`: the values first, then the bindings.
    pub(super) fn let_and(&mut self, e: &Expr, group: &LetGroup, body: &Expr) -> R<core::Expr> {
        let mut temps = Vec::new();
        for b in &group.bindings {
            let ty = self.expr_type(&b.value)?;
            let value = self.expr(&b.value)?;
            temps.push((self.temp("and"), ty, value, &b.pattern));
        }
        for b in &group.bindings {
            self.declare(&b.pattern);
        }
        let mut inner = self.expr(body)?;
        for (tmp, _, _, p) in temps.iter().rev() {
            inner = self.bind_pattern(tmp, p, inner)?;
        }
        for (tmp, ty, value, p) in temps.into_iter().rev() {
            let binder = self.binder(tmp, p.span, ty);
            inner = self.let_in(binder, value, inner, e.span);
        }
        Ok(inner)
    }

    pub(super) fn let_mono(
        &mut self,
        e: &Expr,
        recursive: bool,
        id: VarId,
        name: &Rc<str>,
        value: &Expr,
        body: &Expr,
    ) -> R<core::Expr> {
        let span = e.span;
        let ty = self.core_type(&self.typing.var_types[id.0 as usize], value.span)?;
        self.entries.insert(id, Entry::Local(name.clone()));
        let binder = self.binder(name.clone(), span, ty);
        if recursive {
            let lambda = self.rec_lambda(value)?;
            let body = self.expr(body)?;
            let kind = core::ExprKind::LetRec {
                binder,
                lambda,
                body: Box::new(body),
            };
            return Ok(self.mk(span, kind));
        }
        let value = self.expr(value)?;
        let body = self.expr(body)?;
        Ok(self.let_in(binder, value, body, span))
    }

    /// Local mutual recursion `let rec f = .. and g = .. in body`. The core binds one
    /// recursive function at a time, so the group is nested: `f`'s body sees the others
    /// defined inside it, and so does `body`:
    /// `let rec f = fun .. -> (let rec g = .. in fbody) in (let rec g = .. in body)`.
    /// Every copy is the same function, so a call is still one call at the same depth; the
    /// k-th member is copied 2^(k-1) times, so groups are limited to four functions.
    pub(super) fn let_rec_and(&mut self, group: &LetGroup, body: &Expr) -> R<core::Expr> {
        let mut members = Vec::new();
        for b in &group.bindings {
            let Some((id, name)) = var_pattern(&b.pattern).filter(|_| is_function(&b.value)) else {
                return Err(unsupported(
                    b.pattern.span,
                    "a local `let rec ... and ...` whose members are not all functions",
                ));
            };
            if self.typing.quantified.contains_key(&id) {
                return Err(unsupported(
                    name.span,
                    "a polymorphic local `let rec ... and ...` (define the group at top level)",
                ));
            }
            self.entries.insert(id, Entry::Local(name.text.clone()));
            members.push((id, name.clone(), &b.value));
        }
        if members.len() > 4 {
            return Err(unsupported(
                group.span,
                "a local `let rec ... and ...` of more than four functions (define the group at top level)",
            ));
        }
        let body = self.expr(body)?;
        self.rec_nest(&members, body)
    }

    /// `let rec m1 = .. in (.. body)` for the members left, each member's own body holding
    /// the members after it (see [`Translator::let_rec_and`]).
    pub(super) fn rec_nest(
        &mut self,
        members: &[(VarId, Name, &Expr)],
        body: core::Expr,
    ) -> R<core::Expr> {
        let Some(((id, name, value), rest)) = members.split_first() else {
            return Ok(body);
        };
        let (params, ret, fbody) = self.function_parts(value)?;
        if let Some(p) = params
            .iter()
            .find(|p| rest.iter().any(|(_, n, _)| n.text == p.name.name))
        {
            return Err(unsupported(
                p.name.span,
                "a parameter named like a function of its own local `let rec ... and ...` group",
            ));
        }
        let fbody = self.rec_nest(rest, fbody)?;
        let lambda = self.lambda(params, ret, fbody, value.span);
        let body = self.rec_nest(rest, body)?;
        let ty = self.core_type(&self.typing.var_types[id.0 as usize], value.span)?;
        let binder = self.binder(name.text.clone(), name.span, ty);
        let span = value.span.to(body.span);
        let kind = core::ExprKind::LetRec {
            binder,
            lambda,
            body: Box::new(body),
        };
        Ok(self.mk(span, kind))
    }

    pub(super) fn rec_lambda(&mut self, value: &Expr) -> R<Rc<core::Lambda>> {
        let (params, ret, body) = self.function_parts(value)?;
        Ok(self.lambda(params, ret, body, value.span))
    }

    /// A polymorphic local definition: the body first, then one `let` per instance it used.
    pub(super) fn let_poly(
        &mut self,
        e: &Expr,
        recursive: bool,
        id: VarId,
        name: &Name,
        value: &Expr,
        body: &Expr,
    ) -> R<core::Expr> {
        let quantified = self.typing.quantified[&id].clone();
        let instances = Rc::new(RefCell::new(Instances {
            base: name.text.clone(),
            requested: Vec::new(),
        }));
        self.entries.insert(id, Entry::LocalPoly(instances.clone()));
        let mut result = self.expr(body)?;
        if !is_inlinable(value) {
            // A generalised value that is not a syntactic one (`let g = (incr c; fun x ->
            // x)`): OCaml computes it once, here once per instance (startup.rs).
            if instances.borrow().requested.is_empty() {
                let key = vec![Ty::Int; quantified.len()];
                request(&instances, key, &mut self.temps);
            }
            if instances.borrow().requested.len() > 1 && !startup::duplicable(self.typing, value) {
                return Err(unsupported(
                    value.span,
                    "a polymorphic value with effects (a call, `!`, `:=`, an input) used at several types (OCaml computes it once; here it would be computed once per type)",
                ));
            }
        }
        let requested = instances.borrow().requested.clone();
        for (key, core_name) in requested.into_iter().rev() {
            self.active.push((quantified.clone(), key));
            self.entries.insert(id, Entry::Local(core_name.clone()));
            let made = self.let_instance(e, recursive, id, &core_name, value, result);
            self.active.pop();
            result = made?;
        }
        Ok(result)
    }

    pub(super) fn let_instance(
        &mut self,
        e: &Expr,
        recursive: bool,
        id: VarId,
        name: &Rc<str>,
        value: &Expr,
        body: core::Expr,
    ) -> R<core::Expr> {
        let ty = self.core_type(&self.typing.var_types[id.0 as usize], value.span)?;
        let binder = self.binder(name.clone(), e.span, ty);
        if recursive {
            let lambda = self.rec_lambda(value)?;
            let kind = core::ExprKind::LetRec {
                binder,
                lambda,
                body: Box::new(body),
            };
            return Ok(self.mk(e.span, kind));
        }
        let value = self.expr(value)?;
        Ok(self.let_in(binder, value, body, e.span))
    }
}
