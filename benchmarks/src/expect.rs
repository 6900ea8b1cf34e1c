//! What an expectation claims at each depth bound K, in the harness's classes, and the
//! header comment of a generated program.
//!
//! Headers are read by `horef_si::suite::expect::header_expectation` and manifests by
//! `horef_si::suite::manifest::parse_manifest`; nothing here parses either. On top of
//! them, [`Claim::at`] says what a run with `--max-depth K` must answer: `bug within N` is
//! BUG at K >= N and no bug below; `verified` is no bug at every K; `safe up to M` is no bug
//! at K <= M and claims nothing above.
//!
//! Guarantees: [`header`] writes a comment that `header_expectation` reads back as the same
//! expectation; [`from_header`] accepts exactly what `header_expectation` accepts.

use horef_si::suite::expect::{Expectation, header_expectation};
use horef_si::suite::manifest::ManifestExpect;

/// What a run at one K must answer, in the spelling of the CSV's `expected` column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    Bug,
    NoBug,
    /// Nothing is claimed at this K (`safe up to M` with K > M, or no manifest row).
    Unchecked,
}

impl Claim {
    /// The claim of `expectation` for a run with `--max-depth k`.
    pub fn at(expectation: Expectation, k: u32) -> Claim {
        match expectation {
            Expectation::BugWithin { depth } if k >= depth => Claim::Bug,
            Expectation::BugWithin { .. } | Expectation::Verified => Claim::NoBug,
            Expectation::SafeUpTo { depth } if k <= depth => Claim::NoBug,
            Expectation::SafeUpTo { .. } => Claim::Unchecked,
        }
    }

    /// `bug`, `no_bug` (as in the shared suite's `expected.csv`) or `-`.
    pub fn as_str(self) -> &'static str {
        match self {
            Claim::Bug => "bug",
            Claim::NoBug => "no_bug",
            Claim::Unchecked => "-",
        }
    }
}

impl From<ManifestExpect> for Claim {
    fn from(expect: ManifestExpect) -> Claim {
        match expect {
            ManifestExpect::Bug => Claim::Bug,
            ManifestExpect::NoBug => Claim::NoBug,
        }
    }
}

/// The header expectation of `text` (via `header_expectation`), errors as one line.
pub fn from_header(text: &str) -> Result<Option<Expectation>, String> {
    header_expectation(text)
        .map(|found| found.map(|located| located.value))
        .map_err(|e| format!("line {}, column {}: {}", e.line, e.col, e.value))
}

/// `bug within N`, `verified` or `safe up to M` (`horef_si` has no `Display` for it).
pub fn describe(expectation: Expectation) -> String {
    match expectation {
        Expectation::BugWithin { depth } => format!("bug within {depth}"),
        Expectation::Verified => "verified".to_string(),
        Expectation::SafeUpTo { depth } => format!("safe up to {depth}"),
    }
}

/// The header comment, as written at the top of a program.
pub fn header(expectation: Expectation) -> String {
    format!("(* expect: {} *)", describe(expectation))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claim_per_depth() {
        let bug = Expectation::BugWithin { depth: 3 };
        assert_eq!(Claim::at(bug, 2), Claim::NoBug);
        assert_eq!(Claim::at(bug, 3), Claim::Bug);
        assert_eq!(Claim::at(Expectation::Verified, 1), Claim::NoBug);
        let safe = Expectation::SafeUpTo { depth: 10 };
        assert_eq!(Claim::at(safe, 10), Claim::NoBug);
        assert_eq!(Claim::at(safe, 11), Claim::Unchecked);
    }

    #[test]
    fn header_round_trips() {
        for e in [
            Expectation::BugWithin { depth: 2 },
            Expectation::Verified,
            Expectation::SafeUpTo { depth: 15 },
        ] {
            assert_eq!(from_header(&header(e)), Ok(Some(e)));
        }
    }

    #[test]
    fn header_errors_name_their_place() {
        let error = from_header("(* ok *)\n(* expect: safe *)").unwrap_err();
        assert!(error.starts_with("line 2, column 1: malformed"), "{error}");
    }
}
