//! What a run is asked: [`Options`] (the one conversion target of the command line's flags,
//! a suite's settings and the fuzz oracles'), which proof engines may answer ([`Proofs`]),
//! how long a run waits for a proof ([`ProofWait`]), and what a progress line is told
//! ([`Progress`]). Guarantee: `Options::default()` is the documented default of every flag.

use super::search::cegar::{Refinement, Start as AbstractionStart};
use crate::engine::CaseSource;
use crate::engine::resources;
use crate::engine::search::call_bounds::CallBounds;
use crate::engine::search::driver::{InliningPolicy, Mode, StopSignal};
use crate::solver::SolverKind;
use crate::vc::horn::HornSystem;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// What the user asked for.
#[derive(Clone, Debug)]
pub struct Options {
    pub max_depth: u32,
    /// CORRAL's bounds beside the depth (`--recursion-bound`, `--stack-depth-bound`).
    pub bounds: CallBounds,
    pub mode: Mode,
    pub timeout: Option<Duration>,
    /// How long one solver reply may take (`--solver-wait`); past it the run is UNKNOWN.
    pub solver_wait: Duration,
    pub solver: SolverKind,
    pub dump_smt: Option<PathBuf>,
    pub policy: InliningPolicy,
    /// Told after every round of the driver, for a progress line (the CLI draws one).
    pub progress: Option<ProgressObserver>,
    /// Infer procedure summaries (Houdini) for the call sites left open (SI mode).
    pub summaries: bool,
    /// Try a proof from the program's Horn clauses (z3's Spacer), beside the search (SI
    /// mode).
    pub chc: bool,
    /// How long Spacer may take, from the start of the run (capped by `timeout`).
    pub chc_budget: Duration,
    /// How long a search that ended without a bug waits for a proof ([`ProofWait`];
    /// always within the budget and the run's timeout).
    pub proof_wait: ProofWait,
    /// Past this much resident memory (this process and its solvers) the run ends as
    /// UNKNOWN (resource); `None`: no limit.
    pub memory_limit_mib: Option<u64>,
    /// Further Horn systems of the same program (the front end's refinement-type
    /// clauses, `crate::verifier::refine`), each tried with [`REFINEMENT_CONFIGURATION`] beside
    /// the IR's clauses when `chc` is on; a re-checked model of any of them is a proof.
    pub extra_chc: Vec<Arc<HornSystem>>,
    /// The entry cut into cases by the front end, each with the systems that may prove
    /// it ([`case_proofs`]). When present, the Horn-clause engine proves the program case
    /// by case instead of trying the whole program's systems.
    pub proof_cases: Option<Arc<CaseSource>>,
    /// A signal from outside the run: once raised, the run stops as UNKNOWN (a run
    /// nested in a case proof is stopped this way once the case is proved otherwise).
    pub stop: Option<StopSignal>,
    /// Re-check a VERIFIED of the search (and Houdini's summaries) in a fresh solver
    /// before it is reported ([`proof_check`]); Spacer's proofs are re-checked always.
    pub check_proof: bool,
    /// How long the search runs before procedures are proved on their own for it
    /// ([`partial_proofs`]; tests set it to zero to exercise them on small programs).
    pub partial_delay: Duration,
    /// Run every solver process at the lowest CPU priority: this run is a proof engine's
    /// background work beside another run's search (a case of [`case_proofs`]).
    pub background: bool,
    /// Keep proof certificates in this directory and reuse them, re-checked, in later
    /// runs ([`proof_cache`]; `--cache DIR`).
    pub proof_cache: Option<PathBuf>,
    /// Whether the search runs on a variable abstraction of the program
    /// (`search::cegar`; SI mode, an entry that is not split): `None` never
    /// (`--track-all`, CORRAL's `/trackAllVars`), else from where the tracked set starts
    /// (the default, [`AbstractionStart::Cone`], only where it pays: `search::cegar::start`).
    pub abstraction: Option<AbstractionStart>,
    /// How a spurious counterexample is refined (`search::cegar`; `--refinement`).
    pub refinement: Refinement,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_depth: 10,
            bounds: CallBounds::default(),
            mode: Mode::Si,
            timeout: None,
            solver_wait: crate::solver::DEFAULT_REPLY_WAIT,
            solver: SolverKind::Z3,
            dump_smt: None,
            policy: InliningPolicy::default(),
            progress: None,
            summaries: true,
            chc: true,
            chc_budget: DEFAULT_CHC_BUDGET,
            proof_wait: ProofWait::default(),
            memory_limit_mib: Some(resources::default_limit_mib()),
            extra_chc: Vec::new(),
            proof_cases: None,
            stop: None,
            check_proof: false,
            partial_delay: PARTIAL_DELAY,
            background: false,
            proof_cache: None,
            abstraction: Some(AbstractionStart::Cone),
            refinement: Refinement::default(),
        }
    }
}

