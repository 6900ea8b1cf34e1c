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

mod applications;
mod arrays;
mod declarations;
mod equality;
mod exceptions;
mod exn_values;
mod inputs;
mod lets;
mod matching;
mod paths;
mod records;
mod startup;
mod variants;

use applications::comparable;
use paths::collect_vars;

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
    /// The message of `Failure s` (or of another exception carrying a `string`): it has no
    /// core value, so it may only be an argument of `print_string` & co., `failwith`,
    /// `invalid_arg` or such an exception ([`exceptions`]); any other use is an error.
    Message,
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
    /// The exceptions carrying a `string` (`Failure`, ...): no argument in the core.
    messages: HashSet<core::ExnId>,
    /// The local exceptions (`let exception`), by the span of their name.
    local_exceptions: HashMap<Span, core::ExnId>,
    /// The local exceptions in scope, with the core variable holding their instance's stamp.
    stamps: HashMap<core::ExnId, Rc<str>>,
    /// The core datatypes of the recursive variants' instances ([`variants`]).
    datatypes: RefCell<variants::DataRegistry>,
    /// The method comparing two values of each list or recursive variant type ([`equality`]).
    equalities: HashMap<Ty, Rc<str>>,
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
            messages: HashSet::new(),
            local_exceptions: HashMap::new(),
            stamps: HashMap::new(),
            datatypes: RefCell::default(),
            equalities: HashMap::new(),
            exprs: 0,
            binders: 0,
            lambdas: 0,
            temps: 0,
        }
    }

    fn finish(self, main: core::MainDecl) -> core::Program {
        self.datatypes.borrow_mut().set_exceptions(&self.exceptions);
        core::Program {
            store: self.store,
            ints: core::IntModel::OCaml {
                overflow_checks: false,
            },
            exceptions: self.exceptions,
            datatypes: self.datatypes.into_inner().decls,
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
    fn type_cx(&self) -> variants::TypeCx<'_> {
        variants::TypeCx {
            variants: &self.typing.variants,
            data: &self.datatypes,
        }
    }

    fn core_type(&self, t: &Ty, span: Span) -> R<core::Type> {
        core_type(&self.type_cx(), &self.ground(t), span)
    }

    /// Whether the variable `v` is a `string` (the message of an exception: see
    /// [`Entry::Message`]).
    fn is_message(&self, v: VarId) -> bool {
        self.ground(&self.typing.var_types[v.0 as usize]) == Ty::Str
    }

    fn expr_type(&self, e: &Expr) -> R<core::Type> {
        self.core_type(&self.typing.expr_types[e.id.0 as usize], e.span)
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
            ExprKind::Construct(_, arg) if self.typing.ctor_of_expr.contains_key(&e.id) => {
                let ctor = self.typing.ctor_of_expr[&e.id];
                self.variant_value(e, ctor, arg.as_deref())
            }
            ExprKind::Construct(name, arg) => self.exception_value(span, name, arg.as_deref()),
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
            ExprKind::Open(_, body) => self.expr(body),
            ExprKind::LetException(name, _, body) => self.let_exception(span, name, body),
            ExprKind::Record(fields, base) => self.record(e, fields, base.as_deref()),
            ExprKind::Field(record, field) => self.field(e, record, field, None),
            ExprKind::SetField(record, field, value) => self.field(e, record, field, Some(value)),
            ExprKind::MatchExn(scrutinee, cases, exceptions) => {
                self.match_with_exceptions(e, scrutinee, cases, exceptions)
            }
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
            && let Ty::Ref(_) | Ty::Tuple(_) | Ty::Data(..) | Ty::Unit =
                self.ground(&self.typing.expr_types[a.id.0 as usize])
        {
            return self.structural_equality(e, op == BinOp::Eq, a, b);
        }
        // `l = []` / `l <> []`: whether `l` is empty (OCaml's structural equality with the
        // empty list; other list comparisons are the recursion of [`equality`]).
        if matches!(op, BinOp::Eq | BinOp::Ne)
            && (matches!(a.kind, ExprKind::Nil) || matches!(b.kind, ExprKind::Nil))
        {
            let list = match b.kind {
                ExprKind::Nil => self.expr(a)?,
                _ => self.expr(b)?,
            };
            let test = self.mk(
                e.span,
                core::ExprKind::List(core::ListOp::IsEmpty, Box::new(list)),
            );
            return Ok(match op {
                BinOp::Eq => test,
                _ => {
                    let zero = self.int(0, e.span);
                    self.binary(core::BinOp::Eq, test, zero, e.span)
                }
            });
        }
        if matches!(op, BinOp::Eq | BinOp::Ne)
            && let Ty::List(_) = self.ground(&self.typing.expr_types[a.id.0 as usize])
        {
            return self.structural_equality(e, op == BinOp::Eq, a, b);
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
        if let Some(Entry::Message) = self.entries.get(&v) {
            return Err(unsupported(
                span,
                "the message of an exception (`Failure s`) used other than as the argument of `print_string`, `print_endline`, `failwith`, `invalid_arg` or an exception carrying a `string`",
            ));
        }
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
            Entry::Message => Err(internal(span, "a message used as a value")),
        }
    }
}

