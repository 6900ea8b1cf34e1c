//! Top-level values computed at start-up (`let x = f 3`, `let g = let id y = y in id h`).
//!
//! OCaml evaluates such a value once, when the module is initialised, in the order of the
//! definitions, before the entry runs. Each becomes a `Store` reference named after it,
//! whose initial value is a placeholder of its type (`0`, `skip`, `[]`, pairs of those, and
//! for a function a method `x#unset` whose body is `fail`); the entry's body starts by
//! assigning every such reference its value, in definition order (`x := e; ...`), and each
//! use of `x` reads `!x`.
//!
//! Guarantee: no use reads a placeholder. A value's expression can only mention earlier
//! definitions (a top-level `let` is not recursive unless it is a function), so it runs
//! after every value it reads has been assigned, and every function that mentions `x` runs
//! only once the entry has started, after all the assignments. A computation that fails,
//! raises or draws inputs does so at the start of the entry, where OCaml's module
//! initialisation would, before the entry's own body.
//!
//! A polymorphic value (OCaml generalises nonexpansive expressions, `let g = (incr c; fun
//! x -> x)`) has one reference per ground instance it is used at (`g`, `g#2`), each
//! assigned the value computed at that instance. That computes it once per instance, which
//! is OCaml's single computation only when it has no effect but a raise or failure (a
//! second computation is then the same, or never reached): a polymorphic value with other
//! effects used at several types is refused by name. One used nowhere is computed at its
//! default instance (type variables `int`), so its effects still happen.
//!
//! The assignments are translated last, after every method (uses in methods request
//! instances), from the last value to the first: a value's expression only mentions earlier
//! ones, so when a value is reached every instance of it has been requested.
//! A placeholder of a reference type is a cell of its own (`ref 0`), allocated before the
//! entry runs and never read; it only shifts the addresses (`<cell N>`) of later cells.
//!
//! The same start-up assignment computes a top-level reference's initial value when it is
//! not a constant (`let r = ref (f 3)`).

use super::super::ast::{Expr, Name, VarId};
use super::super::infer::{Resolved, Typing};
use super::super::parser::unsupported;
use super::super::types::Ty;
use super::{Entry, R, Translator, internal};
use crate::core_lang::ast as core;
use crate::span::Span;
use std::cell::RefCell;
use std::rc::Rc;

/// A top-level value computed at start-up.
#[derive(Debug)]
pub(super) struct Startup {
    /// The OCaml variable of a polymorphic value (its type gives each instance's type).
    var: Option<VarId>,
    span: Span,
    value: Rc<Expr>,
    /// The quantified type variables (empty for a monomorphic value).
    quantified: Vec<u32>,
    /// The `Store` reference of each ground instance requested so far (the one instance
    /// `[]` of a monomorphic value).
    instances: RefCell<Vec<(Vec<Ty>, Rc<str>)>>,
    /// The base of the references' names.
    base: Rc<str>,
}

