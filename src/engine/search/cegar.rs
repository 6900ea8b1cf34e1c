//! CORRAL's outer loop: stratified inlining on a variable abstraction of the program
//! ([`super::abstraction`]), with counterexample-guided refinement of the tracked set
//! (Lal–Qadeer–Lahiri §3: Fig. 3, Alg. 1).
//!
//! The loop: `T` starts as the globals the assertions read ([`assertion_globals`]); the
//! driver searches the abstract program. Then:
//! - no bug within K (VERIFIED, SAFE UP TO DEPTH K), or no answer: that is the answer for
//!   the program, since the abstraction over-approximates it (every execution of the
//!   program is one of the abstract program, with the same calls and failures);
//! - a bug: its counterexample is the call tree the run had inlined. The program itself
//!   is asked whether an execution inside that tree fails ([`Runner::check_tree`], the
//!   concrete check). If so, that is the bug, read off the program's own model and
//!   replayed by the caller as any bug; if not, the counterexample is spurious and
//!   hierarchical refinement (divide and conquer, [`hrefine`], over the untracked globals
//!   of the assertions' cone of influence ([`relevant_globals`]; tracking it all is
//!   exact)) finds a minimal set of globals whose tracking makes that tree safe (the
//!   paper's Theorem 1). They are added to `T` and the loop repeats, from the bound the
//!   bug was found at (a larger `T` only removes executions, so the bounds below stay
//!   safe).
//!
//! The checks of the divide and conquer ([`Refinement`]): Alg. 2 (the default) builds one
//! VC of the tree for the parameterised abstraction ([`parameterised_program`]) and asks
//! each check as assumptions over its Boolean constants; Alg. 1 (the fallback when that
//! VC with every constant true is not `unsat`) builds the abstraction's VC of the tree
//! afresh for each check. Both run inside `push`/`pop` on the one session. `T` grows by
//! at least one global per refinement (when a refinement finds none, every global is
//! tracked), so the loop ends after at most `|G|` refinements, the last of them on the
//! program itself.
//!
//! The abstract runs do not assume the partial proofs' facts (proved about the program's
//! procedures, over globals the abstraction may have dropped); Houdini's summaries are
//! inferred on the abstract program, so they hold for the program too.

use crate::engine::proofs::site_facts::FactBoard;
use crate::engine::search::abstraction::{
    Tracked, abstract_program, assertion_globals, parameterised_program, relevant_globals,
};
use crate::engine::search::backend::{Backend, CheckResult};
use crate::engine::search::driver::{Iteration, Limits, RunReport, Runner, StopReason};
use crate::engine::verdict::AbstractionStats;
use crate::solver::SolverError;
use crate::vc::smt::datatype_declarations;
use boogie_like::ir::{CallSiteId, GlobalId, Program as IrProgram};
use std::time::{Duration, Instant};

/// Where the tracked set starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// The assertions' cone of influence ([`relevant_globals`]): exact for failures, so
    /// no counterexample is spurious; refinement never runs (the default).
    Cone,
    /// The globals the assertions read ([`assertion_globals`]), refined on spurious
    /// counterexamples (CORRAL's loop with a better start than its empty set).
    Assertions,
    /// No global (CORRAL's start).
    Empty,
}

/// How a spurious counterexample is refined (both find a minimal set, Theorem 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Refinement {
    /// CORRAL's Alg. 2: one VC of the counterexample's tree for the parameterised
    /// abstraction ([`parameterised_program`]) on the solver stack, each check of the
    /// divide and conquer a `check-sat-assuming` over the flags. Falls back to Alg. 1 for
    /// that refinement when the VC with every flag true is not `unsat` (an `unknown`).
    #[default]
    InSolver,
    /// CORRAL's Alg. 1: each check rebuilds the tree for one abstraction.
    DivideAndConquer,
}

/// The default's rule: abstract only a program with at least this many globals...
pub const MIN_GLOBALS: usize = 64;

/// The tracked set a run starts from, or `None` when abstracting would not pay: with
/// [`Start::Cone`], a program with fewer than [`MIN_GLOBALS`] globals, or whose cone holds
/// more than half of them (measured in `benchmarks/RESULTS.md`: the abstract search then
/// saves less than a buggy run's concrete check costs).
pub fn start(ir: &IrProgram, start: Start) -> Option<Tracked> {
    match start {
        Start::Empty => Some(Tracked::none(ir)),
        Start::Assertions => Some(assertion_globals(ir)),
        Start::Cone => {
            if ir.globals.len() < MIN_GLOBALS {
                return None;
            }
            let cone = relevant_globals(ir);
            (cone.len() * 2 <= ir.globals.len()).then_some(cone)
        }
    }
}

