//! The programs we write ourselves (`tests/programs/*.horef`, `tests/refs/*.horef`,
//! `tests/ocaml/*.ml`, `examples/*.horef`) with their expected runs.
//!
//! Each program states its runs in comments of the form
//!
//! ```text
//! (* run: n=3 m=-1 depth=5 => value 6 *)
//! (* run: n=102 depth=1 => failure at 10:3 (assert) *)
//! (* run: n=5 depth=2 => cut off at depth 2, call at 7:12 *)
//! ```
//!
//! one per line: the inputs of `Main` as `name=value` (`depth` is the `--max-depth` bound;
//! each `input=V`, in order, is the next value of the fresh inputs, `--input V`),
//! then the outcome: `value V` (as the interpreter prints values: `3`, `skip`,
//! `1 :: 2 :: []`, `Pair(1, 2)`), `failure at L:C (assert|fail|hd []|tl [])`, or
//! `cut off at depth K` optionally followed by `, call at L:C` (where the call that would
//! run deeper than K starts). The outcomes were worked out by hand from docs/semantics.md; these
//! tests check that the interpreter, and the CLI, agree.

use crate::common;

use horef_si::core_lang::inputs::main_inputs;
use horef_si::core_lang::interp::{self, Outcome, RunConfig};
use horef_si::frontend::{Checked, load_core};
use std::path::{Path, PathBuf};

/// One `(* run: ... *)` line.
#[derive(Debug)]
struct Expectation {
    /// 1-based line of the `run:` comment.
    line: usize,
    args: Vec<(String, String)>,
    /// The fresh inputs' values (`input=V`), in order.
    fresh: Vec<String>,
    depth: u32,
    outcome: String,
}

impl Expectation {
    /// The same run as a command line (for messages).
    fn command(&self, path: &Path) -> String {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|(n, v)| format!("--arg {n}={v}"))
            .chain(self.fresh.iter().map(|v| format!("--input {v}")))
            .collect();
        format!(
            "horef-si run {} {} --max-depth {}",
            path.display(),
            args.join(" "),
            self.depth
        )
    }
}

/// `tests/programs/*.horef`, `tests/refs/*.horef`, `tests/ocaml/*.ml` and `examples/*.horef`
/// (the README's example states its runs too).
fn programs() -> Vec<PathBuf> {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut paths = Vec::new();
    for dir in [
        common::tests_dir().join("programs"),
        common::tests_dir().join("refs"),
        common::tests_dir().join("ocaml"),
        examples,
    ] {
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
        paths.extend(
            entries
                .map(|entry| entry.expect("directory entry").path())
                .filter(|p| p.extension().is_some_and(|e| e == "horef" || e == "ml")),
        );
    }
    paths.sort();
    paths
}

/// Every `run:` line of `text`; a line that mentions `run:` but is malformed is an error.
fn expectations(path: &Path, text: &str) -> Vec<Expectation> {
    let run_lines = text.lines().enumerate().filter(|(_, l)| l.contains("run:"));
    run_lines
        .map(|(i, line)| {
            let (args, fresh, depth, outcome) = parse_run_line(line).unwrap_or_else(|why| {
                panic!(
                    "{}:{}: malformed run line ({why}): {line}",
                    path.display(),
                    i + 1
                )
            });
            Expectation {
                line: i + 1,
                args,
                fresh,
                depth,
                outcome,
            }
        })
        .collect()
}

type RunLine = (Vec<(String, String)>, Vec<String>, u32, String);

fn parse_run_line(line: &str) -> Result<RunLine, String> {
    let inner = line
        .trim()
        .strip_prefix("(* run:")
        .and_then(|rest| rest.strip_suffix("*)"))
        .ok_or("expected `(* run: ... *)` on one line")?;
    let (inputs, outcome) = inner.split_once("=>").ok_or("missing `=>`")?;
    let mut args = Vec::new();
    let mut fresh = Vec::new();
    let mut depth = None;
    for item in inputs.split_whitespace() {
        let (name, value) = item.split_once('=').ok_or("inputs are name=value")?;
        if name == "input" {
            value
                .parse::<i64>()
                .map_err(|_| "a fresh input is an integer")?;
            fresh.push(value.to_string());
        } else if name == "depth" {
            depth = Some(value.parse().map_err(|_| "depth is a number")?);
        } else {
            args.push((name.to_string(), value.to_string()));
        }
    }
    let depth = depth.ok_or("missing depth=K")?;
    let outcome = outcome.trim().to_string();
    if !["value ", "failure at ", "cut off at depth "]
        .iter()
        .any(|p| outcome.starts_with(p))
    {
        return Err(format!("unknown outcome `{outcome}`"));
    }
    Ok((args, fresh, depth, outcome))
}

