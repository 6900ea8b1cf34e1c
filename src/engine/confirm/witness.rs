//! Confirming a bug: the solver's inputs replayed in a concrete interpreter.
//!
//! Guarantees: [`confirm_horef`] and [`confirm_ir`] return a [`Verdict::Bug`] only when the
//! replay fails, and fails at the source position where the solver's model fails (when the
//! model names one); anything else is [`Verdict::Unknown`] with
//! [`UnknownReason::Unconfirmed`] saying what the replay did instead.

use crate::core_lang::Checked;
use crate::core_lang::ast::Type;
use crate::core_lang::interp::{self, Outcome, RunConfig, TraceEvent, Value};
use crate::engine::verdict::{CellNote, TraceStep, UnknownReason, Verdict};
use crate::solver::ModelValue;
use boogie_like::ir::{Program as IrProgram, SourcePos};

/// The step budget of a replay.
const REPLAY_FUEL: u64 = 200_000_000;

fn unconfirmed(why: String) -> Verdict {
    Verdict::Unknown {
        reason: UnknownReason::Unconfirmed(why),
    }
}

/// Replays `inputs` (the lowered `Main`'s parameters) and `fresh` (the values of the fresh
/// inputs, in the order the model's execution takes them) on the HORef program.
pub fn confirm_horef(
    checked: &Checked,
    (inputs, fresh): (&[ModelValue], &[ModelValue]),
    failure: Option<SourcePos>,
    max_depth: u32,
) -> Verdict {
    let Some(fresh) = fresh
        .iter()
        .map(|v| v.as_int().cloned())
        .collect::<Option<Vec<_>>>()
    else {
        return unconfirmed("a fresh input that is no integer".to_string());
    };
    let mut model = inputs.iter();
    let mut values = Vec::new();
    let mut shown = Vec::new();
    for param in &checked.program.main.params {
        let value = match param.ty {
            Type::Unit => Value::Unit,
            _ => match model.next().and_then(ModelValue::as_int) {
                Some(i) => Value::Int(i.clone()),
                None => return unconfirmed(format!("no integer for input `{}`", param.name.name)),
            },
        };
        shown.push((
            param.name.name.to_string(),
            value.display(&checked.program, &checked.names).to_string(),
        ));
        values.push(value);
    }
    let config = RunConfig {
        max_depth,
        fuel: REPLAY_FUEL,
        trace: true,
        memory_limit_mib: None,
    };
    let run = interp::run_fed(&checked.program, &checked.info, &values, &fresh, &config);
    let fresh = run
        .fresh
        .iter()
        .map(|input| {
            let at = checked.file.line_col(input.span.start as usize);
            (at.to_string(), input.value.to_string())
        })
        .collect();
    let Outcome::Failure { span, kind } = run.outcome else {
        return unconfirmed(format!("the replay did not fail: {:?}", run.outcome));
    };
    let at = checked.file.line_col(span.start as usize);
    if let Some(pos) = failure
        && (pos.line, pos.col) != (at.line, at.col)
    {
        return unconfirmed(format!("the replay fails at {at}, the model at {pos}"));
    }
    Verdict::Bug {
        inputs: shown,
        failure: at.to_string(),
        kind: kind.describe_in(&checked.program),
        trace: horef_stack(checked, &run.trace),
        fresh,
        cells: cell_notes(checked, &run.cells),
    }
}

/// The cells of a replay, named as values print them, with their allocation sites.
fn cell_notes(checked: &Checked, cells: &[interp::Cell]) -> Vec<CellNote> {
    let show = |v: &Value| v.display(&checked.program, &checked.names).to_string();
    cells
        .iter()
        .enumerate()
        .map(|(address, cell)| CellNote {
            cell: show(&Value::Ref(address)),
            allocated: checked
                .file
                .line_col(cell.allocated.start as usize)
                .to_string(),
            holds: show(&cell.value),
        })
        .collect()
}

/// The most calls a trace keeps (the last ones, which lead to the failure).
pub const MAX_TRACE: usize = 200;

/// Every call of the run, in order, up to the failure (the last [`MAX_TRACE`]), each with
/// the value it returned if it did.
fn horef_stack(checked: &Checked, events: &[TraceEvent]) -> Vec<TraceStep> {
    let show = |v: &crate::core_lang::interp::Value| {
        v.display(&checked.program, &checked.names).to_string()
    };
    let mut steps = Steps::default();
    for event in events {
        match event {
            TraceEvent::Call {
                callee,
                args,
                depth,
                span,
            } => steps.call(Some(TraceStep {
                function: checked.function_name(*callee),
                args: args.iter().map(show).collect(),
                depth: *depth,
                at: checked.file.line_col(span.start as usize).to_string(),
                returns: None,
            })),
            TraceEvent::Return { value, .. } => steps.ret(show(value)),
            TraceEvent::Input { .. } => {}
        }
    }
    last(steps.done)
}

