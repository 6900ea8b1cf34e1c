//! Translates a typed OCaml program into the shared core (the HORef AST), specialising
//! polymorphic definitions per use.
//!
//! The mapping (docs/ocaml.md): `int` and `bool` are core `Int` (0/1), `unit` is `Unit`,
//! tuples are nested pairs, `int list`/`bool list` are core lists; a function of n
//! parameters is a core function of n parameters (a top-level one a method), so an
//! application that saturates it is one core call; over-application applies the result;
//! a partial application evaluates its arguments and is a wrapper closure
//! ([`core::Lambda::wrapper`]) whose body is the saturating call.
//! Top-level `let r = ref c` is a `Store` reference (holding a cell's address when the name
//! is used as a value); every other `ref e` allocates a core cell (`ref e`, type `Ref T`), read and written with the core's `!e` / `e1 := e2`. `match` becomes tests on the scrutinee
//! (`is_empty`, `==`) and projections (`fst`, `snd`, `hd`, `tl`); no case matching is a
//! failure (`Match_failure`), as are `assert`, `failwith` and `raise`. The entry (`main`)
//! is the core `Main`: its body runs at depth 0, its parameters are the inputs.
//!
//! Every polymorphic definition is copied once per ground instance it is used at (the type
//! variables a use leaves open become `int`): top-level functions as one method per
//! instance (`apply`, `apply#2`), local ones as one `let` per instance.
//!
//! Guarantees: on success the core program is well-typed for the HORef checker and runs as
//! the OCaml program does (docs/ocaml.md); anything the core cannot yet express (`==` on
//! lists, a polymorphic value with effects used at two types, ...) is a diagnostic naming
//! it, at its position.

use super::ast::*;
use super::infer::{Resolved, Typing};
use super::parser::unsupported;
use super::types::{Ty, substitute};
use crate::core_lang::ast as core;
use crate::diagnostics::Diagnostic;
use crate::span::Span;
use num_bigint::BigInt;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

mod exceptions;
mod inputs;
mod startup;

type R<T> = Result<T, Diagnostic>;

/// Translates `program`; `entry` names the entry function (default: the last `main`, else
/// the last top-level function).
pub fn to_core(program: &Program, typing: &Typing, entry: Option<&str>) -> R<core::Program> {
    let mut t = Translator::new(typing);
    t.refs_as_values = refs_used_as_values(program, typing);
    t.declare_exceptions(program)?;
    let entry = t.top_level(program, entry)?;
    let mut main = t.main(&entry)?;
    t.drain_methods()?;
    t.unused_groups(entry.0)?;
    main.body = t.with_startup(main.body)?;
    Ok(t.finish(main))
}

/// How a variable is translated at a use.
#[derive(Clone, Debug)]
enum Entry {
    /// A core local variable of this name.
    Local(Rc<str>),
    /// A polymorphic local function: one core `let` per requested instance.
    LocalPoly(Rc<RefCell<Instances>>),
    /// A top-level function: member `member` of group `group`.
    TopFun { group: usize, member: usize },
    /// A top-level value that is translated again at each use (a constant or an alias).
    TopInline(Rc<Expr>, Vec<u32>),
    /// A top-level reference, by its core name.
    TopRef(Rc<str>),
    /// A top-level value computed at start-up, held in the `Store` reference of this name
    /// ([`startup`]).
    TopComputed(Rc<str>),
    /// A polymorphic top-level value computed at start-up: one `Store` reference per
    /// ground instance ([`startup`]).
    TopComputedPoly(Rc<startup::Startup>),
}

/// The instances of a polymorphic local function requested so far.
#[derive(Debug, Default)]
struct Instances {
    base: Rc<str>,
    requested: Vec<(Vec<Ty>, Rc<str>)>,
}

/// A top-level `let` group of functions.
struct TopGroup {
    bindings: Vec<(Name, Rc<Expr>)>,
    quantified: Vec<u32>,
    /// The method of every member, per ground instance of `quantified`.
    instances: HashMap<Vec<Ty>, Vec<core::MethodId>>,
}

struct Translator<'t> {
    typing: &'t Typing,
    entries: HashMap<VarId, Entry>,
    groups: Vec<TopGroup>,
    /// Active specialisations: quantified variables and the ground types they stand for.
    active: Vec<(Vec<u32>, Vec<Ty>)>,
    /// The instance of each group whose bodies are being translated (recursive uses).
    current: Vec<(usize, Vec<Ty>)>,
    methods: Vec<Option<core::Method>>,
    /// The name of every method slot, filled or not.
    placeholder_names: Vec<(core::MethodId, Rc<str>)>,
    pending: Vec<(usize, Vec<Ty>)>,
    store: Vec<core::RefDecl>,
    /// The top-level values computed at start-up, in definition order.
    startup: Vec<Rc<startup::Startup>>,
    used_names: HashMap<Rc<str>, u32>,
    /// The top-level references whose name is used as a value ([`refs_used_as_values`]).
    refs_as_values: HashSet<VarId>,
    /// The core's exceptions, and the id each name stands for.
    exceptions: Vec<core::ExnDecl>,
    exception_ids: HashMap<Rc<str>, core::ExnId>,
    exprs: u32,
    binders: u32,
    lambdas: u32,
    temps: u32,
}

