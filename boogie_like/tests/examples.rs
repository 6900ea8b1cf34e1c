//! Runs every example under `examples/<name>/` (CORRAL-regression style): the program
//! (`program.ir`) must parse, verify and round-trip through the printer, and every `run:`
//! line of `expected.txt` must give exactly the recorded outcome in the interpreter.
//! The `verdict:` line must agree with the runs, and its "no failure" claims are checked by
//! brute force over small integer inputs.
//!
//! `expected.txt` format (`#` starts a comment line):
//! ```text
//! verdict: bug within 2 | verified | safe up to 10
//! run: depth=3 [fuel=N] args=5,-1 => failure at 14:3 | returns 7 | cut off at depth 3 | blocked
//! ```
//! Set `BLESS=1` to rewrite the outcomes of the `run:` lines with the actual ones.

use std::fs;
use std::path::{Path, PathBuf};

use boogie_like::{
    Interpreter, Outcome, Program, RunConfig, Type, Value, parse, parse_exprs, print, verify,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Verified,
    BugWithin(u32),
    SafeUpTo(u32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct RunLine {
    line: usize,
    depth: u32,
    fuel: u64,
    args: String,
    expected: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Expected {
    verdict: Verdict,
    runs: Vec<RunLine>,
}

const DEFAULT_FUEL: u64 = 1_000_000;

fn parse_expected(text: &str) -> Result<Expected, String> {
    let mut verdict = None;
    let mut runs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        let at = |e: String| format!("line {}: {e}", i + 1);
        if line.is_empty() || line.starts_with('#') {
            continue;
        } else if let Some(rest) = line.strip_prefix("verdict:") {
            if verdict
                .replace(parse_verdict(rest.trim()).map_err(at)?)
                .is_some()
            {
                return Err(at("a second `verdict:` line".into()));
            }
        } else if let Some(rest) = line.strip_prefix("run:") {
            runs.push(parse_run(i + 1, rest.trim()).map_err(at)?);
        } else {
            return Err(at(format!(
                "expected `verdict:`, `run:` or `#`, found `{line}`"
            )));
        }
    }
    let verdict = verdict.ok_or("no `verdict:` line")?;
    Ok(Expected { verdict, runs })
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("expected {what}, found `{text}`"))
}

fn parse_verdict(text: &str) -> Result<Verdict, String> {
    if text == "verified" {
        Ok(Verdict::Verified)
    } else if let Some(k) = text.strip_prefix("bug within ") {
        Ok(Verdict::BugWithin(number(k, "a depth")?))
    } else if let Some(k) = text.strip_prefix("safe up to ") {
        Ok(Verdict::SafeUpTo(number(k, "a depth")?))
    } else {
        Err(format!(
            "expected `verified`, `bug within K` or `safe up to K`, found `{text}`"
        ))
    }
}

/// `depth=N [fuel=N] args=A => OUTCOME`
fn parse_run(line: usize, text: &str) -> Result<RunLine, String> {
    let (setup, expected) = text.split_once("=>").ok_or("expected `=>`")?;
    let (options, args) = setup.split_once("args=").ok_or("expected `args=`")?;
    let (mut depth, mut fuel) = (None, DEFAULT_FUEL);
    for option in options.split_whitespace() {
        match option.split_once('=') {
            Some(("depth", n)) => depth = Some(number(n, "a depth")?),
            Some(("fuel", n)) => fuel = number(n, "a fuel")?,
            _ => return Err(format!("expected `depth=N` or `fuel=N`, found `{option}`")),
        }
    }
    let depth = depth.ok_or("expected `depth=N`")?;
    let (args, expected) = (args.trim().to_string(), expected.trim().to_string());
    Ok(RunLine {
        line,
        depth,
        fuel,
        args,
        expected,
    })
}

/// The outcome summary of one run line, or why it could not run.
fn run_line(program: &Program, interp: &Interpreter, run: &RunLine) -> Result<String, String> {
    let exprs = parse_exprs(program, &run.args).map_err(|e| format!("args: {e}"))?;
    let inputs = exprs
        .iter()
        .map(|e| interp.eval_closed(e))
        .collect::<Result<Vec<_>, _>>();
    let inputs = inputs.map_err(|e| format!("args: {e}"))?;
    let config = RunConfig::with_depth(run.depth).fuel(run.fuel);
    let result = interp.run(&inputs, &config).map_err(|e| e.to_string())?;
    Ok(result.summary(program))
}

fn is_failure(summary: &str) -> bool {
    summary.starts_with("failure")
}

/// The claims of the verdict about the run lines.
fn verdict_agrees_with_runs(verdict: Verdict, runs: &[(RunLine, String)]) -> Vec<String> {
    let failing =
        |pred: &dyn Fn(u32) -> bool| runs.iter().any(|(r, s)| pred(r.depth) && is_failure(s));
    let mut problems = Vec::new();
    match verdict {
        Verdict::Verified if failing(&|_| true) => {
            problems.push("`verified` but a run fails".into())
        }
        Verdict::BugWithin(k) if failing(&|d| d < k) => problems.push(format!(
            "`bug within {k}` but a run fails at a smaller depth"
        )),
        Verdict::BugWithin(k) if !failing(&|d| d == k) => {
            problems.push(format!("`bug within {k}` needs a failing run at depth={k}"))
        }
        Verdict::SafeUpTo(k) if failing(&|d| d <= k) => {
            problems.push(format!("`safe up to {k}` but a run fails within depth {k}"))
        }
        _ => {}
    }
    problems
}

/// All entry inputs from a small box of integers (and both booleans), if the entry
/// procedure only takes `int`s and `bool`s.
fn small_inputs(program: &Program) -> Option<Vec<Vec<Value>>> {
    let entry = &program.procs[program.entrypoint()?];
    let types: Vec<Type> = entry.params.iter().map(|p| entry.locals[*p].ty).collect();
    let ints = types.iter().filter(|t| **t == Type::Int).count();
    let radius: i64 = [30, 10, 4]
        .get(ints.saturating_sub(1))
        .copied()
        .unwrap_or(2);
    let mut all = vec![Vec::new()];
    for ty in types {
        let choices: Vec<Value> = match ty {
            Type::Int => (-radius..=radius).map(Value::from).collect(),
            Type::Bool => vec![Value::from(false), Value::from(true)],
            Type::Data(_) | Type::Map(_) | Type::Sort(_) => return None,
        };
        all = all
            .into_iter()
            .flat_map(|prefix| {
                choices
                    .iter()
                    .map(move |c| [prefix.clone(), vec![c.clone()]].concat())
            })
            .collect();
    }
    Some(all)
}

/// The depths at which the verdict claims that no input fails.
fn safe_depths(verdict: Verdict) -> Vec<u32> {
    match verdict {
        Verdict::Verified => (0..=6).collect(),
        Verdict::BugWithin(0) => Vec::new(),
        Verdict::BugWithin(k) => vec![k - 1],
        Verdict::SafeUpTo(k) => vec![k],
    }
}

fn brute_force(program: &Program, interp: &Interpreter, verdict: Verdict) -> Vec<String> {
    let Some(inputs) = small_inputs(program) else {
        return Vec::new();
    };
    let mut problems = Vec::new();
    for depth in safe_depths(verdict) {
        let config = RunConfig::with_depth(depth).fuel(200_000);
        for input in &inputs {
            let shown: Vec<String> = input.iter().map(|v| v.display(program)).collect();
            match interp.run(input, &config) {
                Ok(r) if matches!(r.outcome, Outcome::Failure { .. }) => {
                    problems.push(format!(
                        "verdict {verdict:?} but args={} fails at depth={depth}",
                        shown.join(",")
                    ));
                }
                Ok(_) => {}
                Err(e) => problems.push(format!("args={} at depth={depth}: {e}", shown.join(","))),
            }
        }
    }
    problems
}

fn round_trip(program: &Program) -> Vec<String> {
    let printed = print(program);
    match parse(&printed) {
        Ok(again) if again == *program && print(&again) == printed => Vec::new(),
        Ok(_) => vec!["print/parse round trip changed the program".into()],
        Err(e) => vec![format!("printed program does not parse: {e}\n{printed}")],
    }
}

/// Every problem of one example, each prefixed with the example's name.
fn check_example(dir: &Path, bless: bool) -> Vec<String> {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let problems = check_example_inner(dir, bless).unwrap_or_else(|e| vec![e]);
    problems
        .into_iter()
        .map(|p| format!("{name}: {p}"))
        .collect()
}

fn check_example_inner(dir: &Path, bless: bool) -> Result<Vec<String>, String> {
    let read = |file: &str| fs::read_to_string(dir.join(file)).map_err(|e| format!("{file}: {e}"));
    let (source, expected_text) = (read("program.ir")?, read("expected.txt")?);
    let program = parse(&source).map_err(|e| format!("program.ir:{e}"))?;
    verify(&program).map_err(|errors| format!("does not verify: {}", errors[0]))?;
    let interp = Interpreter::new(&program).map_err(|e| e.to_string())?;
    let expected = parse_expected(&expected_text).map_err(|e| format!("expected.txt: {e}"))?;
    let mut problems = round_trip(&program);
    let mut runs = Vec::new();
    for run in &expected.runs {
        let actual = run_line(&program, &interp, run).unwrap_or_else(|e| format!("error: {e}"));
        if actual != run.expected {
            problems.push(format!(
                "line {}: expected `{}`, got `{actual}`",
                run.line, run.expected
            ));
        }
        runs.push((run.clone(), actual));
    }
    problems.extend(verdict_agrees_with_runs(expected.verdict, &runs));
    problems.extend(brute_force(&program, &interp, expected.verdict));
    if bless {
        bless_runs(&dir.join("expected.txt"), &expected_text, &runs).map_err(|e| e.to_string())?;
    }
    Ok(problems)
}

fn bless_runs(path: &Path, text: &str, runs: &[(RunLine, String)]) -> std::io::Result<()> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for (run, actual) in runs {
        if let Some((setup, _)) = lines[run.line - 1].split_once("=>") {
            lines[run.line - 1] = format!("{}=> {actual}", setup);
        }
    }
    fs::write(path, lines.join("\n") + "\n")
}