/// The calls of a trace, and the ones still running (`None`: a call not shown).
#[derive(Default)]
struct Steps {
    done: Vec<TraceStep>,
    open: Vec<Option<usize>>,
}

impl Steps {
    fn call(&mut self, step: Option<TraceStep>) {
        let index = step.map(|step| {
            self.done.push(step);
            self.done.len() - 1
        });
        self.open.push(index);
    }

    fn ret(&mut self, value: String) {
        if let Some(Some(index)) = self.open.pop() {
            self.done[index].returns = Some(value);
        }
    }
}

fn last(mut steps: Vec<TraceStep>) -> Vec<TraceStep> {
    if steps.len() > MAX_TRACE {
        steps.drain(..steps.len() - MAX_TRACE);
    }
    steps
}

/// Replays `inputs` on an IR program (a `.bpl` file), its `havoc`s taking the model's
/// `havocs` in order.
pub fn confirm_ir(
    ir: &IrProgram,
    (inputs, havocs): (&[ModelValue], &[ModelValue]),
    failure: Option<SourcePos>,
    max_depth: u32,
) -> Verdict {
    let mut values = Vec::new();
    let entry = &ir.procs[ir.entrypoint().expect("internal error: entry")];
    let types = entry.params.iter().map(|p| entry.locals[*p].ty);
    for (input, ty) in inputs.iter().zip(types) {
        match ir_value(ir, input, ty) {
            Some(v) => values.push(v),
            None => return unconfirmed(format!("cannot replay the input {input:?}")),
        }
    }
    let config = boogie_like::RunConfig {
        max_depth,
        fuel: REPLAY_FUEL,
        trace: true,
    };
    let (run, choices) = match replay_ir(ir, (&values, havocs), &config, failure) {
        Ok(found) => found,
        Err(why) => return unconfirmed(why),
    };
    let boogie_like::Outcome::Failure { source, proc, .. } = run.outcome else {
        return unconfirmed(format!("the replay did not fail: {}", run.summary(ir)));
    };
    let entry = ir.entrypoint().expect("internal error: entry");
    let names = ir.procs[entry]
        .params
        .iter()
        .map(|p| ir.procs[entry].locals[*p].name.clone());
    let mut shown: Vec<(String, String)> = names
        .zip(&values)
        .map(|(n, v)| (n, v.display(ir)))
        .collect();
    shown.extend(choices.iter().map(|c| choice_shown(ir, c)));
    Verdict::Bug {
        inputs: shown,
        failure: source.map_or_else(|| format!("in {}", ir.procs[proc].name), |p| p.to_string()),
        kind: "assert".to_string(),
        trace: ir_stack(ir, &run.trace),
        fresh: Vec::new(),
        // An IR program's maps are globals; its witness shows no cells of its own.
        cells: Vec::new(),
    }
}

/// The replay on the model's inputs, its `havoc`s taking the model's values in order; when
/// it does not fail at the model's failure, a search over the `havoc` choices below the
/// entry ([`crate::engine::confirm::replay_search`]) with the choices made; `Err` says why neither confirms
/// the model.
fn replay_ir(
    ir: &IrProgram,
    (values, havocs): (&[boogie_like::Value], &[ModelValue]),
    config: &boogie_like::RunConfig,
    failure: Option<SourcePos>,
) -> Result<
    (
        boogie_like::RunResult,
        Vec<crate::engine::confirm::replay_search::Choice>,
    ),
    String,
> {
    let quantifiers = crate::engine::confirm::quantifiers::SolverQuantifiers::default();
    let interpreter = match boogie_like::Interpreter::new(ir) {
        Ok(i) => i.with_quantifiers(&quantifiers),
        Err(e) => return Err(format!("the replay stopped: {e}")),
    };
    let mut model_havocs = ModelHavocs {
        ir,
        values: havocs.iter(),
        interpreter: &interpreter,
        choices: Vec::new(),
    };
    let run = interpreter.run_with_oracle(values, config, &mut model_havocs);
    if let Ok(run) = &run
        && let boogie_like::Outcome::Failure { source, .. } = run.outcome
        && (failure.is_none() || source == failure)
    {
        return Ok((run.clone(), model_havocs.choices));
    }
    if let Some(found) = crate::engine::confirm::replay_search::search(ir, values, config, failure)
    {
        return Ok((found.run, found.choices));
    }
    Err(match run {
        Err(e) => format!("the replay stopped: {e}"),
        Ok(run) => match run.outcome {
            boogie_like::Outcome::Failure { source, .. } => {
                format!("the replay fails at {source:?}, the model at {failure:?}")
            }
            _ => format!("the replay did not fail: {}", run.summary(ir)),
        },
    })
}

