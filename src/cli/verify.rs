//! `horef-si verify`: load, verify with the one verifier, print the verdict (human text
//! with the failing line and a command that reproduces a bug, JSON, SARIF), then write a
//! witness; an input that does not load still gives a document in the asked format.

use super::*;

/// How `verify` prints its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
    /// SARIF 2.1.0, for code-scanning dashboards.
    Sarif,
}

/// What `verify` writes beside its verdict, and how.
pub(super) struct Output<'a> {
    pub(super) format: Format,
    pub(super) witness: Option<&'a Path>,
    pub(super) style: Style,
}

pub(super) fn verify(
    file: &Path,
    options: &engine::Options,
    output: &Output,
    load: LoadOptions,
) -> ExitCode {
    if output.witness.is_some() && is_ir(file, load) {
        eprintln!("error: --witness is for HORef and OCaml programs, not Boogie or IR files");
        return ExitCode::Usage;
    }
    let loaded = match load_program(file, load) {
        Ok(loaded) => loaded,
        Err((_, message)) => return input_error(file, &message, output.format),
    };
    limits::loaded();
    let outcome = with_progress_line(options, |o| verifier::verify(Program::from(&loaded), o));
    let checked = match loaded {
        Loaded::Core(checked) => Some(checked),
        Loaded::Ir(_) => None,
    };
    limits::claim();
    let printed = print_verdict(file, checked.as_ref(), &outcome, options, output);
    // The verdict is out before any file is written: a witness path that cannot be
    // written costs the witness, never the answer.
    if let (Some(path), Some(checked)) = (output.witness, &checked)
        && let Err(code) = write_witness(path, checked, &outcome.verdict, options.max_depth)
    {
        return code;
    }
    printed.unwrap_or_else(|| report::exit_code(&outcome.verdict))
}

/// Prints the verdict in the asked format; `Some(code)` if it could not be printed.
fn print_verdict(
    file: &Path,
    checked: Option<&Checked>,
    outcome: &engine::Outcome,
    options: &engine::Options,
    output: &Output,
) -> Option<ExitCode> {
    match output.format {
        Format::Human => {
            let reproduce = checked.and_then(|c| reproduce_command(file, c, outcome, options));
            let context = report::Context {
                max_depth: options.max_depth,
                bounds: &options.bounds,
                verbosity: output.style.verbosity,
                file: &checked.map_or_else(|| file.display().to_string(), |c| c.file.name.clone()),
                source: checked.map(|c| &c.file),
                reproduce: reproduce.as_deref(),
            };
            let text = report::human(outcome, &context);
            let note = checked.and_then(|c| overflow_note(c, &outcome.verdict));
            let text = match output.style.verbosity {
                report::Verbosity::Quiet => text,
                _ => with_second_line(&text, note),
            };
            outln!(
                "{}",
                paint_headline(&text, &outcome.verdict, output.style.color)
            );
        }
        Format::Json => {
            let version = crate::solver::version(options.solver);
            let provenance = provenance(&file.display().to_string(), options, version);
            outln!(
                "{}",
                report::json(outcome, (options.max_depth, &options.bounds), &provenance)
            )
        }
        Format::Sarif => {
            let name = checked.map_or_else(|| file.display().to_string(), |c| c.file.name.clone());
            return print_sarif(&sarif::verify_log(
                &name,
                &outcome.verdict,
                options.max_depth,
            ));
        }
    }
    None
}

/// An input that did not load: its message on stderr, and for `--format json|sarif` a
/// document on stdout that says so (a pipeline reading stdout always gets one).
fn input_error(file: &Path, message: &str, format: Format) -> ExitCode {
    eprintln!("{message}");
    match format {
        Format::Human => {}
        Format::Json => outln!(
            "{}",
            report::input_error_json(&file.display().to_string(), message)
        ),
        Format::Sarif => {
            if let Some(code) = print_sarif(&sarif::input_error_log(message)) {
                return code;
            }
        }
    }
    ExitCode::Input
}

fn print_sarif(log: &serde_sarif::sarif::Sarif) -> Option<ExitCode> {
    match serde_json::to_string_pretty(log) {
        Ok(text) => {
            outln!("{text}");
            None
        }
        Err(e) => {
            eprintln!("internal error: the SARIF log does not serialise: {e}");
            Some(ExitCode::Internal)
        }
    }
}

/// The `run` command that replays a BUG's inputs concretely, when `run` can take them:
/// every input a ground value `--arg` reads, every fresh input an `--input`.
fn reproduce_command(
    file: &Path,
    checked: &Checked,
    outcome: &engine::Outcome,
    options: &engine::Options,
) -> Option<String> {
    let engine::verdict::Verdict::Bug { inputs, fresh, .. } = &outcome.verdict else {
        return None;
    };
    if file.as_os_str() == "-" {
        return None;
    }
    let mut words = vec![
        "horef-si".to_string(),
        "run".to_string(),
        shell_word(&file.display().to_string()),
    ];
    if let Some(entry) = &checked.entry {
        words.extend(["--entry".to_string(), shell_word(entry)]);
    }
    let overflow_checks = crate::core_lang::ast::IntModel::OCaml {
        overflow_checks: true,
    };
    if checked.program.ints == overflow_checks {
        words.push("--overflow-checks".to_string());
    }
    for (name, value) in inputs {
        let ground = value.parse::<BigInt>().is_ok() || value == "skip" || value == "()";
        if !ground {
            return None;
        }
        words.extend(["--arg".to_string(), shell_word(&format!("{name}={value}"))]);
    }
    for (_, value) in fresh {
        value.parse::<BigInt>().ok()?;
        words.push(format!("--input={value}"));
    }
    words.extend(["--max-depth".to_string(), options.max_depth.to_string()]);
    Some(words.join(" "))
}

