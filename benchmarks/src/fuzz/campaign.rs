//! A fuzzing campaign: random programs from consecutive seeds, each checked by the oracle,
//! on several threads, for a number of programs or minutes; every program with a defect is
//! shrunk and written out.
//!
//! Guarantees: program `i` of a campaign is `random::generate(seed + i)`, whatever the
//! number of threads; the summary counts only programs checked completely (every bound,
//! every mode); the figures are sums over those programs.

use super::language::Language;
use super::oracle::{self, Defect, OracleConfig, Report, Setting};
use super::shrink::shrink;
use super::{boogie, ir_oracle, random};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What to run.
#[derive(Clone, Debug)]
pub struct CampaignConfig {
    /// The seed of the first program.
    pub seed: u64,
    /// Stop after this many programs (`None`: no limit).
    pub programs: Option<u64>,
    /// Stop starting programs after this long (`None`: no limit).
    pub duration: Option<Duration>,
    pub jobs: usize,
    pub oracle: OracleConfig,
    /// Predicate calls allowed to shrink one program with a defect.
    pub shrink_budget: usize,
    /// Where to write each program with a defect and its shrunk form.
    pub out_dir: Option<PathBuf>,
}

/// One program with a defect.
#[derive(Clone, Debug)]
pub struct Finding {
    pub seed: u64,
    pub defects: Vec<Defect>,
    pub text: String,
    pub shrunk: String,
}

/// The figures of a campaign.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub programs: u64,
    pub checks: u64,
    pub runs: u64,
    pub verified: u64,
    pub bugs: u64,
    pub safe: u64,
    pub unknown: u64,
    /// Programs some concrete run (or replayed bug) fails within the largest bound.
    pub failing_programs: u64,
    /// Programs the generator made that the front end rejects (a generator bug).
    pub not_loaded: Vec<(u64, String)>,
    pub findings: Vec<Finding>,
    pub elapsed: Duration,
}

impl Summary {
    fn add(&mut self, report: &Report) {
        self.programs += 1;
        self.checks += report.checks as u64;
        self.runs += report.runs as u64;
        self.verified += report.verified as u64;
        self.bugs += report.bugs as u64;
        self.safe += report.safe as u64;
        self.unknown += report.unknown as u64;
        self.failing_programs += u64::from(report.concrete_bug_depth.is_some());
    }

    /// How many defects of a class (`unsound`, `replay`, `unconfirmed`, `modes`, `bound`,
    /// `panic`) the findings hold.
    pub fn defects_of(&self, class: &str) -> usize {
        self.findings
            .iter()
            .flat_map(|f| &f.defects)
            .filter(|d| d.class().0 == class)
            .count()
    }

    /// One line of figures.
    pub fn line(&self) -> String {
        format!(
            "{} programs, {} verify calls ({} verified, {} bug, {} safe up to K, {} unknown), \
             {} concrete runs, {} programs failing within the bound; defects: {} unsound, \
             {} replay, {} unconfirmed, {} mode disagreements, {} wrong bounds, {} panics; \
             {} not loaded; {:.0} s",
            self.programs,
            self.checks,
            self.verified,
            self.bugs,
            self.safe,
            self.unknown,
            self.runs,
            self.failing_programs,
            self.defects_of("unsound"),
            self.defects_of("replay"),
            self.defects_of("unconfirmed"),
            self.defects_of("modes"),
            self.defects_of("bound"),
            self.defects_of("panic"),
            self.not_loaded.len(),
            self.elapsed.as_secs_f64()
        )
    }
}

