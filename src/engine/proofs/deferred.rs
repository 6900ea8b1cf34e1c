//! When the Horn-clause engine runs beside the search: Spacer joins once the search has run
//! for [`CHC_DELAY`] (or when it ends without a bug, if the run then waits at least
//! [`MIN_PROOF_WINDOW`] for a proof), procedures are proved on their
//! own for the search after `Options::partial_delay`, and a proof found earlier in this
//! process (or a re-checked certificate of the proof cache) answers before any search.
//! Guarantee: nothing here decides a verdict; a task's proof is re-checked by `chc` before
//! it is an answer, and a proof raises the run's stop signal ([`PROVED_BY_CHC`]) and kills
//! the search's solver processes (the proof is set on its task first).

use crate::engine::options::Options;
use crate::engine::proofs;
use crate::engine::resources::{self, SolverPids};
use crate::engine::search::driver::{Mode, StopReason, StopSignal};
use crate::engine::trace::trace;
use crate::solver::SolverKind;
use crate::vc::horn::HornSystem;
use boogie_like::ir::Program as IrProgram;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The Horn-clause engine of a run: it starts once the search has run for
/// [`CHC_DELAY`] (a bug found at once needs no proof, and a small run should not share
/// its cores with Spacer), or when the search has ended without a bug. It tries the IR's
/// clauses, for a program with lists also their measures-only projection
/// ([`crate::vc::measure_abstract`]), and every system of `Options::extra_chc`, each in a
/// task of its own.
pub struct DeferredChc {
    pending: Vec<Attempt>,
    tasks: Vec<proofs::chc::ChcTask>,
    stop: StopSignal,
    /// The search's solver processes, killed when a proof arrives.
    search_pids: SolverPids,
    /// The procedures proved on their own for the search ([`partial_proofs`]).
    partial: PartialPlan,
    board: proofs::site_facts::FactBoard,
}

/// Where the partial proofs of a run stand.
enum PartialPlan {
    /// To start once the search has run for the delay ([`Options::partial_delay`]).
    Waiting(proofs::chc::ChcLimits, Duration),
    /// Running; held so that they run, dropping them kills their solvers.
    Started(
        #[expect(dead_code, reason = "held, never read")] Vec<proofs::partial_proofs::PartialTask>,
    ),
    /// Not tried, or no longer of use.
    Ended,
}

/// What to try: one Horn system in the given Spacer configurations, or the entry's
/// cases.
enum Attempt {
    Whole {
        system: HornSystem,
        configurations: &'static [&'static str],
        limits: proofs::chc::ChcLimits,
    },
    Cases {
        source: Arc<proofs::case_proofs::CaseSource>,
        limits: proofs::chc::ChcLimits,
    },
    /// One Horn system seeded with the relational list facts Houdini proves inductive
    /// first ([`proofs::seeded`]).
    Seeded {
        system: HornSystem,
        limits: proofs::chc::ChcLimits,
    },
}

impl Attempt {
    /// A proof this process already found for the same attempt, or a certificate of the
    /// proof cache that passes its re-check.
    fn remembered_proof(&self) -> Option<proofs::proof::Proof> {
        use proofs::chc;
        let answer = match self {
            Attempt::Whole {
                system,
                configurations,
                limits,
            } => match chc::remembered_answer(system, *limits) {
                Some(answer) => answer,
                None => {
                    let never = std::sync::atomic::AtomicBool::new(false);
                    match chc::cached(system, configurations, *limits, &never).flatten()? {
                        chc::Solved::Model(model) => {
                            chc::ChcAnswer::Proved(chc::proof(system, &model))
                        }
                        _ => return None,
                    }
                }
            },
            Attempt::Cases { source, limits } => {
                proofs::chc::remembered(proofs::case_proofs::key(source, *limits))?
            }
            Attempt::Seeded { system, limits } => {
                proofs::chc::remembered(proofs::seeded::key(system, *limits))?
            }
        };
        match answer {
            proofs::chc::ChcAnswer::Proved(proof) => Some(proof),
            _ => None,
        }
    }

