//! What `verify` answers (docs/engine.md, after BSQCHK's hierarchy), as closed enums.
//!
//! Guarantees: a [`Verdict::Bug`] always carries a witness the concrete interpreter
//! replayed to a failure at the same place (`confirmed` is true by construction); a witness
//! that does not replay is an [`Verdict::Unknown`] with [`UnknownReason::Unconfirmed`].

use crate::engine::search::call_bounds::CallBounds;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// One call on the way to the failure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceStep {
    /// The function called (method name, `fun@L:C`, `let rec` name, or IR procedure).
    pub function: String,
    pub args: Vec<String>,
    /// The depth its body runs at.
    pub depth: u32,
    /// Where the call is, `line:col`.
    pub at: String,
    /// The value it returned, in the replay; `None` for a call that did not return (it is
    /// on the way to the failure).
    pub returns: Option<String>,
}

/// An allocated cell of a bug's replay (our extension's `ref e`), as the failing run left
/// it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellNote {
    /// The cell as values show it, `<cell N>` (N counts allocations from 0).
    pub cell: String,
    /// Where its `ref e` was evaluated, `line:col`.
    pub allocated: String,
    /// What it held at the failure.
    pub holds: String,
}

/// Why there is no answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnknownReason {
    /// The time limit was reached.
    Timeout,
    /// The solver answered `unknown`.
    SolverUnknown(String),
    /// The solver is missing, crashed or misbehaved.
    SolverError(String),
    /// The solver's model did not replay to the same failure.
    Unconfirmed(String),
    /// A resource limit other than time was reached (memory).
    Resource(String),
    /// The run was stopped from outside before it answered.
    Interrupted(String),
}

impl UnknownReason {
    pub fn describe(&self) -> String {
        match self {
            UnknownReason::Timeout => "timeout: the time limit was reached".to_string(),
            UnknownReason::SolverUnknown(r) => format!("the solver answered unknown ({r})"),
            UnknownReason::SolverError(e) => format!("solver error: {e}"),
            UnknownReason::Unconfirmed(why) => format!("unconfirmed witness: {why}"),
            UnknownReason::Resource(why) => format!("resource: {why}"),
            UnknownReason::Interrupted(why) => format!("stopped: {why}"),
        }
    }
}

/// Serialised (the suite's result cache) with the tag `verdict`: `verified`, `bug`,
/// `safe_up_to`, `unknown`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// No input makes the program fail, at any depth.
    Verified,
    /// These inputs make the program fail within the bound; replayed concretely.
    Bug {
        inputs: Vec<(String, String)>,
        /// `line:col` of the failing `assert`/`fail`/`hd`/`tl`.
        failure: String,
        /// What failed there (`assert`, `fail`, `hd []`, `tl []`).
        kind: String,
        trace: Vec<TraceStep>,
        /// The fresh inputs (`read_int ()`, `Random.int n`) the replay took, in order, as
        /// (`line:col` of the input, value).
        #[serde(default)]
        fresh: Vec<(String, String)>,
        /// The cells the failing replay allocated, in allocation order (empty for a program
        /// without allocated references).
        #[serde(default)]
        cells: Vec<CellNote>,
    },
    /// No input makes the program fail within depth `depth` (and within `bounds`, CORRAL's
    /// bounds, when there are any).
    SafeUpTo {
        depth: u32,
        #[serde(default, skip_serializing_if = "CallBounds::is_none")]
        bounds: CallBounds,
    },
    Unknown {
        reason: UnknownReason,
    },
}

impl Verdict {
    /// `SafeUpTo` at `depth`, without CORRAL's bounds.
    pub fn safe_up_to(depth: u32) -> Verdict {
        Verdict::SafeUpTo {
            depth,
            bounds: CallBounds::default(),
        }
    }

    /// The verdict line: `VERIFIED`, `BUG`, `SAFE UP TO DEPTH K` (`SAFE UP TO RECURSION
    /// BOUND N, DEPTH K` with CORRAL's bounds), `UNKNOWN`.
    pub fn headline(&self) -> String {
        match self {
            Verdict::Verified => "VERIFIED".to_string(),
            Verdict::Bug { .. } => "BUG".to_string(),
            Verdict::SafeUpTo { depth, bounds } => {
                format!("SAFE UP TO {}", safe_within(*depth, bounds).to_uppercase())
            }
            Verdict::Unknown { .. } => "UNKNOWN".to_string(),
        }
    }

    /// The stable JSON name of the verdict.
    pub fn key(&self) -> &'static str {
        match self {
            Verdict::Verified => "verified",
            Verdict::Bug { .. } => "bug",
            Verdict::SafeUpTo { .. } => "safe_up_to_depth",
            Verdict::Unknown { .. } => "unknown",
        }
    }
}

/// The bounds a "safe" answer holds within, in words: `depth 10`, or `recursion bound 2,
/// depth 10` with CORRAL's bounds.
pub fn safe_within(depth: u32, bounds: &CallBounds) -> String {
    let mut words = bounds.describe();
    words.push(format!("depth {depth}"));
    words.join(", ")
}

/// What the abstraction did (JSON `stats.abstraction`).
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct AbstractionStats {
    /// The program's globals.
    pub globals: usize,
    /// The globals tracked at the start (those the assertions read).
    pub initial: usize,
    /// The globals tracked at the end, by name.
    pub tracked: Vec<String>,
    /// Spurious counterexamples refined.
    pub refinements: usize,
    /// How each refinement found its globals, in order: `"alg2"` (in the solver, over
    /// Boolean constants on one VC) or `"alg1"` (divide and conquer over abstractions).
    pub refined_with: Vec<&'static str>,
    /// Time spent on concrete checks and refinement, in milliseconds.
    pub refine_ms: u64,
}

/// Statistics of one verification run.
#[derive(Clone, Debug, Serialize)]
pub struct Stats {
    /// Wall time of the whole verification (lowering to replay), in milliseconds.
    pub time_ms: u64,
    /// The part of `time_ms` spent on solver processes: starting them, writing commands,
    /// waiting for replies, stopping them (Houdini's session included).
    pub solver_ms: u64,
    pub solver_calls: usize,
    pub inlined: usize,
    pub open_sites: usize,
    pub mode: String,
    pub iterations: usize,
    /// What the variable abstraction did, when the search ran on one
    /// ([`crate::engine::search::cegar`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub abstraction: Option<AbstractionStats>,
}

impl Stats {
    /// The figures of a run that answered without searching: `time` in all, `solver` of
    /// it in solver processes, nothing inlined.
    pub fn without_search(time: Duration, solver: Duration, mode: &str) -> Stats {
        Stats {
            time_ms: time.as_millis() as u64,
            solver_ms: solver.as_millis() as u64,
            solver_calls: 0,
            inlined: 0,
            open_sites: 0,
            mode: mode.to_string(),
            iterations: 0,
            abstraction: None,
        }
    }
}
