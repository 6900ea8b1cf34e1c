//! Proofs for every depth from Horn clauses (issue 12): the printed clauses are a CHC
//! problem z3 solves, Spacer's proofs make `verify` answer VERIFIED with the summaries
//! shown, a memory limit ends a run as UNKNOWN (resource), and no VERIFIED is ever
//! contradicted by a concrete run — also on mutants made to fail. Needs `z3` on PATH.

use horef_si::core_lang::interp::{self, Outcome, RunConfig, Value};
use horef_si::engine::{Options, verdict::Verdict};
use horef_si::frontend::{Checked, load_core};
use num_bigint::BigInt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn horef_si() -> Command {
    Command::new(env!("CARGO_BIN_EXE_horef-si"))
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn program(text: &str) -> tempfile::NamedTempFile {
    program_as(text, ".horef")
}

/// A temporary program file with the suffix (the language) of `like`'s.
fn program_like(text: &str, like: &Path) -> tempfile::NamedTempFile {
    match like.extension().is_some_and(|e| e == "ml") {
        true => program_as(text, ".ml"),
        false => program_as(text, ".horef"),
    }
}

fn program_as(text: &str, suffix: &str) -> tempfile::NamedTempFile {
    let mut file = tempfile::Builder::new()
        .suffix(suffix)
        .tempfile()
        .expect("tempfile");
    file.write_all(text.as_bytes()).expect("write");
    file
}

/// What `lower --emit chc` prints for `file`.
fn printed_clauses(file: &Path) -> String {
    let out = horef_si()
        .args(["lower", "--emit", "chc"])
        .arg(file)
        .output()
        .expect("run horef-si");
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// `lower --emit EMIT` on `file` (relative to the repository): its exit code and output.
fn emitted(emit: &str, file: &str) -> (Option<i32>, String) {
    emitted_with(emit, file, &[])
}

/// [`emitted`] with more `lower` options (`--abstract-products`).
fn emitted_with(emit: &str, file: &str, options: &[&str]) -> (Option<i32>, String) {
    let out = horef_si()
        .args(["lower", "--emit", emit])
        .args(options)
        .arg(root().join(file))
        .output()
        .expect("run horef-si");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
    )
}

/// `verify` with `args` on `file`: its exit code and report.
fn verify(args: &[&str], file: &Path) -> (Option<i32>, String) {
    let out = horef_si()
        .arg("verify")
        .args(args)
        .arg(file)
        .output()
        .expect("run horef-si");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
    )
}

/// z3's first answer on the clauses `lower --emit chc` prints for `file`.
fn z3_on_printed_clauses(file: &Path) -> String {
    z3_on_emitted(file, "chc", &[])
}

/// z3's first answer (with the options `z3_args`, at most 60 s) on the clauses
/// `lower --emit EMIT` prints for `file`.
fn z3_on_emitted(file: &Path, emit: &str, z3_args: &[&str]) -> String {
    let out = horef_si()
        .args(["lower", "--emit", emit])
        .arg(file)
        .output()
        .expect("run horef-si");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let clauses = program(&String::from_utf8_lossy(&out.stdout));
    let solved = Command::new("z3")
        .arg("-T:60")
        .args(z3_args)
        .arg(clauses.path())
        .output()
        .expect("z3 on PATH");
    let text = String::from_utf8_lossy(&solved.stdout);
    text.lines().next().unwrap_or("").to_string()
}

#[test]
fn printed_clauses_are_a_chc_problem_z3_solves() {
    let programs = root().join("benchmarks/programs");
    // Safe at every depth: the clauses are satisfiable; with a bug: they are not.
    assert_eq!(z3_on_printed_clauses(&programs.join("fib.horef")), "sat");
    assert_eq!(z3_on_printed_clauses(&programs.join("mc91.horef")), "sat");
    assert_eq!(
        z3_on_printed_clauses(&programs.join("fib-e.horef")),
        "unsat"
    );
    assert_eq!(
        z3_on_printed_clauses(&programs.join("mc91-e.horef")),
        "unsat"
    );
}

/// Totals (the sum of every integer a value holds, through the values nested in it) come
/// in a system of their own (`--emit chc-totals`), for a program that builds values of a
/// datatype nesting itself (a list of closures `fun v -> v + d`, composed into one) and
/// adds; z3 solves that system for `closure_pending.ml` (applying the closures in turn
/// and applying their composition agree) and never for its failing twin. A program whose
/// only such values are lists of integers gets none (their sum is a measure already).
#[test]
fn totals_of_nested_values_come_in_a_system_of_their_own() {
    let totals = |file: &str| emitted("chc-totals", file);
    let z3 = |clauses: &str| {
        let file = program(clauses);
        let solved = Command::new("z3")
            .args(["-T:60"])
            .arg(file.path())
            .output()
            .expect("z3 on PATH");
        let answer = String::from_utf8_lossy(&solved.stdout).to_string();
        answer.lines().next().unwrap_or("").to_string()
    };
    let (code, safe) = totals("tests/proofs/closure_pending.ml");
    assert_eq!(code, Some(0));
    assert!(safe.contains("!total "), "{safe}");
    assert!(!printed_clauses(&root().join("tests/proofs/closure_pending.ml")).contains("!total "));
    assert_eq!(z3(&safe), "sat");
    let (code, failing) = totals("tests/proofs/closure_pending-e.ml");
    assert_eq!(code, Some(0));
    assert_ne!(z3(&failing), "sat");
    assert_eq!(totals("tests/proofs/list_rev_sum.ml").0, Some(2));
}

/// Calls passing known closures (`iter n (add 3) 0` and `iter n (twice (add 3)) 1` in
/// one `main`) get copies of their callee bound to them, in a system of its own
/// (`lower --emit chc --known-closures`, which the engine tries beside the plain clauses):
/// one relation per closure, where the plain clauses have one for `iter` that must tell
/// the two apart. Spacer, configured as the engine runs that system, solves it; the
/// failing twin's, never. A program passing no closure has no such system.
#[test]
fn known_closures_get_copies_of_their_callees_in_a_system_of_their_own() {
    let specialised = |file: &str, emit: &str| {
        let out = horef_si()
            .args(["lower", "--emit", emit, "--known-closures"])
            .arg(root().join(file))
            .output()
            .expect("run horef-si");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        (out.status.code(), text)
    };
    let (code, safe) = specialised("tests/proofs/closure_iter_adder.ml", "chc");
    assert_eq!(code, Some(0));
    // One copy of `iter` per closure (`iter$f~K_Main.fun_L_C.3#1`, the adder's literal
    // kept), declared once each.
    let copies: Vec<&str> = (safe.lines())
        .filter(|l| l.starts_with("(declare-fun |iter$f~"))
        .collect();
    assert_eq!(copies.len(), 2, "{safe}");
    assert!(copies.iter().all(|c| c.contains(".3#")), "{copies:?}");
    let plain = printed_clauses(&root().join("tests/proofs/closure_iter_adder.ml"));
    assert!(!plain.contains("iter$"), "{plain}");
    assert_eq!(spacer_as_the_engine_runs(&safe), "sat");
    let (code, failing) = specialised("tests/proofs/closure_iter_adder-e.ml", "chc");
    assert_eq!(code, Some(0));
    assert_ne!(spacer_as_the_engine_runs(&failing), "sat");
    assert_eq!(
        specialised("tests/proofs/list_rev_sum.ml", "chc").0,
        Some(2)
    );
    assert_eq!(
        specialised("tests/proofs/closure_iter_adder.ml", "ir").0,
        Some(1)
    );
}

