//! Entry splitting (src/engine/search/entry_split.rs, src/engine/search/groups.rs) end to end: an IR
//! `Main` dispatching on `sel` to 48 cases is verified group by group in SI mode, and the
//! verdicts agree with full unrolling (which never splits); a bug is a shallowest one
//! whichever group holds it. Needs `z3` on PATH.

use horef_si::engine::Mode;
use horef_si::engine::verdict::Verdict;
use horef_si::engine::{Options, verify_ir};
use proptest::prelude::*;

const CASES: usize = 48;

/// How case `i` of the dispatch behaves.
#[derive(Clone, Copy, PartialEq)]
enum Case {
    /// Asserts something true.
    Safe,
    /// Calls down to the given depth (1 or more), where it fails when `x == i`; the
    /// failing `assert` is at source position `i:depth`.
    FailsAt(u32),
    /// Counts `x` down to 0 recursively and asserts the count is not negative: safe at
    /// every depth, with a call site left open at every bound, proved by the summary
    /// `ret >= 0` of the counting procedure.
    Counts,
}

/// The depth at which a case fails, if it does.
fn failing_depth(case: Case) -> Option<u32> {
    match case {
        Case::FailsAt(depth) => Some(depth),
        Case::Safe | Case::Counts => None,
    }
}

/// The procedures of case `i`, entered at `p{i}`.
fn case_procedures(i: usize, case: Case) -> String {
    match case {
        Case::Safe => format!("procedure p{i}(y: int) {{ assert {{:source {i}, 1}} y == y; }}\n"),
        Case::FailsAt(depth) => {
            // p{i} runs at depth 1 and calls p{i}_2 at depth 2, ..., down to p{i}_{depth}.
            let name = |d: u32| match d {
                1 => format!("p{i}"),
                _ => format!("p{i}_{d}"),
            };
            let mut text = String::new();
            for d in 1..depth {
                text += &format!(
                    "procedure {}(y: int) {{ call {}(y); }}\n",
                    name(d),
                    name(d + 1)
                );
            }
            text + &format!(
                "procedure {}(y: int) {{ assert {{:source {i}, {depth}}} y != {i}; }}\n",
                name(depth)
            )
        }
        Case::Counts => format!(
            "procedure c{i}(y: int) returns (r: int) {{ if (y > 0) {{ call r := c{i}(y - 1); \
             r := r + 1; }} else {{ r := 0; }} }}\n\
             procedure p{i}(y: int) {{ var v: int; call v := c{i}(y); \
             assert {{:source {i}, 1}} v >= 0; }}\n"
        ),
    }
}

