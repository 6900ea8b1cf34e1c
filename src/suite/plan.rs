//! From programs to runs: which depths each program runs at and what each run must answer.
//!
//! With `--max-depth K`: a header program runs once, at the depth its expectation gives for
//! bound K ([`Expectation::at_bound`]); a manifest program runs once per row with k <= K,
//! at depth k. Without `--max-depth`: header programs use K = [`DEFAULT_DEPTH`] and
//! manifest programs run every row.
//!
//! Guarantees: the runs come out sorted by path, then depth, whatever order the programs
//! came in; a program without an expectation still gives a run (with no expected verdict:
//! it is reported as failed, never silently skipped).

use super::discover::{Program, Source};
use super::expect::Expected;
use super::partition::Partition;
use std::path::PathBuf;

/// The bound of header programs when `--max-depth` is not given.
pub const DEFAULT_DEPTH: u32 = 10;

/// One verification the suite makes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub path: PathBuf,
    /// The program's partition key.
    pub key: String,
    pub depth: u32,
    /// `None`: the program states no expectation.
    pub expected: Option<Expected>,
}

/// Every run of `programs` under the bound `max_depth`, sorted by path then depth.
pub fn plan(programs: &[Program], max_depth: Option<u32>) -> Vec<Run> {
    let mut runs: Vec<Run> = programs
        .iter()
        .flat_map(|p| program_runs(p, max_depth))
        .collect();
    runs.sort_by(|a, b| (&a.path, a.depth).cmp(&(&b.path, b.depth)));
    runs
}

/// Only the runs in `partition` (all of them without one).
pub fn keep_partition(runs: Vec<Run>, partition: Option<Partition>) -> Vec<Run> {
    match partition {
        Some(p) => runs.into_iter().filter(|r| p.contains(&r.key)).collect(),
        None => runs,
    }
}

fn program_runs(program: &Program, max_depth: Option<u32>) -> Vec<Run> {
    let run = |depth, expected| Run {
        path: program.path.clone(),
        key: program.key.clone(),
        depth,
        expected,
    };
    let k = max_depth.unwrap_or(DEFAULT_DEPTH);
    match &program.source {
        Source::Header(Some(expectation)) => {
            let (depth, expected) = expectation.at_bound(k);
            vec![run(depth, Some(expected))]
        }
        Source::Header(None) => vec![run(k, None)],
        Source::Manifest(rows) => rows
            .iter()
            .filter(|row| max_depth.is_none_or(|k| row.k <= k))
            .map(|row| run(row.k, Some(row.expected())))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::expect::Expectation;
    use crate::suite::manifest::{ManifestExpect, ManifestRow};

    fn program(path: &str, source: Source) -> Program {
        Program {
            path: path.into(),
            key: path.into(),
            source,
        }
    }

    fn row(k: u32, expect: ManifestExpect) -> ManifestRow {
        ManifestRow {
            program: "m".into(),
            k,
            expect,
            line: 2,
        }
    }

    #[test]
    fn runs_are_sorted_and_bounded() {
        let rows = vec![
            row(3, ManifestExpect::Bug),
            row(1, ManifestExpect::NoBug),
            row(2, ManifestExpect::Bug),
        ];
        let programs = [
            program("z.horef", Source::Header(None)),
            program("m.txt", Source::Manifest(rows)),
            program("a.horef", Source::Header(Some(Expectation::Verified))),
        ];
        let all = plan(&programs, None);
        let shown: Vec<(String, u32)> = all
            .iter()
            .map(|r| (r.path.display().to_string(), r.depth))
            .collect();
        let expected = [
            ("a.horef", 10),
            ("m.txt", 1),
            ("m.txt", 2),
            ("m.txt", 3),
            ("z.horef", 10),
        ];
        assert_eq!(shown, expected.map(|(p, d)| (p.to_string(), d)));
        assert_eq!(all[1].expected, Some(Expected::SafeOrVerified { depth: 1 }));
        assert_eq!(all[4].expected, None);
        let bounded = plan(&programs, Some(2));
        assert_eq!(bounded.len(), 4);
        assert!(bounded.iter().all(|r| r.depth <= 2));
    }
}
