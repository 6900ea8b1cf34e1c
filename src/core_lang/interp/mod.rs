//! The concrete, depth-bounded interpreter for HORef (docs/semantics.md): the oracle.
//!
//! Guarantees: call-by-value, left to right (function before arguments, arguments left to
//! right); `&&`/`||` short-circuit and yield 0/1; integers never wrap. `Main`'s body runs at
//! depth 0 and each application of a method or closure runs its body one level deeper (a
//! partial application's closure, [`Lambda::wrapper`], runs its body — the call that
//! saturates the function — at the caller's depth); a
//! call that would run deeper than `max_depth` is not executed and the run ends as
//! [`Outcome::CutOff`]. `assert 0`, `fail`, `hd []`, `tl []` and a division (`/`, `mod`)
//! by zero end the run as [`Outcome::Failure`] at that expression; division truncates
//! toward zero, as OCaml's does. `raise` (and a division by zero in a program that
//! declares `Division_by_zero`) unwinds to the innermost `try` with a handler for the
//! exception; one that escapes `Main` ends the run as a failure at its `raise`. A fresh
//! `ref e` allocates a fresh cell (addresses count up from 0 in allocation order, never
//! reused), `!e` and `e1 := e2` read and write the cell `e`/`e1` evaluates to, so aliasing
//! is exact; `Store:` references are cells of their own, apart from the heap. A fresh
//! input ([`ExprKind::Input`]) takes the next value of the run's input stream (`fresh` of
//! [`run_fed`]; 0 once the stream is used up, so a run is reproducible); `Random.int n`'s
//! range `0 .. n - 1` is kept by taking the value modulo `n` (Euclidean), and a bound
//! `n <= 0` is a failure there. A step budget ends a run that would take too
//! long as [`Outcome::OutOfFuel`], so no run hangs; the native stack grows on demand, so no
//! run overflows it, and a run that would take more memory than its limit (or than
//! `ulimit -v` allows) ends as [`Outcome::OutOfMemory`] ([`memory`]), never as a failed
//! allocation.

pub mod memory;
mod value;

pub use value::{Closure, Env, Value};

use crate::core_lang::ast::*;
use crate::core_lang::typecheck::{NamedCell, Resolution, TypeInfo};
use crate::span::Span;
use num_bigint::BigInt;
use num_traits::Zero;
use std::rc::Rc;

/// Limits of one run.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// The deepest call depth a method or closure body may run at.
    pub max_depth: u32,
    /// The most evaluation steps (expression nodes) before the run gives up.
    pub fuel: u64,
    /// Record every call and return.
    pub trace: bool,
    /// The most resident memory (MiB) before the run gives up (`None`: only the address
    /// space limit, `ulimit -v`, is kept).
    pub memory_limit_mib: Option<u64>,
}

impl Default for RunConfig {
    fn default() -> RunConfig {
        RunConfig {
            max_depth: 10,
            fuel: 100_000_000,
            trace: false,
            memory_limit_mib: None,
        }
    }
}

/// Why a run failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    Assert,
    Fail,
    HeadOfEmpty,
    TailOfEmpty,
    /// `/` or `mod` with a zero divisor (OCaml's `Division_by_zero`).
    DivisionByZero,
    /// An arithmetic result outside OCaml's `int` range, with `--overflow-checks`
    /// ([`crate::core_lang::ast::IntModel`]).
    Overflow,
    /// An exception raised and not handled (OCaml's uncaught exception): the failure is at
    /// its `raise`.
    Uncaught(ExnId),
}

