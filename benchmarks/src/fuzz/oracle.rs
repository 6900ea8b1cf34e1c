//! The oracle: every verdict of `verify` on a program, at every bound K and in both modes,
//! checked against concrete runs of the interpreter (the reference semantics).
//!
//! Guarantees — a [`Defect`] is reported when:
//! - **unsound**: `VERIFIED` or `SAFE UP TO DEPTH K` although some input fails within K —
//!   an input of the grid (every combination of -3..=5 and the values next to each constant
//!   of the program, or a deterministic sample of them when there are too many, plus random
//!   inputs), or the inputs of any `BUG` of any bound or mode, replayed here;
//! - **replay defect**: a `BUG` whose inputs do not fail at depth K in the interpreter, or
//!   fail elsewhere than the reported position;
//! - **unconfirmed witness**: `UNKNOWN` because the engine's own replay disagreed;
//! - **mode disagreement**: at the same K one mode finds a bug and the other says there is
//!   none (`VERIFIED` and `SAFE UP TO DEPTH K` both mean "no bug within K");
//!
//! Besides both modes with every proof engine (the CLI's default), each proof engine alone
//! (`--proofs houdini`, `--proofs chc`) answers at the last bound, so that an engine's wrong
//! proof cannot hide behind another engine's right one: its `VERIFIED` is judged against the
//! failing inputs, and against the other mode's bug, like any verdict.
//! - **wrong bound**: `SAFE UP TO DEPTH D` with D ≠ K;
//! - **panic**: `verify` panicked.
//!
//! `UNKNOWN` for a time limit or a solver `unknown` is counted, not a defect. The oracle
//! calls the library in-process (`horef_si::verifier::verify`, with the refinement and
//! case-by-case proof systems), as the CLI does.

pub use super::findings::{Defect, Failing, Report, Setting, mode_name};
use super::language::Language;
use super::runs::{self, Reference};
use horef_si::core_lang::ast::{ExprKind, Type};
use horef_si::core_lang::inputs::main_inputs;
use horef_si::core_lang::interp::{self, Outcome, RunConfig, Value};
use horef_si::core_lang::visit::walk;
use horef_si::engine::Mode;
use horef_si::engine::verdict::{UnknownReason, Verdict};
use horef_si::engine::{Options, Proofs};
use horef_si::frontend::{Checked, load_bytes};
use horef_si::verifier::{Program, verify};
use num_bigint::BigInt;
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

/// How hard the oracle looks.
#[derive(Clone, Debug)]
pub struct OracleConfig {
    /// Bounds 0..=max_k are checked.
    pub max_k: u32,
    pub modes: Vec<Mode>,
    /// The proof engines that also answer alone, in SI mode at the last bound checked.
    pub single_engines: Vec<Proofs>,
    /// Time limit of one `verify` call.
    pub timeout: Duration,
    /// Step budget of one concrete run.
    pub fuel: u64,
    /// The most grid inputs run exhaustively; beyond, a sample of this size.
    pub max_grid: usize,
    /// Random inputs added to the grid.
    pub random_inputs: usize,
    /// The language the program text is in.
    pub language: Language,
}

impl Default for OracleConfig {
    fn default() -> OracleConfig {
        OracleConfig {
            max_k: 6,
            modes: vec![Mode::Si, Mode::Unroll],
            single_engines: vec![Proofs::Houdini, Proofs::Chc],
            timeout: Duration::from_secs(30),
            fuel: 2_000_000,
            max_grid: 400,
            random_inputs: 24,
            language: Language::Horef,
        }
    }
}

/// Every `verify` call of a check: each mode at each bound of `ks`, then each single proof
/// engine at the last bound, in SI mode.
pub(super) fn settings(config: &OracleConfig, ks: &[u32], modes: &[Mode]) -> Vec<(u32, Setting)> {
    let mut out: Vec<(u32, Setting)> = modes
        .iter()
        .flat_map(|&mode| ks.iter().map(move |&k| (k, Setting::of(mode))))
        .collect();
    if let Some(&last) = ks.iter().max() {
        out.extend(config.single_engines.iter().map(|&proofs| {
            let setting = Setting {
                mode: Mode::Si,
                proofs,
            };
            (last, setting)
        }));
    }
    out
}

