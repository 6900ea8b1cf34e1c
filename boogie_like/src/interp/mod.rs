//! The concrete, depth-bounded IR interpreter: the replay oracle for bug reports.
//!
//! Semantics (docs/semantics.md transposed to the IR):
//! - the entry procedure's body runs at depth 0; each `call` runs the callee one level
//!   deeper; a call that would run deeper than `max_depth` is not executed and the run ends
//!   as [`Outcome::CutOff`] with `depth` = the depth of the calling body (= `max_depth`);
//! - a false `assert` ends the run as [`Outcome::Failure`]; a false `assume` ends it as
//!   [`Outcome::Blocked`] (an infeasible path); each executed statement costs one step and
//!   exhausting the fuel ends it as [`Outcome::OutOfFuel`] — a run never hangs;
//! - globals start at their type's default (`0`, `false`, the first constructor whose fields
//!   all have defaults — see [`value::Defaults`]); `havoc` assigns the default too, unless a
//!   [`HavocOracle`] is supplied; locals (returns included) start unassigned, and reading an
//!   unassigned local or returning with an unassigned return is a [`RuntimeError`] (it
//!   catches lowering bugs), as is a selector applied to a value of another constructor.
//!
//! Guarantees: [`Interpreter::new`] verifies the program first (an ill-formed program is
//! [`RuntimeError::Invalid`]); afterwards runs never panic and never overflow the native
//! stack (calls recurse under `stacker::maybe_grow`; depth 100 000 is fine).

mod eval;
mod exec;
pub mod map_value;
pub mod value;

use crate::arena::Arena;
use crate::ir::{CallSiteId, Expr, GlobalId, ProcId, Procedure, Program, SourcePos, Type, Var};
use crate::verify::{VerifyError, verify};
use exec::{Machine, Stop};
pub use value::Value;
use value::{Defaults, display_values};

/// Limits and options of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunConfig {
    /// The deepest depth a body may run at (the entry body runs at 0).
    pub max_depth: u32,
    /// The number of statements the run may execute.
    pub fuel: u64,
    /// Whether to record every call and return in [`RunResult::trace`].
    pub trace: bool,
}

impl Default for RunConfig {
    fn default() -> RunConfig {
        RunConfig {
            max_depth: 10,
            fuel: 1_000_000,
            trace: false,
        }
    }
}

impl RunConfig {
    /// The default configuration with the given depth bound.
    pub fn with_depth(max_depth: u32) -> RunConfig {
        RunConfig {
            max_depth,
            ..RunConfig::default()
        }
    }

    /// The same configuration with another fuel.
    pub fn fuel(self, fuel: u64) -> RunConfig {
        RunConfig { fuel, ..self }
    }

    /// The same configuration with tracing on or off.
    pub fn trace(self, trace: bool) -> RunConfig {
        RunConfig { trace, ..self }
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The entry procedure returned normally.
    Returned,
    /// An `assert` in `proc`, running at `depth`, was false.
    Failure {
        proc: ProcId,
        source: Option<SourcePos>,
        depth: u32,
    },
    /// An `assume` in `proc`, running at `depth`, was false: the path is infeasible.
    Blocked { proc: ProcId, depth: u32 },
    /// Call site `site` of `caller`, running at `depth` (= `max_depth`), would have run its
    /// callee deeper than `max_depth`.
    CutOff {
        depth: u32,
        caller: ProcId,
        site: CallSiteId,
    },
    /// The run executed `fuel` statements without ending.
    OutOfFuel { fuel: u64 },
}

/// One event of a run's trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceEvent {
    /// `proc` starts at `depth` with `args`; `caller` is `None` for the entry procedure.
    Call {
        caller: Option<(ProcId, CallSiteId)>,
        proc: ProcId,
        args: Vec<Value>,
        depth: u32,
        source: Option<SourcePos>,
    },
    /// `proc`, running at `depth`, returns `returns`.
    Return {
        proc: ProcId,
        returns: Vec<Value>,
        depth: u32,
    },
}

impl TraceEvent {
    /// One line for `horef-si run --trace`, indented by depth, as for HORef programs:
    /// `call f(1, 2) at 4:7, depth 1` and `return f = 3, depth 1`.
    pub fn describe(&self, program: &Program) -> String {
        let name = |proc: &ProcId| program.procs.get(*proc).map_or("?", |p| p.name.as_str());
        match self {
            TraceEvent::Call {
                proc,
                args,
                depth,
                source,
                ..
            } => {
                let at = source.map(|pos| format!(" at {pos}")).unwrap_or_default();
                let args = display_values(program, args);
                let indent = 2 * *depth as usize;
                format!(
                    "{:indent$}call {}({args}){at}, depth {depth}",
                    "",
                    name(proc)
                )
            }
            TraceEvent::Return {
                proc,
                returns,
                depth,
            } => {
                let values = match returns.as_slice() {
                    [] => String::new(),
                    values => format!(" = {}", display_values(program, values)),
                };
                let indent = 2 * *depth as usize;
                format!("{:indent$}return {}{values}, depth {depth}", "", name(proc))
            }
        }
    }
}

