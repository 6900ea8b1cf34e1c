//! Lowering one function body: HORef expressions to IR statements (docs/ir.md).
//!
//! Guarantees: evaluation order is preserved (function, then arguments left to right;
//! `let` value before body; `&&`/`||` evaluate their right side only when needed). Every
//! value is returned as its components (see [`super::layout`]), each a pure IR expression
//! over locals and constants: reading a reference copies its globals into fresh locals
//! first, so a later write cannot change a value already read. Every source application is
//! exactly one call when its function is known (a method, or a `let rec` function by its
//! own name) and otherwise one guarded call per points-to candidate, ending in
//! `assume false` — never a call to a dispatcher procedure, so one source call is one level
//! of depth in the IR too. A candidate that is a partial application's closure
//! ([`Lambda::wrapper`]) is not called: its body (the saturating call) is lowered in place,
//! its captures read from the closure's fields, so applying it costs no depth, as in the
//! interpreter. Every `assert`, `fail`, `hd`, `tl`, `/` and `mod` (a nonzero
//! divisor) becomes an IR `assert` carrying the source position of the core expression.

use super::captures::Captures;
use super::exceptions::Exceptions;
use super::functions::Functions;
use super::heap::Heaps;
use super::layout::{Layout, ListDatatype, component_names};
use super::points_to::{FunName, PointsTo};
use super::single_cells::SingleCells;
use crate::core_lang::ast::*;
use crate::core_lang::typecheck::{NamedCell, Resolution, TypeInfo};
use crate::span::{SourceFile, Span};
use boogie_like::ir::{
    self, Block, CtorId, FieldRef, GlobalId, LocalId, ProcId, Program as IrProgram, SourcePos,
    Stmt, Type as IrType, Var,
};
use boogie_like::ir::{FRESH_INPUT, is_fresh_input};
use std::collections::{HashMap, HashSet};

type IrExpr = ir::Expr;

/// Everything about the program that body lowering reads.
pub struct Context<'a> {
    pub program: &'a Program,
    pub info: &'a TypeInfo,
    pub layout: &'a Layout,
    pub functions: &'a Functions,
    pub captures: &'a Captures,
    pub points_to: &'a PointsTo,
    pub binders: &'a HashMap<BinderId, &'a Binder>,
    /// The globals of every reference, by `RefId`.
    pub ref_globals: &'a [Vec<GlobalId>],
    /// The heap maps of allocated cells.
    pub heaps: &'a Heaps,
    /// The cells allocated at most once per run, each in globals of its own.
    pub single_cells: &'a SingleCells,
    pub file: &'a SourceFile,
    /// The exception protocol, for a program that catches exceptions.
    pub exceptions: Option<&'a Exceptions>,
}

/// Counts of what the lowering produced at call sites.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct DispatchStats {
    pub direct_calls: usize,
    pub dispatch_sites: usize,
    pub candidates_total: usize,
    pub candidates_max: usize,
}

/// What a binder stands for inside the body being lowered.
#[derive(Clone, Debug)]
enum Bound {
    /// The components of its value.
    Values(Vec<IrExpr>),
    /// A `let rec` function: applied by a direct call, its value rebuilt from its captures.
    RecClosure(LambdaId),
}

/// Lowers the body of one function into its procedure.
pub struct BodyLowering<'a, 'ir> {
    cx: &'a Context<'a>,
    ir: &'ir mut IrProgram,
    proc: ProcId,
    taken: HashSet<String>,
    scope: HashMap<BinderId, Bound>,
    blocks: Vec<Block>,
    /// Parallel to `blocks`: whether that block is the rest of a `try` body after a point
    /// where an exception may be pending (it runs only when none is).
    guards: Vec<bool>,
    /// How many `try` bodies of this procedure enclose the code being lowered.
    try_depth: usize,
    /// How many points where an exception may become pending have been lowered.
    raise_points: usize,
    pub stats: DispatchStats,
}

/// How an application reaches its callee.
enum Target {
    Direct { proc: ProcId, leading: Vec<IrExpr> },
    Dispatch(IrExpr),
}

impl<'a, 'ir> BodyLowering<'a, 'ir> {
    pub fn new(cx: &'a Context<'a>, ir: &'ir mut IrProgram, proc: ProcId) -> Self {
        let mut taken: HashSet<String> = ir.globals.values().map(|g| g.name.clone()).collect();
        taken.extend(ir.procs[proc].locals.values().map(|l| l.name.clone()));
        BodyLowering {
            cx,
            ir,
            proc,
            taken,
            scope: HashMap::new(),
            blocks: vec![Vec::new()],
            guards: vec![false],
            try_depth: 0,
            raise_points: 0,
            stats: DispatchStats::default(),
        }
    }

    /// Binds `binders`, in order, to the procedure's parameters starting at `first`;
    /// returns the index after the last one used.
    pub fn bind_params(&mut self, binders: &[&Binder], first: usize) -> usize {
        let params = self.ir.procs[self.proc].params.clone();
        let mut next = first;
        for binder in binders {
            let width = self.cx.layout.width(&binder.ty);
            let values = params[next..next + width]
                .iter()
                .map(|l| IrExpr::var(*l))
                .collect();
            self.scope.insert(binder.id, Bound::Values(values));
            next += width;
        }
        next
    }

    /// `assume min <= p <= max` for each integer parameter among `binders` (the entry's)
    /// when the program's inputs are bounded (OCaml's `int`, [`crate::core_lang::ast::IntModel`]).
    pub fn assume_inputs_in_range(&mut self, binders: &[&Binder]) {
        for binder in binders {
            if binder.ty != Type::Int {
                continue;
            }
            if let Some(Bound::Values(values)) = self.scope.get(&binder.id).cloned() {
                for value in values {
                    self.assume_input_in_range(value);
                }
            }
        }
    }

    fn assume_input_in_range(&mut self, value: IrExpr) {
        if let Some(range) = self.cx.program.ints.input_range() {
            self.emit(Stmt::Assume(in_range(value, range)));
        }
    }