/// Why a program could not be checked at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotLoaded(pub String);

/// Checks `text` at every bound of `config`.
pub fn check(text: &str, config: &OracleConfig) -> Result<Report, NotLoaded> {
    let ks: Vec<u32> = (0..=config.max_k).collect();
    check_at(text, config, &ks, &config.modes)
}

/// Checks `text` at the bounds `ks` in `modes` only.
pub fn check_at(
    text: &str,
    config: &OracleConfig,
    ks: &[u32],
    modes: &[Mode],
) -> Result<Report, NotLoaded> {
    let checked = load_bytes(config.language.file_name(), text.as_bytes())
        .map_err(|e| NotLoaded(e.render()))?;
    let mut report = Report::default();
    let mut failing = concrete_failures(&checked, config, &mut report);
    let verdicts = verdicts(&checked, config, ks, modes, &mut report);
    for v in &verdicts {
        if let Verdict::Bug { inputs, .. } = &v.verdict
            && let Some(found) = replay_bug(&checked, config, v, inputs, &mut report)
        {
            failing.push(found);
        }
    }
    report.concrete_bug_depth = failing.iter().map(|f| f.depth).min();
    for v in &verdicts {
        judge(v, &failing, &mut report);
    }
    disagreements(&verdicts, &mut report);
    Ok(report)
}

/// One verdict with its bound and setting.
pub(super) struct Answer {
    pub(super) k: u32,
    pub(super) setting: Setting,
    pub(super) verdict: Verdict,
}

fn verdicts(
    checked: &Checked,
    config: &OracleConfig,
    ks: &[u32],
    modes: &[Mode],
    report: &mut Report,
) -> Vec<Answer> {
    // Every proof engine the CLI uses: the refinement clauses and the cases of a
    // dispatching `Main` beside the IR's clauses.
    answers(config, (ks, modes), report, |options| {
        verify(Program::Core(checked), options).verdict
    })
}

/// Every answer of a check ([`settings`]): `verify` run with each setting's options, a
/// panic caught and kept as a [`Defect::Panic`], the verdicts counted.
pub(super) fn answers(
    config: &OracleConfig,
    (ks, modes): (&[u32], &[Mode]),
    report: &mut Report,
    verify: impl Fn(&Options) -> Verdict,
) -> Vec<Answer> {
    let mut out = Vec::new();
    for (k, setting) in settings(config, ks, modes) {
        let options = options_for(config, k, setting);
        report.checks += 1;
        let verdict = match catch_unwind(AssertUnwindSafe(|| verify(&options))) {
            Ok(verdict) => verdict,
            Err(panic) => {
                let message = panic_message(panic.as_ref());
                report.defects.push(Defect::Panic {
                    k,
                    setting,
                    message,
                });
                continue;
            }
        };
        count(&verdict, report);
        out.push(Answer {
            k,
            setting,
            verdict,
        });
    }
    out
}

/// The options of one `verify` call of the oracle.
pub(super) fn options_for(config: &OracleConfig, k: u32, setting: Setting) -> Options {
    let Setting { mode, proofs } = setting;
    Options {
        max_depth: k,
        mode,
        timeout: Some(config.timeout),
        // As `suite` runs: a program no engine proves costs seconds, not the whole proof
        // budget, at each of its bounds and settings.
        proof_wait: horef_si::engine::ProofWait::SUITE,
        summaries: proofs.houdini(),
        chc: proofs.chc(),
        // Spacer alone also proves the procedures `Main` calls on their own, from the
        // search's first round: small programs' searches end before the default delay, and
        // the facts of those partial proofs must be as sound as the rest.
        partial_delay: match proofs {
            Proofs::Chc => std::time::Duration::ZERO,
            _ => horef_si::engine::PARTIAL_DELAY,
        },
        ..Options::default()
    }
}