impl FailureKind {
    pub fn describe(self) -> &'static str {
        match self {
            FailureKind::Assert => "assert",
            FailureKind::Fail => "fail",
            FailureKind::HeadOfEmpty => "hd []",
            FailureKind::TailOfEmpty => "tl []",
            FailureKind::DivisionByZero => "Division_by_zero",
            FailureKind::Overflow => "integer overflow",
            FailureKind::Uncaught(_) => "uncaught exception",
        }
    }

    /// What failed, an uncaught exception by its name.
    pub fn describe_in(self, program: &Program) -> String {
        match self {
            FailureKind::Uncaught(exn) => program.exception(exn).name.to_string(),
            other => other.describe().to_string(),
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// `Main` returned this value.
    Value(Value),
    /// An assertion, `fail`, `hd []` or `tl []` failed at `span`.
    Failure { span: Span, kind: FailureKind },
    /// The call at `span`, made by a body running at `depth` (= the bound), would have
    /// run its callee one level deeper than the bound.
    CutOff {
        span: Span,
        callee: FunctionRef,
        depth: u32,
    },
    /// The step budget ran out.
    OutOfFuel { steps: u64 },
    /// The memory limit was reached after `steps` steps.
    OutOfMemory { steps: u64 },
}

/// One entry of a call trace.
#[derive(Clone, Debug)]
pub enum TraceEvent {
    /// `callee` was applied to `args` at the call site `span`; its body runs at `depth`.
    Call {
        callee: FunctionRef,
        args: Vec<Value>,
        depth: u32,
        span: Span,
    },
    Return {
        callee: FunctionRef,
        value: Value,
        depth: u32,
    },
    /// A fresh input evaluated at `span` (by a body running at `depth`) took `value`.
    Input {
        span: Span,
        value: BigInt,
        depth: u32,
    },
}

/// Which function a trace event is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionRef {
    Method(MethodId),
    Lambda(LambdaId),
}

/// A fresh input the run took: where it was evaluated and the value it got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FreshInput {
    pub span: Span,
    pub value: BigInt,
}

/// An allocated cell at the end of a run: where its `ref e` was evaluated and what it held
/// last. A cell's address is its index in [`RunResult::cells`].
#[derive(Clone, Debug)]
pub struct Cell {
    pub allocated: Span,
    pub value: Value,
}

/// The outcome of a run with its trace and cost.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub outcome: Outcome,
    pub trace: Vec<TraceEvent>,
    pub steps: u64,
    /// The fresh inputs the run took, in the order it evaluated them.
    pub fresh: Vec<FreshInput>,
    /// Every cell the run allocated, by address, as the run left it.
    pub cells: Vec<Cell>,
}

/// Runs `Main` on `inputs` (one value per parameter of `Main`, already type-correct); every
/// fresh input is 0 (as if [`run_fed`] got an empty stream).
pub fn run(program: &Program, info: &TypeInfo, inputs: &[Value], config: &RunConfig) -> RunResult {
    run_fed(program, info, inputs, &[], config)
}

/// Runs `Main` on `inputs`, the fresh inputs taking the values of `fresh` in order.
pub fn run_fed(
    program: &Program,
    info: &TypeInfo,
    inputs: &[Value],
    fresh: &[BigInt],
    config: &RunConfig,
) -> RunResult {
    let mut interp = Interp {
        program,
        info,
        config,
        store: Vec::new(),
        heap: Vec::new(),
        sites: Vec::new(),
        steps: 0,
        memory: memory::MemoryGuard::new(config.memory_limit_mib),
        trace: Vec::new(),
        stream: fresh.iter(),
        taken: Vec::new(),
    };
    let outcome = match interp.run_main(inputs) {
        Ok(value) => Outcome::Value(value),
        Err(Stop::Failure { span, kind }) => Outcome::Failure { span, kind },
        Err(Stop::Raise { span, exn, .. }) => Outcome::Failure {
            span,
            kind: match program.division_by_zero() {
                Some(d) if d == exn => FailureKind::DivisionByZero,
                _ => FailureKind::Uncaught(exn),
            },
        },
        Err(Stop::CutOff {
            span,
            callee,
            depth,
        }) => Outcome::CutOff {
            span,
            callee,
            depth,
        },
        Err(Stop::OutOfFuel) => Outcome::OutOfFuel {
            steps: interp.steps,
        },
        Err(Stop::OutOfMemory) => Outcome::OutOfMemory {
            steps: interp.steps,
        },
    };
    let cells = interp
        .heap
        .into_iter()
        .zip(interp.sites)
        .map(|(value, allocated)| Cell { allocated, value })
        .collect();
    RunResult {
        outcome,
        trace: interp.trace,
        steps: interp.steps,
        fresh: interp.taken,
        cells,
    }
}

/// Why evaluation stopped early.
enum Stop {
    Failure {
        span: Span,
        kind: FailureKind,
    },
    /// An exception raised at `span`, with its argument (0 for one without).
    Raise {
        span: Span,
        exn: ExnId,
        arg: Value,
    },
    CutOff {
        span: Span,
        callee: FunctionRef,
        depth: u32,
    },
    OutOfFuel,
    OutOfMemory,
}

