//! One depth semantics across languages (issue 15, item 2): each program of `tests/pairs/`
//! is written twice, in BMC-2 syntax (`X.horef`) and in OCaml (`X.ml`), and both get the
//! same verdict — a bug, or none — at every bound K from 0 to 7, and a bug at the same
//! smallest K.

use horef_si::engine::{Options, verdict::Verdict, verify_horef};
use horef_si::frontend::load_core;
use std::path::{Path, PathBuf};

const MAX_K: u32 = 7;

fn pairs() -> Vec<(PathBuf, PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pairs");
    let mut stems: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/pairs")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "horef"))
        .collect();
    stems.sort();
    stems
        .into_iter()
        .map(|h| {
            let ml = h.with_extension("ml");
            assert!(ml.exists(), "{} has no OCaml twin", h.display());
            (h, ml)
        })
        .collect()
}

/// "bug", "no bug", or the unknown verdict in full.
fn answer(path: &Path, k: u32) -> String {
    let checked = load_core(path).unwrap_or_else(|e| panic!("{}", e.render()));
    let options = Options {
        max_depth: k,
        ..Options::default()
    };
    match verify_horef(&checked, &options).verdict {
        Verdict::Bug { .. } => "bug".into(),
        Verdict::Verified | Verdict::SafeUpTo { .. } => "no bug".into(),
        other => format!("{other:?}"),
    }
}

#[test]
fn twins_in_bmc2_syntax_and_ocaml_agree_at_every_bound() {
    let pairs = pairs();
    assert!(pairs.len() >= 5, "only {} pairs", pairs.len());
    let mut compared = 0;
    for (horef, ml) in &pairs {
        let mut first_bug = None;
        for k in 0..=MAX_K {
            let (a, b) = (answer(horef, k), answer(ml, k));
            assert_eq!(
                a,
                b,
                "{} and its OCaml twin differ at K = {k}",
                horef.display()
            );
            assert!(
                a == "bug" || a == "no bug",
                "{}: {a} at K = {k}",
                horef.display()
            );
            if a == "bug" && first_bug.is_none() {
                first_bug = Some(k);
            }
            compared += 1;
        }
        assert!(
            first_bug.is_some(),
            "{}: no bug up to K = {MAX_K}",
            horef.display()
        );
    }
    println!(
        "{} pairs, {compared} (program, K) comparisons, 0 differences",
        pairs.len()
    );
}
