//! Manifests: an `expected.csv` beside programs we cannot edit, in the format of the BMC-2
//! suite's `expected.csv` (docs/suite.md).
//!
//! ```text
//! program,k,expect,source,bmc2,bmc2_seconds
//! mc91-e,1,bug,bmc2,bug,0.070
//! ```
//!
//! The header names the columns; `program`, `k` and `expect` are required, any others are
//! ignored. `program` names `<program>.txt` in the manifest's directory, `k` is a depth,
//! `expect` is `bug` or `no_bug`. The file is CSV as the `csv` crate reads it (RFC 4180):
//! a field may be quoted (`"mc91-e"`, `"a, b"`), fields are trimmed, blank lines are
//! skipped.
//!
//! Guarantees: [`parse_manifest`] never panics; every problem is a [`ManifestError`] with the
//! 1-based line it is on; a (program, k) pair appears at most once in an accepted manifest.

use super::expect::Expected;
use std::collections::BTreeMap;

/// The file name that makes a directory a manifest directory.
pub const MANIFEST_NAME: &str = "expected.csv";

/// What a manifest row expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ManifestExpect {
    /// A failure is reachable within depth k.
    Bug,
    /// No failure within depth k.
    NoBug,
}

/// One row: run `program` at depth `k`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestRow {
    pub program: String,
    pub k: u32,
    pub expect: ManifestExpect,
    /// 1-based line in the manifest.
    pub line: usize,
}

impl ManifestRow {
    /// The verdict the run at depth `k` must give.
    pub fn expected(&self) -> Expected {
        match self.expect {
            ManifestExpect::Bug => Expected::Bug,
            ManifestExpect::NoBug => Expected::SafeOrVerified { depth: self.k },
        }
    }
}

/// Why a manifest cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ManifestError {
    #[error("the manifest is empty (expected a header `program,k,expect,...`)")]
    Empty,
    #[error("the header has no `{0}` column (expected `program,k,expect,...`)")]
    MissingColumn(&'static str),
    #[error("{found} fields where the header has {expected}")]
    FieldCount { expected: usize, found: usize },
    #[error("`{0}` is not a depth (k must be 0, 1, 2, ...)")]
    BadDepth(String),
    #[error("`{0}` is not an expectation (expect must be `bug` or `no_bug`)")]
    BadExpect(String),
    #[error("the program name is empty")]
    EmptyProgram,
    #[error("`{program}` at k = {k} is listed twice (first on line {first_line})")]
    Duplicate {
        program: String,
        k: u32,
        first_line: usize,
    },
    #[error("`{0}.txt` is listed but does not exist")]
    MissingProgram(String),
    #[error("not CSV: {0}")]
    Csv(String),
}

/// A manifest problem on a 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    pub line: usize,
    pub error: ManifestError,
}

/// The column positions of the required fields.
struct Columns {
    program: usize,
    k: usize,
    expect: usize,
    count: usize,
}

/// The rows of a manifest, grouped by program name (in name order, rows in file order).
pub fn parse_manifest(text: &str) -> Result<BTreeMap<String, Vec<ManifestRow>>, LineError> {
    let mut records = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes())
        .into_records()
        .map(|record| {
            record
                .map(|fields| (line_of(&fields), fields))
                .map_err(csv_error)
        })
        .filter(|record| !matches!(record, Ok((_, fields)) if is_blank(fields)));
    let (header_line, header) = records.next().unwrap_or(Err(LineError {
        line: 1,
        error: ManifestError::Empty,
    }))?;
    let columns = columns(&header).map_err(|error| LineError {
        line: header_line,
        error,
    })?;
    let mut programs: BTreeMap<String, Vec<ManifestRow>> = BTreeMap::new();
    for record in records {
        let (line, fields) = record?;
        let at = |error| LineError { line, error };
        let row = parse_row(&fields, &columns, line).map_err(at)?;
        check_unique(&programs, &row).map_err(at)?;
        programs.entry(row.program.clone()).or_default().push(row);
    }
    Ok(programs)
}

fn line_of(fields: &csv::StringRecord) -> usize {
    fields.position().map_or(1, |p| p.line() as usize)
}

fn csv_error(error: csv::Error) -> LineError {
    let line = error.position().map_or(1, |p| p.line() as usize);
    LineError {
        line,
        error: ManifestError::Csv(error.to_string()),
    }
}