/// The CEGAR loop's search over `ir` in `session` from the tracked set `tracked`
/// ([`start`]; module doc); `houdini` and `observer` as for [`Runner`]. The report's
/// counts are totals over the abstract runs and checks.
pub fn run<S: Backend, H: Backend>(
    ir: &IrProgram,
    (tracked, refinement): (Tracked, Refinement),
    session: &mut S,
    limits: &Limits,
    mut houdini: impl FnMut() -> Result<H, SolverError>,
    mut observer: impl FnMut(&Iteration, usize),
) -> RunReport {
    let mut stats = AbstractionStats {
        globals: ir.globals.len(),
        initial: tracked.len(),
        ..AbstractionStats::default()
    };
    let mut loop_ = Loop {
        ir,
        session,
        tracked,
        refining: Duration::ZERO,
        solver_calls: 0,
        declared: false,
        relevant: relevant_globals(ir),
        refinement,
    };
    let mut limits = limits.clone();
    let mut iterations = Vec::new();
    let mut inlined = 0;
    let report = loop {
        let abstracted = abstract_program(ir, &loop_.tracked);
        let mut abstract_limits = limits.clone();
        if !loop_.tracked.is_all() {
            abstract_limits.facts = FactBoard::default();
        }
        let report = loop_.scoped(|session| {
            Ok(Runner::new(&abstracted, &mut *session, abstract_limits)
                .with_datatypes_declared()
                .with_houdini_sessions(&mut houdini)
                .with_observer(&mut observer)
                .run())
        });
        let report = match report {
            Ok(report) => report,
            Err(e) => break failed(e),
        };
        iterations.extend(report.iterations.iter().cloned());
        inlined += report.inlined;
        let StopReason::Bug { bound, .. } = &report.stop else {
            break report;
        };
        if loop_.tracked.is_all() {
            break report;
        }
        let bound = *bound;
        let refining = Instant::now();
        let step = loop_.refine(&report.tree, bound, limits.clone());
        loop_.refining += refining.elapsed();
        match step {
            Ok(Step::Bug(bug)) => {
                break RunReport {
                    stop: bug,
                    ..report
                };
            }
            Ok(Step::Refined(how)) => {
                stats.refinements += 1;
                stats.refined_with.push(how);
                limits.first_bound = limits.first_bound.max(bound);
            }
            Err(e) => {
                break RunReport {
                    stop: StopReason::from(e),
                    ..report
                };
            }
        }
    };
    stats.tracked = loop_
        .tracked
        .globals()
        .into_iter()
        .map(|g| ir.globals[g].name.clone())
        .collect();
    stats.refine_ms = loop_.refining.as_millis() as u64;
    RunReport {
        iterations,
        inlined,
        solver_calls: report.solver_calls + loop_.solver_calls,
        abstraction: Some(stats),
        ..report
    }
}

/// A run that could not start (the session failed).
fn failed(e: SolverError) -> RunReport {
    RunReport {
        stop: StopReason::from(e),
        iterations: Vec::new(),
        solver_calls: 0,
        inlined: 0,
        peak_open_sites: 0,
        mode_used: crate::engine::search::driver::Mode::Si,
        summaries: None,
        facts: Vec::new(),
        tree: Vec::new(),
        abstraction: None,
    }
}

/// What a spurious-or-not check of a counterexample gave.
enum Step {
    /// The program itself fails inside the counterexample's tree.
    Bug(StopReason),
    /// Spurious: the tracked set grew, found by `"alg2"` or `"alg1"`.
    Refined(&'static str),
}

struct Loop<'s, 'i, S: Backend> {
    ir: &'i IrProgram,
    session: &'s mut S,
    tracked: Tracked,
    refining: Duration,
    /// Solver calls of the concrete checks and the refinement.
    solver_calls: usize,
    /// Whether the session knows the program's datatypes.
    declared: bool,
    /// The cone of influence of the assertions ([`relevant_globals`]): refinement looks
    /// only inside it.
    relevant: Tracked,
    refinement: Refinement,
}

impl<S: Backend> Loop<'_, '_, S> {
    /// Runs `f` inside `push`/`pop`, the datatypes declared once, outside.
    fn scoped<T>(
        &mut self,
        f: impl FnOnce(&mut S) -> Result<T, SolverError>,
    ) -> Result<T, SolverError> {
        if !self.declared {
            self.session
                .declare_datatypes(&datatype_declarations(self.ir))?;
            self.declared = true;
        }
        self.session.push()?;
        let result = f(self.session);
        self.session.pop()?;
        result
    }

