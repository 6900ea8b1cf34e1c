//! Expectations: what a program claims about itself in its header, and what one run of the
//! verifier must answer for the suite to count it as passed.
//!
//! A program states its expectation in a comment before its first token:
//!
//! ```text
//! (* expect: bug within N *)    a failure is reachable with calls up to depth N, not below
//! (* expect: verified *)        VERIFIED at every bound
//! (* expect: safe up to M *)    no failure within depth M
//! ```
//!
//! Guarantees: [`header_expectation`] never panics, whatever the bytes; it finds at most one
//! expectation, only in a top-level comment of the header (comments nest as in the lexer);
//! a malformed, duplicated, unterminated or misplaced `(* expect: ... *)` is an
//! [`ExpectError`] with the 1-based line and column of the comment. [`Expected::accepts`]
//! never accepts `UNKNOWN`.

use crate::engine::verdict::Verdict;
use std::fmt;

/// What a program's header claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expectation {
    /// A failure is reachable with calls up to depth `depth`, and none below it.
    BugWithin { depth: u32 },
    /// No input fails at any depth, and the verifier proves it.
    Verified,
    /// No input fails within depth `depth`.
    SafeUpTo { depth: u32 },
}

/// The verdict one run must give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// `BUG`.
    Bug,
    /// `SAFE UP TO DEPTH depth` and nothing else (`VERIFIED` would be wrong: a bug exists deeper).
    SafeExactly { depth: u32 },
    /// `SAFE UP TO DEPTH depth` or `VERIFIED`.
    SafeOrVerified { depth: u32 },
    /// `VERIFIED`.
    Verified,
}

impl Expectation {
    /// The depth to run at under the suite's bound `k`, and the verdict that run must give.
    pub fn at_bound(self, k: u32) -> (u32, Expected) {
        match self {
            Expectation::BugWithin { depth } if k >= depth => (k, Expected::Bug),
            Expectation::BugWithin { .. } => (k, Expected::SafeExactly { depth: k }),
            Expectation::Verified => (k, Expected::Verified),
            Expectation::SafeUpTo { depth } => {
                let run_at = k.min(depth);
                (run_at, Expected::SafeOrVerified { depth: run_at })
            }
        }
    }
}

impl Expected {
    /// Whether `verdict` meets this expectation (`UNKNOWN` never does).
    pub fn accepts(self, verdict: &Verdict) -> bool {
        match (self, verdict) {
            (Expected::Bug, Verdict::Bug { .. }) => true,
            (Expected::SafeExactly { depth }, Verdict::SafeUpTo { depth: got, .. }) => {
                depth == *got
            }
            (Expected::SafeOrVerified { depth }, Verdict::SafeUpTo { depth: got, .. }) => {
                depth == *got
            }
            (Expected::SafeOrVerified { .. } | Expected::Verified, Verdict::Verified) => true,
            _ => false,
        }
    }

    /// A stable key for JSON: `bug`, `safe`, `safe_or_verified`, `verified`.
    pub fn key(self) -> &'static str {
        match self {
            Expected::Bug => "bug",
            Expected::SafeExactly { .. } => "safe",
            Expected::SafeOrVerified { .. } => "safe_or_verified",
            Expected::Verified => "verified",
        }
    }
}

impl fmt::Display for Expected {
    /// In the words of the verdict lines: `BUG`, `SAFE UP TO DEPTH 3`, `... or VERIFIED`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Bug => write!(f, "BUG"),
            Expected::SafeExactly { depth } => write!(f, "SAFE UP TO DEPTH {depth}"),
            Expected::SafeOrVerified { depth } => {
                write!(f, "SAFE UP TO DEPTH {depth} or VERIFIED")
            }
            Expected::Verified => write!(f, "VERIFIED"),
        }
    }
}

/// A value found at a 1-based line and column of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located<T> {
    pub value: T,
    pub line: usize,
    pub col: usize,
}

