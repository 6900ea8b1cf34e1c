//! The command line: argument definitions and one function per subcommand.
//!
//! Guarantees: every path ends in a documented [`ExitCode`]; usage errors exit 1 (not
//! clap's default 2, which we reserve for invalid input); messages go to stderr, results
//! to stdout.

/// `print!` to stdout that ignores a closed pipe (`horef-si run --trace ... | head`): the
/// command goes on and ends with its own exit code. SIGPIPE stays ignored, as Rust sets it
/// up: the solver's stdin is a pipe too, and writing to a solver the watchdog killed at the
/// deadline must be an error (UNKNOWN), not the silent death of the verifier.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// `println!` to stdout that ignores a closed pipe (see [`out!`]).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

mod install;
mod limits;
mod progress_line;
mod run;
mod value_enums;
mod verify;

use run::{run, run_witness};
pub use verify::Format;
use verify::{Output, verify};

use crate::core_lang::Checked;
use crate::core_lang::inputs::{main_inputs, split_arg};
use crate::core_lang::interp::{self, Outcome, RunConfig, TraceEvent};
use crate::engine::{self, Mode, Proofs};
use crate::exchange::{replay, sarif, witness};
use crate::exit_code::{EXIT_CODES_HELP, ExitCode};
use crate::frontend::{Lang, LoadOptions, Loaded};
use crate::report;
use crate::solver::SolverKind;
use crate::suite::{self, Partition, SuiteFormat};
use crate::verifier::{self, Program};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use num_bigint::BigInt;
use progress_line::ProgressLine;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    name = "horef-si",
    version,
    about = "A stratified-inlining verifier for higher-order programs with references (HORef)",
    after_help = EXIT_CODES_HELP
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Reject what is accepted only for BMC-2 compatibility (a method declared twice)
    /// instead of warning about it.
    #[arg(long, global = true)]
    pub strict: bool,
    /// The entry function of an OCaml (`.ml`) file (default: the last top-level `main`,
    /// else the last top-level function), or the entry procedure of a Boogie (`.bpl`) file
    /// (default: the one marked `{:entrypoint}`, else `main`); its parameters are the inputs.
    #[arg(long, global = true, value_name = "NAME")]
    pub entry: Option<String>,
    /// `verify`: print the verdict line alone.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// `verify`: also print the whole proof and the statistics.
    #[arg(short, long, global = true)]
    pub verbose: bool,
    /// When to colour the output: on a terminal without NO_COLOR set (`auto`), `always`
    /// or `never`.
    #[arg(long, global = true, value_enum, default_value_t = clap::ColorChoice::Auto)]
    pub color: clap::ColorChoice,
    /// An OCaml (`.ml`) program: an arithmetic result outside OCaml's `int` range
    /// (`min_int ..= max_int`) is a failure at its expression (docs/ocaml.md, "Integers").
    #[arg(long, global = true)]
    pub overflow_checks: bool,
    /// The language of the program [default: by the file's extension: `.ml` OCaml, `.bpl`
    /// Boogie, `.ir` IR text, any other HORef]; for stdin (`-`) and other extensions.
    #[arg(long, global = true, value_enum, value_name = "LANG")]
    pub lang: Option<Lang>,
}

impl Cli {
    /// How `verify`'s human report is printed (`-q`, `-v`, `--color`).
    fn style(&self) -> Style {
        let verbosity = match (self.quiet, self.verbose) {
            (true, _) => report::Verbosity::Quiet,
            (_, true) => report::Verbosity::Verbose,
            _ => report::Verbosity::Normal,
        };
        Style {
            verbosity,
            color: colours_stdout(self.color),
        }
    }
}

/// How the verdict is printed beside what it says.
#[derive(Clone, Copy, Debug)]
struct Style {
    verbosity: report::Verbosity,
    color: bool,
}

