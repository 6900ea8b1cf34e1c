//! Verification conditions of procedure instances (docs/engine.md).
//!
//! [`Encoder::instance`] turns one procedure, at one point of the call tree, into SMT
//! commands. The shape (each rule states itself where it is implemented):
//! - SSA: every assignment with a non-trivial right side declares a fresh constant and
//!   asserts its definition; an `if` merges the values its branches assign with `ite`. The
//!   formula is linear in the size of the procedure — never one copy per path.
//! - A path condition `pc` (a fresh Boolean per block) is true exactly on the executions
//!   that reach the current statement without having failed.
//! - `assert c` is a failure point `pc ∧ ¬c`; afterwards `pc := pc ∧ c` (nothing runs after a
//!   failure). `assume e` asserts `pc ⇒ e`.
//! - Each call site gets a reach literal `b ⇔ pc`, fresh constants for the callee's results,
//!   the globals it may modify and its failure flag `f`; afterwards `pc := pc ∧ ¬f`. A callee
//!   that can never fail (no reachable `assert`) gets `f = false`: the summary every open
//!   site keeps, so an assertion that does not depend on a call can be proved for all depths.
//! - every `havoc x` is also recorded as an [`EncodedInput`]: its path condition and its
//!   value, how many call sites come before it, and whether `x` is named `input#…`
//!   ([`boogie_like::ir::FRESH_INPUT`], a fresh input of the source program), so a model's fresh inputs and
//!   its other havocked values can be listed in the order an execution meets them (the
//!   lowered bodies have no loops).
//! - The instance's failure flag is the disjunction of its failure points and `b ∧ f` of its
//!   call sites.
//!
//! Control definitions (path conditions, failure points, reach literals, failure flags) are
//! asserted unconditionally; they are definitions of fresh constants, and `pc` starts at the
//! instance's entry condition (its call site's `b`), so when the instance does not run they
//! are all false, by unit propagation. Definitions of program values and `assume`s are
//! guarded by the path condition where they are made (`pc ⇒ x = e`, likewise the `ite`
//! merges): off their path they constrain nothing and are irrelevant to the solver, so a
//! branch or an instance that does not run costs almost nothing. (Guarding the control
//! definitions too leaves the reach literals of an instance that does not run free; z3 then
//! decides them, and the bodies of instances below them become relevant: on a generated
//! 4000-line program that made 22 times the decisions: 387 000 instead of 17 500.)
//!
//! Only live values are merged: at an `if` join and at the exit, a variable no execution
//! reads afterwards gets no `ite`, and a call reports back only the globals live after some
//! call of its callee ([`super::liveness`]). An `if` one of whose branches is `assume false`
//! (a dispatch's last case) is `assume c` followed by the other branch.

use super::array_frames;
use super::liveness::{LiveSet, Liveness};
use super::smt::{Command, const_array, int_literal, sort, symbol};
use boogie_like::ir::is_fresh_input;
use boogie_like::ir::{
    self, BinOp, CallSiteId, CtorId, Expr, GlobalId, ProcId, Program as IrProgram, SourcePos, Stmt,
    Type as IrType, UnOp, Var,
};
use easy_smt::{Context, SExpr};
use num_traits::ToPrimitive;
use std::collections::{BTreeMap, HashSet};
use std::rc::Rc;

/// The values an instance starts from.
#[derive(Clone, Debug)]
pub struct InstanceInputs {
    /// One term per parameter.
    pub args: Vec<SExpr>,
    /// The value of every global the procedure reads or modifies.
    pub globals: BTreeMap<GlobalId, SExpr>,
    /// True exactly when the instance runs.
    pub entry: SExpr,
}

/// A call site inside an encoded instance, ready to be inlined, havocked or blocked.
#[derive(Clone, Debug)]
pub struct EncodedSite {
    pub site: CallSiteId,
    pub callee: ProcId,
    /// True exactly on the executions that make this call (false when the instance the
    /// site is in does not run).
    pub reach: SExpr,
    pub args: Vec<SExpr>,
    /// The values of the callee's read and modified globals before the call.
    pub globals_in: BTreeMap<GlobalId, SExpr>,
    /// Constants for the callee's results.
    pub rets: Vec<SExpr>,
    /// Constants for the globals the callee modifies, after the call.
    pub globals_out: BTreeMap<GlobalId, SExpr>,
    /// The callee's failure flag (`false` if it can never fail).
    pub fail: SExpr,
    pub source: Option<SourcePos>,
}

/// A value havocked in an instance: `reach` is true exactly when the execution takes it,
/// `value` is the value it takes; it comes after the instance's first `after_sites` call
/// sites and before the others. `fresh`: the havocked local is a fresh input of the source
/// program ([`boogie_like::ir::FRESH_INPUT`]); the others are the IR's own nondeterminism (a Boogie loop's
/// or bodiless callee's `havoc`), which a witness supplies to the replay.
#[derive(Clone, Debug)]
pub struct EncodedInput {
    pub reach: SExpr,
    pub value: SExpr,
    pub after_sites: usize,
    pub fresh: bool,
}