    /// Whether an execution of the program abstracted with `tracked` fails inside `tree`:
    /// `Some` with the bug, `None` when none does.
    fn check(
        &mut self,
        tracked: &Tracked,
        tree: &[(usize, CallSiteId)],
        bound: u32,
        limits: &Limits,
    ) -> Result<Option<StopReason>, SolverError> {
        let abstracted = abstract_program(self.ir, tracked);
        let mut limits = limits.clone();
        limits.facts = FactBoard::default();
        let (result, calls) = self.scoped(|session| {
            let (result, calls) = Runner::new(&abstracted, &mut *session, limits)
                .with_datatypes_declared()
                .check_tree(tree, bound);
            Ok((result, calls))
        })?;
        self.solver_calls += calls;
        result
    }

    /// The concrete check of the counterexample `tree`, then refinement if spurious.
    fn refine(
        &mut self,
        tree: &[(usize, CallSiteId)],
        bound: u32,
        limits: Limits,
    ) -> Result<Step, SolverError> {
        let all = Tracked::all(self.ir);
        match self.check(&all, tree, bound, &limits)? {
            Some(bug @ StopReason::Bug { .. }) => return Ok(Step::Bug(bug)),
            // No answer on the program itself: search it without abstraction.
            Some(_) => {
                self.tracked = all;
                return Ok(Step::Refined("alg1"));
            }
            None => {}
        }
        let before = self.tracked.len();
        let dont = self.relevant.untracked();
        let in_solver = match self.refinement {
            Refinement::InSolver => self.refine_in_solver(tree, &dont, &limits)?,
            Refinement::DivideAndConquer => None,
        };
        let (refined, how) = match in_solver {
            Some(refined) => (refined, "alg2"),
            None => {
                let mut correct =
                    |this: &mut Self, tracked: &Tracked| -> Result<bool, SolverError> {
                        // An `unknown` counts as not correct: tracking more is always safe.
                        Ok(this.check(tracked, tree, bound, &limits)?.is_none())
                    };
                let tracked = self.tracked.clone();
                (hrefine(self, tracked, dont, &mut correct)?, "alg1")
            }
        };
        self.tracked = if refined.len() > before { refined } else { all };
        Ok(Step::Refined(how))
    }

    /// Alg. 2 (`vcrefine`): the minimal set over the untracked globals outside `dont`, by
    /// [`hrefine`] whose checks are assumptions over the flags of one VC of `tree` for
    /// the parameterised abstraction; `None` when that VC with every flag true is not
    /// `unsat` (then Alg. 1 decides). An `unknown` of a later check counts as not correct,
    /// as in Alg. 1.
    fn refine_in_solver(
        &mut self,
        tree: &[(usize, CallSiteId)],
        dont: &[GlobalId],
        limits: &Limits,
    ) -> Result<Option<Tracked>, SolverError> {
        let candidates: Vec<GlobalId> = self
            .tracked
            .untracked()
            .into_iter()
            .filter(|g| !dont.contains(g))
            .collect();
        let (parameterised, flags) = parameterised_program(self.ir, &self.tracked, &candidates);
        let mut limits = limits.clone();
        limits.facts = FactBoard::default();
        let tracked = self.tracked.clone();
        let (refined, calls) = self.scoped(|session| {
            let mut runner =
                Runner::new(&parameterised, &mut *session, limits).with_datatypes_declared();
            let constants = runner.rebuild_with_flags(tree, &flags)?;
            let mut correct =
                |runner: &mut Runner<'_, &mut S>, t: &Tracked| -> Result<bool, SolverError> {
                    let (on, off): (Vec<_>, Vec<_>) = candidates
                        .iter()
                        .zip(&constants)
                        .partition(|(g, _)| t.contains(**g));
                    let on: Vec<_> = on.into_iter().map(|(_, c)| *c).collect();
                    let off: Vec<_> = off.into_iter().map(|(_, c)| *c).collect();
                    Ok(runner.tree_fails_assuming(&on, &off)? == CheckResult::Unsat)
                };
            let everything = Tracked::all(self.ir);
            let refined = if correct(&mut runner, &everything)? {
                Some(hrefine(&mut runner, tracked, dont.to_vec(), &mut correct)?)
            } else {
                None
            };
            Ok((refined, runner.solver_calls()))
        })?;
        self.solver_calls += calls;
        Ok(refined)
    }
}