/// The result of a run that did not hit a [`RuntimeError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunResult {
    pub outcome: Outcome,
    /// The entry procedure's results (empty unless the outcome is [`Outcome::Returned`]).
    pub returns: Vec<Value>,
    /// The globals' final values.
    pub globals: Arena<GlobalId, Value>,
    /// Calls and returns, if [`RunConfig::trace`] was set.
    pub trace: Vec<TraceEvent>,
    /// The number of statements executed.
    pub steps: u64,
}

impl RunResult {
    /// A one-line summary: `returns 7, true`, `returns nothing`, `failure at 14:3`,
    /// `failure in p` (an assert without source position), `blocked`,
    /// `cut off at depth 3`, `out of fuel`.
    pub fn summary(&self, program: &Program) -> String {
        match &self.outcome {
            Outcome::Returned if self.returns.is_empty() => "returns nothing".to_string(),
            Outcome::Returned => format!("returns {}", display_values(program, &self.returns)),
            Outcome::Failure {
                source: Some(pos), ..
            } => format!("failure at {pos}"),
            Outcome::Failure { proc, .. } => {
                let name = program.procs.get(*proc).map_or("?", |p| p.name.as_str());
                format!("failure in {name}")
            }
            Outcome::Blocked { .. } => "blocked".to_string(),
            Outcome::CutOff { depth, .. } => format!("cut off at depth {depth}"),
            Outcome::OutOfFuel { .. } => "out of fuel".to_string(),
        }
    }
}

/// A run that could not be carried out: a bad program or input, or a lowering bug that
/// showed up at run time.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuntimeError {
    #[error("the program is ill-formed ({} errors); the first: {}", .errors.len(), first_error(.errors))]
    Invalid { errors: Vec<VerifyError> },
    #[error("the entry procedure `{proc}` takes {expected} arguments, got {found}")]
    ArgCount {
        proc: String,
        expected: usize,
        found: usize,
    },
    #[error("argument {index} of `{proc}`: expected a value of type {expected}, got `{found}`")]
    ArgType {
        proc: String,
        index: usize,
        expected: String,
        found: String,
    },
    #[error("procedure `{proc}` reads local `{local}` before assigning it")]
    UnassignedLocal { proc: String, local: String },
    #[error("procedure `{proc}` returns without assigning `{local}`")]
    UnassignedReturn { proc: String, local: String },
    #[error("procedure `{proc}`: `->{field}` applied to a `{found}` value")]
    SelectorMismatch {
        proc: String,
        field: String,
        found: String,
    },
    #[error("the havoc oracle gave `{found}` for `{var}`, which has type {expected}")]
    OracleType {
        var: String,
        expected: String,
        found: String,
    },
    #[error("procedure `{proc}` divides by zero (`/` and `%` are undefined on a zero divisor)")]
    DivisionByZero { proc: String },
    #[error("the expression is not closed: it reads variable `{name}`")]
    NotClosed { name: String },
    #[error(
        "procedure `{proc}`: a quantifier cannot be evaluated concretely{}",
        if *.asked { " (the solver did not decide it on the run's values)" } else { "" }
    )]
    Quantifier { proc: String, asked: bool },
}

fn first_error(errors: &[VerifyError]) -> String {
    errors.first().map_or_else(String::new, ToString::to_string)
}

/// Chooses the values `havoc` assigns.
pub trait HavocOracle {
    /// The value for `var` (of type `ty`) havocked in procedure `proc`.
    fn havoc(&mut self, proc: ProcId, var: Var, ty: Type) -> Value;
}

impl<F: FnMut(ProcId, Var, Type) -> Value> HavocOracle for F {
    fn havoc(&mut self, proc: ProcId, var: Var, ty: Type) -> Value {
        self(proc, var, ty)
    }
}

/// Decides quantifiers on a run's values (the interpreter cannot enumerate `int`).
pub trait QuantifierOracle: std::fmt::Debug {
    /// Whether `quant` (an [`Expr::Quant`] of procedure `proc`) holds when every other
    /// variable it reads has the value `free` gives; `None` when it cannot tell.
    fn decide(
        &self,
        program: &Program,
        proc: &Procedure,
        quant: &Expr,
        free: &[(Var, Value)],
    ) -> Option<bool>;
}

/// An interpreter for one verified program; runs are independent of each other.
#[derive(Clone, Debug)]
pub struct Interpreter<'p> {
    program: &'p Program,
    entry: ProcId,
    defaults: Defaults,
    quantifiers: Option<&'p dyn QuantifierOracle>,
}