    fn start(
        self,
        on_answer: impl FnOnce(&proofs::chc::ChcAnswer) + Send + 'static,
    ) -> proofs::chc::ChcTask {
        match self {
            Attempt::Whole {
                system,
                configurations,
                limits,
            } => proofs::chc::ChcTask::start_with(system, configurations, limits, on_answer),
            Attempt::Cases { source, limits } => {
                proofs::case_proofs::start(source, limits, on_answer)
            }
            Attempt::Seeded { system, limits } => {
                let key = proofs::seeded::key(&system, limits);
                let work = move |cancelled: &std::sync::atomic::AtomicBool| {
                    proofs::seeded::solve(&system, REFINEMENT_CONFIGURATION, limits, cancelled)
                };
                proofs::chc::ChcTask::spawn(key, work, on_answer)
            }
        }
    }
}

/// The program every whole-program Horn system is built from (and `lower --emit chc…`
/// prints the clauses of): `ir` after the IR passes that keep its runs and make its
/// summaries simpler. Each pass states its own guarantee (same runs); `ir` itself when
/// none applies.
pub fn proof_program(ir: &IrProgram) -> std::borrow::Cow<'_, IrProgram> {
    use std::borrow::Cow;
    let mut program = Cow::Borrowed(ir);
    // Closure fields every construction fills with one literal (`add 5`) read as it
    // (`boogie_like::ir::constant_fields`): same runs, and a summary such as
    // `x + 5 · n` stays linear.
    if let Some(folded) = boogie_like::ir::constant_fields::fold_constant_fields(&program) {
        program = Cow::Owned(folded);
    }
    // Datatypes that box one scalar (a closure capturing one integer) read as the scalar
    // (`boogie_like::ir::unbox`): a list of such closures is a list of integers, whose
    // measures (a sum of the steps applied in turn) the clauses state.
    if let Some(unboxed) = boogie_like::ir::unbox::unbox_scalar_datatypes(&program) {
        program = Cow::Owned(unboxed);
    }
    // Parameters every call passes in one residue class modulo a divisor of the program
    // (`step = 2 * k` passed down): assumed at the callee's start
    // (`boogie_like::ir::congruences`).
    if let Some(congruent) = boogie_like::ir::congruences::assume_congruences(&program) {
        program = Cow::Owned(congruent);
    }
    program
}

/// [`proof_program`] with every call that passes a known closure (`iter n (add 3) 0`) sent
/// to a copy of its callee bound to it (`boogie_like::ir::specialize`), or `None` when no
/// call passes one. Each copy's summary is that of one closure (`x + 3 · n`), not a
/// disjunction over every closure the callee is passed; the copies make a system larger,
/// so its clauses are tried beside the others', not instead of them.
pub fn specialised_program(program: &IrProgram) -> Option<IrProgram> {
    boogie_like::ir::specialize::specialize_known_closures(&proof_program(program))
}

/// How the systems of `Options::extra_chc` are solved: Spacer with global guidance.
/// Measured on the refinement clauses (20 s each): it solves `array`, `a-init`, which
/// the default configuration does not within 20 s, and everything the default solves.
pub const REFINEMENT_CONFIGURATION: &[&str] = &["(set-option :fp.spacer.global true)"];

/// How the cases of an entry split by an input's class are solved: Spacer with global
/// guidance, and the same with another random seed: Spacer's time on one such case
/// depends on the seed far more than on the clauses (`list_even_map.ml`'s case
/// `p ≥ 0 and odd`: 1.1 s with seeds 1 and 3, out of time after 20 s with seed 2 and, in
/// the engine's run, with the default seed). The second lane starts a stagger step after
/// the first where no core is free (`lanes`).
pub const INPUT_CLASS_CONFIGURATIONS: &[&str] = &[
    "(set-option :fp.spacer.global true)",
    "(set-option :fp.spacer.global true)(set-option :fp.spacer.random_seed 1)",
];