pub(super) fn count(verdict: &Verdict, report: &mut Report) {
    match verdict {
        Verdict::Verified => report.verified += 1,
        Verdict::Bug { .. } => report.bugs += 1,
        Verdict::SafeUpTo { .. } => report.safe += 1,
        Verdict::Unknown { .. } => report.unknown += 1,
    }
}

pub(super) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// Checks one verdict against the failing inputs.
pub(super) fn judge(answer: &Answer, failing: &[Failing], report: &mut Report) {
    let Answer {
        k,
        setting,
        verdict,
    } = answer;
    let claims_safe = match verdict {
        Verdict::Verified => true,
        Verdict::SafeUpTo { depth, .. } => {
            if depth != k {
                report.defects.push(Defect::WrongBound {
                    k: *k,
                    setting: *setting,
                    verdict: verdict.headline(),
                });
            }
            true
        }
        Verdict::Unknown {
            reason: UnknownReason::Unconfirmed(why),
        } => {
            report.defects.push(Defect::Unconfirmed {
                k: *k,
                setting: *setting,
                reason: why.clone(),
            });
            false
        }
        _ => false,
    };
    // VERIFIED claims every depth; SAFE UP TO K only up to K.
    let horizon = if *verdict == Verdict::Verified {
        u32::MAX
    } else {
        *k
    };
    if claims_safe && let Some(f) = failing.iter().find(|f| f.depth <= horizon) {
        report.defects.push(Defect::Unsound {
            k: *k,
            setting: *setting,
            verdict: verdict.headline(),
            inputs: f.inputs.clone(),
            fails_at: format!("{} from depth {}", f.at, f.depth),
        });
    }
}

/// Modes must agree at each K: a bug in one and "no bug within K" in the other (in any of
/// its settings) is a disagreement.
pub(super) fn disagreements(verdicts: &[Answer], report: &mut Report) {
    for a in verdicts {
        for b in verdicts {
            let bug_vs_safe = matches!(a.verdict, Verdict::Bug { .. })
                && matches!(b.verdict, Verdict::Verified | Verdict::SafeUpTo { .. });
            if a.k == b.k && a.setting.mode != b.setting.mode && bug_vs_safe {
                report.defects.push(Defect::ModeDisagreement {
                    k: a.k,
                    verdicts: format!(
                        "{} says {}, {} says {}",
                        a.setting,
                        a.verdict.headline(),
                        b.setting,
                        b.verdict.headline()
                    ),
                });
            }
        }
    }
}

/// Replays a reported bug: it must fail at depth K at the reported position. Returns the
/// failing input (with the least depth it fails at) for the soundness checks.
fn replay_bug(
    checked: &Checked,
    config: &OracleConfig,
    answer: &Answer,
    inputs: &[(String, String)],
    report: &mut Report,
) -> Option<Failing> {
    let Verdict::Bug { failure, .. } = &answer.verdict else {
        return None;
    };
    let shown = show_inputs(inputs);
    let defect = |what: String| Defect::ReplayDefect {
        k: answer.k,
        setting: answer.setting,
        inputs: shown.clone(),
        what,
    };
    let values = match main_inputs(&checked.program.main, inputs) {
        Ok(values) => values,
        Err(e) => {
            report
                .defects
                .push(defect(format!("the inputs do not fit `Main`: {e}")));
            return None;
        }
    };
    let program = HorefRuns::new(checked, config);
    runs::replay(
        &program,
        &values,
        (answer.k, failure.as_str()),
        shown.clone(),
        defect,
        report,
    )
}

pub(super) fn show_inputs(inputs: &[(String, String)]) -> String {
    if inputs.is_empty() {
        return "the run (no inputs)".to_string();
    }
    let parts: Vec<String> = inputs.iter().map(|(n, v)| format!("{n}={v}")).collect();
    parts.join(" ")
}