impl Translator<'_> {
    /// Records the top-level value `name = value` to compute at start-up.
    pub(super) fn startup_value(&mut self, id: VarId, name: &Name, value: &Expr) -> R<()> {
        let quantified = self.typing.quantified.get(&id).cloned().unwrap_or_default();
        if quantified.is_empty() {
            let ty = self.core_type(&self.typing.var_types[id.0 as usize], value.span)?;
            let core_name = self.method_name(&name.text);
            self.entries
                .insert(id, Entry::TopComputed(core_name.clone()));
            return self.startup_store(core_name, name.span, ty, value);
        }
        let startup = Rc::new(Startup {
            var: Some(id),
            span: name.span,
            value: Rc::new(value.clone()),
            quantified,
            instances: RefCell::new(Vec::new()),
            base: name.text.clone(),
        });
        self.entries
            .insert(id, Entry::TopComputedPoly(startup.clone()));
        self.startup.push(startup);
        Ok(())
    }

    /// Declares the `Store` reference `core_name` of type `ty`, starting as a placeholder,
    /// and assigns it `value` at start-up.
    pub(super) fn startup_store(
        &mut self,
        core_name: Rc<str>,
        span: Span,
        ty: core::Type,
        value: &Expr,
    ) -> R<()> {
        let init = self.placeholder(&core_name, &ty, span)?;
        self.declare_store(&core_name, span, ty, init);
        self.startup.push(Rc::new(Startup {
            var: None,
            span,
            value: Rc::new(value.clone()),
            quantified: Vec::new(),
            instances: RefCell::new(vec![(Vec::new(), core_name.clone())]),
            base: core_name,
        }));
        Ok(())
    }

    /// The reference holding the instance `key` of the polymorphic start-up value, declared
    /// at its first request.
    pub(super) fn startup_instance(&mut self, startup: &Startup, key: Vec<Ty>) -> R<Rc<str>> {
        if let Some((_, name)) = startup.instances.borrow().iter().find(|(k, _)| *k == key) {
            return Ok(name.clone());
        }
        let Some(var) = startup.var else {
            return Err(internal(startup.span, "an instance of a monomorphic value"));
        };
        self.active.push((startup.quantified.clone(), key.clone()));
        let ty = self.core_type(&self.typing.var_types[var.0 as usize], startup.span);
        self.active.pop();
        let ty = ty?;
        let name = self.method_name(&startup.base);
        let init = self.placeholder(&name, &ty, startup.span)?;
        self.declare_store(&name, startup.span, ty, init);
        startup.instances.borrow_mut().push((key, name.clone()));
        Ok(name)
    }

    /// A constant of type `ty`, never read (see the module doc).
    pub(super) fn placeholder(&mut self, name: &str, ty: &core::Type, span: Span) -> R<core::Expr> {
        Ok(match ty {
            core::Type::Int => self.int(0, span),
            core::Type::Unit => self.mk(span, core::ExprKind::Skip),
            core::Type::List(_) => self.mk(span, core::ExprKind::Nil),
            core::Type::Pair(a, b) => {
                let a = self.placeholder(name, a, span)?;
                let b = self.placeholder(name, b, span)?;
                self.mk(span, core::ExprKind::Pair(Box::new(a), Box::new(b)))
            }
            core::Type::Arrow(params, ret) => {
                let method = self.unset_method(name, params, ret, span);
                self.var(&method, span)
            }
            // A value of a constructor whose fields need no value of a datatype.
            core::Type::Data(data) => {
                let decl = self
                    .datatypes
                    .borrow()
                    .decls
                    .iter()
                    .find(|d| d.name == *data)
                    .cloned();
                let chosen = decl.and_then(|d| {
                    d.ctors
                        .iter()
                        .position(|c| !c.fields.iter().any(needs_data))
                        .map(|i| (i, d.ctors[i].fields.clone()))
                });
                let Some((ctor, fields)) = chosen else {
                    return Err(unsupported(
                        span,
                        &format!(
                            "a variant `{data}` of which every constructor holds the type itself"
                        ),
                    ));
                };
                let mut args = Vec::new();
                for f in &fields {
                    args.push(self.placeholder(name, f, span)?);
                }
                self.mk(
                    span,
                    core::ExprKind::Construct {
                        data: data.clone(),
                        ctor: ctor as u32,
                        args,
                    },
                )
            }
            // A cell of its own, allocated before the entry runs and never read.
            core::Type::Ref(content) => {
                let content = self.placeholder(name, content, span)?;
                self.mk(span, core::ExprKind::Alloc(Box::new(content)))
            }
        })
    }

    /// The method `name#unset` of type `params -> ret`, whose body is `fail`.
    fn unset_method(
        &mut self,
        name: &str,
        params: &[core::Type],
        ret: &core::Type,
        span: Span,
    ) -> Rc<str> {
        let method_name = self.method_name(&format!("{name}#unset"));
        let id = core::MethodId(self.methods.len() as u32);
        let params = params
            .iter()
            .enumerate()
            .map(|(i, ty)| self.binder(format!("x{i}").into(), span, ty.clone()))
            .collect();
        let body = self.mk(span, core::ExprKind::Fail);
        self.placeholder_names.push((id, method_name.clone()));
        self.methods.push(Some(core::Method {
            id,
            name: core::Ident {
                name: method_name.clone(),
                span,
            },
            params,
            ret: ret.clone(),
            body,
        }));
        method_name
    }

    /// `body` preceded by the assignment of every start-up value, in definition order (see
    /// the module doc). Runs after every method has been translated.
    pub(super) fn with_startup(&mut self, body: core::Expr) -> R<core::Expr> {
        let startup = std::mem::take(&mut self.startup);
        let mut groups = Vec::new();
        for item in startup.iter().rev() {
            if item.instances.borrow().is_empty() {
                let key = vec![Ty::Int; item.quantified.len()];
                self.startup_instance(item, key)?;
            }
            let instances = item.instances.borrow().clone();
            if instances.len() > 1 && !duplicable(self.typing, &item.value) {
                return Err(unsupported(
                    item.value.span,
                    "a polymorphic top-level value with effects (a call, `!`, `:=`, an input) used at several types (OCaml computes it once; here it would be computed once per type)",
                ));
            }
            let mut assignments = Vec::new();
            for (key, name) in instances {
                self.active.push((item.quantified.clone(), key));
                let value = self.expr(&item.value);
                self.active.pop();
                let kind = core::ExprKind::Assign {
                    reference: core::Ident {
                        name,
                        span: item.span,
                    },
                    value: Box::new(value?),
                };
                assignments.push(self.mk(item.span, kind));
            }
            self.drain_methods()?;
            groups.push(assignments);
        }
        let span = body.span;
        Ok(groups
            .into_iter()
            .flatten()
            .fold(body, |rest, assign| self.seq(assign, rest, span)))
    }
}

