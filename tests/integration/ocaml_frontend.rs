//! The OCaml front end (docs/ocaml.md): our `.ml` programs meet their `(* expect: ... *)`
//! headers under `horef-si suite`; constructs outside the subset are named at their
//! `file:line:col` with exit 2; type errors name both types; and no input — arbitrary bytes
//! or soups of OCaml tokens — panics the front end or makes it produce a core program the
//! HORef checker rejects (that would be an "internal error").

use crate::common;

use common::Rng;
use horef_si::frontend::load_bytes;
use proptest::prelude::*;
use std::path::Path;

fn ocaml_dir() -> std::path::PathBuf {
    common::tests_dir().join("ocaml")
}

/// Loads `text` as `fuzz.ml`: either a checked program or diagnostics with a location, and
/// never the core checker's rejection of a translation.
fn load_never_panics(bytes: &[u8]) {
    match load_bytes("fuzz.ml", bytes) {
        Ok(_) => {}
        Err(e) => {
            let text = e.render();
            assert!(text.contains("fuzz.ml:"), "no location in\n{text}");
            assert!(
                !text.contains("internal error"),
                "a translation bug on\n{}\n{text}",
                String::from_utf8_lossy(bytes)
            );
        }
    }
}

#[test]
fn our_ml_programs_meet_their_expectations() {
    let dir = ocaml_dir();
    let count = std::fs::read_dir(&dir)
        .expect("tests/ocaml")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "ml"))
        })
        .count();
    assert!(count >= 20, "tests/ocaml holds {count} programs");
    // The whole proof budget, and three times the default one: a VERIFIED expectation
    // must not depend on the load (at a load of 20 on two cores, `function_param.ml`,
    // proved in 1 s on a quiet machine, ran out of the default 20 s). Not under the
    // one-command time limit either: the suite's length grows with the programs and the
    // load (each program is bounded by its own budget).
    let run = common::suite(&[
        dir.to_str().unwrap(),
        "--proof-wait",
        "budget",
        "--proof-budget",
        "60",
    ]);
    assert_eq!(
        run.code,
        Some(0),
        "suite failed:\n{}\n{}",
        run.stdout,
        run.stderr
    );
    let summary = format!("{count} passed, 0 failed");
    assert!(
        run.stdout.contains(&summary),
        "expected `{summary}` in\n{}",
        run.stdout
    );
}

/// Writes `text` to a temporary `.ml` file and runs `horef-si check` on it.
fn check_text(text: &str) -> (tempfile::TempDir, common::CliRun) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("prog.ml");
    std::fs::write(&path, text).expect("write");
    let run = common::horef_si(["check", path.to_str().unwrap()]);
    (dir, run)
}