    /// Makes the `let rec` name `binder` stand for the function `lambda`.
    pub fn bind_rec(&mut self, binder: BinderId, lambda: LambdaId) {
        self.scope.insert(binder, Bound::RecClosure(lambda));
    }

    /// Lowers `body`, assigns its value to the procedure's results, and installs the code.
    pub fn finish_with(mut self, body: &Expr) -> DispatchStats {
        let values = self.expr(body);
        let returns = self.ir.procs[self.proc].returns.clone();
        for (ret, value) in returns.into_iter().zip(values) {
            self.emit(Stmt::assign(ret, value));
        }
        let block = self.blocks.pop().expect("internal error: block stack");
        self.ir.set_body(self.proc, block);
        self.stats
    }

    /// Lowers the `Store` initial values into assignments to the reference globals.
    pub fn initialise_store(&mut self) {
        for decl in &self.cx.program.store {
            let values = self.expr(&decl.init);
            for (global, value) in self.cx.ref_globals[decl.id.index()].iter().zip(values) {
                self.emit(Stmt::assign(*global, value));
            }
        }
    }

    // ----- helpers -----

    fn emit(&mut self, stmt: Stmt) {
        self.blocks
            .last_mut()
            .expect("internal error: no block")
            .push(stmt);
    }

    /// Runs `f` collecting the statements it emits into a separate block.
    fn in_block<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> (Block, R) {
        self.blocks.push(Vec::new());
        self.guards.push(false);
        let result = f(self);
        self.close_guards();
        self.guards.pop();
        let block = self.blocks.pop().expect("internal error: block stack");
        (block, result)
    }

    /// Closes the guarded blocks opened inside the current block: each becomes
    /// `if (exn#code == 0) { rest } else { havoc what rest assigns }`, so every local has a
    /// value on both paths (a skipped one is never looked at: an exception is pending).
    fn close_guards(&mut self) {
        while self.guards.last() == Some(&true) {
            self.guards.pop();
            let rest = self.blocks.pop().expect("internal error: block stack");
            let exceptions = self.cx.exceptions.expect("internal error: guard");
            let mut skipped = Vec::new();
            assigned_locals(&self.ir.procs[self.proc], &rest, &mut skipped);
            // A skipped fresh input is no input: it gets 0, not a havoc the VC would report.
            let proc = &self.ir.procs[self.proc];
            let (inputs, skipped): (Vec<Var>, Vec<Var>) = skipped
                .into_iter()
                .partition(|v| is_fresh_input(self.ir.var_name(proc, *v).unwrap_or("")));
            let mut otherwise = havoc(skipped);
            otherwise.extend(inputs.into_iter().map(|v| Stmt::Assign(v, IrExpr::int(0))));
            self.emit(Stmt::if_(exceptions.none_pending(), rest, otherwise));
        }
    }

    /// After code that may have left an exception pending: inside a `try` body the rest of
    /// the body runs only if none is; elsewhere a pending exception returns from the
    /// procedure (its results havocked), or, in the entry, fails at its `raise`.
    fn raise_point(&mut self) {
        let Some(exceptions) = self.cx.exceptions else {
            return;
        };
        self.raise_points += 1;
        if self.try_depth > 0 {
            self.blocks.push(Vec::new());
            self.guards.push(true);
            return;
        }
        let leave = if self.proc == self.cx.functions.main() {
            self.uncaught(exceptions)
        } else {
            let returns = self.ir.procs[self.proc].returns.clone();
            let mut leave = havoc(returns.into_iter().map(Var::Local).collect());
            leave.push(Stmt::Return);
            leave
        };
        self.emit(Stmt::if_(exceptions.pending(), leave, vec![]));
    }

    /// In the entry: the pending exception escapes, a failure at its raise site.
    fn uncaught(&self, exceptions: &Exceptions) -> Block {
        let mut chain = vec![Stmt::Assume(IrExpr::Bool(false))];
        for (site, span) in exceptions.sites.iter().rev() {
            let here = IrExpr::binary(
                ir::BinOp::Eq,
                IrExpr::var(exceptions.site),
                IrExpr::int(*site),
            );
            let fail = Stmt::assert(IrExpr::Bool(false), self.pos(*span));
            chain = vec![Stmt::if_(here, vec![fail], chain)];
        }
        chain
    }

    /// After a compound statement: inside a `try`, a raise point within it is one after it.
    fn raise_points_since(&mut self, before: usize) {
        if self.try_depth > 0 && self.raise_points != before {
            self.raise_point();
        }
    }

    /// Fresh locals for the value of code that cannot produce one (it failed or raised).
    /// In a program that catches exceptions they are havocked, so code that runs past a
    /// pending exception only to skip it never reads an unassigned local.
    fn unreachable(&mut self, ty: &Type) -> Vec<IrExpr> {
        let locals = self.fresh_components("unreachable", ty);
        if self.cx.exceptions.is_some() {
            let vars = locals.iter().map(|l| Var::Local(*l)).collect();
            for stmt in havoc(vars) {
                self.emit(stmt);
            }
        }
        locals.into_iter().map(IrExpr::var).collect()
    }

    fn fresh(&mut self, base: &str, ty: IrType) -> LocalId {
        let mut name = base.to_string();
        let mut k = 0;
        while !self.taken.insert(name.clone()) {
            k += 1;
            name = format!("{base}#{k}");
        }
        self.ir.procs[self.proc].add_local(name, ty)
    }

    fn fresh_components(&mut self, base: &str, ty: &Type) -> Vec<LocalId> {
        let types = self.cx.layout.components(ty);
        let names = component_names(base, types.len());
        names
            .iter()
            .zip(types)
            .map(|(n, t)| self.fresh(n, t))
            .collect()
    }

    fn pos(&self, span: Span) -> Option<SourcePos> {
        let at = self.cx.file.line_col(span.start as usize);
        Some(SourcePos {
            line: at.line,
            col: at.col,
        })
    }