/// The least wait for a proof worth starting Spacer for once the search has ended: a
/// shorter one ends before its process and its model's re-check could (measured: the
/// quickest proofs of the shared suite take 0.1–0.15 s), and starting it would only
/// delay the answer by the time its processes take to start and stop.
pub const MIN_PROOF_WINDOW: Duration = Duration::from_millis(100);

/// How long the search runs alone before Spacer joins it: as long as the least wait worth
/// starting Spacer for ([`MIN_PROOF_WINDOW`]), since a search that ends later waits at
/// least that long for a proof anyway (the default wait is the search's own time). A run
/// this short (most pairs of the shared suite) never starts a Spacer process, and a longer
/// one starts its first lane only ([`proofs::lanes`]), niced. Measured (RESULTS.md,
/// "Spacer's lanes one after the other"): 0.05 s made the suite's default 13 % slower —
/// pairs whose search takes 0.05–0.1 s then started Spacer, waited and stopped it, rarely
/// for a proof; 0.15 s made `l-zipunzip`'s proofs (0.2 s) land after its wait
/// ("Spacer joining at the least wait", 28 Nov).
const CHC_DELAY: Duration = MIN_PROOF_WINDOW;

impl DeferredChc {
    /// `None` unless the run may use it (SI mode, z3, asked for) and the entry may fail.
    pub fn new(
        ir: &IrProgram,
        options: &Options,
        started: Instant,
        (stop, board, search_pids): (&StopSignal, &proofs::site_facts::FactBoard, &SolverPids),
    ) -> Option<Self> {
        if !options.chc || options.mode != Mode::Si || options.solver != SolverKind::Z3 {
            return None;
        }
        let budget = match &options.proof_cases {
            Some(_) => options.chc_budget * proofs::case_proofs::BUDGET_FACTOR,
            None => options.chc_budget,
        };
        let budget = match options.timeout {
            Some(timeout) => budget.min(timeout),
            None => budget,
        };
        let limits = proofs::chc::ChcLimits {
            deadline: started + budget,
            budget,
            memory_mib: options.memory_limit_mib,
            cache: options
                .proof_cache
                .as_deref()
                .map(proofs::proof_cache::intern),
            // Beside the whole program's search, Spacer is background work. A program
            // proved case by case (the generated ones) is one whose search at a large K
            // is hopeless and whose proof is the answer: its cases keep normal priority.
            background: options.proof_cases.is_none(),
            lanes: None,
            dump: options.dump_smt.as_deref().map(proofs::proof_cache::intern),
        };
        let pending: Vec<Attempt> = match &options.proof_cases {
            Some(source) => vec![Attempt::Cases {
                source: source.clone(),
                limits,
            }],
            None => whole_attempts(ir, &options.extra_chc, limits, started),
        };
        if pending.is_empty() {
            return None;
        }
        let partial = match &options.proof_cases {
            // Cases are proved one by one already; the roots would be the cases again.
            Some(_) => PartialPlan::Ended,
            None => {
                // After every lane of the whole program's systems.
                let lanes = proofs::lanes::LanePlan {
                    began: started,
                    first: lane_count(&pending),
                    step: 1,
                };
                let limits = proofs::chc::ChcLimits {
                    lanes: Some(lanes),
                    ..limits
                };
                PartialPlan::Waiting(limits, options.partial_delay)
            }
        };
        Some(DeferredChc {
            pending,
            tasks: Vec::new(),
            stop: stop.clone(),
            search_pids: search_pids.clone(),
            partial,
            board: board.clone(),
        })
    }

    /// A proof this process already found for the same clauses.
    pub fn remembered_proof(&self) -> Option<proofs::proof::Proof> {
        self.pending.iter().find_map(Attempt::remembered_proof)
    }

