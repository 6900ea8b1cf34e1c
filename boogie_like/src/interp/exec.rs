//! Statement execution and calls: the depth-bounded machine.
//!
//! Rules (docs/semantics.md transposed to the IR): the entry body runs at depth 0; a `call` made at
//! depth `d` runs the callee at `d + 1`, unless `d + 1 > max_depth`, which ends the run as
//! `CutOff { depth: d }`. A false `assert` ends the run as `Failure`, a false `assume` as
//! `Blocked`. Every executed statement costs one step of fuel; running out ends the run as
//! `OutOfFuel`. Calls recurse on the native stack under `stacker::maybe_grow`.

use super::eval::Env;
use super::value::Defaults;
use super::{HavocOracle, Outcome, RunConfig, RuntimeError, TraceEvent, Value};
use crate::arena::Arena;
use crate::ir::{CallSiteId, GlobalId, ProcId, Program, SourcePos, Stmt, Var};

/// Why a run stopped before the entry procedure returned.
pub(crate) enum Stop {
    End(Outcome),
    Error(RuntimeError),
}

impl From<RuntimeError> for Stop {
    fn from(e: RuntimeError) -> Stop {
        Stop::Error(e)
    }
}

type Exec<T> = Result<T, Stop>;

/// The activation of one procedure.
struct Frame {
    proc: ProcId,
    depth: u32,
    locals: Vec<Option<Value>>,
}

/// What a statement tells the enclosing block.
enum Flow {
    Next,
    Return,
}

/// The state of one run.
pub(crate) struct Machine<'a, 'o> {
    pub program: &'a Program,
    pub defaults: &'a Defaults,
    pub config: &'a RunConfig,
    pub oracle: Option<&'o mut dyn HavocOracle>,
    pub quantifiers: Option<&'a dyn super::QuantifierOracle>,
    pub globals: Arena<GlobalId, Value>,
    pub steps: u64,
    pub trace: Vec<TraceEvent>,
}

impl Machine<'_, '_> {
    /// Runs the entry procedure `entry` on `inputs` at depth 0; returns its results.
    pub(crate) fn run_entry(&mut self, entry: ProcId, inputs: Vec<Value>) -> Exec<Vec<Value>> {
        self.record_call(None, entry, &inputs, 0, None);
        self.run_proc(entry, inputs, 0)
    }

    fn record_call(
        &mut self,
        caller: Option<(ProcId, CallSiteId)>,
        proc: ProcId,
        args: &[Value],
        depth: u32,
        source: Option<SourcePos>,
    ) {
        if self.config.trace {
            let args = args.to_vec();
            self.trace.push(TraceEvent::Call {
                caller,
                proc,
                args,
                depth,
                source,
            });
        }
    }

    fn run_proc(&mut self, id: ProcId, args: Vec<Value>, depth: u32) -> Exec<Vec<Value>> {
        let program = self.program;
        let proc = &program.procs[id];
        let mut frame = Frame {
            proc: id,
            depth,
            locals: vec![None; proc.locals.len()],
        };
        for (param, value) in proc.params.iter().zip(args) {
            frame.locals[param.0 as usize] = Some(value);
        }
        self.block(&mut frame, &proc.body)?;
        let mut returns = Vec::with_capacity(proc.returns.len());
        for r in &proc.returns {
            let Some(value) = frame.locals[r.0 as usize].take() else {
                let local = proc.locals[*r].name.clone();
                return Err(RuntimeError::UnassignedReturn {
                    proc: proc.name.clone(),
                    local,
                }
                .into());
            };
            returns.push(value);
        }
        if self.config.trace {
            self.trace.push(TraceEvent::Return {
                proc: id,
                returns: returns.clone(),
                depth,
            });
        }
        Ok(returns)
    }

    fn env<'f>(&'f self, frame: &'f Frame) -> Env<'f> {
        Env {
            program: self.program,
            proc: &self.program.procs[frame.proc],
            locals: &frame.locals,
            globals: &self.globals,
            quantifiers: self.quantifiers,
        }
    }

