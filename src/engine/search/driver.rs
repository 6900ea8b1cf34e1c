//! The stratified-inlining driver (CORRAL, Fig. 2, with a depth bound; docs/engine.md).
//!
//! A [`Runner`] owns the call tree: the inlined instances and the open call sites, kept in
//! persistent `im` maps. Each round:
//! 1. under-approximation — every open site blocked (`¬b`); SAT ⇒ a bug within the inlined
//!    part of the tree, whose depth is at most the current bound;
//! 2. over-approximation — open sites havocked (results and modified globals free, failure
//!    flag free unless the callee can never fail), sites deeper than the current bound `k`
//!    blocked; UNSAT ⇒ no failure within depth `k`: if no site was blocked for depth the
//!    program is verified for every depth, else `k` grows, up to `--max-depth` K, where the
//!    answer is "safe up to K";
//! 3. otherwise the sites whose `b` is true in the model are inlined (the ones the
//!    counterexample walks through) and the round repeats.
//!
//! Iterative deepening makes the first bug found a shallowest one. When on-demand inlining
//! stops paying off (the [`InliningPolicy`] says so) the runner falls back to unrolling:
//! every open site up to depth K is inlined and one query decides. `--mode unroll` starts
//! there.
//!
//! CORRAL's bounds ([`CallBounds`]: the recursion bound and the stack-depth bound) block a
//! site for good when it is created: such a site is never inlined and is blocked in every
//! query, like a site beyond K. With them the loop also ends before K once every blocked
//! site is one of theirs (the call tree within the bounds is then wholly within the bound).
//!
//! Soundness: a bug is reported only from an under-approximation, where every execution the
//! formula allows runs entirely inside the inlined tree (depth ≤ K, within the bounds);
//! "verified" only from an unsatisfiable over-approximation that blocks nothing, and "safe
//! up to K" only from one in which the blocked sites are exactly the calls deeper than the
//! bound or beyond CORRAL's bounds (which the bounded semantics does not execute).
//!
//! [`CallBounds`]: crate::engine::search::call_bounds::CallBounds

use crate::engine::proofs::houdini::{Summaries, site_summary};
use crate::engine::proofs::site_facts::SiteFacts;
use crate::engine::search::backend::{Backend, CheckResult};
use crate::engine::search::tree_size;
use crate::engine::verdict::{AbstractionStats, UnknownReason};
use crate::solver::{ModelValue, SolverError};
use crate::vc::encode::{
    EncodedInput, EncodedInstance, EncodedRangeFrame, EncodedSite, Encoder, FailurePoint,
    InstanceInputs,
};
use crate::vc::smt::{Command, datatype_declarations, typed_value_term};
use boogie_like::ir::{CallSiteId, ProcId, Program as IrProgram, SourcePos, Type as IrType};
use easy_smt::SExpr;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How many keys [`Runner::complete_range_frames`] may set in all.
pub const MAX_COMPLETED_KEYS: usize = 65_536;

/// How long the model search after an `unknown` bug query may take
/// ([`Runner::check_for_bug`]).
pub const MODEL_SEARCH_WAIT: Duration = Duration::from_secs(10);

/// Why a runner stops when a partial proof covers procedures it has inlined and its
/// [`FactBoard`](crate::engine::proofs::site_facts::FactBoard) asks for a restart: the
/// caller runs the search again, with the facts assumed from its first round.
pub const RESTART_WITH_FACTS: &str = "a partial proof arrived: the search starts again with it";

mod facts;
mod limits;
mod tree_check;

pub use facts::{ProgramFacts, infer_summaries};
pub use limits::{InliningPolicy, Limits, Mode, StopSignal};

/// What one round did.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Iteration {
    pub bound: u32,
    pub open_sites: usize,
    pub inlined: usize,
    pub solver_time_ms: u64,
}

/// How a run ended.
#[derive(Clone, Debug)]
pub enum StopReason {
    /// No execution fails, at any depth.
    Verified,
    /// An execution fails within the bound: the entry's inputs and where the model fails.
    Bug {
        inputs: Vec<ModelValue>,
        /// The fresh inputs the model's execution takes, in the order it takes them.
        fresh: Vec<ModelValue>,
        /// Every value the model's execution havocs (fresh inputs included), in order.
        havocs: Vec<ModelValue>,
        failure: Option<SourcePos>,
        bound: u32,
    },
    /// No execution fails within depth `depth`.
    SafeUpTo { depth: u32 },
    /// No answer, with the reason.
    Unknown { reason: UnknownReason },
}

/// The result with statistics.
#[derive(Clone, Debug)]
pub struct RunReport {
    pub stop: StopReason,
    pub iterations: Vec<Iteration>,
    pub solver_calls: usize,
    pub inlined: usize,
    pub peak_open_sites: usize,
    pub mode_used: Mode,
    /// Houdini's summaries, if the run inferred or was given them.
    pub summaries: Option<Summaries>,
    /// The partial proofs whose facts the run assumed at open call sites.
    pub facts: Vec<Arc<SiteFacts>>,
    /// The call tree's shape when the run stopped: for each instance after the entry, in
    /// inlining order, the index of its parent instance and its call site there (what
    /// [`Runner::check_tree`] rebuilds).
    pub tree: Vec<(usize, CallSiteId)>,
    /// What the variable abstraction did, when the run was its CEGAR loop
    /// ([`crate::engine::search::cegar`]).
    pub abstraction: Option<AbstractionStats>,
}