/// An `assume (forall x :: lo <= x && x < hi ==> m[x] == v)` of an instance
/// ([`array_frames::range_frame`]), its terms at that point: `reach` is true exactly when
/// the execution assumes it; `low`/`high` carry whether 1 is to be added.
#[derive(Clone, Debug)]
pub struct EncodedRangeFrame {
    pub reach: SExpr,
    pub map: SExpr,
    pub low: (SExpr, bool),
    pub high: (SExpr, bool),
    pub value: SExpr,
}

/// A place where the instance can fail: `holds` is true exactly when it fails there (false
/// when the instance does not run).
#[derive(Clone, Debug)]
pub struct FailurePoint {
    pub source: Option<SourcePos>,
    pub holds: SExpr,
}

/// The interface of an encoded instance.
#[derive(Clone, Debug)]
pub struct EncodedInstance {
    pub proc: ProcId,
    pub rets: Vec<SExpr>,
    pub globals_out: BTreeMap<GlobalId, SExpr>,
    pub fail: SExpr,
    pub sites: Vec<EncodedSite>,
    pub failure_points: Vec<FailurePoint>,
    /// Its `havoc`s (fresh inputs and the others), in statement order.
    pub inputs: Vec<EncodedInput>,
    /// Its assumed range frames, in statement order.
    pub range_frames: Vec<EncodedRangeFrame>,
}

/// Encodes procedure instances of one IR program. A clone shares the program facts (which
/// procedures may fail, liveness) and continues the naming where the original stood.
#[derive(Clone)]
pub struct Encoder<'a> {
    ir: &'a IrProgram,
    may_fail: Rc<[bool]>,
    liveness: Rc<Liveness>,
    next_name: u64,
}

/// The encoder while it builds terms with one term store.
struct Building<'e, 'a> {
    ir: &'a IrProgram,
    terms: &'e Context,
    may_fail: &'e [bool],
    liveness: &'e Liveness,
    next_name: &'e mut u64,
}

/// The symbolic state on one path: its condition and the current value of each variable.
#[derive(Clone)]
struct State {
    pc: SExpr,
    vars: im::HashMap<Var, SExpr>,
}

/// What encoding a body collects besides the state.
struct Collected {
    sites: Vec<EncodedSite>,
    failure_points: Vec<FailurePoint>,
    inputs: Vec<EncodedInput>,
    range_frames: Vec<EncodedRangeFrame>,
    /// Disjuncts of the instance's failure flag.
    fails: Vec<SExpr>,
    /// States at `return` statements.
    exits: Vec<State>,
}

impl<'a> Encoder<'a> {
    pub fn new(ir: &'a IrProgram) -> Encoder<'a> {
        Encoder {
            ir,
            may_fail: may_fail(ir).into(),
            liveness: Rc::new(Liveness::of(ir)),
            next_name: 0,
        }
    }

    /// An encoder for another solver session: the same program facts, names from the start.
    pub fn for_new_session(&self) -> Encoder<'a> {
        Encoder {
            next_name: 0,
            ..self.clone()
        }
    }

    /// The program this encoder encodes.
    pub fn ir(&self) -> &'a IrProgram {
        self.ir
    }

    /// Whether `proc` can fail at all (it, or a procedure it may call, has an `assert`).
    pub fn may_fail(&self, proc: ProcId) -> bool {
        self.may_fail[proc.0 as usize]
    }

    fn building<'e>(&'e mut self, terms: &'e Context) -> Building<'e, 'a> {
        Building {
            ir: self.ir,
            terms,
            may_fail: &self.may_fail,
            liveness: &self.liveness,
            next_name: &mut self.next_name,
        }
    }

    /// A fresh constant of `ty`, declared through `out`.
    pub fn fresh(
        &mut self,
        terms: &Context,
        prefix: &str,
        ty: IrType,
        out: &mut Vec<Command>,
    ) -> SExpr {
        self.building(terms).fresh(prefix, ty, out)
    }

    /// The term of `e`, an expression of `proc` whose variables other than its
    /// quantifiers' have the terms `bindings` gives (the replay's quantifier checks).
    pub fn closed_term(
        &mut self,
        terms: &Context,
        proc: ProcId,
        e: &Expr,
        bindings: &[(Var, SExpr)],
        out: &mut Vec<Command>,
    ) -> SExpr {
        let state = State {
            pc: terms.true_(),
            vars: bindings.iter().copied().collect(),
        };
        self.building(terms).expr(proc, e, &state, out)
    }

    /// Encodes one instance of `proc` starting from `inputs`.
    pub fn instance(
        &mut self,
        terms: &Context,
        proc: ProcId,
        inputs: &InstanceInputs,
        out: &mut Vec<Command>,
    ) -> EncodedInstance {
        self.building(terms).instance(proc, inputs, out)
    }

    /// Inlines `site`: encodes an instance of its callee that runs exactly when the call is
    /// made (its entry is the site's reach literal `b`), and links the site's results,
    /// modified globals and failure flag to the instance's, each under `b`.
    pub fn inline_site(
        &mut self,
        terms: &Context,
        site: &EncodedSite,
        out: &mut Vec<Command>,
    ) -> EncodedInstance {
        let inputs = InstanceInputs {
            args: site.args.clone(),
            globals: site.globals_in.clone(),
            entry: site.reach,
        };
        let instance = self.instance(terms, site.callee, &inputs, out);
        let linked = |fact: SExpr| Command::Assert(guarded(terms, site.reach, fact));
        for (ret, value) in site.rets.iter().zip(&instance.rets) {
            out.push(linked(terms.eq(*ret, *value)));
        }
        for (global, value) in &site.globals_out {
            out.push(linked(terms.eq(*value, instance.globals_out[global])));
        }
        if terms.get_atom(site.fail) != Some("false") {
            out.push(linked(terms.eq(site.fail, instance.fail)));
        }
        instance
    }
}

