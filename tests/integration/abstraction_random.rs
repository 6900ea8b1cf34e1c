//! The variable abstraction is sound on random programs (issue 35, item 5). Needs `z3` on
//! PATH.
//!
//! A seeded generator (deterministic) writes IR programs with several integer globals,
//! step procedures that update them from each other and from their argument (branches
//! and assertions included), a recursive `drive` calling two steps and itself, and a
//! `Main (k, x)` that runs `drive` only for `k <= 3` and `-2 <= x <= 2` and then asserts
//! a bound on one global. The inputs that do anything are few, so the interpreter decides
//! each program exactly by running all of them (the oracle). For each program:
//! - the verdict with the abstraction forced on from no global (CORRAL's start, so that
//!   refinement runs; Alg. 2 and Alg. 1 alternately) is a bug iff the oracle finds one,
//!   and so is the verdict with `--track-all`;
//! - every BUG's inputs, run by the interpreter, fail an assertion.

use crate::common::Rng;
use boogie_like::interp::{self, Outcome as RunOutcome, RunConfig, Value};
use horef_si::engine::verdict::Verdict;
use horef_si::engine::{AbstractionStart as Start, Options, Outcome, Refinement};
use horef_si::verifier::{self, Program};
use num_bigint::BigInt;

/// Deep enough for the whole call tree (`drive 3` runs its steps at depth 4).
const DEPTH: u32 = 5;
const PROGRAMS: u64 = 60;

/// One random statement of a step over globals `g0..g{n-1}` and the argument `x`, and
/// the global it may write.
fn statement(rng: &mut Rng, n: usize) -> (String, usize) {
    let written = rng.below(n);
    let a = format!("g{written}");
    let mut g = || format!("g{}", rng.below(n));
    let (b, c) = (g(), g());
    let text = match rng.below(6) {
        0 => format!("  {a} := {b} + x;\n"),
        1 => format!("  {a} := {a} + 1;\n"),
        2 => format!("  {a} := {b} - {c};\n"),
        3 => format!("  {a} := 0 * {b} + {c};\n"),
        4 => {
            format!("  if ({b} > x) {{\n    {a} := {a} + x;\n  }} else {{\n    {a} := {c};\n  }}\n")
        }
        _ => format!("  assert {a} >= -{};\n", 2 + rng.below(6)),
    };
    (text, written)
}

/// A random program (module doc).
fn program(seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let n = 5 + rng.below(4);
    let all: Vec<String> = (0..n).map(|i| format!("g{i}")).collect();
    let modifies = format!("  modifies {};\n", all.join(", "));
    let mut text: String = all.iter().map(|g| format!("var {g}: int;\n")).collect();
    let steps = 3;
    let mut written = Vec::new();
    for j in 0..steps {
        text.push_str(&format!("procedure step{j}(x: int)\n{modifies}{{\n"));
        for _ in 0..2 + rng.below(3) {
            let (statement, global) = statement(&mut rng, n);
            text.push_str(&statement);
            written.push(global);
        }
        text.push_str("}\n");
    }
    let (s1, s2) = (rng.below(steps), rng.below(steps));
    text.push_str(&format!(
        "procedure drive(k: int, x: int)\n{modifies}{{\n  if (k > 0) {{\n    \
         call step{s1}(x);\n    call step{s2}(k);\n    call drive(k - 1, x + 1);\n  }}\n}}\n"
    ));
    // A global some step may write (the others stay 0).
    let (target, bound) = (written[rng.below(written.len())], rng.below(3));
    text.push_str(&format!(
        "procedure {{:entrypoint}} Main(k: int, x: int)\n{modifies}{{\n  \
         if (k <= 3 && -2 <= x && x <= 2) {{\n    call drive(k, x);\n    \
         assert g{target} <= {bound};\n  }}\n}}\n"
    ));
    text
}

fn parse(text: &str) -> boogie_like::Program {
    let ir = boogie_like::parse(text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    boogie_like::verify(&ir).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    ir
}

/// Whether the entry fails an assertion on `(k, x)`.
fn fails(ir: &boogie_like::Program, k: i64, x: i64) -> bool {
    let inputs = [Value::Int(BigInt::from(k)), Value::Int(BigInt::from(x))];
    let config = RunConfig {
        max_depth: DEPTH + 2,
        ..RunConfig::default()
    };
    let run = interp::run(ir, &inputs, &config).expect("the interpreter runs");
    matches!(run.outcome, RunOutcome::Failure { .. })
}

/// The oracle: whether some input fails (the others run nothing).
fn has_bug(ir: &boogie_like::Program) -> bool {
    (-1..=3).any(|k| (-2..=2).any(|x| fails(ir, k, x)))
}

/// An input's value as the verdict prints it (`-1` or `(- 1)`).
fn integer(text: &str) -> i64 {
    let digits: String = text.chars().filter(|c| !"() ".contains(*c)).collect();
    digits
        .parse()
        .unwrap_or_else(|e| panic!("input {text:?}: {e}"))
}

/// `None` when the verdict is right for a program whose oracle says `bug`; else what is
/// wrong.
fn judge(ir: &boogie_like::Program, bug: bool, outcome: &Outcome) -> Option<String> {
    match &outcome.verdict {
        Verdict::Bug { inputs, .. } => {
            let value = |name: &str| {
                inputs
                    .iter()
                    .find(|(n, _)| n == name)
                    .map_or(0, |(_, v)| integer(v))
            };
            let (k, x) = (value("k"), value("x"));
            if !fails(ir, k, x) {
                return Some(format!(
                    "BUG on k = {k}, x = {x}, which runs without failing"
                ));
            }
            None
        }
        Verdict::Verified | Verdict::SafeUpTo { .. } if !bug => None,
        other => Some(format!("{other:?}, the oracle says bug = {bug}")),
    }
}

#[test]
fn the_abstraction_agrees_with_track_all_and_the_interpreter_on_random_programs() {
    let mut wrong = Vec::new();
    let (mut bugs, mut refined, mut alg2) = (0, 0, 0);
    for seed in 0..PROGRAMS {
        let text = program(seed);
        let ir = parse(&text);
        let bug = has_bug(&ir);
        bugs += usize::from(bug);
        let refinement = if seed % 2 == 0 {
            Refinement::InSolver
        } else {
            Refinement::DivideAndConquer
        };
        let base = Options {
            max_depth: DEPTH,
            chc: false,
            refinement,
            ..Options::default()
        };
        let abstracted = verifier::verify(
            Program::Ir(&ir),
            &Options {
                abstraction: Some(Start::Empty),
                ..base.clone()
            },
        );
        let all = verifier::verify(
            Program::Ir(&ir),
            &Options {
                abstraction: None,
                ..base
            },
        );
        let stats = abstracted
            .stats
            .abstraction
            .as_ref()
            .expect("the abstraction ran");
        refined += usize::from(stats.refinements > 0);
        alg2 += stats.refined_with.iter().filter(|a| **a == "alg2").count();
        for (name, outcome) in [("abstracted", &abstracted), ("track-all", &all)] {
            if let Some(why) = judge(&ir, bug, outcome) {
                wrong.push(format!("seed {seed}, {name}: {why}\n{text}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The comparison means something only with both verdicts and with refinement run.
    let programs = PROGRAMS as usize;
    assert!(
        bugs * 5 >= programs && bugs * 5 <= programs * 4,
        "{bugs} of {programs} buggy"
    );
    assert!(refined * 2 >= programs, "{refined} of {programs} refined");
    assert!(alg2 > 0, "Alg. 2 never ran");
}