/// Why a header expectation cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExpectError {
    #[error(
        "malformed expectation `{text}`: write `(* expect: bug within N *)`, \
         `(* expect: verified *)` or `(* expect: safe up to M *)` (N, M: depths 0, 1, 2, ...)"
    )]
    Malformed { text: String },
    #[error("a second expectation (the first is on line {first_line}); a program states one")]
    Duplicate { first_line: usize },
    #[error(
        "the expectation comes after the program has started; put it in the header, \
         before `Store:`, `Methods:` or `Main`"
    )]
    NotInHeader,
    #[error("the expectation comment is never closed with `*)`")]
    Unterminated,
}

/// The program's header expectation, if it states one.
pub fn header_expectation(
    text: &str,
) -> Result<Option<Located<Expectation>>, Located<ExpectError>> {
    let mut found: Option<Located<Expectation>> = None;
    for comment in top_level_comments(text) {
        let Some(body) = expect_body(comment.inner) else {
            continue;
        };
        let (line, col) = line_col(text, comment.start);
        let expectation = check_comment(&comment, body, found.as_ref())
            .map_err(|value| Located { value, line, col })?;
        found = Some(Located {
            value: expectation,
            line,
            col,
        });
    }
    Ok(found)
}

/// The expectation of one `(* expect: ... *)` comment, given the one found before it.
fn check_comment(
    comment: &Comment<'_>,
    body: &str,
    earlier: Option<&Located<Expectation>>,
) -> Result<Expectation, ExpectError> {
    if !comment.closed {
        return Err(ExpectError::Unterminated);
    }
    if !comment.in_header {
        return Err(ExpectError::NotInHeader);
    }
    if let Some(first) = earlier {
        return Err(ExpectError::Duplicate {
            first_line: first.line,
        });
    }
    parse_expectation(body)
}

/// The text after `expect:` when a comment is an expectation.
fn expect_body(inner: &str) -> Option<&str> {
    inner.trim_start().strip_prefix("expect:")
}

/// `bug within N`, `verified` or `safe up to M` (any whitespace between the words).
pub fn parse_expectation(body: &str) -> Result<Expectation, ExpectError> {
    let words: Vec<&str> = body.split_whitespace().collect();
    let malformed = || ExpectError::Malformed {
        text: words.join(" "),
    };
    let depth = |w: &str| w.parse::<u32>().map_err(|_| malformed());
    match words.as_slice() {
        ["verified"] => Ok(Expectation::Verified),
        ["bug", "within", n] => Ok(Expectation::BugWithin { depth: depth(n)? }),
        ["safe", "up", "to", m] => Ok(Expectation::SafeUpTo { depth: depth(m)? }),
        _ => Err(malformed()),
    }
}

/// A top-level `(* ... *)` comment.
#[derive(Debug)]
struct Comment<'a> {
    /// Byte offset of its `(*`.
    start: usize,
    /// The text between `(*` and `*)` (to the end of the file when unterminated).
    inner: &'a str,
    closed: bool,
    /// Whether only whitespace and comments come before it.
    in_header: bool,
}

/// Every top-level comment of `text`, in order. HORef has no string literals, so every
/// `(*` outside a comment opens one, exactly as in the lexer.
fn top_level_comments(text: &str) -> Vec<Comment<'_>> {
    let bytes = text.as_bytes();
    let mut comments = Vec::new();
    let mut in_header = true;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"(*") {
            let (end, closed) = comment_end(bytes, i);
            let inner_end = if closed { end - 2 } else { end };
            let inner = &text[i + 2..inner_end.max(i + 2)];
            comments.push(Comment {
                start: i,
                inner,
                closed,
                in_header,
            });
            i = end;
        } else {
            in_header &= bytes[i].is_ascii_whitespace();
            i += 1;
        }
    }
    comments
}

/// The offset just after the comment opened at `start`, and whether it is closed.
fn comment_end(bytes: &[u8], start: usize) -> (usize, bool) {
    let mut depth = 0usize;
    let mut i = start;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"(*") {
            depth += 1;
            i += 2;
        } else if bytes[i..].starts_with(b"*)") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return (i, true);
            }
        } else {
            i += 1;
        }
    }
    (bytes.len(), false)
}

