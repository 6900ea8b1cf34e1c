//! Variable abstraction with refinement (`src/engine/search/cegar.rs`, issue 35) against the
//! program itself. Needs `z3` on PATH.
//!
//! - Every program of our corpora (`tests/boogie`, `tests/programs`, `tests/refs`) gets the
//!   same verdict with the abstraction forced on from the assertions' globals (so that
//!   spurious counterexamples and refinement happen) as with `--track-all`: a BUG in both
//!   or in neither (each BUG replayed), no failure within K in both or in neither.
//! - Hand-made programs: refinement adds exactly the globals the counterexample needs
//!   (minimal: a global the assertion's value reads but multiplies by zero stays out), a
//!   buggy twin is a BUG only after the concrete check and replay.

use horef_si::engine::AbstractionStart as Start;
use horef_si::engine::verdict::Verdict;
use horef_si::engine::{Options, Outcome, Refinement};
use horef_si::frontend::boogie::translate;
use horef_si::span::SourceFile;
use horef_si::verifier::{self, Program};
use std::path::{Path, PathBuf};

const DEPTH: u32 = 3;

fn options(abstraction: Option<Start>) -> Options {
    Options {
        max_depth: DEPTH,
        chc: false,
        abstraction,
        ..Options::default()
    }
}

/// The verdict's class: what the abstraction must not change.
fn class(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Bug { .. } => "bug",
        Verdict::Verified | Verdict::SafeUpTo { .. } => "no failure within K",
        Verdict::Unknown { .. } => "unknown",
    }
}

/// Both runs of one program: forced abstraction, then `--track-all`.
fn both(run: impl Fn(&Options) -> Outcome) -> (Outcome, Outcome) {
    (run(&options(Some(Start::Assertions))), run(&options(None)))
}

fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut found: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .map(|p| if p.is_dir() { p.join("program.bpl") } else { p })
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == ext))
        .collect();
    found.sort();
    found
}

#[test]
fn verdicts_agree_with_track_all_on_our_corpora() {
    let mut disagreements = Vec::new();
    let mut abstracted = 0;
    let mut compared = 0;
    let mut note = |name: String, (forced, all): (Outcome, Outcome)| {
        compared += 1;
        if forced.stats.abstraction.is_some() {
            abstracted += 1;
        }
        if class(&forced.verdict) != class(&all.verdict) {
            disagreements.push(format!(
                "{name}: abstracted {:?}, track-all {:?}",
                forced.verdict, all.verdict
            ));
        }
    };
    let corpora = [
        ("tests/boogie", "bpl"),
        ("tests/programs", "horef"),
        ("tests/refs", "horef"),
    ];
    for (dir, ext) in corpora {
        for path in files(dir, ext) {
            // The folders of front-end errors do not load.
            let Ok(loaded) = horef_si::frontend::load(&path, Default::default()) else {
                continue;
            };
            note(
                path.display().to_string(),
                both(|o| verifier::verify(Program::from(&loaded), o)),
            );
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {compared} disagree:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    // The comparison means something only if the abstraction ran on most of them.
    assert!(compared > 100, "{compared} programs");
    assert!(
        abstracted * 2 > compared,
        "{abstracted} of {compared} abstracted"
    );
}

/// `a`'s final value needs `b` (set to 1 before it is added), not `c` (multiplied by 0),
/// nor the counters `d0..d9` a loop of calls bumps. (Boogie's globals start arbitrary:
/// `Main` sets `a`.)
fn counters(bound: i32) -> boogie_like::Program {
    let mut text = String::from("var a: int;\nvar b: int;\nvar c: int;\n");
    let ds: Vec<String> = (0..10).map(|i| format!("d{i}")).collect();
    for d in &ds {
        text.push_str(&format!("var {d}: int;\n"));
    }
    text.push_str(&format!(
        "procedure bump(n: int)\n  modifies a, b, c, {all};\n{{\n  b := 1;\n  c := c + n;\n  \
         a := a + b + 0 * c;\n{bumps}}}\n",
        all = ds.join(", "),
        bumps = ds
            .iter()
            .map(|d| format!("  {d} := {d} + n;\n"))
            .collect::<String>()
    ));
    text.push_str(&format!(
        "procedure drive(k: int)\n  modifies a, b, c, {all};\n{{\n  if (k > 0) {{\n    \
         call bump(k);\n    call drive(k - 1);\n  }}\n}}\n\
         procedure {{:entrypoint}} Main(k: int)\n  modifies a, b, c, {all};\n{{\n  \
         a := 0;\n  if (k <= 2) {{\n    call drive(k);\n    assert a <= {bound};\n  }}\n}}\n",
        all = ds.join(", ")
    ));
    let file = SourceFile::new("counters.bpl".to_string(), text);
    translate(&file, None).unwrap_or_else(|d| panic!("{}", d.render(&file)))
}

#[test]
fn refinement_adds_exactly_the_globals_the_counterexample_needs() {
    let ir = counters(2);
    let (forced, all) = both(|o| verifier::verify(Program::Ir(&ir), o));
    assert_eq!(
        class(&all.verdict),
        "no failure within K",
        "{:?}",
        all.verdict
    );
    assert_eq!(class(&forced.verdict), class(&all.verdict));
    let stats = forced.stats.abstraction.expect("the abstraction ran");
    assert_eq!(stats.globals, 13);
    assert_eq!(stats.initial, 1, "the assertion reads `a` only");
    assert_eq!(
        stats.tracked,
        vec!["a", "b"],
        "minimal: `c` and the `d`s stay out"
    );
    assert_eq!(stats.refinements, 1);
    assert_eq!(
        stats.refined_with,
        vec!["alg2"],
        "the default refines in the solver"
    );
    // Without the abstraction there is nothing to report.
    assert!(all.stats.abstraction.is_none());
    // Alg. 1 (divide and conquer over abstractions) finds the same set.
    let alg1 = verifier::verify(
        Program::Ir(&ir),
        &Options {
            refinement: Refinement::DivideAndConquer,
            ..options(Some(Start::Assertions))
        },
    );
    assert_eq!(class(&alg1.verdict), class(&all.verdict));
    let stats1 = alg1.stats.abstraction.expect("the abstraction ran");
    assert_eq!(stats1.tracked, stats.tracked);
    assert_eq!(stats1.refined_with, vec!["alg1"]);
}

#[test]
fn a_bug_of_the_abstract_program_is_reported_only_when_the_program_has_it() {
    // `a` reaches 2 at k = 2: the assertion `a <= 1` fails, in the program too.
    let ir = counters(1);
    let (forced, all) = both(|o| verifier::verify(Program::Ir(&ir), o));
    assert!(
        matches!(all.verdict, Verdict::Bug { .. }),
        "{:?}",
        all.verdict
    );
    assert!(
        matches!(forced.verdict, Verdict::Bug { .. }),
        "{:?}",
        forced.verdict
    );
    // The default starts from the assertions' cone: `a`, `b`, `c` (`c` is read on the way
    // to `a`), and needs no refinement; with fewer than 64 globals it does not abstract.
    let default = verifier::verify(
        Program::Ir(&ir),
        &Options {
            max_depth: DEPTH,
            chc: false,
            ..Options::default()
        },
    );
    assert!(matches!(default.verdict, Verdict::Bug { .. }));
    assert!(default.stats.abstraction.is_none());
    let cone = verifier::verify(Program::Ir(&ir), &options(Some(Start::Empty)));
    assert!(
        matches!(cone.verdict, Verdict::Bug { .. }),
        "{:?}",
        cone.verdict
    );
}