    fn type_of(&self, e: &Expr) -> &'a Type {
        self.cx.info.type_of(e)
    }

    fn ctor(&self, f: FunName) -> CtorId {
        self.cx.functions.ctor(f)
    }

    // ----- expressions -----

    /// The components of the value of `e`, emitting the statements that compute them.
    fn expr(&mut self, e: &Expr) -> Vec<IrExpr> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
            if self.cx.info.diverging.contains(&e.id) {
                self.diverging(e)
            } else {
                self.expr_kind(e)
            }
        })
    }

    /// An expression the checker found to fail whenever it runs (`(fail) 0`,
    /// `fst (Pair(0, fail))`; `TypeInfo::diverging`): its parts run as the interpreter runs
    /// them, up to the `fail` (the function before its arguments, both halves of a pair),
    /// and its value is unreachable, of the type its context expects. Its own type is
    /// unknown, so no type-directed lowering (dispatch, projection) applies to it.
    fn diverging(&mut self, e: &Expr) -> Vec<IrExpr> {
        match &e.kind {
            ExprKind::Fail => return self.expr_kind(e),
            ExprKind::App { func, .. } => drop(self.expr(func)),
            ExprKind::Proj { pair, .. } => drop(self.expr(pair)),
            ExprKind::Pair(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Raise { .. } => return self.expr_kind(e),
            _ => drop(self.expr_kind(e)),
        }
        self.unreachable(self.type_of(e))
    }

    /// The one component of `e` (an int, a list or a closure).
    fn single(&mut self, e: &Expr) -> IrExpr {
        self.expr(e)
            .pop()
            .unwrap_or_else(|| panic!("internal error: no component at {:?}", e.span))
    }

    fn expr_kind(&mut self, e: &Expr) -> Vec<IrExpr> {
        match &e.kind {
            ExprKind::Int(i) => vec![IrExpr::Int(i.clone())],
            ExprKind::Skip => vec![],
            ExprKind::Fail => {
                self.emit(Stmt::assert(IrExpr::Bool(false), self.pos(e.span)));
                self.unreachable(self.type_of(e))
            }
            ExprKind::Nil => vec![IrExpr::ctor(self.list_datatype(e).nil, vec![])],
            ExprKind::Var(_) => self.variable(e),
            ExprKind::Fun(lambda) => vec![self.closure_value(lambda.id)],
            ExprKind::App { func, args } => self.application(e, func, args),
            ExprKind::Let {
                binder,
                value,
                body,
            } => {
                self.let_binding(binder, value);
                self.expr(body)
            }
            ExprKind::LetRec {
                binder,
                lambda,
                body,
            } => {
                self.bind_rec(binder.id, lambda.id);
                self.expr(body)
            }
            ExprKind::If {
                cond,
                then_branch,
                else_branch,
            } => self.conditional(e, cond, then_branch, else_branch),
            ExprKind::Assert(cond) => {
                let holds = self.cond(cond);
                self.emit(Stmt::assert(holds, self.pos(e.span)));
                vec![]
            }
            ExprKind::Assign { value, .. } => {
                let values = self.expr(value);
                match self.cx.info.cell(e) {
                    Some(NamedCell::Store(r)) => {
                        for (global, value) in self.cx.ref_globals[r.index()].iter().zip(values) {
                            self.emit(Stmt::assign(*global, value));
                        }
                    }
                    _ => {
                        let address = self.named_address(e);
                        self.store_cell(self.type_of(value), address, values);
                    }
                }
                vec![]
            }
            ExprKind::Deref(name) => match self.cx.info.cell(e) {
                Some(NamedCell::Store(_)) => self.deref(e, &name.name),
                _ => {
                    let address = self.named_address(e);
                    self.load_cell(e, address)
                }
            },
            ExprKind::Alloc(content) => vec![self.alloc(e, content)],
            ExprKind::Load(target) => match self.expr(target).pop() {
                Some(address) => self.load_cell(e, address),
                // `!(fail)`: the target never produces a reference.
                None => self.unreachable(self.type_of(e)),
            },
            ExprKind::Offset { base, index } => {
                // `base + index`: the cells of an array are allocated consecutively.
                let Some(address) = self.expr(base).pop() else {
                    return vec![];
                };
                match self.expr(index).pop() {
                    Some(i) => vec![IrExpr::binary(ir::BinOp::Add, address, i)],
                    None => vec![],
                }
            }
            ExprKind::Store { target, value } => {
                // `(fail) := v` never evaluates `v`: the target fails first.
                if let Some(address) = self.expr(target).pop() {
                    let values = self.expr(value);
                    self.store_cell(self.type_of(value), address, values);
                }
                vec![]
            }
            ExprKind::Pair(a, b) => {
                let mut values = self.expr(a);
                values.extend(self.expr(b));
                values
            }
            ExprKind::Proj { which, pair, .. } => self.projection(*which, pair),
            ExprKind::Cons(head, tail) => {
                let mut fields = self.expr(head);
                fields.push(self.single(tail));
                vec![IrExpr::ctor(self.list_datatype(e).cons, fields)]
            }
            ExprKind::List(op, list) => self.list_op(e, *op, list),
            ExprKind::Construct { data, ctor, args } => {
                let mut fields = Vec::new();
                for arg in args {
                    fields.extend(self.expr(arg));
                }
                let (_, ctors) = self.cx.layout.datatype(data);
                vec![IrExpr::ctor(ctors[*ctor as usize], fields)]
            }
            ExprKind::IsCtor { ctor, value } => {
                let Type::Data(name) = self.type_of(value) else {
                    panic!("internal error: a constructor test of a non-datatype")
                };
                let ctor_id = self.cx.layout.datatype(name).1[*ctor as usize];
                let value = self.single(value);
                vec![bool_to_int(IrExpr::is(value, ctor_id))]
            }
            ExprKind::Field { ctor, field, value } => self.datatype_field(*ctor, *field, value),
            ExprKind::Binary { op, lhs, rhs } => self.binary(e, *op, lhs, rhs),
            ExprKind::Neg(operand) => match self.single(operand) {
                IrExpr::Int(i) => vec![IrExpr::Int(-i)],
                other => {
                    let negated = IrExpr::unary(ir::UnOp::Neg, other);
                    vec![self.overflow_checked(e, true, negated)]
                }
            },
            ExprKind::Raise { exn, arg } => self.raise(e, *exn, arg.as_deref()),
            ExprKind::Try { body, handlers } => self.try_with(e, body, handlers),
            ExprKind::Input { below } => self.input(e, below.as_deref()),
        }
    }

    /// A fresh input: `havoc input#k` (a local the VC reports as a fresh input, in order),
    /// with `below`: `assert below > 0` at `e` first and `assume 0 <= input#k < below` after.
    fn input(&mut self, e: &Expr, below: Option<&Expr>) -> Vec<IrExpr> {
        let bound = below.map(|b| self.single(b));
        if let Some(n) = &bound {
            let positive = IrExpr::binary(ir::BinOp::Gt, n.clone(), IrExpr::int(0));
            self.emit(Stmt::assert(positive, self.pos(e.span)));
        }
        let value = self.fresh(FRESH_INPUT, IrType::Int);
        self.emit(Stmt::Havoc(vec![Var::Local(value)]));
        if bound.is_none() {
            self.assume_input_in_range(IrExpr::var(value));
        }
        if let Some(n) = bound {
            let v = IrExpr::var(value);
            let low = IrExpr::binary(ir::BinOp::Le, IrExpr::int(0), v.clone());
            let high = IrExpr::binary(ir::BinOp::Lt, v, n);
            self.emit(Stmt::Assume(IrExpr::binary(ir::BinOp::And, low, high)));
        }
        vec![IrExpr::var(value)]
    }

    /// `raise E v`: without a `try` in the program, a failure here; otherwise the exception
    /// becomes pending.
    fn raise(&mut self, e: &Expr, exn: ExnId, arg: Option<&Expr>) -> Vec<IrExpr> {
        let arg = arg.map_or(Vec::new(), |a| self.expr(a));
        let Some(exceptions) = self.cx.exceptions else {
            self.emit(Stmt::assert(IrExpr::Bool(false), self.pos(e.span)));
            return self.unreachable(self.type_of(e));
        };
        for stmt in exceptions.raise(exn, e, arg) {
            self.emit(stmt);
        }
        let values = self.unreachable(self.type_of(e));
        self.raise_point();
        values
    }

    /// `try body with handlers`: the body, its rest guarded after every raise point; then,
    /// if an exception is pending, the first handler for it (clearing it), or none (it stays
    /// pending: re-raised).
    fn try_with(&mut self, e: &Expr, body: &Expr, handlers: &[Handler]) -> Vec<IrExpr> {
        let exceptions = self
            .cx
            .exceptions
            .expect("internal error: try without protocol");
        let results = self.fresh_components("try", self.type_of(e));
        self.try_depth += 1;
        let (body_block, ()) = self.in_block(|this| {
            let values = this.expr(body);
            for (result, value) in results.iter().zip(values) {
                this.emit(Stmt::assign(*result, value));
            }
        });
        self.try_depth -= 1;
        for stmt in body_block {
            self.emit(stmt);
        }
        let vars: Vec<Var> = results.iter().map(|l| Var::Local(*l)).collect();
        let mut chain = havoc(vars);
        for handler in handlers.iter().rev() {
            let (block, ()) = self.in_block(|this| this.handler(handler, &results));
            chain = vec![Stmt::if_(exceptions.is(handler.exn), block, chain)];
        }
        self.emit(Stmt::if_(exceptions.pending(), chain, vec![]));
        self.raise_point();
        results.into_iter().map(IrExpr::var).collect()
    }

    /// One handler: clears the exception, binds its argument, assigns its value to `results`.
    fn handler(&mut self, handler: &Handler, results: &[LocalId]) {
        let exceptions = self.cx.exceptions.expect("internal error: handler");
        if let (Some(binder), Some(exn)) = (&handler.arg, handler.exn) {
            let locals = self.fresh_components(&binder.name.name, &binder.ty);
            let payload = exceptions.payload(exn);
            for (local, global) in locals.iter().zip(payload) {
                self.emit(Stmt::assign(*local, IrExpr::var(*global)));
            }
            let bound = Bound::Values(locals.into_iter().map(IrExpr::var).collect());
            self.scope.insert(binder.id, bound);
        }
        self.emit(exceptions.clear());
        let values = self.expr(&handler.body);
        for (result, value) in results.iter().zip(values) {
            self.emit(Stmt::assign(*result, value));
        }
    }

    fn variable(&mut self, e: &Expr) -> Vec<IrExpr> {
        match self.cx.info.resolution(e) {
            Some(Resolution::Local(b)) => self.bound_value(b),
            Some(Resolution::Method(m)) => {
                vec![IrExpr::ctor(self.ctor(FunName::Method(m)), vec![])]
            }
            None => panic!("internal error: unresolved variable at {:?}", e.span),
        }
    }

    fn bound_value(&mut self, binder: BinderId) -> Vec<IrExpr> {
        match self.scope.get(&binder) {
            Some(Bound::Values(values)) => values.clone(),
            Some(Bound::RecClosure(lambda)) => vec![self.closure_value(*lambda)],
            None => panic!("internal error: binder {binder:?} not in scope"),
        }
    }

    /// `K_f(captured values...)`
    fn closure_value(&mut self, lambda: LambdaId) -> IrExpr {
        let fields = self.captured_values(lambda);
        IrExpr::ctor(self.ctor(FunName::Lambda(lambda)), fields)
    }

    fn captured_values(&mut self, lambda: LambdaId) -> Vec<IrExpr> {
        let captured = self.cx.captures.of(lambda).to_vec();
        captured
            .into_iter()
            .flat_map(|b| self.bound_value(b))
            .collect()
    }

    fn let_binding(&mut self, binder: &Binder, value: &Expr) {
        let values = self.expr(value);
        if binder.ty == Type::Unit {
            self.scope.insert(binder.id, Bound::Values(vec![]));
            return;
        }
        let mut bound = Vec::with_capacity(values.len());
        let names = component_names(&binder.name.name, values.len());
        let types = self.cx.layout.components(&binder.ty);
        for ((value, name), ty) in values.into_iter().zip(names).zip(types) {
            bound.push(self.name_value(&name, ty, value));
        }
        self.scope.insert(binder.id, Bound::Values(bound));
    }

    /// `value` itself if it is a local or a constant, else a fresh local holding it.
    fn name_value(&mut self, name: &str, ty: IrType, value: IrExpr) -> IrExpr {
        if matches!(
            value,
            IrExpr::Var(Var::Local(_)) | IrExpr::Int(_) | IrExpr::Bool(_)
        ) {
            return value;
        }
        let local = self.fresh(name, ty);
        self.emit(Stmt::assign(local, value));
        IrExpr::var(local)
    }

    fn conditional(&mut self, e: &Expr, cond: &Expr, then_e: &Expr, else_e: &Expr) -> Vec<IrExpr> {
        let cond = self.cond(cond);
        let before = self.raise_points;
        let (mut then_block, then_values) = self.in_block(|this| this.expr(then_e));
        let (mut else_block, else_values) = self.in_block(|this| this.expr(else_e));
        if then_block.is_empty() && else_block.is_empty() {
            return then_values
                .into_iter()
                .zip(else_values)
                .map(|(t, f)| IrExpr::ite(cond.clone(), t, f))
                .collect();
        }
        let results = self.fresh_components("res", self.type_of(e));
        for (result, value) in results.iter().zip(then_values) {
            then_block.push(Stmt::assign(*result, value));
        }
        for (result, value) in results.iter().zip(else_values) {
            else_block.push(Stmt::assign(*result, value));
        }
        self.emit(Stmt::if_(cond, then_block, else_block));
        self.raise_points_since(before);
        results.into_iter().map(IrExpr::var).collect()
    }

    fn deref(&mut self, e: &Expr, name: &str) -> Vec<IrExpr> {
        let r = self
            .cx
            .info
            .reference(e)
            .expect("internal error: reference");
        let globals = self.cx.ref_globals[r.index()].clone();
        let names = component_names(&format!("{name}.read"), globals.len());
        let mut values = Vec::new();
        for (global, name) in globals.into_iter().zip(names) {
            let ty = self.ir.globals[global].ty;
            let local = self.fresh(&name, ty);
            self.emit(Stmt::assign(local, IrExpr::var(global)));
            values.push(IrExpr::var(local));
        }
        values
    }

    /// The address held by the local `!r` / `r := e` names (a `Ref`-typed local).
    fn named_address(&mut self, e: &Expr) -> IrExpr {
        self.variable(e)
            .pop()
            .unwrap_or_else(|| panic!("internal error: no address at {:?}", e.span))
    }

    /// `ref content`: `cell := alloc#next; alloc#next := cell + 1;` then the content stored
    /// at `cell` in the heap maps of its type; for a single cell, its content stored in its
    /// globals and its fixed address the value.
    fn alloc(&mut self, site: &Expr, content: &Expr) -> IrExpr {
        let values = self.expr(content);
        if self.cx.info.diverging.contains(&content.id) {
            // `ref fail`: nothing is allocated (the content's type may even be unknown).
            return IrExpr::int(0);
        }
        if let Some(cell) = self.cx.single_cells.at_site(site.id) {
            for (global, value) in cell.globals.iter().zip(values) {
                self.emit(Stmt::assign(*global, value));
            }
            return IrExpr::int(cell.address);
        }
        let next = self.cx.heaps.next();
        let cell = self.fresh("cell", IrType::Int);
        self.emit(Stmt::assign(cell, IrExpr::var(next)));
        let bumped = IrExpr::binary(ir::BinOp::Add, IrExpr::var(cell), IrExpr::int(1));
        self.emit(Stmt::assign(next, bumped));
        self.store_cell(self.type_of(content), IrExpr::var(cell), values);
        IrExpr::var(cell)
    }

    /// `heap[address := v]` for each component of a `content`-typed value, and
    /// `g := if address == a then v else g` for each global `g` of each single cell of
    /// address `a` holding a `content` (`g := v` when it is the only cell of the type).
    fn store_cell(&mut self, content: &Type, address: IrExpr, values: Vec<IrExpr>) {
        let singles = self.cx.single_cells.of_content(content);
        let in_heap = self.cx.single_cells.in_heap(content);
        let only_cell = singles.len() == 1 && !in_heap;
        for cell in singles {
            let here = address_is(&address, cell.address);
            if !only_cell && here == IrExpr::Bool(false) {
                continue;
            }
            for (global, value) in cell.globals.iter().zip(&values) {
                let stored = match only_cell {
                    true => value.clone(),
                    false => choose(here.clone(), value.clone(), IrExpr::var(*global)),
                };
                self.emit(Stmt::assign(*global, stored));
            }
        }
        if !in_heap {
            return;
        }
        let maps = self.cx.heaps.maps(content).to_vec();
        for (map, value) in maps.into_iter().zip(values) {
            let updated = IrExpr::map_set(IrExpr::var(map), address.clone(), value);
            self.emit(Stmt::assign(map, updated));
        }
    }

    /// The content of the cell at `address` read by `e` (whose type is the content's),
    /// copied into fresh locals so later writes cannot change it: from the single cell whose
    /// address it is, else from the heap maps (else from the last single cell, when the
    /// type has no heap).
    fn load_cell(&mut self, e: &Expr, address: IrExpr) -> Vec<IrExpr> {
        let content = self.type_of(e);
        let singles = self.cx.single_cells.of_content(content);
        let types = self.cx.layout.components(content);
        let names = component_names("load", types.len());
        // The innermost `else`: the heap maps, or the last single cell when the type has
        // no heap.
        let (mut reads, others): (Vec<IrExpr>, _) = if self.cx.single_cells.in_heap(content) {
            let maps = self.cx.heaps.maps(content);
            let reads = maps
                .iter()
                .map(|map| IrExpr::map_get(IrExpr::var(*map), address.clone()))
                .collect();
            (reads, singles)
        } else {
            let (last, others) = singles
                .split_last()
                .expect("internal error: a content type with neither heap nor cell");
            (
                last.globals.iter().map(|g| IrExpr::var(*g)).collect(),
                others,
            )
        };
        for cell in others.iter().rev() {
            let here = address_is(&address, cell.address);
            for (read, global) in reads.iter_mut().zip(&cell.globals) {
                *read = choose(here.clone(), IrExpr::var(*global), read.clone());
            }
        }
        let mut values = Vec::new();
        for ((read, name), ty) in reads.into_iter().zip(names).zip(types) {
            let local = self.fresh(&name, ty);
            self.emit(Stmt::assign(local, read));
            values.push(IrExpr::var(local));
        }
        values
    }

    fn projection(&mut self, which: Proj, pair: &Expr) -> Vec<IrExpr> {
        let mut values = self.expr(pair);
        let Type::Pair(first, _) = self.type_of(pair) else {
            panic!(
                "internal error: projection of a non-pair at {:?}",
                pair.span
            );
        };
        let split = self.cx.layout.width(first);
        match which {
            Proj::Fst => {
                values.truncate(split);
                values
            }
            Proj::Snd => values.split_off(split),
        }
    }

    /// The list datatype of the list-typed expression `e`.
    fn list_datatype(&self, e: &Expr) -> ListDatatype {
        let element = self.type_of(e).element().unwrap_or_else(|| {
            panic!(
                "internal error: a list expression of type `{}`",
                self.type_of(e)
            )
        });
        self.cx.layout.list(element)
    }

    fn list_op(&mut self, e: &Expr, op: ListOp, list: &Expr) -> Vec<IrExpr> {
        let list_dt = self.list_datatype(list);
        let width = self
            .cx
            .layout
            .width(self.type_of(list).element().unwrap_or(&Type::Int));
        let value = self.single(list);
        let value = self.name_value("list", IrType::Data(list_dt.datatype), value);
        let field = |index| FieldRef {
            ctor: list_dt.cons,
            index,
        };
        match op {
            ListOp::IsEmpty => vec![bool_to_int(IrExpr::is(value, list_dt.nil))],
            ListOp::Hd | ListOp::Tl => {
                let non_empty = IrExpr::is(value.clone(), list_dt.cons);
                self.emit(Stmt::assert(non_empty, self.pos(e.span)));
                let width = width as u32;
                let fields = if op == ListOp::Hd {
                    0..width
                } else {
                    width..width + 1
                };
                fields
                    .map(|index| IrExpr::select(value.clone(), field(index)))
                    .collect()
            }
        }
    }

    /// The components of field `field` of `value`, built by constructor `ctor` (the
    /// front end tests it first; the IR's selectors of another constructor are never read).
    fn datatype_field(&mut self, ctor: u32, field: u32, value: &Expr) -> Vec<IrExpr> {
        let Type::Data(name) = self.type_of(value) else {
            panic!("internal error: a field of a non-datatype")
        };
        let decl = self
            .cx
            .program
            .datatype(name)
            .unwrap_or_else(|| panic!("internal error: no datatype `{name}`"));
        let fields = &decl.ctors[ctor as usize].fields;
        let start: usize = fields[..field as usize]
            .iter()
            .map(|t| self.cx.layout.width(t))
            .sum();
        let width = self.cx.layout.width(&fields[field as usize]);
        let (id, ctors) = self.cx.layout.datatype(name);
        let ctor_id = ctors[ctor as usize];
        let value = self.single(value);
        let value = self.name_value("data", IrType::Data(id), value);
        (start..start + width)
            .map(|index| {
                IrExpr::select(
                    value.clone(),
                    FieldRef {
                        ctor: ctor_id,
                        index: index as u32,
                    },
                )
            })
            .collect()
    }

    fn binary(&mut self, e: &Expr, op: BinOp, lhs: &Expr, rhs: &Expr) -> Vec<IrExpr> {
        let arithmetic = match op {
            BinOp::Add => ir::BinOp::Add,
            BinOp::Sub => ir::BinOp::Sub,
            BinOp::Mul => ir::BinOp::Mul,
            BinOp::Div => ir::BinOp::Div,
            BinOp::Mod => ir::BinOp::Mod,
            _ => return vec![bool_to_int(self.cond(e))],
        };
        let lhs = self.single(lhs);
        let rhs = self.single(rhs);
        if let Some(exceptions) = self.cx.exceptions
            && let Some(exn) = exceptions.division_by_zero
            && matches!(op, BinOp::Div | BinOp::Mod)
        {
            return vec![self.raising_division(e, exceptions, exn, arithmetic, lhs, rhs)];
        }
        if matches!(op, BinOp::Div | BinOp::Mod) {
            // `Division_by_zero`: the failure the interpreter reports at this expression.
            let nonzero = IrExpr::binary(ir::BinOp::Neq, rhs.clone(), IrExpr::int(0));
            self.emit(Stmt::assert(nonzero, self.pos(e.span)));
        }
        let result = IrExpr::binary(arithmetic, lhs, rhs);
        vec![self.overflow_checked(e, op != BinOp::Mod, result)]
    }

    /// `value` (the result of the arithmetic expression `e`), asserted to lie in the
    /// program's integer range at `e` when overflow is checked (`--overflow-checks`) and
    /// the operation can overflow (`checks`); the interpreter fails there too.
    pub(crate) fn overflow_checked(&mut self, e: &Expr, checks: bool, value: IrExpr) -> IrExpr {
        let Some(range) = self.cx.program.ints.checked_range().filter(|_| checks) else {
            return value;
        };
        let value = self.name_value("arith", IrType::Int, value);
        self.emit(Stmt::assert(
            in_range(value.clone(), range),
            self.pos(e.span),
        ));
        value
    }

    /// `q := lhs / rhs` unless `rhs` is zero, which raises `Division_by_zero` (`exn`).
    fn raising_division(
        &mut self,
        e: &Expr,
        exceptions: &Exceptions,
        exn: ExnId,
        op: ir::BinOp,
        lhs: IrExpr,
        rhs: IrExpr,
    ) -> IrExpr {
        let quotient = self.fresh("q", IrType::Int);
        let zero = IrExpr::binary(ir::BinOp::Eq, rhs.clone(), IrExpr::int(0));
        let mut raise = exceptions.raise(exn, e, Vec::new());
        raise.push(Stmt::Havoc(vec![Var::Local(quotient)]));
        let divide = vec![Stmt::assign(quotient, IrExpr::binary(op, lhs, rhs))];
        self.emit(Stmt::if_(zero, raise, divide));
        self.raise_point();
        self.overflow_checked(e, op == ir::BinOp::Div, IrExpr::var(quotient))
    }

    /// `e` as a boolean (HORef: nonzero is true).
    fn cond(&mut self, e: &Expr) -> IrExpr {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.cond_kind(e))
    }

    fn cond_kind(&mut self, e: &Expr) -> IrExpr {
        let ExprKind::Binary { op, lhs, rhs } = &e.kind else {
            return int_to_bool(self.single(e));
        };
        let relation = match op {
            BinOp::Eq => ir::BinOp::Eq,
            BinOp::Ne => ir::BinOp::Neq,
            BinOp::Lt => ir::BinOp::Lt,
            BinOp::Le => ir::BinOp::Le,
            BinOp::Gt => ir::BinOp::Gt,
            BinOp::Ge => ir::BinOp::Ge,
            BinOp::And | BinOp::Or => return self.short_circuit(*op, lhs, rhs),
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod => {
                return int_to_bool(self.single(e));
            }
        };
        let lhs = self.single(lhs);
        let rhs = self.single(rhs);
        IrExpr::binary(relation, lhs, rhs)
    }

    /// `a && b` / `a || b`, evaluating `b` only when `a` does not decide.
    fn short_circuit(&mut self, op: BinOp, lhs: &Expr, rhs: &Expr) -> IrExpr {
        let left = self.cond(lhs);
        let before = self.raise_points;
        let (mut rhs_block, right) = self.in_block(|this| this.cond(rhs));
        let is_and = op == BinOp::And;
        if rhs_block.is_empty() {
            return if is_and {
                IrExpr::and(left, right)
            } else {
                IrExpr::or(left, right)
            };
        }
        let result = self.fresh(if is_and { "and" } else { "or" }, IrType::Bool);
        rhs_block.push(Stmt::assign(result, right));
        let decided = vec![Stmt::assign(result, IrExpr::Bool(!is_and))];
        let (then_block, else_block) = if is_and {
            (rhs_block, decided)
        } else {
            (decided, rhs_block)
        };
        self.emit(Stmt::if_(left, then_block, else_block));
        self.raise_points_since(before);
        IrExpr::var(result)
    }

    // ----- applications -----

    fn application(&mut self, app: &Expr, func: &Expr, args: &[Expr]) -> Vec<IrExpr> {
        let target = self.call_target(func);
        let mut actuals = Vec::new();
        for arg in args {
            actuals.extend(self.expr(arg));
        }
        let base = match &func.kind {
            ExprKind::Var(name) => format!("r_{}", name.name),
            _ => "r".to_string(),
        };
        let rets = self.fresh_components(&base, self.type_of(app));
        let ret_vars: Vec<Var> = rets.iter().map(|l| Var::Local(*l)).collect();
        let source = self.pos(app.span);
        match target {
            Target::Direct { proc, mut leading } => {
                leading.extend(actuals);
                self.stats.direct_calls += 1;
                let call = self.ir.procs[self.proc].add_call(proc, leading, ret_vars, source);
                self.emit(call);
            }
            Target::Dispatch(closure) => self.dispatch(app, closure, actuals, ret_vars, source),
        }
        self.raise_point();
        rets.into_iter().map(IrExpr::var).collect()
    }

    fn call_target(&mut self, func: &Expr) -> Target {
        if let ExprKind::Var(_) = func.kind {
            match self.cx.info.resolution(func) {
                Some(Resolution::Method(m)) => {
                    let proc = self.cx.functions.proc(FunName::Method(m));
                    return Target::Direct {
                        proc,
                        leading: vec![],
                    };
                }
                Some(Resolution::Local(b)) => {
                    if let Some(Bound::RecClosure(lambda)) = self.scope.get(&b).cloned() {
                        let proc = self.cx.functions.proc(FunName::Lambda(lambda));
                        let leading = self.captured_values(lambda);
                        return Target::Direct { proc, leading };
                    }
                }
                None => {}
            }
        }
        let closure = self.single(func);
        let ty = IrType::Data(self.cx.layout.closure(self.type_of(func)));
        Target::Dispatch(self.name_value("f", ty, closure))
    }

    /// `if (c is K_a) { call a(c->fields.., args) } else if ... else { assume false; }`
    fn dispatch(
        &mut self,
        app: &Expr,
        closure: IrExpr,
        actuals: Vec<IrExpr>,
        rets: Vec<Var>,
        source: Option<SourcePos>,
    ) {
        let candidates: Vec<FunName> = self
            .cx
            .points_to
            .candidates(app.id)
            .iter()
            .copied()
            .collect();
        self.stats.dispatch_sites += 1;
        self.stats.candidates_total += candidates.len();
        self.stats.candidates_max = self.stats.candidates_max.max(candidates.len());
        let mut otherwise: Block = vec![Stmt::Assume(IrExpr::Bool(false))];
        for candidate in candidates.into_iter().rev() {
            let ctor = self.ctor(candidate);
            let guard = IrExpr::is(closure.clone(), ctor);
            if let Some(lambda) = self.wrapper(candidate) {
                let (mut block, values) =
                    self.in_block(|this| this.inline_wrapper(&lambda, &closure, ctor, &actuals));
                block.extend(rets.iter().zip(values).map(|(r, v)| Stmt::assign(*r, v)));
                otherwise = vec![Stmt::if_(guard, block, otherwise)];
                continue;
            }
            let field_count = self.ir.ctor(ctor).map_or(0, |c| c.fields.len());
            let mut args: Vec<IrExpr> = (0..field_count as u32)
                .map(|index| IrExpr::select(closure.clone(), FieldRef { ctor, index }))
                .collect();
            args.extend(actuals.iter().cloned());
            let proc = self.cx.functions.proc(candidate);
            let call = self.ir.procs[self.proc].add_call(proc, args, rets.clone(), source);
            otherwise = vec![Stmt::if_(guard, vec![call], otherwise)];
        }
        for stmt in otherwise {
            self.emit(stmt);
        }
    }
}

