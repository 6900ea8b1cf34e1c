//! Printing an engine [`Outcome`]: human-readable text or JSON with stable keys, and the
//! exit code (0 verified/safe, 10 bug, 5 unknown, 6 solver error).

use crate::engine::Outcome;
use crate::engine::search::call_bounds::CallBounds;
use crate::engine::verdict::{UnknownReason, Verdict, safe_within};
use crate::exit_code::ExitCode;
use serde_json::{Value as Json, json};

/// The exit code of a verdict.
pub fn exit_code(verdict: &Verdict) -> ExitCode {
    match verdict {
        Verdict::Verified | Verdict::SafeUpTo { .. } => ExitCode::Ok,
        Verdict::Bug { .. } => ExitCode::Failure,
        Verdict::Unknown {
            reason: UnknownReason::SolverError(_),
        } => ExitCode::Internal,
        Verdict::Unknown { .. } => ExitCode::Inconclusive,
    }
}

/// The human-readable report: the verdict first, then inputs, trace and statistics.
pub fn human(outcome: &Outcome, max_depth: u32, bounds: &CallBounds) -> String {
    let mut out = vec![outcome.verdict.headline()];
    match &outcome.verdict {
        Verdict::Verified => {
            out.push("  no input makes an assertion fail, at any depth".into());
            if let Some(proof) = &outcome.proof {
                out.extend(proof.lines());
            }
            if let Some(how) = &outcome.rechecked {
                out.push(format!("  {how}"));
            }
        }
        Verdict::SafeUpTo { depth, bounds } => {
            out.push(if bounds.is_none() {
                format!("  no input makes an assertion fail without calls deeper than {depth}")
            } else {
                let within = safe_within(*depth, bounds);
                format!("  no input makes an assertion fail within {within}")
            });
            if let Some(why) = &outcome.no_proof {
                out.push(format!("  no proof for every depth: {why}"));
            }
        }
        Verdict::Unknown { reason } => out.push(format!("  reason: {}", reason.describe())),
        Verdict::Bug {
            inputs,
            failure,
            kind,
            trace,
            fresh,
            cells,
        } => {
            let shown: Vec<String> = inputs.iter().map(|(n, v)| format!("{n} = {v}")).collect();
            out.push(format!(
                "  inputs: {}",
                if shown.is_empty() {
                    "none".into()
                } else {
                    shown.join(", ")
                }
            ));
            if !fresh.is_empty() {
                let shown: Vec<String> =
                    fresh.iter().map(|(at, v)| format!("{v} at {at}")).collect();
                out.push(format!("  fresh inputs, in order: {}", shown.join(", ")));
            }
            let within = safe_within(max_depth, bounds);
            out.push(format!(
                "  failure at {failure} ({kind}), within {within}; confirmed by concrete replay"
            ));
            if !trace.is_empty() {
                out.push("  calls:".into());
                for step in trace {
                    out.push(format!(
                        "  {:indent$}{}({}) at {}, depth {}",
                        "",
                        step.function,
                        step.args.join(", "),
                        step.at,
                        step.depth,
                        indent = 2 * step.depth as usize
                    ));
                }
            }
            if !cells.is_empty() {
                out.push("  cells, as the failing run left them:".into());
                for note in cells {
                    out.push(format!(
                        "    {} allocated at {}, holds {}",
                        note.cell, note.allocated, note.holds
                    ));
                }
            }
        }
    }
    let s = &outcome.stats;
    out.push(format!(
        "  stats: {} ms ({} ms in the solver), {} solver calls, {} instances inlined, \
         peak {} open call sites, mode {}",
        s.time_ms, s.solver_ms, s.solver_calls, s.inlined, s.open_sites, s.mode
    ));
    out.join("\n")
}

/// What a JSON report says about where it comes from.
#[derive(Clone, Debug)]
pub struct Provenance {
    /// The file verified, as named on the command line.
    pub file: String,
    /// The solver program (`z3`, `cvc5`) and its version, if it could be told.
    pub solver: String,
    pub solver_version: Option<String>,
}

/// The JSON report with stable keys (docs/json.md lists them).
pub fn json(
    outcome: &Outcome,
    (max_depth, bounds): (u32, &CallBounds),
    provenance: &Provenance,
) -> Json {
    let (inputs, confirmed, trace, reason, failure) = match &outcome.verdict {
        Verdict::Bug {
            inputs,
            failure,
            kind,
            trace,
            ..
        } => (
            Json::Object(inputs.iter().map(|(n, v)| (n.clone(), json!(v))).collect()),
            json!(true),
            json!(trace),
            Json::Null,
            json!({ "at": failure, "kind": kind }),
        ),
        Verdict::Unknown { reason } => (
            Json::Null,
            json!(false),
            json!([]),
            json!(reason.describe()),
            Json::Null,
        ),
        _ => (Json::Null, json!(false), json!([]), Json::Null, Json::Null),
    };
    json!({
        "file": provenance.file,
        "tool": { "name": env!("CARGO_PKG_NAME"), "version": env!("CARGO_PKG_VERSION") },
        "solver": { "name": provenance.solver, "version": provenance.solver_version },
        "verdict": outcome.verdict.key(),
        "max_depth": max_depth,
        "recursion_bound": bounds.recursion,
        "stack_depth_bound": bounds.stack_depth,
        "inputs": inputs,
        "fresh": fresh_json(&outcome.verdict),
        "cells": cells_json(&outcome.verdict),
        "confirmed": confirmed,
        "failure": failure,
        "trace": trace,
        "reason": reason,
        "proof": outcome.proof,
        "no_proof": outcome.no_proof,
        "rechecked": outcome.rechecked,
        "stats": outcome.stats,
    })
}

/// The cells of a bug's replay as `[{"cell": "<cell 0>", "allocated": "L:C", "holds": "v"}]`
/// (empty otherwise).
fn cells_json(verdict: &Verdict) -> Json {
    match verdict {
        Verdict::Bug { cells, .. } => json!(cells),
        _ => json!([]),
    }
}

/// The fresh inputs of a bug as `[{"at": "L:C", "value": "v"}, ...]` (empty otherwise).
fn fresh_json(verdict: &Verdict) -> Json {
    match verdict {
        Verdict::Bug { fresh, .. } => fresh
            .iter()
            .map(|(at, v)| json!({ "at": at, "value": v }))
            .collect(),
        _ => json!([]),
    }
}
