//! The clause generator: walks every method body, every `fun` and `Main` path by path
//! (call-by-value, left to right), keeping the path's facts, the current values of the
//! `Int` globals and an abstract [`Value`] per variable.
//!
//! Guarantee: every path of every function body that can reach an `assert`/`fail` gets a
//! goal clause (its facts, and the assertion false, imply `false`); every call on a path
//! requires the callee's `pre` and assumes its `post`; every return establishes the
//! function's `post`. Paths are enumerated (no disjunctions), up to [`MAX_PATHS`] per
//! expression; beyond that the program is [`Unsupported`].

use super::subtype::{self, Sink};
use super::template::{FunTemplate, Relations, apply, int_roles};
use super::value::{FunValue, Value, instantiate};
use super::{Ghost, Unsupported};
use crate::core_lang::ast::*;
use crate::core_lang::names::FunctionNames;
use crate::core_lang::typecheck::{Resolution, TypeInfo};
use crate::vc::horn::HornSystem;
use num_bigint::BigInt;
use num_traits::Signed;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// How many paths one expression may have before the program is refused.
pub const MAX_PATHS: usize = 256;

/// How many clauses a program may have before it is refused.
pub const MAX_CLAUSES: usize = 50_000;

/// Where a path stands: what holds on it and the current values of the `Int` globals.
#[derive(Clone, Debug)]
struct Path {
    facts: Vec<String>,
    globals: Vec<String>,
}

/// What is in scope: the variables' values, the integers (role, term) in binding order,
/// and the first ghost of the enclosing method, if it has ghosts.
#[derive(Clone, Debug, Default)]
struct Scope {
    env: HashMap<BinderId, Value>,
    ints: Vec<(String, String)>,
    context: Option<String>,
    /// The method whose body this is (its index; `Main`: the number of methods), for
    /// [`Ghost::SitedInnermost`].
    site: usize,
}

impl Scope {
    fn roles(&self) -> Vec<String> {
        self.ints.iter().map(|(r, _)| r.clone()).collect()
    }

    fn terms(&self) -> Vec<String> {
        self.ints.iter().map(|(_, t)| t.clone()).collect()
    }

    /// The ghost argument of a call made here (see [`Ghost`]).
    fn ghosts(&self, ghost: Ghost) -> Vec<String> {
        let inner = self
            .ints
            .last()
            .map_or_else(|| "0".into(), |(_, t)| t.clone());
        match ghost {
            Ghost::Context => vec![self.context.clone().unwrap_or(inner)],
            Ghost::Innermost => vec![inner],
            Ghost::SitedInnermost => vec![self.site.to_string(), inner],
        }
    }
}

type Outcomes = Vec<(Path, Value)>;

/// A function body being checked: its scope terms, fresh arguments and globals, and the
/// arguments by parameter.
struct Frame {
    outer: Vec<String>,
    args: Vec<String>,
    before: Vec<String>,
    /// `outer` then `args`: the scope of the templates of its parameters and result.
    inner: Vec<String>,
    per_param: Vec<Vec<String>>,
}

pub struct Generator<'p> {
    program: &'p Program,
    info: &'p TypeInfo,
    names: &'p FunctionNames,
    ghost: Ghost,
    sink: Sink,
    relations: Relations,
    /// By `MethodId`: the method's template and whether it takes ghosts.
    methods: Vec<(Rc<FunTemplate>, bool)>,
    lambdas: HashMap<LambdaId, Rc<FunTemplate>>,
    etas: HashMap<ExprId, Rc<FunTemplate>>,
    /// By `RefId`: its index among the `Int` globals (`None` for a `Unit` reference).
    globals: Vec<Option<usize>>,
    initial: Vec<String>,
}

/// The most `Int` references times functions the encoding threads its state through
/// (each reference is an argument of every function's `pre` and `post`).
pub const MAX_THREADED_STATE: usize = 20_000;

