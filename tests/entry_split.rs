//! Entry splitting (src/engine/entry_split.rs, src/engine/groups.rs) end to end: an IR
//! `Main` dispatching on `sel` to 48 cases is verified group by group in SI mode, and the
//! verdicts agree with full unrolling (which never splits); a bug is a shallowest one
//! whichever group holds it. Needs `z3` on PATH.

use horef_si::engine::driver::Mode;
use horef_si::engine::entry_split::entry_groups;
use horef_si::engine::verdict::Verdict;
use horef_si::engine::{Options, verify_ir};

const CASES: usize = 48;

/// How case `i` of the dispatch behaves.
#[derive(Clone, Copy, PartialEq)]
enum Case {
    /// Asserts something true.
    Safe,
    /// Fails at depth 1 when `x == i`.
    FailsAtDepth1,
    /// Calls down to depth 3, which fails when `x == i`.
    FailsAtDepth3,
    /// Counts `x` down to 0 recursively and asserts the count is not negative: safe at
    /// every depth, with a call site left open at every bound, proved by the summary
    /// `ret >= 0` of the counting procedure.
    Counts,
}

/// `Main(sel, x)` dispatching on `sel` in a balanced `if` tree to `p0..p47`; case `i`'s
/// failing `assert` sits at source line `i`.
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
    let mut text = String::new();
    for i in 0..CASES {
        text += &match case(i) {
            Case::Safe => {
                format!("procedure p{i}(y: int) {{ assert {{:source {i}, 1}} y == y; }}\n")
            }
            Case::FailsAtDepth1 => {
                format!("procedure p{i}(y: int) {{ assert {{:source {i}, 1}} y != {i}; }}\n")
            }
            Case::FailsAtDepth3 => format!(
                "procedure p{i}(y: int) {{ call q{i}(y); }}\n\
                 procedure q{i}(y: int) {{ call r{i}(y); }}\n\
                 procedure r{i}(y: int) {{ assert {{:source {i}, 3}} y != {i}; }}\n"
            ),
            Case::Counts => format!(
                "procedure c{i}(y: int) returns (r: int) {{ if (y > 0) {{ call r := c{i}(y - 1); \
                 r := r + 1; }} else {{ r := 0; }} }}\n\
                 procedure p{i}(y: int) {{ var v: int; call v := c{i}(y); \
                 assert {{:source {i}, 1}} v >= 0; }}\n"
            ),
        };
    }
    text += &format!(
        "procedure {{:entrypoint}} Main(sel: int, x: int) {{ {} }}\n",
        tree(0, CASES - 1)
    );
    let program = boogie_like::parse(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    assert!(entry_groups(&program).is_some(), "the dispatch is split");
    program
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
    let program = program(|i| match i {
        2 => Case::FailsAtDepth3,
        40 => Case::FailsAtDepth1,
        _ => Case::Safe,
    });
    let got = verify(&program, 5, Mode::Si);
    assert_eq!(failure(&got), "40:1", "{got:?}");
    // Below depth 3 only the shallow bug exists; at depth 3 both do, and unrolling finds
    // one of them.
    assert_eq!(failure(&verify(&program, 1, Mode::Si)), "40:1");
    let unrolled = verify(&program, 3, Mode::Unroll);
    assert!(
        ["40:1", "2:3"].contains(&failure(&unrolled)),
        "{unrolled:?}"
    );
}

#[test]
fn a_deep_bug_is_found_at_its_depth_and_not_below() {
    let program = program(|i| {
        if i == 29 {
            Case::FailsAtDepth3
        } else {
            Case::Safe
        }
    });
    for mode in [Mode::Si, Mode::Unroll] {
        assert_eq!(failure(&verify(&program, 3, mode)), "29:3", "{mode:?}");
        assert_eq!(failure(&verify(&program, 9, mode)), "29:3", "{mode:?}");
        let below = verify(&program, 2, mode);
        assert_eq!(below, Verdict::SafeUpTo { depth: 2 }, "{mode:?}");
    }
}

#[test]
fn safe_dispatches_get_the_verdicts_unrolling_gets() {
    let flat = program(|_| Case::Safe);
    assert_eq!(verify(&flat, 4, Mode::Si), Verdict::Verified);
    assert_eq!(verify(&flat, 4, Mode::Unroll), Verdict::Verified);
    // Counting cases in two groups keep sites open at every bound: summaries (inferred
    // once, shared by the groups) prove them; without, they are safe up to K.
    let recursive = program(|i| match i {
        7 | 31 => Case::Counts,
        _ => Case::Safe,
    });
    assert_eq!(verify(&recursive, 4, Mode::Si), Verdict::Verified);
    let options = Options {
        max_depth: 4,
        summaries: false,
        ..Options::default()
    };
    assert_eq!(
        verify_ir(&recursive, &options).verdict,
        Verdict::SafeUpTo { depth: 4 }
    );
    let unrolled = verify(&recursive, 4, Mode::Unroll);
    assert!(
        matches!(unrolled, Verdict::Verified | Verdict::SafeUpTo { depth: 4 }),
        "{unrolled:?}"
    );
}