/// The list measures beyond length and last element are chosen from the program: a sum
/// where a list fold adds (itself or in a closure it applies), an odd count where the
/// program tests parity, neither where it does neither (each costs every relation a
/// parameter per list); least and greatest elements, in a system of their own, where it
/// builds lists of elements it bounds (or compares their elements by order:
/// `remainders_abstracted_to_their_range_prove_a_scan_by_threshold`).
#[test]
fn sum_and_odd_count_measures_come_only_where_the_program_asks() {
    let ghosts = |file: &str, measure: &str| {
        printed_clauses(&root().join(file))
            .matches(&format!("!{measure} "))
            .count()
    };
    assert!(ghosts("tests/proofs/list_rev_sum.ml", "sum") > 0);
    assert!(ghosts("tests/proofs/list_sum.horef", "sum") > 0);
    // The fold adds in the closure it applies (`List.fold_left ( + ) 0 l`).
    assert!(ghosts("tests/proofs/list_rev_onto_fold_sum.ml", "sum") > 0);
    assert!(ghosts("tests/proofs/list_parity.ml", "odd") > 0);
    assert_eq!(ghosts("tests/proofs/list_parity.ml", "sum"), 0);
    assert_eq!(ghosts("tests/proofs/list_rev_sum.ml", "odd"), 0);
    // Least and greatest elements only in a system of their own (`--emit chc-bounds`),
    // for programs that build lists of elements they bound (`lo :: steps (lo + 2, hi)`
    // under `lo > hi`).
    let bounds = |file: &str| emitted("chc-bounds", file);
    for file in [
        "tests/proofs/list_bounded_shares.horef",
        "tests/proofs/list_bounded_countdown.ml",
    ] {
        assert_eq!(ghosts(file, "min") + ghosts(file, "max"), 0, "{file}");
        let (code, text) = bounds(file);
        assert_eq!(code, Some(0), "{file}");
        assert!(
            text.contains("!min ") && text.contains("!max "),
            "{file}: {text}"
        );
    }
    // No list built of bounded elements (no list at all): no such system.
    assert_eq!(bounds("benchmarks/programs/fib.horef").0, Some(2));
    for plain in [
        "benchmarks/programs/zip.horef",
        "benchmarks/programs/last.horef",
    ] {
        assert_eq!(ghosts(plain, "sum") + ghosts(plain, "odd"), 0, "{plain}");
    }
}

/// Facts about lists beyond length (a sum kept by a reversal, every element even after a
/// map and a filter) are proved, through the measures-only system beside the exact one
/// (`vc::measure_abstract`): z3 solves those clauses, whose relations carry measures,
/// never list values. (Which system's proof `verify` reports is a race between Spacer
/// processes, so the system is checked on its own.)
#[test]
fn list_facts_are_proved_through_their_measures() {
    for name in ["list_rev_sum.ml", "list_parity.ml", "list_sum.horef"] {
        let json = chc_verdict(name, &["--max-depth", "8"]);
        assert_eq!(json["verdict"], "verified", "{name}: {json}");
        let text = json["proof"]["summaries"].to_string();
        assert!(
            text.contains("sum(") || text.contains("odd("),
            "{name}: {json}"
        );
        let file = root().join("tests/proofs").join(name);
        let answer = z3_on_emitted(&file, "chc-measures", &["fp.spacer.global=true"]);
        assert_eq!(answer, "sat", "{name}: the measures-only clauses");
    }
}

/// A search through a range (`upto lo hi`) whose assertions need the range's shape — a
/// key not found lies outside `lo .. hi`, the position found is `key - lo` — is proved
/// through the clauses whose lists carry their first element and their count of steps
/// that are not `+1` (`Library::WithRanges`): z3 solves those clauses on their own, and
/// `verify` answers VERIFIED for `exn_locate.ml` (about 4 s of Spacer on its own).
/// (`list_range_absent.ml`'s clauses take Spacer about 10 s on its own, 30 s beside the
/// other lanes on a quiet machine: too close to the budget on a loaded one for `verify`'s
/// answer to be asserted here.) A program that builds no range has no such system.
#[test]
fn ranges_are_proved_through_their_first_element_and_steps() {
    for name in ["exn_locate.ml", "list_range_absent.ml"] {
        let file = root().join("tests/proofs").join(name);
        let answer = z3_on_emitted(&file, "chc-ranges", &["fp.spacer.global=true"]);
        assert_eq!(answer, "sat", "{name}: the clauses with ranges");
    }
    let json = chc_verdict("exn_locate.ml", &["--max-depth", "8"]);
    assert_eq!(json["verdict"], "verified", "exn_locate.ml: {json}");
    let out = horef_si()
        .args(["lower", "--emit", "chc-ranges"])
        .arg(root().join("tests/proofs/random_walk_record.ml"))
        .output()
        .expect("run horef-si");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no system with ranges"), "{stderr}");
}

/// A stack object whose `pop` returns the element `push` put last
/// (`closure_stack_drain.ml`) needs its list's *first* element, which only the system of
/// `Library::WithHeads` carries (`--emit chc-heads`, for a program that reads a list's
/// head outside every traversal): the measures-only system, without it, has a
/// counterexample (the popped element is unconstrained there), and z3 solves the one with
/// it (about 16 s of Spacer on its own, on a quiet machine: `verify`'s answer beside the
/// other lanes is too close to the 60 s budget to be asserted here). A program that
/// builds ranges has no such system (its ranges system carries first elements).
#[test]
fn a_stack_pop_is_proved_through_the_first_elements_of_lists() {
    let stack = "tests/proofs/closure_stack_drain.ml";
    let (code, heads) = emitted("chc-heads", stack);
    assert_eq!(code, Some(0));
    assert!(heads.contains("!first "), "{heads}");
    let (code, measures) = emitted("chc-measures", stack);
    assert_eq!(code, Some(0));
    assert!(!measures.contains("!first "), "{measures}");
    let z3 = |clauses: &str, timeout: &str| {
        let file = program(clauses);
        let solved = Command::new("z3")
            .args([timeout, "fp.spacer.global=true"])
            .arg(file.path())
            .output()
            .expect("z3 on PATH");
        let answer = String::from_utf8_lossy(&solved.stdout).to_string();
        answer.lines().next().unwrap_or("").to_string()
    };
    assert_eq!(z3(&measures, "-T:60"), "unsat");
    assert_eq!(z3(&heads, "-T:300"), "sat");
    assert_eq!(
        emitted("chc-heads", "tests/proofs/exn_locate.ml").0,
        Some(2)
    );
}

/// A fold building a list through a closure whose captured step is even keeps every
/// element's parity. The relational fact "the result's odd elements are the list's and
/// the accumulator's" is found by Houdini over the measures-only clauses and assumed at
/// the calls (`engine::proofs::seeded`): `list_keep_parity.ml` is VERIFIED with it in its
/// proof (4-6 s on a quiet machine; Spacer alone found nothing in 60 s), while the
/// candidate "no element of the result is odd", false of these calls, was dropped. Its
/// twin shifted by an odd step is a BUG.
#[test]
fn relational_list_facts_proved_inductive_prove_a_fold_that_keeps_parity() {
    let json = chc_verdict("list_keep_parity.ml", &["--max-depth", "8"]);
    assert_eq!(json["verdict"], "verified", "{json}");
    let text = json["proof"]["summaries"].to_string();
    assert!(text.contains("odd(ret) = odd(l) + odd(a)"), "{json}");
    assert!(!text.contains("odd(ret) = 0"), "{json}");
    let twin = chc_verdict("list_keep_parity-e.ml", &["--max-depth", "8"]);
    assert_eq!(twin["verdict"], "bug", "{twin}");
}