impl Building<'_, '_> {
    fn may_fail(&self, proc: ProcId) -> bool {
        self.may_fail[proc.0 as usize]
    }

    fn fresh(&mut self, prefix: &str, ty: IrType, out: &mut Vec<Command>) -> SExpr {
        let name = self.terms.atom(format!("{prefix}!{}", *self.next_name));
        *self.next_name += 1;
        out.push(Command::Declare {
            name,
            sort: sort(self.ir, ty),
        });
        name
    }

    /// A fresh constant defined as `value` (or `value` itself if it is already an atom).
    fn define(&mut self, prefix: &str, ty: IrType, value: SExpr, out: &mut Vec<Command>) -> SExpr {
        if self.terms.get_atom(value).is_some() {
            return value;
        }
        let name = self.fresh(prefix, ty, out);
        out.push(Command::Assert(self.terms.eq(name, value)));
        name
    }

    /// A fresh constant defined as `value` on the executions where `guard` holds
    /// (`guard ⇒ x = value`): a program value, only read on those executions. Off them the
    /// definition is irrelevant to the solver, so a branch or instance that does not run
    /// costs nothing (a `Main` dispatching to hundreds of sub-mains).
    fn define_guarded(
        &mut self,
        prefix: &str,
        ty: IrType,
        guard: SExpr,
        value: SExpr,
        out: &mut Vec<Command>,
    ) -> SExpr {
        if self.terms.get_atom(value).is_some() {
            return value;
        }
        let name = self.fresh(prefix, ty, out);
        out.push(Command::Assert(guarded(
            self.terms,
            guard,
            self.terms.eq(name, value),
        )));
        name
    }

    fn instance(
        &mut self,
        proc: ProcId,
        inputs: &InstanceInputs,
        out: &mut Vec<Command>,
    ) -> EncodedInstance {
        let p = &self.ir.procs[proc];
        let mut vars = im::HashMap::new();
        for (param, arg) in p.params.iter().zip(&inputs.args) {
            vars.insert(Var::Local(*param), *arg);
        }
        for (global, value) in &inputs.globals {
            vars.insert(Var::Global(*global), *value);
        }
        let mut state = State {
            pc: inputs.entry,
            vars,
        };
        let mut collected = Collected {
            sites: Vec::new(),
            failure_points: Vec::new(),
            inputs: Vec::new(),
            range_frames: Vec::new(),
            fails: Vec::new(),
            exits: Vec::new(),
        };
        self.block(proc, &p.body, &mut state, &mut collected, out);
        let exits = std::mem::take(&mut collected.exits);
        let final_state = self.merge_exits(proc, exits, state, out);
        let rets = p
            .returns
            .iter()
            .map(|r| self.read(proc, &final_state, Var::Local(*r), out))
            .collect();
        let globals_out = self
            .liveness
            .exported(proc)
            .iter()
            .map(|g| (*g, self.read(proc, &final_state, Var::Global(*g), out)))
            .collect();
        let fail = self.disjunction(collected.fails, out);
        EncodedInstance {
            proc,
            rets,
            globals_out,
            fail,
            sites: collected.sites,
            failure_points: collected.failure_points,
            inputs: collected.inputs,
            range_frames: collected.range_frames,
        }
    }

    /// `(or fails...)` as one Boolean constant, or `false`.
    fn disjunction(&mut self, fails: Vec<SExpr>, out: &mut Vec<Command>) -> SExpr {
        match fails.len() {
            0 => self.terms.false_(),
            // A literal, so it can be a `check-sat-assuming` assumption.
            1 => self.define("fail", IrType::Bool, fails[0], out),
            _ => {
                let any = self.terms.or_many(fails);
                self.define("fail", IrType::Bool, any, out)
            }
        }
    }

