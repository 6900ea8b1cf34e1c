//! Verifying a split entry ([`crate::engine::search::entry_split`]): passes of growing depth bounds over
//! the groups, each group run by the stratified-inlining driver in its own scope of one
//! solver session (docs/engine.md, "Entry splitting").
//!
//! The pass bounds double — 1, 2, 4, … — up to K. In the pass to bound `B` after one to
//! `A`, every group still open runs the driver from bound `A + 1` to `B` inside
//! `push`/`pop`, so a query holds one group's call tree and never the others'. A pass
//! inlines its group's tree afresh; with doubling bounds the passes together cost about
//! twice the last one at most, for call trees that grow at least linearly with depth.
//!
//! Guarantees, given entry splitting's (every execution is one of exactly one group):
//! - a bug is reported only as a group's driver found it (an under-approximation, replayed
//!   by the caller like any other); it is a shallowest one: the bounds below `A + 1` are
//!   safe for every group, and once a group of the pass has a bug at depth `d` the later
//!   groups of the pass look only for shallower ones;
//! - "verified" only when every group is verified (a group verified at every depth leaves
//!   the later passes); "safe up to K" only when every group is safe up to K or verified;
//! - otherwise unknown, with the first reason a group gave (a timeout ends the search).
//!
//! Houdini's summaries are inferred once, by the first group that needs them, and given to
//! the others: the groups differ in the entry's body only, which no call site reaches.
//! The datatypes are declared once, outside the scopes.

use crate::engine::search::backend::Backend;
use crate::engine::search::driver::{
    Iteration, Limits, Mode, ProgramFacts, RunReport, Runner, StopReason, unknown,
};
use crate::engine::search::entry_split::SplitEntry;
use crate::engine::verdict::UnknownReason;
use crate::solver::SolverError;
use crate::vc::smt::datatype_declarations;
use boogie_like::ir::ProcId;

/// Runs the driver over the groups of `split` (made by
/// [`crate::engine::search::entry_split::entry_groups`]) in `session`, starting Houdini sessions with `houdini` and telling `observer` about
/// every round. The report's counts are totals over all groups and passes.
pub fn run<S: Backend, H: Backend>(
    split: &SplitEntry,
    session: &mut S,
    limits: &Limits,
    mut houdini: impl FnMut() -> Result<H, SolverError>,
    mut observer: impl FnMut(&Iteration, usize),
) -> RunReport {
    let mut total = Totals::default();
    let facts = ProgramFacts::of(&split.ir);
    let groups = Groups {
        facts: &facts,
        entries: &split.entries,
    };
    let stop = match passes(
        &groups,
        session,
        limits,
        &mut houdini,
        &mut observer,
        &mut total,
    ) {
        Ok(stop) => stop,
        Err(e) => StopReason::from(e),
    };
    RunReport {
        stop,
        iterations: total.iterations,
        solver_calls: total.solver_calls,
        inlined: total.inlined,
        peak_open_sites: total.peak_open_sites,
        mode_used: if total.unrolled {
            Mode::Unroll
        } else {
            Mode::Si
        },
        summaries: total.summaries,
        facts: total.facts,
        tree: Vec::new(),
        abstraction: None,
    }
}

/// What the runs so far add up to.
#[derive(Default)]
struct Totals {
    iterations: Vec<Iteration>,
    solver_calls: usize,
    inlined: usize,
    peak_open_sites: usize,
    unrolled: bool,
    summaries: Option<crate::engine::proofs::houdini::Summaries>,
    /// The partial proofs the runs assumed (each run takes all published so far).
    facts: Vec<std::sync::Arc<crate::engine::proofs::site_facts::SiteFacts>>,
}

impl Totals {
    fn add(&mut self, report: RunReport) -> StopReason {
        self.iterations.extend(report.iterations);
        self.solver_calls += report.solver_calls;
        self.inlined += report.inlined;
        self.peak_open_sites = self.peak_open_sites.max(report.peak_open_sites);
        self.unrolled |= report.mode_used == Mode::Unroll;
        if report.summaries.is_some() {
            self.summaries = report.summaries;
        }
        if report.facts.len() > self.facts.len() {
            self.facts = report.facts;
        }
        report.stop
    }
}

