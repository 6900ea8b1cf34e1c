//! Functions nothing references (issue 18): a method (or lambda) whose arrow type no
//! expression or binder of the program mentions must still lower, and `verify` must answer
//! as if it were absent. It used to panic with `internal error: no datatype for `Int -> Unit``.
//! Each shape below is a dead method of a different type beside the same `Main`, checked by
//! lowering (the IR verifier passes, the dead method has a procedure, the IR text reads back)
//! and by verifying in both modes (the bug at 9:3 for `a = 3`, found at depth 0).
//! Needs `z3` on PATH (CI installs it).

use horef_si::engine::Mode;
use horef_si::engine::verdict::Verdict;
use horef_si::engine::{Options, verify_horef};
use horef_si::frontend::{Checked, load_bytes};
use horef_si::lower::lower;

/// Dead methods of several types, none referenced by `Main` or by each other's types.
const DEAD_METHODS: &[&str] = &[
    "m1 (k:Int) :Unit = skip;",
    "m1 (k:Int) :Int = k + 1;",
    "m1 (f:Int -> Int, x:Int) :Int = f x;",
    "m1 (x:Int) :Int * Int = Pair(x, x + 1);",
    "m1 (l:List) :List = tl l;",
    "m1 (u:Unit) :Int -> Int = fun (y:Int) :(Int) -> y * 2;",
    "m1 (x:Int) :(Int -> Unit) * Int = Pair(fun (y:Int) :(Unit) -> assert (y != x), x);",
    "m1 (x:Int) :Int = let rec (g:Int -> Int) = fun (n:Int) :(Int) -> g (n - 1) in g x;",
    "m1 (p:(Int -> Int) * List) :Int = (fst p) 3;",
    // The only closure of its type captures one of that type: no finite closure value.
    "m1 (n:Int -> Int) :Int -> Int = fun (f:Int) :(Int) -> n f;",
];

/// A program with `dead` as its only method; `Main`'s assert is at 9:3.
fn program(dead: &str) -> String {
    format!("Methods:\n{dead}\n\n\n\n\n\nMain (a:Int) :Unit:\n  assert (a != 3)\n")
}

fn checked(source: &str) -> Checked {
    load_bytes("dead.horef", source.as_bytes()).unwrap_or_else(|e| panic!("{}", e.render()))
}

fn verdict(source: &str, max_depth: u32, mode: Mode) -> Verdict {
    let options = Options {
        max_depth,
        mode,
        ..Options::default()
    };
    verify_horef(&checked(source), &options).verdict
}

#[test]
fn dead_methods_lower_to_well_formed_ir_with_their_procedure() {
    for dead in DEAD_METHODS {
        let lowered = lower(&checked(&program(dead)));
        assert_eq!(boogie_like::verify(&lowered.ir), Ok(()), "{dead}");
        let names: Vec<&str> = lowered.ir.procs.values().map(|p| p.name.as_str()).collect();
        assert!(names.contains(&"m1"), "{dead}: procedures {names:?}");
        let text = boogie_like::print(&lowered.ir);
        let reread = boogie_like::parse(&text).unwrap_or_else(|e| panic!("{dead}: {e:?}"));
        assert_eq!(boogie_like::print(&reread), text, "{dead}");
    }
}

#[test]
fn dead_methods_do_not_change_the_verdict_in_either_mode() {
    for dead in DEAD_METHODS {
        let source = program(dead);
        for mode in [Mode::Si, Mode::Unroll] {
            match verdict(&source, 0, mode) {
                Verdict::Bug {
                    inputs, failure, ..
                } => {
                    assert_eq!(failure, "9:3", "{dead} {mode:?}");
                    assert_eq!(inputs, [("a".to_string(), "3".to_string())], "{dead}");
                }
                other => panic!("{dead} {mode:?}: expected the bug, got {other:?}"),
            }
        }
    }
}

#[test]
fn a_dead_method_beside_a_safe_main_is_verified() {
    for dead in DEAD_METHODS {
        let source = program(dead).replace("assert (a != 3)", "assert (a == a)");
        for mode in [Mode::Si, Mode::Unroll] {
            assert_eq!(
                verdict(&source, 3, mode),
                Verdict::Verified,
                "{dead} {mode:?}"
            );
        }
    }
}