    /// The current value of `var`; an unassigned variable reads as an unconstrained value.
    fn read(&mut self, proc: ProcId, state: &State, var: Var, out: &mut Vec<Command>) -> SExpr {
        if let Some(value) = state.vars.get(&var) {
            return *value;
        }
        let ty = self
            .ir
            .var_type(&self.ir.procs[proc], var)
            .expect("internal error: variable type");
        self.fresh("undef", ty, out)
    }

    fn var_type(&self, proc: ProcId, var: Var) -> IrType {
        self.ir
            .var_type(&self.ir.procs[proc], var)
            .expect("internal error: variable type")
    }

    fn block(
        &mut self,
        proc: ProcId,
        block: &[Stmt],
        state: &mut State,
        collected: &mut Collected,
        out: &mut Vec<Command>,
    ) {
        for stmt in block {
            stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
                self.stmt(proc, stmt, state, collected, out)
            });
        }
    }

    fn stmt(
        &mut self,
        proc: ProcId,
        stmt: &Stmt,
        state: &mut State,
        collected: &mut Collected,
        out: &mut Vec<Command>,
    ) {
        match stmt {
            // x := e   ~>   x' = e[state]
            Stmt::Assign(var, value) => {
                let term = self.expr(proc, value, state, out);
                let ty = self.var_type(proc, *var);
                let defined = self.define_guarded("x", ty, state.pc, term, out);
                state.vars.insert(*var, defined);
            }
            // havoc x   ~>   x' fresh
            Stmt::Havoc(vars) => {
                for var in vars {
                    let ty = self.var_type(proc, *var);
                    let value = self.fresh("havoc", ty, out);
                    state.vars.insert(*var, value);
                    let name = self.ir.var_name(&self.ir.procs[proc], *var);
                    collected.inputs.push(EncodedInput {
                        reach: state.pc,
                        value,
                        after_sites: collected.sites.len(),
                        fresh: name.is_some_and(is_fresh_input),
                    });
                }
            }
            Stmt::Assume(cond) => {
                self.record_range_frame(proc, cond, state, collected, out);
                self.assume(proc, cond, state, out)
            }
            // assert c   ~>   failure point pc ∧ ¬c; then pc := pc ∧ c
            Stmt::Assert { cond, source } => {
                let cond = self.expr(proc, cond, state, out);
                let fails_here = self.terms.and(state.pc, self.terms.not(cond));
                let holds = self.define("fails", IrType::Bool, fails_here, out);
                collected.fails.push(holds);
                collected.failure_points.push(FailurePoint {
                    source: *source,
                    holds,
                });
                let continues = self.terms.and(state.pc, cond);
                state.pc = self.define("pc", IrType::Bool, continues, out);
            }
            Stmt::Call(site) => self.call(proc, *site, state, collected, out),
            // if c {A} else {assume false}   ~>   assume c; A   (a dispatch's last case)
            Stmt::If { cond, then, else_ } if is_assume_false(else_) => {
                self.assume(proc, cond, state, out);
                self.block(proc, then, state, collected, out);
            }
            // if c {assume false} else {B}   ~>   assume ¬c; B
            Stmt::If { cond, then, else_ } if is_assume_false(then) => {
                self.assume(proc, &!cond.clone(), state, out);
                self.block(proc, else_, state, collected, out);
            }
            Stmt::If { cond, then, else_ } => {
                let live = self.liveness.live_after_if(stmt);
                self.conditional(proc, cond, (then, else_), live, state, collected, out)
            }
            // return   ~>   this state is an exit; the rest of the block is unreachable
            Stmt::Return => {
                collected.exits.push(state.clone());
                state.pc = self.terms.false_();
            }
        }
    }

    /// assume e   ~>   pc ⇒ e
    /// Records `cond` when it is a range frame ([`EncodedRangeFrame`]).
    fn record_range_frame(
        &mut self,
        proc: ProcId,
        cond: &Expr,
        state: &State,
        collected: &mut Collected,
        out: &mut Vec<Command>,
    ) {
        let Expr::Quant {
            forall: true,
            vars,
            body,
        } = cond
        else {
            return;
        };
        let [bound] = vars.as_slice() else {
            return;
        };
        let Some(frame) = array_frames::range_frame(body, *bound) else {
            return;
        };
        let map = self.expr(proc, frame.map, state, out);
        let low = (self.expr(proc, frame.low.0, state, out), frame.low.1);
        let high = (self.expr(proc, frame.high.0, state, out), frame.high.1);
        let value = self.expr(proc, frame.value, state, out);
        collected.range_frames.push(EncodedRangeFrame {
            reach: state.pc,
            map,
            low,
            high,
            value,
        });
    }

    fn assume(&mut self, proc: ProcId, cond: &Expr, state: &State, out: &mut Vec<Command>) {
        let cond = self.expr(proc, cond, state, out);
        out.push(Command::Assert(self.terms.imp(state.pc, cond)));
    }

    /// b ⇔ pc; results, modified globals and failure flag fresh; pc := pc ∧ ¬f.
    fn call(
        &mut self,
        proc: ProcId,
        site_id: CallSiteId,
        state: &mut State,
        collected: &mut Collected,
        out: &mut Vec<Command>,
    ) {
        let site = &self.ir.procs[proc].call_sites[site_id];
        let callee = &self.ir.procs[site.callee];
        let reach = self.fresh("b", IrType::Bool, out);
        out.push(Command::Assert(self.terms.eq(reach, state.pc)));
        // A large argument is named: the callee may use a parameter many times and pass it
        // on, and a term copied into every use doubles at each level (`dbl (dbl (dbl x))`).
        // Small ones (`n - 1`) stay inline: a name costs the solver a guarded equality.
        let args = site
            .args
            .iter()
            .zip(&callee.params)
            .map(|(a, param)| {
                let term = self.expr(proc, a, state, out);
                if term_size(self.terms, term, INLINE_ARGUMENT_SIZE) <= INLINE_ARGUMENT_SIZE {
                    return term;
                }
                let ty = callee.locals[*param].ty;
                self.define_guarded("arg", ty, state.pc, term, out)
            })
            .collect();
        let globals_in = callee
            .reads
            .iter()
            .chain(&callee.modifies)
            .map(|g| (*g, self.read(proc, state, Var::Global(*g), out)))
            .collect();
        let rets: Vec<SExpr> = callee
            .returns
            .iter()
            .map(|r| self.fresh("ret", callee.locals[*r].ty, out))
            .collect();
        // Only the globals live after some call come back (vc::liveness); the others keep
        // their old value here, which no execution reads.
        let globals_out: BTreeMap<GlobalId, SExpr> = self
            .liveness
            .exported(site.callee)
            .iter()
            .map(|g| (*g, self.fresh("gout", self.ir.globals[*g].ty, out)))
            .collect();
        let fail = if self.may_fail(site.callee) {
            self.fresh("f", IrType::Bool, out)
        } else {
            self.terms.false_()
        };
        // The callee's globals first, then its outs: an out may be a global the callee
        // modifies (`call g := p()`), and the out is what it holds after the call.
        for (global, value) in &globals_out {
            state.vars.insert(Var::Global(*global), *value);
        }
        for (target, value) in site.rets.iter().zip(&rets) {
            state.vars.insert(*target, *value);
        }
        if self.may_fail(site.callee) {
            collected.fails.push(self.terms.and(reach, fail));
            let continues = self.terms.and(state.pc, self.terms.not(fail));
            state.pc = self.define("pc", IrType::Bool, continues, out);
        }
        collected.sites.push(EncodedSite {
            site: site_id,
            callee: site.callee,
            reach,
            args,
            globals_in,
            rets,
            globals_out,
            fail,
            source: site.source,
        });
    }

    /// Both branches under pc ∧ c and pc ∧ ¬c, then x' = ite(c, x_then, x_else) for the
    /// variables `live` after the join.
    #[allow(clippy::too_many_arguments)]
    fn conditional(
        &mut self,
        proc: ProcId,
        cond: &Expr,
        (then, else_): (&[Stmt], &[Stmt]),
        live: &LiveSet,
        state: &mut State,
        collected: &mut Collected,
        out: &mut Vec<Command>,
    ) {
        let cond = self.expr(proc, cond, state, out);
        let then_pc = self.terms.and(state.pc, cond);
        let else_pc = self.terms.and(state.pc, self.terms.not(cond));
        let mut then_state = State {
            pc: self.define("pc", IrType::Bool, then_pc, out),
            vars: state.vars.clone(),
        };
        let mut else_state = State {
            pc: self.define("pc", IrType::Bool, else_pc, out),
            vars: state.vars.clone(),
        };
        let (then_entry, else_entry) = (then_state.pc, else_state.pc);
        self.block(proc, then, &mut then_state, collected, out);
        self.block(proc, else_, &mut else_state, collected, out);
        let entry = state.pc;
        let branches = (&then_state, &else_state);
        state.vars = self.merge_vars(proc, (cond, entry), branches, live, out);
        if then_state.pc != then_entry || else_state.pc != else_entry {
            let continues = self.terms.or(then_state.pc, else_state.pc);
            state.pc = self.define("pc", IrType::Bool, continues, out);
        }
    }

    /// `x' = ite(cond, x_a, x_b)` for every variable in `live` the states disagree on,
    /// defined where `guard` (one of the two states' conditions) holds. A dead variable
    /// they disagree on is dropped: read by mistake, it would be unconstrained, never wrong.
    fn merge_vars(
        &mut self,
        proc: ProcId,
        (cond, guard): (SExpr, SExpr),
        (a, b): (&State, &State),
        live: &LiveSet,
        out: &mut Vec<Command>,
    ) -> im::HashMap<Var, SExpr> {
        let mut merged = a.vars.clone();
        let keys: HashSet<Var> = a.vars.keys().chain(b.vars.keys()).copied().collect();
        let mut keys: Vec<Var> = keys.into_iter().collect();
        keys.sort();
        for var in keys {
            let (va, vb) = (a.vars.get(&var).copied(), b.vars.get(&var).copied());
            if va == vb {
                continue;
            }
            if !live.contains(&var) {
                merged.remove(&var);
                continue;
            }
            let va = va.unwrap_or_else(|| self.read(proc, a, var, out));
            let vb = vb.unwrap_or_else(|| self.read(proc, b, var, out));
            let ty = self.var_type(proc, var);
            let value = self.terms.ite(cond, va, vb);
            merged.insert(var, self.define_guarded("phi", ty, guard, value, out));
        }
        merged
    }

    /// The state at the end of the body: the fall-through state merged with every `return`.
    fn merge_exits(
        &mut self,
        proc: ProcId,
        exits: Vec<State>,
        fallthrough: State,
        out: &mut Vec<Command>,
    ) -> State {
        let live = self.liveness.exit_live(proc);
        let mut result = fallthrough;
        for exit in exits.into_iter().rev() {
            let pc = self.terms.or(exit.pc, result.pc);
            let vars = self.merge_vars(proc, (exit.pc, pc), (&exit, &result), live, out);
            result = State { pc, vars };
        }
        result
    }

    // ----- expressions -----

    fn expr(&mut self, proc: ProcId, e: &Expr, state: &State, out: &mut Vec<Command>) -> SExpr {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
            self.expr_inner(proc, e, state, out)
        })
    }

    fn expr_inner(
        &mut self,
        proc: ProcId,
        e: &Expr,
        state: &State,
        out: &mut Vec<Command>,
    ) -> SExpr {
        let t = self.terms;
        match e {
            Expr::Int(i) => int_literal(t, i),
            Expr::Bool(true) => t.true_(),
            Expr::Bool(false) => t.false_(),
            Expr::Var(v) => self.read(proc, state, *v, out),
            Expr::Unary { op, arg } => {
                let arg = self.expr(proc, arg, state, out);
                match op {
                    UnOp::Neg => t.negate(arg),
                    UnOp::Not => t.not(arg),
                }
            }
            Expr::Binary {
                op: op @ (BinOp::Eq | BinOp::Neq),
                lhs,
                rhs,
            } if divisibility_test(lhs, rhs).is_some() => {
                let (dividend, c) = divisibility_test(lhs, rhs).unwrap_or((lhs, 1));
                let dividend = self.expr(proc, dividend, state, out);
                let remainder = t.list(vec![t.atom("mod"), dividend, t.numeral(c.unsigned_abs())]);
                let divides = t.eq(remainder, t.numeral(0));
                if *op == BinOp::Eq {
                    divides
                } else {
                    t.not(divides)
                }
            }
            Expr::Binary { op, lhs, rhs } => {
                let divisor = match (op, rhs.as_ref()) {
                    (BinOp::Div | BinOp::Mod, Expr::Int(c)) => c.to_i64().filter(|c| *c != 0),
                    _ => None,
                };
                let lhs = self.expr(proc, lhs, state, out);
                match divisor {
                    Some(c) if *op == BinOp::Div => truncating_div_by(t, lhs, c),
                    Some(c) => truncating_mod_by(t, lhs, c),
                    None => {
                        let rhs = self.expr(proc, rhs, state, out);
                        binary(t, *op, lhs, rhs)
                    }
                }
            }
            Expr::Ite { cond, then, else_ } => {
                let cond = self.expr(proc, cond, state, out);
                let then = self.expr(proc, then, state, out);
                let else_ = self.expr(proc, else_, state, out);
                t.ite(cond, then, else_)
            }
            Expr::Ctor { ctor, args } => {
                let name = t.atom(symbol(&self.ctor_name(*ctor)));
                if args.is_empty() {
                    return name;
                }
                let mut items = vec![name];
                for arg in args {
                    items.push(self.expr(proc, arg, state, out));
                }
                t.list(items)
            }
            Expr::Is { arg, ctor } => {
                let arg = self.expr(proc, arg, state, out);
                let tester = t.list(vec![
                    t.atom("_"),
                    t.atom("is"),
                    t.atom(symbol(&self.ctor_name(*ctor))),
                ]);
                t.list(vec![tester, arg])
            }
            Expr::Select { arg, field } => {
                let arg = self.expr(proc, arg, state, out);
                let name = &self.ir.field(*field).expect("internal error: field").name;
                t.list(vec![t.atom(symbol(name)), arg])
            }
            // [K](v)   ~>   ((as const (Array K V)) v)
            Expr::MapConst { key, value } => {
                let p = &self.ir.procs[proc];
                let value_ty = self
                    .ir
                    .expr_type(p, value)
                    .expect("internal error: map type");
                let value = self.expr(proc, value, state, out);
                const_array(t, self.ir, *key, value_ty, value)
            }
            // m[i]   ~>   (select m i)
            Expr::MapGet { map, index } => {
                let map = self.expr(proc, map, state, out);
                let index = self.expr(proc, index, state, out);
                t.list(vec![t.atom("select"), map, index])
            }
            // m[i := v]   ~>   (store m i v)
            Expr::MapSet { map, index, value } => {
                let map = self.expr(proc, map, state, out);
                let index = self.expr(proc, index, state, out);
                let value = self.expr(proc, value, state, out);
                t.list(vec![t.atom("store"), map, index, value])
            }
            // forall x :: x == e || A[x] == B[x]   ~>   (= A (store B e (select A e)))
            // (super::array_frames: equivalent, and quantifier-free);
            // forall x: T :: e   ~>   (forall ((q!n T)) e[x := q!n])
            Expr::Quant { forall, vars, body } => {
                if *forall
                    && let [bound] = vars.as_slice()
                    && let Some(frame) = array_frames::equation(body, *bound)
                {
                    let map = self.expr(proc, frame.map, state, out);
                    let other = self.expr(proc, frame.other, state, out);
                    let point = self.expr(proc, frame.point, state, out);
                    let kept = t.list(vec![t.atom("select"), map, point]);
                    return t.eq(map, t.list(vec![t.atom("store"), other, point, kept]));
                }
                let mut inner = State {
                    pc: state.pc,
                    vars: state.vars.clone(),
                };
                let mut binders = Vec::new();
                for v in vars {
                    let name = t.atom(format!("q!{}", *self.next_name));
                    *self.next_name += 1;
                    let ty = self.var_type(proc, Var::Local(*v));
                    binders.push(t.list(vec![name, t.atom(sort(self.ir, ty).text())]));
                    inner.vars.insert(Var::Local(*v), name);
                }
                let body = self.expr(proc, body, &inner, out);
                let kind = t.atom(if *forall { "forall" } else { "exists" });
                t.list(vec![kind, t.list(binders), body])
            }
        }
    }

    fn ctor_name(&self, ctor: CtorId) -> String {
        self.ir
            .ctor(ctor)
            .expect("internal error: constructor")
            .name
            .clone()
    }
}

