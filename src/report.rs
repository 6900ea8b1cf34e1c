//! Printing an engine [`Outcome`]: human-readable text or JSON with stable keys, and the
//! exit code (0 verified/safe, 10 bug, 5 unknown, 6 solver error).

use crate::engine::CallBounds;
use crate::engine::Outcome;
use crate::engine::verdict::{UnknownReason, Verdict, safe_within};
use crate::exit_code::ExitCode;
use crate::span::SourceFile;
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

/// How much the human report says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Verbosity {
    /// The verdict line alone (`-q`).
    Quiet,
    /// The verdict with its evidence; a long proof cut to its first summaries.
    #[default]
    Normal,
    /// Also the whole proof and the statistics (`-v`).
    Verbose,
}

/// A proof longer than this many summaries is cut in the normal report.
const PROOF_LINES_SHOWN: usize = 6;

/// What the human report knows beside the outcome.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    pub max_depth: u32,
    pub bounds: &'a CallBounds,
    pub verbosity: Verbosity,
    /// The program's file name: a BUG's location names it.
    pub file: &'a str,
    /// The program's source, when there is one: a BUG shows the failing line.
    pub source: Option<&'a SourceFile>,
    /// The command that runs the failing input concretely, when there is one.
    pub reproduce: Option<&'a str>,
}

/// The flags that make `verify` wait longer for a proof than by default.
pub const WAIT_LONGER: &str = "`--proof-wait SECONDS` or `--proof-wait budget`";

/// The human-readable report: the verdict first, then inputs, trace and statistics.
pub fn human(outcome: &Outcome, context: &Context<'_>) -> String {
    let mut out = vec![outcome.verdict.headline()];
    if context.verbosity == Verbosity::Quiet {
        return out.join("\n");
    }
    let (max_depth, bounds) = (context.max_depth, context.bounds);
    match &outcome.verdict {
        Verdict::Verified => {
            out.push("  no input makes an assertion fail, at any depth".into());
            if let Some(proof) = &outcome.proof {
                out.extend(proof_lines(proof.lines(), context.verbosity));
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
            match (&outcome.no_proof, outcome.wait_ended) {
                (Some(why), Some(_)) => out.push(format!(
                    "  no proof for every depth: {why} ({WAIT_LONGER} waits longer)"
                )),
                (Some(why), None) => out.push(format!("  no proof for every depth: {why}")),
                (None, _) => {}
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
            let file = context.file;
            out.push(format!(
                "  failure at {file}:{failure} ({kind}), within {within}; confirmed by concrete replay"
            ));
            out.extend(context.source.and_then(|f| source_line(f, failure)));
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
    if let (Verdict::Bug { .. }, Some(command)) = (&outcome.verdict, context.reproduce) {
        out.push(format!("  reproduce with: {command}"));
    }
    if context.verbosity == Verbosity::Verbose {
        let s = &outcome.stats;
        out.push(format!(
            "  stats: {} ms ({} ms in the solver), {}, {}, peak {}, mode {}",
            s.time_ms,
            s.solver_ms,
            counted(s.solver_calls, ("solver call", "solver calls")),
            counted(s.inlined, ("instance inlined", "instances inlined")),
            counted(s.open_sites, ("open call site", "open call sites")),
            s.mode
        ));
        if let Some(a) = &s.abstraction {
            out.push(format!(
                "  abstraction: tracked {} of {} globals ({}), {}, {} ms refining",
                a.tracked.len(),
                a.globals,
                a.tracked.join(", "),
                counted(a.refinements, ("refinement", "refinements")),
                a.refine_ms
            ));
        }
    }
    out.join("\n")
}

/// `1 solver call`, `2 solver calls`: `(singular, plural)` by `n`.
fn counted(n: usize, (singular, plural): (&str, &str)) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}

/// A proof's lines: all of them with `-v`, else its first summaries and how many more.
fn proof_lines(lines: Vec<String>, verbosity: Verbosity) -> Vec<String> {
    let shown = 1 + PROOF_LINES_SHOWN;
    if verbosity == Verbosity::Verbose || lines.len() <= shown {
        return lines;
    }
    let more = lines.len() - shown;
    let mut out: Vec<String> = lines.into_iter().take(shown).collect();
    let summaries = if more == 1 { "summary" } else { "summaries" };
    out.push(format!(
        "    ... {more} more {summaries} (-v shows the whole proof)"
    ));
    out
}

/// The failing line of `file` under a BUG, with a marker at the column of `at` (`L:C`).
fn source_line(file: &SourceFile, at: &str) -> Option<String> {
    let (line, col) = at.split_once(':')?;
    let (line, col): (usize, usize) = (line.parse().ok()?, col.parse().ok()?);
    let count = file.line_index(file.text.len()) + 1;
    if line == 0 || line > count {
        return None;
    }
    let text = &file.text[file.line_range(line - 1)];
    let text = text.trim_end_matches(['\n', '\r']);
    let width = line.to_string().len();
    let marker: String = text
        .chars()
        .take(col.saturating_sub(1))
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    Some(format!(
        "  {line:>width$} | {text}\n  {:>width$} | {marker}^",
        ""
    ))
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

/// The JSON document of a run whose input did not load: `verdict` is `input_error`, and
/// `error` the diagnostics as the terminal shows them (docs/json.md).
pub fn input_error_json(file: &str, message: &str) -> Json {
    json!({ "file": file, "verdict": "input_error", "error": message, "exit_code": ExitCode::Input as i32 })
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn counts_take_the_right_number() {
        let calls = ("solver call", "solver calls");
        assert_eq!(counted(1, calls), "1 solver call");
        assert_eq!(counted(2, calls), "2 solver calls");
        assert_eq!(counted(0, calls), "0 solver calls");
    }
}