    /// Starts Spacer if the search has run for long enough, and the partial proofs if it
    /// has run longer.
    pub fn tick(&mut self, ir: &IrProgram, started: Instant) {
        if started.elapsed() >= CHC_DELAY {
            self.start_now();
        }
        if let PartialPlan::Waiting(limits, delay) = &self.partial
            && started.elapsed() >= *delay
        {
            let tasks = proofs::partial_proofs::start(ir, *limits, &self.board);
            self.partial = PartialPlan::Started(tasks);
        }
    }

    /// The search has ended with `searched`: the partial proofs have nothing left to prune,
    /// and Spacer starts now unless the search decided the program itself or the run waits
    /// for a proof only until `until`, less than [`MIN_PROOF_WINDOW`] from now (and Spacer
    /// did not join the search already). The tasks to wait for, and whether Spacer was
    /// left unstarted for that reason.
    pub fn search_ended(
        mut self,
        searched: &StopReason,
        until: Instant,
    ) -> (Vec<proofs::chc::ChcTask>, bool) {
        self.partial = PartialPlan::Ended;
        let mut not_tried = false;
        if !matches!(searched, StopReason::Bug { .. } | StopReason::Verified) {
            if self.tasks.is_empty() && until < Instant::now() + MIN_PROOF_WINDOW {
                not_tried = !self.pending.is_empty();
                trace!("Spacer not started: the wait is shorter than MIN_PROOF_WINDOW");
            } else {
                self.start_now();
            }
        }
        (self.tasks, not_tried)
    }

    fn start_now(&mut self) {
        if !self.pending.is_empty() {
            trace!("Spacer joins: {} attempt(s)", self.pending.len());
        }
        for attempt in std::mem::take(&mut self.pending) {
            let (stop, search_pids) = (self.stop.clone(), self.search_pids.clone());
            let on_answer = move |answer: &proofs::chc::ChcAnswer| {
                if matches!(answer, proofs::chc::ChcAnswer::Proved(_)) {
                    stop.raise(PROVED_BY_CHC);
                    // The search looks at its stop signal between rounds only; a query
                    // under way (a minute, for gen-400 at K = 15) ends with its solver. The
                    // answer is the proof, already set on the task (`ChcTask::spawn`).
                    resources::kill_children(&search_pids);
                }
            };
            self.tasks.push(attempt.start(on_answer));
        }
    }
}