impl BodyLowering<'_, '_> {
    /// The lambda of `f` if it is a partial application's closure ([`Lambda::wrapper`]).
    fn wrapper(&self, f: FunName) -> Option<std::rc::Rc<Lambda>> {
        match f {
            FunName::Lambda(id) => self.cx.functions.lambdas.get(&id).cloned(),
            FunName::Method(_) => None,
        }
        .filter(|l| l.wrapper)
    }

    /// The body of the wrapper `lambda` lowered in place, its captures read from the fields
    /// of `closure` (a `ctor` value) and its parameters bound to `actuals`: applying a
    /// partial application costs no depth, only the call in its body does. This terminates:
    /// a wrapper's body is a primitive or applies a function of more parameters than the
    /// wrapper has.
    fn inline_wrapper(
        &mut self,
        lambda: &Lambda,
        closure: &IrExpr,
        ctor: CtorId,
        actuals: &[IrExpr],
    ) -> Vec<IrExpr> {
        let captured =
            super::functions::captured_binders(self.cx.captures, lambda.id, self.cx.binders);
        let fields: Vec<IrExpr> = (0..)
            .map(|index| IrExpr::select(closure.clone(), FieldRef { ctor, index }))
            .take(captured.iter().map(|b| self.cx.layout.width(&b.ty)).sum())
            .collect();
        let binders: Vec<&Binder> = captured.into_iter().chain(&lambda.params).collect();
        let values: Vec<IrExpr> = fields.into_iter().chain(actuals.iter().cloned()).collect();
        let mut saved = Vec::new();
        let mut next = 0;
        for binder in binders {
            let width = self.cx.layout.width(&binder.ty);
            let bound = Bound::Values(values[next..next + width].to_vec());
            saved.push((binder.id, self.scope.insert(binder.id, bound)));
            next += width;
        }
        let result = self.expr(&lambda.body);
        for (binder, old) in saved.into_iter().rev() {
            match old {
                Some(old) => self.scope.insert(binder, old),
                None => self.scope.remove(&binder),
            };
        }
        result
    }
}