/// A site of the call tree not inlined yet.
#[derive(Clone, Debug)]
struct OpenSite {
    site: EncodedSite,
    /// The instance the site is in.
    parent: usize,
    /// The site's position among that instance's call sites (statement order).
    slot: usize,
    /// The depth the callee's body would run at.
    callee_depth: u32,
    /// Blocked for good by CORRAL's bounds ([`crate::engine::search::call_bounds::CallBounds`]).
    beyond_bounds: bool,
}

impl OpenSite {
    /// Whether the site may be inlined or havocked at depth bound `bound`.
    fn within(&self, bound: u32) -> bool {
        self.callee_depth <= bound && !self.beyond_bounds
    }
}

/// An inlined instance.
#[derive(Clone, Debug)]
struct Instance {
    proc: ProcId,
    failure_points: Vec<FailurePoint>,
    /// Its call site's reach literal (`true` for the entry), and the instance that site is
    /// in: the instance runs iff the entry holds and the parent runs.
    entry: SExpr,
    parent: Option<usize>,
    /// The position of its call site among the parent's sites (0 for the entry).
    slot: usize,
    /// Its `havoc`s, in statement order.
    inputs: Vec<EncodedInput>,
    /// Its assumed range frames.
    range_frames: Vec<EncodedRangeFrame>,
}

/// Called after every round with its record and the number of instances so far.
type Observer<'a> = Box<dyn FnMut(&Iteration, usize) + 'a>;

/// Starts a fresh solver session.
type SessionFactory<'a> = Box<dyn FnMut() -> Result<Box<dyn Backend + 'a>, SolverError> + 'a>;

/// Houdini's summaries inferred elsewhere (on a thread beside the search), with the number
/// of checks they took; waited for when the runner first needs them.
pub type SummariesAhead<'a> = Box<dyn FnOnce() -> Result<(Summaries, usize), SolverError> + 'a>;

/// The stratified-inlining runner over one IR program.
pub struct Runner<'a, B: Backend> {
    ir: &'a IrProgram,
    backend: B,
    encoder: Encoder<'a>,
    limits: Limits,
    open: im::OrdMap<u64, OpenSite>,
    next_site: u64,
    instances: im::Vector<Instance>,
    main_args: Vec<SExpr>,
    main_fail: Option<SExpr>,
    iterations: Vec<Iteration>,
    solver_calls: usize,
    peak_open: usize,
    observer: Option<Observer<'a>>,
    /// Houdini's summaries, once inferred (`None` until a check first havocs a site).
    summaries: Option<Summaries>,
    /// Starts the separate solver session Houdini runs in.
    houdini_session: Option<SessionFactory<'a>>,
    /// Summaries being inferred beside the search (taken the first time they are needed;
    /// if that inference failed, they are inferred here as without it).
    summaries_ahead: Option<SummariesAhead<'a>>,
    /// By `ProcId` index: whether the procedure is on a call-graph cycle.
    recursive: Rc<[bool]>,
    /// The procedure the call tree starts from.
    entry: Option<ProcId>,
    /// By `GlobalId` index: the value each global starts with.
    global_defaults: Rc<[boogie_like::Value]>,
    /// The entry literals of the instances inlined since the last under-approximation
    /// (`None` before the first one): see [`Runner::under_approximation`].
    inlined_since_under: Option<Vec<SExpr>>,
    /// Whether the question "safe at every depth?" was answered `unknown` (quantifiers):
    /// then it is asked again only at the last bound.
    every_depth_unknown: bool,
    /// Whether the session already knows the program's datatypes.
    datatypes_declared: bool,
    /// The partial proofs taken from `limits.facts` so far, in publication order.
    facts: Vec<Arc<SiteFacts>>,
    /// For each instance after the entry: its parent instance and call site
    /// ([`RunReport::tree`]).
    tree: Vec<(usize, CallSiteId)>,
    /// Globals the entry starts with these terms instead of their defaults (Alg. 2's flags).
    entry_terms: Vec<(boogie_like::ir::GlobalId, SExpr)>,
}

impl<'a, B: Backend> Runner<'a, B> {
    /// Calls `observer` after every round with its record and the instances inlined so far
    /// (for a progress line).
    pub fn with_observer(mut self, observer: impl FnMut(&Iteration, usize) + 'a) -> Self {
        self.observer = Some(Box::new(observer));
        self
    }