/// The attempts on the whole program: the IR's clauses in Spacer's configurations, their
/// measures-only abstraction (if the relations carry lists) and each system of `extra`
/// (with a goal) in [`REFINEMENT_CONFIGURATION`], their lanes ranked configuration by
/// configuration: every system's first configuration before any system's second
/// ([`proofs::lanes`]; the first configurations solve the most, measured in
/// benchmarks/RESULTS.md). The clauses with calling contexts come after all of those
/// lanes: they prove loops the others cannot, and in the shared suite, ranked among the
/// first, they took the slot of the lanes that prove its programs within the default wait
/// (RESULTS.md, "Heap maps and loops"), after the measures-only clauses with least and
/// greatest list elements for programs that build lists of bounded elements. Then, for
/// programs with maps, the clauses over one, then two, distinguished cells of every map
/// (`vc::horn_cells`: loops filling a map, transfers keeping a sum). Last of all, for
/// programs that divide toward zero, the entry split by an input's class
/// ([`input_class_cases`]). After those, [`LATE_RANKS`] later, the exact and
/// measures-only clauses of the program with calls passing known closures specialised.
/// Every system is built from [`proof_program`] (constant closure fields read as their
/// literals, …), the late ones from it specialised ([`specialised_program`]).
fn whole_attempts(
    ir: &IrProgram,
    extra: &[Arc<HornSystem>],
    limits: proofs::chc::ChcLimits,
    began: Instant,
) -> Vec<Attempt> {
    let mut systems: Vec<(HornSystem, &'static [&'static str])> = Vec::new();
    let mut last = Vec::new();
    let mut late = Vec::new();
    let mut classes = Vec::new();
    let mut seeded = Vec::new();
    let prepared = proof_program(ir);
    let ir: &IrProgram = &prepared;
    if let Some(system) = proofs::chc::system_of(ir) {
        // Lists seen through their measures only: a second system beside the exact one
        // (`vc::measure_abstract`), projected from the clauses with the calls of small
        // non-recursive procedures unfolded (`vc::horn_inline`: `List.hd l` and
        // `List.tl l` then share a clause, so their results stay related through `l`'s
        // measures).
        let measures_only = |unfolded: Option<crate::vc::horn::HornSystem>| {
            unfolded
                .filter(crate::vc::horn::HornSystem::has_goal)
                .and_then(|unfolded| crate::vc::measure_abstract::measures_only(&unfolded))
        };
        let measured = measures_only(crate::vc::horn::HornSystem::of_unfolded(ir));
        // The same with every list's least and greatest element, for a program that
        // builds lists of elements it bounds (`range 1 n`, each element then a divisor):
        // a system of its own, since two more parameters per list cost the first its
        // proofs of some programs.
        let bounded = measures_only(crate::vc::horn::HornSystem::of_unfolded_with_bounds(ir));
        // The same with every list's first element and its breaks of `+1` / `-1` steps,
        // for a program that builds ranges (`upto a b`: "`x` is not in it" is then
        // linear): a system of its own, as the bounds one is.
        let ranged = measures_only(crate::vc::horn::HornSystem::of_unfolded_with_ranges(ir));
        // The same with every list's first element, for a program that reads heads
        // outside every traversal (a stack's `pop` returns the element last pushed): a
        // system of its own, as the bounds one is.
        let headed = measures_only(crate::vc::horn::HornSystem::of_unfolded_with_heads(ir));
        // The same with every value of a datatype that nests itself and holds integers
        // carrying its total (a tree of closures composed, a list of closures capturing
        // integers: what applying them adds), for a program that builds such values and
        // adds: a system of its own.
        let totaled = measures_only(crate::vc::horn::HornSystem::of_unfolded_with_totals(ir));
        // The same clauses asked only about the inputs each procedure is called with
        // (`vc::horn_contexts`: loops proved by forward invariants).
        let contexts = crate::vc::horn_contexts::with_call_contexts(&system);
        // The clauses over one cell of every map, then over two (`vc::horn_cells`: a map
        // filled by a loop, whose summary over all indices Spacer rarely finds, is linear
        // over one cell; a sum of two balances kept by transfers, over two).
        let cells = [1, 2].map(|n| crate::vc::horn_cells::tracked_cells(&system, n));
        // The clauses, exact and measures-only, of the program with calls passing known
        // closures specialised (`specialised_program`): started late ([`LATE_RANKS`]).
        let specialised_ir = boogie_like::ir::specialize::specialize_known_closures(ir);
        let specialised = specialised_ir.as_ref().and_then(proofs::chc::system_of);
        let specialised_measured = specialised_ir
            .as_ref()
            .and_then(|ir| measures_only(crate::vc::horn::HornSystem::of_unfolded(ir)));
        // Both with every product of two variables and every remainder by a literal of 3
        // or more abstracted (`vc::horn_products`: linear facts of signs, ranges and
        // parities, which Spacer reasons with where products and remainders stop it), for
        // a program that has them: systems of their own, since a proof needing a
        // product's or a remainder's value needs the exact clauses. The same for the
        // system with least and greatest elements (elements made up as `(i * 5) mod 11`),
        // tried right after it.
        let products_abstracted = [Some(&system), measured.as_ref()]
            .map(|s| s.and_then(crate::vc::horn_products::products_abstracted));
        let bounded_abstracted = bounded
            .as_ref()
            .and_then(crate::vc::horn_products::products_abstracted);
        // Which system each file of `--dump-smt` and each lane of `HOREF_TRACE` is.
        if crate::engine::trace::enabled() {
            let named = [
                ("the exact clauses", Some(&system)),
                ("measures only", measured.as_ref()),
                ("products abstracted", products_abstracted[0].as_ref()),
                (
                    "measures only, products abstracted",
                    products_abstracted[1].as_ref(),
                ),
                ("least and greatest elements", bounded.as_ref()),
                (
                    "least and greatest elements, products abstracted",
                    bounded_abstracted.as_ref(),
                ),
                ("ranges", ranged.as_ref()),
                ("first elements", headed.as_ref()),
                ("totals", totaled.as_ref()),
                ("calling contexts", contexts.as_ref()),
                ("one cell of every map", cells[0].as_ref()),
                ("two cells of every map", cells[1].as_ref()),
                ("known closures specialised", specialised.as_ref()),
                (
                    "known closures specialised, measures only",
                    specialised_measured.as_ref(),
                ),
            ];
            for (kind, system) in named {
                if let Some(system) = system {
                    trace!(
                        "Spacer plan: system {:016x} is {kind}",
                        proofs::chc::system_key(system)
                    );
                }
            }
        }
        let configurations = proofs::chc::configurations_for(&system);
        classes = input_class_cases(ir, &system, measured.as_ref());
        systems.push((system, configurations));
        // The measures-only clauses seeded with the relational list facts Houdini proves
        // inductive (`proofs::seeded`), after the other systems of programs with lists.
        seeded.extend(
            measured
                .iter()
                .filter(|s| proofs::seeded::applies(s))
                .cloned(),
        );
        systems.extend(measured.map(|s| (s, REFINEMENT_CONFIGURATION)));
        let products_abstracted = products_abstracted.into_iter().flatten();
        systems.extend(products_abstracted.map(|s| (s, REFINEMENT_CONFIGURATION)));
        late.extend(specialised_measured);
        late.extend(specialised);
        last.extend(bounded);
        last.extend(bounded_abstracted);
        last.extend(ranged);
        last.extend(headed);
        last.extend(totaled);
        last.extend(contexts);
        last.extend(cells.into_iter().flatten());
    }
    let extra = extra.iter().filter(|s| s.has_goal());
    systems.extend(extra.map(|s| ((**s).clone(), REFINEMENT_CONFIGURATION)));
    let step = u32::try_from(systems.len()).unwrap_or(u32::MAX);
    let most = systems.iter().map(|(_, c)| c.len()).max().unwrap_or(0);
    let after = step.saturating_mul(u32::try_from(most).unwrap_or(u32::MAX));
    let plan = |first, step| proofs::lanes::LanePlan { began, first, step };
    let ranked = (0u32..)
        .zip(systems)
        .map(|(first, s)| (s, plan(first, step)));
    let after_last = after.saturating_add(u32::try_from(last.len()).unwrap_or(u32::MAX));
    let last = (after..)
        .zip(last)
        .map(|(rank, system)| ((system, REFINEMENT_CONFIGURATION), plan(rank, 1)));
    let mut attempts: Vec<Attempt> = ranked
        .chain(last)
        .map(|((system, configurations), lanes)| Attempt::Whole {
            system,
            configurations,
            limits: proofs::chc::ChcLimits {
                lanes: Some(lanes),
                ..limits
            },
        })
        .collect();
    let after_seeded = after_last.saturating_add(u32::try_from(seeded.len()).unwrap_or(u32::MAX));
    attempts.extend(
        (after_last..)
            .zip(seeded)
            .map(|(rank, system)| Attempt::Seeded {
                system,
                limits: proofs::chc::ChcLimits {
                    lanes: Some(plan(rank, 1)),
                    ..limits
                },
            }),
    );
    // The entry split by an input's class comes after everything else.
    let classes_end = after_seeded.saturating_add(u32::try_from(classes.len()).unwrap_or(u32::MAX));
    attempts.extend(
        (after_seeded..)
            .zip(classes)
            .map(|(rank, source)| Attempt::Cases {
                source: Arc::new(source),
                limits: proofs::chc::ChcLimits {
                    lanes: Some(plan(rank, 1)),
                    ..limits
                },
            }),
    );
    // Then, [`LATE_RANKS`] later, the systems that help only some programs.
    attempts.extend(
        (classes_end.saturating_add(LATE_RANKS)..)
            .zip(late)
            .map(|(rank, system)| Attempt::Whole {
                system,
                configurations: REFINEMENT_CONFIGURATION,
                limits: proofs::chc::ChcLimits {
                    lanes: Some(plan(rank, 1)),
                    ..limits
                },
            }),
    );
    without_repeats(attempts)
}