/// The largest call argument passed on as a term rather than a name (in nodes).
const INLINE_ARGUMENT_SIZE: usize = 12;

/// The number of nodes of `term` printed as a tree (shared subterms counted each time),
/// counting stops a little past `limit`.
fn term_size(t: &Context, term: SExpr, limit: usize) -> usize {
    let mut size = 0;
    let mut pending = vec![term];
    while let Some(next) = pending.pop() {
        size += 1;
        if size > limit {
            break;
        }
        if let Some(children) = t.get_list(next) {
            pending.extend_from_slice(children);
        }
    }
    size
}

/// Whether `block` is exactly `assume false` (the branch no execution takes).
pub fn is_assume_false(block: &[Stmt]) -> bool {
    matches!(block, [Stmt::Assume(Expr::Bool(false))])
}

/// `guard ⇒ fact`, or `fact` itself when the guard is `true`.
pub fn guarded(t: &Context, guard: SExpr, fact: SExpr) -> SExpr {
    if t.get_atom(guard) == Some("true") {
        fact
    } else {
        t.imp(guard, fact)
    }
}

fn binary(t: &Context, op: BinOp, lhs: SExpr, rhs: SExpr) -> SExpr {
    match op {
        BinOp::Add => t.plus(lhs, rhs),
        BinOp::Sub => t.sub(lhs, rhs),
        BinOp::Mul => t.times(lhs, rhs),
        BinOp::Div => truncating_div(t, lhs, rhs),
        BinOp::Mod => truncating_mod(t, lhs, rhs),
        // SMT-LIB's `div` and `mod` are Euclidean.
        BinOp::EuclidDiv => t.list(vec![t.atom("div"), lhs, rhs]),
        BinOp::EuclidMod => t.list(vec![t.atom("mod"), lhs, rhs]),
        BinOp::Eq => t.eq(lhs, rhs),
        BinOp::Neq => t.not(t.eq(lhs, rhs)),
        BinOp::Lt => t.lt(lhs, rhs),
        BinOp::Le => t.lte(lhs, rhs),
        BinOp::Gt => t.gt(lhs, rhs),
        BinOp::Ge => t.gte(lhs, rhs),
        BinOp::And => t.and(lhs, rhs),
        BinOp::Or => t.or(lhs, rhs),
        BinOp::Implies => t.imp(lhs, rhs),
    }
}