/// A loop whose state is a record of mutable fields (a heap map passed between the
/// loop's procedures) is proved in Spacer's heap configuration
/// (`chc::HEAP_CONFIGURATION`), whose model is quantified and re-checked clause by
/// clause after quantifier elimination; its failing twin is a confirmed BUG.
#[test]
fn loops_over_records_are_proved_through_quantified_models() {
    let json = chc_verdict("random_walk_record.ml", &["--max-depth", "8"]);
    assert_eq!(json["verdict"], "verified", "{json}");
    let json = chc_verdict("random_walk_record-e.ml", &["--max-depth", "8"]);
    assert_eq!(json["verdict"], "bug", "{json}");
    assert_eq!(json["confirmed"], true, "{json}");
}

/// A goto loop whose summary from arbitrary states Spacer does not find is proved by
/// the clauses with calling contexts (`vc::horn_contexts`): the proof states the inputs
/// the loop is called with; its failing twin is a confirmed BUG.
#[test]
fn loops_are_proved_by_their_calling_contexts() {
    let bound = ["--recursion-bound", "5"];
    let json = chc_verdict("goto_steps.bpl", &bound);
    assert_eq!(json["verdict"], "verified", "{json}");
    let summaries = json["proof"]["summaries"].as_array().expect("summaries");
    assert!(
        summaries
            .iter()
            .any(|s| s["procedure"] == "calls of main#Head"),
        "{json}"
    );
    let json = chc_verdict("goto_steps-e.bpl", &bound);
    assert_eq!(json["verdict"], "bug", "{json}");
    assert_eq!(json["confirmed"], true, "{json}");
}

/// The clauses with calling contexts of every failing program of ours (the `-e` twins of
/// tests/proofs and benchmarks/programs) are never satisfiable: z3 (global guidance, at
/// most 3 s each) answers `unsat` or gives up, never `sat` — the encoding drops no
/// failing run (the module doc of `vc::horn_contexts` has the argument).
#[test]
fn clauses_with_calling_contexts_keep_every_failure() {
    let refuted =
        failing_programs_refuted(&["chc-contexts"], &["tests/proofs", "benchmarks/programs"]);
    assert!(refuted >= 40, "only {refuted} failing programs refuted");
}

/// The same of the clauses over one and over two cells of every map (`vc::horn_cells`),
/// on the failing programs with maps: Boogie's, and OCaml's with references (their heap
/// is a map).
#[test]
fn clauses_over_distinguished_cells_keep_every_failure() {
    // Two cells make larger clauses: fewer are refuted within the 3 s. Since the cells
    // allocated once per run are globals (`lower::single_cells`), most OCaml twins have no
    // map: 21 have one (15 refuted seen), 14 give clauses over two cells (10 seen).
    for (emit, least) in [("chc-cells", 12), ("chc-two-cells", 8)] {
        let refuted = failing_programs_refuted(
            &[emit],
            &["tests/proofs", "benchmarks/programs", "tests/ocaml"],
        );
        assert!(
            refuted >= least,
            "{emit}: only {refuted} failing programs refuted"
        );
    }
}

/// The same of the clauses with calls passing known closures sent to copies of their
/// callees (`lower --known-closures`, `boogie_like::ir::specialize`), on every failing
/// program that passes a known closure, and of the clauses with every product of two
/// non-constant terms abstracted (`lower --abstract-products`, `vc::horn_products`), on
/// every failing program that multiplies two variables (24 exact systems, 16 refuted
/// seen; 11 measures-only, 9 refuted): exact and measures-only.
#[test]
fn clauses_with_known_closures_or_products_abstracted_keep_every_failure() {
    let dirs = ["tests/proofs", "benchmarks/programs", "tests/ocaml"];
    for (flag, exact, measured) in [("--known-closures", 30, 10), ("--abstract-products", 10, 5)] {
        for (emit, least) in [("chc", exact), ("chc-measures", measured)] {
            let refuted = failing_programs_refuted(&[emit, flag], &dirs);
            assert!(
                refuted >= least,
                "{emit} {flag}: only {refuted} failing programs refuted"
            );
        }
    }
}

/// Products of two variables abstracted by the linear facts multiplication guarantees
/// (`lower --abstract-products`, a system the engine tries beside the exact ones): the
/// parity of `x * x + 2 k` for even `x`, and the length and sum of a reversed list of
/// elements `i * k - 3`, are proved from them. On the exact measures-only clauses Spacer
/// gives up at once (`unknown`, nonlinear arithmetic); on the abstracted ones it answers
/// `sat` (about 1 s and 6 s alone on a quiet machine), and `verify` says VERIFIED. A
/// program with no such product has no such system.
#[test]
fn products_of_two_variables_are_proved_through_their_linear_facts() {
    let emitted = |file: &str, extra: &[&str]| emitted_with("chc-measures", file, extra);
    for name in ["list_parity_square_map.ml", "list_rev_acc_len_sum.ml"] {
        let file = format!("tests/proofs/{name}");
        let (code, abstracted) = emitted(&file, &["--abstract-products"]);
        assert_eq!(code, Some(0), "{name}");
        assert!(abstracted.contains("product!1 Int"), "{abstracted}");
        assert_eq!(
            spacer_as_the_engine_runs(&abstracted),
            "sat",
            "{name}: the abstracted clauses"
        );
        let json = chc_verdict(name, &["--max-depth", "8"]);
        assert_eq!(json["verdict"], "verified", "{name}: {json}");
    }
    let (_, exact) = emitted("tests/proofs/list_parity_square_map.ml", &[]);
    assert_ne!(
        spacer_as_the_engine_runs(&exact),
        "sat",
        "the exact measures-only clauses"
    );
    let (code, _) = emitted("tests/proofs/list_rev_sum.ml", &["--abstract-products"]);
    assert_eq!(code, Some(2));
}

/// Remainders by literals abstracted to their range (`lower --abstract-products`) in the
/// clauses with least and greatest elements, which a program gets when it compares the
/// elements of its lists by order: a scan for the first element above a threshold over
/// elements `(i * 5) mod 11` (`exn_list_threshold.ml`) is proved from "every element is
/// at most `t`" once the scan returned normally. Spacer has no answer in a minute on the
/// exact remainders (not run here); on the abstracted ones it answers `sat` (2–19 s alone
/// on a quiet machine). The same scan over elements made by a loop
/// (`exn_scan_above_bound.ml`) is VERIFIED. A program whose only remainders are by 2 has
/// no such twin.
#[test]
fn remainders_abstracted_to_their_range_prove_a_scan_by_threshold() {
    let emitted = |file: &str, extra: &[&str]| emitted_with("chc-bounds", file, extra);
    let (code, abstracted) = emitted(
        "tests/proofs/exn_list_threshold.ml",
        &["--abstract-products"],
    );
    assert_eq!(code, Some(0));
    assert!(abstracted.contains("remainder!1 Int"), "{abstracted}");
    for (at, _) in abstracted.match_indices("(mod ") {
        let term = balanced_term(&abstracted[at..]);
        assert!(term.ends_with(" 2)"), "a remainder left: {term}");
    }
    assert_eq!(spacer_as_the_engine_runs(&abstracted), "sat");
    // A scan comparing the elements it reads is enough for the least and greatest
    // elements; no remainder by 3 or more, no twin.
    let (code, _) = emitted("tests/proofs/exn_scan_above_bound.ml", &[]);
    assert_eq!(code, Some(0));
    let json = chc_verdict("exn_scan_above_bound.ml", &["--max-depth", "8"]);
    assert_eq!(json["verdict"], "verified", "{json}");
    let (code, _) = emitted("tests/proofs/list_keep_parity.ml", &[]);
    assert_eq!(code, Some(0));
    let (code, _) = emitted("tests/proofs/list_keep_parity.ml", &["--abstract-products"]);
    assert_eq!(code, Some(2));
}

/// The parenthesised term `text` starts with.
fn balanced_term(text: &str) -> &str {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return &text[..=i];
                }
            }
            _ => {}
        }
    }
    text
}