/// Whether stdout gets colours: `always`, `never`, or (`auto`) a terminal without NO_COLOR.
fn colours_stdout(choice: clap::ColorChoice) -> bool {
    use std::io::IsTerminal;
    match choice {
        clap::ColorChoice::Always => true,
        clap::ColorChoice::Never => false,
        clap::ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

/// The `--color` of the raw arguments, so that clap's own messages (errors, help) follow it.
fn color_of_args(args: &[std::ffi::OsString]) -> clap::ColorChoice {
    let mut choice = clap::ColorChoice::Auto;
    for (i, arg) in args.iter().enumerate() {
        let value = match arg.to_str() {
            Some("--color") => args.get(i + 1).and_then(|v| v.to_str()),
            Some(a) => a.strip_prefix("--color="),
            None => None,
        };
        choice = match value {
            Some("always") => clap::ColorChoice::Always,
            Some("never") => clap::ColorChoice::Never,
            Some("auto") => clap::ColorChoice::Auto,
            _ => choice,
        };
    }
    choice
}

/// CORRAL's bounds on the call tree, beside `--max-depth` (docs/boogie.md, "Bounds").
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct CorralBounds {
    /// CORRAL's /recursionBound: a call is blocked when its callee already has N
    /// activations on the call stack (a loop's n-th iteration is its n-th activation).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    recursion_bound: Option<u32>,
    /// CORRAL's /maxStaticDepth: a call is blocked when its callee would run deeper than
    /// D (the entry runs at depth 0).
    #[arg(long, value_name = "D")]
    stack_depth_bound: Option<u32>,
}

impl From<CorralBounds> for engine::CallBounds {
    fn from(args: CorralBounds) -> Self {
        engine::CallBounds {
            recursion: args.recursion_bound,
            stack_depth: args.stack_depth_bound,
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Parse and type-check a HORef file (or a Boogie `.bpl` / IR `.ir` file).
    #[command(after_help = EXIT_CODES_HELP)]
    Check {
        /// The HORef program (or a Boogie `.bpl` / IR `.ir` file; `-`: read it from stdin).
        file: PathBuf,
    },
    /// Decide whether an assertion can fail within call depth K (often: at any depth).
    #[command(after_help = EXIT_CODES_HELP)]
    Verify {
        /// The HORef program (or a Boogie `.bpl` / IR `.ir` file; `-`: read HORef from stdin).
        file: PathBuf,
        /// The call-depth bound K (`Main` runs at depth 0).
        #[arg(long, default_value_t = 10, value_name = "K", allow_negative_numbers = true, value_parser = depth_bound)]
        max_depth: u32,
        #[command(flatten)]
        bounds: CorralBounds,
        /// Stratified inlining on demand (`si`) or full bound-K unrolling (`unroll`).
        #[arg(long, value_enum, default_value_t = Mode::Si)]
        mode: Mode,
        /// Give up (UNKNOWN, exit 5) after this many seconds in total.
        #[arg(long, value_name = "SECONDS")]
        timeout: Option<f64>,
        /// Stop the solver and answer UNKNOWN (a solver error, exit 6) when one of its replies
        /// has not arrived in full this many seconds after its command, with or without
        /// --timeout.
        #[arg(long, value_name = "SECONDS", value_parser = positive_seconds, default_value = SOLVER_WAIT)]
        solver_wait: Duration,
        /// The SMT solver to run.
        #[arg(long, value_enum, default_value_t = SolverKind::Z3)]
        solver: SolverKind,
        /// Write the exact solver dialogue to FILE (replay it with `z3 FILE`); the
        /// summary inference runs in a second solver session, written to `FILE.houdini`,
        /// and each Horn system Spacer is started on goes to `FILE.horn-KEY.smt2` (the
        /// re-check of each model it returns to `FILE.recheck-KEY.smt2`).
        #[arg(long, value_name = "FILE")]
        dump_smt: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// Do not infer procedure summaries for the call sites left open (Houdini).
        #[arg(long)]
        no_summaries: bool,
        /// Search the program itself, never a variable abstraction that tracks only some
        /// of its globals (CORRAL's `/trackAllVars`; docs/engine.md).
        #[arg(long)]
        track_all: bool,
        /// Where the variable abstraction's tracked set starts (measurements; the
        /// default abstracts only where it pays).
        #[arg(long, value_enum, hide = true, conflicts_with = "track_all")]
        abstraction_start: Option<engine::AbstractionStart>,
        /// How a spurious counterexample of the variable abstraction is refined.
        #[arg(long, value_enum, hide = true, default_value_t = engine::Refinement::default())]
        refinement: engine::Refinement,
        /// Which proof engines may show the program safe at every depth: Houdini's
        /// template summaries, Horn clauses solved by z3's Spacer (`chc`), both or none.
        #[arg(long, value_enum, default_value_t = Proofs::Both)]
        proofs: Proofs,
        /// How long Spacer may look for a proof (seconds from the start; capped by
        /// --timeout; three times as long for a `Main` proved case by case). Its proof is
        /// re-checked in a fresh solver before VERIFIED is printed.
        #[arg(long, value_name = "SECONDS", default_value_t = engine::DEFAULT_CHC_BUDGET.as_secs_f64())]
        proof_budget: f64,
        /// Once the search has ended without a bug, how long to wait for a proof: SECONDS,
        /// or `budget` (until --proof-budget ends); always within --proof-budget and
        /// --timeout. Default: as long as the search took (under 0.1 s Spacer is not
        /// started) — the bounded answer comes at the search's speed, and a proof that
        /// takes longer is not waited for (the report then says so).
        #[arg(long, value_name = "SECONDS|budget", value_parser = parse_proof_wait)]
        proof_wait: Option<engine::ProofWait>,
        /// Before printing VERIFIED, re-check the proof in a fresh solver: the search's
        /// solver dialogues (Houdini's summaries and the last query) are replayed and every
        /// answer must be the same; a disagreement makes the verdict UNKNOWN. (Spacer's
        /// proofs are re-checked clause by clause always.) With `--proofs none` it re-checks
        /// a VERIFIED of a finite call tree the same way.
        #[arg(long)]
        check_proof: bool,
        /// End as UNKNOWN (resource) once this process and its solvers hold more than
        /// this much memory (MiB). Default: half of the machine's memory.
        #[arg(long, value_name = "MIB", value_parser = memory_mib)]
        memory_limit: Option<u64>,
        /// On a BUG, write it to FILE as an SV-COMP violation witness (format 2.0, YAML);
        /// `horef-si run PROGRAM --witness FILE` replays it.
        #[arg(long, value_name = "FILE")]
        witness: Option<PathBuf>,
        /// Keep proof certificates in DIR (under DIR/proofs) and reuse them in later runs
        /// at any depth, re-checked clause by clause in a fresh z3; also remember "no
        /// proof within the budget", so that such a program is not waited for again.
        #[arg(long, value_name = "DIR", value_parser = cache_dir)]
        cache: Option<PathBuf>,
    },
    /// Lower a HORef file to the Boogie-like IR and print it (an IR file is printed as is).
    #[command(after_help = EXIT_CODES_HELP)]
    Lower {
        /// The HORef program (or a Boogie `.bpl` / IR `.ir` file; `-`: read it from stdin).
        file: PathBuf,
        /// Also print sizes: procedures, call sites, dispatch sites, candidates.
        #[arg(long)]
        stats: bool,
        /// What to print: the IR, or its constrained Horn clauses (SMT-LIB, logic HORN:
        /// satisfiable iff no execution of `Main` fails, at any depth).
        #[arg(long, value_enum, default_value_t = Emit::Ir)]
        emit: Emit,
        /// With `--emit chc…`: the clauses of the program with every call that passes a
        /// known closure sent to a copy of its callee bound to it, which the proof engine
        /// tries beside the others (`boogie_like/src/ir/specialize.rs`).
        #[arg(long)]
        known_closures: bool,
        /// With `--emit chc…`: the clauses with every product of two non-constant terms
        /// replaced by a fresh integer carrying the linear facts multiplication
        /// guarantees (signs, zero, one, parity), and every remainder by a literal of 3 or
        /// more by a fresh integer in its range, which the proof engine tries beside the
        /// exact ones (`src/vc/horn_products.rs`).
        #[arg(long)]
        abstract_products: bool,
    },
    /// Run a program on concrete inputs in the bounded interpreter.
    #[command(after_help = EXIT_CODES_HELP)]
    Run {
        /// The HORef program (or a Boogie `.bpl` / IR `.ir` file; `-`: read it from stdin).
        file: PathBuf,
        /// An input of `Main`, as name=value (repeat for each parameter).
        #[arg(long = "arg", value_name = "NAME=VALUE", conflicts_with = "witness")]
        args: Vec<String>,
        /// The next value of a fresh input (`read_int ()`, `Random.int n`, `Random.bool ()`
        /// in a `.ml` file), in the order the run evaluates them (repeat for each; once
        /// they are used up, a fresh input is 0). `Random.int n` takes it modulo `n`.
        #[arg(
            long = "input",
            value_name = "INT",
            conflicts_with = "witness",
            allow_hyphen_values = true
        )]
        inputs: Vec<String>,
        /// The deepest call depth a body may run at (`Main` runs at 0) [default: 10, or
        /// the witness's bound].
        #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = depth_bound)]
        max_depth: Option<u32>,
        /// Give up (exit 5) after this many evaluation steps.
        #[arg(long, default_value_t = 100_000_000, value_name = "N")]
        max_steps: u64,
        /// Print every call (name, arguments, depth) and return.
        #[arg(long)]
        trace: bool,
        /// Give up (exit 5) once this process holds more than this much memory (MiB).
        /// Default: half of the machine's memory. (A run also stops short of `ulimit -v`.)
        #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
        memory_limit: Option<u64>,
        /// Replay a violation witness (from `verify --witness`): its inputs, checking that
        /// the run fails at its target (exit 10) and that it was written for this file.
        #[arg(long, value_name = "FILE")]
        witness: Option<PathBuf>,
    },
    /// Run a regression suite: every program against its `(* expect: ... *)` header or manifest.
    #[command(after_help = crate::suite::SUITE_EXIT_CODES_HELP)]
    Suite {
        /// Program files and directories (searched recursively; see docs/suite.md).
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Verifications run at once [default: the number of CPUs].
        #[arg(long, value_name = "N", value_parser = job_count)]
        jobs: Option<std::num::NonZeroUsize>,
        /// The bound K [default: 10 for header programs, every row of a manifest].
        #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = depth_bound)]
        max_depth: Option<u32>,
        #[command(flatten)]
        bounds: CorralBounds,
        /// Give each run up to this many seconds (then it is UNKNOWN, which fails).
        #[arg(long, value_name = "SECONDS", value_parser = positive_seconds)]
        timeout: Option<Duration>,
        /// Stop the solver and count the run as UNKNOWN when one of its replies has not
        /// arrived in full this many seconds after its command.
        #[arg(long, value_name = "SECONDS", value_parser = positive_seconds, default_value = SOLVER_WAIT)]
        solver_wait: Duration,
        /// Stratified inlining on demand (`si`) or full bound-K unrolling (`unroll`).
        #[arg(long, value_enum, default_value_t = Mode::Si)]
        mode: Mode,
        /// The SMT solver to run.
        #[arg(long, value_enum, default_value_t = SolverKind::Z3)]
        solver: SolverKind,
        /// Output format.
        #[arg(long, value_enum, default_value_t = SuiteFormat::Human)]
        format: SuiteFormat,
        /// Run only this share of the suite: the programs whose path hashes to M-1 mod N.
        #[arg(long, value_name = "hash:M/N")]
        partition: Option<Partition>,
        /// Keep verdicts in DIR and answer unchanged programs from it (keyed by the
        /// program text, the options, the tool and the solver version).
        #[arg(long, value_name = "DIR", env = suite::cache::CACHE_ENV, value_parser = cache_dir)]
        cache: Option<PathBuf>,
        /// Verify every program, even with `--cache` or HOREF_SI_CACHE set.
        #[arg(long)]
        no_cache: bool,
        /// How long a run whose search found no bug waits for a proof: SECONDS, or
        /// `budget` (the whole proof budget: VERIFIED expectations then depend least on
        /// the machine's load) [default: twice the search's time, at least 2 s].
        #[arg(long, value_name = "SECONDS|budget", value_parser = parse_proof_wait)]
        proof_wait: Option<engine::ProofWait>,
        /// How long Spacer may look for a proof in each run (seconds from the run's start;
        /// capped by --timeout), as `verify --proof-budget`.
        #[arg(long, value_name = "SECONDS", value_parser = positive_seconds, default_value = DEFAULT_PROOF_BUDGET)]
        proof_budget: Duration,
    },
    /// Print a shell completion script (e.g. `horef-si completions bash > ~/.local/share/bash-completion/completions/horef-si`).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff; e.g. `horef-si manpage > horef-si.1 && man ./horef-si.1`).
    Manpage,
}

/// Parses the command line and runs the command.
pub fn main_with_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> ExitCode {
    let args: Vec<std::ffi::OsString> = args.into_iter().collect();
    let mut command = Cli::command().color(color_of_args(&args));
    // The solver's version is asked only when the version is shown.
    if args.iter().skip(1).any(|a| a == "--version" || a == "-V") {
        command = command.version(&*Box::leak(install::version_text().into_boxed_str()));
    }
    let parsed = command
        .try_get_matches_from(args)
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::Usage
            } else {
                ExitCode::Ok
            };
        }
    };
    let strict = LoadOptions {
        strict: cli.strict,
        entry: cli.entry.as_deref(),
        overflow_checks: cli.overflow_checks,
        lang: cli.lang,
    };
    let style = cli.style();
    match cli.command {
        Command::Check { file } => check(&file, strict),
        Command::Verify {
            file,
            max_depth,
            bounds,
            mode,
            timeout,
            solver_wait,
            solver,
            dump_smt,
            format,
            no_summaries,
            track_all,
            abstraction_start,
            refinement,
            proofs,
            proof_budget,
            proof_wait,
            check_proof,
            memory_limit,
            witness,
            cache,
        } => {
            let timeout = match timeout.map(Duration::try_from_secs_f64) {
                Some(Ok(t)) if !t.is_zero() => Some(t),
                None => None,
                Some(_) => {
                    eprintln!("error: --timeout must be a positive number of seconds");
                    return ExitCode::Usage;
                }
            };
            let options = engine::Options {
                max_depth,
                bounds: bounds.into(),
                mode,
                timeout,
                solver_wait,
                solver,
                dump_smt,
                summaries: !no_summaries && proofs.houdini(),
                chc: proofs.chc(),
                chc_budget: Duration::try_from_secs_f64(proof_budget).unwrap_or_default(),
                proof_wait: proof_wait.unwrap_or_default(),
                memory_limit_mib: memory_limit.or(engine::Options::default().memory_limit_mib),
                check_proof,
                proof_cache: cache.filter(|dir| !dir.as_os_str().is_empty()),
                abstraction: if track_all {
                    None
                } else {
                    abstraction_start.or(engine::Options::default().abstraction)
                },
                refinement,
                ..engine::Options::default()
            };
            let output = Output {
                format,
                witness: witness.as_deref(),
                style,
            };
            // The clock and the memory watch start before the program is read.
            let answer = verify::limit_answer(&file, &options, format);
            limits::start(options.timeout, options.memory_limit_mib, answer);
            verify(&file, &options, &output, strict)
        }
        Command::Lower {
            file,
            stats,
            emit,
            known_closures,
            abstract_products,
        } => {
            let clauses = Clauses {
                emit,
                known_closures,
                abstract_products,
            };
            lower(&file, stats, clauses, strict)
        }
        Command::Run {
            file,
            args,
            inputs,
            max_depth,
            max_steps,
            trace,
            memory_limit,
            witness,
        } => {
            let config = RunConfig {
                max_depth: max_depth.unwrap_or(10),
                fuel: max_steps,
                trace,
                memory_limit_mib: Some(
                    memory_limit.unwrap_or_else(engine::default_memory_limit_mib),
                ),
            };
            match witness {
                Some(witness) => run_witness(&file, &witness, max_depth, &config, strict),
                None => run(&file, (&args, &inputs), &config, strict),
            }
        }
        Command::Suite {
            paths,
            jobs,
            max_depth,
            bounds,
            timeout,
            solver_wait,
            mode,
            solver,
            format,
            partition,
            cache,
            no_cache,
            proof_wait,
            proof_budget,
        } => {
            let config = suite::Config {
                max_depth,
                bounds: bounds.into(),
                timeout,
                solver_wait,
                mode,
                solver,
                jobs: jobs.map_or_else(suite::default_jobs, |n| n.get()),
                partition,
                progress: true,
                cache: cache.filter(|dir| !no_cache && !dir.as_os_str().is_empty()),
                proof_wait: proof_wait.unwrap_or(engine::ProofWait::SUITE),
                proof_budget,
                ..suite::Config::new(paths)
            };
            run_suite(&config, format)
        }
        Command::Completions { shell } => {
            print_stdout_bytes(&install::completions(shell));
            ExitCode::Ok
        }
        Command::Manpage => match install::manpage() {
            Ok(page) => {
                print_stdout_bytes(&page);
                ExitCode::Ok
            }
            Err(e) => {
                eprintln!("error: cannot render the man page: {e}");
                ExitCode::Internal
            }
        },
    }
}

