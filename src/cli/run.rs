//! `horef-si run`: one concrete run of a program (HORef, OCaml, or an IR program) on the
//! inputs given (`--arg`, `--input`) or on a witness's, in the bounded interpreter.

use super::*;

pub(super) fn run(
    file: &Path,
    (raw_args, raw_inputs): (&[String], &[String]),
    config: &RunConfig,
    strict: LoadOptions,
) -> ExitCode {
    // A bad `--input`, like a bad `--arg`, is an input error (exit 2).
    let fresh: Vec<BigInt> = match raw_inputs.iter().map(|text| parse_int(text)).collect() {
        Ok(fresh) => fresh,
        Err(e) => {
            eprintln!("error: --input: {e}");
            return ExitCode::Input;
        }
    };
    let fresh = fresh.as_slice();
    let checked = match load_or_report(file, strict) {
        Ok(Loaded::Core(checked)) => checked,
        Ok(Loaded::Ir(program)) => return run_ir(&program, raw_args, config),
        Err(code) => return code,
    };
    let pairs = raw_args
        .iter()
        .map(|a| split_arg(a))
        .collect::<Result<Vec<_>, _>>();
    match pairs {
        Ok(pairs) => run_inputs(&checked, (&pairs, fresh), config).0,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::Input
        }
    }
}

/// Runs `Main` on `name = value` pairs and reports the run; also gives the outcome.
fn run_inputs(
    checked: &Checked,
    (pairs, fresh): (&[(String, String)], &[BigInt]),
    config: &RunConfig,
) -> (ExitCode, Option<Outcome>) {
    let inputs = match main_inputs(&checked.program.main, pairs) {
        Ok(inputs) => inputs,
        Err(e) => {
            eprintln!("error: {e}");
            return (ExitCode::Input, None);
        }
    };
    let result = interp::run_fed(&checked.program, &checked.info, &inputs, fresh, config);
    for event in &result.trace {
        outln!("{}", describe_event(checked, event));
    }
    let code = report_outcome(checked, &result.outcome);
    (code, Some(result.outcome))
}

/// `run FILE --witness W`: the witness's inputs, checked to fail at its target (exit 10);
/// a witness for another file, or one that cannot be read, is an input error (exit 2); a
/// run that does not reach the target is inconclusive (exit 5).
pub(super) fn run_witness(
    file: &Path,
    witness_path: &Path,
    max_depth: Option<u32>,
    config: &RunConfig,
    load: LoadOptions,
) -> ExitCode {
    let checked = match load_or_report(file, load) {
        Ok(Loaded::Core(checked)) => checked,
        Ok(Loaded::Ir(_)) => {
            eprintln!(
                "error: {}: a witness is replayed on a HORef or OCaml program; this is a \
                 Boogie or IR program",
                file.display()
            );
            return ExitCode::Usage;
        }
        Err(code) => return code,
    };
    let read = std::fs::read_to_string(witness_path)
        .map_err(|e| format!("cannot read `{}`: {e}", witness_path.display()))
        .and_then(|text| witness::Witness::parse(&text).map_err(|e| e.to_string()))
        .and_then(|w| replay::read(&w, checked.file.text.as_bytes()).map_err(|e| e.to_string()));
    let replay = match read {
        Ok(replay) => replay,
        Err(message) => {
            eprintln!("error: {}: {message}", witness_path.display());
            return ExitCode::Input;
        }
    };
    let config = RunConfig {
        max_depth: max_depth.or(replay.max_depth).unwrap_or(config.max_depth),
        ..config.clone()
    };
    let fresh = match witness_fresh_inputs(&checked, &replay) {
        Ok(fresh) => fresh,
        Err(message) => {
            eprintln!("error: {}: {message}", witness_path.display());
            return ExitCode::Input;
        }
    };
    match run_inputs(&checked, (&replay.inputs, &fresh), &config) {
        (ExitCode::Failure, Some(Outcome::Failure { span, .. }))
            if replay.is_target(checked.file.line_col(span.start as usize)) =>
        {
            outln!(
                "witness confirmed: the failure at {} reproduces",
                replay.target()
            );
            ExitCode::Failure
        }
        (ExitCode::Input, _) => ExitCode::Input,
        _ => {
            outln!(
                "witness not confirmed: the run does not fail at its target {}",
                replay.target()
            );
            ExitCode::Inconclusive
        }
    }
}

