//! Printing a suite's results: a table for people, JSON for scripts, JUnit XML for CI.
//!
//! Guarantees: the rows appear in the order given (sorted by path, then depth) and every
//! column but the time is a function of the row alone, so the same suite prints the same
//! table whatever `--jobs` is (a row answered by the result cache shows `cached` as its
//! time); the human format ends with the line `N passed, M failed`
//! alone on its line; the JSON is one object (`rows` plus totals) and the JUnit XML is one
//! well-formed document (text escaped, characters XML cannot hold replaced).

mod sarif;

use super::exec::{Got, Row};
use crate::engine::verdict::Verdict;
use serde_json::{Value as Json, json};
use std::fmt::Write as _;

/// How `suite` prints its results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SuiteFormat {
    /// A table, failure details, then `N passed, M failed`.
    Human,
    /// One JSON object: `rows` and the totals.
    Json,
    /// JUnit XML: one testsuite, one testcase per run.
    Junit,
    /// SARIF 2.1.0: one result per bug, and per run that failed its expectation.
    Sarif,
}

/// `N passed, M failed`.
pub fn summary_line(rows: &[Row]) -> String {
    let passed = rows.iter().filter(|r| r.passed()).count();
    format!("{passed} passed, {} failed", rows.len() - passed)
}

/// The output in `format` (the human format includes the summary line).
pub fn render(rows: &[Row], format: SuiteFormat) -> String {
    match format {
        SuiteFormat::Human => human(rows),
        SuiteFormat::Json => json(rows),
        SuiteFormat::Junit => junit(rows),
        SuiteFormat::Sarif => sarif(rows),
    }
}

// ----- human -----

const HEADINGS: [&str; 5] = ["result", "file", "depth", "expected", "got"];

/// The table, the details of each failure, and the summary line.
pub fn human(rows: &[Row]) -> String {
    let cells: Vec<[String; 5]> = rows.iter().map(cells).collect();
    let widths = column_widths(&cells);
    let mut out = String::new();
    let headings = table_line(&HEADINGS.map(String::from), &widths);
    let _ = writeln!(out, "{headings}  {:>9}", "time");
    for (row, line) in rows.iter().zip(&cells) {
        let time = if row.cached {
            "cached".to_string()
        } else {
            seconds(row, 2) + " s"
        };
        let _ = writeln!(out, "{}  {time:>9}", table_line(line, &widths));
    }
    let failures: Vec<String> = rows.iter().filter(|r| !r.passed()).map(failure).collect();
    if !failures.is_empty() {
        let _ = writeln!(out, "\nfailures:\n{}", failures.join("\n"));
    }
    let _ = writeln!(out, "{}", summary_line(rows));
    out
}

fn cells(row: &Row) -> [String; 5] {
    [
        if row.passed() { "ok" } else { "FAIL" }.to_string(),
        row.run.path.display().to_string(),
        row.run.depth.to_string(),
        expected_text(row),
        got_text(&row.got),
    ]
}

fn column_widths(cells: &[[String; 5]]) -> [usize; 5] {
    let mut widths = HEADINGS.map(str::len);
    for line in cells {
        for (w, cell) in widths.iter_mut().zip(line) {
            *w = (*w).max(cell.chars().count());
        }
    }
    widths
}

/// One line of the table; the depth is right-aligned.
fn table_line(cells: &[String; 5], widths: &[usize; 5]) -> String {
    let [result, file, depth, expected, got] = cells;
    format!(
        "{result:<w0$}  {file:<w1$}  {depth:>w2$}  {expected:<w3$}  {got:<w4$}",
        w0 = widths[0],
        w1 = widths[1],
        w2 = widths[2],
        w3 = widths[3],
        w4 = widths[4],
    )
}

fn expected_text(row: &Row) -> String {
    row.run
        .expected
        .map_or_else(|| "-".to_string(), |e| e.to_string())
}

fn got_text(got: &Got) -> String {
    match got {
        Got::Verdict(verdict) => verdict.headline(),
        Got::LoadError(_) => "ERROR: does not load".to_string(),
        Got::Crashed(_) => "ERROR: verifier crashed".to_string(),
        Got::NoExpectation => "ERROR: no expectation".to_string(),
    }
}

/// The seconds a row took, with `decimals` decimals.
fn seconds(row: &Row, decimals: usize) -> String {
    format!("{:.decimals$}", row.time.as_secs_f64())
}

/// What went wrong in a failed row, for the lines after the table.
fn failure(row: &Row) -> String {
    let at = format!("{} at depth {}", row.run.path.display(), row.run.depth);
    format!("  {at}: {}", detail(row))
}