/// `word` as one shell word: as it is when it is plain, else in single quotes.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The report with its first line (the verdict) in the verdict's colour.
fn paint_headline(text: &str, verdict: &engine::verdict::Verdict, color: bool) -> String {
    use anstyle::AnsiColor;
    use engine::verdict::Verdict;
    if !color {
        return text.to_string();
    }
    let colour = match verdict {
        Verdict::Verified | Verdict::SafeUpTo { .. } => AnsiColor::Green,
        Verdict::Bug { .. } => AnsiColor::Red,
        Verdict::Unknown { .. } => AnsiColor::Yellow,
    };
    let (on, off) = (colour.on_default().bold().render(), anstyle::Reset.render());
    match text.split_once('\n') {
        Some((first, rest)) => format!("{on}{first}{off}\n{rest}"),
        None => format!("{on}{text}{off}"),
    }
}

/// What a JSON report says about where it comes from.
fn provenance(
    file: &str,
    options: &engine::Options,
    solver_version: Option<String>,
) -> report::Provenance {
    report::Provenance {
        file: file.to_string(),
        solver: options.solver.program().to_string(),
        solver_version,
    }
}

/// The line a VERIFIED or SAFE verdict on an OCaml program without `--overflow-checks`
/// carries: its integers are unbounded, OCaml's wrap around.
fn overflow_note(checked: &Checked, verdict: &engine::verdict::Verdict) -> Option<&'static str> {
    use crate::core_lang::ast::IntModel;
    let unchecked = checked.program.ints
        == IntModel::OCaml {
            overflow_checks: false,
        };
    let safe = matches!(
        verdict,
        engine::verdict::Verdict::Verified | engine::verdict::Verdict::SafeUpTo { .. }
    );
    (unchecked && safe).then_some(
        "  integer overflow is not modelled (OCaml's `int` wraps around at 2^62; \
         `--overflow-checks` checks it)",
    )
}

/// `text` with `line` after its second line (the verdict's explanation), if any.
fn with_second_line(text: &str, line: Option<&str>) -> String {
    let Some(line) = line else {
        return text.to_string();
    };
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(lines.len().min(2), line);
    lines.join("\n")
}

/// `verify --witness FILE`: writes the bug's witness (only a BUG has one; otherwise a
/// note says why no file was written).
fn write_witness(
    path: &Path,
    checked: &Checked,
    verdict: &engine::verdict::Verdict,
    max_depth: u32,
) -> Result<(), ExitCode> {
    if !matches!(verdict, engine::verdict::Verdict::Bug { .. }) {
        eprintln!(
            "note: no witness written to {}: the verdict is {}, not BUG",
            path.display(),
            verdict.headline()
        );
        return Ok(());
    }
    let written = witness::write(checked, verdict, max_depth).map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::Internal
    })?;
    std::fs::write(path, written.to_yaml()).map_err(|e| {
        eprintln!("error: cannot write the witness to {}: {e}", path.display());
        ExitCode::Input
    })
}

/// How the limits' watch answers UNKNOWN for `verify` (`cli/limits.rs`): in the asked
/// format, as the engine would have answered it.
pub(super) fn limit_answer(
    file: &Path,
    options: &engine::Options,
    format: Format,
) -> limits::Answer {
    let (file, options) = (file.to_path_buf(), options.clone());
    let started = std::time::Instant::now();
    Box::new(move |reason| {
        let verdict = engine::verdict::Verdict::Unknown {
            reason: reason.clone(),
        };
        let name = file.display().to_string();
        match format {
            Format::Human => format!("{}\n  reason: {}", verdict.headline(), reason.describe()),
            Format::Json => {
                let outcome = engine::Outcome {
                    verdict,
                    stats: engine::verdict::Stats::without_search(
                        started.elapsed(),
                        Duration::ZERO,
                        options.mode.name(),
                    ),
                    proof: None,
                    no_proof: None,
                    wait_ended: None,
                    rechecked: None,
                };
                // The solver's version is not asked here: this answers a limit reached.
                let provenance = provenance(&name, &options, None);
                report::json(&outcome, (options.max_depth, &options.bounds), &provenance)
                    .to_string()
            }
            Format::Sarif => {
                let log = sarif::verify_log(&name, &verdict, options.max_depth);
                serde_json::to_string_pretty(&log).unwrap_or_default()
            }
        }
    })
}