/// The default of `--solver-wait`, in seconds: [`crate::solver::DEFAULT_REPLY_WAIT`]
/// (a test checks that they agree).
const SOLVER_WAIT: &str = "300";

/// The default of `suite --proof-budget`, in seconds: [`engine::DEFAULT_CHC_BUDGET`] (a
/// test checks that they agree).
const DEFAULT_PROOF_BUDGET: &str = "20";

/// A cache directory (`--cache DIR`): one that exists or can be made; an existing file
/// is refused here, before any run.
fn cache_dir(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    if path.exists() && !path.is_dir() {
        return Err(format!("`{text}` exists and is not a directory"));
    }
    Ok(path)
}

/// A `--max-depth` value: a whole number of calls, 0 or more.
fn depth_bound(text: &str) -> Result<u32, String> {
    text.parse::<u32>().map_err(|_| {
        format!(
            "`{text}` is not a depth: give a whole number from 0 to {}",
            u32::MAX
        )
    })
}

/// A `--memory-limit` value: a positive number of MiB (as `--timeout`, 0 is refused).
fn memory_mib(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) | Err(_) => Err(format!(
            "`{text}` is not a memory limit: give a positive number of MiB"
        )),
        Ok(mib) => Ok(mib),
    }
}

/// A `--jobs` value: a positive number of verifications at once.
fn job_count(text: &str) -> Result<std::num::NonZeroUsize, String> {
    text.parse::<std::num::NonZeroUsize>()
        .map_err(|_| format!("`{text}` is not a number of jobs: give a positive whole number"))
}