/// The values of the witness's `function_return` waypoints at the program's fresh inputs
/// (`read_int ()`, ...), in order.
fn witness_fresh_inputs(checked: &Checked, replay: &replay::Replay) -> Result<Vec<BigInt>, String> {
    let mut at_inputs = std::collections::HashSet::new();
    for body in checked.program.bodies() {
        crate::core_lang::visit::walk(body, &mut |e| {
            if let crate::core_lang::ast::ExprKind::Input { .. } = e.kind {
                let last = e.span.end.saturating_sub(1).max(e.span.start);
                let at = checked.file.line_col(last as usize);
                at_inputs.insert((at.line, at.col));
            }
        });
    }
    replay
        .returns
        .iter()
        .filter(|(line, col, _)| col.is_some_and(|c| at_inputs.contains(&(*line, c))))
        .map(|(_, _, v)| {
            v.parse::<BigInt>()
                .map_err(|_| format!("a fresh input's value `{v}` is no integer"))
        })
        .collect()
}

/// An integer argument (`--input -3`).
fn parse_int(text: &str) -> Result<BigInt, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("`{text}` is not an integer"))
}

fn run_ir(program: &boogie_like::Program, raw_args: &[String], config: &RunConfig) -> ExitCode {
    let inputs = raw_args
        .iter()
        .map(|a| split_arg(a))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())
        .and_then(|pairs| ir_inputs(program, &pairs));
    let inputs = match inputs {
        Ok(inputs) => inputs,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::Input;
        }
    };
    let ir_config = boogie_like::RunConfig {
        max_depth: config.max_depth,
        fuel: config.fuel,
        trace: config.trace,
    };
    let result = match boogie_like::run(program, &inputs, &ir_config) {
        Ok(result) => result,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::Input;
        }
    };
    for event in &result.trace {
        outln!("{}", event.describe(program));
    }
    outln!("{}", result.summary(program));
    match result.outcome {
        boogie_like::Outcome::Failure { .. } => ExitCode::Failure,
        boogie_like::Outcome::OutOfFuel { .. } => ExitCode::Inconclusive,
        _ => ExitCode::Ok,
    }
}

/// A map input written as an IR expression (`[int](0)[3 := 1]`), of the parameter's type.
fn closed_map_input(
    program: &boogie_like::Program,
    name: &str,
    ty: boogie_like::Type,
    text: &str,
) -> Result<boogie_like::Value, String> {
    let bad = |why: String| format!("`{text}` is not a map value for `{name}`: {why}");
    let exprs = boogie_like::parse_exprs(program, text).map_err(|e| bad(e.to_string()))?;
    let [expr] = exprs.as_slice() else {
        return Err(bad("expected one expression".to_string()));
    };
    let interpreter = boogie_like::Interpreter::new(program).map_err(|e| bad(e.to_string()))?;
    let value = interpreter
        .eval_closed(expr)
        .map_err(|e| bad(e.to_string()))?;
    if !value.has_type(program, ty) {
        return Err(bad(format!("expected type {}", program.type_name(ty))));
    }
    Ok(value)
}

