//! Reading what `horef-si run FILE --witness W` replays out of a violation witness: the
//! inputs of `Main`, the target position and the bound.
//!
//! Guarantees: [`read`] refuses a witness written for another program (no SHA-256 of its
//! task equals the program's: [`ReplayError::OtherProgram`]) and one whose inputs or target
//! cannot be read, naming what is wrong; it never guesses an input.

use super::witness::{Entry, WaypointType, Witness, WitnessError, sha256_hex};
use crate::span::LineCol;

/// What a replay needs from a witness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// `Main`'s inputs, as `name = value` (checked against `Main` by the caller).
    pub inputs: Vec<(String, String)>,
    /// The failing position the witness claims (`column` may be absent in the format).
    pub target_line: u32,
    pub target_column: Option<u32>,
    /// The bound the witness was found within (`--max-depth K` in `producer.configuration`).
    pub max_depth: Option<u32>,
    /// Every `function_return` waypoint with a `\result == v` constraint, in order, as
    /// (line, column, `v`): the caller keeps the ones at the program's fresh inputs.
    pub returns: Vec<(u32, Option<u32>, String)>,
}

impl Replay {
    /// Whether a failure at `at` is the witness's target.
    pub fn is_target(&self, at: LineCol) -> bool {
        at.line == self.target_line && self.target_column.is_none_or(|c| c == at.col)
    }

    /// `L:C` (or `L`) of the target.
    pub fn target(&self) -> String {
        match self.target_column {
            Some(c) => format!("{}:{c}", self.target_line),
            None => self.target_line.to_string(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error(transparent)]
    Witness(#[from] WitnessError),
    #[error(
        "the witness is for another program: it was written for {files} \
         (sha256 {expected}), this file has sha256 {actual}"
    )]
    OtherProgram {
        files: String,
        expected: String,
        actual: String,
    },
    #[error("the witness has no `target` waypoint")]
    NoTarget,
    #[error("cannot read the inputs `{0}` (expected `name == value && ...`)")]
    BadInputs(String),
}

/// The replay of `witness` on the program whose bytes are `program`.
pub fn read(witness: &Witness, program: &[u8]) -> Result<Replay, ReplayError> {
    let entry = witness.violation()?;
    check_hash(entry, program)?;
    let waypoints = || {
        entry
            .content
            .iter()
            .flat_map(|s| &s.segment)
            .map(|w| &w.waypoint)
    };
    let target = waypoints()
        .find(|w| w.kind == WaypointType::Target)
        .ok_or(ReplayError::NoTarget)?;
    // The inputs: an assumption in `Main` before the first call.
    let inputs = waypoints()
        .take_while(|w| w.kind == WaypointType::Assumption)
        .find(|w| w.location.function.as_deref().is_none_or(|f| f == "Main"))
        .and_then(|w| w.constraint.as_ref())
        .map_or_else(|| Ok(Vec::new()), |c| equalities(&c.value))?;
    let returns = waypoints()
        .filter(|w| w.kind == WaypointType::FunctionReturn)
        .filter_map(|w| {
            let value = w.constraint.as_ref()?.value.trim();
            let value = value
                .strip_prefix("\\result")?
                .trim_start()
                .strip_prefix("==")?;
            Some((w.location.line, w.location.column, value.trim().to_string()))
        })
        .collect();
    Ok(Replay {
        inputs,
        returns,
        target_line: target.location.line,
        target_column: target.location.column,
        max_depth: entry
            .metadata
            .producer
            .configuration
            .as_deref()
            .and_then(max_depth),
    })
}

fn check_hash(entry: &Entry, program: &[u8]) -> Result<(), ReplayError> {
    let actual = sha256_hex(program);
    let hashes = &entry.metadata.task.input_file_hashes;
    if hashes.values().any(|h| h.eq_ignore_ascii_case(&actual)) {
        return Ok(());
    }
    Err(ReplayError::OtherProgram {
        files: entry.metadata.task.input_files.join(", "),
        expected: hashes.values().cloned().collect::<Vec<_>>().join(", "),
        actual,
    })
}

/// `n == 3 && m == -2` as `[(n, 3), (m, -2)]`.
fn equalities(text: &str) -> Result<Vec<(String, String)>, ReplayError> {
    text.split("&&")
        .map(|part| match part.split_once("==") {
            Some((name, value)) if !name.trim().is_empty() && !value.trim().is_empty() => {
                Ok((name.trim().to_string(), value.trim().to_string()))
            }
            _ => Err(ReplayError::BadInputs(text.to_string())),
        })
        .collect()
}

/// The K of `--max-depth K` in a configuration string.
fn max_depth(configuration: &str) -> Option<u32> {
    let mut words = configuration.split_whitespace();
    while let Some(word) = words.next() {
        if word == "--max-depth" {
            return words.next()?.parse().ok();
        }
        if let Some(k) = word.strip_prefix("--max-depth=") {
            return k.parse().ok();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equalities_and_depths_are_read() {
        assert_eq!(
            equalities("n == 3 && m == -2").unwrap(),
            vec![("n".into(), "3".into()), ("m".into(), "-2".into())]
        );
        assert!(equalities("n = 3").is_err());
        assert_eq!(max_depth("--max-depth 12"), Some(12));
        assert_eq!(max_depth("--mode si --max-depth=4"), Some(4));
        assert_eq!(max_depth("--mode si"), None);
    }
}
