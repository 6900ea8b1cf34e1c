//! A whole-program points-to analysis over function names (0-CFA style, docs/ir.md).
//!
//! The abstract value of an expression of type `T` is one set of function names per arrow
//! position of `T` (the arrow components of `T` once pairs are flattened, see
//! [`arrow_positions`]). Every binder, every reference and every function's result is one
//! node; the analysis re-evaluates the whole program, joining values into nodes, until no
//! node grows. A list has the arrow positions of its element type, joined over its elements
//! (`h :: t` joins `h` into `t`; `hd` and `tl` keep them). Flows go through variables,
//! arguments, returns, pairs, lists, closures' captured
//! variables (a captured variable is the same binder node inside and outside the `fun`),
//! `Store:` references, and allocated cells: every cell of type `Ref T` shares one node,
//! `T`'s heap node (a `Ref T` value itself is an address, with no arrow position), so what
//! any cell of that type may hold is what every read of such a cell may return. Datatypes
//! (the OCaml front end's recursive variants) are joined the same way: a datatype value
//! has no arrow position of its own, and each field of each constructor of a datatype is
//! one node (`Construct` joins its arguments into its fields' nodes, `Field` reads the
//! node), so what any value of the datatype may hold in that field is what every read of
//! that field may return, however deeply the values are nested. An exception's argument is
//! one node per exception: each `raise` joins into it, each handler's binder reads it.
//!
//! Guarantee (soundness): in every concrete run, the function a dispatch site applies is
//! one of that site's candidates ([`PointsTo::candidates`]). A site with no candidate is
//! never reached with a function value.

use crate::core_lang::ast::*;
use crate::core_lang::typecheck::{NamedCell, Resolution, TypeInfo};
use crate::core_lang::visit::{children, walk};
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

/// A function name: a method or a lambda (`fun` or `let rec` function).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FunName {
    Method(MethodId),
    Lambda(LambdaId),
}

/// One name set per arrow position of a type.
pub type AbsValue = Vec<BTreeSet<FunName>>;

/// The arrow types inside `ty`, in the order pairs are flattened (left to right).
pub fn arrow_positions(ty: &Type) -> Vec<&Type> {
    let mut out = Vec::new();
    collect_arrows(ty, &mut out);
    out
}

fn collect_arrows<'t>(ty: &'t Type, out: &mut Vec<&'t Type>) {
    match ty {
        // A datatype's fields are nodes of their own (see the module doc), as a cell's
        // content is.
        Type::Int | Type::Unit | Type::Ref(_) | Type::Data(_) => {}
        // A list holds the functions its elements hold: one node per arrow position of
        // the element type, joined over all elements.
        Type::List(element) => collect_arrows(element, out),
        Type::Arrow(..) => out.push(ty),
        Type::Pair(a, b) => {
            collect_arrows(a, out);
            collect_arrows(b, out);
        }
    }
}

fn arrow_count(ty: &Type) -> usize {
    arrow_positions(ty).len()
}

/// The result: the candidate names of every application whose function is not known
/// statically.
#[derive(Debug, Default)]
pub struct PointsTo {
    candidates: HashMap<ExprId, BTreeSet<FunName>>,
    /// How many whole-program passes the fixpoint took.
    pub passes: usize,
}

impl PointsTo {
    /// The names the function of the application `app` may be (empty if it can never run).
    pub fn candidates(&self, app: ExprId) -> &BTreeSet<FunName> {
        static EMPTY: BTreeSet<FunName> = BTreeSet::new();
        self.candidates.get(&app).unwrap_or(&EMPTY)
    }
}

/// Runs the analysis to its fixpoint.
pub fn analyse(program: &Program, info: &TypeInfo) -> PointsTo {
    let mut analysis = Analysis {
        program,
        info,
        binders: HashMap::new(),
        refs: vec![Vec::new(); program.store.len()],
        heap: HashMap::new(),
        data: HashMap::new(),
        exn_args: HashMap::new(),
        method_returns: vec![Vec::new(); program.methods.len()],
        lambda_returns: HashMap::new(),
        lambdas: HashMap::new(),
        changed: false,
        candidates: HashMap::new(),
    };
    analysis.collect_lambdas();
    let mut passes = 0;
    loop {
        passes += 1;
        analysis.changed = false;
        analysis.pass();
        if !analysis.changed {
            break;
        }
    }
    PointsTo {
        candidates: analysis.candidates,
        passes,
    }
}

struct Analysis<'p> {
    program: &'p Program,
    info: &'p TypeInfo,
    binders: HashMap<BinderId, AbsValue>,
    refs: Vec<AbsValue>,
    /// What the cells of type `Ref T` may hold, by `T`.
    heap: HashMap<Type, AbsValue>,
    /// What a field of a datatype's constructor may hold, by datatype, constructor and
    /// field.
    data: HashMap<(Rc<str>, u32, u32), AbsValue>,
    /// What the argument of each exception may hold: every `raise` joins its argument in,
    /// every handler's binder of that exception reads it.
    exn_args: HashMap<ExnId, AbsValue>,
    method_returns: Vec<AbsValue>,
    lambda_returns: HashMap<LambdaId, AbsValue>,
    lambdas: HashMap<LambdaId, &'p Lambda>,
    changed: bool,
    candidates: HashMap<ExprId, BTreeSet<FunName>>,
}