/// A line with nothing but whitespace (the csv crate skips only truly empty lines).
fn is_blank(fields: &csv::StringRecord) -> bool {
    fields.len() == 1 && fields[0].is_empty()
}

fn columns(header: &csv::StringRecord) -> Result<Columns, ManifestError> {
    let find = |name: &'static str| {
        header
            .iter()
            .position(|n| n == name)
            .ok_or(ManifestError::MissingColumn(name))
    };
    Ok(Columns {
        program: find("program")?,
        k: find("k")?,
        expect: find("expect")?,
        count: header.len(),
    })
}

fn parse_row(
    fields: &csv::StringRecord,
    columns: &Columns,
    line: usize,
) -> Result<ManifestRow, ManifestError> {
    if fields.len() != columns.count {
        return Err(ManifestError::FieldCount {
            expected: columns.count,
            found: fields.len(),
        });
    }
    let program = &fields[columns.program];
    if program.is_empty() {
        return Err(ManifestError::EmptyProgram);
    }
    let k = &fields[columns.k];
    Ok(ManifestRow {
        program: program.to_string(),
        k: k.parse().map_err(|_| ManifestError::BadDepth(k.into()))?,
        expect: parse_expect(&fields[columns.expect])?,
        line,
    })
}

fn parse_expect(text: &str) -> Result<ManifestExpect, ManifestError> {
    match text {
        "bug" => Ok(ManifestExpect::Bug),
        "no_bug" => Ok(ManifestExpect::NoBug),
        other => Err(ManifestError::BadExpect(other.to_string())),
    }
}

fn check_unique(
    programs: &BTreeMap<String, Vec<ManifestRow>>,
    row: &ManifestRow,
) -> Result<(), ManifestError> {
    let earlier = programs.get(&row.program).into_iter().flatten();
    match earlier.into_iter().find(|r| r.k == row.k) {
        Some(first) => Err(ManifestError::Duplicate {
            program: row.program.clone(),
            k: row.k,
            first_line: first.line,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "program,k,expect,source,bmc2,bmc2_seconds\n\
                          mc91-e,1,bug,bmc2,bug,0.070\n\
                          \n\
                          mc91-e,0,no_bug,bmc2,no_bug,0.050\r\n\
                          a,3,no_bug,known_safe,timeout,60\n";

    #[test]
    fn rows_are_grouped_by_program() {
        let programs = parse_manifest(SAMPLE).expect("valid");
        assert_eq!(programs.keys().collect::<Vec<_>>(), ["a", "mc91-e"]);
        let mc91 = &programs["mc91-e"];
        assert_eq!(
            (mc91[0].k, mc91[0].expect, mc91[0].line),
            (1, ManifestExpect::Bug, 2)
        );
        assert_eq!(mc91[1].expected(), Expected::SafeOrVerified { depth: 0 });
    }

    #[test]
    fn quoted_fields_are_unquoted() {
        let text =
            "\"program\",k,expect,note\n\"mc91-e\", 1 ,\"bug\",\"a, b\"\n  \nx,2,no_bug,\"\"\n";
        let programs = parse_manifest(text).expect("valid");
        assert_eq!(programs.keys().collect::<Vec<_>>(), ["mc91-e", "x"]);
        assert_eq!(programs["mc91-e"][0].k, 1);
        assert_eq!(programs["x"][0].line, 4);
    }

    #[test]
    fn problems_name_their_line() {
        let error = |text: &str| parse_manifest(text).expect_err("invalid");
        assert_eq!(error("").error, ManifestError::Empty);
        assert_eq!(
            error("program,expect\n").error,
            ManifestError::MissingColumn("k")
        );
        let bad_k = error("program,k,expect\np,x,bug\n");
        assert_eq!(
            bad_k,
            LineError {
                line: 2,
                error: ManifestError::BadDepth("x".into())
            }
        );
        let bad_expect = error("program,k,expect\np,1,bug\np,2,maybe\n");
        assert_eq!(bad_expect.line, 3);
        let short = error("program,k,expect\np,1\n");
        assert_eq!(
            short.error,
            ManifestError::FieldCount {
                expected: 3,
                found: 2
            }
        );
        let twice = error("program,k,expect\np,1,bug\np,1,bug\n");
        assert_eq!(twice.line, 3);
        assert!(matches!(
            twice.error,
            ManifestError::Duplicate { first_line: 2, .. }
        ));
    }
}