/// z3's first answer on `clauses`, Spacer configured as the engine runs its systems
/// beside the exact one (global guidance), within 300 s.
fn spacer_as_the_engine_runs(clauses: &str) -> String {
    let configured = format!(
        "{}\n{clauses}",
        horef_si::engine::REFINEMENT_CONFIGURATION[0]
    );
    let file = program(&configured);
    let solved = Command::new("z3")
        .args(["-T:300"])
        .arg(file.path())
        .output()
        .expect("z3 on PATH");
    let answer = String::from_utf8_lossy(&solved.stdout).to_string();
    answer.lines().next().unwrap_or("").to_string()
}

/// Runs z3 (global guidance, 3 s) on the clauses `lower --emit` prints with `emit` (the
/// emit and its options) for every failing program (the `-e` / `_e` twins) in `dirs`;
/// asserts none is `sat` and says how many were `unsat`.
fn failing_programs_refuted(emit: &[&str], dirs: &[&str]) -> usize {
    let mut refuted = 0;
    for dir in dirs {
        for entry in std::fs::read_dir(root().join(dir))
            .expect("folder")
            .flatten()
        {
            let path = entry.path();
            let stem = path.file_stem().unwrap_or_default().to_string_lossy();
            if !(stem.ends_with("-e") || stem.ends_with("_e")) {
                continue;
            }
            let out = horef_si()
                .args(["lower", "--emit"])
                .args(emit)
                .arg(&path)
                .output()
                .expect("run horef-si");
            if !out.status.success() {
                continue; // no such system (quantifiers; no map for `chc-cells`)
            }
            let clauses = program(&String::from_utf8_lossy(&out.stdout));
            let solved = Command::new("z3")
                .args(["-T:3", "fp.spacer.global=true"])
                .arg(clauses.path())
                .output()
                .expect("z3 on PATH");
            let answer = String::from_utf8_lossy(&solved.stdout);
            let answer = answer.lines().next().unwrap_or("");
            assert_ne!(answer, "sat", "{emit:?}: {}", path.display());
            refuted += usize::from(answer == "unsat");
        }
    }
    refuted
}

/// Transfers of random amounts between two cells of the heap keep the sum of their
/// balances: a fact relating two cells of the heap map, proved over two distinguished
/// cells (`vc::horn_cells`). The program is `tests/proofs/cells_two_balances.ml` in its
/// heap form (as it lowered before its two cells, allocated once per run, became globals
/// of their own: `lower::single_cells`, under which the program is proved too); the twin
/// whose transfer loses a unit now and then is a bug.
#[test]
fn sums_over_two_heap_cells_are_proved_over_two_cells() {
    let bound = ["--max-depth", "8"];
    let heap_form = program_as(TWO_BALANCES_IN_THE_HEAP, ".ir");
    let json = chc_verdict_of(heap_form.path(), &bound);
    assert_eq!(json["verdict"], "verified", "{json}");
    let summaries = json["proof"]["summaries"].as_array().expect("summaries");
    assert!(
        summaries.iter().any(|s| s.to_string().contains("[cell2]")),
        "{json}"
    );
    let json = chc_verdict("cells_two_balances.ml", &bound);
    assert_eq!(json["verdict"], "verified", "{json}");
    let json = chc_verdict("cells_two_balances_e.ml", &bound);
    assert_eq!(json["verdict"], "bug", "{json}");
    assert_eq!(json["confirmed"], true, "{json}");
}

/// `verify --proofs chc --format json` on a file of tests/proofs with `bound`, the Horn
/// clauses given a generous budget (these tests check what is proved, not how fast; every
/// caller expects a proof or a bug, so the run ends with it, 1–45 s on a quiet machine).
/// Spacer runs niced beside the search: on a machine loaded by others it gets a small
/// share of the cores, and a CI run whose budget was 90 s ended without the heap form's
/// two-cell proof (29 Nov), hence [`PROOF_BUDGET`].
fn chc_verdict(name: &str, bound: &[&str]) -> serde_json::Value {
    chc_verdict_of(&root().join("tests/proofs").join(name), bound)
}

/// Seconds the proof engines get in [`chc_verdict`]: far beyond what any of its programs
/// needs, so that only a missing proof fails a test, not a slow machine.
const PROOF_BUDGET: &str = "600";

/// [`chc_verdict`] on any file.
fn chc_verdict_of(path: &Path, bound: &[&str]) -> serde_json::Value {
    let out = horef_si()
        .args(["verify", "--proofs", "chc"])
        .args(bound)
        .args(["--proof-budget", PROOF_BUDGET, "--proof-wait", "budget"])
        .args(["--format", "json"])
        .arg(path)
        .output()
        .expect("run horef-si");
    serde_json::from_slice(&out.stdout).expect("json")
}

/// `tests/proofs/cells_two_balances.ml` lowered with its cells in the heap map.
const TWO_BALANCES_IN_THE_HEAP: &str = r#"
var alloc#next: int;
var heap#0: [int]int;

procedure batch(src: int, dst: int, k: int)
  modifies heap#0;
{
  var input#: int;
  var res: int;
  if (k > 0) {
    havoc input#;
    assume 0 <= input# && input# < 10;
    res := input#;
    call transfer(src, dst, res);
    call batch(src, dst, k - 1);
  }
}

procedure transfer(src: int, dst: int, amount: int)
  modifies heap#0;
{
  var load: int;
  var load#1: int;
  load := heap#0[src];
  heap#0 := heap#0[src := load - amount];
  load#1 := heap#0[dst];
  heap#0 := heap#0[dst := load#1 + amount];
}

