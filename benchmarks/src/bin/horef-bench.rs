//! `horef-bench`: the benchmark crate's commands. `horef-bench fuzz` runs the soundness
//! fuzzing campaign of issue 18 (random programs, every verdict at K = 0..6 in both modes
//! checked against concrete runs) and prints its figures; it exits 1 if any defect was
//! found. (`generate` and `harness` are the crate's other binaries.)

use anyhow::Result;
use clap::{Parser, Subcommand};
use horef_bench::fuzz::campaign::{self, CampaignConfig, Summary};
use horef_bench::fuzz::language::Language;
use horef_bench::fuzz::oracle::OracleConfig;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Parser, Debug)]
#[command(name = "horef-bench", about = "Benchmarks and fuzzing of horef-si")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Random programs, every verdict checked against concrete runs (see benchmarks/RESULTS.md).
    Fuzz {
        /// Stop starting new programs after this many minutes.
        #[arg(long)]
        minutes: Option<f64>,
        /// Stop after this many programs.
        #[arg(long)]
        programs: Option<u64>,
        /// The seed of the first program (program i has seed SEED + i).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Programs checked at once.
        #[arg(long, default_value_t = 2)]
        jobs: usize,
        /// Check the bounds K = 0..=MAX_K.
        #[arg(long, default_value_t = 6)]
        max_k: u32,
        /// Time limit of one `verify` call, in seconds (a timeout is UNKNOWN, not a defect).
        #[arg(long, default_value_t = 30.0)]
        timeout: f64,
        /// Where to write programs with a defect and their shrunk forms.
        #[arg(long, default_value = "fuzz-findings")]
        out: PathBuf,
        /// Oracle predicate calls allowed to shrink one program.
        #[arg(long, default_value_t = 300)]
        shrink_budget: usize,
        /// The language the random programs are printed in and verified as.
        #[arg(long, value_enum, default_value_t = Language::Horef)]
        language: Language,
        /// Print the programs of the seeds instead of checking them (to read or reproduce
        /// one): `--programs 1 --seed N --print`.
        #[arg(long)]
        print: bool,
    },
}

fn main() -> Result<()> {
    let Command::Fuzz {
        minutes,
        programs,
        seed,
        jobs,
        max_k,
        timeout,
        out,
        shrink_budget,
        language,
        print,
    } = Cli::parse().command;
    if print {
        let Some(programs) = programs else {
            anyhow::bail!("--print needs --programs");
        };
        for seed in seed..seed.saturating_add(programs) {
            eprintln!("seed {seed}:");
            println!("{}", language.program_of(seed));
        }
        return Ok(());
    }
    if minutes.is_none() && programs.is_none() {
        anyhow::bail!("give --minutes or --programs (or both)");
    }
    let config = CampaignConfig {
        seed,
        programs,
        duration: minutes.map(|m| Duration::from_secs_f64(m * 60.0)),
        jobs,
        oracle: OracleConfig {
            max_k,
            timeout: Duration::from_secs_f64(timeout),
            language,
            ..OracleConfig::default()
        },
        shrink_budget,
        out_dir: Some(out),
    };
    eprintln!(
        "horef-bench fuzz: {language:?} programs, seeds from {seed}, K = 0..={max_k}, {jobs} jobs"
    );
    let last = Mutex::new(Instant::now());
    let progress = |s: &Summary| {
        let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
        if last.elapsed() >= Duration::from_secs(60) {
            *last = Instant::now();
            eprintln!("  {}", s.line());
        }
    };
    let summary = campaign::run(&config, progress);
    println!("{}", summary.line());
    for (seed, why) in &summary.not_loaded {
        println!("seed {seed}: the generated program does not load:\n{why}");
    }
    for finding in &summary.findings {
        println!("seed {}:", finding.seed);
        for d in &finding.defects {
            println!("  {d}");
        }
        println!("shrunk:\n{}", finding.shrunk);
    }
    if summary.findings.is_empty() && summary.not_loaded.is_empty() {
        Ok(())
    } else {
        std::process::exit(1)
    }
}