type EvalResult = Result<Value, Stop>;

struct Interp<'a> {
    program: &'a Program,
    info: &'a TypeInfo,
    config: &'a RunConfig,
    /// The current value of every reference, by `RefId`.
    store: Vec<Value>,
    /// The content of every allocated cell, by address.
    heap: Vec<Value>,
    /// Where every allocated cell was allocated, by address.
    sites: Vec<Span>,
    steps: u64,
    memory: memory::MemoryGuard,
    trace: Vec<TraceEvent>,
    /// The values fresh inputs take next.
    stream: std::slice::Iter<'a, BigInt>,
    /// The fresh inputs taken so far.
    taken: Vec<FreshInput>,
}

impl Interp<'_> {
    fn run_main(&mut self, inputs: &[Value]) -> EvalResult {
        let empty = Env::new();
        for decl in &self.program.store {
            let init = self.eval(&decl.init, &empty, 0)?;
            self.store.push(init);
        }
        let main = &self.program.main;
        assert_eq!(
            main.params.len(),
            inputs.len(),
            "internal error: Main's inputs"
        );
        let env: Env = main
            .params
            .iter()
            .zip(inputs)
            .map(|(p, v)| (p.id, v.clone()))
            .collect();
        self.eval(&main.body, &env, 0)
    }

    fn eval(&mut self, e: &Expr, env: &Env, depth: u32) -> EvalResult {
        // At most `fuel` steps are taken; the one past them is not (so a run that gives up
        // has taken exactly `fuel`).
        if self.steps >= self.config.fuel {
            return Err(Stop::OutOfFuel);
        }
        self.steps += 1;
        if self.steps.is_multiple_of(memory::CHECK_EVERY) && self.memory.exceeded() {
            return Err(Stop::OutOfMemory);
        }
        stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || self.eval_kind(e, env, depth))
    }

    fn eval_kind(&mut self, e: &Expr, env: &Env, depth: u32) -> EvalResult {
        match &e.kind {
            ExprKind::Int(i) => Ok(Value::Int(i.clone())),
            ExprKind::Skip => Ok(Value::Unit),
            ExprKind::Fail => Err(failure(e.span, FailureKind::Fail)),
            ExprKind::Nil => Ok(Value::List(im::Vector::new())),
            ExprKind::Var(_) => Ok(self.variable(e, env)),
            ExprKind::Fun(lambda) => Ok(closure(lambda, env, None)),
            ExprKind::App { func, args } => self.application(func, args, env, depth),
            ExprKind::Let {
                binder,
                value,
                body,
            } => {
                let value = self.eval(value, env, depth)?;
                // `let (x:Unit) = e in b` discards the value of `e` (see typecheck).
                let value = if binder.ty == Type::Unit {
                    Value::Unit
                } else {
                    value
                };
                self.eval(body, &env.update(binder.id, value), depth)
            }
            ExprKind::LetRec {
                binder,
                lambda,
                body,
            } => {
                let f = closure(lambda, env, Some(binder.id));
                self.eval(body, &env.update(binder.id, f), depth)
            }
            ExprKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                let taken = self.truth(cond, env, depth)?;
                let branch = if taken { then_branch } else { else_branch };
                self.eval(branch, env, depth)
            }
            ExprKind::Assert(cond) => match self.truth(cond, env, depth)? {
                true => Ok(Value::Unit),
                false => Err(failure(e.span, FailureKind::Assert)),
            },
            ExprKind::Assign { value, .. } => {
                let value = self.eval(value, env, depth)?;
                *self.named_cell(e, env) = value;
                Ok(Value::Unit)
            }
            ExprKind::Deref(_) => Ok(self.named_cell(e, env).clone()),
            ExprKind::Alloc(content) => {
                let value = self.eval(content, env, depth)?;
                self.heap.push(value);
                self.sites.push(e.span);
                Ok(Value::Ref(self.heap.len() - 1))
            }
            ExprKind::Load(target) => {
                let address = self.eval(target, env, depth)?.as_ref();
                Ok(self.heap[address].clone())
            }
            ExprKind::Store { target, value } => {
                let address = self.eval(target, env, depth)?.as_ref();
                let value = self.eval(value, env, depth)?;
                self.heap[address] = value;
                Ok(Value::Unit)
            }
            ExprKind::Offset { base, index } => {
                let address = self.eval(base, env, depth)?.as_ref();
                let index = self.eval(index, env, depth)?;
                let cell = usize::try_from(index.as_int())
                    .ok()
                    .and_then(|i| address.checked_add(i))
                    .filter(|cell| *cell < self.heap.len());
                match cell {
                    Some(cell) => Ok(Value::Ref(cell)),
                    None => panic!(
                        "internal error: an offset outside the allocated cells at {:?}",
                        e.span
                    ),
                }
            }
            ExprKind::Pair(a, b) => {
                let a = self.eval(a, env, depth)?;
                let b = self.eval(b, env, depth)?;
                Ok(Value::Pair(Rc::new((a, b))))
            }
            ExprKind::Proj { which, pair, .. } => match self.eval(pair, env, depth)? {
                Value::Pair(p) if *which == Proj::Fst => Ok(p.0.clone()),
                Value::Pair(p) => Ok(p.1.clone()),
                other => panic!("internal error: projection of a non-pair {other:?}"),
            },
            ExprKind::Cons(head, tail) => {
                let head = self.eval(head, env, depth)?;
                let mut list = self.eval(tail, env, depth)?.as_list().clone();
                list.push_front(head);
                Ok(Value::List(list))
            }
            ExprKind::List(op, list) => {
                let list = self.eval(list, env, depth)?;
                list_op(*op, list.as_list(), e.span)
            }
            ExprKind::Binary { op, lhs, rhs } => self.binary(e, *op, lhs, rhs, env, depth),
            ExprKind::Neg(operand) => {
                let v = self.eval(operand, env, depth)?;
                self.overflow_checked(e, true, Value::Int(-v.as_int()))
            }
            ExprKind::Construct { data, ctor, args } => {
                let mut fields = Vec::with_capacity(args.len());
                for arg in args {
                    fields.push(self.eval(arg, env, depth)?);
                }
                let name = self
                    .program
                    .datatype(data)
                    .and_then(|d| d.ctors.get(*ctor as usize))
                    .map_or_else(|| Rc::from("?"), |c| c.name.clone());
                Ok(Value::Data(*ctor, name, Rc::new(fields)))
            }
            ExprKind::IsCtor { ctor, value } => match self.eval(value, env, depth)? {
                Value::Data(c, ..) => Ok(Value::bool(c == *ctor)),
                other => panic!("internal error: a constructor test of {other:?}"),
            },
            ExprKind::Field { ctor, field, value } => match self.eval(value, env, depth)? {
                Value::Data(c, _, fields) if c == *ctor => Ok(fields[*field as usize].clone()),
                // Another constructor's field: the front end tests first, so never reached.
                _ => Err(failure(e.span, FailureKind::Fail)),
            },
            ExprKind::Raise { exn, arg } => {
                let arg = match arg {
                    Some(arg) => self.eval(arg, env, depth)?,
                    None => Value::int(0),
                };
                Err(Stop::Raise {
                    span: e.span,
                    exn: *exn,
                    arg,
                })
            }
            ExprKind::Input { below } => self.input(e, below.as_deref(), env, depth),
            ExprKind::Try { body, handlers } => match self.eval(body, env, depth) {
                Err(Stop::Raise { span, exn, arg }) => {
                    self.handle(handlers, Stop::Raise { span, exn, arg }, env, depth)
                }
                other => other,
            },
        }
    }

    /// The next value of the input stream (0 past its end), within `0 .. below - 1`.
    fn input(&mut self, e: &Expr, below: Option<&Expr>, env: &Env, depth: u32) -> EvalResult {
        let bound = match below {
            Some(below) => Some(self.eval(below, env, depth)?.as_int().clone()),
            None => None,
        };
        let next = self.stream.next().cloned().unwrap_or_default();
        let value = match bound {
            Some(n) if n <= BigInt::zero() => return Err(failure(e.span, FailureKind::Fail)),
            Some(n) => ((next % &n) + &n) % &n,
            None => next,
        };
        self.taken.push(FreshInput {
            span: e.span,
            value: value.clone(),
        });
        if self.config.trace {
            self.trace.push(TraceEvent::Input {
                span: e.span,
                value: value.clone(),
                depth,
            });
        }
        Ok(Value::Int(value))
    }

    /// Runs the first handler of `raised` (a `Stop::Raise`); with none, it propagates.
    fn handle(&mut self, handlers: &[Handler], raised: Stop, env: &Env, depth: u32) -> EvalResult {
        let Stop::Raise { exn, ref arg, .. } = raised else {
            return Err(raised);
        };
        let Some(handler) = handlers.iter().find(|h| h.exn.is_none_or(|x| x == exn)) else {
            return Err(raised);
        };
        let env = match &handler.arg {
            Some(binder) => env.update(binder.id, arg.clone()),
            None => env.clone(),
        };
        self.eval(&handler.body, &env, depth)
    }

    fn truth(&mut self, cond: &Expr, env: &Env, depth: u32) -> Result<bool, Stop> {
        Ok(!self.eval(cond, env, depth)?.as_int().is_zero())
    }

    fn variable(&self, e: &Expr, env: &Env) -> Value {
        match self.info.resolution(e) {
            Some(Resolution::Local(b)) => env
                .get(&b)
                .cloned()
                .unwrap_or_else(|| panic!("internal error: unbound binder {b:?}")),
            Some(Resolution::Method(m)) => Value::Closure(Rc::new(Closure::Method(m))),
            None => panic!("internal error: unresolved variable at {:?}", e.span),
        }
    }

    /// The cell `!r` / `r := e` on a name accesses: a `Store:` reference or a heap cell.
    fn named_cell(&mut self, e: &Expr, env: &Env) -> &mut Value {
        match self.info.cell(e) {
            Some(NamedCell::Store(r)) => &mut self.store[r.index()],
            Some(NamedCell::Local(b)) => {
                let address = env
                    .get(&b)
                    .unwrap_or_else(|| panic!("internal error: unbound binder {b:?}"))
                    .as_ref();
                &mut self.heap[address]
            }
            None => panic!("internal error: unresolved reference at {:?}", e.span),
        }
    }

    fn binary(
        &mut self,
        e: &Expr,
        op: BinOp,
        lhs: &Expr,
        rhs: &Expr,
        env: &Env,
        depth: u32,
    ) -> EvalResult {
        match op {
            BinOp::And => {
                let result = self.truth(lhs, env, depth)? && self.truth(rhs, env, depth)?;
                return Ok(Value::bool(result));
            }
            BinOp::Or => {
                let result = self.truth(lhs, env, depth)? || self.truth(rhs, env, depth)?;
                return Ok(Value::bool(result));
            }
            _ => {}
        }
        let a = self.eval(lhs, env, depth)?;
        let b = self.eval(rhs, env, depth)?;
        if matches!(op, BinOp::Div | BinOp::Mod) && b.as_int().is_zero() {
            return Err(match self.program.division_by_zero() {
                Some(exn) => Stop::Raise {
                    span: e.span,
                    exn,
                    arg: Value::int(0),
                },
                None => failure(e.span, FailureKind::DivisionByZero),
            });
        }
        if let (Value::Ref(a), Value::Ref(b)) = (&a, &b) {
            // `==` / `!=` on references: the same cell (the checker allows no other op).
            return Ok(Value::bool((a == b) == (op == BinOp::Eq)));
        }
        let checks = matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div);
        self.overflow_checked(e, checks, arithmetic(op, a.as_int(), b.as_int()))
    }

    /// `value`, the result of the arithmetic expression `e`, or a failure there when
    /// overflow is checked, the operation can overflow (`checks`) and `value` lies outside
    /// the program's integer range.
    fn overflow_checked(&self, e: &Expr, checks: bool, value: Value) -> EvalResult {
        if let Some((lo, hi)) = self.program.ints.checked_range().filter(|_| checks)
            && let Value::Int(v) = &value
            && (*v < lo || *v > hi)
        {
            return Err(failure(e.span, FailureKind::Overflow));
        }
        Ok(value)
    }

    fn application(&mut self, func: &Expr, args: &[Expr], env: &Env, depth: u32) -> EvalResult {
        let f = self.eval(func, env, depth)?;
        let mut values = Vec::with_capacity(args.len());
        for arg in args {
            values.push(self.eval(arg, env, depth)?);
        }
        let Value::Closure(closure) = f else {
            panic!("internal error: applying a non-function {f:?}");
        };
        if let Closure::Lambda { lambda, .. } = &*closure
            && lambda.wrapper
        {
            // A partial application's closure: its body (the saturating call) runs here.
            return self.enter(&closure, values, depth);
        }
        self.call(
            &closure,
            values,
            func.span.to(args.last().map_or(func.span, |a| a.span)),
            depth + 1,
        )
    }

    /// Runs `closure`'s body at `depth`, unless that is beyond the bound.
    fn call(
        &mut self,
        closure: &Rc<Closure>,
        args: Vec<Value>,
        span: Span,
        depth: u32,
    ) -> EvalResult {
        let callee = function_ref(closure);
        if depth > self.config.max_depth {
            return Err(Stop::CutOff {
                span,
                callee,
                depth: depth - 1,
            });
        }
        if self.config.trace {
            self.trace.push(TraceEvent::Call {
                callee,
                args: args.clone(),
                depth,
                span,
            });
        }
        let result = self.enter(closure, args, depth)?;
        if self.config.trace {
            self.trace.push(TraceEvent::Return {
                callee,
                value: result.clone(),
                depth,
            });
        }
        Ok(result)
    }

    fn enter(&mut self, closure: &Rc<Closure>, args: Vec<Value>, depth: u32) -> EvalResult {
        match &**closure {
            Closure::Method(m) => {
                let method = self.program.method(*m);
                let env = bind_params(&Env::new(), &method.params, args);
                self.eval(&method.body, &env, depth)
            }
            Closure::Lambda {
                lambda,
                env,
                self_binder,
            } => {
                let mut env = env.clone();
                if let Some(b) = self_binder {
                    env.insert(*b, Value::Closure(closure.clone()));
                }
                let env = bind_params(&env, &lambda.params, args);
                self.eval(&lambda.body, &env, depth)
            }
        }
    }
}