procedure {:entrypoint} Main(a: int, b: int, k: int)
  modifies alloc#next, heap#0;
{
  var cell: int;
  var cell#1: int;
  var load: int;
  var load#1: int;
  cell := alloc#next;
  alloc#next := cell + 1;
  heap#0 := heap#0[cell := a];
  cell#1 := alloc#next;
  alloc#next := cell#1 + 1;
  heap#0 := heap#0[cell#1 := b];
  call batch(cell, cell#1, k);
  load := heap#0[cell];
  load#1 := heap#0[cell#1];
  assert load + load#1 == a + b;
}
"#;

/// Facts split over calls of small non-recursive procedures — `List.hd l :: acc` and
/// `List.tl l` in a reversal, whose results add up to `l`'s sum — are stated once those
/// calls are unfolded into the caller's clause before the lists are projected out
/// (`vc::horn_inline`): the measures-only system of such a reversal is satisfiable, its
/// failing twin's is not, and the relations of the unfolded procedures, applied
/// nowhere any more, are defined `true`.
#[test]
fn calls_of_small_procedures_are_unfolded_before_lists_are_projected() {
    let proofs = root().join("tests/proofs");
    let global = ["fp.spacer.global=true"];
    let safe = proofs.join("list_rev_stats.ml");
    assert_eq!(z3_on_emitted(&safe, "chc-measures", &global), "sat");
    let failing = proofs.join("list_rev_stats-e.ml");
    assert_eq!(z3_on_emitted(&failing, "chc-measures", &global), "unsat");
    let printed = horef_si()
        .args(["lower", "--emit", "chc-measures"])
        .arg(&safe)
        .output()
        .expect("run horef-si");
    let text = String::from_utf8_lossy(&printed.stdout);
    for unfolded in ["List.hd!rel", "List.tl!rel"] {
        let defined = text
            .lines()
            .find(|l| l.starts_with(&format!("(define-fun {unfolded} ")));
        assert!(
            defined.is_some_and(|l| l.ends_with("Bool true)")),
            "{unfolded}:\n{text}"
        );
    }
    // The recursive procedures keep their relations, solved for.
    assert!(text.contains("(declare-fun rev_onto!rel "), "{text}");
}

/// The printed clauses of every program of ours are SMT-LIB that z3 reads without an
/// error (names that need bars get them everywhere, testers included: `install.ml`'s
/// closure constructor `K_f#init` once came out bare in a length fact). z3 only reads
/// them here (no `check-sat`).
#[test]
fn printed_clauses_of_every_program_are_read_by_z3() {
    let mut read = 0;
    for dir in [
        "tests/programs",
        "tests/proofs",
        "tests/ocaml",
        "benchmarks/programs",
    ] {
        for entry in std::fs::read_dir(root().join(dir))
            .expect("folder")
            .flatten()
        {
            let path = entry.path();
            let out = horef_si()
                .args(["lower", "--emit", "chc"])
                .arg(&path)
                .output()
                .expect("run horef-si");
            if !out.status.success() {
                continue; // not a program the front end accepts (tests/programs has errors)
            }
            let text = String::from_utf8_lossy(&out.stdout).replace("(check-sat)", "");
            let clauses = program(&text);
            let z3 = Command::new("z3")
                .arg(clauses.path())
                .output()
                .expect("z3 on PATH");
            let reply = String::from_utf8_lossy(&z3.stdout);
            assert!(!reply.contains("error"), "{}: {reply}", path.display());
            read += 1;
        }
    }
    assert!(read >= 100, "only {read} programs were read");
}

#[test]
fn printed_clauses_eliminate_selectors_and_say_what_each_is() {
    let text = printed_clauses(&root().join("benchmarks/programs/append.horef"));
    assert!(text.starts_with("(set-logic HORN)"), "{text}");
    assert!(text.contains("; goal: the entry fails"), "{text}");
    // Every list argument is followed by its length and last element (src/vc/measure.rs).
    assert!(
        text.contains(
            "(declare-fun append!rel (Bool IntList Int Int IntList Int Int IntList Int Int"
        ),
        "{text}"
    );
    // `head`/`tail` are partial: Spacer refuses them, so no clause may apply them.
    for clause in text.lines().filter(|l| l.starts_with("(assert")) {
        assert!(
            !clause.contains("(head ") && !clause.contains("(tail "),
            "{clause}"
        );
    }
}

/// zip_add of two lists of the same length never takes `hd []`: a fact about lengths,
/// which the IR's clauses state through the lists' length parameters. Spacer with global
/// guidance (one of the engine's configurations) solves them; the tool says VERIFIED (with
/// whichever encoding answers first).
#[test]
fn list_lengths_prove_zip_at_every_depth() {
    let file = root().join("benchmarks/programs/zip.horef");
    let text = printed_clauses(&file);
    assert!(
        text.contains("(declare-fun zip_add!rel (Bool IntList Int Int IntList Int Int"),
        "{text}"
    );
    let clauses = program(&text);
    let solved = Command::new("z3")
        .args(["-T:60", "fp.spacer.global=true"])
        .arg(clauses.path())
        .output()
        .expect("z3 on PATH");
    let answer = String::from_utf8_lossy(&solved.stdout);
    assert_eq!(answer.lines().next(), Some("sat"), "{answer}");
    let (code, report) = verify(
        &[
            "--max-depth",
            "15",
            "--proofs",
            "chc",
            "--proof-wait",
            "budget",
        ],
        &file,
    );
    assert_eq!(code, Some(0), "{report}");
    assert!(report.starts_with("VERIFIED"), "{report}");
    assert!(report.contains("zip_add"), "{report}");
}

/// `last (range n) == 1` is a fact about the last element of a list: the IR's clauses
/// carry it as a measure after every list of `Int`s (`last(l)`), and with it the tool
/// proves the program for every depth. The same program asking for `2` is a bug, found
/// and confirmed as before.
#[test]
fn last_element_measures_prove_last_at_every_depth() {
    let file = root().join("benchmarks/programs/last.horef");
    let text = printed_clauses(&file);
    assert!(
        text.contains("(declare-fun last!rel (Bool IntList Int Int Int"),
        "{text}"
    );
    let (code, report) = verify(
        &[
            "--max-depth",
            "15",
            "--proofs",
            "chc",
            "--proof-wait",
            "budget",
        ],
        &file,
    );
    assert_eq!(code, Some(0), "{report}");
    assert!(report.starts_with("VERIFIED"), "{report}");
    assert!(report.contains("last(l)"), "{report}");

    let source = std::fs::read_to_string(&file).expect("read last.horef");
    let wrong = program(&source.replace("== 1)", "== 2)"));
    let (code, report) = verify(&["--max-depth", "15"], wrong.path());
    assert_eq!(code, Some(10), "{report}");
    assert!(report.starts_with("BUG"), "{report}");
}

#[test]
fn spacer_proves_fib_at_every_depth_and_the_summary_is_shown() {
    let file = root().join("benchmarks/programs/fib.horef");
    let out = horef_si()
        .args([
            "verify",
            "--max-depth",
            "15",
            "--proofs",
            "chc",
            "--proof-wait",
            "budget",
            "--format",
            "json",
        ])
        .arg(&file)
        .output()
        .expect("run horef-si");
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["verdict"], "verified", "{json}");
    assert_eq!(json["proof"]["engine"], "chc");
    let summaries = json["proof"]["summaries"].as_array().expect("summaries");
    // Either encoding's proof may come first: the IR's relation `fib`, or the refinement
    // template `fib.post`.
    let fib = summaries
        .iter()
        .find(|s| s["procedure"] == "fib" || s["procedure"] == "fib.post")
        .expect("a summary of fib");
    assert_eq!(fib["inputs"], serde_json::json!(["n"]));
    assert_eq!(fib["outputs"], serde_json::json!(["ret"]));
    let smt = fib["smt"].as_str().expect("smt");
    assert!(smt.starts_with("(define-fun"), "{smt}");

    let human = horef_si()
        .args(["verify", "--max-depth", "15", "--proofs", "chc"])
        .args(["--proof-wait", "budget"])
        .arg(&file)
        .output()
        .expect("run horef-si");
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(text.starts_with("VERIFIED"), "{text}");
    assert!(text.contains("proof (chc): procedure summaries"), "{text}");
    assert!(
        text.contains("fib(n) → ret:") || text.contains("fib.post(n) → ret:"),
        "{text}"
    );
}

#[test]
fn without_proof_engines_fib_is_only_safe_up_to_the_bound() {
    let out = horef_si()
        .args(["verify", "--max-depth", "6", "--proofs", "none"])
        .arg(root().join("benchmarks/programs/fib.horef"))
        .output()
        .expect("run horef-si");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("SAFE UP TO DEPTH 6"), "{text}");
}

