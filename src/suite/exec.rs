//! Running the suite's verifications on a pool of threads.
//!
//! Each run loads its program and calls the engine with its own solver process, so runs are
//! independent and can go in parallel (`--jobs N` threads take the next run from a shared
//! counter).
//!
//! Guarantees: [`execute`] returns exactly one [`Row`] per run, in the order of the runs,
//! whatever the number of threads and whatever order they finish in; a program that does
//! not load, and even a verifier that panics, give a failed row instead of stopping the
//! suite; a run without an expectation is not verified at all (its row fails).

use super::cache::Cache;
use super::expect::Expected;
use super::plan::Run;
use crate::engine::{self, verdict::Verdict};
use crate::frontend::{LoadOptions, load};
use crate::verifier::{self, Program};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Stack of a worker thread (the front end and the engine recurse on deep programs).
const WORKER_STACK: usize = 64 * 1024 * 1024;

/// What one run gave.
#[derive(Clone, Debug)]
pub enum Got {
    Verdict(Verdict),
    /// The program does not parse or type-check (the rendered diagnostics).
    LoadError(String),
    /// The verifier panicked (the panic message): an internal error.
    Crashed(String),
    /// The program states no expectation, so it was not run.
    NoExpectation,
}

/// One run and its result.
#[derive(Clone, Debug)]
pub struct Row {
    pub run: Run,
    pub got: Got,
    pub time: Duration,
    /// The verdict came from the result cache (`--cache`), not from a verification.
    pub cached: bool,
}

impl Row {
    /// Whether the run gave what its expectation says.
    pub fn passed(&self) -> bool {
        match (&self.run.expected, &self.got) {
            (Some(expected), Got::Verdict(verdict)) => expected.accepts(verdict),
            _ => false,
        }
    }
}

/// Runs every run with `jobs` threads; `options` gives the mode, timeout and solver
/// (the depth is each run's own); `cache`, when given, answers unchanged runs and keeps
/// the new verdicts. `on_done` sees each row as it finishes.
pub fn execute(
    runs: &[Run],
    options: &engine::Options,
    cache: Option<&Cache>,
    jobs: usize,
    on_done: &(dyn Fn(&Row) + Sync),
) -> Vec<Row> {
    let next = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<Row>>> = Mutex::new(vec![None; runs.len()]);
    let work = || worker(runs, &next, &slots, options, cache, on_done);
    std::thread::scope(|scope| {
        for _ in 1..jobs.min(runs.len()) {
            let builder = std::thread::Builder::new().stack_size(WORKER_STACK);
            // A thread that cannot be started leaves its share to the others.
            let _ = builder.spawn_scoped(scope, work);
        }
        work();
    });
    let slots = slots.into_inner().unwrap_or_else(|e| e.into_inner());
    slots
        .into_iter()
        .map(|row| row.unwrap_or_else(|| panic!("internal error: a suite run was never made")))
        .collect()
}

fn worker(
    runs: &[Run],
    next: &AtomicUsize,
    slots: &Mutex<Vec<Option<Row>>>,
    options: &engine::Options,
    cache: Option<&Cache>,
    on_done: &(dyn Fn(&Row) + Sync),
) {
    loop {
        let index = next.fetch_add(1, Ordering::Relaxed);
        let Some(run) = runs.get(index) else {
            return;
        };
        let row = match cache {
            Some(cache) => run_cached(run, options, cache),
            None => run_one(run, options),
        };
        on_done(&row);
        slots.lock().unwrap_or_else(|e| e.into_inner())[index] = Some(row);
    }
}

/// Makes one run and times it.
pub fn run_one(run: &Run, options: &engine::Options) -> Row {
    let started = Instant::now();
    let got = match run.expected {
        None => Got::NoExpectation,
        Some(_) => verify(run, options),
    };
    Row {
        run: run.clone(),
        got,
        time: started.elapsed(),
        cached: false,
    }
}

/// Answers `run` from the cache when its key is there; otherwise makes it and stores the
/// verdict. A program that cannot be read is made (and fails) as without a cache.
fn run_cached(run: &Run, options: &engine::Options, cache: &Cache) -> Row {
    let started = Instant::now();
    let key = match (&run.expected, std::fs::read(&run.path)) {
        (Some(_), Ok(text)) => cache.key(&text, run, options),
        _ => return run_one(run, options),
    };
    if let Some(verdict) = cache.get(&key) {
        return Row {
            run: run.clone(),
            got: Got::Verdict(verdict),
            time: started.elapsed(),
            cached: true,
        };
    }
    let row = run_one(run, options);
    if let Got::Verdict(verdict) = &row.got {
        cache.put(&key, verdict);
    }
    row
}

fn verify(run: &Run, template: &engine::Options) -> Got {
    let options = engine::Options {
        max_depth: run.depth,
        progress: None,
        dump_smt: None,
        proof_wait: proof_wait(run, template.proof_wait),
        ..template.clone()
    };
    let attempt = catch_unwind(AssertUnwindSafe(|| {
        match load(&run.path, LoadOptions::default()) {
            Ok(loaded) => Got::Verdict(verifier::verify(Program::from(&loaded), &options).verdict),
            Err(e) => Got::LoadError(e.render()),
        }
    }));
    attempt.unwrap_or_else(|panic| Got::Crashed(panic_message(panic.as_ref())))
}

/// How long `run` waits for a proof: a run expected `VERIFIED` asks for one, so under the
/// suite's default wait it waits up to the whole proof budget (a proof that a loaded machine
/// delays past the short wait must not fail the suite); any other run, or a wait the user
/// chose (`--proof-wait`), waits as `wait` says.
fn proof_wait(run: &Run, wait: engine::ProofWait) -> engine::ProofWait {
    match run.expected {
        Some(Expected::Verified) if wait == engine::ProofWait::SUITE => engine::ProofWait::Budget,
        _ => wait,
    }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        return (*s).to_string();
    }
    panic
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_else(|| "the verifier panicked".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_expecting(expected: Option<Expected>) -> Run {
        Run {
            path: "p.horef".into(),
            key: "p.horef".into(),
            depth: 10,
            expected,
        }
    }

    #[test]
    fn a_run_expected_verified_waits_the_whole_budget_under_the_default_wait() {
        let verified = run_expecting(Some(Expected::Verified));
        let wait = proof_wait(&verified, engine::ProofWait::SUITE);
        assert_eq!(wait, engine::ProofWait::Budget);
    }

    #[test]
    fn other_runs_and_a_chosen_wait_keep_their_wait() {
        let suite = engine::ProofWait::SUITE;
        for expected in [
            None,
            Some(Expected::Bug),
            Some(Expected::SafeExactly { depth: 10 }),
            Some(Expected::SafeOrVerified { depth: 10 }),
        ] {
            assert_eq!(proof_wait(&run_expecting(expected), suite), suite);
        }
        let chosen = engine::ProofWait::Fixed(Duration::from_secs(3));
        let verified = run_expecting(Some(Expected::Verified));
        assert_eq!(proof_wait(&verified, chosen), chosen);
    }
}