/// Each construct outside the subset: the program, and words the message must contain.
const UNSUPPORTED: &[(&str, &str)] = &[
    ("let main n = for i = 1 to n () done", "expected `do`"),
    ("let main n = while n > 0 do () ", "expected `done`"),
    ("module M = struct end\nlet main n = ()", "modules"),
    ("open Printf\nlet main n = ()", "modules (`open Printf`"),
    (
        "type t = 'a list\nlet main n = ()",
        "the type variable `'a` is not a parameter of the abbreviation `t`",
    ),
    (
        "type 'a p = 'a * 'a\nlet main (n : p) = ()",
        "the type `p` takes 1 argument(s), but is given 0",
    ),
    (
        "type t = A | B of int\nlet main n = if n > 0 then A else n",
        "type mismatch",
    ),
    (
        "type t = A | B of int\nlet main n = match A with A -> () | C -> ()",
        "unknown constructor `C`",
    ),
    (
        "type t = A | B of int\nlet main n = match B n with B -> () | A -> ()",
        "the constructor `B` carries an argument",
    ),
    (
        "type 'a t = A of 'b\nlet main n = ()",
        "not a parameter of this type definition",
    ),
    (
        "let main n = let l = Some [fun x -> x + n] in assert (l = l)",
        "comparing values of type `int -> int` with `=`",
    ),
    (
        "type node = { v : int; next : node option }\nlet main n = ()",
        "contains itself",
    ),
    ("let main n = Printf.printf \"%f\" n", "the conversion `%f`"),
    (
        "let main n = let s = \"a\" ^ \"b\" in ()",
        "string concatenation",
    ),
    ("let main n = Printf.printf", "as a value"),
    ("let main n = if n < 0 then exit 1", "`exit`"),
    (
        "let main n = let s = string_of_int n in ()",
        "strings (`string_of_int`",
    ),
    (
        "type t = { x : int }\nlet main n = let r = { x = n } in r.x <- 1",
        "the record field `x` is not mutable",
    ),
    (
        "type t = { x : int; y : int }\nlet main n = let r = { x = n } in r.x",
        "the field `y` of `t` is not given a value",
    ),
    (
        "let main n = let a = [| 1 |] in a = [| n |]",
        "comparing values of type `int array`",
    ),
    (
        "let main n = let a = [| n |] in List.iter (Array.set a 0) [1]",
        "`Array.set` applied partially",
    ),
    (
        "let main n = match [| n |] with [| x |] -> x",
        "array patterns",
    ),
    (
        "let main n = Array.iter2 (fun a b -> ()) [| n |] [| n |]",
        "modules (`Array.iter2`",
    ),
    (
        "let main n = let r = { x = 1 } in ()",
        "unbound record field `x`",
    ),
    ("let main n = 1.5", "floating-point"),
    ("let main n = 'c'", "characters"),
    ("let main n = let s = \"a\" in ()", "strings"),
    ("let main n = object end", "objects"),
    ("let main n = List.merge compare [n] [n]", "modules"),
    (
        "let ( + ) a b = a - b\nlet main n = ()",
        "redefining the built-in operator `+`",
    ),
    (
        "let ( let* ) o f = f o\nlet main n = let* x = n and* y = n in x",
        "binding operators `and*`, `and+`",
    ),
    ("let main n = let* x = Some n in Some x", "unbound operator"),
    ("let main n = n >>= n", "unbound operator"),
    (
        "let main n = let open Hashtbl in n",
        "modules (`open Hashtbl`",
    ),
    ("let main n = Seq.(n)", "modules (`open Seq`"),
    (
        "let f ?(y = 0) x = x + y\nlet main n = List.map f [n]",
        "eta-expand it",
    ),
    (
        "let f ~a ~b = a + b\nlet main n = let g = f ~b:n in g 1",
        "partial application of a function with labelled or optional parameters",
    ),
    (
        "let f ~a x = a + x\nlet main n = f ~c:1 n",
        "no parameter labelled `c`",
    ),
    (
        "let main n = let a = [n] in let b = [n] in a == b",
        "physical equality `==` on values of type `int list`",
    ),
    (
        "let main n = let f = ref (fun x -> x) in f = ref (fun x -> x + n)",
        "structural equality is supported on `int`, `bool`, `unit`, tuples, records, variants",
    ),
    (
        "let main n = ( = ) (ref n) (ref n)",
        "comparing values of type `int ref`",
    ),
    (
        "let app2 g = g 1 2\nlet mk x = let c = ref x in fun y -> !c + y\nlet main n = app2 mk",
        "no arity adapter applies here",
    ),
    (
        "let main n = try n with Failure s -> ignore s; 0",
        "the message of an exception (`Failure s`) used other than as the argument of",
    ),
    (
        "let main n = try n with e -> (match e with Invalid_argument s when n > 0 -> ignore s; 1 | _ -> 0)",
        "the message of an exception (`Failure s`) used other than as the argument of",
    ),
    ("exception E of string * int\nlet main n = 0", "strings"),
    (
        "let main n = try n with e -> if e = Not_found then 0 else 1",
        "comparing values of type `exn`",
    ),
    (
        "exception E\nlet f () = try raise E with E -> 0\nexception E\nlet main n = f ()",
        "an exception declared again at top level",
    ),
    (
        "let main n = let rec f g = g + 1 and g x = f x in f n",
        "a parameter named like",
    ),
    ("let main n = let f = Random.int in f n", "used as a value"),
    (
        "type t = L | N of t * (int -> int)\nlet main n = let x = N (L, fun y -> y) in x = x",
        "comparing values of type `int -> int` with `=`",
    ),
    ("let main n = (fun ~x -> x) ~x:n", "labelled"),
    (
        "let main n = match (n, 0) with (x, 0) | (0, x) when x > 0 -> x | _ -> 0",
        "or-patterns that bind variables outside the cases",
    ),
    (
        "let main n = let ((x, 0) | (0, x)) = (n, 0) in x",
        "or-patterns that bind variables outside the cases",
    ),
    (
        "let main n = match (n, 0) with (x, 0) | (0, y) -> 0 | _ -> 1",
        "must occur on both sides",
    ),
    (
        "let c = ref 0\nlet g = (incr c; fun x -> x)\nlet main n = if g true then g n else 0",
        "a polymorphic top-level value with effects",
    ),
    (
        "let main n = let g = (print_int n; fun x -> x) in if g true then g n else 0",
        "a polymorphic value with effects",
    ),
    (
        "let rec rev l a = match l with [] -> a | x :: r -> rev r (x :: a)\nlet main n = let e = rev [] [] in (n :: e, true :: e)",
        "a polymorphic value with effects",
    ),
];