fn example_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut dirs: Vec<PathBuf> = fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.join("program.ir").is_file())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn every_example_parses_verifies_round_trips_and_runs_as_expected() {
    let bless = std::env::var_os("BLESS").is_some();
    let dirs = example_dirs();
    assert!(
        dirs.len() >= 8,
        "expected at least 8 examples, found {}",
        dirs.len()
    );
    let problems: Vec<String> = dirs.iter().flat_map(|d| check_example(d, bless)).collect();
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn expected_files_are_parsed_strictly() {
    let ok =
        parse_expected("# c\nverdict: safe up to 10\nrun: depth=3 fuel=9 args=5,-1 => blocked\n")
            .unwrap();
    assert_eq!(ok.verdict, Verdict::SafeUpTo(10));
    let run = RunLine {
        line: 3,
        depth: 3,
        fuel: 9,
        args: "5,-1".into(),
        expected: "blocked".into(),
    };
    assert_eq!(ok.runs, vec![run]);
    assert_eq!(
        parse_expected("run: depth=1 args= => blocked").unwrap_err(),
        "no `verdict:` line"
    );
    assert!(
        parse_expected("verdict: unsure")
            .unwrap_err()
            .contains("expected `verified`")
    );
    assert!(
        parse_expected("verdict: verified\nrun: args=1 => x")
            .unwrap_err()
            .contains("depth=N")
    );
    assert!(
        parse_expected("verdict: verified\nverdict: verified")
            .unwrap_err()
            .contains("second")
    );
    assert!(parse_expected("verdict: verified\nnonsense").is_err());
}

#[test]
fn verdicts_are_checked_against_runs() {
    let run = |depth, expected: &str| {
        let line = RunLine {
            line: 1,
            depth,
            fuel: 1,
            args: String::new(),
            expected: expected.into(),
        };
        (line, expected.to_string())
    };
    let runs = vec![run(1, "returns 1"), run(2, "failure at 1:1")];
    assert!(verdict_agrees_with_runs(Verdict::BugWithin(2), &runs).is_empty());
    assert_eq!(
        verdict_agrees_with_runs(Verdict::BugWithin(1), &runs).len(),
        1
    );
    assert_eq!(
        verdict_agrees_with_runs(Verdict::BugWithin(3), &runs).len(),
        1
    );
    assert_eq!(verdict_agrees_with_runs(Verdict::Verified, &runs).len(), 1);
    assert_eq!(
        verdict_agrees_with_runs(Verdict::SafeUpTo(2), &runs).len(),
        1
    );
    assert!(verdict_agrees_with_runs(Verdict::SafeUpTo(1), &runs).is_empty());
}