impl<'p> Generator<'p> {
    pub fn new(
        program: &'p Program,
        info: &'p TypeInfo,
        names: &'p FunctionNames,
        ghost: Ghost,
    ) -> Result<Generator<'p>, Unsupported> {
        if crate::core_lang::visit::catches_exceptions(program) {
            return Err(Unsupported("exceptions caught by `try`".into()));
        }
        if program.ints.checked_range().is_some() {
            return Err(Unsupported("overflow checks (`--overflow-checks`)".into()));
        }
        if info.expr_types.iter().any(Type::mentions_ref) {
            return Err(Unsupported("allocated references (`Ref` types)".into()));
        }
        if info.expr_types.iter().any(Type::mentions_non_int_list) {
            return Err(Unsupported("lists of non-integer elements".into()));
        }
        let mut globals = Vec::new();
        let mut roles = Vec::new();
        let mut initial = Vec::new();
        for decl in &program.store {
            match (&decl.ty, &decl.init.kind) {
                (Type::Unit, _) => globals.push(None),
                (Type::Int, ExprKind::Int(i)) => {
                    globals.push(Some(roles.len()));
                    roles.push(decl.name.name.to_string());
                    initial.push(int_literal(i));
                }
                (ty, _) => {
                    return Err(Unsupported(format!(
                        "the reference `{}` of type `{ty}`",
                        decl.name.name
                    )));
                }
            }
        }
        // Every `Int` reference is threaded through every `pre`/`post`: the system grows
        // with their number times the functions'. Past the cap it is too large to build
        // cheaply or to solve within a proof budget (200 counters over 200 methods: 126 MB
        // of clauses, 2.5 s and 540 MB to build, issue 35); the IR's clauses, which carry
        // each procedure's own globals only, still try.
        let threaded = roles.len() * program.methods.len();
        if threaded > MAX_THREADED_STATE {
            return Err(Unsupported(format!(
                "{} `Int` references threaded through {} functions (more than {MAX_THREADED_STATE} \
                 reference-function pairs)",
                roles.len(),
                program.methods.len()
            )));
        }
        let mut generator = Generator {
            program,
            info,
            names,
            ghost,
            sink: Sink::default(),
            relations: Relations::new(roles),
            methods: Vec::new(),
            lambdas: HashMap::new(),
            etas: HashMap::new(),
            globals,
            initial,
        };
        for method in &program.methods {
            let ghosts = method.params.iter().any(|p| has_arrow(&p.ty));
            let scope: Vec<String> = match (ghosts, ghost) {
                (false, _) => Vec::new(),
                (true, Ghost::SitedInnermost) => vec!["site".to_string(), "ghost".to_string()],
                (true, _) => vec!["ghost".to_string()],
            };
            let template =
                generator.template(&method.name.name, &scope, &method.params, &method.ret)?;
            generator.methods.push((template, ghosts));
        }
        Ok(generator)
    }

    /// The clauses of the whole program, and the `pre` relations of its closures: of
    /// every function-type occurrence but the methods' own signatures.
    pub fn run(mut self) -> Result<(HornSystem, HashSet<String>), Unsupported> {
        for method in &self.program.methods {
            let (template, ghosts) = self.methods[method.id.index()].clone();
            let mut scope = Scope {
                site: method.id.index(),
                ..Scope::default()
            };
            if ghosts && self.ghost == Ghost::SitedInnermost {
                scope.ints.push(("site".to_string(), self.sink.fresh()));
            }
            if ghosts {
                let ghost = self.sink.fresh();
                scope.ints.push(("ghost".to_string(), ghost.clone()));
                scope.context = Some(ghost);
            }
            self.function(&template, scope, &method.params, &method.body, &[])?;
        }
        self.main()?;
        let methods: HashSet<&String> = self.methods.iter().map(|(t, _)| &t.pre).collect();
        let closure_pres = (self.relations.pres.iter())
            .filter(|pre| !methods.contains(pre))
            .cloned()
            .collect();
        let system = HornSystem {
            entry: None,
            datatypes: Vec::new(),
            relations: self.relations.list,
            clauses: self.sink.clauses,
            entry_interpretation: None,
        };
        Ok((system, closure_pres))
    }

    fn main(&mut self) -> Result<(), Unsupported> {
        let main = &self.program.main;
        let mut scope = Scope {
            site: self.program.methods.len(),
            ..Scope::default()
        };
        for param in &main.params {
            let value = match param.ty {
                Type::Int => {
                    let v = self.sink.fresh();
                    scope.ints.push((param.name.name.to_string(), v.clone()));
                    Value::Int(v)
                }
                _ => Value::Unit,
            };
            scope.env.insert(param.id, value);
        }
        let path = Path {
            facts: Vec::new(),
            globals: self.initial.clone(),
        };
        self.eval(&main.body, &scope, path)?;
        Ok(())
    }

    fn template(
        &mut self,
        name: &str,
        scope: &[String],
        params: &[Binder],
        ret: &Type,
    ) -> Result<Rc<FunTemplate>, Unsupported> {
        let named: Vec<(String, Type)> = params
            .iter()
            .map(|p| (p.name.name.to_string(), p.ty.clone()))
            .collect();
        self.relations.template(name, scope, &named, ret)
    }

    /// Checks a function body: under `facts` and its `pre`, each path's result satisfies
    /// its `post`. `scope` holds the integers the template's scope stands for.
    fn function(
        &mut self,
        template: &Rc<FunTemplate>,
        mut scope: Scope,
        params: &[Binder],
        body: &Expr,
        facts: &[String],
    ) -> Result<(), Unsupported> {
        let (frame, values, path) = self.enter(template, &scope, facts);
        for ((param, value), ints) in params.iter().zip(values).zip(&frame.per_param) {
            let mut roles = Vec::new();
            int_roles(&param.name.name, &param.ty, &mut roles);
            scope
                .ints
                .extend(roles.into_iter().zip(ints.iter().cloned()));
            scope.env.insert(param.id, value);
        }
        for (path, result) in self.eval(body, &scope, path)? {
            self.leave(template, &frame, &path, &result);
        }
        if self.sink.clauses.len() > MAX_CLAUSES {
            return Err(Unsupported(format!(
                "programs of more than {MAX_CLAUSES} clauses"
            )));
        }
        Ok(())
    }

    /// The start of a body of `template` made at `scope`: fresh arguments and globals,
    /// the parameters' values, and the path that assumes `facts` and the `pre`.
    fn enter(
        &mut self,
        template: &FunTemplate,
        scope: &Scope,
        facts: &[String],
    ) -> (Frame, Vec<Value>, Path) {
        let outer = scope.terms();
        let args = self.sink.fresh_n(template.param_ints());
        let before = self.sink.fresh_n(self.relations_globals());
        let inner: Vec<String> = outer.iter().chain(&args).cloned().collect();
        let mut ints = args.iter().cloned();
        let mut values = Vec::new();
        let mut per_param = Vec::new();
        let mut start = facts.to_vec();
        for shape in &template.params {
            let value = instantiate(shape, &inner, &mut ints);
            let mut mine = Vec::new();
            value.ints(&mut mine);
            value.invariants(&mut start);
            per_param.push(mine);
            values.push(value);
        }
        start.push(apply(&template.pre, &[&outer, &args, &before]));
        let path = Path {
            facts: start,
            globals: before.clone(),
        };
        let frame = Frame {
            outer,
            args,
            before,
            inner,
            per_param,
        };
        (frame, values, path)
    }

    /// The end of a path of a body: its result satisfies the `post` (and, for functions
    /// in it, the result's templates).
    fn leave(&mut self, template: &FunTemplate, frame: &Frame, path: &Path, result: &Value) {
        let mut results = Vec::new();
        result.ints(&mut results);
        let head = apply(
            &template.post,
            &[
                &frame.outer,
                &frame.args,
                &frame.before,
                &results,
                &path.globals,
            ],
        );
        self.sink
            .emit("return".into(), path.facts.clone(), Some(head));
        let globals = self.relations_globals();
        subtype::value(
            &mut self.sink,
            result,
            &template.ret,
            &frame.inner,
            &path.facts,
            globals,
        );
    }

    fn relations_globals(&self) -> usize {
        self.initial.len()
    }

    /// A call of `callee` with `args` on `path`: its `pre` is required, its `post` assumed.
    fn call(&mut self, callee: &FunValue, args: &[Value], mut path: Path) -> (Path, Value) {
        let template = callee.template.clone();
        let mut ints = Vec::new();
        for arg in args {
            arg.ints(&mut ints);
        }
        let pre = apply(&template.pre, &[&callee.scope, &ints, &path.globals]);
        self.sink.emit("call".into(), path.facts.clone(), Some(pre));
        let inner: Vec<String> = callee.scope.iter().chain(&ints).cloned().collect();
        let globals = self.relations_globals();
        for (arg, shape) in args.iter().zip(&template.params) {
            subtype::value(&mut self.sink, arg, shape, &inner, &path.facts, globals);
        }
        let results = self.sink.fresh_n(template.ret.ints());
        let after = self.sink.fresh_n(globals);
        path.facts.push(apply(
            &template.post,
            &[&callee.scope, &ints, &path.globals, &results, &after],
        ));
        path.globals = after;
        let value = instantiate(&template.ret, &inner, &mut results.into_iter());
        value.invariants(&mut path.facts);
        (path, value)
    }

    // ----- expressions -----

    fn eval(&mut self, e: &Expr, scope: &Scope, path: Path) -> Result<Outcomes, Unsupported> {
        let outcomes =
            stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.eval_kind(e, scope, path))?;
        if outcomes.len() > MAX_PATHS {
            return Err(Unsupported(format!(
                "expressions with more than {MAX_PATHS} paths"
            )));
        }
        Ok(outcomes)
    }

    /// Evaluates `exprs` left to right: every path with the values in order.
    fn eval_all(
        &mut self,
        exprs: &[&Expr],
        scope: &Scope,
        path: Path,
    ) -> Result<Vec<(Path, Vec<Value>)>, Unsupported> {
        let mut done = vec![(path, Vec::new())];
        for e in exprs {
            let mut next = Vec::new();
            for (path, values) in done {
                for (path, value) in self.eval(e, scope, path)? {
                    let mut values = values.clone();
                    values.push(value);
                    next.push((path, values));
                }
            }
            if next.len() > MAX_PATHS {
                return Err(Unsupported(format!(
                    "expressions with more than {MAX_PATHS} paths"
                )));
            }
            done = next;
        }
        Ok(done)
    }

    fn eval_kind(&mut self, e: &Expr, scope: &Scope, path: Path) -> Result<Outcomes, Unsupported> {
        Ok(match &e.kind {
            ExprKind::Int(i) => vec![(path, Value::Int(int_literal(i)))],
            ExprKind::Skip => vec![(path, Value::Unit)],
            ExprKind::Fail => {
                self.sink.emit("fail".into(), path.facts, None);
                Vec::new()
            }
            // The program has no `try` (`Generator::new`): a `raise` is a failure where it
            // happens (its argument is an `Int` that cannot matter), as `fail` is.
            ExprKind::Raise { .. } => {
                self.sink.emit("fail".into(), path.facts, None);
                Vec::new()
            }
            ExprKind::Try { .. } => {
                return Err(Unsupported("exceptions caught by `try`".into()));
            }
            ExprKind::Alloc(_)
            | ExprKind::Load(_)
            | ExprKind::Store { .. }
            | ExprKind::Offset { .. } => {
                return Err(Unsupported("allocated references (`Ref` types)".into()));
            }
            ExprKind::Input { .. } => {
                return Err(Unsupported(
                    "fresh inputs (`read_int`, `Random.int`)".into(),
                ));
            }
            ExprKind::Construct { .. } | ExprKind::IsCtor { .. } | ExprKind::Field { .. } => {
                return Err(Unsupported("datatypes (recursive variants)".into()));
            }
            ExprKind::Nil => {
                let head = self.sink.fresh();
                vec![(
                    path,
                    Value::List {
                        len: "0".into(),
                        head,
                    },
                )]
            }
            ExprKind::Cons(head, tail) => self
                .eval_all(&[head, tail], scope, path)?
                .into_iter()
                .map(|(path, values)| {
                    let len = match &values[1] {
                        Value::List { len, .. } => format!("(+ {len} 1)"),
                        _ => "1".into(),
                    };
                    let head = values[0].int();
                    (path, Value::List { len, head })
                })
                .collect(),
            ExprKind::List(op, list) => self.list_operation(*op, list, scope, path)?,
            ExprKind::Var(_) => vec![(path.clone(), self.variable(e, scope, &path)?)],
            ExprKind::Fun(lambda) => {
                let name = self.names.lambda(lambda.id).to_string();
                let value = self.closure(&name, lambda, scope, &path)?;
                vec![(path, Value::Fun(value))]
            }
            ExprKind::App { func, args } => self.application(func, args, scope, path)?,
            ExprKind::Let {
                binder,
                value,
                body,
            } => {
                let mut out = Vec::new();
                for (mut path, v) in self.eval(value, scope, path)? {
                    let inner = self.bind(scope, binder, v, &mut path);
                    out.extend(self.eval(body, &inner, path)?);
                }
                out
            }
            ExprKind::LetRec {
                binder,
                lambda,
                body,
            } => {
                let name = binder.name.name.to_string();
                let template = self.lambda_template(&name, lambda, scope)?;
                let value = FunValue {
                    template: template.clone(),
                    scope: scope.terms(),
                };
                let mut inner = scope.clone();
                inner.env.insert(binder.id, Value::Fun(value.clone()));
                self.function(
                    &template,
                    inner.clone(),
                    &lambda.params,
                    &lambda.body,
                    &path.facts,
                )?;
                self.eval(body, &inner, path)?
            }
            ExprKind::If {
                cond,
                then_branch,
                else_branch,
            } => self.conditional(e, cond, then_branch, else_branch, scope, path)?,
            ExprKind::Assert(cond) => {
                let mut out = Vec::new();
                for (mut path, c) in self.eval(cond, scope, path)? {
                    let mut failing = path.facts.clone();
                    failing.push(c.falsity());
                    self.sink.emit("assert".into(), failing, None);
                    path.facts.push(c.truth());
                    out.push((path, Value::Unit));
                }
                out
            }
            ExprKind::Assign { value, .. } => {
                let slot = self.global_slot(e);
                let mut out = Vec::new();
                for (mut path, v) in self.eval(value, scope, path)? {
                    if let Some(slot) = slot {
                        path.globals[slot] = v.int();
                    }
                    out.push((path, Value::Unit));
                }
                out
            }
            ExprKind::Deref(_) => {
                let value = match self.global_slot(e) {
                    Some(slot) => Value::Int(path.globals[slot].clone()),
                    None => Value::Unit,
                };
                vec![(path, value)]
            }
            ExprKind::Pair(a, b) => self
                .eval_all(&[a, b], scope, path)?
                .into_iter()
                .map(|(path, mut vs)| {
                    let b = vs.pop().expect("internal error: two values");
                    let a = vs.pop().expect("internal error: two values");
                    (path, Value::Pair(Box::new(a), Box::new(b)))
                })
                .collect(),
            ExprKind::Proj { which, pair, .. } => self
                .eval(pair, scope, path)?
                .into_iter()
                .map(|(path, v)| match v {
                    Value::Pair(a, b) => (path, if *which == Proj::Fst { *a } else { *b }),
                    other => (path, other),
                })
                .collect(),
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, scope, path)?,
            ExprKind::Neg(x) => self
                .eval(x, scope, path)?
                .into_iter()
                .map(|(path, v)| (path, Value::Int(format!("(- {})", v.int()))))
                .collect(),
        })
    }

    /// `hd l`, `tl l` (each fails where `l` is empty), `is_empty l`.
    fn list_operation(
        &mut self,
        op: ListOp,
        list: &Expr,
        scope: &Scope,
        path: Path,
    ) -> Result<Outcomes, Unsupported> {
        let mut out = Vec::new();
        for (mut path, l) in self.eval(list, scope, path)? {
            let Value::List { len, head } = l else {
                return Err(Unsupported("a list operation on a non-list".into()));
            };
            let empty = format!("(= {len} 0)");
            if op == ListOp::IsEmpty {
                out.push((path, Value::Cond(empty)));
                continue;
            }
            let mut failing = path.facts.clone();
            failing.push(empty.clone());
            self.sink
                .emit(format!("{} []", op.keyword()), failing, None);
            path.facts.push(format!("(not {empty})"));
            let value = match op {
                ListOp::Hd => Value::Int(head),
                _ => Value::List {
                    len: format!("(- {len} 1)"),
                    head: self.sink.fresh(),
                },
            };
            out.push((path, value));
        }
        Ok(out)
    }

    fn global_slot(&self, e: &Expr) -> Option<usize> {
        let reference = self.info.reference(e)?;
        self.globals[reference.index()]
    }

    fn variable(&mut self, e: &Expr, scope: &Scope, path: &Path) -> Result<Value, Unsupported> {
        match self.info.resolution(e) {
            Some(Resolution::Local(binder)) => scope
                .env
                .get(&binder)
                .cloned()
                .ok_or_else(|| Unsupported("a variable bound where it is not tracked".into())),
            Some(Resolution::Method(m)) => Ok(Value::Fun(self.method_value(e, m, scope, path)?)),
            None => Err(Unsupported("an unresolved name".into())),
        }
    }

    /// A method used as a value. One without ghosts is its own template; one with ghosts
    /// is eta-expanded here (`fun (x…) -> m (x…)`), so its ghosts come from this scope.
    fn method_value(
        &mut self,
        e: &Expr,
        m: MethodId,
        scope: &Scope,
        path: &Path,
    ) -> Result<FunValue, Unsupported> {
        let (template, ghosts) = self.methods[m.index()].clone();
        if !ghosts {
            return Ok(FunValue {
                template,
                scope: Vec::new(),
            });
        }
        let method = self.program.method(m);
        let eta = match self.etas.get(&e.id) {
            Some(t) => t.clone(),
            None => {
                let t = self.template(
                    &method.name.name,
                    &scope.roles(),
                    &method.params,
                    &method.ret,
                )?;
                self.etas.insert(e.id, t.clone());
                t
            }
        };
        // The body `m (x…)`: checked like a function whose body is the call.
        let (frame, params, start) = self.enter(&eta, scope, &path.facts);
        let mut here = scope.clone();
        here.ints
            .extend(frame.args.iter().map(|a| ("x".to_string(), a.clone())));
        let callee = FunValue {
            template,
            scope: here.ghosts(self.ghost),
        };
        let (end, result) = self.call(&callee, &params, start);
        self.leave(&eta, &frame, &end, &result);
        Ok(FunValue {
            template: eta,
            scope: frame.outer,
        })
    }

    fn lambda_template(
        &mut self,
        name: &str,
        lambda: &Lambda,
        scope: &Scope,
    ) -> Result<Rc<FunTemplate>, Unsupported> {
        if let Some(t) = self.lambdas.get(&lambda.id) {
            return Ok(t.clone());
        }
        let t = self.template(name, &scope.roles(), &lambda.params, &lambda.ret)?;
        self.lambdas.insert(lambda.id, t.clone());
        Ok(t)
    }

    /// A `fun` made on `path`: its template at this scope, its body checked under the
    /// path's facts (the captured values are what they were here).
    fn closure(
        &mut self,
        name: &str,
        lambda: &Lambda,
        scope: &Scope,
        path: &Path,
    ) -> Result<FunValue, Unsupported> {
        let template = self.lambda_template(name, lambda, scope)?;
        self.function(
            &template,
            scope.clone(),
            &lambda.params,
            &lambda.body,
            &path.facts,
        )?;
        Ok(FunValue {
            template,
            scope: scope.terms(),
        })
    }

    fn application(
        &mut self,
        func: &Expr,
        args: &[Expr],
        scope: &Scope,
        path: Path,
    ) -> Result<Outcomes, Unsupported> {
        let direct = match (&func.kind, self.info.resolution(func)) {
            (ExprKind::Var(_), Some(Resolution::Method(m))) => Some(m),
            _ => None,
        };
        let mut out = Vec::new();
        if let Some(m) = direct {
            let (template, ghosts) = self.methods[m.index()].clone();
            let callee = FunValue {
                template,
                scope: if ghosts {
                    scope.ghosts(self.ghost)
                } else {
                    Vec::new()
                },
            };
            let refs: Vec<&Expr> = args.iter().collect();
            for (path, values) in self.eval_all(&refs, scope, path)? {
                out.push(self.call(&callee, &values, path));
            }
            return Ok(out);
        }
        let mut all: Vec<&Expr> = vec![func];
        all.extend(args);
        for (path, mut values) in self.eval_all(&all, scope, path)? {
            let callee = values.remove(0);
            match callee {
                Value::Fun(callee) => out.push(self.call(&callee, &values, path)),
                _ => return Err(Unsupported("an application of a non-function".into())),
            }
        }
        Ok(out)
    }

    fn conditional(
        &mut self,
        e: &Expr,
        cond: &Expr,
        then_e: &Expr,
        else_e: &Expr,
        scope: &Scope,
        path: Path,
    ) -> Result<Outcomes, Unsupported> {
        let pure = *self.info.type_of(e) == Type::Int && is_pure(then_e) && is_pure(else_e);
        let mut out = Vec::new();
        for (path, c) in self.eval(cond, scope, path)? {
            if pure {
                let t = self.pure_int(then_e, scope, &path)?;
                let f = self.pure_int(else_e, scope, &path)?;
                let truth = c.truth();
                out.push((path, Value::Int(format!("(ite {truth} {t} {f})"))));
                continue;
            }
            let mut yes = path.clone();
            yes.facts.push(c.truth());
            out.extend(self.eval(then_e, scope, yes)?);
            let mut no = path;
            no.facts.push(c.falsity());
            out.extend(self.eval(else_e, scope, no)?);
        }
        Ok(out)
    }

    /// The value of a pure `Int` expression (one path, no facts).
    fn pure_int(&mut self, e: &Expr, scope: &Scope, path: &Path) -> Result<String, Unsupported> {
        let mut outcomes = self.eval(e, scope, path.clone())?;
        match (outcomes.pop(), outcomes.is_empty()) {
            (Some((_, v)), true) => Ok(v.int()),
            _ => Err(Unsupported("an impure expression taken for pure".into())),
        }
    }

    fn binary(
        &mut self,
        op: BinOp,
        lhs: &Expr,
        rhs: &Expr,
        scope: &Scope,
        path: Path,
    ) -> Result<Outcomes, Unsupported> {
        let short = matches!(op, BinOp::And | BinOp::Or);
        if short && !is_pure(rhs) {
            return self.short_circuit(op, lhs, rhs, scope, path);
        }
        let mut out = Vec::new();
        for (path, values) in self.eval_all(&[lhs, rhs], scope, path)? {
            out.push((path, operation(op, &values[0], &values[1])?));
        }
        Ok(out)
    }

    /// `a && b` / `a || b` where `b` has effects: `b` runs only on the paths that need it.
    fn short_circuit(
        &mut self,
        op: BinOp,
        lhs: &Expr,
        rhs: &Expr,
        scope: &Scope,
        path: Path,
    ) -> Result<Outcomes, Unsupported> {
        let mut out = Vec::new();
        for (path, a) in self.eval(lhs, scope, path)? {
            let (decided, undecided) = if op == BinOp::And {
                (a.falsity(), a.truth())
            } else {
                (a.truth(), a.falsity())
            };
            let mut done = path.clone();
            done.facts.push(decided);
            let constant = if op == BinOp::And { "0" } else { "1" };
            out.push((done, Value::Int(constant.into())));
            let mut rest = path;
            rest.facts.push(undecided);
            for (path, b) in self.eval(rhs, scope, rest)? {
                out.push((path, Value::Cond(b.truth())));
            }
        }
        Ok(out)
    }

    /// Binds `value` to `binder`: integers become named variables in scope.
    fn bind(&mut self, scope: &Scope, binder: &Binder, value: Value, path: &mut Path) -> Scope {
        let mut inner = scope.clone();
        if binder.ty == Type::Unit {
            inner.env.insert(binder.id, Value::Unit);
            return inner;
        }
        let mut roles = Vec::new();
        int_roles(&binder.name.name, &binder.ty, &mut roles);
        let value = self.name_ints(value, path, &mut roles.into_iter(), &mut inner);
        inner.env.insert(binder.id, value);
        inner
    }

    fn name_ints(
        &mut self,
        value: Value,
        path: &mut Path,
        roles: &mut dyn Iterator<Item = String>,
        scope: &mut Scope,
    ) -> Value {
        match value {
            Value::Int(_) | Value::Cond(_) => {
                let v = self.sink.fresh();
                path.facts.push(format!("(= {v} {})", value.int()));
                let role = roles.next().unwrap_or_else(|| "x".into());
                scope.ints.push((role, v.clone()));
                Value::Int(v)
            }
            Value::Pair(a, b) => {
                let a = self.name_ints(*a, path, roles, scope);
                let b = self.name_ints(*b, path, roles, scope);
                Value::Pair(Box::new(a), Box::new(b))
            }
            Value::List { len, head } => {
                let len = self.name_ints(Value::Int(len), path, roles, scope);
                let head = self.name_ints(Value::Int(head), path, roles, scope);
                Value::List {
                    len: len.int(),
                    head: head.int(),
                }
            }
            other => other,
        }
    }
}

