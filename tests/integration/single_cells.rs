//! Cells allocated at most once per run (`lower::single_cells`): which allocation sites
//! become globals of their own, and that aliasing through them is kept — a cell passed
//! twice to a function that writes both, a single cell beside heap cells of its type —
//! checked by the verdicts against concrete runs. Needs `z3` on PATH for the verdicts.

use crate::common::{horef_si, temp_program};
use horef_si::core_lang::interp::{self, Outcome, RunConfig, Value};
use horef_si::lower::{Lowered, lower};
use num_bigint::BigInt;

fn lowered(ocaml: &str) -> Lowered {
    let checked = horef_si::frontend::load_source("cells.ml", ocaml.as_bytes(), None)
        .unwrap_or_else(|e| panic!("loads: {e:?}\n{ocaml}"));
    lower(&checked)
}

/// The names of the globals the lowering declares.
fn globals(lowered: &Lowered) -> Vec<String> {
    lowered
        .ir
        .globals
        .values()
        .map(|g| g.name.clone())
        .collect()
}

#[test]
fn cells_allocated_in_main_are_globals_without_a_heap() {
    let l = lowered(
        "let move_one (a, b) = a := !a - 1; b := !b + 1\n\
         let main x = let a = ref x in let b = ref 0 in move_one (a, b); assert (!a + !b = x)\n",
    );
    assert_eq!(l.stats.single_cells, 2);
    let names = globals(&l);
    assert!(names.contains(&"a#cell".to_string()), "{names:?}");
    assert!(names.contains(&"b#cell".to_string()), "{names:?}");
    assert!(
        !names
            .iter()
            .any(|n| n.starts_with("heap#") || n == "alloc#next"),
        "no heap when every cell is a single cell: {names:?}"
    );
}

#[test]
fn a_method_called_once_from_main_allocates_single_cells() {
    let l = lowered(
        "let make () = let c = ref 0 in ((fun () -> c := !c + 1), (fun () -> !c))\n\
         let main n = let (incr, get) = make () in incr (); assert (get () = 1)\n",
    );
    assert_eq!(l.stats.single_cells, 1);
}

#[test]
fn cells_allocated_more_than_once_stay_in_the_heap() {
    let programs = [
        // a method called twice
        "let make x = ref x\nlet main x = let a = make x in let b = make 0 in assert (!a + !b = x)\n",
        // a recursive function
        "let rec cells n = if n <= 0 then [] else ref n :: cells (n - 1)\n\
         let main n = assert (List.length (cells n) >= 0)\n",
        // under a `fun`
        "let main n = let f = fun x -> ref x in let c = f n in assert (!c = n)\n",
        // a method used as a value
        "let make x = ref x\nlet apply f x = f x\nlet main n = let c = apply make n in assert (!c = n)\n",
    ];
    for program in programs {
        let l = lowered(program);
        assert_eq!(l.stats.single_cells, 0, "{program}");
        assert!(globals(&l).contains(&"alloc#next".to_string()), "{program}");
    }
}

#[test]
fn array_cells_stay_in_the_heap() {
    let l = lowered("let main n = let a = Array.make 3 n in a.(1) <- 2; assert (a.(0) = n)\n");
    assert!(globals(&l).contains(&"alloc#next".to_string()));
}

/// A program's verdict at depth 8 (the proof engines given a generous budget: this checks
/// what is decided, not how fast).
fn verdict(program: &str) -> String {
    let file = temp_program(program, "ml");
    let path = file.path().to_string_lossy().into_owned();
    let args = ["verify", "--max-depth", "8", "--proof-budget", "60"];
    let run = horef_si(args.iter().copied().chain(["--format", "json", &path]));
    run.assert_no_panic(program);
    let json: serde_json::Value =
        serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout));
    json["verdict"].as_str().unwrap_or("").to_string()
}

/// Whether the interpreter's run of `program` on `input` fails at depth 8.
fn fails_concretely(program: &str, input: i64) -> bool {
    let checked =
        horef_si::frontend::load_source("cells.ml", program.as_bytes(), None).expect("loads");
    let config = RunConfig {
        max_depth: 8,
        ..RunConfig::default()
    };
    let inputs = [Value::Int(BigInt::from(input))];
    let result = interp::run(&checked.program, &checked.info, &inputs, &config);
    matches!(result.outcome, Outcome::Failure { .. })
}

/// `holds` runs without failing on `input` and is never a BUG (VERIFIED or SAFE); `fails`
/// fails on `input` in the interpreter and is a BUG.
fn assert_decided_as_run(holds: &str, fails: &str, input: i64) {
    assert!(!fails_concretely(holds, input), "{holds}");
    assert!(fails_concretely(fails, input), "{fails}");
    assert_eq!(verdict(fails), "bug", "{fails}");
    assert!(
        ["verified", "safe_up_to_depth"].contains(&verdict(holds).as_str()),
        "{holds}"
    );
}

/// One cell passed twice to a function that writes through both names: the writes add up
/// in the one cell. The assertion that says so holds; the one that forgets the aliasing
/// fails, and the verifier must find it.
#[test]
fn aliased_single_cells_keep_their_aliasing() {
    let program = |claim: &str| {
        format!(
            "let bump (a, b) = a := !a + 1; b := !b + 1\n\
             let main x = let c = ref x in let d = ref 0 in bump (c, c); assert ({claim})\n"
        )
    };
    assert_decided_as_run(&program("!c = x + 2 && !d = 0"), &program("!c = x + 1"), 3);
}

/// A single cell beside heap cells of the same type: addresses never collide, so a write
/// to a heap cell leaves the single cell alone.
#[test]
fn single_cells_beside_heap_cells_never_alias() {
    let program = |claim: &str| {
        format!(
            "let rec fresh n = if n <= 0 then ref 0 else fresh (n - 1)\n\
             let main n = let a = ref 5 in let b = fresh n in b := 7; assert ({claim})\n"
        )
    };
    let holds = program("!a = 5 && !b = 7");
    assert_decided_as_run(&holds, &program("!a = 7"), 2);
    assert_eq!(lowered(&holds).stats.single_cells, 1);
}