fn failure(span: Span, kind: FailureKind) -> Stop {
    Stop::Failure { span, kind }
}

fn closure(lambda: &Rc<Lambda>, env: &Env, self_binder: Option<BinderId>) -> Value {
    Value::Closure(Rc::new(Closure::Lambda {
        lambda: lambda.clone(),
        env: env.clone(),
        self_binder,
    }))
}

fn function_ref(closure: &Closure) -> FunctionRef {
    match closure {
        Closure::Method(m) => FunctionRef::Method(*m),
        Closure::Lambda { lambda, .. } => FunctionRef::Lambda(lambda.id),
    }
}

fn bind_params(env: &Env, params: &[Binder], args: Vec<Value>) -> Env {
    let mut env = env.clone();
    for (param, arg) in params.iter().zip(args) {
        env.insert(param.id, arg);
    }
    env
}

fn list_op(op: ListOp, list: &im::Vector<Value>, span: Span) -> EvalResult {
    match op {
        ListOp::IsEmpty => Ok(Value::bool(list.is_empty())),
        ListOp::Hd => list
            .front()
            .cloned()
            .ok_or(failure(span, FailureKind::HeadOfEmpty)),
        ListOp::Tl if list.is_empty() => Err(failure(span, FailureKind::TailOfEmpty)),
        ListOp::Tl => Ok(Value::List(list.skip(1))),
    }
}

fn arithmetic(op: BinOp, a: &BigInt, b: &BigInt) -> Value {
    match op {
        BinOp::Add => Value::Int(a + b),
        BinOp::Sub => Value::Int(a - b),
        BinOp::Mul => Value::Int(a * b),
        // `BigInt`'s `/` and `%` truncate toward zero, as OCaml's `/` and `mod` do.
        BinOp::Div => Value::Int(a / b),
        BinOp::Mod => Value::Int(a % b),
        BinOp::Eq => Value::bool(a == b),
        BinOp::Ne => Value::bool(a != b),
        BinOp::Lt => Value::bool(a < b),
        BinOp::Le => Value::bool(a <= b),
        BinOp::Gt => Value::bool(a > b),
        BinOp::Ge => Value::bool(a >= b),
        BinOp::And | BinOp::Or => unreachable!("internal error: short-circuit operators"),
    }
}