/// Matches `name=value` pairs to the entry procedure's `int`, `bool` and map parameters.
fn ir_inputs(
    program: &boogie_like::Program,
    pairs: &[(String, String)],
) -> Result<Vec<boogie_like::Value>, String> {
    let entry = program
        .entrypoint()
        .ok_or_else(|| "the program has no {:entrypoint} procedure".to_string())?;
    let proc = &program.procs[entry];
    let mut values = Vec::new();
    for param in &proc.params {
        let local = &proc.locals[*param];
        let text = pairs
            .iter()
            .find(|(n, _)| *n == local.name)
            .map(|(_, v)| v.as_str())
            .ok_or_else(|| format!("missing value for {0}: pass --arg {0}=...", local.name))?;
        values.push(match local.ty {
            // A value of an uninterpreted sort is given as its opaque integer.
            boogie_like::Type::Int | boogie_like::Type::Sort(_) => text
                .parse()
                .map(boogie_like::Value::Int)
                .map_err(|_| format!("`{text}` is not an integer (for `{}`)", local.name))?,
            boogie_like::Type::Bool => match text {
                "true" => boogie_like::Value::Bool(true),
                "false" => boogie_like::Value::Bool(false),
                _ => {
                    return Err(format!(
                        "`{text}` is not `true` or `false` (for `{}`)",
                        local.name
                    ));
                }
            },
            boogie_like::Type::Map(_) => closed_map_input(program, &local.name, local.ty, text)?,
            boogie_like::Type::Data(_) => {
                return Err(format!(
                    "`{}` has a datatype; only int and bool inputs can be given",
                    local.name
                ));
            }
        });
    }
    if let Some((name, _)) = pairs
        .iter()
        .find(|(n, _)| !proc.params.iter().any(|p| proc.locals[*p].name == *n))
    {
        return Err(format!("the entry procedure has no parameter `{name}`"));
    }
    Ok(values)
}

fn describe_event(checked: &Checked, event: &TraceEvent) -> String {
    let show = |v: &interp::Value| v.display(&checked.program, &checked.names).to_string();
    match event {
        TraceEvent::Call {
            callee,
            args,
            depth,
            span,
        } => {
            let args: Vec<String> = args.iter().map(show).collect();
            format!(
                "{:indent$}call {}({}) at {}, depth {depth}",
                "",
                checked.function_name(*callee),
                args.join(", "),
                checked.file.line_col(span.start as usize),
                indent = 2 * *depth as usize
            )
        }
        TraceEvent::Input { span, value, depth } => format!(
            "{:indent$}input {value} at {}, depth {depth}",
            "",
            checked.file.line_col(span.start as usize),
            indent = 2 * *depth as usize
        ),
        TraceEvent::Return {
            callee,
            value,
            depth,
        } => format!(
            "{:indent$}return {} = {}, depth {depth}",
            "",
            checked.function_name(*callee),
            show(value),
            indent = 2 * *depth as usize
        ),
    }
}

fn report_outcome(checked: &Checked, outcome: &Outcome) -> ExitCode {
    let at = |offset: u32| checked.file.line_col(offset as usize);
    match outcome {
        Outcome::Value(value) => {
            outln!("value: {}", value.display(&checked.program, &checked.names));
            ExitCode::Ok
        }
        Outcome::Failure { span, kind } => {
            let line = checked.file.line_index(span.start as usize);
            let text = &checked.file.text[checked.file.line_range(line)];
            outln!(
                "failure at {} ({})",
                at(span.start),
                kind.describe_in(&checked.program)
            );
            outln!("  {}", text.trim());
            ExitCode::Failure
        }
        Outcome::CutOff {
            span,
            callee,
            depth,
        } => {
            outln!(
                "cut off at depth {depth}: the call to `{}` at {} would run at depth {}",
                checked.function_name(*callee),
                at(span.start),
                depth + 1
            );
            ExitCode::Ok
        }
        Outcome::OutOfFuel { steps } => {
            outln!("inconclusive: gave up after {steps} steps (raise --max-steps)");
            ExitCode::Inconclusive
        }
        Outcome::OutOfMemory { steps } => {
            outln!(
                "inconclusive: gave up after {steps} steps at the memory limit (raise \
                 --memory-limit or ulimit -v, or lower --max-depth)"
            );
            ExitCode::Inconclusive
        }
    }
}
