//! `lower --emit boogie` (issue 13): our HORef, OCaml, Boogie and IR programs printed as
//! Boogie and read back by the Boogie front end get the same verdicts as the programs
//! themselves, at a small depth. The proof engines are off (each verdict is the search's:
//! BUG, SAFE UP TO DEPTH K, or VERIFIED for a finite call tree), so the comparison is
//! exact and fast. Needs `z3` on PATH.

use horef_si::engine::verdict::Verdict;
use horef_si::engine::{Options, verify_horef, verify_ir};
use horef_si::frontend::boogie::{emit::emit, translate};
use horef_si::span::SourceFile;
use std::path::{Path, PathBuf};

/// Small enough for the whole corpus to run in seconds; deep enough for most of its bugs.
const DEPTH: u32 = 2;

fn options() -> Options {
    Options {
        max_depth: DEPTH,
        summaries: false,
        chc: false,
        ..Options::default()
    }
}

fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut out: Vec<PathBuf> = walk(&root)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    out.sort();
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// The verdict's kind and bound, without the witness (whose names and positions differ).
fn shape(v: &Verdict) -> String {
    match v {
        Verdict::Bug { .. } => "bug".into(),
        other => other.headline(),
    }
}

/// The program's own verdict and its IR (`None`: the front end rejects it, which other
/// tests check).
fn original(path: &Path) -> Option<(Verdict, boogie_like::Program)> {
    let ext = path.extension()?.to_str()?;
    if ext == "bpl" || ext == "ir" {
        let ir = ir_of(path)?;
        return Some((verify_ir(&ir, &options()).verdict, ir));
    }
    let checked = horef_si::frontend::load_core(path).ok()?;
    let verdict = verify_horef(&checked, &options()).verdict;
    Some((verdict, horef_si::lower::lower(&checked).ir))
}

/// `None` when the program and its Boogie text agree, else what differs.
fn disagreement(path: &Path) -> Option<String> {
    let (verdict, ir) = original(path)?;
    let name = path.display();
    let text = match emit(&ir) {
        Ok(text) => text,
        Err(e) => return Some(format!("{name}: {e}")),
    };
    let file = SourceFile::new(format!("{name}.bpl"), text);
    let reread = match translate(&file, None) {
        Ok(reread) => reread,
        Err(d) => return Some(format!("{name}: not read back: {}", d.render(&file))),
    };
    let again = verify_ir(&reread, &options()).verdict;
    (shape(&verdict) != shape(&again)).then(|| {
        format!(
            "{name}: {} but {} as Boogie",
            shape(&verdict),
            shape(&again)
        )
    })
}

fn check_all(paths: &[PathBuf], at_least: usize) {
    let failures: Vec<String> = paths.iter().filter_map(|p| disagreement(p)).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(paths.len() >= at_least, "only {} programs", paths.len());
}

#[test]
fn horef_programs_keep_their_verdicts_as_boogie() {
    check_all(&files("tests/programs", "horef"), 15);
}

/// Programs that allocate references (`local_ref_*.ml`, `mix_*.ml`, ...) keep their heap in
/// maps that start as constant maps: they have no Boogie form here (a named error, checked
/// below). Their lowering declares the allocation counter `alloc#next` (docs/references.md).
fn allocates(path: &Path) -> bool {
    let Ok(checked) = horef_si::frontend::load_core(path) else {
        return false;
    };
    let ir = horef_si::lower::lower(&checked).ir;
    ir.globals.values().any(|g| g.name.starts_with("alloc#"))
}

#[test]
fn ocaml_programs_keep_their_verdicts_as_boogie() {
    let mut paths = files("tests/ocaml", "ml");
    paths.retain(|p| !allocates(p));
    check_all(&paths, 50);
}

#[test]
fn allocated_references_are_a_named_error() {
    let paths: Vec<PathBuf> = files("tests/ocaml", "ml")
        .into_iter()
        .filter(|p| allocates(p))
        .collect();
    assert!(paths.len() >= 5, "the programs that allocate references");
    for path in paths {
        let checked = horef_si::frontend::load_core(&path).expect("loads");
        let error = emit(&horef_si::lower::lower(&checked).ir).expect_err("no Boogie form");
        assert!(error.to_string().contains("constant map"), "{error}");
    }
}

#[test]
fn boogie_and_ir_programs_keep_their_verdicts_as_boogie() {
    let mut paths = files("tests/boogie", "bpl");
    paths.extend(files("boogie_like/examples", "ir"));
    // The one example with a constant map has no Boogie form here (a named error).
    paths.retain(|p| !p.to_string_lossy().contains("map_heap"));
    check_all(&paths, 60);
}

#[test]
fn a_constant_map_is_a_named_error() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("boogie_like/examples/map_heap/program.ir");
    let ir = ir_of(&path).expect("the example loads");
    let error = emit(&ir).expect_err("no Boogie form");
    assert!(error.to_string().contains("constant map"), "{error}");
}

#[test]
fn the_command_prints_boogie_or_names_what_it_cannot() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = |file: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_horef-si"))
            .args(["lower", "--emit", "boogie"])
            .arg(root.join(file))
            .output()
            .expect("run horef-si")
    };
    let ok = run("tests/ocaml/mc91_e.ml");
    assert_eq!(ok.status.code(), Some(0), "{ok:?}");
    let text = String::from_utf8(ok.stdout).expect("utf-8");
    let file = SourceFile::new("mc91_e.bpl".to_string(), text);
    assert!(translate(&file, None).is_ok(), "{}", file.text);
    let refused = run("boogie_like/examples/map_heap/program.ir");
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("unsupported by --emit boogie: the constant map"),
        "{stderr}"
    );
    assert!(refused.stdout.is_empty());
}

/// The IR program of a Boogie or IR file.
fn ir_of(path: &std::path::Path) -> Option<boogie_like::Program> {
    match horef_si::frontend::load(path, Default::default()).ok()? {
        horef_si::frontend::Loaded::Ir(ir) => Some(ir),
        horef_si::frontend::Loaded::Core(_) => None,
    }
}