/// `attempts` without a whole-program system an earlier attempt already runs, in the same
/// configurations or more: a lane on it would only repeat another's work on the shared
/// cores. The system with least and greatest elements is the measures-only one when no
/// list the relations keep gains those measures (`closure_stack_pair.ml`: its measures-only
/// system and its products-abstracted twin each ran twice; 6 of the 361 systems built
/// for tests/proofs, `benchmarks/system_kinds.py`).
fn without_repeats(attempts: Vec<Attempt>) -> Vec<Attempt> {
    let mut kept: Vec<Attempt> = Vec::with_capacity(attempts.len());
    for attempt in attempts {
        let repeated = match &attempt {
            Attempt::Whole {
                system,
                configurations,
                ..
            } => kept.iter().any(|earlier| {
                matches!(earlier, Attempt::Whole { system: s, configurations: c, .. }
                    if s == system && configurations.iter().all(|x| c.contains(x)))
            }),
            Attempt::Cases { .. } | Attempt::Seeded { .. } => false,
        };
        if !repeated {
            kept.push(attempt);
        }
    }
    kept
}

/// How many ranks after every other lane the clauses with known closures specialised
/// start: `LATE_RANKS × lanes::STAGGER` (8 s) after the run's proof work began, unless a
/// core is free before. They are larger than the plain clauses and prove only some
/// programs; ranked right after the exact and measures-only systems, their lanes took
/// the cores of the lanes that prove others (`tests/proofs/closure_compose.horef`: 8.5 s
/// to 10.5–11 s, load 5; past its 60 s in the test run beside four other tests), while
/// the programs they prove take 20 s and more of Spacer anyway
/// (`tests/proofs/list_odd_filter_shift.ml`).
const LATE_RANKS: u32 = 40;