/// `havoc vars;`, or nothing for no variables.
fn havoc(vars: Vec<Var>) -> Block {
    if vars.is_empty() {
        vec![]
    } else {
        vec![Stmt::Havoc(vars)]
    }
}

/// The locals `block` may assign (call results included), appended to `out`.
fn assigned_locals(proc: &ir::Procedure, block: &[Stmt], out: &mut Vec<Var>) {
    for stmt in block {
        let assigned: Vec<Var> = match stmt {
            Stmt::Assign(var, _) => vec![*var],
            Stmt::Havoc(vars) => vars.clone(),
            Stmt::Call(site) => proc.call_sites[*site].rets.clone(),
            Stmt::If { then, else_, .. } => {
                assigned_locals(proc, then, out);
                assigned_locals(proc, else_, out);
                vec![]
            }
            Stmt::Assume(_) | Stmt::Assert { .. } | Stmt::Return => vec![],
        };
        for var in assigned {
            if matches!(var, Var::Local(_)) && !out.contains(&var) {
                out.push(var);
            }
        }
    }
}

fn bool_to_int(b: IrExpr) -> IrExpr {
    IrExpr::ite(b, IrExpr::int(1), IrExpr::int(0))
}

fn int_to_bool(i: IrExpr) -> IrExpr {
    match i {
        IrExpr::Ite { cond, then, else_ }
            if *then == IrExpr::int(1) && *else_ == IrExpr::int(0) =>
        {
            *cond
        }
        IrExpr::Int(n) => IrExpr::Bool(n != 0.into()),
        other => IrExpr::binary(ir::BinOp::Neq, other, IrExpr::int(0)),
    }
}

/// `lo <= value && value <= hi`.
fn in_range(value: IrExpr, (lo, hi): (num_bigint::BigInt, num_bigint::BigInt)) -> IrExpr {
    let low = IrExpr::binary(ir::BinOp::Le, IrExpr::int(lo), value.clone());
    let high = IrExpr::binary(ir::BinOp::Le, value, IrExpr::int(hi));
    IrExpr::binary(ir::BinOp::And, low, high)
}

/// `address == a` (decided now for a literal address, as a single cell's is).
fn address_is(address: &IrExpr, a: i64) -> IrExpr {
    match address {
        IrExpr::Int(n) => IrExpr::Bool(*n == a.into()),
        _ => IrExpr::binary(ir::BinOp::Eq, address.clone(), IrExpr::int(a)),
    }
}

/// `if cond then a else b`, decided now for a literal `cond`.
fn choose(cond: IrExpr, a: IrExpr, b: IrExpr) -> IrExpr {
    match cond {
        IrExpr::Bool(true) => a,
        IrExpr::Bool(false) => b,
        cond => IrExpr::ite(cond, a, b),
    }
}