impl<'t> Translator<'t> {
    fn new(typing: &'t Typing) -> Translator<'t> {
        Translator {
            typing,
            entries: HashMap::new(),
            groups: Vec::new(),
            active: Vec::new(),
            current: Vec::new(),
            methods: Vec::new(),
            placeholder_names: Vec::new(),
            pending: Vec::new(),
            store: Vec::new(),
            startup: Vec::new(),
            used_names: HashMap::new(),
            refs_as_values: HashSet::new(),
            exceptions: Vec::new(),
            exception_ids: HashMap::new(),
            exprs: 0,
            binders: 0,
            lambdas: 0,
            temps: 0,
        }
    }

    fn finish(self, main: core::MainDecl) -> core::Program {
        core::Program {
            store: self.store,
            exceptions: self.exceptions,
            methods: self.methods.into_iter().flatten().collect(),
            main,
            expr_count: self.exprs,
            binder_count: self.binders,
            lambda_count: self.lambdas,
        }
    }

    // ----- core builders -----

    fn mk(&mut self, span: Span, kind: core::ExprKind) -> core::Expr {
        let id = core::ExprId(self.exprs);
        self.exprs += 1;
        core::Expr { id, span, kind }
    }

    fn binder(&mut self, name: Rc<str>, span: Span, ty: core::Type) -> core::Binder {
        let id = core::BinderId(self.binders);
        self.binders += 1;
        core::Binder {
            id,
            name: core::Ident { name, span },
            ty,
        }
    }

    fn lambda(
        &mut self,
        params: Vec<core::Binder>,
        ret: core::Type,
        body: core::Expr,
        span: Span,
    ) -> Rc<core::Lambda> {
        self.new_lambda(params, ret, body, span, false)
    }

    fn new_lambda(
        &mut self,
        params: Vec<core::Binder>,
        ret: core::Type,
        body: core::Expr,
        span: Span,
        wrapper: bool,
    ) -> Rc<core::Lambda> {
        let id = core::LambdaId(self.lambdas);
        self.lambdas += 1;
        Rc::new(core::Lambda {
            id,
            params,
            ret,
            body,
            span,
            wrapper,
        })
    }

    fn var(&mut self, name: &Rc<str>, span: Span) -> core::Expr {
        let ident = core::Ident {
            name: name.clone(),
            span,
        };
        self.mk(span, core::ExprKind::Var(ident))
    }

    fn int(&mut self, value: i64, span: Span) -> core::Expr {
        self.mk(span, core::ExprKind::Int(BigInt::from(value)))
    }

    fn binary(
        &mut self,
        op: core::BinOp,
        lhs: core::Expr,
        rhs: core::Expr,
        span: Span,
    ) -> core::Expr {
        let kind = core::ExprKind::Binary {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        };
        self.mk(span, kind)
    }

    fn let_in(
        &mut self,
        binder: core::Binder,
        value: core::Expr,
        body: core::Expr,
        span: Span,
    ) -> core::Expr {
        let kind = core::ExprKind::Let {
            binder,
            value: Box::new(value),
            body: Box::new(body),
        };
        self.mk(span, kind)
    }

    /// `let (_:Unit) = first in then` (core sequencing: the value of `first` is dropped).
    fn seq(&mut self, first: core::Expr, then: core::Expr, span: Span) -> core::Expr {
        let b = self.binder("_".into(), span, core::Type::Unit);
        self.let_in(b, first, then, span)
    }

    fn if_then_else(
        &mut self,
        c: core::Expr,
        t: core::Expr,
        e: core::Expr,
        span: Span,
    ) -> core::Expr {
        let kind = core::ExprKind::If {
            cond: Box::new(c),
            then_branch: Box::new(t),
            else_branch: Box::new(e),
        };
        self.mk(span, kind)
    }

    /// A fresh core name that no OCaml variable can have.
    fn temp(&mut self, what: &str) -> Rc<str> {
        self.temps += 1;
        format!("${what}{}", self.temps).into()
    }

    /// A method name not used yet: `name`, else `name#2`, `name#3`, ...
    fn method_name(&mut self, name: &str) -> Rc<str> {
        let n = self.used_names.entry(name.into()).or_insert(0);
        *n += 1;
        if *n == 1 {
            name.into()
        } else {
            format!("{name}#{n}").into()
        }
    }

    // ----- types -----

    /// The ground OCaml type of `t` under the active specialisations (open variables: int).
    fn ground(&self, t: &Ty) -> Ty {
        let mut t = self.typing.subst.resolve(t);
        for (vars, with) in self.active.iter().rev() {
            t = substitute(&t, vars, with);
        }
        default_vars(&t)
    }

    /// The core type of the OCaml type `t`, or an error at `span` naming what is missing.
    fn core_type(&self, t: &Ty, span: Span) -> R<core::Type> {
        core_type(&self.ground(t), span)
    }

    fn expr_type(&self, e: &Expr) -> R<core::Type> {
        self.core_type(&self.typing.expr_types[e.id.0 as usize], e.span)
    }

    // ----- top level -----

    /// Records every top-level definition; returns the entry function's group and member.
    fn top_level(&mut self, program: &Program, entry: Option<&str>) -> R<(usize, usize)> {
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
    fn top_group(&mut self, group: &LetGroup) -> R<Vec<(Rc<str>, usize, usize)>> {
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
    fn top_value(&mut self, b: &Binding) -> R<()> {
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
    fn top_ref(
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
            core_type(&content, init.span)?
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
    fn declare_store(&mut self, name: &Rc<str>, span: Span, ty: core::Type, init: core::Expr) {
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
    fn ref_constant(&mut self, ref_name: &str, e: &Expr) -> R<core::Expr> {
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
    fn lift(&mut self, ref_name: &str, e: &Expr) -> R<Rc<str>> {
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
    fn method_for(&mut self, group: usize, member: usize, key: Vec<Ty>) -> core::MethodId {
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

    fn method_name_of(&self, id: core::MethodId) -> Rc<str> {
        self.placeholder_names
            .iter()
            .find(|(m, _)| *m == id)
            .map(|(_, n)| n.clone())
            .expect("internal error: a method without a name")
    }

    /// Translates the bodies of every requested method instance, until none is left.
    fn drain_methods(&mut self) -> R<()> {
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
    fn unused_groups(&mut self, entry: usize) -> R<()> {
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
    fn method(&mut self, id: core::MethodId, name: Rc<str>, value: &Expr) -> R<core::Method> {
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
    fn main(&mut self, (group, member): &(usize, usize)) -> R<core::MainDecl> {
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
    fn param_types(&self, value: &Expr) -> R<Vec<Ty>> {
        let value = strip_annot(value);
        match self.ground(&self.typing.expr_types[value.id.0 as usize]) {
            Ty::Fun(ps, _) => Ok(ps),
            _ => Err(internal(value.span, "a function without a function type")),
        }
    }

    /// Checks that the entry's inputs are `int`, `bool` or `unit`. A `bool` input is
    /// normalised to 0/1 (`let b = b <> 0 in ...`); a `()` parameter is no input.
    fn ground_inputs(
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
    fn function_parts(&mut self, value: &Expr) -> R<(Vec<core::Binder>, core::Type, core::Expr)> {
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
                let ret = core_type(&r, value.span)?;
                let name = self.temp("arg");
                let param =
                    self.binder(name.clone(), value.span, core_type(&types[0], value.span)?);
                let body = self.match_on(&name, cases, value.span)?;
                Ok((vec![param], ret, body))
            }
            _ => Err(internal(value.span, "a function definition without `fun`")),
        }
    }

    /// Binds the parameter patterns: a variable directly, anything else through a match.
    fn params_and_body(
        &mut self,
        patterns: &[Pattern],
        types: &[Ty],
        body: &Expr,
    ) -> R<(Vec<core::Binder>, core::Expr)> {
        let mut params = Vec::new();
        let mut destructure = Vec::new();
        for (p, t) in patterns.iter().zip(types) {
            let ty = core_type(t, p.span)?;
            match var_pattern(p) {
                Some((id, name)) => {
                    self.entries.insert(id, Entry::Local(name.text.clone()));
                    params.push(self.binder(name.text.clone(), name.span, ty));
                }
                None => {
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
    fn declare(&mut self, p: &Pattern) {
        let mut vars = Vec::new();
        collect_vars(p, &[], &mut vars);
        for (id, name, _) in vars {
            self.entries.insert(id, Entry::Local(name.text));
        }
    }

    /// `body` under the bindings of the irrefutable-or-not pattern `p` on variable `name`
    /// (a failed match is `Match_failure`).
    fn bind_pattern(&mut self, name: &Rc<str>, p: &Pattern, body: core::Expr) -> R<core::Expr> {
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

    // ----- expressions -----

    fn expr(&mut self, e: &Expr) -> R<core::Expr> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.expr_kind(e))
    }

    fn expr_kind(&mut self, e: &Expr) -> R<core::Expr> {
        let span = e.span;
        match &e.kind {
            ExprKind::Int(i) => Ok(self.mk(span, core::ExprKind::Int(i.clone()))),
            ExprKind::Bool(b) => Ok(self.int(*b as i64, span)),
            ExprKind::Unit => Ok(self.mk(span, core::ExprKind::Skip)),
            ExprKind::Str(_) => Err(unsupported(span, "strings")),
            ExprKind::Nil => {
                self.expr_type(e)?;
                Ok(self.mk(span, core::ExprKind::Nil))
            }
            ExprKind::Var(_) => self.variable(e),
            ExprKind::Construct(..) => Err(unsupported(
                span,
                "exception values other than the argument of `raise`",
            )),
            ExprKind::Fun(..) | ExprKind::Function(_) => {
                let (params, ret, body) = self.function_parts(e)?;
                let lambda = self.lambda(params, ret, body, span);
                Ok(self.mk(span, core::ExprKind::Fun(lambda)))
            }
            ExprKind::App(f, args) => self.application(e, f, args),
            ExprKind::Let(group, body) => self.let_expr(e, group, body),
            ExprKind::If(c, t, f) => {
                let c = self.expr(c)?;
                let t = self.expr(t)?;
                let f = match f {
                    Some(f) => self.expr(f)?,
                    None => self.mk(span, core::ExprKind::Skip),
                };
                Ok(self.if_then_else(c, t, f, span))
            }
            ExprKind::Seq(a, b) => {
                let a = self.expr(a)?;
                let b = self.expr(b)?;
                Ok(self.seq(a, b, span))
            }
            ExprKind::Match(scrutinee, cases) => {
                let name = self.temp("m");
                let ty = self.expr_type(scrutinee)?;
                let value = self.expr(scrutinee)?;
                let body = self.match_on(&name, cases, span)?;
                let b = self.binder(name, scrutinee.span, ty);
                Ok(self.let_in(b, value, body, span))
            }
            ExprKind::Try(body, cases) => self.try_with(span, body, cases),
            ExprKind::Tuple(items) => {
                self.expr_type(e)?;
                let mut parts = Vec::new();
                for item in items {
                    parts.push(self.expr(item)?);
                }
                Ok(self.nest_pairs(parts, span))
            }
            ExprKind::Cons(h, t) => {
                self.expr_type(e)?;
                let h = self.expr(h)?;
                let t = self.expr(t)?;
                Ok(self.mk(span, core::ExprKind::Cons(Box::new(h), Box::new(t))))
            }
            ExprKind::Binary(op, a, b) => self.binary_op(e, *op, a, b),
            ExprKind::Neg(x) => {
                let x = self.expr(x)?;
                Ok(self.mk(span, core::ExprKind::Neg(Box::new(x))))
            }
            ExprKind::Deref(r) => self.deref(r, span),
            ExprKind::Assign(r, v) => {
                if let Some(reference) = self.top_reference(r) {
                    let value = Box::new(self.expr(v)?);
                    return Ok(self.mk(span, core::ExprKind::Assign { reference, value }));
                }
                let target = Box::new(self.expr(r)?);
                let value = Box::new(self.expr(v)?);
                Ok(self.mk(span, core::ExprKind::Store { target, value }))
            }
            ExprKind::Assert(c) => {
                let never = matches!(c.kind, ExprKind::Bool(false))
                    && self.ground(&self.typing.expr_types[e.id.0 as usize]) != Ty::Unit;
                let c = self.expr(c)?;
                let assert = self.mk(span, core::ExprKind::Assert(Box::new(c)));
                if !never {
                    return Ok(assert);
                }
                // `assert false` where a value is expected: the assertion fails first, and
                // the `fail` after it (any type in the core) is never reached.
                let fail = self.mk(span, core::ExprKind::Fail);
                Ok(self.seq(assert, fail, span))
            }
            ExprKind::Annot(x, _) => self.expr(x),
        }
    }

    /// `e1, ..., en` as `Pair(e1, Pair(e2, ... en))`.
    fn nest_pairs(&mut self, mut parts: Vec<core::Expr>, span: Span) -> core::Expr {
        let mut acc = parts.pop().expect("internal error: an empty tuple");
        while let Some(p) = parts.pop() {
            acc = self.mk(span, core::ExprKind::Pair(Box::new(p), Box::new(acc)));
        }
        acc
    }

    fn binary_op(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr) -> R<core::Expr> {
        if matches!(op, BinOp::Eq | BinOp::Ne)
            && let Ty::Ref(_) = self.ground(&self.typing.expr_types[a.id.0 as usize])
        {
            return self.structural_ref_equality(e, op == BinOp::Eq, a, b);
        }
        let core_op = match op {
            BinOp::Add => core::BinOp::Add,
            BinOp::Sub => core::BinOp::Sub,
            BinOp::Mul => core::BinOp::Mul,
            BinOp::Div => core::BinOp::Div,
            BinOp::Mod => core::BinOp::Mod,
            BinOp::And => core::BinOp::And,
            BinOp::Or => core::BinOp::Or,
            BinOp::Eq | BinOp::PhysEq => core::BinOp::Eq,
            BinOp::Ne | BinOp::PhysNe => core::BinOp::Ne,
            BinOp::Lt => core::BinOp::Lt,
            BinOp::Le => core::BinOp::Le,
            BinOp::Gt => core::BinOp::Gt,
            BinOp::Ge => core::BinOp::Ge,
        };
        if !matches!(op, BinOp::And | BinOp::Or) {
            let ty = self.ground(&self.typing.expr_types[a.id.0 as usize]);
            comparable(op.symbol(), &ty, a.span)?;
        }
        let a = self.expr(a)?;
        let b = self.expr(b)?;
        Ok(self.binary(core_op, a, b, e.span))
    }

    /// `a = b` / `a <> b` on references: OCaml compares the contents (structural
    /// equality), here `!a = !b` (through as many `!` as the references nest), evaluating
    /// `a`, then `b`, once each. Contents other than `int` and `bool` are refused by name.
    fn structural_ref_equality(
        &mut self,
        e: &Expr,
        equal: bool,
        a: &Expr,
        b: &Expr,
    ) -> R<core::Expr> {
        let span = e.span;
        let ty = self.ground(&self.typing.expr_types[a.id.0 as usize]);
        let mut content = &ty;
        let mut loads = 0;
        while let Ty::Ref(inner) = content {
            content = inner;
            loads += 1;
        }
        if !matches!(content, Ty::Int | Ty::Bool) {
            return Err(unsupported(
                a.span,
                &format!(
                    "comparing references of type `{ty}` with `=` or `<>` (structural equality on references is supported when they hold `int` or `bool`; `==` compares cells)"
                ),
            ));
        }
        let core_ty = core_type(&ty, span)?;
        let mut operands = Vec::new();
        let mut bound = Vec::new();
        for side in [a, b] {
            let value = self.expr(side)?;
            let name = self.temp("r");
            let mut read = self.var(&name, span);
            for _ in 0..loads {
                read = self.mk(span, core::ExprKind::Load(Box::new(read)));
            }
            operands.push(read);
            bound.push((name, value));
        }
        let rhs = operands.pop().expect("two operands");
        let lhs = operands.pop().expect("two operands");
        let op = if equal {
            core::BinOp::Eq
        } else {
            core::BinOp::Ne
        };
        let mut result = self.binary(op, lhs, rhs, span);
        for (name, value) in bound.into_iter().rev() {
            let binder = self.binder(name, span, core_ty.clone());
            result = self.let_in(binder, value, result, span);
        }
        Ok(result)
    }

    /// The `Store` reference `r` names, if it is a top-level reference's name.
    fn top_reference(&self, r: &Expr) -> Option<core::Ident> {
        let var = match (&r.kind, self.typing.resolutions.get(&r.id)) {
            (ExprKind::Var(_), Some(Resolved::Var(v))) => *v,
            _ => return None,
        };
        match self.entries.get(&var) {
            Some(Entry::TopRef(name)) => Some(core::Ident {
                name: name.clone(),
                span: r.span,
            }),
            _ => None,
        }
    }

    /// `!r`: a top-level reference's `Store` entry, any other reference's cell.
    fn deref(&mut self, r: &Expr, span: Span) -> R<core::Expr> {
        if let Some(reference) = self.top_reference(r) {
            return Ok(self.mk(span, core::ExprKind::Deref(reference)));
        }
        let target = Box::new(self.expr(r)?);
        Ok(self.mk(span, core::ExprKind::Load(target)))
    }

    fn variable(&mut self, e: &Expr) -> R<core::Expr> {
        let span = e.span;
        match self.typing.resolutions.get(&e.id).copied() {
            Some(Resolved::Var(v)) => self.use_var(e, v),
            Some(Resolved::Prelude(name)) => self.prelude_value(e, name),
            None => Err(internal(span, "an unresolved variable")),
        }
    }

    /// The ground instance of the use `e` (the types of its quantified variables).
    fn instance_key(&self, e: &Expr) -> Vec<Ty> {
        match self.typing.instances.get(&e.id) {
            Some(types) => types.iter().map(|t| self.ground(t)).collect(),
            None => Vec::new(),
        }
    }

    fn use_var(&mut self, e: &Expr, v: VarId) -> R<core::Expr> {
        let span = e.span;
        self.expr_type(e)?;
        let entry = self
            .entries
            .get(&v)
            .cloned()
            .ok_or_else(|| internal(span, "a variable without a translation"))?;
        match entry {
            Entry::Local(name) => Ok(self.var(&name, span)),
            Entry::LocalPoly(instances) => {
                let key = self.instance_key(e);
                let name = request(&instances, key, &mut self.temps);
                Ok(self.var(&name, span))
            }
            Entry::TopFun { group, member } => {
                let key = match self.current.iter().rev().find(|(g, _)| *g == group) {
                    Some((_, key)) if !self.typing.instances.contains_key(&e.id) => key.clone(),
                    _ => self.instance_key(e),
                };
                let id = self.method_for(group, member, key);
                let name = self.method_name_of(id);
                Ok(self.var(&name, span))
            }
            Entry::TopInline(value, quantified) => {
                let key = self.instance_key(e);
                self.active.push((quantified, key));
                let result = self.expr(&value);
                self.active.pop();
                result
            }
            Entry::TopComputed(name) => {
                let reference = core::Ident { name, span };
                Ok(self.mk(span, core::ExprKind::Deref(reference)))
            }
            Entry::TopComputedPoly(startup) => {
                let key = self.instance_key(e);
                let name = self.startup_instance(&startup, key)?;
                let reference = core::Ident { name, span };
                Ok(self.mk(span, core::ExprKind::Deref(reference)))
            }
            // `refs_used_as_values` saw every use of a top-level reference as a value.
            Entry::TopRef(_) => Err(internal(
                span,
                "a top-level reference used as a value where only `!r` and `r := e` were expected",
            )),
        }
    }

    // ----- let -----

    fn let_expr(&mut self, e: &Expr, group: &LetGroup, body: &Expr) -> R<core::Expr> {
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
    fn let_and(&mut self, e: &Expr, group: &LetGroup, body: &Expr) -> R<core::Expr> {
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

    fn let_mono(
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
    fn let_rec_and(&mut self, group: &LetGroup, body: &Expr) -> R<core::Expr> {
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
    fn rec_nest(&mut self, members: &[(VarId, Name, &Expr)], body: core::Expr) -> R<core::Expr> {
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

    fn rec_lambda(&mut self, value: &Expr) -> R<Rc<core::Lambda>> {
        let (params, ret, body) = self.function_parts(value)?;
        Ok(self.lambda(params, ret, body, value.span))
    }

    /// A polymorphic local definition: the body first, then one `let` per instance it used.
    fn let_poly(
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

    fn let_instance(
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

    // ----- match -----

    /// The cases on the value of the core variable `name`, tried in order; no match fails.
    fn match_on(&mut self, name: &Rc<str>, cases: &[Case], span: Span) -> R<core::Expr> {
        let mut result = self.raise_named(span, "Match_failure");
        for (i, case) in cases.iter().enumerate().rev() {
            let certain = i + 1 == cases.len() && completes(&cases[..i], case);
            result = self.case(name, case, result, certain)?;
        }
        Ok(result)
    }

    /// One case tried before `otherwise`; when `certain` (the earlier cases leave only
    /// values it matches), without its test, so `otherwise` is dropped.
    fn case(
        &mut self,
        name: &Rc<str>,
        case: &Case,
        otherwise: core::Expr,
        certain: bool,
    ) -> R<core::Expr> {
        let span = case.pattern.span;
        self.declare(&case.pattern);
        let mut test = match certain {
            true => None,
            false => self.test(&case.pattern, name, &[])?,
        };
        if let Some(guard) = &case.guard {
            let g = self.expr(guard)?;
            let g = self.with_bindings(&case.pattern, name, g)?;
            test = Some(match test {
                Some(t) => self.binary(core::BinOp::And, t, g, span),
                None => g,
            });
        }
        let body = self.expr(&case.body)?;
        let body = self.with_bindings(&case.pattern, name, body)?;
        Ok(match test {
            None => body,
            Some(test) => self.if_then_else(test, body, otherwise, span),
        })
    }

    /// The core access to the part of `name` at `path`.
    fn access(&mut self, name: &Rc<str>, path: &[Step], span: Span) -> core::Expr {
        let mut e = self.var(name, span);
        for step in path {
            let kind = match step {
                Step::Fst => core::ExprKind::Proj {
                    which: core::Proj::Fst,
                    annot: None,
                    pair: Box::new(e),
                },
                Step::Snd => core::ExprKind::Proj {
                    which: core::Proj::Snd,
                    annot: None,
                    pair: Box::new(e),
                },
                Step::Hd => core::ExprKind::List(core::ListOp::Hd, Box::new(e)),
                Step::Tl => core::ExprKind::List(core::ListOp::Tl, Box::new(e)),
            };
            e = self.mk(span, kind);
        }
        e
    }

    /// The condition under which `p` matches the part of `name` at `path` (None: always).
    fn test(&mut self, p: &Pattern, name: &Rc<str>, path: &[Step]) -> R<Option<core::Expr>> {
        let span = p.span;
        Ok(match &p.kind {
            PatternKind::Wild | PatternKind::Var(..) | PatternKind::Unit => None,
            PatternKind::Int(i) => {
                let v = self.access(name, path, span);
                let lit = self.mk(span, core::ExprKind::Int(i.clone()));
                Some(self.binary(core::BinOp::Eq, v, lit, span))
            }
            PatternKind::Bool(true) => Some(self.access(name, path, span)),
            PatternKind::Bool(false) => {
                let v = self.access(name, path, span);
                let zero = self.int(0, span);
                Some(self.binary(core::BinOp::Eq, v, zero, span))
            }
            PatternKind::Nil => {
                let v = self.access(name, path, span);
                Some(self.mk(
                    span,
                    core::ExprKind::List(core::ListOp::IsEmpty, Box::new(v)),
                ))
            }
            PatternKind::Cons(h, t) => {
                let v = self.access(name, path, span);
                let empty = self.mk(
                    span,
                    core::ExprKind::List(core::ListOp::IsEmpty, Box::new(v)),
                );
                let zero = self.int(0, span);
                let nonempty = self.binary(core::BinOp::Eq, empty, zero, span);
                let h = self.test(h, name, &extend(path, Step::Hd))?;
                let t = self.test(t, name, &extend(path, Step::Tl))?;
                self.conjoin(vec![Some(nonempty), h, t], span)
            }
            PatternKind::Tuple(items) => {
                let mut tests = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    tests.push(self.test(item, name, &tuple_path(path, i, items.len()))?);
                }
                self.conjoin(tests, span)
            }
            PatternKind::Or(a, b) => {
                let a = self.test(a, name, path)?;
                let b = self.test(b, name, path)?;
                match (a, b) {
                    (Some(a), Some(b)) => Some(self.binary(core::BinOp::Or, a, b, span)),
                    _ => None,
                }
            }
            PatternKind::Alias(inner, ..) | PatternKind::Annot(inner, _) => {
                self.test(inner, name, path)?
            }
            PatternKind::Construct(..) => {
                return Err(unsupported(
                    span,
                    "exception patterns (`try ... with` is not yet supported)",
                ));
            }
        })
    }

    fn conjoin(&mut self, tests: Vec<Option<core::Expr>>, span: Span) -> Option<core::Expr> {
        tests
            .into_iter()
            .flatten()
            .reduce(|a, b| self.binary(core::BinOp::And, a, b, span))
    }

    /// `body` under `let x = <part of name>` for every variable of `p`.
    fn with_bindings(&mut self, p: &Pattern, name: &Rc<str>, body: core::Expr) -> R<core::Expr> {
        let mut vars = Vec::new();
        collect_vars(p, &[], &mut vars);
        let mut body = body;
        for (id, var_name, path) in vars.into_iter().rev() {
            let ty = self.core_type(&self.typing.var_types[id.0 as usize], var_name.span)?;
            self.entries.insert(id, Entry::Local(var_name.text.clone()));
            let value = self.access(name, &path, var_name.span);
            let binder = self.binder(var_name.text.clone(), var_name.span, ty);
            body = self.let_in(binder, value, body, p.span);
        }
        Ok(body)
    }
}

// ----- applications and the prelude -----

impl Translator<'_> {
    fn application(&mut self, e: &Expr, f: &Expr, args: &[Expr]) -> R<core::Expr> {
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
    fn apply(
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
    fn partial(
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
        let ty = core_type(&Ty::Fun(params.to_vec(), Box::new(result.clone())), span)?;
        let f = self.var(&name, span);
        let value = self.wrap_partial(span, args, &params[args.len()..], result, |t, all| {
            Ok(t.call(span, f, all))
        })?;
        let b = self.binder(name, span, ty);
        Ok(self.let_in(b, func, value, span))
    }

    fn call(&mut self, span: Span, func: core::Expr, args: Vec<core::Expr>) -> core::Expr {
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
    fn wrap_partial(
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
            wrapper_params.push(self.binder(tmp, span, core_type(p, span)?));
        }
        let body = body(self, all)?;
        let ret = core_type(&result, span)?;
        let lambda = self.new_lambda(wrapper_params, ret, body, span, true);
        let mut value = self.mk(span, core::ExprKind::Fun(lambda));
        for (tmp, ty, arg) in bound.into_iter().rev() {
            let b = self.binder(tmp, span, ty);
            value = self.let_in(b, arg, value, span);
        }
        Ok(value)
    }

    fn prelude_application(
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
    fn incr_decr(&mut self, span: Span, up: bool, r: &Expr) -> R<core::Expr> {
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
    fn special_prelude(&mut self, span: Span, name: &str, args: &[Expr]) -> R<Option<core::Expr>> {
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
            _ => return Ok(None),
        }))
    }

    /// A pure prelude function or operator applied to core arguments.
    fn primitive(&mut self, span: Span, name: &str, mut args: Vec<core::Expr>) -> R<core::Expr> {
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
    fn with_temp(
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
    fn prelude_partial(
        &mut self,
        e: &Expr,
        name: &'static str,
        params: &[Ty],
        result: Ty,
        args: &[Expr],
    ) -> R<core::Expr> {
        let span = e.span;
        self.wrap_partial(span, args, &params[args.len()..], result, |t, all| {
            t.primitive(span, name, all)
        })
    }

    fn prelude_value(&mut self, e: &Expr, name: &'static str) -> R<core::Expr> {
        let span = e.span;
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
            binders.push(self.binder(name.clone(), span, core_type(p, span)?));
            args.push(self.var(&name, span));
        }
        let body = self.primitive(span, name, args)?;
        let ret = core_type(&result, span)?;
        let lambda = self.lambda(binders, ret, body, span);
        Ok(self.mk(span, core::ExprKind::Fun(lambda)))
    }
}

// ----- helpers -----

/// One step into a value: a component of a pair, the head or tail of a list.
#[derive(Clone, Copy, Debug)]
enum Step {
    Fst,
    Snd,
    Hd,
    Tl,
}

fn extend(path: &[Step], step: Step) -> Vec<Step> {
    let mut p = path.to_vec();
    p.push(step);
    p
}

/// The path to component `i` of an `n`-tuple stored as nested pairs.
fn tuple_path(path: &[Step], i: usize, n: usize) -> Vec<Step> {
    let mut p = path.to_vec();
    p.extend(std::iter::repeat_n(Step::Snd, i));
    if i + 1 < n {
        p.push(Step::Fst);
    }
    p
}

/// The variables of `p` with the path to the part of the value each one names.
fn collect_vars(p: &Pattern, path: &[Step], out: &mut Vec<(VarId, Name, Vec<Step>)>) {
    match &p.kind {
        PatternKind::Var(id, name) => out.push((*id, name.clone(), path.to_vec())),
        PatternKind::Alias(inner, id, name) => {
            out.push((*id, name.clone(), path.to_vec()));
            collect_vars(inner, path, out);
        }
        PatternKind::Tuple(items) => {
            for (i, item) in items.iter().enumerate() {
                collect_vars(item, &tuple_path(path, i, items.len()), out);
            }
        }
        PatternKind::Cons(h, t) => {
            collect_vars(h, &extend(path, Step::Hd), out);
            collect_vars(t, &extend(path, Step::Tl), out);
        }
        PatternKind::Annot(inner, _) => collect_vars(inner, path, out),
        PatternKind::Construct(_, Some(inner)) => collect_vars(inner, path, out),
        _ => {}
    }
}

fn var_pattern(p: &Pattern) -> Option<(VarId, &Name)> {
    match &p.kind {
        PatternKind::Var(id, name) => Some((*id, name)),
        PatternKind::Annot(inner, _) => var_pattern(inner),
        _ => None,
    }
}

fn strip_annot(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Annot(x, _) => strip_annot(x),
        _ => e,
    }
}

fn is_function(e: &Expr) -> bool {
    matches!(
        strip_annot(e).kind,
        ExprKind::Fun(..) | ExprKind::Function(_)
    )
}

/// Whether `last` (the last case) matches every list the unguarded `earlier` cases leave:
/// `[] -> .. | h :: t -> ..` or `h :: t -> .. | [] -> ..` with irrefutable `h` and `t`. Its
/// test would always hold, so it is not made (a `match` on a list costs one test, as
/// `if is_empty l` does in BMC-2 syntax).
fn completes(earlier: &[Case], last: &Case) -> bool {
    let is_cons = |p: &Pattern| matches!(&p.kind, PatternKind::Cons(h, t) if irrefutable(h) && irrefutable(t));
    let is_nil = |p: &Pattern| matches!(p.kind, PatternKind::Nil);
    last.guard.is_none()
        && earlier.iter().filter(|c| c.guard.is_none()).any(|c| {
            (is_nil(&c.pattern) && is_cons(&last.pattern))
                || (is_cons(&c.pattern) && is_nil(&last.pattern))
        })
}

/// Whether `p` matches every value of its type.
fn irrefutable(p: &Pattern) -> bool {
    match &p.kind {
        PatternKind::Wild | PatternKind::Var(..) | PatternKind::Unit => true,
        PatternKind::Tuple(items) => items.iter().all(irrefutable),
        PatternKind::Alias(inner, ..) => irrefutable(inner),
        _ => false,
    }
}

/// A top-level value translated again at each use: constants, aliases, closures, and
/// tuples and lists of them.
fn is_inlinable(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_)
        | ExprKind::Bool(_)
        | ExprKind::Unit
        | ExprKind::Nil
        | ExprKind::Var(_)
        // A closure is a value: built again at each use, it behaves the same (OCaml code
        // cannot tell two closures apart), and building one costs no depth.
        | ExprKind::Fun(..)
        | ExprKind::Function(_) => true,
        ExprKind::Neg(x) | ExprKind::Annot(x, _) => is_inlinable(x),
        // `let id x = x in id`: the same value at each use (OCaml generalises it).
        ExprKind::Let(group, body) => {
            group.bindings.iter().all(|b| is_inlinable(&b.value)) && is_inlinable(body)
        }
        ExprKind::Tuple(items) => items.iter().all(is_inlinable),
        ExprKind::Cons(a, b) => is_inlinable(a) && is_inlinable(b),
        _ => false,
    }
}

/// Refuses a comparison `op` (as OCaml spells it) on operands of type `ty` that the core
/// cannot compare: ordering and `=` are on `int` and `bool`, physical equality (`==`,
/// `!=`) also on references (the same cell). `=` on references is translated before
/// this check ([`Translator::structural_ref_equality`]).
fn comparable(op: &str, ty: &Ty, span: Span) -> R<()> {
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
fn comparison_symbol(name: &str) -> Option<&str> {
    match name {
        "( = )" | "( <> )" | "( == )" | "( != )" | "( < )" | "( <= )" | "( > )" | "( >= )" => {
            Some(name.trim_start_matches("( ").trim_end_matches(" )"))
        }
        _ => None,
    }
}

/// Whether the core expression `e` is a constant the core accepts as a `Store` reference's
/// initial value (the core checker's rule, `typecheck.rs`).
fn is_core_constant(e: &core::Expr) -> bool {
    match &e.kind {
        core::ExprKind::Int(_)
        | core::ExprKind::Skip
        | core::ExprKind::Nil
        | core::ExprKind::Var(_) => true,
        core::ExprKind::Pair(a, b) | core::ExprKind::Cons(a, b) => {
            is_core_constant(a) && is_core_constant(b)
        }
        core::ExprKind::Alloc(a) => is_core_constant(a),
        _ => false,
    }
}

/// The top-level references (`let r = ref c`) whose name is used as a value somewhere:
/// anywhere but as the operand of `!`, the left of `:=`, or the argument of `incr`/`decr`.
fn refs_used_as_values(program: &Program, typing: &Typing) -> HashSet<VarId> {
    let mut top_refs = HashSet::new();
    for item in &program.items {
        let Item::Let(group) = item else { continue };
        for b in &group.bindings {
            if let Some((id, _)) = var_pattern(&b.pattern)
                && ref_init(typing, &b.value).is_some()
            {
                top_refs.insert(id);
            }
        }
    }
    let mut used = HashSet::new();
    if top_refs.is_empty() {
        return used;
    }
    let mut work: Vec<&Expr> = Vec::new();
    for item in &program.items {
        let Item::Let(group) = item else { continue };
        work.extend(group.bindings.iter().map(|b| &b.value));
    }
    let var_of = |e: &Expr| match (&e.kind, typing.resolutions.get(&e.id)) {
        (ExprKind::Var(_), Some(Resolved::Var(v))) => Some(*v),
        _ => None,
    };
    while let Some(e) = work.pop() {
        // The operand in a reference position is not a use as a value.
        let place = match &e.kind {
            ExprKind::Deref(r) | ExprKind::Assign(r, _) => Some(&**r),
            ExprKind::App(f, args)
                if args.len() == 1
                    && matches!(
                        typing.resolutions.get(&f.id),
                        Some(Resolved::Prelude("incr" | "decr"))
                    ) =>
            {
                Some(&args[0])
            }
            _ => None,
        };
        if let Some(v) = var_of(e)
            && top_refs.contains(&v)
        {
            used.insert(v);
        }
        for child in children(e) {
            if place.is_some_and(|p| std::ptr::eq(p, child) && var_of(p).is_some()) {
                continue;
            }
            work.push(child);
        }
    }
    used
}

/// The initial value of `ref v`, if `e` is that.
fn ref_init<'e>(typing: &Typing, e: &'e Expr) -> Option<&'e Expr> {
    match &strip_annot(e).kind {
        ExprKind::App(f, args) if args.len() == 1 => match typing.resolutions.get(&f.id) {
            Some(Resolved::Prelude("ref")) => Some(&args[0]),
            _ => None,
        },
        _ => None,
    }
}

/// `t` with every type variable replaced by `int`.
fn default_vars(t: &Ty) -> Ty {
    match t {
        Ty::Var(_) => Ty::Int,
        Ty::List(a) => Ty::List(Box::new(default_vars(a))),
        Ty::Ref(a) => Ty::Ref(Box::new(default_vars(a))),
        Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(default_vars).collect()),
        Ty::Fun(ps, r) => Ty::fun(ps.iter().map(default_vars).collect(), default_vars(r)),
        other => other.clone(),
    }
}

/// The core type of a ground OCaml type.
fn core_type(t: &Ty, span: Span) -> R<core::Type> {
    Ok(match t {
        Ty::Int | Ty::Bool | Ty::Var(_) => core::Type::Int,
        Ty::Unit => core::Type::Unit,
        Ty::List(a) => core::Type::list(core_type(a, span)?),
        Ty::Tuple(ts) => {
            let mut parts = ts
                .iter()
                .map(|t| core_type(t, span))
                .collect::<R<Vec<_>>>()?;
            let mut acc = parts.pop().expect("internal error: an empty tuple type");
            while let Some(p) = parts.pop() {
                acc = core::Type::pair(p, acc);
            }
            acc
        }
        Ty::Fun(ps, r) => core::Type::arrow(
            ps.iter()
                .map(|p| core_type(p, span))
                .collect::<R<Vec<_>>>()?,
            core_type(r, span)?,
        ),
        Ty::Ref(content) => core::Type::reference(core_type(content, span)?),
        Ty::Exn => return Err(unsupported(span, "exception values (other than `raise E`)")),
        Ty::Str => return Err(unsupported(span, "strings")),
    })
}

/// The name of the instance `key` of a polymorphic local function, requested if new.
fn request(instances: &Rc<RefCell<Instances>>, key: Vec<Ty>, counter: &mut u32) -> Rc<str> {
    let mut inst = instances.borrow_mut();
    if let Some((_, name)) = inst.requested.iter().find(|(k, _)| *k == key) {
        return name.clone();
    }
    let name: Rc<str> = if inst.requested.is_empty() {
        inst.base.clone()
    } else {
        *counter += 1;
        format!("{}#{}", inst.base, counter).into()
    };
    inst.requested.push((key, name.clone()));
    name
}

fn no_entry(message: &str) -> Diagnostic {
    Diagnostic::error(Span::new(0, 0), message.to_string(), "no entry function")
}

fn internal(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(
        span,
        format!("internal error in the OCaml translation: {what}"),
        "here",
    )
}
