//! `harness`: runs `horef-si verify` (the release binary, `--format json`) over suites at
//! K = 1..15 in both modes with a per-run timeout; writes CSV, PNG plots and the Markdown
//! tables of `benchmarks/RESULTS.md`.

use anyhow::Context;
use clap::Parser;
use horef_bench::record::{self, Row};
use horef_bench::run::Runner;
use horef_bench::suite::{self, Suite};
use horef_bench::{plot, summary};
use std::path::{Path, PathBuf};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

#[derive(Parser)]
#[command(about = "Benchmark horef-si over suites: CSV, PNG plots, Markdown tables")]
struct Args {
    /// Suite directories (headers or an expected.csv manifest). Default: benchmarks/programs,
    /// benchmarks/generated and ../shared/bmc2-suite when it exists.
    suites: Vec<PathBuf>,
    /// Smallest depth bound.
    #[arg(long, default_value_t = 1)]
    kmin: u32,
    /// Largest depth bound.
    #[arg(long, default_value_t = 15)]
    kmax: u32,
    /// Exact depth bounds (instead of kmin..=kmax), e.g. `3,10`.
    #[arg(long, value_delimiter = ',')]
    ks: Vec<u32>,
    /// Modes to run: si, unroll, si-no-summaries (default: si and unroll).
    #[arg(long = "mode")]
    modes: Vec<String>,
    /// Per-run timeout in seconds (the verifier's `--timeout`; killed 10 s later).
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// Only programs whose name contains this.
    #[arg(long)]
    only: Option<String>,
    /// The verifier (default: $CARGO_TARGET_DIR/release/horef-si or target/release/horef-si).
    #[arg(long)]
    binary: Option<PathBuf>,
    /// Output directory for the CSV, plots and summary.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/results"))]
    out: PathBuf,
    /// CSV file name (inside --out).
    #[arg(long, default_value = "harness.csv")]
    csv: String,
    /// Do not run: plot and summarize these CSV files (from earlier runs).
    #[arg(long = "from-csv")]
    from_csv: Vec<PathBuf>,
    /// A TrueType font for the plots' text (default: DejaVu Sans where installed).
    #[arg(long)]
    font: Option<PathBuf>,
    /// The suite of programs of different sizes (for the size plot and table).
    #[arg(long, default_value = "generated")]
    size_suite: String,
    /// Depth bounds of the size plots and tables.
    #[arg(long, value_delimiter = ',', default_value = "3,10")]
    size_k: Vec<u32>,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let rows = if args.from_csv.is_empty() {
        run_all(&args)?
    } else {
        record::read_all(&args.from_csv).map_err(anyhow::Error::msg)?
    };
    report(&args, &rows)
}

fn default_binary() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(ROOT).join("target"));
    target.join("release").join("horef-si")
}

fn default_suites() -> Vec<PathBuf> {
    let root = Path::new(ROOT);
    let mut suites = vec![
        root.join("benchmarks/programs"),
        root.join("benchmarks/generated"),
    ];
    let shared = root.join("../shared/bmc2-suite");
    if shared.join("expected.csv").exists() {
        suites.push(shared);
    }
    suites
}

fn run_all(args: &Args) -> anyhow::Result<Vec<Row>> {
    let runner = Runner {
        binary: args.binary.clone().unwrap_or_else(default_binary),
        timeout: args.timeout,
    };
    anyhow::ensure!(
        runner.binary.exists(),
        "no verifier at {} (cargo build --release)",
        runner.binary.display()
    );
    let dirs = if args.suites.is_empty() {
        default_suites()
    } else {
        args.suites.clone()
    };
    let suites: Vec<Suite> = dirs
        .iter()
        .map(|d| suite::load(d).map_err(anyhow::Error::msg))
        .collect::<anyhow::Result<_>>()?;
    let ks: Vec<u32> = if args.ks.is_empty() {
        (args.kmin..=args.kmax).collect()
    } else {
        args.ks.clone()
    };
    let modes = if args.modes.is_empty() {
        vec!["si".to_string(), "unroll".to_string()]
    } else {
        args.modes.clone()
    };
    let csv_path = args.out.join(&args.csv);
    let mut writer = csv::Writer::from_path(&csv_path)
        .with_context(|| format!("writing {}", csv_path.display()))?;
    let mut rows = Vec::new();
    let total: usize = suites
        .iter()
        .map(|s| selected(s, args).count())
        .sum::<usize>()
        * ks.len()
        * modes.len();
    for suite in &suites {
        for program in selected(suite, args) {
            for mode in &modes {
                for &k in &ks {
                    let done = runner.verify(&program.path, k, mode);
                    let expected = program.expected(k).as_str().to_string();
                    let row = Row {
                        suite: suite.name.clone(),
                        program: program.name.clone(),
                        lines: program.lines,
                        k,
                        mode: mode.clone(),
                        outcome: record::outcome(&done.verdict, &expected).to_string(),
                        verdict: done.verdict,
                        expected,
                        seconds: (done.seconds * 1000.0).round() / 1000.0,
                    };
                    progress(rows.len() + 1, total, &row, &done.detail);
                    writer.serialize(&row)?;
                    writer.flush()?;
                    rows.push(row);
                }
            }
        }
    }
    eprintln!("wrote {}", csv_path.display());
    Ok(rows)
}

fn selected<'a>(suite: &'a Suite, args: &'a Args) -> impl Iterator<Item = &'a suite::Program> {
    suite
        .programs
        .iter()
        .filter(|p| args.only.as_deref().is_none_or(|o| p.name.contains(o)))
}

fn progress(i: usize, total: usize, row: &Row, detail: &str) {
    let flag = match row.outcome.as_str() {
        "wrong" => "  WRONG",
        "unknown" => "  (unknown)",
        _ => "",
    };
    let detail = if detail.is_empty() {
        String::new()
    } else {
        format!(" [{detail}]")
    };
    eprintln!(
        "[{i}/{total}] {}/{} K={} {}: {} ({:.2} s), expected {}{flag}{detail}",
        row.suite, row.program, row.k, row.mode, row.verdict, row.seconds, row.expected
    );
}

fn report(args: &Args, rows: &[Row]) -> anyhow::Result<()> {
    let style = plot::load_font(args.font.as_deref());
    if !style.text {
        eprintln!("no font found: plots are drawn without text (use --font FILE.ttf)");
    }
    let mut suites: Vec<&str> = rows.iter().map(|r| r.suite.as_str()).collect();
    suites.sort();
    suites.dedup();
    let mut written = Vec::new();
    for suite in suites {
        let path = args.out.join(format!("time_vs_k_{suite}.png"));
        plot::time_vs_k(rows, suite, &path, style).map_err(anyhow::Error::msg)?;
        written.push(path);
    }
    let path = args.out.join("si_vs_unroll.png");
    plot::si_vs_unroll(rows, &path, style).map_err(anyhow::Error::msg)?;
    written.push(path);
    for &k in &args.size_k {
        if rows.iter().any(|r| r.suite == args.size_suite && r.k == k) {
            let path = args.out.join(format!("time_vs_size_k{k}.png"));
            plot::time_vs_size(rows, &args.size_suite, k, &path, style)
                .map_err(anyhow::Error::msg)?;
            written.push(path);
        }
    }
    let text = summary::markdown(rows, &args.size_suite, &args.size_k);
    let path = args
        .out
        .join(args.csv.trim_end_matches(".csv").to_string() + "-summary.md");
    std::fs::write(&path, &text).with_context(|| format!("writing {}", path.display()))?;
    print!("{text}");
    for path in written.iter().chain([&path]) {
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}