/// A `--timeout` value: a positive number of seconds, at most 10^9 (so that a deadline
/// computed from it cannot overflow).
/// `--proof-wait`: `budget`, or a number of seconds (0 or more).
fn parse_proof_wait(text: &str) -> Result<engine::ProofWait, String> {
    if text == "budget" {
        return Ok(engine::ProofWait::Budget);
    }
    text.parse::<f64>()
        .ok()
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .map(engine::ProofWait::Fixed)
        .ok_or_else(|| "--proof-wait must be a number of seconds, 0 or more, or `budget`".into())
}

fn positive_seconds(text: &str) -> Result<Duration, String> {
    let seconds = text.parse::<f64>().ok().filter(|t| *t > 0.0 && *t <= 1e9);
    seconds
        .map(Duration::from_secs_f64)
        .ok_or_else(|| "expected a positive number of seconds (at most 1e9)".to_string())
}

/// `suite`: the rows on stdout; for JSON and JUnit the summary line goes to stderr.
fn run_suite(config: &suite::Config, format: SuiteFormat) -> ExitCode {
    let rows = match suite::run(config) {
        Ok(rows) => rows,
        Err(errors) => {
            for e in errors {
                eprintln!("{e}");
            }
            return ExitCode::Input;
        }
    };
    if rows.is_empty() {
        eprintln!("note: no programs to run");
    }
    print_stdout(&suite::output::render(&rows, format));
    if format != SuiteFormat::Human {
        eprintln!("{}", suite::output::summary_line(&rows));
    }
    if rows.iter().all(suite::Row::passed) {
        ExitCode::Ok
    } else {
        ExitCode::Failure
    }
}