impl<'p> Interpreter<'p> {
    /// Verifies `program` and prepares it for runs.
    pub fn new(program: &'p Program) -> Result<Interpreter<'p>, RuntimeError> {
        verify(program).map_err(|errors| RuntimeError::Invalid { errors })?;
        let Some(entry) = program.entrypoint() else {
            panic!("internal error: a verified program has an entrypoint")
        };
        Ok(Interpreter {
            program,
            entry,
            defaults: Defaults::new(program),
            quantifiers: None,
        })
    }

    /// The same interpreter, deciding quantifiers with `oracle` (without one, evaluating a
    /// quantifier is [`RuntimeError::Quantifier`]).
    pub fn with_quantifiers(self, oracle: &'p dyn QuantifierOracle) -> Interpreter<'p> {
        Interpreter {
            quantifiers: Some(oracle),
            ..self
        }
    }

    /// The default value of `ty` (`0`, `false`, or a datatype's default constructor value).
    pub fn default_value(&self, ty: Type) -> Value {
        match self.defaults.get(ty) {
            Some(v) => v,
            None => panic!("internal error: a verified program's types are inhabited"),
        }
    }

    /// Runs the entry procedure on `inputs`; `havoc` assigns default values.
    pub fn run(&self, inputs: &[Value], config: &RunConfig) -> Result<RunResult, RuntimeError> {
        self.run_inner(inputs, config, None)
    }

    /// Runs the entry procedure on `inputs`; `havoc` asks `oracle`.
    pub fn run_with_oracle(
        &self,
        inputs: &[Value],
        config: &RunConfig,
        oracle: &mut dyn HavocOracle,
    ) -> Result<RunResult, RuntimeError> {
        self.run_inner(inputs, config, Some(oracle))
    }

    fn run_inner(
        &self,
        inputs: &[Value],
        config: &RunConfig,
        oracle: Option<&mut dyn HavocOracle>,
    ) -> Result<RunResult, RuntimeError> {
        self.check_inputs(inputs)?;
        let globals = self
            .program
            .globals
            .values()
            .map(|g| self.default_value(g.ty))
            .collect();
        let program = self.program;
        let defaults = &self.defaults;
        let mut machine = Machine {
            program,
            defaults,
            config,
            oracle,
            quantifiers: self.quantifiers,
            globals,
            steps: 0,
            trace: Vec::new(),
        };
        let (outcome, returns) = match machine.run_entry(self.entry, inputs.to_vec()) {
            Ok(returns) => (Outcome::Returned, returns),
            Err(Stop::End(outcome)) => (outcome, Vec::new()),
            Err(Stop::Error(e)) => return Err(e),
        };
        let Machine {
            globals,
            trace,
            steps,
            ..
        } = machine;
        Ok(RunResult {
            outcome,
            returns,
            globals,
            trace,
            steps,
        })
    }

    fn check_inputs(&self, inputs: &[Value]) -> Result<(), RuntimeError> {
        let entry: &Procedure = &self.program.procs[self.entry];
        let proc = entry.name.clone();
        if inputs.len() != entry.params.len() {
            let (expected, found) = (entry.params.len(), inputs.len());
            return Err(RuntimeError::ArgCount {
                proc,
                expected,
                found,
            });
        }
        for (index, (value, param)) in inputs.iter().zip(&entry.params).enumerate() {
            let ty = entry.locals[*param].ty;
            if !value.has_type(self.program, ty) {
                let (expected, found) = (self.program.type_name(ty), value.display(self.program));
                return Err(RuntimeError::ArgType {
                    proc,
                    index: index + 1,
                    expected,
                    found,
                });
            }
        }
        Ok(())
    }

    /// The value of a closed expression (literals, constructors, operators; no variables);
    /// an ill-typed expression is [`RuntimeError::Invalid`].
    pub fn eval_closed(&self, expr: &Expr) -> Result<Value, RuntimeError> {
        let mut var = None;
        expr.for_each_var(&mut |v| var = var.or(Some(v)));
        if let Some(v) = var {
            let name = match v {
                Var::Global(g) => self.program.globals.get(g).map_or("?", |g| g.name.as_str()),
                Var::Local(_) => "?",
            };
            return Err(RuntimeError::NotClosed {
                name: name.to_string(),
            });
        }
        let proc = Procedure::new("");
        crate::verify::verify_expr(self.program, &proc, expr)
            .map_err(|errors| RuntimeError::Invalid { errors })?;
        let globals = Arena::new();
        let env = eval::Env {
            program: self.program,
            proc: &proc,
            locals: &[],
            globals: &globals,
            quantifiers: self.quantifiers,
        };
        env.eval(expr)
    }
}

/// Verifies `program` and runs its entry procedure once: `Interpreter::new(program)?.run(..)`.
pub fn run(
    program: &Program,
    inputs: &[Value],
    config: &RunConfig,
) -> Result<RunResult, RuntimeError> {
    Interpreter::new(program)?.run(inputs, config)
}

#[cfg(test)]
mod tests;
