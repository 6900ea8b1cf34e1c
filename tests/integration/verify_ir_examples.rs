//! The IR examples of `boogie_like/examples/` (CORRAL-style: one folder per test, the
//! expected answer in `expected.txt`) run through the same engine as HORef programs.
//! `verdict: bug within N` means a bug at depth N and none at N - 1; `verdict: verified`
//! and `verdict: safe up to K` are checked at their depth. Needs `z3` on PATH.

use horef_si::engine::Mode;
use horef_si::engine::verdict::Verdict;
use horef_si::engine::{Options, verify_ir};
use std::path::Path;

fn check(program: &boogie_like::Program, depth: u32, mode: Mode) -> Verdict {
    let options = Options {
        max_depth: depth,
        mode,
        ..Options::default()
    };
    verify_ir(program, &options).verdict
}

#[test]
fn every_example_gets_its_expected_verdict() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("boogie_like/examples");
    let mut checked = 0;
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("examples")
        .flatten()
        .collect();
    dirs.sort_by_key(|d| d.path());
    for dir in dirs {
        let text = std::fs::read_to_string(dir.path().join("program.ir")).expect("program");
        let expected = std::fs::read_to_string(dir.path().join("expected.txt")).expect("expected");
        let program = boogie_like::parse(&text).expect("parse");
        let verdict_line = expected
            .lines()
            .find_map(|l| l.strip_prefix("verdict: "))
            .expect("a verdict line");
        let name = dir.file_name().to_string_lossy().to_string();
        for mode in [Mode::Si, Mode::Unroll] {
            let words: Vec<&str> = verdict_line.split_whitespace().collect();
            match words.as_slice() {
                ["verified"] => {
                    let got = check(&program, 8, mode);
                    assert_eq!(got, Verdict::Verified, "{name} {mode:?}");
                }
                ["bug", "within", n] => {
                    let n: u32 = n.parse().expect("depth");
                    let got = check(&program, n, mode);
                    assert!(
                        matches!(got, Verdict::Bug { .. }),
                        "{name} {mode:?} at {n}: {got:?}"
                    );
                    let below = check(&program, n - 1, mode);
                    assert!(
                        matches!(below, Verdict::SafeUpTo { .. } | Verdict::Verified),
                        "{name} {mode:?} at {}: {below:?}",
                        n - 1
                    );
                }
                ["safe", "up", "to", k] => {
                    let k: u32 = k.parse().expect("depth");
                    let got = check(&program, k, mode);
                    assert_eq!(got, Verdict::safe_up_to(k), "{name} {mode:?}");
                }
                other => panic!("{name}: unknown verdict line {other:?}"),
            }
        }
        checked += 1;
    }
    println!("IR examples checked: {checked}");
    assert!(checked >= 8, "only {checked} examples");
}