/// For a program that divides toward zero (OCaml's `/` and `mod`), the entry split by the
/// class of each of its first two integer inputs (`vc::horn_input_split`): by sign, and
/// by parity too if the program takes remainders by 2; each case asked of the
/// measures-only clauses (`measured`), or the exact ones for a program without lists,
/// with the goal restricted to inputs of that class; a proof of every case is a proof of
/// the program. Such a division's encoding branches on the dividend's sign, and a summary
/// over it needs that disjunction, which Spacer rarely finds, while each case needs none
/// (`tests/proofs/list_even_map.ml`: every element of a list built from `p` has `p`'s
/// parity; not proved in a minute as a whole, each of the four classes of `p` in under
/// one second).
fn input_class_cases(
    ir: &IrProgram,
    exact: &HornSystem,
    measured: Option<&HornSystem>,
) -> Vec<proofs::case_proofs::CaseSource> {
    use crate::vc::horn_input_split::{InputClass, with_input_class};
    use proofs::case_proofs::{CaseSource, CaseSystem, ProofCase};
    let Some(entry) = ir.entrypoint() else {
        return Vec::new();
    };
    if !ir.divides_toward_zero() {
        return Vec::new();
    }
    let by_parity = ir.takes_remainders_by(2);
    let system = measured.unwrap_or(exact);
    let main = &ir.procs[entry];
    let ints = main
        .params
        .iter()
        .map(|p| &main.locals[*p])
        .filter(|local| local.ty == boogie_like::ir::Type::Int);
    // The cases are built on the proof's thread; they are known by the system they
    // restrict (hashed once), the input and the classes.
    let system = Arc::new(system.clone());
    let mut program_hasher = std::hash::DefaultHasher::new();
    std::hash::Hash::hash(&system.script(), &mut program_hasher);
    let mut sources = Vec::new();
    let classes = InputClass::all(by_parity);
    for (input, local) in ints.enumerate().take(2) {
        // Whether the input can be split does not depend on the class.
        if with_input_class(&system, input, classes[0]).is_none() {
            continue;
        }
        let mut hasher = program_hasher.clone();
        std::hash::Hash::hash(&(input, by_parity), &mut hasher);
        let key = std::hash::Hasher::finish(&hasher);
        let (system, name, classes) = (system.clone(), local.name.clone(), classes.clone());
        let build = move || {
            let mut cases = Vec::new();
            for &class in &classes {
                let restricted = with_input_class(&system, input, class)?;
                cases.push(ProofCase {
                    what: format!("`{name}` {}", class.describe()),
                    systems: vec![CaseSystem {
                        system: Arc::new(restricted),
                        configurations: INPUT_CLASS_CONFIGURATIONS,
                        original: Arc::default(),
                    }],
                    ir: None,
                });
            }
            Some(cases)
        };
        sources.push(CaseSource {
            key,
            build: Box::new(build),
        });
    }
    sources
}