/// `a / b` truncating toward zero. SMT-LIB's `div` is Euclidean, but on `|a|` and `|b|` it
/// is the truncated quotient of the magnitudes; the sign is negative exactly when the
/// signs of `a` and `b` differ. (A zero divisor never reaches here: the lowering asserts
/// the divisor nonzero first.)
fn truncating_div(t: &Context, a: SExpr, b: SExpr) -> SExpr {
    let magnitude = t.list(vec![t.atom("div"), abs(t, a), abs(t, b)]);
    let same_sign = t.eq(t.gte(a, t.numeral(0)), t.gte(b, t.numeral(0)));
    t.ite(same_sign, magnitude, t.negate(magnitude))
}

/// `a mod b` as OCaml (and C) define it: `|a| mod |b|` with the sign of `a`.
fn truncating_mod(t: &Context, a: SExpr, b: SExpr) -> SExpr {
    let magnitude = t.list(vec![t.atom("mod"), abs(t, a), abs(t, b)]);
    t.ite(t.gte(a, t.numeral(0)), magnitude, t.negate(magnitude))
}

/// `a mod c = 0` (either way round) for a literal `c ≠ 0`: the dividend and `c`. Whatever
/// the signs, OCaml's remainder is zero exactly when Euclidean `mod a |c|` is, so the test
/// is encoded as the latter, with no case on the sign of `a`.
fn divisibility_test<'e>(lhs: &'e Expr, rhs: &'e Expr) -> Option<(&'e Expr, i64)> {
    let literal_divisor = |e: &'e Expr| match e {
        Expr::Binary {
            op: BinOp::Mod,
            lhs,
            rhs,
        } => match rhs.as_ref() {
            Expr::Int(c) => c.to_i64().filter(|c| *c != 0).map(|c| (lhs.as_ref(), c)),
            _ => None,
        },
        _ => None,
    };
    let is_zero = |e: &Expr| matches!(e, Expr::Int(z) if z.to_i64() == Some(0));
    if is_zero(rhs) {
        literal_divisor(lhs)
    } else if is_zero(lhs) {
        literal_divisor(rhs)
    } else {
        None
    }
}