/// The HORef interpreter on one checked program, with the oracle's fuel.
struct HorefRuns<'a> {
    checked: &'a Checked,
    fuel: u64,
}

impl<'a> HorefRuns<'a> {
    fn new(checked: &'a Checked, config: &OracleConfig) -> HorefRuns<'a> {
        HorefRuns {
            checked,
            fuel: config.fuel,
        }
    }
}

impl Reference for HorefRuns<'_> {
    type Value = Value;
    type Outcome = Outcome;

    fn run(&self, inputs: &[Value], k: u32, report: &mut Report) -> Outcome {
        report.runs += 1;
        let config = RunConfig {
            max_depth: k,
            fuel: self.fuel,
            trace: false,
            memory_limit_mib: None,
        };
        let program = &self.checked.program;
        interp::run(program, &self.checked.info, inputs, &config).outcome
    }

    fn failure(&self, outcome: &Outcome) -> Option<String> {
        match outcome {
            Outcome::Failure { span, .. } => {
                Some(self.checked.file.line_col(span.start as usize).to_string())
            }
            _ => None,
        }
    }

    fn out_of_fuel(&self, outcome: &Outcome) -> bool {
        matches!(
            outcome,
            Outcome::OutOfFuel { .. } | Outcome::OutOfMemory { .. }
        )
    }

    fn show(&self, inputs: &[Value]) -> String {
        let checked = self.checked;
        let params = &checked.program.main.params;
        if params.is_empty() {
            return "the run (no inputs)".to_string();
        }
        let parts: Vec<String> = params
            .iter()
            .zip(inputs)
            .map(|(p, v)| {
                format!(
                    "{}={}",
                    p.name.name,
                    v.display(&checked.program, &checked.names)
                )
            })
            .collect();
        parts.join(" ")
    }
}

// ----- concrete runs over the input grid -----

/// Every grid input that fails within `max_k`, with the least bound it fails at.
fn concrete_failures(
    checked: &Checked,
    config: &OracleConfig,
    report: &mut Report,
) -> Vec<Failing> {
    let grid = input_grid(checked, config);
    runs::grid_failures(&HorefRuns::new(checked, config), grid, config.max_k, report)
}

/// The values tried for each `Int` input: -3..=5 and c-1, c, c+1, -c for every constant c.
fn int_candidates(checked: &Checked) -> Vec<BigInt> {
    let mut values: BTreeSet<BigInt> = (-3..=5).map(BigInt::from).collect();
    let program = &checked.program;
    let bodies = program
        .methods
        .iter()
        .map(|m| &m.body)
        .chain(program.store.iter().map(|d| &d.init))
        .chain(std::iter::once(&program.main.body));
    for body in bodies {
        walk(body, &mut |e| {
            if let ExprKind::Int(c) = &e.kind {
                for delta in -1..=1 {
                    values.insert(c + delta);
                }
                values.insert(-c);
            }
        });
    }
    values.into_iter().collect()
}

/// The inputs to run: every combination of the candidates when there are at most
/// `max_grid`, else every combination of -2..=3 plus a deterministic sample; then
/// `random_inputs` random ones in -100..=100.
fn input_grid(checked: &Checked, config: &OracleConfig) -> Vec<Vec<Value>> {
    let params = &checked.program.main.params;
    let ints = int_candidates(checked);
    let per_param: Vec<Vec<Value>> = params
        .iter()
        .map(|p| match p.ty {
            Type::Unit => vec![Value::Unit],
            _ => ints.iter().cloned().map(Value::Int).collect(),
        })
        .collect();
    let total = per_param
        .iter()
        .try_fold(1usize, |acc, v| acc.checked_mul(v.len()));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(ints.len() as u64 * 7919 + params.len() as u64);
    let mut grid = match total {
        Some(n) if n <= config.max_grid => product(&per_param),
        _ => {
            let small: Vec<Vec<Value>> = per_param
                .iter()
                .map(|vals| match vals.as_slice() {
                    [Value::Unit] => vec![Value::Unit],
                    _ => (-2..=3).map(Value::int).collect(),
                })
                .collect();
            let mut grid = product(&small);
            grid.extend(sample(&per_param, config.max_grid, &mut rng));
            grid
        }
    };
    let wide: Vec<Vec<Value>> = per_param
        .iter()
        .map(|vals| match vals.as_slice() {
            [Value::Unit] => vec![Value::Unit],
            _ => (-100..=100).map(Value::int).collect(),
        })
        .collect();
    if !params.is_empty() {
        grid.extend(sample(&wide, config.random_inputs, &mut rng));
    }
    let mut seen = std::collections::HashSet::new();
    grid.retain(|inputs| seen.insert(format!("{inputs:?}")));
    grid
}

