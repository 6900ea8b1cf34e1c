//! The solver processes of one run: their configuration (deadline, reply wait, dialogue
//! dumps), the memory watchdog that counts them, their priority, and the dialogues kept
//! for `--check-proof`. Guarantees: every session a run starts through [`RunSolvers`] is
//! registered with the run's memory watchdog (and lowered in priority for a background
//! run); the temporary dialogues of `--check-proof` are removed when the run ends, also on
//! a signal (`solver::children::track`); a session started on another thread
//! ([`AheadStarter`]) is registered the same way.

use crate::engine::options::Options;
use crate::engine::proofs::proof_check::Dialogues;
use crate::engine::resources::{MemoryWatch, SolverPids};
use crate::engine::search::driver::StopSignal;
use crate::solver::{Session, SolverClock, SolverConfig, SolverError};
use std::cell::RefCell;
use std::path::PathBuf;
use std::time::Instant;

/// The solver side of a run.
pub struct RunSolvers {
    /// How every session of the run is configured (Houdini's differ in their dump path).
    pub config: SolverConfig,
    /// Where the search's dialogue is written: the user's `--dump-smt` file, or a temporary
    /// one for `--check-proof`.
    dump: Option<PathBuf>,
    /// Houdini's dialogues: `<dump>.houdini`, `<dump>.houdini.2`, ...
    houdini_dumps: RefCell<Vec<PathBuf>>,
    /// The temporary directory of `--check-proof`'s dialogues (removed when dropped).
    _recording: Option<tempfile::TempDir>,
    /// Takes the temporary dialogues off the signal handler's list when dropped (after
    /// the directory itself: fields drop in order).
    _removed_on_signals: Option<crate::solver::children::Tracked>,
    memory: Option<MemoryWatch>,
    /// Every session started so far (the search's, Houdini's, the probe's): killed once a
    /// proof has ended the run ([`RunSolvers::pids`]).
    pids: SolverPids,
    background: bool,
}

/// Starts a session of the run on another thread (it can be sent there): configured and
/// registered as [`RunSolvers`] does.
pub struct AheadStarter {
    config: SolverConfig,
    registry: Registry,
}

impl AheadStarter {
    pub fn start(self) -> Result<Session, SolverError> {
        let session = Session::start(&self.config)?;
        self.registry.register(&session);
        Ok(session)
    }
}

impl RunSolvers {
    /// The solvers of a run with `options`, ending at `deadline`; the memory watchdog (if
    /// any) raises `stop` past the limit.
    pub fn new(options: &Options, deadline: Option<Instant>, stop: &StopSignal) -> RunSolvers {
        // `--check-proof` needs the dialogues: the user's dump files, or temporary ones.
        let recording = match (options.check_proof, &options.dump_smt) {
            (true, None) => tempfile::tempdir().ok(),
            _ => None,
        };
        let removed_on_signals = recording
            .as_ref()
            .map(|dir| crate::solver::children::track(dir.path()));
        let dump = options.dump_smt.clone().or_else(|| {
            recording
                .as_ref()
                .map(|dir| dir.path().join("dialogue.smt2"))
        });
        let config = SolverConfig {
            kind: options.solver,
            deadline,
            reply_wait: options.solver_wait,
            dump: dump.clone(),
            clock: SolverClock::default(),
        };
        let memory = options
            .memory_limit_mib
            .map(|limit| MemoryWatch::start(limit, stop.clone()));
        RunSolvers {
            config,
            dump,
            houdini_dumps: RefCell::new(Vec::new()),
            _recording: recording,
            _removed_on_signals: removed_on_signals,
            memory,
            pids: SolverPids::default(),
            background: options.background,
        }
    }

    /// A starter of a session for work beside the search (Houdini's inference ahead); not
    /// when the run records its dialogues (`--dump-smt`, `--check-proof`), whose order the
    /// re-check replays.
    pub fn ahead_starter(&self) -> Option<AheadStarter> {
        if self.dump.is_some() {
            return None;
        }
        Some(AheadStarter {
            config: self.config.clone(),
            registry: self.registry(),
        })
    }

    /// A session for the search (or its probe past the bound), whose checks that take
    /// long are raced against a second solver in another tuning
    /// ([`Session::enable_rescue`]), registered as every session of the run is.
    pub fn start_search(&self) -> Result<Session, SolverError> {
        let mut session = self.start(&self.config)?;
        let registry = self.registry();
        let register = move |pid| registry.register_pid(pid);
        session.enable_rescue(&self.config, std::sync::Arc::new(register));
        Ok(session)
    }

    /// A fresh session for Houdini, dumping to a file of its own when the run dumps.
    pub fn start_houdini(&self) -> Result<Session, SolverError> {
        let config = SolverConfig {
            dump: self.dump.as_ref().map(|path| {
                let mut name = path.clone().into_os_string();
                name.push(".houdini");
                let count = self.houdini_dumps.borrow().len();
                if count > 0 {
                    name.push(format!(".{}", count + 1));
                }
                let name: PathBuf = name.into();
                self.houdini_dumps.borrow_mut().push(name.clone());
                name
            }),
            ..self.config.clone()
        };
        self.start(&config)
    }

    /// The pids of every session the run has started (and will start).
    pub fn pids(&self) -> SolverPids {
        self.pids.clone()
    }

    /// Every dialogue of the run so far, the search's first (for `--check-proof`).
    pub fn dialogues(&self) -> Dialogues {
        Dialogues {
            paths: self
                .dump
                .iter()
                .cloned()
                .chain(self.houdini_dumps.borrow().iter().cloned())
                .collect(),
        }
    }

    fn start(&self, config: &SolverConfig) -> Result<Session, SolverError> {
        let session = Session::start(config)?;
        self.registry().register(&session);
        Ok(session)
    }

    fn registry(&self) -> Registry {
        Registry {
            lists: self
                .memory
                .as_ref()
                .map(MemoryWatch::solvers)
                .into_iter()
                .chain([self.pids.clone()])
                .collect(),
            background: self.background,
        }
    }
}

/// Where a new session's pid is registered (the memory watchdog's list and the run's),
/// and whether its priority is lowered: what every session of the run gets.
struct Registry {
    lists: Vec<SolverPids>,
    background: bool,
}

impl Registry {
    fn register(&self, session: &Session) {
        self.register_pid(session.pid());
    }

    fn register_pid(&self, pid: u32) {
        if self.background {
            crate::solver::lower_priority(pid);
        }
        for pids in &self.lists {
            if let Ok(mut pids) = pids.lock() {
                pids.push(pid);
            }
        }
    }
}