/// Which proof engines may show a program safe at every depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proofs {
    /// Houdini's template summaries only.
    Houdini,
    /// Horn clauses solved by z3's Spacer only.
    Chc,
    /// Both (the default).
    Both,
    /// Neither: VERIFIED only where the call tree is finite.
    None,
}

impl Proofs {
    pub fn houdini(self) -> bool {
        matches!(self, Proofs::Houdini | Proofs::Both)
    }

    pub fn chc(self) -> bool {
        matches!(self, Proofs::Chc | Proofs::Both)
    }
}

/// How long a run whose search ended without a bug waits for a proof (issue 30): the
/// bounded question is what was asked, a proof is a bonus that must not cost the user
/// noticeable time they did not ask to spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofWait {
    /// `factor` times as long as the search itself took, and at least `at_least` — counted
    /// from the run's start if `from_start` (then never longer than `max(at_least, factor
    /// × the search)`), else from the end of the search.
    LikeSearch {
        at_least: Duration,
        factor: u32,
        from_start: bool,
    },
    /// Exactly this long (`verify --proof-wait S`).
    Fixed(Duration),
    /// Until the proof budget ends (`verify --proof-wait budget`).
    Budget,
}

impl ProofWait {
    /// The default wait: as long as the search took. (It was also until at least 0.25 s
    /// after the start: on the shared suite's many small pairs that quarter second was
    /// most of the time and rarely gave a proof; `benchmarks/RESULTS.md`, issue 30.)
    pub const SHORT: ProofWait = ProofWait::LikeSearch {
        at_least: Duration::ZERO,
        factor: 1,
        from_start: true,
    };

    /// How long a suite's run waits: `max(2 s, twice the search's time)` (each program's
    /// answer is then remembered for its other bounds, so a suite waits once per program).
    pub const SUITE: ProofWait = ProofWait::LikeSearch {
        at_least: Duration::from_secs(2),
        factor: 2,
        from_start: false,
    };

    /// How long to wait after a search that took `searching`, given the proof budget.
    pub fn after(self, searching: Duration, budget: Duration) -> Duration {
        match self {
            ProofWait::LikeSearch {
                at_least,
                factor,
                from_start,
            } => {
                let at_least = match from_start {
                    true => at_least.saturating_sub(searching),
                    false => at_least,
                };
                (searching * factor).max(at_least)
            }
            ProofWait::Fixed(wait) => wait,
            ProofWait::Budget => budget.max(searching),
        }
    }
}

impl Default for ProofWait {
    fn default() -> ProofWait {
        ProofWait::SHORT
    }
}

/// How long Spacer may take by default.
pub const DEFAULT_CHC_BUDGET: Duration = Duration::from_secs(20);

/// Where the driver stands after a round: what a progress line shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The current depth bound of the iterative deepening (up to `max_depth`).
    pub bound: u32,
    /// Procedure instances inlined so far.
    pub inlined: usize,
    /// Call sites left open after the round.
    pub open_sites: usize,
    /// Set once the search has ended without a bug and the run waits for a proof: the
    /// time left of that wait.
    pub proof_wait_left: Option<Duration>,
}

/// A callback told the [`Progress`] after every round; shared by the threads of a suite.
#[derive(Clone)]
pub struct ProgressObserver(pub Arc<dyn Fn(Progress) + Send + Sync>);

impl std::fmt::Debug for ProgressObserver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressObserver")
    }
}

/// How long the search runs before procedures are proved on their own
/// ([`partial_proofs`]), by default: a search that ends sooner needs no pruning, and the
/// whole program's proof has had its head start.
pub const PARTIAL_DELAY: Duration = Duration::from_millis(500);

#[cfg(test)]
mod tests {
    use super::ProofWait;
    use std::time::Duration;

    #[test]
    fn the_default_wait_is_the_search_time() {
        let ms = Duration::from_millis;
        let budget = Duration::from_secs(20);
        assert_eq!(ProofWait::SHORT.after(ms(40), budget), ms(40));
        assert_eq!(ProofWait::SHORT.after(ms(200), budget), ms(200));
        assert_eq!(ProofWait::SHORT.after(ms(3000), budget), ms(3000));
        assert_eq!(ProofWait::SUITE.after(ms(500), budget), ms(2000));
        assert_eq!(ProofWait::SUITE.after(ms(1500), budget), ms(3000));
        assert_eq!(ProofWait::Fixed(ms(7)).after(ms(3000), budget), ms(7));
        assert_eq!(ProofWait::Budget.after(ms(3000), budget), budget);
    }
}