/// The split program and its groups' entries.
struct Groups<'g, 'a> {
    facts: &'g ProgramFacts<'a>,
    entries: &'g [ProcId],
}

fn passes<S: Backend, H: Backend>(
    groups: &Groups,
    session: &mut S,
    limits: &Limits,
    houdini: &mut impl FnMut() -> Result<H, SolverError>,
    observer: &mut impl FnMut(&Iteration, usize),
    total: &mut Totals,
) -> Result<StopReason, SolverError> {
    let max_depth = limits.max_depth;
    session.declare_datatypes(&datatype_declarations(groups.facts.ir()))?;
    // The groups not verified yet, and the first reason a group had no answer.
    let mut open: Vec<usize> = (0..groups.entries.len()).collect();
    let mut no_answer: Option<UnknownReason> = None;
    let mut safe_below = 0;
    while !open.is_empty() && safe_below < max_depth {
        let pass_bound = (2 * safe_below).max(1).min(max_depth);
        let mut deepest_wanted = pass_bound;
        let mut shallowest_bug: Option<StopReason> = None;
        let mut still_open = Vec::new();
        for &g in &open {
            if deepest_wanted <= safe_below {
                break;
            }
            let group_limits = Limits {
                max_depth: deepest_wanted,
                first_bound: safe_below + 1,
                final_bound: false,
                ..limits.clone()
            };
            crate::engine::trace::trace!(
                "search: group {g} from bound {} to {deepest_wanted}",
                safe_below + 1
            );
            match run_group(groups, g, session, group_limits, houdini, observer, total)? {
                StopReason::Verified => {}
                StopReason::SafeUpTo { .. } => still_open.push(g),
                bug @ StopReason::Bug { bound, .. } => {
                    deepest_wanted = bound.saturating_sub(1);
                    shallowest_bug = Some(bug);
                }
                StopReason::Unknown { reason } => {
                    if matches!(
                        reason,
                        UnknownReason::Timeout | UnknownReason::Interrupted(_)
                    ) {
                        return Ok(unknown(reason));
                    }
                    no_answer.get_or_insert(reason);
                }
            }
        }
        if let Some(bug) = shallowest_bug {
            return Ok(bug);
        }
        open = still_open;
        safe_below = pass_bound;
    }
    if let Some(reason) = no_answer {
        return Ok(unknown(reason));
    }
    // No group fails within K. Those not verified yet try "verified at every depth" (with
    // summaries, which a run at the last bound infers), now that no bug search waits on it.
    let mut all_verified = true;
    for &g in &open {
        let group_limits = Limits {
            first_bound: max_depth,
            final_bound: true,
            ..limits.clone()
        };
        match run_group(groups, g, session, group_limits, houdini, observer, total)? {
            StopReason::Verified => {}
            StopReason::SafeUpTo { .. } => all_verified = false,
            // The bug search just found none within K here, so only a solver that answers
            // differently the second time gets here; the caller's replay judges the bug.
            bug @ StopReason::Bug { .. } => return Ok(bug),
            StopReason::Unknown { reason } => return Ok(unknown(reason)),
        }
    }
    Ok(if all_verified {
        StopReason::Verified
    } else {
        StopReason::SafeUpTo { depth: max_depth }
    })
}

/// One driver run over group `g` in a scope of its own.
fn run_group<S: Backend, H: Backend>(
    groups: &Groups,
    g: usize,
    session: &mut S,
    limits: Limits,
    houdini: &mut impl FnMut() -> Result<H, SolverError>,
    observer: &mut impl FnMut(&Iteration, usize),
    total: &mut Totals,
) -> Result<StopReason, SolverError> {
    session.push()?;
    let report = Runner::sharing(groups.facts, &mut *session, limits)
        .with_entry(groups.entries[g])
        .with_datatypes_declared()
        .with_summaries(total.summaries.clone())
        .with_houdini_sessions(&mut *houdini)
        .with_observer(&mut *observer)
        .run();
    session.pop()?;
    Ok(total.add(report))
}