/// `Main(sel, x)` dispatching on `sel` in a balanced `if` tree to `p0..p47`: a dispatch of
/// the shape the engine splits (its unit tests, `a_large_dispatch_splits_into_groups_...`,
/// check that this shape is split).
fn program(case: impl Fn(usize) -> Case) -> boogie_like::Program {
    fn tree(lo: usize, hi: usize) -> String {
        if lo == hi {
            return format!("call p{lo}(x);");
        }
        let mid = (lo + hi) / 2;
        format!(
            "if (sel <= {mid}) {{ {} }} else {{ {} }}",
            tree(lo, mid),
            tree(mid + 1, hi)
        )
    }
    let mut text: String = (0..CASES).map(|i| case_procedures(i, case(i))).collect();
    text += &format!(
        "procedure {{:entrypoint}} Main(sel: int, x: int) {{ {} }}\n",
        tree(0, CASES - 1)
    );
    boogie_like::parse(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"))
}

fn verify(program: &boogie_like::Program, depth: u32, mode: Mode) -> Verdict {
    let options = Options {
        max_depth: depth,
        mode,
        ..Options::default()
    };
    verify_ir(program, &options).verdict
}

fn failure(verdict: &Verdict) -> &str {
    match verdict {
        Verdict::Bug { failure, .. } => failure,
        other => panic!("expected a bug, got {other:?}"),
    }
}

#[test]
fn a_shallow_bug_in_a_late_group_wins_over_a_deep_one_in_an_early_group() {
    // Depths 3 and 4 fall into the same pass (bounds 3 to 4): the group with the depth-4
    // bug runs first, and the shallower bug of a later group must still win.
    let program = program(|i| match i {
        2 => Case::FailsAt(4),
        40 => Case::FailsAt(3),
        _ => Case::Safe,
    });
    let got = verify(&program, 5, Mode::Si);
    assert_eq!(failure(&got), "40:3", "{got:?}");
    assert_eq!(failure(&verify(&program, 3, Mode::Si)), "40:3");
    // At depth 4 both bugs exist, and unrolling finds one of them.
    let unrolled = verify(&program, 4, Mode::Unroll);
    let found = failure(&unrolled);
    assert!(["40:3", "2:4"].contains(&found), "{unrolled:?}");
}

#[test]
fn a_deep_bug_is_found_at_its_depth_and_not_below() {
    let program = program(|i| {
        if i == 29 {
            Case::FailsAt(3)
        } else {
            Case::Safe
        }
    });
    for mode in [Mode::Si, Mode::Unroll] {
        assert_eq!(failure(&verify(&program, 3, mode)), "29:3", "{mode:?}");
        assert_eq!(failure(&verify(&program, 9, mode)), "29:3", "{mode:?}");
        let below = verify(&program, 2, mode);
        assert_eq!(below, Verdict::safe_up_to(2), "{mode:?}");
    }
}

#[test]
fn safe_dispatches_get_the_verdicts_unrolling_gets() {
    let flat = program(|_| Case::Safe);
    assert_eq!(verify(&flat, 4, Mode::Si), Verdict::Verified);
    assert_eq!(verify(&flat, 4, Mode::Unroll), Verdict::Verified);
    // Counting cases in two groups keep sites open at every bound: summaries (inferred
    // once, shared by the groups) prove them; without any proof engine (neither Houdini
    // nor the Horn clauses), they are safe up to K.
    let recursive = program(|i| match i {
        7 | 31 => Case::Counts,
        _ => Case::Safe,
    });
    assert_eq!(verify(&recursive, 4, Mode::Si), Verdict::Verified);
    let options = Options {
        max_depth: 4,
        summaries: false,
        chc: false,
        ..Options::default()
    };
    assert_eq!(
        verify_ir(&recursive, &options).verdict,
        Verdict::safe_up_to(4)
    );
    let unrolled = verify(&recursive, 4, Mode::Unroll);
    assert!(
        matches!(
            unrolled,
            Verdict::Verified | Verdict::SafeUpTo { depth: 4, .. }
        ),
        "{unrolled:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// Whatever the failing cases and the bound: a bug exactly when some case fails within
    /// K, and then at a case that fails shallowest; else no bug.
    #[test]
    fn split_verdicts_follow_the_cases(
        failing in prop::collection::vec((0..CASES, 1u32..6), 0..4),
        depth in 1u32..7,
    ) {
        let case_of = |i: usize| {
            failing
                .iter()
                .rev()
                .find(|(at, _)| *at == i)
                .map_or(Case::Safe, |(_, d)| Case::FailsAt(*d))
        };
        let program = program(case_of);
        let shallowest = (0..CASES).filter_map(|i| failing_depth(case_of(i))).min();
        let got = verify(&program, depth, Mode::Si);
        match shallowest {
            Some(d) if d <= depth => {
                let (line, col) = failure(&got).split_once(':').expect("line:col");
                let case: usize = line.parse().expect("a case's line");
                let at_depth: u32 = col.parse().expect("the failing depth");
                prop_assert_eq!(failing_depth(case_of(case)), Some(at_depth));
                prop_assert_eq!(at_depth, d, "not a shallowest bug: {:?}", got);
            }
            _ => prop_assert!(
                matches!(got, Verdict::Verified | Verdict::SafeUpTo { .. }),
                "{:?}", got
            ),
        }
    }
}