pub(super) fn product<V: Clone>(per_param: &[Vec<V>]) -> Vec<Vec<V>> {
    let mut out = vec![Vec::new()];
    for values in per_param {
        out = out
            .into_iter()
            .flat_map(|prefix| {
                values.iter().map(move |v| {
                    let mut next = prefix.clone();
                    next.push(v.clone());
                    next
                })
            })
            .collect();
    }
    out
}

pub(super) fn sample<V: Clone>(
    per_param: &[Vec<V>],
    count: usize,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Vec<V>> {
    (0..count)
        .map(|_| {
            per_param
                .iter()
                .map(|vals| vals[(rng.next_u64() % vals.len() as u64) as usize].clone())
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(k: u32, mode: Mode, verdict: Verdict) -> Answer {
        Answer {
            k,
            setting: Setting::of(mode),
            verdict,
        }
    }

    fn failing(depth: u32) -> Failing {
        Failing {
            depth,
            at: "9:3".to_string(),
            inputs: "a=37".to_string(),
        }
    }

    fn bug(failure: &str, inputs: &[(&str, &str)]) -> Verdict {
        Verdict::Bug {
            inputs: inputs
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect(),
            failure: failure.to_string(),
            kind: "assert".to_string(),
            trace: vec![],
            fresh: vec![],
            cells: vec![],
        }
    }

    fn judged(a: Answer, failing: &[Failing]) -> Vec<Defect> {
        let mut report = Report::default();
        judge(&a, failing, &mut report);
        report.defects
    }

    #[test]
    fn safe_claims_are_judged_against_the_failing_depths() {
        let f = [failing(2)];
        let safe = Verdict::safe_up_to;
        assert_eq!(judged(answer(1, Mode::Si, safe(1)), &f), vec![]);
        let unsound = judged(answer(2, Mode::Si, safe(2)), &f);
        assert!(
            matches!(unsound.as_slice(), [Defect::Unsound { k: 2, .. }]),
            "{unsound:?}"
        );
        // VERIFIED claims every depth, even at a small K.
        let unsound = judged(answer(0, Mode::Unroll, Verdict::Verified), &f);
        assert!(
            matches!(unsound.as_slice(), [Defect::Unsound { k: 0, .. }]),
            "{unsound:?}"
        );
        assert_eq!(judged(answer(6, Mode::Si, Verdict::Verified), &[]), vec![]);
        let wrong = judged(answer(3, Mode::Si, safe(2)), &[]);
        assert!(
            matches!(wrong.as_slice(), [Defect::WrongBound { .. }]),
            "{wrong:?}"
        );
    }

    #[test]
    fn unconfirmed_witnesses_are_defects_and_other_unknowns_are_not() {
        let unconfirmed = Verdict::Unknown {
            reason: UnknownReason::Unconfirmed("the replay did not fail".to_string()),
        };
        let found = judged(answer(1, Mode::Si, unconfirmed), &[failing(0)]);
        assert!(
            matches!(found.as_slice(), [Defect::Unconfirmed { .. }]),
            "{found:?}"
        );
        let timeout = Verdict::Unknown {
            reason: UnknownReason::Timeout,
        };
        assert_eq!(judged(answer(1, Mode::Si, timeout), &[failing(0)]), vec![]);
    }

    #[test]
    fn a_single_engines_proof_is_judged_and_named_with_its_flags() {
        let houdini = Setting {
            mode: Mode::Si,
            proofs: Proofs::Houdini,
        };
        let a = Answer {
            k: 6,
            setting: houdini,
            verdict: Verdict::Verified,
        };
        let found = judged(a, &[failing(9)]);
        assert_eq!(found.len(), 1, "{found:?}");
        let shown = found[0].to_string();
        assert!(
            shown.starts_with("UNSOUND: --mode si --proofs houdini --max-depth 6 says VERIFIED"),
            "{shown}"
        );
        // Each engine alone answers once, at the last bound, after both modes at each bound.
        let config = OracleConfig::default();
        let all = settings(&config, &[0, 1, 2], &[Mode::Si, Mode::Unroll]);
        assert_eq!(all.len(), 6 + 2);
        assert_eq!(all[6], (2, houdini));
        assert_eq!(all[7].1.proofs, Proofs::Chc);
    }

    #[test]
    fn a_bug_against_no_bug_at_the_same_depth_is_a_mode_disagreement() {
        let verdicts = [
            answer(2, Mode::Si, bug("9:3", &[("a", "37")])),
            answer(2, Mode::Unroll, Verdict::safe_up_to(2)),
            answer(3, Mode::Unroll, Verdict::Verified),
            answer(1, Mode::Si, Verdict::Verified),
        ];
        let mut report = Report::default();
        disagreements(&verdicts, &mut report);
        assert!(
            matches!(
                report.defects.as_slice(),
                [Defect::ModeDisagreement { k: 2, .. }]
            ),
            "{:?}",
            report.defects
        );
    }

    const PROGRAM: &str = "Methods:\ndown (n:Int) :Int = if n <= 0 then 0 else down (n - 1);\n\
                           Main (a:Int) :Unit:\n  let (z:Int) = down a in\n  assert (a != 2)\n";

    #[test]
    fn reported_bugs_are_replayed_and_wrong_ones_are_defects() {
        let checked = load_bytes("t.horef", PROGRAM.as_bytes()).unwrap();
        let config = OracleConfig::default();
        let mut report = Report::default();
        // a = 2 fails at 5:3 once `down 2` can run to the bottom: from depth 3.
        let right = answer(4, Mode::Si, bug("5:3", &[("a", "2")]));
        let Verdict::Bug { inputs, .. } = &right.verdict else {
            unreachable!()
        };
        let found = replay_bug(&checked, &config, &right, inputs, &mut report).unwrap();
        assert_eq!((found.depth, report.defects.len()), (3, 0));
        for wrong in [
            answer(4, Mode::Si, bug("5:3", &[("a", "5")])),
            answer(2, Mode::Si, bug("5:3", &[("a", "2")])),
            answer(4, Mode::Si, bug("4:3", &[("a", "2")])),
        ] {
            let Verdict::Bug { inputs, .. } = &wrong.verdict else {
                unreachable!()
            };
            let mut report = Report::default();
            assert!(replay_bug(&checked, &config, &wrong, inputs, &mut report).is_none());
            assert!(
                matches!(report.defects.as_slice(), [Defect::ReplayDefect { .. }]),
                "{:?}",
                report.defects
            );
        }
    }

    #[test]
    fn the_grid_finds_the_failing_input_and_its_least_depth() {
        let checked = load_bytes("t.horef", PROGRAM.as_bytes()).unwrap();
        let mut report = Report::default();
        let failing = concrete_failures(&checked, &OracleConfig::default(), &mut report);
        let found: Vec<(u32, &str, &str)> = failing
            .iter()
            .map(|f| (f.depth, f.at.as_str(), f.inputs.as_str()))
            .collect();
        assert_eq!(found, [(3, "5:3", "a=2")]);
    }
}
