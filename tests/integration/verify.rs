//! End-to-end verification tests (issue 4) on small programs we write, with a tiny DSL:
//! `verified!`, `bug!` (at a source position, with the depth it first shows up at),
//! `safe!`. Every program is checked in both modes. Needs `z3` on PATH (CI installs it).

use horef_si::engine::Mode;
use horef_si::engine::verdict::Verdict;
use horef_si::engine::{Options, verify_horef};
use horef_si::frontend::load_bytes;

fn verdict(source: &str, max_depth: u32, mode: Mode) -> Verdict {
    let checked =
        load_bytes("test.horef", source.as_bytes()).unwrap_or_else(|e| panic!("{}", e.render()));
    let options = Options {
        max_depth,
        mode,
        ..Options::default()
    };
    verify_horef(&checked, &options).verdict
}

const MODES: [Mode; 2] = [Mode::Si, Mode::Unroll];

/// The program is verified for every depth, in both modes (checked at `k`).
macro_rules! verified {
    ($src:expr, $k:expr) => {
        for mode in MODES {
            let v = verdict($src, $k, mode);
            assert_eq!(v, Verdict::Verified, "{mode:?}");
        }
    };
}

/// The program fails at `at` (`line:col`) from depth `first` on, and not below it.
macro_rules! bug {
    ($src:expr, first = $first:expr, at = $at:expr) => {
        for mode in MODES {
            match verdict($src, $first, mode) {
                Verdict::Bug { failure, .. } => assert_eq!(failure, $at, "{mode:?}"),
                other => panic!(
                    "{mode:?}: expected a bug at depth {}, got {other:?}",
                    $first
                ),
            }
            if $first > 0 {
                let below = verdict($src, $first - 1, mode);
                assert!(
                    matches!(below, Verdict::SafeUpTo { .. }),
                    "{mode:?}: at depth {} expected safe, got {below:?}",
                    $first - 1
                );
            }
        }
    };
}

/// The program is safe up to `k` (and not proved for every depth).
macro_rules! safe {
    ($src:expr, $k:expr) => {
        for mode in MODES {
            assert_eq!(verdict($src, $k, mode), Verdict::safe_up_to($k), "{mode:?}");
        }
    };
}

const MCCARTHY_BUGGY: &str = "Methods:
m (x:Int) :Int = if x > 100 then x - 10 else m (m (x + 11));
Main (n:Int) :Unit:
  if n <= 102 then assert (m n == 91) else skip
";

#[test]
fn a_depth_one_bug_is_found_whatever_the_bound() {
    bug!(MCCARTHY_BUGGY, first = 1, at = "4:20");
    match verdict(MCCARTHY_BUGGY, 15, Mode::Si) {
        Verdict::Bug { inputs, trace, .. } => {
            assert_eq!(inputs, vec![("n".to_string(), "102".to_string())]);
            assert_eq!(trace[0].function, "m");
            assert_eq!(trace[0].args, vec!["102"]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_assertion_independent_of_recursion_is_verified() {
    verified!(
        "Methods:
count (x:Int) :Int = if x <= 0 then 0 else 1 + count (x - 1);
Main (n:Int) :Unit:
  if n > 0 then (let (c:Int) = count n in assert (n > 0)) else skip
",
        6
    );
}

#[test]
fn a_bug_needing_four_calls_shows_up_at_depth_four() {
    bug!(
        "Methods:
count (x:Int) :Int = if x == 0 then 0 else 1 + count (x - 1);
Main (n:Int) :Unit:
  if n >= 0 then assert (count n < 3) else skip
",
        first = 4,
        at = "4:18"
    );
}

#[test]
fn a_recursive_sum_is_safe_up_to_the_bound() {
    // sum 9 == 45 needs ten calls: safe up to 9, a bug from depth 10 on.
    let src = "Methods:
sum (n:Int) :Int = if n <= 0 then 0 else n + sum (n - 1);
Main (n:Int) :Unit: assert (sum n != 45)
";
    safe!(src, 5);
    bug!(src, first = 10, at = "3:21");
}

#[test]
fn summaries_prove_recursive_results_for_every_depth() {
    let src = "Methods:
sum (n:Int) :Int = if n <= 0 then 0 else n + sum (n - 1);
Main (n:Int) :Unit: assert (n <= sum n)
";
    assert_eq!(verdict(src, 5, Mode::Si), Verdict::Verified);
    // Unrolling has no summaries: the baseline can only bound it.
    assert_eq!(verdict(src, 5, Mode::Unroll), Verdict::safe_up_to(5));
}

#[test]
fn callbacks_stored_in_references() {
    let src = "Store:
cb:(Int -> Int) := id;
Methods:
id (x:Int) :Int = x;
install (k:Int) :Unit = cb := (fun (y:Int) :(Int) -> y + k);
Main (n:Int) :Unit:
  let (u:Unit) = install n in
  let (f:Int -> Int) = !cb in
  assert (f 1 != 5)
";
    bug!(src, first = 1, at = "9:3");
    match verdict(src, 3, Mode::Si) {
        Verdict::Bug { inputs, .. } => assert_eq!(inputs[0].1, "4"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn head_of_empty_list_fails() {
    bug!(
        "Methods:
build (n:Int) :List = if n <= 0 then [] else n :: build (n - 1);
Main (n:Int) :Int: if n >= 1 then hd (tl (build n)) else 0
",
        first = 2,
        at = "3:35"
    );
}

#[test]
fn pairs_and_higher_order_composition_are_verified() {
    verified!(
        "Methods:
compose (f:Int -> Int, g:Int -> Int) :(Int -> Int) = fun (x:Int) :(Int) -> f (g x);
inc (x:Int) :Int = x + 1;
dbl (x:Int) :Int = x * 2;
Main (n:Int) :Unit:
  let (p:(Int -> Int) * Int) = Pair (compose (inc, dbl), n) in
  assert ((fst p) (snd p) == 2 * n + 1)
",
        4
    );
}

#[test]
fn short_circuit_keeps_the_right_side_from_failing() {
    verified!(
        "Main (n:Int) :Unit:
  assert ((n == 0) || (n != 0) || (let (u:Unit) = fail in 1))
",
        2
    );
}

const COUNT: &str = "Methods:
count (x:Int) :Int = if x == 0 then 0 else 1 + count (x - 1);
Main (n:Int) :Unit:
  if n >= 0 then assert (count n < 3) else skip
";

/// The call tree unrolled to K = 4 has five instances, far below the eager budget: the run
/// starts at bound 4 and decides in one round and one query, with the same bug as
/// iterative deepening finds (docs/engine.md, "Small trees skip the deepening").
#[test]
fn a_small_tree_is_decided_in_one_round_at_the_bound() {
    let checked =
        load_bytes("count.horef", COUNT.as_bytes()).unwrap_or_else(|e| panic!("{}", e.render()));
    let options = Options {
        max_depth: 4,
        ..Options::default()
    };
    let outcome = verify_horef(&checked, &options);
    match &outcome.verdict {
        Verdict::Bug {
            inputs, failure, ..
        } => {
            assert_eq!(inputs, &vec![("n".to_string(), "3".to_string())]);
            assert_eq!(failure, "4:18");
        }
        other => panic!("expected the bug at n = 3, got {other:?}"),
    }
    assert_eq!(outcome.stats.iterations, 1, "{:?}", outcome.stats);
    assert_eq!(outcome.stats.solver_calls, 1, "{:?}", outcome.stats);
    bug!(COUNT, first = 4, at = "4:18");
}
