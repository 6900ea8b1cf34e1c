//! What a run of the driver is allowed and how it inlines: its [`Limits`] (depth, deadline,
//! bounds, stop signal, the board of partial proofs), the [`Mode`], the [`InliningPolicy`]
//! and the [`StopSignal`] other engines raise. Plain data; the runner reads them.

use crate::engine::proofs::site_facts::FactBoard;
use crate::engine::search::call_bounds::CallBounds;
use std::time::Instant;

/// How the runner inlines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Stratified inlining on demand, falling back to unrolling.
    Si,
    /// Full bound-K unrolling, one query.
    Unroll,
}

impl Mode {
    /// The name statistics and `--mode` use.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Si => "si",
            Mode::Unroll => "unroll",
        }
    }
}

/// Limits of one run (builder style).
#[derive(Clone, Debug)]
pub struct Limits {
    pub max_depth: u32,
    /// The depth bound the loop starts at: 1, or one past the bound an earlier run over the
    /// same executions showed safe (a pass of [`crate::engine::search::groups`]).
    pub first_bound: u32,
    /// Whether `max_depth` is the user's K. Only then does reaching it without a bug call
    /// for summaries, to try "verified at every depth"; a run with a smaller bound (a pass
    /// of [`crate::engine::search::groups`]) ends with "safe up to max_depth" as it is.
    pub final_bound: bool,
    pub mode: Mode,
    pub deadline: Option<Instant>,
    pub policy: InliningPolicy,
    /// Infer Houdini summaries for open call sites (SI mode only).
    pub summaries: bool,
    /// Raised from outside to stop the run at its next round.
    pub stop: StopSignal,
    /// CORRAL's bounds besides the depth: the sites they block are blocked in every query.
    pub bounds: CallBounds,
    /// Partial proofs published while the run goes on ([`crate::engine::proofs::partial_proofs`]): each
    /// one's facts are assumed at the open call sites of the procedures it covers, from
    /// the next round on.
    pub facts: FactBoard,
}

/// Asks a running runner to stop at its next round: another proof engine answered, or a
/// resource limit was reached. Clones share the signal.
#[derive(Clone, Debug, Default)]
pub struct StopSignal(std::sync::Arc<std::sync::OnceLock<String>>);

impl StopSignal {
    /// Raises the signal with the reason (the first reason raised stays).
    pub fn raise(&self, why: impl Into<String>) {
        let _ = self.0.set(why.into());
    }

    /// The reason, once raised.
    pub fn raised(&self) -> Option<&str> {
        self.0.get().map(String::as_str)
    }
}

/// When on-demand inlining stops paying off: after `max_rounds` rounds, or once
/// `max_inlined` instances exist, the runner unrolls the rest.
#[derive(Clone, Copy, Debug)]
pub struct InliningPolicy {
    pub max_rounds: usize,
    pub max_inlined: usize,
    /// Eager inlining within the bound stops once the tree has `eager_base +
    /// eager_per_procedure × (procedures in the program)` instances.
    pub eager_base: usize,
    pub eager_per_procedure: usize,
}

impl Default for InliningPolicy {
    fn default() -> InliningPolicy {
        InliningPolicy {
            max_rounds: 200,
            max_inlined: 20_000,
            eager_base: 64,
            eager_per_procedure: 4,
        }
    }
}