/// The explanation of a row: what was expected and what came, with the evidence.
pub(crate) fn detail(row: &Row) -> String {
    let expected = expected_text(row);
    match &row.got {
        Got::NoExpectation => "no `(* expect: ... *)` in the header: add one, \
                               e.g. `(* expect: bug within 2 *)` (see docs/suite.md)"
            .to_string(),
        Got::LoadError(message) => format!("does not load:\n{}", indent(message, 6)),
        Got::Crashed(message) => format!("the verifier crashed: {message}"),
        Got::Verdict(verdict) => {
            format!("expected {expected}, got {}", verdict_detail(verdict))
        }
    }
}

fn verdict_detail(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Bug {
            inputs,
            failure,
            kind,
            ..
        } => {
            let inputs: Vec<String> = inputs.iter().map(|(n, v)| format!(" {n}={v}")).collect();
            let with = if inputs.is_empty() { "" } else { " with" };
            format!("BUG ({kind} at {failure}{with}{})", inputs.concat())
        }
        Verdict::Unknown { reason } => format!("UNKNOWN ({})", reason.describe()),
        other => other.headline(),
    }
}

fn indent(text: &str, by: usize) -> String {
    text.lines()
        .map(|l| format!("{:by$}{l}", ""))
        .collect::<Vec<_>>()
        .join("\n")
}

// ----- JSON -----

/// `{"rows": [...], "passed": N, "failed": M, "total": T}`.
pub fn json(rows: &[Row]) -> String {
    let passed = rows.iter().filter(|r| r.passed()).count();
    let value = json!({
        "rows": rows.iter().map(json_row).collect::<Vec<_>>(),
        "passed": passed,
        "failed": rows.len() - passed,
        "total": rows.len(),
    });
    format!("{value:#}\n")
}

fn json_row(row: &Row) -> Json {
    json!({
        "file": row.run.path.display().to_string(),
        "depth": row.run.depth,
        "expected": row.run.expected.map(|e| e.to_string()),
        "expected_key": row.run.expected.map(|e| e.key()),
        "got": got_text(&row.got),
        "verdict": match &row.got {
            Got::Verdict(v) => v.key(),
            _ => "error",
        },
        "passed": row.passed(),
        "time_ms": row.time.as_millis() as u64,
        "cached": row.cached,
        "detail": (!row.passed()).then(|| detail(row)),
    })
}

// ----- SARIF -----

/// The SARIF 2.1.0 log (`crate::exchange::sarif`), pretty-printed.
pub fn sarif(rows: &[Row]) -> String {
    let log = sarif::suite_log(rows);
    let text = serde_json::to_string_pretty(&log)
        .unwrap_or_else(|e| panic!("internal error: a SARIF log does not serialise: {e}"));
    format!("{text}\n")
}

// ----- JUnit -----

/// One `<testsuite>` in a `<testsuites>`, one `<testcase>` per run: `<failure>` for a
/// verdict that does not match, `<error>` for a program that has no expectation, does not
/// load, or crashed the verifier.
pub fn junit(rows: &[Row]) -> String {
    let failures = rows.iter().filter(|r| is_mismatch(r)).count();
    let errors = rows.iter().filter(|r| !r.passed()).count() - failures;
    let total: f64 = rows.iter().map(|r| r.time.as_secs_f64()).sum();
    let counts = format!(
        "tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"0\" time=\"{total:.3}\"",
        rows.len()
    );
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(out, "<testsuites name=\"horef-si suite\" {counts}>");
    let _ = writeln!(out, "  <testsuite name=\"horef-si suite\" {counts}>");
    for row in rows {
        out.push_str(&testcase(row));
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

fn is_mismatch(row: &Row) -> bool {
    !row.passed() && matches!(row.got, Got::Verdict(_))
}

fn testcase(row: &Row) -> String {
    let file = xml_escape(&row.run.path.display().to_string());
    let open = format!(
        "    <testcase classname=\"{file}\" name=\"depth {}\" file=\"{file}\" time=\"{}\"",
        row.run.depth,
        seconds(row, 3)
    );
    if row.passed() {
        return format!("{open}/>\n");
    }
    let tag = if is_mismatch(row) { "failure" } else { "error" };
    let message = xml_escape(&format!(
        "expected {}, got {}",
        expected_text(row),
        got_text(&row.got)
    ));
    format!(
        "{open}>\n      <{tag} message=\"{message}\" type=\"{tag}\">{}</{tag}>\n    </testcase>\n",
        xml_escape(&detail(row))
    )
}

/// Escapes markup characters and replaces characters XML 1.0 cannot hold.
pub fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escape_handles_markup_and_control_characters() {
        assert_eq!(
            xml_escape("a<b & \"c\">'"),
            "a&lt;b &amp; &quot;c&quot;&gt;&apos;"
        );
        assert_eq!(xml_escape("x\u{1}y\tz"), "x\u{FFFD}y\tz");
    }
}