/// Whether computing `e` several times is the same as computing it once: no call, no
/// `!`, `:=` or input outside a function, so its only effects are a raise or a failure,
/// which a second computation repeats or never reaches.
pub(super) fn duplicable(typing: &Typing, e: &Expr) -> bool {
    use super::super::ast::ExprKind as K;
    let dup = |x: &Expr| duplicable(typing, x);
    match &e.kind {
        K::Int(_)
        | K::Bool(_)
        | K::Unit
        | K::Str(_)
        | K::Nil
        | K::Var(_)
        | K::Fun(..)
        | K::Function(_)
        | K::Construct(_, None) => true,
        K::Construct(_, Some(x)) | K::Annot(x, _) | K::Assert(x) | K::Neg(x) | K::Open(_, x) => {
            dup(x)
        }
        K::Binary(_, a, b) | K::Cons(a, b) | K::Seq(a, b) => dup(a) && dup(b),
        K::Tuple(items) => items.iter().all(dup),
        K::Let(group, body) => group.bindings.iter().all(|b| dup(&b.value)) && dup(body),
        K::If(c, a, b) => dup(c) && dup(a) && b.as_deref().is_none_or(dup),
        K::Match(x, cases) => {
            dup(x)
                && cases
                    .iter()
                    .all(|c| c.guard.as_ref().is_none_or(dup) && dup(&c.body))
        }
        K::App(f, args) => {
            matches!(
                typing.resolutions.get(&f.id),
                Some(Resolved::Prelude("raise" | "failwith" | "invalid_arg"))
            ) && args.iter().all(dup)
        }
        K::Try(..)
        | K::MatchExn(..)
        | K::LetException(..)
        | K::Deref(_)
        | K::Assign(..)
        | K::Record(..)
        | K::Field(..)
        | K::SetField(..) => false,
    }
}

/// Whether a placeholder of `t` needs a value of a datatype (a list needs none: `[]`).
fn needs_data(t: &core::Type) -> bool {
    match t {
        core::Type::Data(_) => true,
        core::Type::Pair(a, b) => needs_data(a) || needs_data(b),
        _ => false,
    }
}
