//! Which solver to run and under which limits (`--solver`, `--timeout`, `--dump-smt`).

use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How long one solver reply may take to arrive in full when nothing else is said
/// (`--solver-wait`): generous for one check of our verification conditions (the slowest we
/// measured take seconds), and still a bound when there is no `--timeout`.
pub const DEFAULT_REPLY_WAIT: Duration = Duration::from_secs(300);

/// The SMT solvers we can drive. Both are run as subprocesses speaking SMT-LIB 2 on stdin.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SolverKind {
    /// Z3 (`pip install z3-solver` puts `z3` on PATH; Debian's `z3` package works too).
    #[default]
    Z3,
    /// cvc5 (Debian's `cvc5` package, or a release binary on PATH).
    Cvc5,
}

impl SolverKind {
    /// The program looked up on PATH.
    pub fn program(self) -> &'static str {
        match self {
            SolverKind::Z3 => "z3",
            SolverKind::Cvc5 => "cvc5",
        }
    }

    /// Flags that make the solver read SMT-LIB 2 from stdin, incrementally.
    /// Model production and the logic are set by commands (they appear in the dump).
    pub(crate) fn args(self) -> &'static [&'static str] {
        match self {
            SolverKind::Z3 => &["-smt2", "-in"],
            // `--dag-thresh=0`: print values as plain terms, without `let` sharing.
            SolverKind::Cvc5 => &["--lang=smt2", "--incremental", "--quiet", "--dag-thresh=0"],
        }
    }

    /// Options set before the logic, tuning the solver to our verification conditions.
    ///
    /// z3: decide only relevant atoms (`smt.case_split 5`, which needs `auto_config`
    /// off). Our formulas are conjunctions of guarded definitions (`b ⇒ x = e`) for every
    /// instance of the call tree, most of them off the path a model takes; with the default
    /// activity-based splitting z3 re-decides every one of them after each conflict: the
    /// dialogue of `horef-si verify benchmarks/generated/gen-4000-e.horef --max-depth 3
    /// --dump-smt d.smt2`, replayed by `z3 d.smt2` with `smt.case_split` 0 or 1 instead of
    /// 5, takes 8.0 s or 3.6 s against 1.0 s (measured before entry splitting). And split
    /// on a datatype term's constructors lazily (`smt.dt_lazy_splits 2`): a closure
    /// datatype of a large program has hundreds of constructors, and eager splits on the
    /// results of calls that are not taken doubled the time of that program's bug query.
    /// Quantifiers (Boogie axioms and contracts) are instantiated by patterns only
    /// (`smt.mbqi false`, as Boogie does): model-based instantiation loops on a `forall`
    /// over an uninterpreted function, which is an array here; the driver takes the
    /// `unknown` that gives instead of `sat` as a candidate (`engine::search::driver`).
    pub(crate) fn tuning(self) -> &'static [&'static str] {
        match self {
            SolverKind::Z3 => &[
                "(set-option :auto_config false)",
                "(set-option :smt.case_split 5)",
                "(set-option :smt.dt_lazy_splits 2)",
                "(set-option :smt.mbqi false)",
            ],
            SolverKind::Cvc5 => &[],
        }
    }

    /// The other tuning a check that outlives [`super::rescue::RESCUE_AFTER`] is raced
    /// against ([`super::rescue`]): z3 with its own case split (relevancy splitting off),
    /// the rest of [`SolverKind::tuning`] kept. Each tuning has queries the other does not
    /// answer: relevancy splitting keeps a large program's bug query at 1 s where the
    /// default takes 8 s, but on a walk driven by a linear congruence
    /// (`tests/proofs/loop_lcg_band-e.ml`: `state := (5 state + c) mod 17`, then
    /// `state mod 5`) it had no answer to the depth-4 query in 300 s, which z3's default
    /// answers in 0.06 s. No other solver has a rescue tuning.
    pub(crate) fn rescue_tuning(self) -> Option<&'static [&'static str]> {
        match self {
            SolverKind::Z3 => Some(&[
                "(set-option :smt.dt_lazy_splits 2)",
                "(set-option :smt.mbqi false)",
            ]),
            SolverKind::Cvc5 => None,
        }
    }

    /// How to install the solver, for the not-found message.
    pub fn install_hint(self) -> &'static str {
        match self {
            SolverKind::Z3 => {
                "install it with `pip install z3-solver` (puts `z3` on PATH; in a checkout of \
                 horef-si, `scripts/venv-install z3-solver` then `. .venv/bin/activate`) \
                 or Debian's `z3` package (`apt-get install z3`)"
            }
            SolverKind::Cvc5 => {
                "install it with Debian's `cvc5` package (`apt-get install cvc5`) or put a cvc5 \
                 release binary on PATH; `pip install cvc5` installs only the Python bindings, \
                 not a `cvc5` program"
            }
        }
    }

    /// The option that limits the time of the next check, in milliseconds.
    pub(crate) fn timeout_option(self) -> &'static str {
        match self {
            SolverKind::Z3 => ":timeout",
            SolverKind::Cvc5 => ":tlimit-per",
        }
    }
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.program())
    }
}

/// How to run the solver for one verification run.
#[derive(Clone, Debug)]
pub struct SolverConfig {
    pub kind: SolverKind,
    /// The whole run's deadline (`--timeout SECONDS`); `None` means no limit.
    pub deadline: Option<Instant>,
    /// How long one reply may take to arrive in full (`--solver-wait SECONDS`); past it the
    /// solver is killed and the exchange is `SolverError::NoReply`.
    pub reply_wait: Duration,
    /// Where to write the solver dialogue (`--dump-smt FILE`); the file is overwritten.
    pub dump: Option<PathBuf>,
    /// Where every session started from this configuration (or a clone) adds its time.
    pub clock: super::SolverClock,
}

impl Default for SolverConfig {
    fn default() -> SolverConfig {
        SolverConfig {
            kind: SolverKind::default(),
            deadline: None,
            reply_wait: DEFAULT_REPLY_WAIT,
            dump: None,
            clock: super::SolverClock::default(),
        }
    }
}