/// How many lanes the attempts rank (see [`whole_attempts`]).
fn lane_count(attempts: &[Attempt]) -> u32 {
    let configurations = |a: &Attempt| match a {
        Attempt::Whole { configurations, .. } => configurations.len(),
        Attempt::Cases { .. } => 0,
        Attempt::Seeded { .. } => 1,
    };
    let most = attempts.iter().map(configurations).max().unwrap_or(0);
    u32::try_from(most * attempts.len()).unwrap_or(u32::MAX)
}

/// Why the search stops when the Horn-clause engine proved the program.
pub const PROVED_BY_CHC: &str = "the Horn clauses were proved";

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn system(assertion: &str) -> HornSystem {
        let text =
            format!("procedure {{:entrypoint}} Main(n: int) {{\n  assert {assertion};\n}}\n");
        let ir = boogie_like::parse(&text).expect("parses");
        HornSystem::of(&ir).expect("clauses")
    }

    fn whole(system: &HornSystem, configurations: &'static [&'static str]) -> Attempt {
        Attempt::Whole {
            system: system.clone(),
            configurations,
            limits: proofs::chc::ChcLimits {
                deadline: Instant::now() + Duration::from_secs(1),
                budget: Duration::from_secs(1),
                memory_mib: None,
                cache: None,
                background: true,
                lanes: None,
                dump: None,
            },
        }
    }

    fn systems_and_lanes(attempts: &[Attempt]) -> Vec<(HornSystem, usize)> {
        attempts
            .iter()
            .filter_map(|a| match a {
                Attempt::Whole {
                    system,
                    configurations,
                    ..
                } => Some((system.clone(), configurations.len())),
                Attempt::Cases { .. } | Attempt::Seeded { .. } => None,
            })
            .collect()
    }

    /// A system an earlier attempt runs in the same configurations is left out; the same
    /// system in a configuration no earlier attempt runs it in, and another system, stay.
    #[test]
    fn a_system_already_run_in_the_same_configurations_is_left_out() {
        let (a, b) = (system("n * 0 == 0"), system("n - n == 0"));
        assert_ne!(a, b);
        let all = proofs::chc::CONFIGURATIONS;
        let attempts = vec![
            whole(&a, REFINEMENT_CONFIGURATION),
            whole(&b, REFINEMENT_CONFIGURATION),
            whole(&a.clone(), REFINEMENT_CONFIGURATION),
            whole(&a, all),
            whole(&a, REFINEMENT_CONFIGURATION),
        ];
        let kept = systems_and_lanes(&without_repeats(attempts));
        assert_eq!(
            kept,
            vec![(a.clone(), 1), (b, 1), (a, all.len())],
            "the repeats of `a` in global guidance only are left out"
        );
    }
}