/// CORRAL's Alg. 1, `hrefine(T, D, P)`: given that tracking every global outside `dont`
/// makes the path correct, the least-by-inclusion set `R ⊇ tracked`, `R ∩ dont = ∅`, found
/// by divide and conquer, such that tracking `R` makes it correct (Theorem 1: every `R'`
/// with `tracked ⊆ R' ⊂ R` leaves it buggy). `correct` answers for one tracked set.
pub fn hrefine<C, E>(
    cx: &mut C,
    tracked: Tracked,
    dont: Vec<GlobalId>,
    correct: &mut impl FnMut(&mut C, &Tracked) -> Result<bool, E>,
) -> Result<Tracked, E> {
    let undecided: Vec<GlobalId> = tracked
        .untracked()
        .into_iter()
        .filter(|g| !dont.contains(g))
        .collect();
    if undecided.is_empty() || correct(cx, &tracked)? {
        return Ok(tracked);
    }
    if undecided.len() == 1 {
        let mut all = tracked;
        all.insert(undecided[0]);
        return Ok(all);
    }
    let (first, second) = undecided.split_at(undecided.len() / 2);
    let mut with_second = tracked.clone();
    for g in second {
        with_second.insert(*g);
    }
    let found = hrefine(cx, with_second, dont.clone(), correct)?;
    let mut next = tracked;
    let mut dont = dont;
    for g in first {
        if found.contains(*g) {
            next.insert(*g);
        } else {
            dont.push(*g);
        }
    }
    hrefine(cx, next, dont, correct)
}

#[cfg(test)]
mod tests {
    use super::*;
    use boogie_like::EntityId;
    use std::convert::Infallible;

    fn program(globals: usize) -> IrProgram {
        let mut ir = IrProgram::new();
        for i in 0..globals {
            ir.add_global(format!("g{i}"), boogie_like::ir::Type::Int);
        }
        ir
    }

    /// Runs Alg. 1 from nothing tracked with `correct`, counting its checks.
    fn refine(ir: &IrProgram, correct: impl Fn(&Tracked) -> bool) -> (Vec<GlobalId>, usize) {
        let mut checks = 0usize;
        let found = hrefine(
            &mut checks,
            Tracked::none(ir),
            Vec::new(),
            &mut |checks: &mut usize, t: &Tracked| -> Result<bool, Infallible> {
                *checks += 1;
                Ok(correct(t))
            },
        )
        .unwrap_or_else(|never| match never {});
        (found.globals(), checks)
    }

    #[test]
    fn alg1_finds_the_one_global_needed_in_logarithmically_many_checks() {
        let ir = program(200);
        let needed = GlobalId::from_index(137);
        let (found, checks) = refine(&ir, |t| t.contains(needed));
        assert_eq!(found, vec![needed]);
        // O(|R| log |G|): far fewer than the 200 checks of STORM's one-by-one refinement.
        assert!(checks <= 2 * 8 + 2, "{checks} checks");
    }

    #[test]
    fn alg1_is_minimal_for_a_disjunction() {
        // Correct when g1 is tracked, or g3 and g5 both are: Theorem 1 promises a set none
        // of whose proper subsets (above the start) is correct.
        let ir = program(8);
        let g = |i| GlobalId::from_index(i);
        let correct = |t: &Tracked| t.contains(g(1)) || (t.contains(g(3)) && t.contains(g(5)));
        let (found, _) = refine(&ir, correct);
        let found_set = Tracked::of(&ir, found.iter().copied());
        assert!(correct(&found_set));
        for drop in &found {
            let smaller = Tracked::of(&ir, found.iter().copied().filter(|x| x != drop));
            assert!(
                !correct(&smaller),
                "{found:?} is not minimal: {drop:?} is not needed"
            );
        }
    }

    #[test]
    fn alg1_keeps_out_the_globals_it_is_told_not_to_track() {
        let ir = program(16);
        let g = |i| GlobalId::from_index(i);
        let dont: Vec<GlobalId> = (8..16).map(g).collect();
        let mut unit = ();
        let found = hrefine(
            &mut unit,
            Tracked::of(&ir, [g(0)]),
            dont,
            &mut |_: &mut (), t: &Tracked| -> Result<bool, Infallible> {
                Ok(t.contains(g(2)) && t.contains(g(6)))
            },
        )
        .unwrap_or_else(|never| match never {});
        assert_eq!(found.globals(), vec![g(0), g(2), g(6)]);
    }
}