/// Writes to stdout, ignoring a closed pipe (`horef-si suite ... | head` is fine).
fn print_stdout(text: &str) {
    print_stdout_bytes(text.as_bytes());
}

fn print_stdout_bytes(bytes: &[u8]) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(bytes).and_then(|()| out.flush());
}

/// Whether `file` (in the language `--lang` names, else its extension's: [`Lang::of`])
/// becomes IR directly (Boogie, IR text) rather than a core program (HORef, OCaml).
fn is_ir(file: &Path, options: LoadOptions) -> bool {
    Lang::of(file, options.lang).is_ir()
}

/// Loads `file` (stdin, named `<stdin>`, for `-`) with [`crate::frontend::load`]; prints a
/// core program's warnings (with `--strict` they fail as errors), or the error.
fn load_or_report(file: &Path, options: LoadOptions) -> Result<Loaded, ExitCode> {
    load_program(file, options).map_err(|(code, message)| {
        eprintln!("{message}");
        code
    })
}

/// As [`load_or_report`], with the error's message returned instead of printed.
fn load_program(file: &Path, options: LoadOptions) -> Result<Loaded, (ExitCode, String)> {
    let loaded = crate::frontend::load(file, options).map_err(|e| (ExitCode::Input, e.render()))?;
    if let Loaded::Core(checked) = &loaded
        && !checked.warnings.is_empty()
    {
        eprintln!(
            "{}\n",
            crate::diagnostics::render_all(&checked.warnings, &checked.file)
        );
    }
    Ok(loaded)
}