    /// Lets the runner infer Houdini summaries (SI mode with `limits.summaries`), each time
    /// in a fresh session from `start`, so their checks see none of the call tree's
    /// formula. Without it no summaries are inferred.
    pub fn with_houdini_sessions<S: Backend + 'a>(
        mut self,
        mut start: impl FnMut() -> Result<S, SolverError> + 'a,
    ) -> Self {
        self.houdini_session = Some(Box::new(move || {
            start().map(|session| Box::new(session) as Box<dyn Backend + 'a>)
        }));
        self
    }

    pub fn new(ir: &'a IrProgram, backend: B, limits: Limits) -> Self {
        Runner::sharing(&ProgramFacts::of(ir), backend, limits)
    }

    /// A runner over the program `facts` are about, from its entry procedure (or the one
    /// [`Runner::with_entry`] names), without computing them again.
    pub fn sharing(facts: &ProgramFacts<'a>, backend: B, limits: Limits) -> Self {
        let ir = facts.encoder.ir();
        Runner {
            ir,
            backend,
            entry: ir.entrypoint(),
            global_defaults: facts.global_defaults.clone(),
            encoder: facts.encoder.clone(),
            limits,
            open: im::OrdMap::new(),
            next_site: 0,
            instances: im::Vector::new(),
            main_args: Vec::new(),
            main_fail: None,
            iterations: Vec::new(),
            solver_calls: 0,
            peak_open: 0,
            observer: None,
            summaries: None,
            houdini_session: None,
            summaries_ahead: None,
            recursive: facts.recursive.clone(),
            inlined_since_under: None,
            every_depth_unknown: false,
            datatypes_declared: false,
            facts: Vec::new(),
            tree: Vec::new(),
            entry_terms: Vec::new(),
        }
    }

    /// Takes Houdini's summaries from `ahead` (an inference of the same program's summaries
    /// running beside the search), if any, the first time they are needed.
    pub fn with_summaries_ahead(mut self, ahead: Option<SummariesAhead<'a>>) -> Self {
        self.summaries_ahead = ahead;
        self
    }

    /// Starts from summaries an earlier run over the same procedures inferred, instead of
    /// inferring them again (SI mode with `limits.summaries`).
    pub fn with_summaries(mut self, summaries: Option<Summaries>) -> Self {
        if summaries.is_some() {
            self.summaries = summaries;
        }
        self
    }

    /// Starts the call tree from `entry` (a procedure no call site calls) instead of the
    /// program's entry procedure.
    pub fn with_entry(mut self, entry: ProcId) -> Self {
        self.entry = Some(entry);
        self
    }

    /// The session already has the program's datatypes (declared once, outside the scope
    /// this runner works in).
    pub fn with_datatypes_declared(mut self) -> Self {
        self.datatypes_declared = true;
        self
    }

    /// Runs to a verdict. Solver errors become `Unknown` with the error as the reason.
    pub fn run(mut self) -> RunReport {
        let (stop, mode_used) = match self.run_inner() {
            Ok(result) => result,
            Err(e) => (StopReason::from(e), self.limits.mode),
        };
        RunReport {
            stop,
            iterations: self.iterations,
            solver_calls: self.solver_calls,
            inlined: self.instances.len(),
            peak_open_sites: self.peak_open,
            mode_used,
            summaries: self.summaries,
            facts: self.facts,
            tree: self.tree,
            abstraction: None,
        }
    }

    fn run_inner(&mut self) -> Result<(StopReason, Mode), SolverError> {
        if !self.datatypes_declared {
            self.backend
                .declare_datatypes(&datatype_declarations(self.ir))?;
        }
        if self.limits.mode == Mode::Unroll || !self.limits.summaries {
            // Unrolling stays the plain bound-K translation: the baseline.
            self.summaries = Some(vec![Vec::new(); self.ir.procs.len()]);
        }
        if self.ir.has_quantifiers() {
            // Every `sat` is an `unknown` here anyway; the bug query decides in full.
            self.backend.use_weak_arrays()?;
        }
        self.inline_entry()?;
        if self.limits.mode == Mode::Unroll {
            return Ok((self.unroll()?, Mode::Unroll));
        }
        self.stratified()
    }

    fn check_deadline(&self) -> Result<(), SolverError> {
        if let Some(why) = self.limits.stop.raised() {
            return Err(SolverError::Interrupted {
                why: why.to_string(),
            });
        }
        match self.limits.deadline {
            Some(deadline) if Instant::now() >= deadline => Err(SolverError::Timeout),
            _ => Ok(()),
        }
    }

    // ----- the loop -----

    fn stratified(&mut self) -> Result<(StopReason, Mode), SolverError> {
        let max_depth = self.limits.max_depth;
        let mut bound = max_depth.min(self.limits.first_bound.max(1));
        bound = bound.max(self.deepest_eager_bound());
        let mut rounds = 0;
        loop {
            self.check_deadline()?;
            self.take_published_facts()?;
            let started = Instant::now();
            let inlined_before = self.instances.len();
            self.inline_non_recursive(bound)?;
            self.inline_within_bound(bound)?;
            if let Some(bug) = self.under_approximation(bound)? {
                self.record(bound, started, inlined_before);
                return Ok((bug, Mode::Si));
            }
            let blocked = self.sites_blocked_at(bound);
            let over = if blocked.len() == self.open.len() {
                // Nothing within the bound is open: the same query as the one above.
                CheckResult::Unsat
            } else {
                self.ensure_summaries()?;
                self.over_approximation(&blocked)?
            };
            match over {
                CheckResult::Unsat if blocked.is_empty() => {
                    self.record(bound, started, inlined_before);
                    return Ok((StopReason::Verified, Mode::Si));
                }
                CheckResult::Unsat => {
                    // Safe within `bound`. With the deeper sites havocked (under their
                    // summaries) instead of blocked, unsatisfiable means safe at any depth:
                    // asked once summaries exist, and at the last bound in any case. When
                    // only CORRAL's bounds block sites, no deeper bound changes the answer.
                    let last = bound >= max_depth || !self.deeper_sites_open(bound);
                    if last && self.limits.final_bound {
                        self.ensure_summaries()?;
                    }
                    let verified = self.summaries.is_some()
                        && (last || !self.every_depth_unknown)
                        && self.safe_at_every_depth()?;
                    self.record(bound, started, inlined_before);
                    if verified {
                        return Ok((StopReason::Verified, Mode::Si));
                    }
                    if last {
                        return Ok((StopReason::SafeUpTo { depth: max_depth }, Mode::Si));
                    }
                    bound += 1;
                    continue;
                }
                CheckResult::Unknown { reason } => {
                    return Ok((unknown(UnknownReason::SolverUnknown(reason)), Mode::Si));
                }
                CheckResult::Sat => {
                    let chosen = self.sites_on_counterexample(bound)?;
                    if chosen.is_empty() {
                        let why =
                            "internal error: the counterexample uses no open site".to_string();
                        return Ok((unknown(UnknownReason::SolverError(why)), Mode::Si));
                    }
                    for key in chosen {
                        self.inline(key)?;
                    }
                }
            }
            self.record(bound, started, inlined_before);
            rounds += 1;
            if rounds >= self.limits.policy.max_rounds
                || self.instances.len() >= self.limits.policy.max_inlined
            {
                return Ok((self.unroll()?, Mode::Unroll));
            }
        }
    }

    /// Inlines every open site up to depth K, then asks once with the rest blocked (and, if
    /// that finds nothing, once more with them havocked, to see if it holds at every depth).
    fn unroll(&mut self) -> Result<StopReason, SolverError> {
        let max_depth = self.limits.max_depth;
        loop {
            self.check_deadline()?;
            let ready: Vec<u64> = self
                .open
                .iter()
                .filter(|(_, s)| s.within(max_depth))
                .map(|(k, _)| *k)
                .collect();
            if ready.is_empty() {
                break;
            }
            for key in ready {
                self.inline(key)?;
            }
        }
        let started = Instant::now();
        let inlined_before = self.instances.len();
        let result = match self.under_approximation(max_depth)? {
            Some(bug) => bug,
            None if self.open.is_empty() => StopReason::Verified,
            // With the sites beyond K havocked instead of blocked: unsatisfiable means
            // no failure at any depth.
            None => match self.over_approximation(&[])? {
                CheckResult::Unsat => StopReason::Verified,
                _ => StopReason::SafeUpTo { depth: max_depth },
            },
        };
        self.record(max_depth, started, inlined_before);
        Ok(result)
    }

    /// Infers Houdini summaries, if not done yet, and constrains every open site by its
    /// callee's (sites opened later get theirs when they are created).
    fn ensure_summaries(&mut self) -> Result<(), SolverError> {
        if self.summaries.is_some() {
            return Ok(());
        }
        let ahead = self.summaries_ahead.take().map(|wait| wait());
        let (inferred, checks) = match (ahead, &mut self.houdini_session) {
            (Some(Ok(inferred)), _) => inferred,
            (_, None) => (vec![Vec::new(); self.ir.procs.len()], 0),
            (_, Some(start)) => {
                let mut session = start()?;
                let encoder = &mut self.encoder.for_new_session();
                infer_summaries(encoder, &mut *session, self.limits.deadline)?
            }
        };
        self.solver_calls += checks;
        let terms = self.backend.terms();
        let commands: Vec<Command> = self
            .open
            .values()
            .filter_map(|open| site_summary(terms, &inferred, &open.site))
            .map(Command::Assert)
            .collect();
        self.summaries = Some(inferred);
        self.backend.send(commands)
    }

    /// Assumes the facts of the partial proofs published since the last round at every
    /// open site they cover (sites opened later get them when they are created).
    fn take_published_facts(&mut self) -> Result<(), SolverError> {
        let new = self.limits.facts.since(self.facts.len());
        if new.is_empty() {
            return Ok(());
        }
        let covers_inlined =
            |facts: &Arc<SiteFacts>| self.instances.iter().skip(1).any(|i| facts.knows(i.proc));
        if self.limits.facts.restarts() && new.iter().any(covers_inlined) {
            return Err(SolverError::Interrupted {
                why: RESTART_WITH_FACTS.to_string(),
            });
        }
        let terms = self.backend.terms();
        let mut commands = Vec::new();
        for facts in &new {
            for open in self.open.values() {
                let callee = open.site.callee;
                if !facts.knows(callee) {
                    continue;
                }
                let may_fail = self.encoder.may_fail(callee);
                let encoder = &mut self.encoder;
                let fresh =
                    |out: &mut Vec<Command>| encoder.fresh(terms, "measure", IrType::Int, out);
                if let Some(fact) = facts.at_site(terms, &open.site, may_fail, fresh, &mut commands)
                {
                    commands.push(Command::Assert(fact));
                }
            }
        }
        self.facts.extend(new);
        self.backend.send(commands)
    }

    /// Inlines every open site within `bound` whose callee is not recursive: such sites
    /// cannot multiply without end, and inlining them at once saves a round per site (a
    /// `Main` that dispatches to hundreds of sub-mains).
    fn inline_non_recursive(&mut self, bound: u32) -> Result<(), SolverError> {
        loop {
            let ready: Vec<u64> = self
                .open
                .iter()
                .filter(|(_, s)| s.within(bound) && !self.recursive[s.site.callee.0 as usize])
                .map(|(k, _)| *k)
                .collect();
            if ready.is_empty() {
                return Ok(());
            }
            for key in ready {
                self.inline(key)?;
            }
        }
    }

    /// Inlines open sites within `bound`, shallowest first, while the call tree stays
    /// within the policy's eager budget: a tree that small costs less as one formula than
    /// as a round per counterexample (a `Main` dispatching to hundreds of sub-mains, each
    /// with its own recursive functions). Beyond the budget, inlining is on demand.
    fn inline_within_bound(&mut self, bound: u32) -> Result<(), SolverError> {
        let budget = self.eager_budget();
        while self.instances.len() < budget {
            let next = self
                .open
                .iter()
                .filter(|(_, s)| s.within(bound))
                .min_by_key(|(k, s)| (s.callee_depth, **k))
                .map(|(k, _)| *k);
            match next {
                Some(key) => self.inline(key)?,
                None => break,
            }
        }
        Ok(())
    }

    /// Where a whole run (from bound 1 to the user's K) may start its deepening: the
    /// deepest bound whose call tree, unrolled, fits in the eager budget (0 if none, or for
    /// a pass of entry splitting). The round at that bound inlines all of it and one query
    /// decides, where the bounds below it would each cost a round of their own (and a
    /// round per counterexample). A bug found there is one within that bound, not
    /// necessarily a shallowest one.
    fn deepest_eager_bound(&self) -> u32 {
        let whole_run = self.limits.final_bound && self.limits.first_bound <= 1;
        let Some(entry) = self.entry.filter(|_| whole_run) else {
            return 0;
        };
        let budget = self.eager_budget();
        let fits = |k: u32| tree_size::unrolled_tree_size(self.ir, entry, k, budget).is_some();
        let (mut low, mut high) = (0, self.limits.max_depth);
        if fits(high) {
            return high;
        }
        // The size grows with the bound: the deepest fitting bound is in [low, high).
        while low + 1 < high {
            let mid = low + (high - low) / 2;
            if fits(mid) { low = mid } else { high = mid }
        }
        low
    }

    /// The number of instances eager inlining may grow the tree to.
    fn eager_budget(&self) -> usize {
        let policy = self.limits.policy;
        policy.eager_base + policy.eager_per_procedure * self.ir.procs.len()
    }

    fn record(&mut self, bound: u32, started: Instant, inlined_before: usize) {
        self.peak_open = self.peak_open.max(self.open.len());
        let iteration = Iteration {
            bound,
            open_sites: self.open.len(),
            inlined: self.instances.len() - inlined_before,
            solver_time_ms: started.elapsed().as_millis() as u64,
        };
        crate::engine::trace::trace!(
            "search: bound {bound} done ({} instances, {} open sites, {} ms)",
            self.instances.len(),
            self.open.len(),
            iteration.solver_time_ms
        );
        if let Some(observer) = &mut self.observer {
            observer(&iteration, self.instances.len());
        }
        self.iterations.push(iteration);
    }

    /// The open sites blocked at depth bound `bound`: deeper, or beyond CORRAL's bounds.
    fn sites_blocked_at(&self, bound: u32) -> Vec<u64> {
        self.open
            .iter()
            .filter(|(_, s)| !s.within(bound))
            .map(|(k, _)| *k)
            .collect()
    }

    /// Whether some open site is blocked at `bound` for its depth alone (a deeper bound
    /// would let it run).
    fn deeper_sites_open(&self, bound: u32) -> bool {
        self.open
            .values()
            .any(|s| s.callee_depth > bound && !s.beyond_bounds)
    }

    fn blocking(&self, keys: impl IntoIterator<Item = u64>) -> Vec<SExpr> {
        let terms = self.backend.terms();
        let mut assumptions = vec![self.main_fail.expect("internal error: entry not inlined")];
        assumptions.extend(
            keys.into_iter()
                .map(|k| terms.not(self.open[&k].site.reach)),
        );
        assumptions
    }

    /// `(check-sat-assuming …)`. With quantifiers in the program the solver instantiates
    /// them by patterns only (no model-based instantiation: it loops on uninterpreted
    /// functions as arrays) and answers `unknown` where a quantifier-free query is `sat`;
    /// its model is then a candidate like a `sat` one: more sites are inlined on it, and a
    /// bug on it is a BUG only if the concrete replay (which decides the quantifiers with
    /// the solver on the run's values, `crate::engine::confirm::quantifiers`) fails there. `unsat` stays a
    /// proof either way.
    fn check(&mut self, assumptions: &[SExpr]) -> Result<CheckResult, SolverError> {
        let result = self.check_exactly(assumptions)?;
        if matches!(result, CheckResult::Unknown { .. }) && self.ir.has_quantifiers() {
            return Ok(CheckResult::Sat);
        }
        Ok(result)
    }

    /// `(check-sat-assuming …)`, its answer as the solver gives it.
    fn check_exactly(&mut self, assumptions: &[SExpr]) -> Result<CheckResult, SolverError> {
        self.check_deadline()?;
        self.solver_calls += 1;
        self.backend.check(assumptions)
    }

    /// A check whose `sat` is a bug: after an `unknown` on a program with quantifiers,
    /// the same check with the full array theory, then with model-based instantiation
    /// (each at most [`MODEL_SEARCH_WAIT`]), so that the model the replay runs on
    /// satisfies them; their `unsat` is as good as any (a proof that no execution fails
    /// here). When both are `unknown`, the model of the first stays a candidate (see
    /// [`Runner::check`]).
    fn check_for_bug(&mut self, assumptions: &[SExpr]) -> Result<CheckResult, SolverError> {
        let result = self.check_exactly(assumptions)?;
        if !matches!(result, CheckResult::Unknown { .. }) || !self.ir.has_quantifiers() {
            return Ok(result);
        }
        self.check_deadline()?;
        self.solver_calls += 1;
        Ok(
            match self
                .backend
                .check_with_model_search(assumptions, MODEL_SEARCH_WAIT)?
            {
                CheckResult::Unknown { .. } => CheckResult::Sat,
                decided => decided,
            },
        )
    }

    /// Every open site blocked: SAT is a real bug.
    ///
    /// Only executions through an instance inlined since the last under-approximation
    /// are asked about: every other execution the formula allows now was allowed then
    /// (blocking a site only removes executions, and the sites inlined since were blocked
    /// then), and that query was unsatisfiable — else the run would have stopped with a
    /// bug. So with nothing inlined since, the answer is known; otherwise a literal
    /// `progress ⇔ ∨ entries` is assumed, which spares the solver from refuting again
    /// the parts of the call tree that did not change (a `Main` with hundreds of
    /// sub-mains, one of which a round inlined into).
    fn under_approximation(&mut self, bound: u32) -> Result<Option<StopReason>, SolverError> {
        let keys: Vec<u64> = self.open.keys().copied().collect();
        let mut assumptions = self.blocking(keys);
        match self.inlined_since_under.take() {
            Some(entries) if entries.is_empty() => {
                self.inlined_since_under = Some(entries);
                return Ok(None);
            }
            Some(entries) => assumptions.push(self.progress_literal(entries)?),
            None => {}
        }
        let result = self.check_for_bug(&assumptions)?;
        self.inlined_since_under = Some(Vec::new());
        match result {
            CheckResult::Sat => Ok(Some(self.bug(bound)?)),
            CheckResult::Unsat => Ok(None),
            CheckResult::Unknown { reason } => {
                Ok(Some(unknown(UnknownReason::SolverUnknown(reason))))
            }
        }
    }

    /// A fresh literal defined as the disjunction of `entries`.
    fn progress_literal(&mut self, entries: Vec<SExpr>) -> Result<SExpr, SolverError> {
        let terms = self.backend.terms();
        let mut commands = Vec::new();
        let literal = self
            .encoder
            .fresh(terms, "progress", IrType::Bool, &mut commands);
        let any = match entries.as_slice() {
            [one] => *one,
            _ => terms.or_many(entries),
        };
        commands.push(Command::Assert(terms.eq(literal, any)));
        self.backend.send(commands)?;
        Ok(literal)
    }

    /// Whether the query with every open site havocked is unsatisfiable (no failure at
    /// any depth); an `unknown` is remembered ([`Runner::every_depth_unknown`]).
    fn safe_at_every_depth(&mut self) -> Result<bool, SolverError> {
        let assumptions = self.blocking([]);
        let result = self.check_exactly(&assumptions)?;
        if matches!(result, CheckResult::Unknown { .. }) {
            self.every_depth_unknown = true;
        }
        Ok(result == CheckResult::Unsat)
    }

    /// Open sites havocked, `blocked` ones blocked.
    fn over_approximation(&mut self, blocked: &[u64]) -> Result<CheckResult, SolverError> {
        let assumptions = self.blocking(blocked.iter().copied());
        self.check(&assumptions)
    }

    /// Which instances run in the model (by index): an instance's own values say nothing
    /// when it does not run (vc::encode), so this goes from the root down.
    fn running_instances(&mut self) -> Result<Vec<bool>, SolverError> {
        let entries: Vec<SExpr> = self.instances.iter().map(|i| i.entry).collect();
        let values = self.backend.values(&entries)?;
        let mut running = Vec::with_capacity(values.len());
        for (instance, value) in self.instances.iter().zip(values) {
            // Parents come before their children.
            let parent_runs = instance.parent.is_none_or(|p| running[p]);
            running.push(parent_runs && value.as_bool() == Some(true));
        }
        Ok(running)
    }

    /// The open sites within `bound` the model's execution calls.
    fn sites_on_counterexample(&mut self, bound: u32) -> Result<Vec<u64>, SolverError> {
        let running = self.running_instances()?;
        let candidates: Vec<(u64, SExpr)> = self
            .open
            .iter()
            .filter(|(_, s)| s.within(bound) && running[s.parent])
            .map(|(k, s)| (*k, s.site.reach))
            .collect();
        if candidates.is_empty() {
            return Ok(Vec::new());
        }
        let reach: Vec<SExpr> = candidates.iter().map(|(_, b)| *b).collect();
        let values = self.backend.values(&reach)?;
        Ok(candidates
            .into_iter()
            .zip(values)
            .filter(|(_, v)| v.as_bool() == Some(true))
            .map(|((k, _), _)| k)
            .collect())
    }

    /// The model's entry inputs and the failure point that holds in it.
    fn bug(&mut self, bound: u32) -> Result<StopReason, SolverError> {
        let mut inputs = self.backend.values(&self.main_args.clone())?;
        let running = self.running_instances()?;
        self.complete_range_frames(&running, &mut inputs)?;
        let points: Vec<FailurePoint> = self
            .instances
            .iter()
            .zip(&running)
            .filter(|(_, runs)| **runs)
            .flat_map(|(i, _)| i.failure_points.iter().cloned())
            .collect();
        let holds: Vec<SExpr> = points.iter().map(|p| p.holds).collect();
        let values = if holds.is_empty() {
            Vec::new()
        } else {
            self.backend.values(&holds)?
        };
        let failure = points
            .iter()
            .zip(values)
            .find(|(_, v)| v.as_bool() == Some(true))
            .and_then(|(p, _)| p.source);
        let (fresh, havocs) = self.havocked_values(&running)?;
        Ok(StopReason::Bug {
            inputs,
            fresh,
            havocs,
            failure,
            bound,
        })
    }

    /// Makes the entry's input maps satisfy the range frames the running instances assume
    /// (`vc::array_frames::range_frame`) on the model's bounds and values: a model of a
    /// query with quantifiers may not satisfy them, the replay checks them, and a map no
    /// execution writes (an uninterpreted function) can hold them as well as anything.
    /// Each frame sends the keys `lo..hi` (at most [`MAX_COMPLETED_KEYS`] in all) to its
    /// value, in the order the instances were inlined; the replay decides whether the
    /// witness holds on the completed maps.
    fn complete_range_frames(
        &mut self,
        running: &[bool],
        inputs: &mut [ModelValue],
    ) -> Result<(), SolverError> {
        // With the index of the entry input each constrains.
        let frames: Vec<(usize, EncodedRangeFrame)> = self
            .instances
            .iter()
            .zip(running)
            .filter(|(_, runs)| **runs)
            .flat_map(|(i, _)| i.range_frames.iter())
            .filter_map(|f| {
                let index = self.main_args.iter().position(|a| *a == f.map)?;
                Some((index, f.clone()))
            })
            .collect();
        if frames.is_empty() {
            return Ok(());
        }
        let mut terms = Vec::new();
        for (_, f) in &frames {
            terms.extend([f.reach, f.low.0, f.high.0, f.value]);
        }
        let values = self.backend.values(&terms)?;
        let mut budget = MAX_COMPLETED_KEYS;
        for ((index, frame), v) in frames.iter().zip(values.chunks(4)) {
            let [reach, low, high, value] = v else {
                continue;
            };
            let (Some(true), Some(low), Some(high)) =
                (reach.as_bool(), low.as_int(), high.as_int())
            else {
                continue;
            };
            let low = low + u8::from(frame.low.1);
            let high = high + u8::from(frame.high.1);
            let ModelValue::Array { entries, .. } = &mut inputs[*index] else {
                continue;
            };
            let mut key = low;
            while key < high && budget > 0 {
                entries.push((ModelValue::Int(key.clone()), value.clone()));
                key += 1;
                budget -= 1;
            }
        }
        Ok(())
    }

    /// The fresh inputs, then all the values, the model's execution havocs, in the order
    /// it takes them: the running instances depth first, each one's havocs and inlined
    /// calls in statement order (lowered bodies have no loops, so statement order is
    /// execution order), the havocs whose path condition holds.
    #[allow(clippy::type_complexity)]
    fn havocked_values(
        &mut self,
        running: &[bool],
    ) -> Result<(Vec<ModelValue>, Vec<ModelValue>), SolverError> {
        let mut children: Vec<Vec<(usize, usize)>> = vec![Vec::new(); self.instances.len()];
        for (index, instance) in self.instances.iter().enumerate() {
            if let Some(parent) = instance.parent
                && running[index]
            {
                children[parent].push((instance.slot, index));
            }
        }
        let mut taken = Vec::new();
        if running.first() == Some(&true) {
            self.inputs_of(0, &mut children, &mut taken);
        }
        let reach: Vec<SExpr> = taken.iter().map(|i| i.reach).collect();
        let values: Vec<SExpr> = taken.iter().map(|i| i.value).collect();
        if taken.is_empty() {
            return Ok((Vec::new(), Vec::new()));
        }
        let reached = self.backend.values(&reach)?;
        let values = self.backend.values(&values)?;
        let (mut fresh, mut havocs) = (Vec::new(), Vec::new());
        for ((input, reached), value) in taken.iter().zip(reached).zip(values) {
            if reached.as_bool() != Some(true) {
                continue;
            }
            if input.fresh {
                fresh.push(value.clone());
            }
            havocs.push(value);
        }
        Ok((fresh, havocs))
    }

    /// The inputs of instance `index` and of the running instances below it, in order.
    fn inputs_of(
        &self,
        index: usize,
        children: &mut [Vec<(usize, usize)>],
        out: &mut Vec<EncodedInput>,
    ) {
        let mut below = std::mem::take(&mut children[index]);
        below.sort_unstable();
        let mut below = below.into_iter().peekable();
        for input in &self.instances[index].inputs {
            while let Some((_, child)) = below.next_if(|(slot, _)| *slot < input.after_sites) {
                self.inputs_of(child, children, out);
            }
            out.push(input.clone());
        }
        for (_, child) in below {
            self.inputs_of(child, children, out);
        }
    }

    // ----- inlining -----

    fn inline_entry(&mut self) -> Result<(), SolverError> {
        let entry = self
            .entry
            .expect("internal error: the IR has no entry procedure");
        let proc = &self.ir.procs[entry];
        let mut commands = Vec::new();
        let terms = self.backend.terms();
        let args: Vec<SExpr> = proc
            .params
            .iter()
            .map(|p| {
                self.encoder
                    .fresh(terms, "input", proc.locals[*p].ty, &mut commands)
            })
            .collect();
        // Globals start at their type's default, as in the IR interpreter (docs/ir.md).
        let globals = proc
            .reads
            .iter()
            .chain(&proc.modifies)
            .map(
                |g| match self.entry_terms.iter().find(|(free, _)| free == g) {
                    Some((_, term)) => (*g, *term),
                    None => {
                        let value = &self.global_defaults[g.0 as usize];
                        let ty = self.ir.globals[*g].ty;
                        (*g, typed_value_term(terms, self.ir, value, ty))
                    }
                },
            )
            .collect();
        let inputs = InstanceInputs {
            args: args.clone(),
            globals,
            entry: terms.true_(),
        };
        let instance = self.encoder.instance(terms, entry, &inputs, &mut commands);
        self.main_args = args;
        self.main_fail = Some(instance.fail);
        let always = terms.true_();
        self.add_instance(instance, (always, None, 0), 0, &mut commands);
        self.backend.send(commands)
    }

    /// Registers an inlined instance; its call sites become open sites, each constrained by
    /// its callee's summary.
    /// `(entry, parent, slot)` place it in the call tree.
    fn add_instance(
        &mut self,
        instance: EncodedInstance,
        (entry, parent, slot): (SExpr, Option<usize>, usize),
        depth: u32,
        commands: &mut Vec<Command>,
    ) {
        let index = self.instances.len();
        let stack = match self.limits.bounds.recursion {
            Some(_) => self.call_stack(instance.proc, parent),
            None => Vec::new(),
        };
        for (site_slot, site) in instance.sites.into_iter().enumerate() {
            let activations = stack.iter().filter(|p| **p == site.callee).count() as u32;
            let beyond_bounds = self.limits.bounds.blocks(depth + 1, activations);
            if let Some(summaries) = &self.summaries
                && let Some(summary) = site_summary(self.backend.terms(), summaries, &site)
            {
                commands.push(Command::Assert(summary));
            }
            for facts in &self.facts {
                let terms = self.backend.terms();
                let may_fail = self.encoder.may_fail(site.callee);
                let encoder = &mut self.encoder;
                let fresh =
                    |out: &mut Vec<Command>| encoder.fresh(terms, "measure", IrType::Int, out);
                if let Some(fact) = facts.at_site(terms, &site, may_fail, fresh, commands) {
                    commands.push(Command::Assert(fact));
                }
            }
            self.open.insert(
                self.next_site,
                OpenSite {
                    site,
                    parent: index,
                    slot: site_slot,
                    callee_depth: depth + 1,
                    beyond_bounds,
                },
            );
            self.next_site += 1;
        }
        self.instances.push_back(Instance {
            proc: instance.proc,
            failure_points: instance.failure_points,
            entry,
            parent,
            slot,
            inputs: instance.inputs,
            range_frames: instance.range_frames,
        });
        self.peak_open = self.peak_open.max(self.open.len());
    }

    /// The procedures on the call stack of an instance of `proc` whose call site is in
    /// instance `parent`: `proc` and its callers up to the entry.
    fn call_stack(&self, proc: ProcId, mut parent: Option<usize>) -> Vec<ProcId> {
        let mut stack = vec![proc];
        while let Some(index) = parent {
            stack.push(self.instances[index].proc);
            parent = self.instances[index].parent;
        }
        stack
    }

    /// Replaces the open site `key` by an instance of its callee.
    fn inline(&mut self, key: u64) -> Result<(), SolverError> {
        let open = self.open.remove(&key).expect("internal error: open site");
        let site = open.site;
        self.tree.push((open.parent, site.site));
        let terms = self.backend.terms();
        let mut commands = Vec::new();
        let instance = self.encoder.inline_site(terms, &site, &mut commands);
        self.add_instance(
            instance,
            (site.reach, Some(open.parent), open.slot),
            open.callee_depth,
            &mut commands,
        );
        if let Some(entries) = &mut self.inlined_since_under {
            entries.push(site.reach);
        }
        self.backend.send(commands)
    }
}

pub(super) fn unknown(reason: UnknownReason) -> StopReason {
    StopReason::Unknown { reason }
}

/// A solver error ends a run without an answer: a timeout as such, anything else with the
/// error as the reason.
impl From<SolverError> for StopReason {
    fn from(e: SolverError) -> StopReason {
        match e {
            SolverError::Timeout => unknown(UnknownReason::Timeout),
            SolverError::Interrupted { why } => unknown(UnknownReason::Interrupted(why)),
            other => unknown(UnknownReason::SolverError(other.to_string())),
        }
    }
}
