//! The command line: argument definitions and one function per subcommand.
//!
//! Guarantees: every path ends in a documented [`ExitCode`]; usage errors exit 1 (not
//! clap's default 2, which we reserve for invalid input); messages go to stderr, results
//! to stdout.

use crate::exit_code::{EXIT_CODES_HELP, ExitCode};
use crate::frontend::{Checked, load};
use crate::inputs::{main_inputs, split_arg};
use crate::interp::{self, FunctionRef, Outcome, RunConfig, TraceEvent};
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};

#[derive(Parser, Debug)]
#[command(
    name = "horef-si",
    version,
    about = "A stratified-inlining verifier for higher-order programs with references (HORef)",
    after_help = EXIT_CODES_HELP
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Parse and type-check a HORef file.
    #[command(after_help = EXIT_CODES_HELP)]
    Check {
        /// The HORef program.
        file: PathBuf,
    },
    /// Lower a HORef file to the Boogie-like IR and print it.
    #[command(after_help = EXIT_CODES_HELP)]
    Lower {
        /// The HORef program.
        file: PathBuf,
        /// Also print sizes: procedures, call sites, dispatch sites, candidates.
        #[arg(long)]
        stats: bool,
    },
    /// Run a HORef program on concrete inputs in the bounded interpreter.
    #[command(after_help = EXIT_CODES_HELP)]
    Run {
        /// The HORef program.
        file: PathBuf,
        /// An input of `Main`, as name=value (repeat for each parameter).
        #[arg(long = "arg", value_name = "NAME=VALUE")]
        args: Vec<String>,
        /// The deepest call depth a body may run at (`Main` runs at 0).
        #[arg(long, default_value_t = 10, value_name = "K")]
        max_depth: u32,
        /// Give up (exit 5) after this many evaluation steps.
        #[arg(long, default_value_t = 100_000_000, value_name = "N")]
        max_steps: u64,
        /// Print every call (name, arguments, depth) and return.
        #[arg(long)]
        trace: bool,
    },
}

/// Parses the command line and runs the command.
pub fn main_with_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> ExitCode {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::Usage
            } else {
                ExitCode::Ok
            };
        }
    };
    match cli.command {
        Command::Check { file } => check(&file),
        Command::Lower { file, stats } => lower(&file, stats),
        Command::Run {
            file,
            args,
            max_depth,
            max_steps,
            trace,
        } => {
            let config = RunConfig {
                max_depth,
                fuel: max_steps,
                trace,
            };
            run(&file, &args, &config)
        }
    }
}

fn load_or_report(file: &Path) -> Result<Checked, ExitCode> {
    load(file).map_err(|e| {
        eprintln!("{}", e.render());
        ExitCode::Input
    })
}

fn check(file: &Path) -> ExitCode {
    match load_or_report(file) {
        Ok(checked) => {
            println!(
                "ok: {} ({} methods, {} references)",
                checked.file.name,
                checked.program.methods.len(),
                checked.program.store.len()
            );
            ExitCode::Ok
        }
        Err(code) => code,
    }
}

fn lower(file: &Path, stats: bool) -> ExitCode {
    let checked = match load_or_report(file) {
        Ok(checked) => checked,
        Err(code) => return code,
    };
    let lowered = crate::lower::lower(&checked);
    print!("{}", boogie_like::print(&lowered.ir));
    if stats {
        let s = &lowered.stats;
        println!("// procedures: {}", s.procedures);
        println!("// call sites: {}", s.call_sites);
        println!("// direct calls: {}", s.dispatch.direct_calls);
        println!("// dispatch sites: {}", s.dispatch.dispatch_sites);
        println!(
            "// candidates: {} in total, at most {} per site",
            s.dispatch.candidates_total, s.dispatch.candidates_max
        );
    }
    ExitCode::Ok
}

fn run(file: &Path, raw_args: &[String], config: &RunConfig) -> ExitCode {
    let checked = match load_or_report(file) {
        Ok(checked) => checked,
        Err(code) => return code,
    };
    let inputs = raw_args
        .iter()
        .map(|a| split_arg(a))
        .collect::<Result<Vec<_>, _>>()
        .and_then(|pairs| main_inputs(&checked.program.main, &pairs));
    let inputs = match inputs {
        Ok(inputs) => inputs,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::Input;
        }
    };
    let result = interp::run(&checked.program, &checked.info, &inputs, config);
    for event in &result.trace {
        println!("{}", describe_event(&checked, event));
    }
    report_outcome(&checked, &result.outcome, config)
}

/// The name a trace shows for a function.
pub fn function_name(checked: &Checked, f: FunctionRef) -> String {
    match f {
        FunctionRef::Method(m) => checked.program.method(m).name.name.to_string(),
        FunctionRef::Lambda(l) => checked.names.lambda(l).to_string(),
    }
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
                function_name(checked, *callee),
                args.join(", "),
                checked.file.line_col(span.start as usize),
                indent = 2 * *depth as usize
            )
        }
        TraceEvent::Return {
            callee,
            value,
            depth,
        } => format!(
            "{:indent$}return {} = {}, depth {depth}",
            "",
            function_name(checked, *callee),
            show(value),
            indent = 2 * *depth as usize
        ),
    }
}

fn report_outcome(checked: &Checked, outcome: &Outcome, config: &RunConfig) -> ExitCode {
    let at = |offset: u32| checked.file.line_col(offset as usize);
    match outcome {
        Outcome::Value(value) => {
            println!("value: {}", value.display(&checked.program, &checked.names));
            ExitCode::Ok
        }
        Outcome::Failure { span, kind } => {
            let line = checked.file.line_index(span.start as usize);
            let text = &checked.file.text[checked.file.line_range(line)];
            println!("failure at {} ({})", at(span.start), kind.describe());
            println!("  {}", text.trim());
            ExitCode::Failure
        }
        Outcome::CutOff {
            span,
            callee,
            depth,
        } => {
            println!(
                "cut off at depth {}: the call to `{}` at {} would run at depth {depth}",
                config.max_depth,
                function_name(checked, *callee),
                at(span.start)
            );
            ExitCode::Ok
        }
        Outcome::OutOfFuel { steps } => {
            println!("inconclusive: gave up after {steps} steps (raise --max-steps)");
            ExitCode::Inconclusive
        }
    }
}