fn check(file: &Path, options: LoadOptions) -> ExitCode {
    match load_or_report(file, options) {
        Ok(Loaded::Ir(program)) => {
            outln!(
                "ok: {} ({} procedures)",
                file.display(),
                program.procs.len()
            );
            ExitCode::Ok
        }
        Ok(Loaded::Core(checked)) => {
            outln!(
                "ok: {} ({} methods, {} references)",
                checked.file.name,
                checked.program.methods.len(),
                checked.program.store.len()
            );
            ExitCode::Ok
        }
        Err(code) => code,
    }
}

/// What `lower` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Emit {
    /// The Boogie-like IR.
    Ir,
    /// Boogie text (Boogie 2 with Boogie 3's datatypes) that the Boogie front end reads
    /// back with the same verdicts.
    Boogie,
    /// The constrained Horn clauses of the IR.
    Chc,
    /// The IR's clauses with the calls of small non-recursive procedures unfolded into
    /// their callers' clauses (the same least model; the system `chc-measures` projects).
    ChcUnfolded,
    /// The measures-only Horn system the proof engine tries beside those (programs with
    /// lists): the IR's clauses with the calls of small non-recursive procedures
    /// unfolded, then every list value projected out of the relations.
    ChcMeasures,
    /// As `chc-measures`, every list of integers also carrying its least and greatest
    /// element: the system the proof engine tries for programs that build lists of
    /// elements they bound (`i :: range (i + 1) j` under `i > j`) or compare the elements
    /// of their lists by order (`x :: _ when x > t`).
    ChcBounds,
    /// As `chc-measures`, every list of integers also carrying its first element and how
    /// many of its steps are not `+1` (not `-1`): the system the proof engine tries for
    /// programs that build ranges (`a :: upto (a + 1) b`).
    ChcRanges,
    /// As `chc-measures`, every list of integers also carrying its first element: the
    /// system the proof engine tries for programs that read a list's head outside every
    /// traversal (a stack's `pop`) and build no ranges.
    ChcHeads,
    /// As `chc-measures`, every value of a datatype that nests itself and holds integers
    /// (a tree of composed closures, a list of closures capturing integers) also carrying
    /// its total, the sum of every integer it holds: the system the proof engine tries for
    /// programs that build such values and add.
    ChcTotals,
    /// The IR's clauses with calling contexts, the system the proof engine tries beside
    /// them: a relation `p!ctx` per procedure holding the inputs it is called with,
    /// guarding every body clause (`src/vc/horn_contexts.rs`).
    ChcContexts,
    /// The IR's clauses over one distinguished cell of every map, the system the proof
    /// engine tries last for programs with maps (Boogie maps, OCaml's heap): each relation
    /// carrying maps gets an index `cell` and the maps' values there
    /// (`src/vc/horn_cells.rs`).
    ChcCells,
    /// As `chc-cells`, over two distinguished cells of every map (facts relating two
    /// cells, such as the sum of two balances a transfer keeps).
    ChcTwoCells,
    /// The constrained Horn clauses of refinement-type inference on the HORef program
    /// (`src/verifier/refine/`): one `pre`/`post` relation pair per function-type occurrence; a
    /// method that takes functions gets the caller's context as a ghost argument.
    ChcRefine,
    /// As `chc-refine`, with the caller's innermost integer as the ghost argument.
    ChcRefineInner,
    /// As `chc-refine-inner`, with every closure's `pre` defined `true` (a `define-fun`):
    /// closures summarized by their `post` alone
    ChcRefineClosures,
}

impl Emit {
    /// Whether this prints Horn clauses of the IR (`chc`, `chc-measures`, …; not the
    /// refinement-type ones, made from the core program).
    fn is_ir_horn(self) -> bool {
        matches!(
            self,
            Emit::Chc
                | Emit::ChcUnfolded
                | Emit::ChcMeasures
                | Emit::ChcBounds
                | Emit::ChcRanges
                | Emit::ChcHeads
                | Emit::ChcTotals
                | Emit::ChcContexts
                | Emit::ChcCells
                | Emit::ChcTwoCells
        )
    }

    /// The ghost scheme of a refinement-type encoding, `None` for the others.
    fn refine_ghost(self) -> Option<crate::verifier::refine::Ghost> {
        match self {
            Emit::ChcRefine => Some(crate::verifier::refine::Ghost::Context),
            Emit::ChcRefineInner | Emit::ChcRefineClosures => {
                Some(crate::verifier::refine::Ghost::Innermost)
            }
            // The IR, Boogie text, and the IR's clauses (`is_ir_horn`).
            _ => None,
        }
    }
}