/// The 1-based line and column (in characters) of byte `offset`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The expectation with its line and column, or the error with its line.
    type Found = Result<Option<(Expectation, usize, usize)>, (ExpectError, usize)>;

    fn header(text: &str) -> Found {
        header_expectation(text)
            .map(|found| found.map(|l| (l.value, l.line, l.col)))
            .map_err(|e| (e.value, e.line))
    }

    #[test]
    fn the_three_forms_parse() {
        let bug = header("(* expect: bug within 3 *)\nMain () :Unit: skip");
        assert_eq!(bug, Ok(Some((Expectation::BugWithin { depth: 3 }, 1, 1))));
        let verified = header("(* a program *)\n  (*expect:   verified*)\nMain () :Unit: skip");
        assert_eq!(verified, Ok(Some((Expectation::Verified, 2, 3))));
        let safe = header("(* x *) (* expect: safe up to 15 *)\nMain () :Unit: skip");
        assert_eq!(safe, Ok(Some((Expectation::SafeUpTo { depth: 15 }, 1, 9))));
    }

    #[test]
    fn no_expectation_is_none_and_nested_ones_do_not_count() {
        assert_eq!(header("Main () :Unit: skip"), Ok(None));
        assert_eq!(
            header("(* see (* expect: verified *) *)\nMain () :Unit: skip"),
            Ok(None)
        );
        assert_eq!(header("(* expected: verified *)"), Ok(None));
    }

    #[test]
    fn bad_expectations_are_errors_with_their_line() {
        let malformed = header("(* ok *)\n(* expect: bug within many *)\nMain () :Unit: skip");
        assert!(matches!(malformed, Err((ExpectError::Malformed { .. }, 2))));
        let unknown = header("(* expect: safe *)");
        assert!(matches!(unknown, Err((ExpectError::Malformed { .. }, 1))));
        let twice = header("(* expect: verified *)\n(* expect: verified *)");
        assert_eq!(twice, Err((ExpectError::Duplicate { first_line: 1 }, 2)));
        let late = header("Main () :Unit:\n(* expect: verified *) skip");
        assert_eq!(late, Err((ExpectError::NotInHeader, 2)));
        let open = header("(* expect: verified");
        assert_eq!(open, Err((ExpectError::Unterminated, 1)));
    }

    #[test]
    fn odd_bytes_do_not_panic() {
        for text in [
            "(*",
            "(**)",
            "*)",
            "(*)",
            "é(* expect: verified *)",
            "(* é *) x",
        ] {
            let _ = header(text);
        }
        assert_eq!(
            header("(**)(* expect: verified *)"),
            Ok(Some((Expectation::Verified, 1, 5)))
        );
    }

    #[test]
    fn each_expectation_gives_a_depth_and_a_verdict() {
        let bug = Expectation::BugWithin { depth: 3 };
        assert_eq!(bug.at_bound(3), (3, Expected::Bug));
        assert_eq!(bug.at_bound(2), (2, Expected::SafeExactly { depth: 2 }));
        let safe = Expectation::SafeUpTo { depth: 4 };
        assert_eq!(
            safe.at_bound(10),
            (4, Expected::SafeOrVerified { depth: 4 })
        );
        assert_eq!(safe.at_bound(2), (2, Expected::SafeOrVerified { depth: 2 }));
        assert_eq!(Expectation::Verified.at_bound(7), (7, Expected::Verified));
    }

    #[test]
    fn unknown_never_passes_and_verified_is_not_safe_exactly() {
        use crate::engine::verdict::UnknownReason;
        let unknown = Verdict::Unknown {
            reason: UnknownReason::Timeout,
        };
        let all = [
            Expected::Bug,
            Expected::SafeExactly { depth: 1 },
            Expected::SafeOrVerified { depth: 1 },
            Expected::Verified,
        ];
        assert!(all.iter().all(|e| !e.accepts(&unknown)));
        assert!(!Expected::SafeExactly { depth: 1 }.accepts(&Verdict::Verified));
        assert!(!Expected::SafeExactly { depth: 1 }.accepts(&Verdict::safe_up_to(2)));
        assert!(Expected::SafeOrVerified { depth: 1 }.accepts(&Verdict::Verified));
    }
}