/// Joins `from` into `into` (growing `into` to the right length); true if `into` grew.
fn join_into(into: &mut AbsValue, from: &AbsValue) -> bool {
    if into.len() < from.len() {
        into.resize(from.len(), BTreeSet::new());
    }
    let mut grew = false;
    for (set, extra) in into.iter_mut().zip(from) {
        for name in extra {
            grew |= set.insert(*name);
        }
    }
    grew
}

fn join(a: AbsValue, b: &AbsValue) -> AbsValue {
    let mut a = a;
    join_into(&mut a, b);
    a
}

impl<'p> Analysis<'p> {
    fn collect_lambdas(&mut self) {
        let mut found: Vec<&'p Lambda> = Vec::new();
        let mut visit = |e: &'p Expr| match &e.kind {
            ExprKind::Fun(l) | ExprKind::LetRec { lambda: l, .. } => found.push(l),
            _ => {}
        };
        for body in self.bodies() {
            walk(body, &mut visit);
        }
        for lambda in found {
            self.lambdas.insert(lambda.id, lambda);
        }
    }

    fn bodies(&self) -> Vec<&'p Expr> {
        let program = self.program;
        let mut bodies: Vec<&'p Expr> = program.store.iter().map(|d| &d.init).collect();
        bodies.extend(program.methods.iter().map(|m| &m.body));
        bodies.push(&program.main.body);
        bodies
    }

    fn pass(&mut self) {
        let program = self.program;
        for decl in &program.store {
            let value = self.eval(&decl.init);
            self.flow_ref(decl.id, &value);
        }
        for method in &program.methods {
            let value = self.eval(&method.body);
            let slot = &mut self.method_returns[method.id.index()];
            self.changed |= join_into(slot, &value);
        }
        self.eval(&program.main.body);
    }

    fn flow_binder(&mut self, binder: BinderId, value: &AbsValue) {
        let slot = self.binders.entry(binder).or_default();
        self.changed |= join_into(slot, value);
    }

    fn flow_ref(&mut self, r: RefId, value: &AbsValue) {
        self.changed |= join_into(&mut self.refs[r.index()], value);
    }

    fn flow_heap(&mut self, content: &Type, value: &AbsValue) {
        let slot = self.heap.entry(content.clone()).or_default();
        self.changed |= join_into(slot, value);
    }

    /// What a cell of type `Ref content` may hold.
    fn heap_value(&self, content: &Type) -> AbsValue {
        let mut value = self.heap.get(content).cloned().unwrap_or_default();
        value.resize(arrow_count(content), BTreeSet::new());
        value
    }

    fn empty(&self, e: &Expr) -> AbsValue {
        vec![BTreeSet::new(); arrow_count(self.info.type_of(e))]
    }

    fn single(name: FunName) -> AbsValue {
        vec![BTreeSet::from([name])]
    }

    /// The abstract value of `e`, flowing what it does into the nodes on the way.
    fn eval(&mut self, e: &'p Expr) -> AbsValue {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.eval_kind(e))
    }

    fn eval_kind(&mut self, e: &'p Expr) -> AbsValue {
        match &e.kind {
            ExprKind::Var(_) => match self.info.resolution(e) {
                Some(Resolution::Local(b)) => self.binders.get(&b).cloned().unwrap_or_default(),
                Some(Resolution::Method(m)) => Self::single(FunName::Method(m)),
                None => self.empty(e),
            },
            ExprKind::Fun(lambda) => {
                self.lambda_body(lambda);
                Self::single(FunName::Lambda(lambda.id))
            }
            ExprKind::App { func, args } => self.application(e, func, args),
            ExprKind::Let {
                binder,
                value,
                body,
            } => {
                let value = self.eval(value);
                if binder.ty != Type::Unit {
                    self.flow_binder(binder.id, &value);
                }
                self.eval(body)
            }
            ExprKind::LetRec {
                binder,
                lambda,
                body,
            } => {
                self.flow_binder(binder.id, &Self::single(FunName::Lambda(lambda.id)));
                self.lambda_body(lambda);
                self.eval(body)
            }
            ExprKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                self.eval(cond);
                let a = self.eval(then_branch);
                let b = self.eval(else_branch);
                join(a, &b)
            }
            ExprKind::Assign { value: v, .. } => {
                let value = self.eval(v);
                match self.info.cell(e) {
                    Some(NamedCell::Store(r)) => self.flow_ref(r, &value),
                    Some(NamedCell::Local(_)) => self.flow_heap(self.info.type_of(v), &value),
                    None => {}
                }
                Vec::new()
            }
            ExprKind::Deref(_) => match self.info.cell(e) {
                Some(NamedCell::Store(r)) => self.refs[r.index()].clone(),
                Some(NamedCell::Local(_)) => self.heap_value(self.info.type_of(e)),
                None => self.empty(e),
            },
            ExprKind::Alloc(content) => {
                let value = self.eval(content);
                self.flow_heap(self.info.type_of(content), &value);
                Vec::new()
            }
            ExprKind::Offset { base, index } => {
                // An address, like any `Ref T` value: no arrow position.
                self.eval(base);
                self.eval(index);
                Vec::new()
            }
            ExprKind::Load(target) => {
                self.eval(target);
                self.heap_value(self.info.type_of(e))
            }
            ExprKind::Store { target, value: v } => {
                self.eval(target);
                let value = self.eval(v);
                self.flow_heap(self.info.type_of(v), &value);
                Vec::new()
            }
            ExprKind::Pair(a, b) => {
                let mut value = self.eval(a);
                value.resize(arrow_count(self.info.type_of(a)), BTreeSet::new());
                value.extend(self.eval(b));
                value
            }
            ExprKind::Proj { which, pair, .. } => self.projection(*which, pair),
            ExprKind::Nil => self.empty(e),
            ExprKind::Cons(head, tail) => {
                let mut value = self.eval(head);
                value.resize(arrow_count(self.info.type_of(head)), BTreeSet::new());
                let rest = self.eval(tail);
                join(value, &rest)
            }
            ExprKind::List(op, list) => {
                let value = self.eval(list);
                match op {
                    ListOp::Hd | ListOp::Tl => value,
                    ListOp::IsEmpty => Vec::new(),
                }
            }
            ExprKind::Construct { data, ctor, args } => {
                for (field, arg) in args.iter().enumerate() {
                    let value = self.eval(arg);
                    let key = (data.clone(), *ctor, field as u32);
                    let slot = self.data.entry(key).or_default();
                    self.changed |= join_into(slot, &value);
                }
                Vec::new()
            }
            ExprKind::Field { ctor, field, value } => {
                self.eval(value);
                let Type::Data(name) = self.info.type_of(value) else {
                    return self.empty(e);
                };
                let mut held = (self.data)
                    .get(&(name.clone(), *ctor, *field))
                    .cloned()
                    .unwrap_or_default();
                held.resize(arrow_count(self.info.type_of(e)), BTreeSet::new());
                held
            }
            ExprKind::Raise {
                exn,
                arg: Some(arg),
            } => {
                let value = self.eval(arg);
                let slot = self.exn_args.entry(*exn).or_default();
                self.changed |= join_into(slot, &value);
                self.empty(e)
            }
            ExprKind::Try { body, handlers } => {
                let mut value = self.eval(body);
                for handler in handlers {
                    if let (Some(exn), Some(binder)) = (handler.exn, &handler.arg) {
                        let held = self.exn_args.get(&exn).cloned().unwrap_or_default();
                        self.flow_binder(binder.id, &held);
                    }
                    let handled = self.eval(&handler.body);
                    value = join(value, &handled);
                }
                value
            }
            _ => {
                for child in children(e) {
                    self.eval(child);
                }
                Vec::new()
            }
        }
    }

    fn projection(&mut self, which: Proj, pair: &'p Expr) -> AbsValue {
        let mut value = self.eval(pair);
        let Type::Pair(first, _) = self.info.type_of(pair) else {
            return value;
        };
        value.resize(arrow_count(self.info.type_of(pair)), BTreeSet::new());
        let split = arrow_count(first);
        match which {
            Proj::Fst => {
                value.truncate(split);
                value
            }
            Proj::Snd => value.split_off(split),
        }
    }

    fn lambda_body(&mut self, lambda: &'p Lambda) {
        let value = self.eval(&lambda.body);
        let slot = self.lambda_returns.entry(lambda.id).or_default();
        self.changed |= join_into(slot, &value);
    }

    fn application(&mut self, app: &'p Expr, func: &'p Expr, args: &'p [Expr]) -> AbsValue {
        let callees = self.eval(func).into_iter().next().unwrap_or_default();
        let arg_values: Vec<AbsValue> = args.iter().map(|a| self.eval(a)).collect();
        let mut result = self.empty(app);
        for callee in &callees {
            self.flow_arguments(*callee, &arg_values);
            let returned = self.returns_of(*callee);
            join_into(&mut result, &returned);
        }
        self.candidates.insert(app.id, callees);
        result
    }

    fn params_of(&self, callee: FunName) -> &'p [Binder] {
        match callee {
            FunName::Method(m) => &self.program.method(m).params,
            FunName::Lambda(l) => &self.lambdas[&l].params,
        }
    }

    fn returns_of(&self, callee: FunName) -> AbsValue {
        match callee {
            FunName::Method(m) => self.method_returns[m.index()].clone(),
            FunName::Lambda(l) => self.lambda_returns.get(&l).cloned().unwrap_or_default(),
        }
    }

    fn flow_arguments(&mut self, callee: FunName, args: &[AbsValue]) {
        let params = self.params_of(callee);
        for (param, value) in params.iter().zip(args) {
            self.flow_binder(param.id, value);
        }
    }
}
