//! Property test over mutants of our OCaml programs (issue 15, "no panic on any input"):
//! each case takes a program of `tests/ocaml/`, applies a few word-level mutations (delete,
//! duplicate, swap, or replace a word by one of [`WORDS`], which lean on exceptions), and
//! loads the result. Loading never panics and an error always has a location; a mutant that
//! loads is lowered (which checks the IR in debug builds) and run on a few inputs in the
//! interpreter and, lowered, in the IR interpreter: the two agree on the outcome (a value,
//! a failure at the same position, or a cut-off at the same depth).
//! Mutants reach combinations of `raise`, `try` and calls that no hand-written program has.

use crate::common;

use boogie_like::interp::{Interpreter, Outcome as IrOutcome, RunConfig as IrConfig};
use boogie_like::{Value as IrValue, verify};
use common::Rng;
use horef_si::core_lang::ast::Type;
use horef_si::core_lang::interp::{self, Outcome, RunConfig, Value};
use horef_si::frontend::{Checked, load_bytes};
use horef_si::lower::lower;
use proptest::prelude::*;
use std::path::PathBuf;

/// Words a mutation may put in: exception constructs and the small pieces around them.
const WORDS: &[&str] = &[
    "raise",
    "Exit",
    "Not_found",
    "(raise Exit)",
    "(failwith \"m\")",
    "try",
    "with",
    "_",
    "->",
    "|",
    "(try 0 with _ -> 1)",
    "(try f x with Exit -> 0)",
    "(1 / 0)",
    "0",
    "1",
    "x",
    "n",
    "(",
    ")",
    ";",
    "in",
    "let",
    "if",
    "then",
    "else",
];

fn programs() -> Vec<PathBuf> {
    common::ocaml_programs()
}

/// `text` with `count` word-level mutations drawn from `rng`.
fn mutate(text: &str, rng: &mut Rng, count: usize) -> String {
    let mut words: Vec<String> = text.split(' ').map(str::to_string).collect();
    for _ in 0..count {
        let at = rng.below(words.len());
        match rng.below(4) {
            0 if words.len() > 1 => drop(words.remove(at)),
            1 => words.insert(at, words[at].clone()),
            2 => {
                let other = rng.below(words.len());
                words.swap(at, other);
            }
            _ => words[at] = WORDS[rng.below(WORDS.len())].to_string(),
        }
    }
    words.join(" ")
}

/// The outcome in terms both interpreters share.
fn source_outcome(checked: &Checked, inputs: &[Value], depth: u32) -> Option<String> {
    let config = RunConfig {
        max_depth: depth,
        fuel: 200_000,
        trace: false,
        memory_limit_mib: None,
    };
    match interp::run(&checked.program, &checked.info, inputs, &config).outcome {
        Outcome::Value(_) => Some("value".into()),
        Outcome::Failure { span, .. } => {
            let at = checked.file.line_col(span.start as usize);
            Some(format!("failure at {}:{}", at.line, at.col))
        }
        Outcome::CutOff { depth, .. } => Some(format!("cut off at {depth}")),
        Outcome::OutOfFuel { .. } | Outcome::OutOfMemory { .. } => None,
    }
}

fn ir_outcome(ir: &Interpreter, inputs: &[Value], depth: u32) -> Option<String> {
    let values: Vec<IrValue> = inputs
        .iter()
        .filter_map(|v| match v {
            Value::Int(i) => Some(IrValue::Int(i.clone())),
            _ => None,
        })
        .collect();
    let run = ir
        .run(&values, &IrConfig::with_depth(depth).fuel(800_000))
        .unwrap_or_else(|e| panic!("IR runtime error: {e}"));
    match run.outcome {
        IrOutcome::Returned => Some("value".into()),
        IrOutcome::Failure {
            source: Some(pos), ..
        } => Some(format!("failure at {}:{}", pos.line, pos.col)),
        IrOutcome::CutOff { depth, .. } => Some(format!("cut off at {depth}")),
        IrOutcome::OutOfFuel { .. } => None,
        other => Some(format!("{other:?}")),
    }
}

/// Loads a mutant; if it loads, the lowering and both interpreters agree on it. Returns
/// whether it loaded.
fn check_mutant(text: &str) -> bool {
    let checked = match load_bytes("mutant.ml", text.as_bytes()) {
        Ok(checked) => checked,
        Err(e) => {
            let rendered = e.render();
            assert!(
                rendered.contains("mutant.ml:"),
                "no location in\n{rendered}"
            );
            assert!(
                !rendered.contains("internal error"),
                "a translation bug on\n{text}\n{rendered}"
            );
            return false;
        }
    };
    let lowered = lower(&checked);
    verify(&lowered.ir).unwrap_or_else(|e| panic!("IR verifier on\n{text}\n{e:?}"));
    let ir = Interpreter::new(&lowered.ir).expect("IR interpreter");
    for n in [-1, 0, 2] {
        let inputs: Vec<Value> = checked
            .program
            .main
            .params
            .iter()
            .map(|p| match p.ty {
                Type::Unit => Value::Unit,
                _ => Value::int(n),
            })
            .collect();
        for depth in [1, 3] {
            let ours = source_outcome(&checked, &inputs, depth);
            let theirs = ir_outcome(&ir, &inputs, depth);
            if let (Some(a), Some(b)) = (&ours, &theirs) {
                assert_eq!(a, b, "n = {n}, depth {depth}, on\n{text}");
            }
        }
    }
    true
}

/// The mutant of seed `seed`.
fn mutant(programs: &[PathBuf], seed: u64, count: usize) -> String {
    let mut rng = Rng::new(seed);
    let path = &programs[rng.below(programs.len())];
    let text = std::fs::read_to_string(path).expect("read");
    mutate(&text, &mut rng, count)
}

/// The mutants of seeds 0..400 (1 to 3 mutations): enough of them load for the
/// comparison to mean something (about a quarter do).
#[test]
fn a_fixed_set_of_mutants_loads_often_enough_and_lowers_faithfully() {
    let programs = programs();
    let seeds = 400;
    let loaded = (0..seeds)
        .filter(|seed| check_mutant(&mutant(&programs, *seed, 1 + (*seed % 3) as usize)))
        .count();
    println!("mutants: {seeds} tried, {loaded} loaded and compared");
    assert!(
        loaded >= seeds as usize / 10,
        "only {loaded} of {seeds} mutants load"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn mutants_of_our_programs_never_panic_and_lower_faithfully(
        seed in any::<u64>(),
        count in 1usize..4,
    ) {
        check_mutant(&mutant(&programs(), seed, count));
    }
}
