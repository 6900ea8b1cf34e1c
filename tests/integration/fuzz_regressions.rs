//! Programs the random-program fuzzer (issue 18, `horef-bench fuzz`) found defects in,
//! as it shrank them, each with the defect it showed. For each, at every K in 0..=4 and in
//! both modes, `verify` must answer what the interpreter says of the (input-less) `Main`:
//! a bug at the same position when the run fails within K, no bug otherwise.
//! Needs `z3` on PATH.

use horef_si::core_lang::interp::{self, Outcome, RunConfig};
use horef_si::engine::Mode;
use horef_si::engine::verdict::Verdict;
use horef_si::engine::{Options, verify_horef};
use horef_si::frontend::load_bytes;

/// (what went wrong, the shrunk program).
const FOUND: &[(&str, &str)] = &[
    (
        "seed 18089: `verify` panicked, `internal error: no component` (applying `fail`)",
        "Methods:\nm0 (n:List) :(Int) =\n  m0 ((fail) (0));\nMain () :(Unit):\n  skip\n",
    ),
    (
        "seed 18110: `verify` panicked, `internal error: projection of a non-pair`",
        "Main () :(Int):\n  fst (Pair(0, fail))\n",
    ),
    (
        "seed 112 of the long run: `verify` panicked, `the IR is ill-formed: datatype `Clo1` \
         has no finite value` (the only `Int -> Int` closure captures an `Int -> Int`)",
        "Methods:\nm1 (n:Int -> Int, x:List) :(Int -> Int) =\n  (fun (f:Int) :(Int) -> n (f));\n\n\
         Main () :(Unit):\n  skip\n",
    ),
];

/// Where the interpreter's run of `Main` fails within `k`, if it does.
fn concrete_failure(source: &str, k: u32) -> Option<String> {
    let checked = load_bytes("found.horef", source.as_bytes()).expect("loads");
    let config = RunConfig {
        max_depth: k,
        ..RunConfig::default()
    };
    match interp::run(&checked.program, &checked.info, &[], &config).outcome {
        Outcome::Failure { span, .. } => {
            Some(checked.file.line_col(span.start as usize).to_string())
        }
        _ => None,
    }
}

#[test]
fn found_programs_get_the_verdict_of_their_concrete_runs() {
    for (what, source) in FOUND {
        let checked = load_bytes("found.horef", source.as_bytes()).expect("loads");
        for k in 0..=4 {
            let expected = concrete_failure(source, k);
            for mode in [Mode::Si, Mode::Unroll] {
                let options = Options {
                    max_depth: k,
                    mode,
                    ..Options::default()
                };
                let verdict = verify_horef(&checked, &options).verdict;
                match (&verdict, &expected) {
                    (Verdict::Bug { failure, .. }, Some(at)) => assert_eq!(failure, at, "{what}"),
                    (Verdict::Verified | Verdict::SafeUpTo { .. }, None) => {}
                    _ => panic!("{what}\nK = {k} {mode:?}: {verdict:?}, the run: {expected:?}"),
                }
            }
        }
    }
}