#[test]
fn a_bug_is_still_a_bug_with_both_proof_engines() {
    let out = horef_si()
        .args(["verify", "--max-depth", "15"])
        .arg(root().join("benchmarks/programs/fib-e.horef"))
        .output()
        .expect("run horef-si");
    assert_eq!(
        out.status.code(),
        Some(10),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// `verify --format json` on a file of tests/proofs at `depth` (waiting for a proof as
/// long as the whole budget).
fn json_verdict(name: &str, depth: &str) -> serde_json::Value {
    let out = horef_si()
        .args([
            "verify",
            "--max-depth",
            depth,
            "--timeout",
            "120",
            "--proof-wait",
            "budget",
            "--format",
            "json",
        ])
        .arg(root().join("tests/proofs").join(name))
        .output()
        .expect("run horef-si");
    serde_json::from_slice(&out.stdout).expect("json")
}

#[test]
fn a_partial_proof_prunes_the_search_where_no_whole_proof_exists() {
    // Spacer proves `check` (with `fib`) on its own; the search assumes that at check's
    // call sites instead of unrolling fib's doubling tree, and the cubes chain it keeps
    // ends. Without the partial proof this is SAFE UP TO DEPTH 15 after about a minute
    // (9 224 instances) on the 2-core machine.
    let json = json_verdict("partial.horef", "15");
    assert_eq!(json["verdict"], "verified", "{json}");
    let engine = json["proof"]["engine"].as_str().expect("engine");
    assert!(engine.contains("chc, partial: check"), "{json}");
    let summaries = json["proof"]["summaries"].as_array().expect("summaries");
    let check = summaries
        .iter()
        .find(|s| s["procedure"] == "check")
        .expect("check's summary");
    assert_eq!(check["formula"], "never fails", "{json}");
    // Relations the partial system has no clauses for are never shown (nor assumed).
    // (Spacer interprets them anyhow, here as `false`: cubes and Main.)
    assert!(
        summaries
            .iter()
            .all(|s| s["procedure"] != "Main" && s["formula"] != "false"),
        "{json}"
    );
    assert!(
        json["stats"]["inlined"].as_u64().expect("inlined") < 2000,
        "{json}"
    );
}

#[test]
fn a_partial_proof_changes_no_bug() {
    // The same part proved on its own; the cubes identity fails for x = 7 at depth 8.
    let json = json_verdict("partial-e.horef", "8");
    assert_eq!(json["verdict"], "bug", "{json}");
    assert_eq!(json["confirmed"], true, "{json}");
    let json = json_verdict("partial-e.horef", "7");
    assert_eq!(json["verdict"], "safe_up_to_depth", "{json}");
}

#[test]
fn past_the_memory_limit_the_run_is_unknown_resource() {
    let out = horef_si()
        .args(["verify", "--max-depth", "15", "--memory-limit", "1"])
        .args(["--format", "json"])
        .arg(root().join("benchmarks/programs/fib.horef"))
        .output()
        .expect("run horef-si");
    assert_eq!(
        out.status.code(),
        Some(5),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["verdict"], "unknown");
    let reason = json["reason"].as_str().expect("reason");
    assert!(
        reason.contains("resource") && reason.contains("memory limit of 1 MiB"),
        "{reason}"
    );
}

// ----- soundness: VERIFIED against concrete runs -----

/// The depth the concrete runs go to (a failure within a smaller depth also shows here).
const RUN_DEPTH: u32 = 6;
const FUEL: u64 = 200_000;

/// Every safe program of ours: tests/programs, tests/proofs, benchmarks/programs (not the
/// `-e` ones), HORef, and the OCaml ones of tests/proofs (issue 33).
fn safe_programs() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["tests/programs", "tests/proofs", "benchmarks/programs"] {
        for entry in std::fs::read_dir(root().join(dir))
            .expect("folder")
            .flatten()
        {
            let path = entry.path();
            let name = path.file_stem().unwrap_or_default().to_string_lossy();
            let ocaml = dir == "tests/proofs" && path.extension().is_some_and(|e| e == "ml");
            let core = ocaml || path.extension().is_some_and(|e| e == "horef");
            if core && !name.ends_with("-e") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Inputs for each `Int` parameter (-3..=12 for one or two of them, -2..=5 for more),
/// `skip` for `Unit`: every combination.
pub(crate) fn grid(checked: &Checked) -> Vec<Vec<Value>> {
    let params = &checked.program.main.params;
    let range = if params.len() <= 2 { -3..=12 } else { -2..=5 };
    let mut rows: Vec<Vec<Value>> = vec![Vec::new()];
    for param in params {
        let choices: Vec<Value> = match param.ty {
            horef_si::core_lang::ast::Type::Unit => vec![Value::Unit],
            _ => range.clone().map(|i| Value::Int(BigInt::from(i))).collect(),
        };
        rows = rows
            .into_iter()
            .flat_map(|row| {
                choices.iter().map(move |c| {
                    let mut next = row.clone();
                    next.push(c.clone());
                    next
                })
            })
            .collect();
    }
    rows
}

/// The values the fresh-input streams of the concrete runs are made of (`Random.int n`
/// takes them modulo `n`).
const FRESH_VALUES: [i64; 8] = [-1, 0, 1, 2, 3, 5, 9, 10];

/// The fresh-input streams a run that draws inputs (`read_int ()`, `Random.int n`) is
/// also tried with: every pair of [`FRESH_VALUES`] repeated, 16 inputs long.
fn fresh_streams() -> Vec<Vec<BigInt>> {
    let mut streams = Vec::new();
    for a in FRESH_VALUES {
        for b in FRESH_VALUES {
            streams.push(
                (0..16)
                    .map(|i| BigInt::from(if i % 2 == 0 { a } else { b }))
                    .collect(),
            );
        }
    }
    streams
}

/// A grid input that makes the program fail within `RUN_DEPTH`, if any: each grid input
/// with no fresh inputs (each one 0), and, if the run draws any, with every stream of
/// [`fresh_streams`].
fn failing_input(checked: &Checked) -> Option<Vec<Value>> {
    failing_input_within(checked, RUN_DEPTH)
}

/// As [`failing_input`], within `depth`.
fn failing_input_within(checked: &Checked, depth: u32) -> Option<Vec<Value>> {
    let config = RunConfig {
        max_depth: depth,
        fuel: FUEL,
        trace: false,
        memory_limit_mib: None,
    };
    let fails = |inputs: &[Value], fresh: &[BigInt]| {
        let run = interp::run_fed(&checked.program, &checked.info, inputs, fresh, &config);
        let failed = matches!(run.outcome, Outcome::Failure { .. });
        (failed, !run.fresh.is_empty())
    };
    grid(checked).into_iter().find(|inputs| {
        let (failed, draws) = fails(inputs, &[]);
        failed || (draws && fresh_streams().iter().any(|s| fails(inputs, s).0))
    })
}

/// The verdict of `verify` at `depth` with every proof engine, the refinement-type
/// clauses included (as the CLI runs it), every VERIFIED re-checked (`--check-proof`),
/// and partial proofs tried from the search's first round (not only in long searches).
fn verdict_at(checked: &Checked, depth: u32) -> Verdict {
    verdict_checked_at(checked, depth, true)
}

/// [`verdict_at`] for a program that fails, without `--check-proof`: the dialogues it
/// records are one solver's, so a run that records them gets no rescue of a search check
/// that takes long (`src/solver/rescue.rs`; `loop_lcg_band-e.ml` needs one). A VERIFIED
/// fails the callers' assertion all the same.
fn failing_verdict_at(checked: &Checked, depth: u32) -> Verdict {
    verdict_checked_at(checked, depth, false)
}

fn verdict_checked_at(checked: &Checked, depth: u32, check_proof: bool) -> Verdict {
    let options = Options {
        max_depth: depth,
        check_proof,
        partial_delay: std::time::Duration::ZERO,
        proof_wait: horef_si::engine::ProofWait::Budget,
        ..Options::default()
    };
    horef_si::verifier::verify(horef_si::verifier::Program::Core(checked), &options).verdict
}

/// Whether `file` is a program of tests/proofs its first line calls safe but not proved
/// yet (`(* expect: safe *)`): waiting the whole proof budget on each would only lengthen
/// the test; they are checked not to fail on the grid instead.
fn not_proved_yet(file: &Path) -> bool {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    file.parent() == Some(&root().join("tests/proofs"))
        && text
            .lines()
            .next()
            .is_some_and(|l| l.starts_with("(* expect: safe"))
}

#[test]
fn every_verified_program_survives_exhaustive_runs() {
    let (mut verified, mut checked_runs) = (0, 0);
    for file in safe_programs() {
        let checked = load_core(&file).expect("load");
        if not_proved_yet(&file) {
            let fails = failing_input(&checked);
            assert!(fails.is_none(), "{} fails on {fails:?}", file.display());
            continue;
        }
        if verdict_at(&checked, RUN_DEPTH) != Verdict::Verified {
            continue;
        }
        verified += 1;
        checked_runs += grid(&checked).len();
        if let Some(inputs) = failing_input(&checked) {
            panic!(
                "{} is VERIFIED but the run on {inputs:?} fails",
                file.display()
            );
        }
    }
    println!("{verified} VERIFIED programs, {checked_runs} concrete runs at depth {RUN_DEPTH}");
    assert!(verified >= 20, "only {verified} programs were VERIFIED");
}

/// The failing twins (`-e`) of the HORef and OCaml programs of tests/proofs: each fails on
/// some grid input (and fresh-input stream) within a small depth (`RUN_DEPTH`, or up to
/// 9: `partial-e` fails at 8), so it is no safe program in disguise, and `verify` says BUG
/// at the least such depth, never VERIFIED.
#[test]
fn every_failing_twin_of_tests_proofs_fails_and_is_a_bug() {
    let mut twins = 0;
    for entry in std::fs::read_dir(root().join("tests/proofs"))
        .expect("folder")
        .flatten()
    {
        let path = entry.path();
        let name = path.file_stem().unwrap_or_default().to_string_lossy();
        let core = path.extension().is_some_and(|e| e == "ml" || e == "horef");
        if !core || !name.ends_with("-e") {
            continue;
        }
        let checked = load_core(&path).expect("load");
        let depth = (RUN_DEPTH..=9).find(|&d| failing_input_within(&checked, d).is_some());
        let Some(depth) = depth else {
            panic!("{} never fails within depth 9", path.display());
        };
        let verdict = failing_verdict_at(&checked, depth);
        assert!(
            matches!(verdict, Verdict::Bug { .. }),
            "{}: {verdict:?}",
            path.display()
        );
        twins += 1;
    }
    assert!(twins >= 6, "only {twins} failing twins");
}

/// The comparison operators a mutant flips, with what each becomes.
const FLIPS: &[(&str, &str)] = &[
    (" >= ", " < "),
    (" <= ", " > "),
    (" == ", " != "),
    (" != ", " == "),
    (" > ", " <= "),
    (" < ", " >= "),
];

/// Every program with one comparison flipped, by position in the text.
fn mutants(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (from, to) in FLIPS {
        for (at, _) in text.match_indices(from) {
            let mut mutant = text.to_string();
            mutant.replace_range(at..at + from.len(), to);
            out.push(mutant);
        }
    }
    out
}

#[test]
fn a_mutant_that_fails_is_never_verified() {
    let (mut failing, mut bugs) = (0, 0);
    for file in safe_programs() {
        let text = std::fs::read_to_string(&file).expect("read");
        for mutant in mutants(&text) {
            let temp = program_like(&mutant, &file);
            let Ok(checked) = load_core(temp.path()) else {
                continue;
            };
            if failing_input(&checked).is_none() {
                continue;
            }
            failing += 1;
            let verdict = failing_verdict_at(&checked, RUN_DEPTH);
            assert!(
                matches!(verdict, Verdict::Bug { .. }),
                "a mutant of {} fails at depth {RUN_DEPTH} but verify says {verdict:?}:\n{mutant}",
                file.display()
            );
            bugs += 1;
        }
    }
    println!("{failing} failing mutants, {bugs} reported as BUG");
    assert!(
        failing >= 20,
        "only {failing} mutants fail: the test checks too little"
    );
}

// ----- the refinement-type encoding (src/verifier/refine/) -----

/// The two ghost schemes `lower` prints refinement clauses in.
const REFINE_EMITS: [&str; 2] = ["chc-refine", "chc-refine-inner"];

/// z3's first answer (Spacer with global guidance, as the engine runs it, at most
/// `seconds`) on the clauses `lower --emit EMIT` prints for `file`; `None` if the
/// encoding refuses the program.
fn z3_on_refinement_clauses(file: &Path, emit: &str, seconds: u32) -> Option<String> {
    let out = horef_si()
        .args(["lower", "--emit", emit])
        .arg(file)
        .output()
        .expect("run horef-si");
    if !out.status.success() {
        let why = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{why}");
        assert!(why.contains("does not handle"), "{why}");
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("(set-logic HORN)"), "{text}");
    let clauses = program(&format!("(set-option :fp.spacer.global true)\n{text}"));
    let solved = Command::new("z3")
        .arg(format!("-T:{seconds}"))
        .arg(clauses.path())
        .output()
        .expect("z3 on PATH");
    let answer = String::from_utf8_lossy(&solved.stdout);
    Some(answer.lines().next().unwrap_or("").to_string())
}

#[test]
fn refinement_clauses_of_closure_chains_are_solved_by_z3() {
    let dir = root().join("tests/proofs");
    for name in ["table", "copy", "cps_double", "repeat"] {
        let safe = dir.join(format!("{name}.horef"));
        let answers: Vec<Option<String>> = REFINE_EMITS
            .iter()
            .map(|emit| z3_on_refinement_clauses(&safe, emit, 60))
            .collect();
        assert!(
            answers.iter().any(|a| a.as_deref() == Some("sat")),
            "{name}: {answers:?}"
        );
        let failing = dir.join(format!("{name}-e.horef"));
        for emit in REFINE_EMITS {
            let answer = z3_on_refinement_clauses(&failing, emit, 60);
            assert_eq!(answer.as_deref(), Some("unsat"), "{name}-e, {emit}");
        }
    }
}

#[test]
fn the_refinement_encoding_names_what_it_refuses() {
    let lists = program("Store:\nl:List := [];\nMain (n:Int) :Unit: assert (hd (n :: !l) == n)");
    let closures = program(
        "Store:\nr:Int -> Int := id;\nMethods:\nid (x:Int) :Int = x;\nMain (n:Int) :Unit: assert ((!r) n == n)",
    );
    for (file, what) in [
        (&lists, "the reference `l` of type `List`"),
        (&closures, "the reference `r` of type `Int -> Int`"),
    ] {
        let out = horef_si()
            .args(["lower", "--emit", "chc-refine"])
            .arg(file.path())
            .output()
            .expect("run horef-si");
        assert_eq!(out.status.code(), Some(2));
        let why = String::from_utf8_lossy(&out.stderr);
        assert!(why.contains(&format!("does not handle {what}")), "{why}");
    }
}

/// Every safe program of ours, and every mutant (one comparison flipped) of the closure
/// chains of tests/proofs that fails within `RUN_DEPTH` on some grid input: no
/// refinement system of a failing one is satisfiable, and every program whose system is
/// satisfiable survives the concrete runs. (The engine-level mutation test above covers
/// the other corpora's mutants through `verify`.)
#[test]
fn satisfiable_refinement_clauses_survive_concrete_runs() {
    let (mut solved, mut failing) = (0, 0);
    for file in safe_programs() {
        let text = std::fs::read_to_string(&file).expect("read");
        let mutated = if file.parent() == Some(&root().join("tests/proofs")) {
            mutants(&text)
        } else {
            Vec::new()
        };
        for (i, variant) in std::iter::once(text.clone()).chain(mutated).enumerate() {
            let temp = program_like(&variant, &file);
            let Ok(checked) = load_core(temp.path()) else {
                continue;
            };
            let fails = failing_input(&checked);
            if i > 0 && fails.is_none() {
                continue;
            }
            for emit in REFINE_EMITS {
                let Some(answer) = z3_on_refinement_clauses(temp.path(), emit, 2) else {
                    break;
                };
                if answer == "sat" {
                    solved += 1;
                    assert!(
                        fails.is_none(),
                        "{} (variant {i}, {emit}) has satisfiable clauses but the run on {fails:?} fails:\n{variant}",
                        file.display()
                    );
                }
                failing += usize::from(fails.is_some());
            }
        }
    }
    println!("{solved} satisfiable systems, {failing} systems of failing variants");
    assert!(solved >= 20, "only {solved} systems were solved");
    assert!(
        failing >= 10,
        "only {failing} systems of failing variants were tried"
    );
}

/// The closure chains are VERIFIED at depth 15 by a Horn-clause proof, and their failing
/// twins are bugs. Which of the systems (the IR's clauses, their measures, the refinement
/// encodings) Spacer solves first is a race that the machine's load decides; that the
/// refinement clauses are solved is checked on its own
/// (`refinement_clauses_of_closure_chains_are_solved_by_z3`).
#[test]
fn refinement_proofs_verify_closure_chains_at_depth_15() {
    let dir = root().join("tests/proofs");
    // `copy` is left out here: its proof takes Spacer seconds of its own, more than a
    // loaded machine gives it within the default budget beside the other attempts.
    for name in ["table", "cps_double", "repeat"] {
        // A generous proof budget: this checks what the refinement proofs prove, not how
        // fast (repeat's proof ran out of the default 20 s under a load of 8-10).
        let out = horef_si()
            .args(["verify", "--max-depth", "15", "--proofs", "chc"])
            .args(["--proof-budget", PROOF_BUDGET, "--proof-wait", "budget"])
            .args(["--format", "json"])
            .arg(dir.join(format!("{name}.horef")))
            .output()
            .expect("run horef-si");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        assert_eq!(json["verdict"], "verified", "{name}: {json}");
        let engine = json["proof"]["engine"].as_str().unwrap_or("");
        assert!(engine.starts_with("chc"), "{name}: {json}");
        let summaries = json["proof"]["summaries"].as_array().expect("summaries");
        assert!(!summaries.is_empty(), "{name}: {json}");
        let failing = horef_si()
            .args(["verify", "--max-depth", "15"])
            .arg(dir.join(format!("{name}-e.horef")))
            .output()
            .expect("run horef-si");
        assert_eq!(
            failing.status.code(),
            Some(10),
            "{name}-e: {}",
            String::from_utf8_lossy(&failing.stdout)
        );
    }
}

/// A `Main` that dispatches to sub-programs is proved case by case, each case by whichever
/// engine proves it first (Spacer, or the search beside it), renamed copies sharing one
/// proof; the summaries of a case that needs an inductive fact (Spacer's) are shown in its
/// own names. A bug in one copy is still a bug.
#[test]
fn a_dispatching_main_is_proved_case_by_case() {
    let file = root().join("tests/proofs/dispatch.horef");
    let (code, report) = verify(&["--max-depth", "15", "--proof-wait", "budget"], &file);
    assert_eq!(code, Some(0), "{report}");
    assert!(report.starts_with("VERIFIED"), "{report}");
    assert!(report.contains("case by case: 5 cases"), "{report}");
    // `fib` and `d_down` recurse without a bound: no finite call tree proves them.
    for name in ["f_fib", "g_fib", "d_down"] {
        assert!(report.contains(name), "{name}: {report}");
    }
    let source = std::fs::read_to_string(&file).expect("read dispatch.horef");
    let buggy_copy = source.replace("assert (g_fib n >= n - 1)", "assert (g_fib n >= n)");
    assert_ne!(buggy_copy, source);
    let wrong = program(&buggy_copy);
    let (code, report) = verify(&["--max-depth", "15"], wrong.path());
    assert_eq!(code, Some(10), "{report}");
    assert!(report.starts_with("BUG"), "{report}");
    // Without its path condition (`x >= 0`), the last case would fail for negative `x`:
    // the case keeps the conditions that mention what it reads, so it is proved; with the
    // condition gone from the program itself, the bug is found.
    let unguarded = source.replace(
        "else if x >= 0 then assert (d_down x == x) else skip",
        "else assert (d_down x == x)",
    );
    assert_ne!(unguarded, source);
    let wrong = program(&unguarded);
    let (code, report) = verify(&["--max-depth", "15"], wrong.path());
    assert_eq!(code, Some(10), "{report}");
}

/// The cases are proved several at a time: one case that fails past the bound ends the
/// attempt, whatever the others were doing, and the program is never VERIFIED — the
/// report names that case (a case left untried is not taken as proved).
#[test]
fn one_case_without_a_proof_keeps_a_dispatching_main_unproved() {
    let source = std::fs::read_to_string(root().join("tests/proofs/dispatch.horef"))
        .expect("read dispatch.horef");
    let deep_bug = source.replace(
        "else if x >= 0 then assert (d_down x == x) else skip",
        "else if x >= 0 then assert (d_down x < 9) else skip",
    );
    assert_ne!(deep_bug, source);
    let file = program(&deep_bug);
    let args = [
        "--max-depth",
        "3",
        "--proof-wait",
        "budget",
        "--format",
        "json",
    ];
    let (code, out) = verify(&args, file.path());
    let report: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(report["verdict"], "safe_up_to_depth", "{out}");
    let why = report["no_proof"].as_str().unwrap_or_default();
    assert!(why.contains("case 5 of 5"), "{out}");
}

/// `--check-proof` on a program Houdini proves: the search's dialogues are replayed in a
/// fresh z3 and the report says so, in words and in JSON.
#[test]
fn check_proof_replays_a_houdini_proof_in_a_fresh_solver() {
    let file = root().join("benchmarks/programs/ackermann.horef");
    let houdini = ["--max-depth", "5", "--proofs", "houdini"];
    let (_, report) = verify(&[&houdini[..], &["--check-proof"]].concat(), &file);
    assert!(report.starts_with("VERIFIED"), "{report}");
    assert!(report.contains("proof (houdini)"), "{report}");
    assert!(
        report.contains("re-checked: a fresh z3 gave the same"),
        "{report}"
    );
    let json = |extra: &[&str]| -> serde_json::Value {
        let (_, out) = verify(
            &[&houdini[..], &["--format", "json"], extra].concat(),
            &file,
        );
        serde_json::from_str(&out).expect("json")
    };
    let checked = json(&["--check-proof"]);
    assert_eq!(checked["verdict"], "verified");
    let how = checked["rechecked"]
        .as_str()
        .expect("rechecked is a string");
    assert!(how.contains("unsat"), "{how}");
    // Without the flag, nothing claims a re-check.
    let unchecked = json(&[]);
    assert_eq!(unchecked["verdict"], "verified");
    assert!(unchecked["rechecked"].is_null());
}

/// A Boogie loop is a procedure named `main#loop1`: Spacer's model of its relation must
/// be written back quoted (`|main#loop1!rel|`) for the clause-by-clause re-check, or the
/// proof is lost (z3 reads `#l...` as a bit-vector literal).
#[test]
fn spacer_proves_a_boogie_loop_whose_relation_needs_quoting() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/boogie/loop_sum_spacer/program.bpl");
    let loaded = horef_si::frontend::load(&path, Default::default()).expect("loads");
    let options = Options {
        max_depth: 5,
        // Spacer alone, waited for: Houdini's templates do not hold this invariant.
        summaries: false,
        proof_wait: horef_si::engine::ProofWait::Budget,
        // A budget of its own: this process remembers "no proof" per clauses and budget,
        // and `boogie_programs` runs the same program with the default's short wait.
        chc_budget: std::time::Duration::from_secs(40),
        ..Options::default()
    };
    let outcome = horef_si::verifier::verify(horef_si::verifier::Program::from(&loaded), &options);
    assert_eq!(outcome.verdict, Verdict::Verified, "{:?}", outcome.no_proof);
    let proof = outcome.proof.expect("a proof");
    assert!(proof.engine.contains("chc"), "{}", proof.engine);
}
