//! The probe past the bound (`src/engine/search/beyond.rs`, whose unit tests run the probe
//! itself) seen from a run: the verdict stays SAFE UP TO the bound and names the failure
//! just past it as the reason no proof came. Needs `z3` on PATH.

use horef_si::engine::{Options, ProofWait, verify_horef};
use horef_si::frontend::load_bytes;

/// `g` runs at depth 2 and fails for `a = 5`: safe within depth 1, a failure within 2.
const FAILS_AT_DEPTH_2: &str = "Methods:\ng (n:Int) :Unit = assert (n != 5);\n\
                                f (n:Int) :Unit = g n;\nMain (a:Int) :Unit:\n  f a\n";

#[test]
fn the_verdict_within_the_bound_stays_safe_and_names_the_failure_past_it() {
    let checked = load_bytes("p.horef", FAILS_AT_DEPTH_2.as_bytes()).expect("loads");
    // A wait long enough to start the proof engines (the default wait, as long as this
    // tiny search, is too short to start Spacer and the probe at all).
    let options = Options {
        max_depth: 1,
        proof_wait: ProofWait::Budget,
        ..Options::default()
    };
    let outcome = verify_horef(&checked, &options);
    assert_eq!(outcome.verdict.headline(), "SAFE UP TO DEPTH 1");
    // Spacer may refute the clauses first; either way no proof is claimed.
    let why = outcome.no_proof.unwrap_or_default();
    assert!(
        why.contains("past the bound") || why.contains("counterexample"),
        "{why}"
    );
}