/// The outcome in the syntax of `run:` lines.
fn describe(checked: &Checked, outcome: &Outcome, max_depth: u32) -> String {
    let at = |offset: u32| checked.file.line_col(offset as usize);
    match outcome {
        Outcome::Value(v) => format!("value {}", v.display(&checked.program, &checked.names)),
        Outcome::Failure { span, kind } => {
            format!(
                "failure at {} ({})",
                at(span.start),
                kind.describe_in(&checked.program)
            )
        }
        Outcome::CutOff { span, .. } => {
            format!("cut off at depth {max_depth}, call at {}", at(span.start))
        }
        Outcome::OutOfFuel { steps } => format!("out of fuel after {steps} steps"),
        Outcome::OutOfMemory { steps } => format!("out of memory after {steps} steps"),
    }
}

/// Compares, allowing a cut-off expectation to leave out where the call is.
fn agrees(expected: &str, actual: &str) -> bool {
    if expected.starts_with("cut off") && !expected.contains(", call at") {
        return actual.split(", call at").next() == Some(expected);
    }
    expected == actual
}

fn load_program(path: &Path) -> Checked {
    load_core(path).unwrap_or_else(|e| panic!("{} does not load:\n{}", path.display(), e.render()))
}

#[test]
fn there_are_enough_programs_and_each_states_its_runs() {
    let programs = programs();
    assert!(programs.len() >= 15, "only {} programs", programs.len());
    for path in &programs {
        let text = std::fs::read_to_string(path).expect("readable program");
        assert!(
            !expectations(path, &text).is_empty(),
            "{} has no `(* run: ... *)` line",
            path.display()
        );
    }
}

#[test]
fn every_run_line_holds_in_the_interpreter() {
    let mut failures = Vec::new();
    let mut count = 0;
    for path in programs() {
        let text = std::fs::read_to_string(&path).expect("readable program");
        let checked = load_program(&path);
        for expected in expectations(&path, &text) {
            count += 1;
            let inputs = main_inputs(&checked.program.main, &expected.args)
                .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), expected.line));
            let config = RunConfig {
                max_depth: expected.depth,
                ..RunConfig::default()
            };
            let fresh: Vec<num_bigint::BigInt> = expected
                .fresh
                .iter()
                .map(|v| v.parse().expect("an integer"))
                .collect();
            let result = interp::run_fed(&checked.program, &checked.info, &inputs, &fresh, &config);
            let actual = describe(&checked, &result.outcome, expected.depth);
            if !agrees(&expected.outcome, &actual) {
                failures.push(format!(
                    "{}:{}: {}\n    expected: {}\n    actual:   {actual}",
                    path.display(),
                    expected.line,
                    expected.command(&path),
                    expected.outcome
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(count >= 60, "only {count} run lines");
}

/// What the CLI prints first for an expected outcome, and the exit code it must give.
fn cli_expectation(expected: &Expectation) -> (String, i32) {
    let outcome = &expected.outcome;
    if let Some(value) = outcome.strip_prefix("value ") {
        return (format!("value: {value}"), 0);
    }
    if outcome.starts_with("failure at ") {
        return (outcome.clone(), 10);
    }
    let depth = expected.depth;
    let call = outcome
        .split_once(", call at ")
        .map_or(String::new(), |(_, at)| format!(" at {at}"));
    (format!("cut off at depth {depth}:{call}"), 0)
}

#[test]
fn every_run_line_holds_in_the_cli() {
    let mut failures = Vec::new();
    for path in programs() {
        let text = std::fs::read_to_string(&path).expect("readable program");
        for expected in expectations(&path, &text) {
            let mut args = vec![
                "run".to_string(),
                path.display().to_string(),
                "--max-depth".to_string(),
                expected.depth.to_string(),
            ];
            for (name, value) in &expected.args {
                args.push(format!("--arg={name}={value}"));
            }
            for value in &expected.fresh {
                args.push(format!("--input={value}"));
            }
            let run = common::horef_si(&args);
            let (want, code) = cli_expectation(&expected);
            let first = run.stdout.lines().next().unwrap_or("");
            let matches = if want.starts_with("cut off") {
                let (head, call) = want.split_once(':').expect("cut-off line");
                first.starts_with(&format!("{head}:"))
                    && first.contains(call.trim_start_matches(' '))
                    && first.ends_with(&format!("would run at depth {}", expected.depth + 1))
            } else {
                first == want
            };
            if !matches || run.code != Some(code) {
                failures.push(format!(
                    "{}:{}: {}\n    expected: {want} (exit {code})\n    actual:   {first} (exit {:?})\n{}",
                    path.display(),
                    expected.line,
                    expected.command(&path),
                    run.code,
                    run.stderr
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
