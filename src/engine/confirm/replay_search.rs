//! Replaying an IR bug whose run makes nondeterministic choices (`havoc`) below the entry.
//!
//! The solver's model gives the entry's inputs; `havoc`s in other procedures (a Boogie
//! program's loop and block procedures, bodiless callees) are not inputs. [`search`] runs
//! the program on the model's inputs again and again, choosing the havocked values depth
//! first: booleans both ways, integers from a small pool (0, 1, -1, the inputs' integers and
//! the program's literals with their neighbours), datatypes and maps their default (a map
//! holding its value type's default everywhere).
//!
//! Guarantees: a result is a real run of the concrete interpreter that fails at `target`
//! (or anywhere, when `target` is `None`), with the choices it made in order; the search
//! stops after [`MAX_RUNS`] runs or [`STEP_BUDGET`] interpreter steps in total, so it always
//! ends. It may miss a failing run (it is a search), never invents one.

use boogie_like::ir::{Expr, Program as IrProgram, SourcePos, Stmt, Type};
use boogie_like::{Interpreter, Outcome, ProcId, RunConfig, RunResult, Value, Var};
use num_bigint::BigInt;

/// How many runs the search may make.
pub const MAX_RUNS: usize = 2000;
/// How many interpreter steps all runs may take together.
pub const STEP_BUDGET: u64 = 20_000_000;
/// How many integers the pool holds at most.
const POOL: usize = 16;

/// One value a `havoc` took in the failing run.
#[derive(Clone, Debug)]
pub struct Choice {
    pub proc: ProcId,
    pub var: Var,
    pub value: Value,
}

/// A failing run and the choices it made.
pub struct Found {
    pub run: RunResult,
    pub choices: Vec<Choice>,
}

/// Searches the `havoc` choices for a run on `inputs` that fails at `target`.
pub fn search(
    ir: &IrProgram,
    inputs: &[Value],
    config: &RunConfig,
    target: Option<SourcePos>,
) -> Option<Found> {
    let quantifiers = crate::engine::confirm::quantifiers::SolverQuantifiers::default();
    let interpreter = Interpreter::new(ir).ok()?.with_quantifiers(&quantifiers);
    let pool = int_pool(ir, inputs);
    let mut prefix: Vec<usize> = Vec::new();
    let mut budget = STEP_BUDGET;
    for _ in 0..MAX_RUNS {
        let run_config = RunConfig {
            fuel: config.fuel.min(budget),
            ..config.clone()
        };
        let mut script = Script {
            prefix: &prefix,
            taken: Vec::new(),
            choices: Vec::new(),
            pool: &pool,
            interpreter: &interpreter,
        };
        let run = interpreter.run_with_oracle(inputs, &run_config, &mut script);
        let Script { taken, choices, .. } = script;
        if let Ok(run) = run {
            if fails_at(&run.outcome, target) {
                return Some(Found { run, choices });
            }
            budget = budget.saturating_sub(run.steps);
        }
        prefix = next(taken)?;
        if budget == 0 {
            return None;
        }
    }
    None
}

fn fails_at(outcome: &Outcome, target: Option<SourcePos>) -> bool {
    matches!(outcome, Outcome::Failure { source, .. } if target.is_none() || *source == target)
}

/// The next choice prefix, depth first: the last choice with an option left takes it.
fn next(mut taken: Vec<(usize, usize)>) -> Option<Vec<usize>> {
    while let Some((chosen, options)) = taken.pop() {
        if chosen + 1 < options {
            taken.push((chosen + 1, options));
            return Some(taken.into_iter().map(|(c, _)| c).collect());
        }
    }
    None
}

/// The oracle of one run: follows `prefix`, then takes the first option.
struct Script<'a> {
    prefix: &'a [usize],
    /// Each choice made: (option taken, options there were).
    taken: Vec<(usize, usize)>,
    choices: Vec<Choice>,
    pool: &'a [BigInt],
    interpreter: &'a Interpreter<'a>,
}

impl boogie_like::HavocOracle for Script<'_> {
    fn havoc(&mut self, proc: ProcId, var: Var, ty: Type) -> Value {
        let options = match ty {
            // A value of an uninterpreted sort is an opaque integer: the same pool.
            Type::Int | Type::Sort(_) => self.pool.len(),
            Type::Bool => 2,
            Type::Data(_) | Type::Map(_) => 1,
        };
        let chosen = self
            .prefix
            .get(self.taken.len())
            .copied()
            .unwrap_or(0)
            .min(options - 1);
        self.taken.push((chosen, options));
        let value = match ty {
            Type::Int | Type::Sort(_) => Value::Int(self.pool[chosen].clone()),
            Type::Bool => Value::Bool(chosen == 1),
            Type::Data(_) | Type::Map(_) => self.interpreter.default_value(ty),
        };
        self.choices.push(Choice {
            proc,
            var,
            value: value.clone(),
        });
        value
    }
}

/// 0, 1, -1, the inputs' integers, then the program's literals and their neighbours.
fn int_pool(ir: &IrProgram, inputs: &[Value]) -> Vec<BigInt> {
    let mut pool: Vec<BigInt> = vec![0.into(), 1.into(), (-1).into()];
    let add = |i: BigInt, pool: &mut Vec<BigInt>| {
        if pool.len() < POOL && !pool.contains(&i) {
            pool.push(i);
        }
    };
    for v in inputs {
        if let Value::Int(i) = v {
            add(i.clone(), &mut pool);
        }
    }
    let mut literals = Vec::new();
    for (_, p) in ir.procs.iter() {
        boogie_like::ir::for_each_stmt(&p.body, &mut |s| stmt_literals(s, p, &mut literals));
    }
    for i in literals {
        for d in [0, 1, -1] {
            add(&i + d, &mut pool);
        }
    }
    pool
}

fn stmt_literals(s: &Stmt, p: &boogie_like::Procedure, out: &mut Vec<BigInt>) {
    match s {
        Stmt::Assign(_, e)
        | Stmt::Assume(e)
        | Stmt::Assert { cond: e, .. }
        | Stmt::If { cond: e, .. } => expr_literals(e, out),
        Stmt::Call(site) => p.call_sites[*site]
            .args
            .iter()
            .for_each(|e| expr_literals(e, out)),
        Stmt::Havoc(_) | Stmt::Return => {}
    }
}

fn expr_literals(e: &Expr, out: &mut Vec<BigInt>) {
    if let Expr::Int(i) = e
        && !out.contains(i)
    {
        out.push(i.clone());
    }
    for child in e.children() {
        expr_literals(child, out);
    }
}
