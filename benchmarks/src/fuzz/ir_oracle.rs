//! The oracle for programs that become IR directly (Boogie, `.bpl`): every verdict of
//! `verify` at every bound and in both modes, checked against concrete runs of the IR
//! interpreter (the reference semantics of the IR the Boogie front end produces).
//!
//! Guarantees: the same defects as [`super::oracle`] (unsound, replay defect, unconfirmed
//! witness, mode disagreement, wrong bound, panic), judged by the same rules
//! ([`super::oracle::judge`], [`super::oracle::disagreements`]). The concrete runs cover the
//! entry's inputs — its parameters and every nondeterministic choice of its own body, which
//! the front end makes inputs — over a grid (every combination of -3..=5 and the values next
//! to each constant of the text, or a deterministic sample, plus random inputs). A program
//! whose entry takes anything but ints and bools, or whose runs need `havoc` below the entry,
//! is checked on the verdicts that need no grid only; the generator ([`super::boogie`])
//! writes neither.

use super::language::Language;
use super::oracle::{
    Answer, Defect, Failing, NotLoaded, OracleConfig, Report, answers, disagreements, judge,
    product, sample, show_inputs,
};
use super::runs::{self, Reference};
use boogie_like::{Outcome, Program, RunConfig, Type, Value};
use horef_si::engine::Mode;
use horef_si::engine::verdict::Verdict;
use horef_si::span::SourceFile;
use horef_si::verifier::{self, verify};
use num_bigint::BigInt;
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;
use std::collections::BTreeSet;

/// Checks the Boogie `text` at every bound of `config`.
pub fn check(text: &str, config: &OracleConfig) -> Result<Report, NotLoaded> {
    let ks: Vec<u32> = (0..=config.max_k).collect();
    check_at(text, config, &ks, &config.modes)
}

/// Translates the Boogie `text` to IR, or says why not.
pub fn load(text: &str) -> Result<Program, NotLoaded> {
    let file = SourceFile::new(Language::Boogie.file_name(), text);
    horef_si::frontend::boogie::translate(&file, None)
        .map_err(|d| NotLoaded(horef_si::diagnostics::render_all(&[d], &file)))
}

/// Checks the Boogie `text` at the bounds `ks` in `modes` only.
pub fn check_at(
    text: &str,
    config: &OracleConfig,
    ks: &[u32],
    modes: &[Mode],
) -> Result<Report, NotLoaded> {
    let ir = load(text)?;
    let mut report = Report::default();
    let mut failing = concrete_failures(&ir, text, config, &mut report);
    let verdicts = verdicts(&ir, config, ks, modes, &mut report);
    for v in &verdicts {
        if let Some(found) = replay_bug(&ir, config, v, &mut report) {
            failing.push(found);
        }
    }
    report.concrete_bug_depth = failing.iter().map(|f| f.depth).min();
    for v in &verdicts {
        judge(v, &failing, &mut report);
    }
    disagreements(&verdicts, &mut report);
    Ok(report)
}

fn verdicts(
    ir: &Program,
    config: &OracleConfig,
    ks: &[u32],
    modes: &[Mode],
    report: &mut Report,
) -> Vec<Answer> {
    answers(config, (ks, modes), report, |options| {
        verify(verifier::Program::Ir(ir), options).verdict
    })
}

/// The entry's parameter types, if every one is an int or a bool.
fn entry_types(ir: &Program) -> Option<Vec<Type>> {
    let entry = &ir.procs[ir.entrypoint()?];
    let types: Vec<Type> = entry.params.iter().map(|p| entry.locals[*p].ty).collect();
    types
        .iter()
        .all(|t| matches!(t, Type::Int | Type::Bool))
        .then_some(types)
}

fn entry_names(ir: &Program) -> Vec<String> {
    let Some(entry) = ir.entrypoint() else {
        return Vec::new();
    };
    let proc = &ir.procs[entry];
    proc.params
        .iter()
        .map(|p| proc.locals[*p].name.clone())
        .collect()
}

/// The IR interpreter on one program, with the oracle's fuel.
struct IrRuns<'a> {
    ir: &'a Program,
    fuel: u64,
    /// The entry's parameter names, for showing inputs.
    names: Vec<String>,
}

impl<'a> IrRuns<'a> {
    fn new(ir: &'a Program, config: &OracleConfig) -> IrRuns<'a> {
        IrRuns {
            ir,
            fuel: config.fuel,
            names: entry_names(ir),
        }
    }
}

impl Reference for IrRuns<'_> {
    type Value = Value;
    type Outcome = Outcome;

    fn run(&self, inputs: &[Value], k: u32, report: &mut Report) -> Outcome {
        report.runs += 1;
        let config = RunConfig {
            max_depth: k,
            fuel: self.fuel,
            trace: false,
        };
        match boogie_like::run(self.ir, inputs, &config) {
            Ok(run) => run.outcome,
            // A run the interpreter cannot finish (it should not happen on generated texts)
            // counts as not failing; the verdicts are still cross-checked between modes.
            Err(_) => Outcome::OutOfFuel { fuel: self.fuel },
        }
    }

    /// As `verify` writes a BUG's failure.
    fn failure(&self, outcome: &Outcome) -> Option<String> {
        match outcome {
            Outcome::Failure { source, proc, .. } => Some(source.map_or_else(
                || format!("in {}", self.ir.procs[*proc].name),
                |p| p.to_string(),
            )),
            _ => None,
        }
    }

    fn out_of_fuel(&self, outcome: &Outcome) -> bool {
        matches!(outcome, Outcome::OutOfFuel { .. })
    }

    fn show(&self, inputs: &[Value]) -> String {
        let shown: Vec<String> = self
            .names
            .iter()
            .zip(inputs)
            .map(|(n, v)| format!("{n}={}", v.display(self.ir)))
            .collect();
        shown.join(" ")
    }
}

