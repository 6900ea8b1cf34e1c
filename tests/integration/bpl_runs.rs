//! Every VERIFIED Boogie program of tests/proofs checked against concrete runs of the IR
//! interpreter (`boogie_like`, the reference semantics the replay of a bug uses), and every
//! failing mutant (`-e`) shown to fail on the same runs — so that the grid is strong enough
//! to catch the bug a wrong proof would hide.
//!
//! The runs: every combination of the entry's inputs over a small grid (integers -1..=4,
//! both booleans, `[int]int` maps: the constants -1, 0, 1 and every table over keys 0..=2
//! with values -1, 0, 2; `[int]bool` maps alike), and for each input every sequence of
//! `havoc` choices over a small domain (integers -1..=3, both booleans, eight maps), depth
//! first, up to [`PATHS`] paths. Programs with quantifiers (each decided by a solver) get
//! the smaller domain for their inputs too, a sample of the grid and fewer paths. A
//! VERIFIED claims every depth, so the runs go to depth [`DEPTH`]. Quantifiers met in a
//! run are decided by the replay's own solver oracle (`SolverQuantifiers`); a run it cannot
//! decide is counted, not judged. Needs `z3` on PATH.

use crate::common;
use boogie_like::ir::{ProcId, Program, Type, Var};
use boogie_like::{
    HavocOracle, Interpreter, MapKey, MapValue, Outcome, RunConfig, RuntimeError, Value,
};
use horef_si::engine::SolverQuantifiers;
use horef_si::span::SourceFile;
use std::path::{Path, PathBuf};

/// The depth of every run (a VERIFIED claims them all; loops run as recursion).
const DEPTH: u32 = 12;
/// Havoc paths tried per input, and with quantifiers (each decided by a solver).
const PATHS: [usize; 2] = [32, 4];
/// The most inputs run per program (a deterministic sample beyond), and with
/// quantifiers.
const MAX_INPUTS: [usize; 2] = [3000, 40];

fn programs() -> Vec<(PathBuf, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/proofs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("tests/proofs")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "bpl"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let expect = common::expectation(&f, "// expect: ");
            (f, expect)
        })
        .collect()
}

fn load(file: &Path) -> Program {
    let text = std::fs::read_to_string(file).expect("read");
    let source = SourceFile::new(file.display().to_string(), text);
    horef_si::frontend::boogie::translate(&source, None)
        .unwrap_or_else(|d| panic!("{}: {d:?}", file.display()))
}

fn int(n: i64) -> Value {
    Value::Int(n.into())
}

/// The grid's values of `ty`; `None` for a type the grid does not cover.
fn values(ty: Type, small: bool) -> Option<Vec<Value>> {
    let ints: Vec<i64> = if small {
        (-1..=3).collect()
    } else {
        (-1..=4).collect()
    };
    match ty {
        Type::Int => Some(ints.into_iter().map(int).collect()),
        Type::Bool => Some(vec![Value::Bool(false), Value::Bool(true)]),
        Type::Map(m) if m.key() == Type::Int => {
            let (elems, defaults): (Vec<Value>, Vec<Value>) = match m.value() {
                Type::Int => (vec![int(-1), int(0), int(2)], vec![int(-1), int(0), int(1)]),
                Type::Bool => (
                    vec![Value::Bool(false), Value::Bool(true)],
                    vec![Value::Bool(false), Value::Bool(true)],
                ),
                _ => return None,
            };
            let mut out: Vec<Value> = defaults
                .iter()
                .map(|d| Value::map(MapValue::constant(Type::Int, d.clone())))
                .collect();
            let base = defaults[1].clone();
            let n = elems.len();
            for code in 0..n * n * n {
                let entries = (0..3i64).map(|k| {
                    let digit = (code / n.pow(k as u32)) % n;
                    (MapKey::Int(k.into()), elems[digit].clone())
                });
                let map = Value::map(MapValue::from_entries(Type::Int, base.clone(), entries));
                if !out.contains(&map) {
                    out.push(map);
                }
            }
            if small {
                out.truncate(8);
            }
            Some(out)
        }
        _ => None,
    }
}

/// Every combination of `columns`, or `most` of them spread over the grid (the code of the
/// `i`-th is `i * 7919` modulo the grid's size: every column varies, none is stuck at a
/// stride's multiples).
fn grid(columns: &[Vec<Value>], most: usize) -> Vec<Vec<Value>> {
    let total: usize = columns.iter().map(Vec::len).product();
    let codes: Vec<usize> = if total <= most {
        (0..total).collect()
    } else {
        (0..most).map(|i| (i * 7919) % total).collect()
    };
    codes
        .into_iter()
        .map(|mut code| {
            columns
                .iter()
                .map(|c| {
                    let v = c[code % c.len()].clone();
                    code /= c.len();
                    v
                })
                .collect()
        })
        .collect()
}

/// `havoc` choices: the `prefix` first, then the first value of each domain; records how
/// many values each choice point had.
struct Choices {
    prefix: Vec<usize>,
    taken: Vec<(usize, usize)>,
}

fn havoc_domain(ty: Type) -> Vec<Value> {
    values(ty, true).unwrap_or_default()
}