/// `a / c` truncating toward zero, for a literal divisor `c ≠ 0`: Euclidean `div a |c|`
/// is the floor of `a / |c|`, one below the truncated quotient exactly when `a` is
/// negative and not a multiple of `c`; the sign flips with `c`'s. Unlike
/// [`truncating_div`] it has no `abs` of the dividend, so the term `mod a |c|` is the one
/// the list measures use (`odd(cons(h, t)) = mod(h, 2) + odd(t)`) and Spacer relates the
/// two without a case split on the sign.
fn truncating_div_by(t: &Context, a: SExpr, c: i64) -> SExpr {
    let m = t.numeral(c.unsigned_abs());
    let exact = t.or(
        t.gte(a, t.numeral(0)),
        t.eq(t.list(vec![t.atom("mod"), a, m]), t.numeral(0)),
    );
    let floor = t.list(vec![t.atom("div"), a, m]);
    let magnitude = t.ite(exact, floor, t.plus(floor, t.numeral(1)));
    if c > 0 {
        magnitude
    } else {
        t.negate(magnitude)
    }
}

/// `a mod c` as OCaml defines it, for a literal divisor `c ≠ 0`: the sign is `a`'s and the
/// magnitude `|a| mod |c|`, so it is Euclidean `mod a |c|`, less `|c|` when `a` is negative
/// and not a multiple of `c` (see [`truncating_div_by`] for why not [`truncating_mod`]).
fn truncating_mod_by(t: &Context, a: SExpr, c: i64) -> SExpr {
    let m = t.numeral(c.unsigned_abs());
    let remainder = t.list(vec![t.atom("mod"), a, m]);
    let exact = t.or(t.gte(a, t.numeral(0)), t.eq(remainder, t.numeral(0)));
    t.ite(exact, remainder, t.sub(remainder, m))
}

fn abs(t: &Context, a: SExpr) -> SExpr {
    t.list(vec![t.atom("abs"), a])
}

/// Which procedures can fail: those with an `assert`, and their callers, transitively.
fn may_fail(ir: &IrProgram) -> Vec<bool> {
    let mut fails: Vec<bool> = ir
        .procs
        .values()
        .map(|p| {
            let mut any = false;
            ir::for_each_stmt(&p.body, &mut |s| {
                any |= matches!(s, Stmt::Assert { cond, .. } if *cond != Expr::Bool(true));
            });
            any
        })
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for (id, p) in ir.procs.iter() {
            if fails[id.0 as usize] {
                continue;
            }
            if p.call_sites.values().any(|s| fails[s.callee.0 as usize]) {
                fails[id.0 as usize] = true;
                changed = true;
            }
        }
    }
    fails
}
