//! `horef-si suite`: run a regression suite — every program against its expectation.
//!
//! [`run`] reads as the pipeline: [`discover`] the programs under the given paths (with
//! their header expectations or manifest rows), [`plan`] the runs (depth and expected
//! verdict each), keep the `--partition`'s share, [`execute`] them on `--jobs` threads, and
//! hand back the rows for [`output`] to print. `docs/suite.md` is the user's page.
//!
//! Guarantees: a suite whose definition is broken (missing path, unreadable file, bad
//! header, bad manifest) does not run and yields every [`SuiteError`] at once; otherwise
//! there is exactly one row per planned run, sorted by path then depth, identical (but
//! for times) for every `--jobs`; a row passes only when the verdict matches its
//! expectation (`UNKNOWN`, a load error or a missing expectation never pass).

pub mod cache;
pub mod discover;
pub mod error;
pub mod exec;
pub mod expect;
pub mod manifest;
pub mod output;
pub mod partition;
pub mod plan;

pub use error::SuiteError;
pub use exec::{Got, Row};
pub use output::SuiteFormat;
pub use partition::Partition;

use crate::engine::{self, Mode};
use crate::solver::SolverKind;
use cache::Cache;
use discover::discover;
use exec::execute;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use plan::{keep_partition, plan};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Exit codes of `suite`, shown by `horef-si suite --help`.
pub const SUITE_EXIT_CODES_HELP: &str = "\
Exit codes:
   0  every run gave its expected verdict
   1  usage error (bad command line)
   2  input error (missing path, unreadable file, malformed expectation or manifest)
  10  some run failed (wrong verdict, UNKNOWN, no expectation, program does not load)";

/// What the user asked for.
#[derive(Clone, Debug)]
pub struct Config {
    pub paths: Vec<PathBuf>,
    /// The bound K; `None`: header programs at [`plan::DEFAULT_DEPTH`], every manifest row.
    pub max_depth: Option<u32>,
    /// CORRAL's bounds beside the depth, for every run.
    pub bounds: engine::CallBounds,
    /// Time limit of each run.
    pub timeout: Option<Duration>,
    /// How long one solver reply may take (then the run is UNKNOWN).
    pub solver_wait: Duration,
    pub mode: Mode,
    pub solver: SolverKind,
    /// Threads running verifications at once (at least 1).
    pub jobs: usize,
    pub partition: Option<Partition>,
    /// Show a progress bar on stderr when it is a terminal.
    pub progress: bool,
    /// The result cache directory (`--cache`; `None`: every run is verified).
    pub cache: Option<PathBuf>,
    /// How long a run that searched without finding a bug waits for a proof
    /// (`--proof-wait`; [`engine::ProofWait::SUITE`] by default).
    pub proof_wait: engine::ProofWait,
    /// How long Spacer may look for a proof in each run (`--proof-budget`).
    pub proof_budget: std::time::Duration,
}

impl Config {
    /// The configuration with default settings for `paths`.
    pub fn new(paths: Vec<PathBuf>) -> Config {
        Config {
            paths,
            max_depth: None,
            bounds: engine::CallBounds::default(),
            timeout: None,
            solver_wait: crate::solver::DEFAULT_REPLY_WAIT,
            mode: Mode::Si,
            solver: SolverKind::Z3,
            jobs: default_jobs(),
            partition: None,
            progress: false,
            cache: None,
            proof_wait: engine::ProofWait::SUITE,
            proof_budget: engine::DEFAULT_CHC_BUDGET,
        }
    }

    fn engine_options(&self) -> engine::Options {
        engine::Options {
            bounds: self.bounds,
            mode: self.mode,
            timeout: self.timeout,
            solver_wait: self.solver_wait,
            solver: self.solver,
            progress: None,
            // A suite wants throughput: by default a run that has searched waits briefly
            // for a proof (each program's answer is then remembered for its other bounds).
            proof_wait: self.proof_wait,
            chc_budget: self.proof_budget,
            // The result cache's directory keeps proof certificates too (under `proofs/`):
            // a program proved once is re-checked, not proved again, at every bound.
            proof_cache: self.cache.clone(),
            ..engine::Options::default()
        }
    }
}

/// The number of CPUs (1 when it cannot be told).
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs the suite: one row per run, sorted by path then depth.
pub fn run(config: &Config) -> Result<Vec<Row>, Vec<SuiteError>> {
    let programs = discover(&config.paths)?;
    let options = config.engine_options();
    let cache = match &config.cache {
        Some(dir) => Some(Cache::open(dir, &options).map_err(|source| {
            vec![SuiteError::Cache {
                path: dir.clone(),
                source,
            }]
        })?),
        None => None,
    };
    let runs = keep_partition(plan(&programs, config.max_depth), config.partition);
    let bar = progress_bar(config.progress, runs.len());
    let failed = AtomicUsize::new(0);
    let on_done = |row: &Row| {
        let failed = failed.fetch_add(usize::from(!row.passed()), Ordering::Relaxed)
            + usize::from(!row.passed());
        bar.set_message(format!("{failed} failed"));
        bar.inc(1);
    };
    let jobs = config.jobs.max(1);
    let rows = execute(&runs, &options, cache.as_ref(), jobs, &on_done);
    bar.finish_and_clear();
    Ok(rows)
}

/// A bar on stderr when `enabled` and stderr is a terminal; hidden otherwise.
fn progress_bar(enabled: bool, total: usize) -> ProgressBar {
    if !enabled || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} runs, {msg} [{elapsed}]")
    {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}