/// The model's havocked values, handed to the replay's `havoc`s in order (a value of
/// another type, or none left: the type's default).
struct ModelHavocs<'a> {
    ir: &'a IrProgram,
    values: std::slice::Iter<'a, ModelValue>,
    interpreter: &'a boogie_like::Interpreter<'a>,
    choices: Vec<crate::engine::confirm::replay_search::Choice>,
}

impl boogie_like::HavocOracle for ModelHavocs<'_> {
    fn havoc(
        &mut self,
        proc: boogie_like::ProcId,
        var: boogie_like::Var,
        ty: boogie_like::Type,
    ) -> boogie_like::Value {
        let value = self
            .values
            .next()
            .and_then(|v| ir_value(self.ir, v, ty))
            .unwrap_or_else(|| self.interpreter.default_value(ty));
        self.choices
            .push(crate::engine::confirm::replay_search::Choice {
                proc,
                var,
                value: value.clone(),
            });
        value
    }
}

/// A havocked value of the replay as `proc:var = value`.
fn choice_shown(
    ir: &IrProgram,
    choice: &crate::engine::confirm::replay_search::Choice,
) -> (String, String) {
    let proc = &ir.procs[choice.proc];
    let var = ir.var_name(proc, choice.var).unwrap_or("?");
    (format!("{}:{var}", proc.name), choice.value.display(ir))
}

/// The model's `value` as an IR value of type `ty` (`None` when it is not one).
fn ir_value(
    ir: &IrProgram,
    value: &ModelValue,
    ty: boogie_like::Type,
) -> Option<boogie_like::Value> {
    use boogie_like::Type;
    Some(match (value, ty) {
        (ModelValue::Int(i), Type::Int) => boogie_like::Value::Int(i.clone()),
        // An element of an uninterpreted sort (`T!val!3`) is the opaque integer 3.
        (ModelValue::Elem(i), Type::Sort(_)) => boogie_like::Value::Int(i.clone()),
        (ModelValue::Bool(b), Type::Bool) => boogie_like::Value::Bool(*b),
        (ModelValue::Data { ctor, fields }, Type::Data(_)) => {
            let ctor = ir.ctor_by_name(ctor)?;
            let types = ir.ctor(ctor)?.fields.iter().map(|f| f.ty);
            let fields = fields
                .iter()
                .zip(types)
                .map(|(f, ty)| ir_value(ir, f, ty))
                .collect::<Option<Vec<_>>>()?;
            boogie_like::Value::data(ctor, fields)
        }
        (ModelValue::Array { default, entries }, Type::Map(m)) => {
            let default = ir_value(ir, default, m.value())?;
            let entries = entries
                .iter()
                .map(|(k, v)| {
                    let key = boogie_like::MapKey::of(&ir_value(ir, k, m.key())?)?;
                    Some((key, ir_value(ir, v, m.value())?))
                })
                .collect::<Option<Vec<_>>>()?;
            boogie_like::Value::map(boogie_like::MapValue::from_entries(
                m.key(),
                default,
                entries,
            ))
        }
        _ => return None,
    })
}

/// Every call of the IR run below the entry, in order (the last [`MAX_TRACE`]), each with
/// the values it returned if it did.
fn ir_stack(ir: &IrProgram, events: &[boogie_like::TraceEvent]) -> Vec<TraceStep> {
    let mut steps = Steps::default();
    for event in events {
        match event {
            boogie_like::TraceEvent::Call {
                proc,
                args,
                depth,
                source,
                caller,
            } => steps.call(caller.map(|_| TraceStep {
                function: ir.procs[*proc].name.clone(),
                args: args.iter().map(|a| a.display(ir)).collect(),
                depth: *depth,
                at: source.map_or_else(String::new, |p| p.to_string()),
                returns: None,
            })),
            boogie_like::TraceEvent::Return { returns, .. } => {
                let values: Vec<String> = returns.iter().map(|v| v.display(ir)).collect();
                steps.ret(values.join(", "));
            }
        }
    }
    last(steps.done)
}
