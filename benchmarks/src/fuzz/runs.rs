//! Concrete runs as the oracles use them, for any language with a reference interpreter:
//! the least bound at which an input fails, the failing inputs of a grid, and the replay of
//! a reported bug. [`super::oracle`] (HORef and OCaml, the HORef interpreter) and
//! [`super::ir_oracle`] (Boogie, the IR interpreter) each say how to run one program
//! ([`Reference`]); the rules are the same for both.
//!
//! Guarantees: a run at bound K is the run at a larger bound cut short at the first call
//! deeper than K, so only inputs that fail (or run out of fuel) at the largest bound are run
//! at smaller ones; every run is counted in [`Report::runs`].

use super::findings::{Defect, Failing, Report};
use std::fmt::Debug;

/// One program's reference semantics.
pub(super) trait Reference {
    type Value;
    type Outcome: Debug;

    /// Runs `inputs` with every call deeper than `k` cut off (counted in `report`).
    fn run(&self, inputs: &[Self::Value], k: u32, report: &mut Report) -> Self::Outcome;

    /// Where the run failed, written as `verify` writes a BUG's failure; `None` if it did not.
    fn failure(&self, outcome: &Self::Outcome) -> Option<String>;

    /// Whether the run ended for want of fuel.
    fn out_of_fuel(&self, outcome: &Self::Outcome) -> bool;

    /// The inputs, as a failing input is shown.
    fn show(&self, inputs: &[Self::Value]) -> String;
}

/// The least bound at which `inputs` fail, knowing they fail at `known`.
pub(super) fn least_failing_depth<R: Reference>(
    program: &R,
    inputs: &[R::Value],
    known: u32,
    report: &mut Report,
) -> u32 {
    (0..known)
        .find(|&k| {
            let outcome = program.run(inputs, k, report);
            program.failure(&outcome).is_some()
        })
        .unwrap_or(known)
}

/// Every input of `grid` that fails within `max_k`, with the least bound it fails at.
pub(super) fn grid_failures<R: Reference>(
    program: &R,
    grid: Vec<Vec<R::Value>>,
    max_k: u32,
    report: &mut Report,
) -> Vec<Failing> {
    let mut out = Vec::new();
    for inputs in grid {
        let outcome = program.run(&inputs, max_k, report);
        let depth = if program.failure(&outcome).is_some() {
            least_failing_depth(program, &inputs, max_k, report)
        } else if program.out_of_fuel(&outcome) {
            let fails_at = |k: &u32, report: &mut Report| {
                let o = program.run(&inputs, *k, report);
                program.failure(&o).is_some()
            };
            match (0..max_k).find(|k| fails_at(k, report)) {
                Some(k) => k,
                None => continue,
            }
        } else {
            continue;
        };
        let fails = program.run(&inputs, depth, report);
        let Some(at) = program.failure(&fails) else {
            continue;
        };
        out.push(Failing {
            depth,
            at,
            inputs: program.show(&inputs),
        });
    }
    out
}

/// Replays a bug reported at bound `k` as failing at `failure` on `values` (shown as
/// `shown`): the run must fail there within `k`, else `defect` says what went wrong. Returns
/// the failing input with the least bound it fails at, for the soundness checks.
pub(super) fn replay<R: Reference>(
    program: &R,
    values: &[R::Value],
    (k, failure): (u32, &str),
    shown: String,
    defect: impl Fn(String) -> Defect,
    report: &mut Report,
) -> Option<Failing> {
    let outcome = program.run(values, k, report);
    match program.failure(&outcome) {
        Some(at) if at == failure => {}
        Some(at) => {
            report
                .defects
                .push(defect(format!("the run fails at {at}, not at {failure}")));
            return None;
        }
        None => {
            report
                .defects
                .push(defect(format!("the run does not fail: {outcome:?}")));
            return None;
        }
    }
    let depth = least_failing_depth(program, values, k, report);
    Some(Failing {
        depth,
        at: failure.to_string(),
        inputs: shown,
    })
}