#[test]
fn unsupported_constructs_are_named_with_their_position() {
    for (text, words) in UNSUPPORTED {
        let (_dir, run) = check_text(text);
        run.assert_input_error("prog.ml", text);
        assert!(
            run.stderr.contains(words),
            "`{text}`: expected the message to name `{words}`:\n{}",
            run.stderr
        );
    }
}

/// Runs `horef-si verify ARGS... prog.ml` on `text`.
fn verify_text(text: &str, args: &[&str]) -> (tempfile::TempDir, common::CliRun) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("prog.ml");
    std::fs::write(&path, text).expect("write");
    let mut all = vec!["verify", "--max-depth", "3"];
    all.extend_from_slice(args);
    all.push(path.to_str().unwrap());
    let run = common::horef_si(all);
    (dir, run)
}

/// OCaml's integers (docs/ocaml.md, "Integers"): inputs are OCaml ints, literals beyond
/// them are rejected as OCaml rejects them, `--overflow-checks` finds an overflow and the
/// replay confirms it; without it a VERIFIED says that overflow is not modelled.
#[test]
fn integers_are_ocaml_ints() {
    let above_max = "let main n = if n > 4611686018427387903 then assert false";
    let (_dir, run) = verify_text(above_max, &[]);
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.starts_with("VERIFIED"), "{}", run.stdout);
    assert!(
        run.stdout.contains("overflow is not modelled"),
        "{}",
        run.stdout
    );
    let below_min = "let main n = if n < -4611686018427387904 then assert false";
    let (_dir, run) = verify_text(below_min, &[]);
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    // `max_int` itself is an input.
    let at_max = "let main n = if n >= 4611686018427387903 then assert false";
    let (_dir, run) = verify_text(at_max, &[]);
    assert!(
        run.stdout.contains("n = 4611686018427387903"),
        "{}",
        run.stdout
    );

    let succ = "let main n = let m = n + 1 in if n > 0 then assert (m > 0)";
    let (_dir, run) = verify_text(succ, &[]);
    assert!(run.stdout.starts_with("VERIFIED"), "{}", run.stdout);
    let (_dir, run) = verify_text(succ, &["--overflow-checks"]);
    assert_eq!(run.code, Some(10), "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("n = 4611686018427387903"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("prog.ml:1:22 (integer overflow), within depth 3; confirmed"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("not modelled"), "{}", run.stdout);
    let reproduce = run
        .stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("reproduce with: horef-si "));
    let words: Vec<&str> = reproduce.expect("a reproduce line").split(' ').collect();
    assert!(words.contains(&"--overflow-checks"), "{words:?}");
    let again = common::horef_si(words);
    assert_eq!(again.code, Some(10), "{again:?}");
    assert!(again.stdout.contains("(integer overflow)"), "{again:?}");
    // Negation and multiplication overflow too; `mod` never does.
    let neg = "let main n = let m = - n in if n < 0 then assert (m > 0)";
    let (_dir, run) = verify_text(neg, &["--overflow-checks"]);
    assert!(
        run.stdout.contains("n = -4611686018427387904"),
        "{}",
        run.stdout
    );
    let modulo = "let main n = let m = n mod 7 in assert (m < 7)";
    let (_dir, run) = verify_text(modulo, &["--overflow-checks"]);
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);

    // A literal beyond 2^62 is an error at its position; 2^62 is `min_int` (as in OCaml).
    let (_dir, run) = check_text("let main n =\n  n + 4611686018427387905");
    run.assert_input_error("prog.ml", "a literal beyond max_int");
    assert!(run.stderr.contains("prog.ml:2:7"), "{}", run.stderr);
    assert!(run.stderr.contains("exceeds the range"), "{}", run.stderr);
    let wraps = "let main n = assert (4611686018427387904 < 0 && -4611686018427387904 < 0)";
    let (_dir, run) = verify_text(wraps, &[]);
    assert!(run.stdout.starts_with("VERIFIED"), "{}", run.stdout);
}

