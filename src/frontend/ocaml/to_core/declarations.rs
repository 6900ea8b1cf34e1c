//! The top level of the translation: every top-level definition recorded, top-level
//! values and references declared (`Store` entries), functions turned into methods (one per
//! ground instance, drained until none is pending), the entry turned into `Main` with its
//! inputs, and function parameters and pattern `let`s bound (docs/ocaml.md, "The entry and
//! the inputs", "The translation into the core").
//!
//! Guarantees: every method requested by a use is produced exactly once per instance key;
//! the entry's parameters are `int`, `bool` or `unit` (else a diagnostic at the entry).

use super::*;
use crate::core_lang::ast as core;

impl Translator<'_> {
    /// Records every top-level definition; returns the entry function's group and member.
    pub(super) fn top_level(
        &mut self,
        program: &Program,
        entry: Option<&str>,
    ) -> R<(usize, usize)> {
        let mut last_fun = None;
        let mut last_main = None;
        let mut named = None;
        for item in &program.items {
            let Item::Let(group) = item else { continue };
            for (name, group, member) in self.top_group(group)? {
                last_fun = Some((group, member));
                if &*name == "main" {
                    last_main = last_fun;
                }
                if Some(&*name) == entry {
                    named = last_fun;
                }
            }
        }
        match entry {
            Some(e) => named.ok_or_else(|| {
                no_entry(&format!("there is no top-level function `{e}` (--entry)"))
            }),
            None => last_main.or(last_fun).ok_or_else(|| {
                no_entry(
                    "the program defines no top-level function to verify (the entry is `main`)",
                )
            }),
        }
    }

    /// Records one top-level `let` group; returns its functions (name, group, member).
    pub(super) fn top_group(&mut self, group: &LetGroup) -> R<Vec<(Rc<str>, usize, usize)>> {
        let functions = group.bindings.iter().all(|b| is_function(&b.value));
        if !functions {
            if group.recursive {
                return Err(unsupported(
                    group.span,
                    "`let rec` of values that are not functions",
                ));
            }
            for b in &group.bindings {
                self.top_value(b)?;
            }
            return Ok(Vec::new());
        }
        let index = self.groups.len();
        let mut bindings = Vec::new();
        let mut quantified = Vec::new();
        let mut out = Vec::new();
        for (member, b) in group.bindings.iter().enumerate() {
            let (id, name) = var_pattern(&b.pattern).ok_or_else(|| {
                unsupported(
                    b.pattern.span,
                    "a pattern on the left of a top-level function definition",
                )
            })?;
            quantified = self.typing.quantified.get(&id).cloned().unwrap_or_default();
            self.entries.insert(
                id,
                Entry::TopFun {
                    group: index,
                    member,
                },
            );
            bindings.push((name.clone(), Rc::new(b.value.clone())));
            out.push((name.text.clone(), index, member));
        }
        self.groups.push(TopGroup {
            bindings,
            quantified,
            instances: HashMap::new(),
        });
        Ok(out)
    }

    /// A top-level value: a reference, or a constant or alias inlined at every use.
    pub(super) fn top_value(&mut self, b: &Binding) -> R<()> {
        let Some((id, name)) = var_pattern(&b.pattern) else {
            return Err(unsupported(
                b.pattern.span,
                "top-level expressions and patterns (`let () = ...`, `let (a, b) = ...`); the entry is `main`",
            ));
        };
        if let Some(init) = ref_init(self.typing, &b.value) {
            let as_value = self.refs_as_values.contains(&id);
            return self.top_ref(id, name, &b.value, init, as_value);
        }
        if !is_inlinable(&b.value) {
            return self.startup_value(id, name, &b.value);
        }
        let quantified = self.typing.quantified.get(&id).cloned().unwrap_or_default();
        self.entries
            .insert(id, Entry::TopInline(Rc::new(b.value.clone()), quantified));
        Ok(())
    }

    /// The top-level reference `value` (`let r = ref c`, with `init` = `c`).
    ///
    /// When the name is only read and written (`!r`, `r := e`, `incr r`), a `Store`
    /// reference of `c`'s type. When it is also used as a value (passed, returned, stored,
    /// compared: `as_value`), a `Store` reference of type `Ref T` holding the address of a
    /// cell allocated before the entry runs (`r : Ref T := ref c`); `!r` then reads that
    /// cell (`!(!r)` in the core), and a use of `r` is the address. Either way an initial
    /// value that is not a constant is computed at start-up ([`startup`]).
    pub(super) fn top_ref(
        &mut self,
        id: VarId,
        name: &Name,
        value: &Expr,
        init: &Expr,
        as_value: bool,
    ) -> R<()> {
        let core_name = self.method_name(&name.text);
        let ty = if as_value {
            self.entries
                .insert(id, Entry::TopComputed(core_name.clone()));
            self.core_type(&self.typing.var_types[id.0 as usize], value.span)?
        } else {
            self.entries.insert(id, Entry::TopRef(core_name.clone()));
            let Ty::Ref(content) = self.ground(&self.typing.var_types[id.0 as usize]) else {
                return Err(internal(name.span, "a reference without a `ref` type"));
            };
            core_type(&self.type_cx(), &content, init.span)?
        };
        let constant = self.ref_constant(&core_name, init)?;
        if !is_core_constant(&constant) {
            let computed = if as_value { value } else { init };
            return self.startup_store(core_name, name.span, ty, computed);
        }
        let constant = match as_value {
            true => self.mk(value.span, core::ExprKind::Alloc(Box::new(constant))),
            false => constant,
        };
        self.declare_store(&core_name, name.span, ty, constant);
        Ok(())
    }

    /// Declares the `Store` reference `name` of type `ty` starting as `init`.
    pub(super) fn declare_store(
        &mut self,
        name: &Rc<str>,
        span: Span,
        ty: core::Type,
        init: core::Expr,
    ) {
        let id = core::RefId(self.store.len() as u32);
        self.store.push(core::RefDecl {
            id,
            name: core::Ident {
                name: name.clone(),
                span,
            },
            ty,
            init,
        });
    }

    /// The initial value of a reference: a constant, a function name, or a `fun` (lifted to
    /// a method named after the reference).
    pub(super) fn ref_constant(&mut self, ref_name: &str, e: &Expr) -> R<core::Expr> {
        match &e.kind {
            ExprKind::Fun(..) | ExprKind::Function(_) => {
                let method = self.lift(ref_name, e)?;
                Ok(self.var(&method, e.span))
            }
            ExprKind::Annot(x, _) => self.ref_constant(ref_name, x),
            ExprKind::Tuple(items) => {
                let mut parts = Vec::new();
                for item in items {
                    parts.push(self.ref_constant(ref_name, item)?);
                }
                Ok(self.nest_pairs(parts, e.span))
            }
            ExprKind::Cons(h, t) => {
                let h = self.ref_constant(ref_name, h)?;
                let t = self.ref_constant(ref_name, t)?;
                Ok(self.mk(e.span, core::ExprKind::Cons(Box::new(h), Box::new(t))))
            }
            _ => self.expr(e),
        }
    }

    /// A closed `fun` at top level as a method of its own.
    pub(super) fn lift(&mut self, ref_name: &str, e: &Expr) -> R<Rc<str>> {
        let name = self.method_name(&format!("{ref_name}#init"));
        let id = core::MethodId(self.methods.len() as u32);
        self.methods.push(None);
        self.placeholder_names.push((id, name.clone()));
        let method = self.method(id, name.clone(), e)?;
        self.methods[id.0 as usize] = Some(method);
        Ok(name)
    }

    // ----- methods -----

    /// The method of member `member` of `group` at the ground instance `key`.
    pub(super) fn method_for(
        &mut self,
        group: usize,
        member: usize,
        key: Vec<Ty>,
    ) -> core::MethodId {
        if let Some(ids) = self.groups[group].instances.get(&key) {
            return ids[member];
        }
        let names: Vec<Rc<str>> = self.groups[group]
            .bindings
            .iter()
            .map(|(n, _)| n.text.clone())
            .collect();
        let mut ids = Vec::new();
        for name in names {
            let name = self.method_name(&name);
            let id = core::MethodId(self.methods.len() as u32);
            self.methods.push(None);
            self.placeholder_names.push((id, name));
            ids.push(id);
        }
        self.groups[group]
            .instances
            .insert(key.clone(), ids.clone());
        self.pending.push((group, key));
        ids[member]
    }

    pub(super) fn method_name_of(&self, id: core::MethodId) -> Rc<str> {
        self.placeholder_names
            .iter()
            .find(|(m, _)| *m == id)
            .map(|(_, n)| n.clone())
            .expect("internal error: a method without a name")
    }

    /// Translates the bodies of every requested method instance, until none is left.
    pub(super) fn drain_methods(&mut self) -> R<()> {
        while let Some((group, key)) = self.pending.pop() {
            let ids = self.groups[group].instances[&key].clone();
            let quantified = self.groups[group].quantified.clone();
            self.active.push((quantified, key.clone()));
            self.current.push((group, key));
            for (member, id) in ids.iter().enumerate() {
                let value = self.groups[group].bindings[member].1.clone();
                let name = self.method_name_of(*id);
                let method = self.method(*id, name, &value);
                self.methods[id.0 as usize] = Some(method?);
            }
            self.current.pop();
            self.active.pop();
        }
        Ok(())
    }

    /// Translates every top-level function nothing uses, at its default instance (type
    /// variables `int`; the entry's group is `Main` already): dead code cannot fail, but a
    /// construct outside the subset in it is still reported, never silently ignored.
    pub(super) fn unused_groups(&mut self, entry: usize) -> R<()> {
        for group in 0..self.groups.len() {
            if group != entry && self.groups[group].instances.is_empty() {
                let key = vec![Ty::Int; self.groups[group].quantified.len()];
                self.method_for(group, 0, key);
                self.drain_methods()?;
            }
        }
        Ok(())
    }

    /// A method from a `fun`/`function` value.
    pub(super) fn method(
        &mut self,
        id: core::MethodId,
        name: Rc<str>,
        value: &Expr,
    ) -> R<core::Method> {
        let (params, ret, body) = self.function_parts(value)?;
        Ok(core::Method {
            id,
            name: core::Ident {
                name,
                span: value.span,
            },
            params,
            ret,
            body,
        })
    }

    /// The entry function as `Main`: its parameters are the inputs, its body runs at depth 0.
    pub(super) fn main(&mut self, (group, member): &(usize, usize)) -> R<core::MainDecl> {
        let quantified = self.groups[*group].quantified.clone();
        let key = vec![Ty::Int; quantified.len()];
        let value = self.groups[*group].bindings[*member].1.clone();
        self.active.push((quantified, key.clone()));
        self.current.push((*group, key));
        let parts = self.function_parts(&value);
        let param_types = self.param_types(&value);
        self.current.pop();
        self.active.pop();
        let (params, ret, body) = parts?;
        let (params, body) = self.ground_inputs(param_types?, params, body)?;
        Ok(core::MainDecl {
            params,
            ret,
            body,
            span: value.span,
        })
    }

    /// The ground OCaml types of the parameters of a `fun`/`function` value.
    pub(super) fn param_types(&self, value: &Expr) -> R<Vec<Ty>> {
        let value = strip_annot(value);
        match self.ground(&self.typing.expr_types[value.id.0 as usize]) {
            Ty::Fun(ps, _) => Ok(ps),
            _ => Err(internal(value.span, "a function without a function type")),
        }
    }

    /// Checks that the entry's inputs are `int`, `bool` or `unit`. A `bool` input is
    /// normalised to 0/1 (`let b = b <> 0 in ...`); a `()` parameter is no input.
    pub(super) fn ground_inputs(
        &mut self,
        types: Vec<Ty>,
        params: Vec<core::Binder>,
        mut body: core::Expr,
    ) -> R<(Vec<core::Binder>, core::Expr)> {
        let mut inputs = Vec::new();
        for (b, t) in params.into_iter().zip(types) {
            let span = b.name.span;
            match t {
                Ty::Bool => {
                    let v = self.var(&b.name.name, span);
                    let zero = self.int(0, span);
                    let normal = self.binary(core::BinOp::Ne, v, zero, span);
                    let rebound = self.binder(b.name.name.clone(), span, core::Type::Int);
                    body = self.let_in(rebound, normal, body, span);
                }
                Ty::Unit if b.name.name.starts_with('$') => continue,
                Ty::Int | Ty::Unit => {}
                other => {
                    return Err(Diagnostic::error(
                        span,
                        format!(
                            "the inputs of the entry must be `int`, `bool` or `unit`, but this parameter has type `{other}`"
                        ),
                        "not an input type",
                    ));
                }
            }
            inputs.push(b);
        }
        Ok((inputs, body))
    }

    /// The core parameters, result type and body of a `fun`/`function` value.
    pub(super) fn function_parts(
        &mut self,
        value: &Expr,
    ) -> R<(Vec<core::Binder>, core::Type, core::Expr)> {
        let types = self.param_types(value)?;
        let value = strip_annot(value);
        match &value.kind {
            ExprKind::Fun(patterns, body) => {
                let ret = self.expr_type(body)?;
                let (params, body) = self.params_and_body(patterns, &types, body)?;
                Ok((params, ret, body))
            }
            ExprKind::Function(cases) => {
                let Ty::Fun(_, r) = self.ground(&self.typing.expr_types[value.id.0 as usize])
                else {
                    return Err(internal(value.span, "`function` without a function type"));
                };
                let ret = core_type(&self.type_cx(), &r, value.span)?;
                let name = self.temp("arg");
                let param = self.binder(
                    name.clone(),
                    value.span,
                    core_type(&self.type_cx(), &types[0], value.span)?,
                );
                let body = self.match_on(&name, cases, value.span)?;
                Ok((vec![param], ret, body))
            }
            _ => Err(internal(value.span, "a function definition without `fun`")),
        }
    }

    /// Binds the parameter patterns: a variable directly, anything else through a match.
    pub(super) fn params_and_body(
        &mut self,
        patterns: &[Pattern],
        types: &[Ty],
        body: &Expr,
    ) -> R<(Vec<core::Binder>, core::Expr)> {
        let mut params = Vec::new();
        let mut destructure = Vec::new();
        // The names each parameter binds, collected once.
        let bound: Vec<Vec<_>> = patterns
            .iter()
            .map(|p| {
                let mut vars = Vec::new();
                collect_vars(self.typing, p, &[], &mut vars);
                vars
            })
            .collect();
        for (i, (p, t)) in patterns.iter().zip(types).enumerate() {
            let ty = core_type(&self.type_cx(), t, p.span)?;
            // A name a later parameter binds again is shadowed in the body (OCaml's `fun a
            // -> fun a -> ..`): a variable parameter so bound gets a name of its own.
            let rebound = |name: &Name| {
                bound[i + 1..]
                    .iter()
                    .flatten()
                    .any(|(_, n, _)| n.text == name.text)
            };
            match var_pattern(p) {
                Some((id, name)) => {
                    let local = match rebound(name) {
                        true => self.temp(&name.text),
                        false => name.text.clone(),
                    };
                    self.entries.insert(id, Entry::Local(local.clone()));
                    params.push(self.binder(local, name.span, ty));
                }
                None => {
                    if let Some((_, name, _)) = bound[i].iter().find(|(_, n, _)| rebound(n)) {
                        return Err(unsupported(
                            name.span,
                            "a variable of a parameter pattern bound again by a later \
                             parameter (rename one of them)",
                        ));
                    }
                    self.declare(p);
                    let name = self.temp("p");
                    params.push(self.binder(name.clone(), p.span, ty));
                    destructure.push((name, p));
                }
            }
        }
        let mut core_body = self.expr(body)?;
        for (name, p) in destructure.into_iter().rev() {
            core_body = self.bind_pattern(&name, p, core_body)?;
        }
        Ok((params, core_body))
    }

    /// Makes the variables of `p` translate to core locals of their own names.
    pub(super) fn declare(&mut self, p: &Pattern) {
        let mut vars = Vec::new();
        collect_vars(self.typing, p, &[], &mut vars);
        for (id, name, _) in vars {
            let entry = match self.is_message(id) {
                true => Entry::Message,
                false => Entry::Local(name.text),
            };
            self.entries.insert(id, entry);
        }
    }

    /// `body` under the bindings of the irrefutable-or-not pattern `p` on variable `name`
    /// (a failed match is `Match_failure`).
    pub(super) fn bind_pattern(
        &mut self,
        name: &Rc<str>,
        p: &Pattern,
        body: core::Expr,
    ) -> R<core::Expr> {
        let span = p.span;
        let test = self.test(p, name, &[])?;
        let body = self.with_bindings(p, name, body)?;
        Ok(match test {
            None => body,
            Some(test) => {
                let fail = self.raise_named(span, "Match_failure");
                self.if_then_else(test, body, fail, span)
            }
        })
    }
}
