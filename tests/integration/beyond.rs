//! The probe past the bound (`src/engine/search/beyond.rs`): while a run waits for a proof, the
//! search at K + 1 and K + 2 finds a failure just past the bound (so no proof can exist),
//! and finds none in a program that is safe. Needs `z3` on PATH.

use horef_si::engine::search::beyond;
use horef_si::engine::search::call_bounds::CallBounds;
use horef_si::engine::search::driver::{Limits, Mode, StopSignal};
use horef_si::engine::{Options, verify_horef};
use horef_si::frontend::load_bytes;
use horef_si::solver::SolverConfig;
use std::time::{Duration, Instant};

/// `g` runs at depth 2 and fails for `a = 5`: safe within depth 1, a failure within 2.
const FAILS_AT_DEPTH_2: &str = "Methods:\ng (n:Int) :Unit = assert (n != 5);\n\
                                f (n:Int) :Unit = g n;\nMain (a:Int) :Unit:\n  f a\n";

/// The same calls, never failing.
const SAFE: &str = "Methods:\ng (n:Int) :Unit = assert (n == n);\n\
                    f (n:Int) :Unit = g n;\nMain (a:Int) :Unit:\n  f a\n";

fn probe(text: &str, searched_depth: u32) -> Option<u32> {
    let checked = load_bytes("p.horef", text.as_bytes()).expect("loads");
    let ir = horef_si::lower::lower(&checked).ir;
    let limits = Limits {
        max_depth: searched_depth,
        first_bound: 1,
        final_bound: true,
        mode: Mode::Si,
        deadline: None,
        policy: Options::default().policy,
        summaries: true,
        stop: StopSignal::default(),
        bounds: CallBounds::default(),
        facts: Default::default(),
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    std::thread::scope(|scope| {
        let probe = beyond::start(scope, &ir, &SolverConfig::default(), &limits, deadline)
            .expect("the probe's solver starts");
        // Wait for its search to end on its own (these are tiny).
        let waited = Instant::now();
        while !probe.has_ended() && waited.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(5));
        }
        probe.finish()
    })
}

#[test]
fn a_failure_just_past_the_bound_is_found() {
    assert_eq!(probe(FAILS_AT_DEPTH_2, 1), Some(2));
    // From K = 0, depth 2 is two past the bound: still in reach.
    assert_eq!(probe(FAILS_AT_DEPTH_2, 0), Some(2));
}

#[test]
fn a_safe_program_gives_the_probe_nothing() {
    assert_eq!(probe(SAFE, 1), None);
}

#[test]
fn the_verdict_within_the_bound_stays_safe_and_names_the_failure_past_it() {
    let checked = load_bytes("p.horef", FAILS_AT_DEPTH_2.as_bytes()).expect("loads");
    let options = Options {
        max_depth: 1,
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