#[test]
fn type_errors_name_both_types_at_the_expression() {
    let (_dir, run) = check_text("let main n =\n  if n + 1 then 1 else 2");
    run.assert_input_error("prog.ml", "int used as bool");
    assert!(run.stderr.contains("prog.ml:2:6"), "{}", run.stderr);
    assert!(
        run.stderr.contains("`int`") && run.stderr.contains("`bool`"),
        "{}",
        run.stderr
    );
    let (_dir, run) = check_text("let main n = n + true");
    assert!(run.stderr.contains("prog.ml:1:18"), "{}", run.stderr);
    let (_dir, run) = check_text("let main n = undefined_name n");
    assert!(
        run.stderr.contains("unbound value `undefined_name`"),
        "{}",
        run.stderr
    );
}

#[test]
fn annotations_are_checked() {
    let (_dir, ok) = check_text(
        "let f (x : int) : int = x + 1\nlet g (h : int -> int -> int) = h 1 2\nlet main n = f (g (fun a b -> a + b))",
    );
    assert_eq!(ok.code, Some(0), "{ok:?}");
    let (_dir, bad) = check_text("let f (x : bool) = x + 1\nlet main n = f n");
    bad.assert_input_error("prog.ml", "wrong annotation");
    assert!(bad.stderr.contains("prog.ml:1:"), "{}", bad.stderr);
}

#[test]
fn the_entry_is_the_last_main_else_the_last_function() {
    let (_dir, run) = check_text("let f x = x\nlet g y = assert (y > 0)");
    assert_eq!(run.code, Some(0), "{run:?}");
    let (_dir, run) = check_text("let r = ref 0");
    run.assert_no_panic("no function");
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(
        run.stderr.contains("no top-level function"),
        "{}",
        run.stderr
    );
}