/// Runs `verify` with a progress line on stderr (drawn only on a terminal), cleared after.
fn with_progress_line<T>(
    options: &engine::Options,
    verify: impl FnOnce(&engine::Options) -> T,
) -> T {
    let line = ProgressLine::stderr();
    let options = engine::Options {
        progress: Some(line.observer()),
        ..options.clone()
    };
    let result = verify(&options);
    line.finish();
    result
}

/// What `lower` prints, and how the Horn clauses of the IR are varied.
#[derive(Clone, Copy, Debug)]
struct Clauses {
    emit: Emit,
    /// `--known-closures`.
    known_closures: bool,
    /// `--abstract-products`.
    abstract_products: bool,
}

fn lower(file: &Path, stats: bool, clauses: Clauses, options: LoadOptions) -> ExitCode {
    let emit = clauses.emit;
    for (set, flag) in [
        (clauses.known_closures, "--known-closures"),
        (clauses.abstract_products, "--abstract-products"),
    ] {
        if set && !emit.is_ir_horn() {
            eprintln!("error: {flag} changes the Horn clauses of the IR: use it with --emit chc…");
            return ExitCode::Usage;
        }
    }
    if stats && emit == Emit::Ir && is_ir(file, options) {
        eprintln!(
            "error: --stats counts what the lowering made; {} is not lowered",
            file.display()
        );
        return ExitCode::Usage;
    }
    let checked = match (load_or_report(file, options), emit) {
        (Err(code), _) => return code,
        (Ok(loaded), Emit::Boogie) => return print_boogie(file, loaded),
        (Ok(Loaded::Ir(ir)), Emit::Ir) => {
            out!("{}", boogie_like::print(&ir));
            return ExitCode::Ok;
        }
        (Ok(Loaded::Ir(ir)), emit) if emit.is_ir_horn() => {
            return print_horn(file, &ir, clauses);
        }
        (Ok(Loaded::Ir(_)), _) => {
            eprintln!(
                "error: {}: the refinement-type clauses (--emit chc-refine*) are made from a \
                 HORef or OCaml program; this is a Boogie or IR program (--emit chc gives its \
                 clauses)",
                file.display()
            );
            return ExitCode::Input;
        }
        (Ok(Loaded::Core(checked)), _) => checked,
    };
    if let Some(ghost) = emit.refine_ghost() {
        let (program, info, names) = (&checked.program, &checked.info, &checked.names);
        let system = match emit {
            Emit::ChcRefineClosures => crate::verifier::refine::horn_of_closure_posts(
                program, info, names,
            )
            .and_then(|closures| match closures {
                Some(system) => Ok(system),
                None => crate::verifier::refine::horn_of(program, info, names, ghost),
            }),
            _ => crate::verifier::refine::horn_of(program, info, names, ghost),
        };
        return match system {
            Ok(system) => {
                out!("{}", system.script());
                ExitCode::Ok
            }
            Err(unsupported) => {
                eprintln!("error: {}: {unsupported}", file.display());
                ExitCode::Input
            }
        };
    }
    let lowered = crate::lower::lower(&checked);
    if emit.is_ir_horn() {
        return print_horn(file, &lowered.ir, clauses);
    }
    out!("{}", boogie_like::print(&lowered.ir));
    if stats {
        let s = &lowered.stats;
        outln!("// procedures: {}", s.procedures);
        outln!("// call sites: {}", s.call_sites);
        outln!("// direct calls: {}", s.dispatch.direct_calls);
        outln!("// dispatch sites: {}", s.dispatch.dispatch_sites);
        outln!(
            "// candidates: {} in total, at most {} per site",
            s.dispatch.candidates_total,
            s.dispatch.candidates_max
        );
    }
    ExitCode::Ok
}

