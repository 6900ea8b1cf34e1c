//! The Markdown tables of `benchmarks/RESULTS.md`, computed from benchmark rows.
//!
//! Guarantees: deterministic order (suites, programs and modes sorted); every number is a
//! plain count or sum over the rows given, nothing is dropped silently (unknown and wrong
//! answers are listed one by one).

use crate::record::Row;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Counts over a set of runs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub runs: usize,
    pub answered: usize,
    pub correct: usize,
    pub wrong: usize,
    pub unknown: usize,
    pub unchecked: usize,
    pub verified: usize,
    pub seconds: f64,
    pub max_seconds: f64,
}

impl Tally {
    fn add(&mut self, row: &Row) {
        self.runs += 1;
        self.answered += usize::from(row.answered());
        self.correct += usize::from(row.outcome == "correct");
        self.wrong += usize::from(row.outcome == "wrong");
        self.unknown += usize::from(!row.answered());
        self.unchecked += usize::from(row.outcome == "unchecked");
        self.verified += usize::from(row.verdict == "verified");
        self.seconds += row.seconds;
        self.max_seconds = self.max_seconds.max(row.seconds);
    }
}

/// Tallies per (suite, mode).
pub fn by_suite_and_mode(rows: &[Row]) -> BTreeMap<(String, String), Tally> {
    let mut out: BTreeMap<(String, String), Tally> = BTreeMap::new();
    for row in rows {
        out.entry((row.suite.clone(), row.mode.clone()))
            .or_default()
            .add(row);
    }
    out
}

/// The whole summary: per suite and mode, per program, the size table, the exceptions.
pub fn markdown(rows: &[Row], size_suite: &str, size_ks: &[u32]) -> String {
    let mut out = String::new();
    suite_table(&mut out, rows);
    for suite in suites(rows) {
        if suite != size_suite {
            program_table(&mut out, rows, &suite);
        }
    }
    for &k in size_ks {
        size_table(&mut out, rows, size_suite, k);
    }
    exceptions(&mut out, rows);
    out
}

fn suites(rows: &[Row]) -> Vec<String> {
    let mut names: Vec<String> = rows.iter().map(|r| r.suite.clone()).collect();
    names.sort();
    names.dedup();
    names
}

fn suite_table(out: &mut String, rows: &[Row]) {
    out.push_str("| suite | mode | runs | answered | correct | wrong | unknown | not claimed | VERIFIED | total s | max s |\n");
    out.push_str("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for ((suite, mode), t) in by_suite_and_mode(rows) {
        let _ = writeln!(
            out,
            "| {suite} | {mode} | {} | {} | {} | {} | {} | {} | {} | {:.1} | {:.2} |",
            t.runs,
            t.answered,
            t.correct,
            t.wrong,
            t.unknown,
            t.unchecked,
            t.verified,
            t.seconds,
            t.max_seconds
        );
    }
    out.push('\n');
}

fn modes(rows: &[Row]) -> Vec<String> {
    let order = |m: &str| {
        ["si", "unroll", "si-no-summaries"]
            .iter()
            .position(|x| *x == m)
    };
    let mut names: Vec<String> = rows.iter().map(|r| r.mode.clone()).collect();
    names.sort_by_key(|m| (order(m), m.clone()));
    names.dedup();
    names
}

fn program_table(out: &mut String, rows: &[Row], suite: &str) {
    let rows: Vec<Row> = rows.iter().filter(|r| r.suite == suite).cloned().collect();
    let mut per: BTreeMap<(&str, &str), Tally> = BTreeMap::new();
    let mut lines: BTreeMap<&str, usize> = BTreeMap::new();
    for row in &rows {
        per.entry((&row.program, &row.mode)).or_default().add(row);
        lines.insert(&row.program, row.lines);
    }
    let modes = modes(&rows);
    let _ = writeln!(
        out,
        "Per program, suite `{suite}` (per mode: correct / runs with a claim, total and max seconds over all K):\n"
    );
    out.push_str("| program | lines |");
    for mode in &modes {
        let _ = write!(out, " {mode} correct | {mode} total s | {mode} max s |");
    }
    out.push_str("\n|---|---:|");
    out.push_str(&"---:|---:|---:|".repeat(modes.len()));
    out.push('\n');
    for (program, n) in &lines {
        let _ = write!(out, "| {program} | {n} |");
        for mode in &modes {
            let _ = match per.get(&(*program, mode.as_str())) {
                Some(t) => write!(
                    out,
                    " {}/{} | {:.2} | {:.2} |",
                    t.correct,
                    t.runs - t.unchecked,
                    t.seconds,
                    t.max_seconds
                ),
                None => write!(out, " - | - | - |"),
            };
        }
        out.push('\n');
    }
    out.push('\n');
}

