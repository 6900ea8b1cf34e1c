//! One benchmark run as a CSV row, and reading/writing such files.

use serde::{Deserialize, Serialize};
use std::path::Path;

/// A run of `horef-si verify` on one program at one depth bound in one mode.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Row {
    pub suite: String,
    pub program: String,
    pub lines: usize,
    #[serde(rename = "K")]
    pub k: u32,
    pub mode: String,
    /// `bug`, `verified`, `safe_up_to_depth`, `unknown`, `timeout` or `error`.
    pub verdict: String,
    /// `bug`, `no_bug` or `-` (nothing claimed at this K).
    pub expected: String,
    /// `correct`, `wrong`, `unknown` or `unchecked`.
    pub outcome: String,
    pub seconds: f64,
}

impl Row {
    /// The verdict class: `bug`, `no_bug` or `unknown`.
    pub fn class(&self) -> &'static str {
        class_of(&self.verdict)
    }

    /// Did the run answer (BUG, VERIFIED or SAFE)?
    pub fn answered(&self) -> bool {
        self.class() != "unknown"
    }
}

/// The class of a verdict string.
pub fn class_of(verdict: &str) -> &'static str {
    match verdict {
        "bug" => "bug",
        "verified" | "safe_up_to_depth" => "no_bug",
        _ => "unknown",
    }
}

/// Judges a verdict against what was expected.
pub fn outcome(verdict: &str, expected: &str) -> &'static str {
    match (class_of(verdict), expected) {
        (_, "-") => "unchecked",
        ("unknown", _) => "unknown",
        (class, expected) if class == expected => "correct",
        _ => "wrong",
    }
}

/// Reads rows from CSV files (for re-plotting without re-running).
pub fn read_all(paths: &[impl AsRef<Path>]) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for path in paths {
        let path = path.as_ref();
        let mut reader =
            csv::Reader::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for row in reader.deserialize() {
            rows.push(row.map_err(|e| format!("{}: {e}", path.display()))?);
        }
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judges_verdicts() {
        assert_eq!(outcome("bug", "bug"), "correct");
        assert_eq!(outcome("verified", "no_bug"), "correct");
        assert_eq!(outcome("safe_up_to_depth", "bug"), "wrong");
        assert_eq!(outcome("timeout", "bug"), "unknown");
        assert_eq!(outcome("bug", "-"), "unchecked");
    }
}