    fn tick(&mut self) -> Exec<()> {
        if self.steps >= self.config.fuel {
            return Err(Stop::End(Outcome::OutOfFuel {
                fuel: self.config.fuel,
            }));
        }
        self.steps += 1;
        Ok(())
    }

    fn block(&mut self, frame: &mut Frame, block: &[Stmt]) -> Exec<Flow> {
        for stmt in block {
            if let Flow::Return = self.stmt(frame, stmt)? {
                return Ok(Flow::Return);
            }
        }
        Ok(Flow::Next)
    }

    fn stmt(&mut self, frame: &mut Frame, stmt: &Stmt) -> Exec<Flow> {
        self.tick()?;
        match stmt {
            Stmt::Assign(var, e) => {
                let value = self.env(frame).eval(e)?;
                self.write(frame, *var, value);
            }
            Stmt::Havoc(vars) => vars.iter().try_for_each(|v| self.havoc(frame, *v))?,
            Stmt::Assume(e) => self.assume(frame, e)?,
            Stmt::Assert { cond, source } => self.assert(frame, cond, *source)?,
            Stmt::Call(site) => self.call(frame, *site)?,
            Stmt::If { cond, then, else_ } => {
                let branch = if self.env(frame).eval_bool(cond)? {
                    then
                } else {
                    else_
                };
                return stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.block(frame, branch));
            }
            Stmt::Return => return Ok(Flow::Return),
        }
        Ok(Flow::Next)
    }

    fn write(&mut self, frame: &mut Frame, var: Var, value: Value) {
        match var {
            Var::Local(l) => frame.locals[l.0 as usize] = Some(value),
            Var::Global(g) => self.globals[g] = value,
        }
    }

    fn havoc(&mut self, frame: &mut Frame, var: Var) -> Exec<()> {
        let program = self.program;
        let proc = &program.procs[frame.proc];
        let Some(ty) = program.var_type(proc, var) else {
            panic!("internal error: havoc of a missing variable in a verified program")
        };
        let value = match self.oracle.as_mut() {
            Some(oracle) => oracle.havoc(frame.proc, var, ty),
            None => self.defaults.get(ty).unwrap_or_else(|| {
                panic!("internal error: no default value for an inhabited type")
            }),
        };
        if !value.has_type(program, ty) {
            let var = program.var_name(proc, var).unwrap_or_default().to_string();
            let (expected, found) = (program.type_name(ty), value.display(program));
            return Err(RuntimeError::OracleType {
                var,
                expected,
                found,
            }
            .into());
        }
        self.write(frame, var, value);
        Ok(())
    }

    fn assume(&mut self, frame: &Frame, cond: &crate::ir::Expr) -> Exec<()> {
        if self.env(frame).eval_bool(cond)? {
            return Ok(());
        }
        Err(Stop::End(Outcome::Blocked {
            proc: frame.proc,
            depth: frame.depth,
        }))
    }

    fn assert(
        &mut self,
        frame: &Frame,
        cond: &crate::ir::Expr,
        source: Option<SourcePos>,
    ) -> Exec<()> {
        if self.env(frame).eval_bool(cond)? {
            return Ok(());
        }
        Err(Stop::End(Outcome::Failure {
            proc: frame.proc,
            source,
            depth: frame.depth,
        }))
    }

    fn call(&mut self, frame: &mut Frame, site: CallSiteId) -> Exec<()> {
        let program = self.program;
        let cs = &program.procs[frame.proc].call_sites[site];
        let env = self.env(frame);
        let args = cs
            .args
            .iter()
            .map(|a| env.eval(a))
            .collect::<Result<Vec<_>, _>>()?;
        let depth = frame.depth.saturating_add(1);
        if depth > self.config.max_depth {
            let cut = Outcome::CutOff {
                depth: frame.depth,
                caller: frame.proc,
                site,
            };
            return Err(Stop::End(cut));
        }
        self.record_call(Some((frame.proc, site)), cs.callee, &args, depth, cs.source);
        let rets = stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
            self.run_proc(cs.callee, args, depth)
        })?;
        for (var, value) in cs.rets.iter().zip(rets) {
            self.write(frame, *var, value);
        }
        Ok(())
    }
}