/// Replays a reported bug on its shown inputs: it must fail within K where it says.
fn replay_bug(
    ir: &Program,
    config: &OracleConfig,
    answer: &Answer,
    report: &mut Report,
) -> Option<Failing> {
    let Verdict::Bug {
        inputs, failure, ..
    } = &answer.verdict
    else {
        return None;
    };
    let shown = show_inputs(inputs);
    let defect = |what: String| Defect::ReplayDefect {
        k: answer.k,
        setting: answer.setting,
        inputs: shown.clone(),
        what,
    };
    let types = entry_types(ir)?;
    // The shown inputs are the entry's parameters in order, then the choices made below the
    // entry (`proc:var`); with such choices, the engine's own search replayed them.
    if inputs.len() != types.len() {
        return None;
    }
    let mut values = Vec::new();
    for ((name, value), ty) in inputs.iter().zip(&types) {
        let parsed = match ty {
            Type::Int => value.parse::<BigInt>().ok().map(Value::Int),
            Type::Bool => match value.as_str() {
                "true" => Some(Value::Bool(true)),
                "false" => Some(Value::Bool(false)),
                _ => None,
            },
            _ => None,
        };
        match parsed {
            Some(v) => values.push(v),
            None => {
                report
                    .defects
                    .push(defect(format!("the input {name} = {value} does not parse")));
                return None;
            }
        }
    }
    let program = IrRuns::new(ir, config);
    runs::replay(
        &program,
        &values,
        (answer.k, failure.as_str()),
        shown.clone(),
        defect,
        report,
    )
}

/// Every grid input that fails within `max_k`, with the least bound it fails at.
fn concrete_failures(
    ir: &Program,
    text: &str,
    config: &OracleConfig,
    report: &mut Report,
) -> Vec<Failing> {
    let Some(types) = entry_types(ir) else {
        return Vec::new();
    };
    let grid = input_grid(&types, text, config);
    runs::grid_failures(&IrRuns::new(ir, config), grid, config.max_k, report)
}

/// -3..=5 and c-1, c, c+1, -c for every integer literal of the text.
fn int_candidates(text: &str) -> Vec<BigInt> {
    let mut values: BTreeSet<BigInt> = (-3..=5).map(BigInt::from).collect();
    for word in text.split(|c: char| !c.is_ascii_digit()) {
        if let Ok(c) = word.parse::<BigInt>() {
            for delta in -1..=1 {
                values.insert(&c + delta);
            }
            values.insert(-c);
        }
    }
    values.into_iter().collect()
}

fn input_grid(types: &[Type], text: &str, config: &OracleConfig) -> Vec<Vec<Value>> {
    let ints = int_candidates(text);
    let candidates = |ty: &Type, ints: &[BigInt]| -> Vec<Value> {
        match ty {
            Type::Bool => vec![Value::Bool(false), Value::Bool(true)],
            _ => ints.iter().cloned().map(Value::Int).collect(),
        }
    };
    let per_param: Vec<Vec<Value>> = types.iter().map(|t| candidates(t, &ints)).collect();
    let total = per_param
        .iter()
        .try_fold(1usize, |acc, v| acc.checked_mul(v.len()));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(ints.len() as u64 * 7919 + types.len() as u64);
    let mut grid = match total {
        Some(n) if n <= config.max_grid => product(&per_param),
        _ => {
            let small_ints: Vec<BigInt> = (-1..=2).map(BigInt::from).collect();
            let small: Vec<Vec<Value>> = types.iter().map(|t| candidates(t, &small_ints)).collect();
            let mut grid = match small
                .iter()
                .try_fold(1usize, |acc, v| acc.checked_mul(v.len()))
            {
                Some(n) if n <= config.max_grid => product(&small),
                _ => Vec::new(),
            };
            grid.extend(sample(&per_param, config.max_grid, &mut rng));
            grid
        }
    };
    let wide_ints: Vec<BigInt> = (-100..=100).map(BigInt::from).collect();
    let wide: Vec<Vec<Value>> = types.iter().map(|t| candidates(t, &wide_ints)).collect();
    if !types.is_empty() {
        grid.extend(sample(&wide, config.random_inputs, &mut rng));
    }
    let mut seen = std::collections::HashSet::new();
    grid.retain(|inputs| seen.insert(format!("{inputs:?}")));
    grid
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROGRAM: &str = "procedure down(n: int) returns (r: int)\n{\n  r := 0;\n  if (n > 0) {\n    call r := down(n - 1);\n  }\n}\n\nprocedure main(a: int)\n{\n  var z: int;\n  call z := down(a);\n  assert a != 2;\n}\n";

    #[test]
    fn the_grid_finds_the_failing_input_and_its_least_depth() {
        let ir = load(PROGRAM).unwrap();
        let mut report = Report::default();
        let failing = concrete_failures(&ir, PROGRAM, &OracleConfig::default(), &mut report);
        // Only a = 2 fails (whatever the uninitialised `z`, an input too), from depth 3:
        // `down 2` reaches the bottom there.
        assert!(!failing.is_empty());
        for f in &failing {
            assert!(f.inputs.starts_with("a=2 z#init="), "{}", f.inputs);
            assert_eq!((f.depth, f.at.as_str()), (3, "13:3"));
        }
    }

    #[test]
    fn verdicts_agree_with_the_runs() {
        let config = OracleConfig {
            max_k: 4,
            ..OracleConfig::default()
        };
        let report = check(PROGRAM, &config).unwrap();
        assert!(report.defects.is_empty(), "{:?}", report.defects);
        assert_eq!(report.concrete_bug_depth, Some(3));
        assert!(report.bugs >= 2, "{report:?}");
    }
}