/// Runs the campaign; `progress` sees the summary after every program.
pub fn run(config: &CampaignConfig, progress: impl Fn(&Summary) + Sync) -> Summary {
    let started = Instant::now();
    let next = AtomicU64::new(0);
    let summary = Mutex::new(Summary::default());
    let more = |i: u64| {
        config.programs.is_none_or(|n| i < n)
            && config.duration.is_none_or(|d| started.elapsed() < d)
    };
    std::thread::scope(|scope| {
        for _ in 0..config.jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if !more(i) {
                        return;
                    }
                    let seed = config.seed.wrapping_add(i);
                    let outcome = check_seed(config, seed);
                    let mut s = summary.lock().unwrap_or_else(|e| e.into_inner());
                    match outcome {
                        Ok((report, finding)) => {
                            s.add(&report);
                            s.findings.extend(finding);
                        }
                        Err(why) => s.not_loaded.push((seed, why)),
                    }
                    s.elapsed = started.elapsed();
                    progress(&s);
                }
            });
        }
    });
    let mut summary = summary.into_inner().unwrap_or_else(|e| e.into_inner());
    summary.findings.sort_by_key(|f| f.seed);
    summary.not_loaded.sort();
    summary.elapsed = started.elapsed();
    summary
}

/// Checks the program of `seed`; with a defect, shrinks it and writes both out.
fn check_seed(config: &CampaignConfig, seed: u64) -> Result<(Report, Option<Finding>), String> {
    let language = config.oracle.language;
    if language == Language::Boogie {
        return check_boogie_seed(config, seed);
    }
    let program = random::generate(seed);
    let text = language.render(&program);
    let report = oracle::check(&text, &config.oracle).map_err(|e| e.0)?;
    if report.defects.is_empty() {
        return Ok((report, None));
    }
    let target = report.defects[0].class();
    let (_, k, _) = target;
    let shrunk = shrink(
        &program,
        |candidate| {
            let text = language.render(candidate);
            has_defect(
                oracle::check_at(&text, &config.oracle, &[k], &config.oracle.modes),
                target,
            )
        },
        config.shrink_budget,
    );
    let shrunk = language.render(&shrunk.program);
    let finding = finding(config, seed, &report, (text, shrunk), language.extension());
    Ok((report, Some(finding)))
}

/// As [`check_seed`], for the Boogie generator's text of `seed` (shrunk line by line).
fn check_boogie_seed(
    config: &CampaignConfig,
    seed: u64,
) -> Result<(Report, Option<Finding>), String> {
    let text = boogie::generate(seed);
    let report = ir_oracle::check(&text, &config.oracle).map_err(|e| e.0)?;
    if report.defects.is_empty() {
        return Ok((report, None));
    }
    let target = report.defects[0].class();
    let (_, k, _) = target;
    let shrunk = boogie::shrink_text(
        &text,
        |candidate| {
            has_defect(
                ir_oracle::check_at(candidate, &config.oracle, &[k], &config.oracle.modes),
                target,
            )
        },
        config.shrink_budget,
    );
    let extension = Language::Boogie.extension();
    let finding = finding(config, seed, &report, (text, shrunk), extension);
    Ok((report, Some(finding)))
}

/// Whether a check (of a shrinking candidate) still has a defect of class `target`.
fn has_defect(
    checked: Result<Report, oracle::NotLoaded>,
    target: (&'static str, u32, Option<Setting>),
) -> bool {
    checked.is_ok_and(|r| r.defects.iter().any(|d| d.class() == target))
}

/// The finding of `seed` from its report and its text with the shrunk form, written out
/// when the campaign has an output folder.
fn finding(
    config: &CampaignConfig,
    seed: u64,
    report: &Report,
    (text, shrunk): (String, String),
    extension: &str,
) -> Finding {
    let finding = Finding {
        seed,
        defects: report.defects.clone(),
        text,
        shrunk,
    };
    if let Some(dir) = &config.out_dir {
        write_finding(dir, &finding, extension);
    }
    finding
}

fn write_finding(dir: &std::path::Path, finding: &Finding, extension: &str) {
    let defects: Vec<String> = finding
        .defects
        .iter()
        .map(|d| match extension {
            "bpl" => format!("// {d}"),
            _ => format!("(* {d} *)"),
        })
        .collect();
    let header = defects.join("\n");
    let _ = std::fs::create_dir_all(dir);
    let original = dir.join(format!("seed-{}.{extension}", finding.seed));
    let _ = std::fs::write(original, format!("{header}\n{}", finding.text));
    let shrunk = dir.join(format!("seed-{}-shrunk.{extension}", finding.seed));
    let _ = std::fs::write(shrunk, format!("{header}\n{}", finding.shrunk));
}