#[test]
fn entry_picks_the_function_to_verify() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("prog.ml");
    let text = "let safe n = assert (n = n)\nlet buggy n = assert (n <> 7)\nlet main n = ()";
    std::fs::write(&path, text).expect("write");
    let file = path.to_str().unwrap();
    let buggy = common::horef_si(["verify", file, "--entry", "buggy", "--max-depth", "2"]);
    assert!(buggy.stdout.starts_with("BUG"), "{buggy:?}");
    assert!(buggy.stdout.contains("n = 7"), "{buggy:?}");
    let safe = common::horef_si(["verify", file, "--entry", "safe", "--max-depth", "2"]);
    assert!(safe.stdout.starts_with("VERIFIED"), "{safe:?}");
    let run = common::horef_si(["run", file, "--entry", "buggy", "--arg", "n=7"]);
    assert!(run.stdout.contains("failure at 2:15 (assert)"), "{run:?}");
    let missing = common::horef_si(["check", file, "--entry", "nope"]);
    missing.assert_input_error("prog.ml", "--entry nope");
    assert!(
        missing.stderr.contains("no top-level function `nope`"),
        "{missing:?}"
    );
    let horef = common::tests_dir().join("programs/arith.horef");
    let horef = common::horef_si(["check", horef.to_str().unwrap(), "--entry", "f"]);
    assert_eq!(horef.code, Some(2), "{horef:?}");
    assert!(
        horef.stderr.contains("a HORef file's entry is its `Main`"),
        "{horef:?}"
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!(
        "let main n = {}n{}",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let (_dir, run) = check_text(&deep);
    run.assert_input_error("prog.ml", "deep parentheses");
    let chain = format!("let main n = n{}", " + n".repeat(50_000));
    let (_dir, run) = check_text(&chain);
    run.assert_input_error("prog.ml", "long operator chain");
}

const TOKENS: &[&str] = &[
    "let",
    "rec",
    "and",
    "in",
    "if",
    "then",
    "else",
    "fun",
    "function",
    "match",
    "with",
    "when",
    "try",
    "raise",
    "exception",
    "assert",
    "begin",
    "end",
    "true",
    "false",
    "not",
    "ref",
    "!",
    ":=",
    "incr",
    "fst",
    "snd",
    "failwith",
    "\"s\"",
    "main",
    "f",
    "x",
    "y",
    "E",
    "Not_found",
    "(",
    ")",
    "[",
    "]",
    ";",
    ";;",
    ",",
    "::",
    "->",
    "|",
    "_",
    "=",
    "<>",
    "<",
    "<=",
    "+",
    "-",
    "*",
    "/",
    "mod",
    "&&",
    "||",
    ":",
    "int",
    "bool",
    "unit",
    "list",
    "'a",
    "0",
    "1",
    "42",
    "(*",
    "*)",
    "print_int",
    "ignore",
    "min",
    "abs",
];

fn soup(rng: &mut Rng, len: usize) -> String {
    let mut text = String::new();
    for _ in 0..len {
        text.push_str(TOKENS[rng.below(TOKENS.len())]);
        text.push(' ');
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        load_never_panics(&bytes);
    }

    #[test]
    fn token_soups_never_panic(seed in any::<u64>(), len in 1usize..60) {
        let mut rng = Rng::new(seed);
        load_never_panics(soup(&mut rng, len).as_bytes());
    }

    #[test]
    fn soups_after_a_valid_prefix_never_panic(seed in any::<u64>(), len in 1usize..30) {
        let mut rng = Rng::new(seed);
        let text = format!("let rec f x = if x > 0 then f (x - 1) else x\nlet main x = {}", soup(&mut rng, len));
        load_never_panics(text.as_bytes());
    }
}

#[test]
fn every_program_of_ours_is_also_valid_when_loaded_from_bytes() {
    for entry in std::fs::read_dir(ocaml_dir())
        .expect("tests/ocaml")
        .flatten()
    {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "ml") {
            let bytes = std::fs::read(&path).expect("read");
            let name = Path::new("x.ml");
            assert!(
                load_bytes(name.to_str().unwrap(), &bytes).is_ok(),
                "{}",
                path.display()
            );
        }
    }
}

/// The generated large programs (benchmarks/gen_ml.py) load, and the bug of the 400-line
/// one is found within depth 2 (the bug of the middle copy: `sel = 50`, `a = 102`).
#[test]
fn generated_large_programs_load_and_the_bug_is_found() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/generated-ml");
    for name in ["gen-ml-400", "gen-ml-400-e", "gen-ml-4000", "gen-ml-4000-e"] {
        let path = dir.join(format!("{name}.ml"));
        let run = common::horef_si(["check", path.to_str().unwrap()]);
        assert_eq!(run.code, Some(0), "{name}: {run:?}");
    }
    let buggy = dir.join("gen-ml-400-e.ml");
    let run = common::horef_si(["verify", buggy.to_str().unwrap(), "--max-depth", "2"]);
    assert_eq!(run.code, Some(10), "{run:?}");
    assert!(
        run.stdout.contains("sel = 50") && run.stdout.contains("a = 102"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("confirmed by concrete replay"),
        "{}",
        run.stdout
    );
}