/// `a op b`; division is not encoded (a zero divisor fails, and its rounding differs
/// from SMT's).
fn operation(op: BinOp, a: &Value, b: &Value) -> Result<Value, Unsupported> {
    let (x, y) = (a.int(), b.int());
    let test = |rel: &str| Value::Cond(format!("({rel} {x} {y})"));
    Ok(match op {
        BinOp::Div | BinOp::Mod => {
            return Err(Unsupported(format!("division (`{}`)", op.symbol())));
        }
        BinOp::Add => Value::Int(format!("(+ {x} {y})")),
        BinOp::Sub => Value::Int(format!("(- {x} {y})")),
        BinOp::Mul => Value::Int(format!("(* {x} {y})")),
        BinOp::Eq => test("="),
        BinOp::Ne => Value::Cond(format!("(not (= {x} {y}))")),
        BinOp::Lt => test("<"),
        BinOp::Le => test("<="),
        BinOp::Gt => test(">"),
        BinOp::Ge => test(">="),
        BinOp::And => Value::Cond(format!("(and {} {})", a.truth(), b.truth())),
        BinOp::Or => Value::Cond(format!("(or {} {})", a.truth(), b.truth())),
    })
}

/// Whether `e` has no effect and one path: no call, no `assert`, no `fail`, no write.
fn is_pure(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Skip | ExprKind::Var(_) | ExprKind::Deref(_) => true,
        ExprKind::Neg(x) => is_pure(x),
        ExprKind::Binary { lhs, rhs, .. } => is_pure(lhs) && is_pure(rhs),
        ExprKind::If {
            cond,
            then_branch,
            else_branch,
        } => is_pure(cond) && is_pure(then_branch) && is_pure(else_branch),
        _ => false,
    }
}

fn has_arrow(ty: &Type) -> bool {
    match ty {
        Type::Arrow(..) => true,
        Type::Pair(a, b) => has_arrow(a) || has_arrow(b),
        _ => false,
    }
}

fn int_literal(i: &BigInt) -> String {
    if i.is_negative() {
        format!("(- {})", -i)
    } else {
        i.to_string()
    }
}