fn size_table(out: &mut String, rows: &[Row], suite: &str, k: u32) {
    let rows: Vec<Row> = rows
        .iter()
        .filter(|r| r.suite == suite && r.k == k)
        .cloned()
        .collect();
    let mut per: BTreeMap<(usize, &str), BTreeMap<&str, &Row>> = BTreeMap::new();
    for row in &rows {
        per.entry((row.lines, &row.program))
            .or_default()
            .insert(&row.mode, row);
    }
    if per.is_empty() {
        return;
    }
    let modes = modes(&rows);
    let _ = writeln!(out, "Suite `{suite}` at K = {k}:\n");
    out.push_str("| program | lines | expected |");
    for mode in &modes {
        let _ = write!(out, " {mode} verdict | {mode} s |");
    }
    out.push_str("\n|---|---:|---|");
    out.push_str(&"---|---:|".repeat(modes.len()));
    out.push('\n');
    for ((lines, program), by_mode) in &per {
        let expected = by_mode.values().next().map_or("-", |r| r.expected.as_str());
        let _ = write!(out, "| {program} | {lines} | {expected} |");
        for mode in &modes {
            let _ = match by_mode.get(mode.as_str()) {
                Some(r) => write!(out, " {} | {:.2} |", r.verdict, r.seconds),
                None => write!(out, " - | - |"),
            };
        }
        out.push('\n');
    }
    growth(out, &per);
    out.push('\n');
}

/// For the buggy programs: time at the largest size over time at the smallest >= 400 lines,
/// against the ratio of lines.
fn growth(out: &mut String, per: &BTreeMap<(usize, &str), BTreeMap<&str, &Row>>) {
    for mode in ["si", "unroll", "si-no-summaries"] {
        let points: Vec<(usize, &Row)> = per
            .iter()
            .filter(|((lines, program), _)| *lines >= 400 && program.ends_with("-e"))
            .filter_map(|((lines, _), modes)| modes.get(mode).map(|r| (*lines, *r)))
            .collect();
        if let (Some(first), Some(last)) = (points.first(), points.last())
            && last.0 > first.0
        {
            let lines = format!(
                "{} → {} lines (×{:.1})",
                first.0,
                last.0,
                last.0 as f64 / first.0 as f64
            );
            let _ = if !first.1.answered() || !last.1.answered() {
                writeln!(
                    out,
                    "\n{mode}, buggy programs: {lines}: {} ({:.2} s) → {} ({:.2} s); no ratio, not both answered.",
                    first.1.verdict, first.1.seconds, last.1.verdict, last.1.seconds
                )
            } else {
                writeln!(
                    out,
                    "\n{mode}, buggy programs: {lines} took {:.2} s → {:.2} s (×{:.1}).",
                    first.1.seconds,
                    last.1.seconds,
                    last.1.seconds / first.1.seconds.max(1e-9)
                )
            };
        }
    }
}

fn exceptions(out: &mut String, rows: &[Row]) {
    let odd: Vec<&Row> = rows
        .iter()
        .filter(|r| r.outcome == "wrong" || !r.answered())
        .collect();
    if odd.is_empty() {
        out.push_str("No wrong and no unknown answers.\n");
        return;
    }
    out.push_str("Wrong or unknown answers:\n\n| suite | program | K | mode | verdict | expected | s |\n|---|---|---:|---|---|---|---:|\n");
    for r in odd {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {:.1} |",
            r.suite, r.program, r.k, r.mode, r.verdict, r.expected, r.seconds
        );
    }
}