impl HavocOracle for Choices {
    fn havoc(&mut self, _proc: ProcId, _var: Var, ty: Type) -> Value {
        let domain = havoc_domain(ty);
        let i = self.taken.len();
        let pick = self.prefix.get(i).copied().unwrap_or(0);
        self.taken.push((pick, domain.len()));
        // A type without a domain here: the interpreter's check of the value's type turns
        // this into an error, which the caller reports.
        domain.get(pick).cloned().unwrap_or(Value::Bool(false))
    }
}

/// The outcomes of every havoc path of one input (depth first), and whether a quantifier
/// could not be decided on some path.
fn runs(interp: &Interpreter, inputs: &[Value], paths: usize, name: &str) -> (Vec<Outcome>, bool) {
    let config = RunConfig::with_depth(DEPTH).fuel(200_000);
    let (mut outcomes, mut undecided) = (Vec::new(), false);
    let mut prefix: Vec<usize> = Vec::new();
    for _ in 0..paths {
        let mut choices = Choices {
            prefix: prefix.clone(),
            taken: Vec::new(),
        };
        match interp.run_with_oracle(inputs, &config, &mut choices) {
            Ok(run) => outcomes.push(run.outcome),
            Err(RuntimeError::Quantifier { .. }) => undecided = true,
            Err(e) => panic!("{name}: the interpreter failed on {inputs:?}: {e:?}"),
        }
        // The next path: the last choice point with a value left, advanced.
        let mut taken = choices.taken;
        while let Some((pick, n)) = taken.pop() {
            if pick + 1 < n {
                taken.push((pick + 1, n));
                break;
            }
        }
        if taken.is_empty() {
            break;
        }
        prefix = taken.into_iter().map(|(p, _)| p).collect();
    }
    (outcomes, undecided)
}

/// What the runs of one program showed.
struct Checked {
    inputs: usize,
    failing: Option<Vec<Value>>,
    undecided: usize,
}

/// Runs `file` on the grid; `None` when its entry takes a type the grid does not cover.
fn check(file: &Path) -> Option<Checked> {
    let ir = load(file);
    let name = file.display().to_string();
    let entry = &ir.procs[ir.entrypoint().expect("an entry")];
    let small = ir.has_quantifiers();
    let columns: Option<Vec<Vec<Value>>> = entry
        .params
        .iter()
        .map(|p| values(entry.locals[*p].ty, small))
        .collect();
    let inputs = grid(&columns?, MAX_INPUTS[usize::from(small)]);
    let oracle = SolverQuantifiers::default();
    let interp = Interpreter::new(&ir)
        .unwrap_or_else(|e| panic!("{name}: {e:?}"))
        .with_quantifiers(&oracle);
    let mut checked = Checked {
        inputs: inputs.len(),
        failing: None,
        undecided: 0,
    };
    for input in inputs {
        let (outcomes, undecided) = runs(&interp, &input, PATHS[usize::from(small)], &name);
        checked.undecided += usize::from(undecided);
        if outcomes
            .iter()
            .any(|o| matches!(o, Outcome::Failure { .. }))
        {
            checked.failing = Some(input);
            break;
        }
    }
    Some(checked)
}

/// Every VERIFIED `.bpl` of tests/proofs survives the grid's runs; every failing mutant
/// fails on them (the grid would have caught the bug a wrong proof hides).
#[test]
fn every_verified_bpl_survives_exhaustive_runs() {
    let (mut safe_checked, mut mutants_checked) = (0, 0);
    for (file, expect) in programs() {
        let name = file.display();
        let Some(checked) = check(&file) else {
            continue;
        };
        if expect.starts_with("verified") {
            assert!(
                checked.failing.is_none(),
                "{name} is expected VERIFIED but fails on {:?}",
                checked.failing
            );
            assert!(
                checked.undecided < checked.inputs,
                "{name}: no run was decided"
            );
            safe_checked += 1;
        } else if expect.starts_with("bug") {
            assert!(
                checked.failing.is_some(),
                "{name}: no run of the grid fails ({} inputs, {} undecided)",
                checked.inputs,
                checked.undecided
            );
            mutants_checked += 1;
        }
    }
    assert!(
        safe_checked >= 10 && mutants_checked >= 10,
        "{safe_checked} verified programs and {mutants_checked} mutants checked"
    );
}

#[test]
fn the_grid_covers_int_maps_with_small_tables() {
    let maps = values(Type::map(Type::Int, Type::Int), false).expect("int maps");
    // Three constants and the 26 other tables over keys 0..=2.
    assert_eq!(maps.len(), 29);
    let columns = [maps, values(Type::Int, false).expect("ints")];
    assert_eq!(grid(&columns, 3000).len(), 29 * 6);
    // A sample of 40 rows: every map and every int occurs.
    let sample = grid(&columns, 40);
    assert_eq!(sample.len(), 40);
    for (i, column) in columns.iter().enumerate() {
        for v in column.iter().take(6) {
            assert!(sample.iter().any(|row| &row[i] == v), "{v:?} not sampled");
        }
    }
}