/// `lower --emit chc`: the Horn clauses of `ir`; `--emit chc-unfolded`: with small
/// calls unfolded; `--emit chc-measures`: the measures-only projection of those
/// (`--emit chc-bounds`: with least and greatest elements; `--emit chc-ranges`: with
/// first elements and breaks of ±1 steps; `--emit chc-heads`: with first elements;
/// `--emit chc-totals`: with totals of nested
/// datatypes); `--emit chc-contexts`: the clauses with calling
/// contexts; `--emit chc-cells` and `--emit chc-two-cells`: the clauses over one or two
/// cells of every map.
fn print_horn(file: &Path, ir: &boogie_like::Program, clauses: Clauses) -> ExitCode {
    use crate::vc::horn::HornSystem;
    let Clauses {
        emit,
        known_closures,
        abstract_products,
    } = clauses;
    // The program the engine asks about (constant closure fields read as their literal,
    // …), with `--known-closures` its calls passing known closures specialised.
    let prepared = match known_closures {
        false => Some(crate::engine::proof_program(ir).into_owned()),
        true => crate::engine::specialised_program(ir),
    };
    let Some(ir) = prepared else {
        eprintln!(
            "error: {}: no call passes a known closure (--known-closures leaves the program \
             as it is)",
            file.display()
        );
        return ExitCode::Input;
    };
    let ir = &ir;
    // The systems the engine builds only for some programs: why this one has none.
    let (system, missing) = match emit {
        Emit::ChcUnfolded | Emit::ChcMeasures => (HornSystem::of_unfolded(ir), None),
        Emit::ChcBounds => (
            HornSystem::of_unfolded_with_bounds(ir),
            Some(
                "no system with least and greatest elements: the program builds no list of \
                 integers from a value it or a caller compares by order, and compares no \
                 element of one by order",
            ),
        ),
        Emit::ChcRanges => (
            HornSystem::of_unfolded_with_ranges(ir),
            Some(
                "no system with ranges: no function puts an integer onto a list and calls \
                 itself with a parameter plus or minus 1",
            ),
        ),
        Emit::ChcHeads => (
            HornSystem::of_unfolded_with_heads(ir),
            Some(
                "no system with first elements: no function outside every recursion reads \
                 the head of a list of integers, or the program builds ranges (whose system \
                 carries first elements)",
            ),
        ),
        Emit::ChcTotals => (
            HornSystem::of_unfolded_with_totals(ir),
            Some(
                "no system with totals: no datatype nests itself and holds integers beyond \
                 a list of integers, or nothing adds two values",
            ),
        ),
        _ => (HornSystem::of(ir), None),
    };
    if let (None, Some(why)) = (&system, missing) {
        eprintln!("error: {}: {why}", file.display());
        return ExitCode::Input;
    }
    let derived = |system: &HornSystem| match emit {
        Emit::ChcMeasures
        | Emit::ChcBounds
        | Emit::ChcRanges
        | Emit::ChcHeads
        | Emit::ChcTotals => Some((
            crate::vc::measure_abstract::measures_only(system),
            "no relation carries a list: the measures-only system is the clauses of --emit chc",
        )),
        Emit::ChcContexts => Some((
            crate::vc::horn_contexts::with_call_contexts(system),
            match system.has_goal() {
                false => {
                    "no system with calling contexts: no assertion can fail (the clauses of --emit chc say so)"
                }
                true => {
                    "no system with calling contexts: a clause of a shape the construction does not know"
                }
            },
        )),
        Emit::ChcCells => Some((
            crate::vc::horn_cells::tracked_cells(system, 1),
            "no system over distinguished cells: no relation carries a map, or a map is used \
             where the construction cannot read it (src/vc/horn_cells.rs)",
        )),
        Emit::ChcTwoCells => Some((
            crate::vc::horn_cells::tracked_cells(system, 2),
            "no system over distinguished cells: no relation carries a map, or a map is used \
             where the construction cannot read it, or at too many indices \
             (src/vc/horn_cells.rs)",
        )),
        _ => None,
    };
    let print = |system: HornSystem| {
        let system = match abstract_products {
            false => Some(system),
            true => crate::vc::horn_products::products_abstracted(&system),
        };
        match system {
            Some(system) => {
                out!("{}", system.script());
                ExitCode::Ok
            }
            None => {
                eprintln!(
                    "error: {}: no product of two non-constant terms and no remainder by a \
                     literal of 3 or more in these clauses (--abstract-products leaves them as \
                     they are)",
                    file.display()
                );
                ExitCode::Input
            }
        }
    };
    match system {
        Some(system) if let Some((derived, why)) = derived(&system) => match derived {
            Some(derived) => print(derived),
            None => {
                eprintln!("error: {}: {why}", file.display());
                ExitCode::Input
            }
        },
        Some(system) => print(system),
        None if ir.has_quantifiers() => {
            eprintln!(
                "error: {}: unsupported by --emit chc: quantifiers (the Horn clauses are \
                 quantifier-free)",
                file.display()
            );
            ExitCode::Input
        }
        None => {
            eprintln!(
                "error: {}: the program has no entry procedure",
                file.display()
            );
            ExitCode::Input
        }
    }
}

/// `lower --emit boogie`: any program (HORef, OCaml, Boogie, IR) as Boogie text.
fn print_boogie(file: &Path, loaded: Loaded) -> ExitCode {
    let ir = match loaded {
        Loaded::Ir(program) => program,
        Loaded::Core(checked) => crate::lower::lower(&checked).ir,
    };
    match crate::frontend::boogie::emit::emit(&ir) {
        Ok(text) => {
            out!("{text}");
            ExitCode::Ok
        }
        Err(unsupported) => {
            eprintln!("error: {}: {unsupported}", file.display());
            ExitCode::Input
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_solver_wait_default_is_the_solver_modules() {
        let parsed = super::positive_seconds(super::SOLVER_WAIT);
        assert_eq!(parsed, Ok(crate::solver::DEFAULT_REPLY_WAIT));
    }

    #[test]
    fn the_suite_proof_budget_default_is_the_engines() {
        let parsed = super::positive_seconds(super::DEFAULT_PROOF_BUDGET);
        assert_eq!(parsed, Ok(crate::engine::DEFAULT_CHC_BUDGET));
    }
}