// ----- helpers -----

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
        core::ExprKind::Construct { args, .. } => args.iter().all(is_core_constant),
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
        Ty::Array(a) => Ty::Array(Box::new(default_vars(a))),
        Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(default_vars).collect()),
        Ty::Data(id, name, ts) => {
            Ty::Data(*id, name.clone(), ts.iter().map(default_vars).collect())
        }
        Ty::Fun(ps, r) => Ty::fun(ps.iter().map(default_vars).collect(), default_vars(r)),
        other => other.clone(),
    }
}

/// The core type of a ground OCaml type (a variant's as [`variants`] lays it out).
fn core_type(cx: &variants::TypeCx, t: &Ty, span: Span) -> R<core::Type> {
    core_type_within(cx, t, span, &mut Vec::new())
}

/// [`core_type`], inside the variant instances `within` (an instance within itself is
/// refused, a defect detector: a non-recursive variant's instance holds only instances
/// built from its arguments, so `int option option` holds `int option`, a smaller one).
fn core_type_within(
    cx: &variants::TypeCx,
    t: &Ty,
    span: Span,
    within: &mut Vec<Ty>,
) -> R<core::Type> {
    let variants = cx.variants;
    let mut go = |t: &Ty| core_type_within(cx, t, span, within);
    Ok(match t {
        Ty::Int | Ty::Bool | Ty::Var(_) => core::Type::Int,
        Ty::Unit => core::Type::Unit,
        Ty::List(a) => core::Type::list(go(a)?),
        Ty::Tuple(ts) => {
            let parts = ts.iter().map(go).collect::<R<Vec<_>>>()?;
            nest_pair_types(parts)
        }
        Ty::Fun(ps, r) => {
            let ps = ps.iter().map(&mut go).collect::<R<Vec<_>>>()?;
            core::Type::arrow(ps, go(r)?)
        }
        Ty::Ref(content) => core::Type::reference(go(content)?),
        // An array is its length and the address of its first cell (docs/ocaml.md, "Arrays").
        Ty::Array(element) => {
            core::Type::pair(core::Type::Int, core::Type::reference(go(element)?))
        }
        Ty::Data(id, _, args) if variants[*id].recursive => {
            variants::datatype_of(cx, *id, args, span)?
        }
        Ty::Data(id, name, args) => {
            if within.contains(t) {
                return Err(internal(
                    span,
                    &format!("the variant `{name}` contains itself but is not recursive"),
                ));
            }
            let variant = &variants[*id];
            within.push(t.clone());
            let mut slots = Vec::new();
            for c in 0..variant.ctors.len() {
                if let Some(arg) = variant.arg_type(c, args) {
                    slots.push(core_type_within(cx, &arg, span, within)?);
                }
            }
            within.pop();
            variants::layout(slots)
        }
        Ty::Exn => variants::exn_datatype(cx),
        Ty::Str => return Err(unsupported(span, "strings")),
    })
}

/// `t1 * .. * tn` as the core's nested pairs.
fn nest_pair_types(mut parts: Vec<core::Type>) -> core::Type {
    let mut acc = parts.pop().expect("internal error: an empty tuple type");
    while let Some(p) = parts.pop() {
        acc = core::Type::pair(p, acc);
    }
    acc
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
