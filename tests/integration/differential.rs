//! Differential test of the lowering (issue 3): for every HORef program we have, at every
//! depth 0..=6 and over a grid of inputs, the HORef interpreter on the source and the IR
//! interpreter on the lowered program must give the same outcome — the same value, a
//! failure at the same source position, or a cut-off at the same depth.
//!
//! Programs: `tests/programs/*.horef` and `benchmarks/**/*.horef` here, and
//! `tests/refs/*.horef` with the OCaml programs of `tests/ocaml/` that use references
//! (allocated references, issue 16: also verified at K = 1, 3, 5, 8 against exhaustive
//! runs and their headers, every BUG replayed); `shared_suite.rs` runs the same checks
//! ([`lowering_agrees_on`], [`verdicts_agree_on`]) over every program in
//! `../shared/bmc2-suite/`, or reports them ignored when that folder is absent. The counts
//! are printed.

use boogie_like::interp::{Interpreter, Outcome as IrOutcome, RunConfig as IrConfig};
use boogie_like::{Value as IrValue, parse, print, verify};
use horef_si::core_lang::ast::{ExprKind, Type};
use horef_si::core_lang::interp::{self, Closure, Outcome, RunConfig, Value};
use horef_si::core_lang::visit::walk;
use horef_si::frontend::{Checked, load_core};
use horef_si::lower::{Lowered, lower, points_to::FunName};
use num_bigint::BigInt;
use std::path::{Path, PathBuf};

const MAX_DEPTH: u32 = 6;
const MAX_COMBINATIONS: usize = 400;
const FUEL: u64 = 200_000;

/// Our own programs: `tests/programs` and `benchmarks`.
fn program_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    collect(&root.join("tests/programs"), "horef", &mut files);
    collect(&root.join("benchmarks"), "horef", &mut files);
    files.sort();
    files
}

/// Every file with extension `ext` under `dir`, recursively (nothing when `dir` is absent).
pub fn collect(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

/// Input values for one `Int` parameter: -3..=12 and the neighbours of every constant.
fn int_candidates(checked: &Checked) -> Vec<BigInt> {
    let mut values: Vec<BigInt> = (-3..=12).map(BigInt::from).collect();
    let mut constants = Vec::new();
    let program = &checked.program;
    let bodies = program
        .methods
        .iter()
        .map(|m| &m.body)
        .chain(std::iter::once(&program.main.body));
    for body in bodies {
        walk(body, &mut |e| {
            if let ExprKind::Int(i) = &e.kind {
                constants.push(i.clone());
            }
        });
    }
    for c in constants {
        for delta in -1..=1 {
            values.push(&c + delta);
        }
    }
    values.sort();
    values.dedup();
    values
}

/// The input vectors to try: the full grid, or a deterministic sample of it.
fn input_grid(checked: &Checked) -> Vec<Vec<Value>> {
    let ints = int_candidates(checked);
    let params = &checked.program.main.params;
    let per_param: Vec<Vec<Value>> = params
        .iter()
        .map(|p| match p.ty {
            Type::Unit => vec![Value::Unit],
            _ => ints.iter().cloned().map(Value::Int).collect(),
        })
        .collect();
    let total: usize = per_param.iter().map(Vec::len).product();
    let pick = |mut k: usize| -> Vec<Value> {
        per_param
            .iter()
            .map(|choices| {
                let v = choices[k % choices.len()].clone();
                k /= choices.len();
                v
            })
            .collect()
    };
    if total <= MAX_COMBINATIONS {
        return (0..total).map(pick).collect();
    }
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..MAX_COMBINATIONS)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pick((state >> 11) as usize % total)
        })
        .collect()
}

/// The IR inputs of `Main` (a `Unit` input has no component).
fn ir_inputs(inputs: &[Value]) -> Vec<IrValue> {
    inputs
        .iter()
        .filter_map(|v| match v {
            Value::Int(i) => Some(IrValue::Int(i.clone())),
            _ => None,
        })
        .collect()
}

/// Whether the IR components `ir` represent the HORef value `v`; consumes them.
fn matches_value(lowered: &Lowered, v: &Value, ir: &mut std::slice::Iter<IrValue>) -> bool {
    match v {
        Value::Unit => true,
        Value::Int(i) => matches!(ir.next(), Some(IrValue::Int(j)) if i == j),
        // A cell is its address. Both sides allocate heap addresses 0, 1, 2, ... in order,
        // but a cell allocated at most once per run is a single cell in the IR, at a fixed
        // negative address (`lower::single_cells`), and takes no heap address there: the
        // addresses agree only in a program without single cells.
        Value::Ref(a) => matches!(ir.next(), Some(IrValue::Int(j))
            if *j == BigInt::from(*a) || lowered.stats.single_cells > 0),
        Value::Pair(p) => matches_value(lowered, &p.0, ir) && matches_value(lowered, &p.1, ir),
        Value::List(items) => match ir.next() {
            Some(list) => list_matches(lowered, items.iter(), list),
            None => false,
        },
        // A datatype value: the same constructor, its fields' components in order.
        Value::Data(c, _, fields) => match ir.next() {
            Some(IrValue::Data {
                ctor,
                fields: components,
            }) if ctor.index == *c => {
                let mut components = components.iter();
                fields
                    .iter()
                    .all(|f| matches_value(lowered, f, &mut components))
                    && components.next().is_none()
            }
            _ => false,
        },
        Value::Closure(c) => {
            let name = match &**c {
                Closure::Method(m) => FunName::Method(*m),
                Closure::Lambda { lambda, .. } => FunName::Lambda(lambda.id),
            };
            let ctor = lowered.functions.ctor(name);
            matches!(ir.next(), Some(IrValue::Data { ctor: c, .. }) if *c == ctor)
        }
    }
}

/// Whether the IR list `value` (of `IntList` or a `List#k`) holds `items`: each `cons`
/// holds an item's components, then the tail.
fn list_matches<'a>(
    lowered: &Lowered,
    mut items: impl Iterator<Item = &'a Value>,
    value: &IrValue,
) -> bool {
    let IrValue::Data { ctor, fields } = value else {
        return false;
    };
    let name = &lowered.ir.ctor(*ctor).expect("ctor").name;
    let is = |base: &str| name == base || name.starts_with(&format!("{base}#"));
    match (items.next(), fields.split_last()) {
        (None, None) => is("nil"),
        (Some(item), Some((tail, heads))) if is("cons") => {
            let mut heads = heads.iter();
            matches_value(lowered, item, &mut heads)
                && heads.next().is_none()
                && list_matches(lowered, items, tail)
        }
        _ => false,
    }
}

/// One comparison: `None` if both agree (or one ran out of fuel), else a description.
fn compare(
    checked: &Checked,
    lowered: &Lowered,
    interp_ir: &Interpreter,
    inputs: &[Value],
    depth: u32,
) -> Result<bool, String> {
    let config = RunConfig {
        max_depth: depth,
        fuel: FUEL,
        trace: false,
        memory_limit_mib: None,
    };
    let source = interp::run(&checked.program, &checked.info, inputs, &config);
    let ir_config = IrConfig::with_depth(depth).fuel(FUEL * 4);
    let ir = interp_ir
        .run(&ir_inputs(inputs), &ir_config)
        .map_err(|e| format!("IR runtime error: {e}"))?;
    let agree = match (&source.outcome, &ir.outcome) {
        (Outcome::OutOfFuel { .. } | Outcome::OutOfMemory { .. }, _)
        | (_, IrOutcome::OutOfFuel { .. }) => return Ok(false),
        (Outcome::Value(v), IrOutcome::Returned) => {
            let mut it = ir.returns.iter();
            matches_value(lowered, v, &mut it) && it.next().is_none()
        }
        (
            Outcome::Failure { span, .. },
            IrOutcome::Failure {
                source: Some(pos), ..
            },
        ) => {
            let at = checked.file.line_col(span.start as usize);
            at.line == pos.line && at.col == pos.col
        }
        (Outcome::CutOff { depth: a, .. }, IrOutcome::CutOff { depth: b, .. }) => a == b,
        _ => false,
    };
    if agree {
        Ok(true)
    } else {
        Err(format!(
            "source: {:?}, IR: {}",
            source.outcome,
            ir.summary(&lowered.ir)
        ))
    }
}

#[test]
fn lowering_preserves_outcomes() {
    lowering_agrees_on(&program_files());
}

/// The OCaml programs of `tests/ocaml/` (exceptions, partial application, division).
fn ocaml_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    collect(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ocaml"),
        "ml",
        &mut files,
    );
    files.sort();
    files
}

#[test]
fn lowering_preserves_outcomes_of_ocaml_programs() {
    lowering_agrees_on(&ocaml_files());
}

/// The soundness cross-check below on the OCaml programs that catch exceptions.
#[test]
fn verdicts_agree_with_exhaustive_runs_on_exceptions() {
    let files: Vec<PathBuf> = ocaml_files()
        .into_iter()
        .filter(|f| {
            f.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("exn_"))
        })
        .collect();
    assert!(files.len() >= 4, "the exception programs of tests/ocaml");
    verdicts_agree_on(&files);
}

/// Lowers, verifies, prints and re-parses every program of `files`, then runs the source
/// and the IR over the input grid at every depth up to [`MAX_DEPTH`]: panics on a
/// disagreement.
pub fn lowering_agrees_on(files: &[PathBuf]) {
    assert!(!files.is_empty(), "no programs found");
    let (mut runs, mut agreed, mut skipped, mut disagreements) =
        (0usize, 0usize, 0usize, Vec::new());
    for file in files {
        let checked =
            load_core(file).unwrap_or_else(|e| panic!("{}: {}", file.display(), e.render()));
        let lowered = lower(&checked);
        let text = print(&lowered.ir);
        verify(&lowered.ir)
            .unwrap_or_else(|e| panic!("{}: IR verifier: {e:?}\n{text}", file.display()));
        let reparsed =
            parse(&text).unwrap_or_else(|e| panic!("{}: re-parse: {e:?}\n{text}", file.display()));
        assert_eq!(
            print(&reparsed),
            text,
            "{}: print/parse round trip",
            file.display()
        );
        let interp_ir = Interpreter::new(&lowered.ir).expect("IR interpreter");
        for inputs in input_grid(&checked) {
            for depth in 0..=MAX_DEPTH {
                runs += 1;
                match compare(&checked, &lowered, &interp_ir, &inputs, depth) {
                    Ok(true) => agreed += 1,
                    Ok(false) => skipped += 1,
                    Err(why) => disagreements.push(format!(
                        "{} depth {depth} inputs {:?}: {why}",
                        file.display(),
                        inputs.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>()
                    )),
                }
            }
        }
    }
    println!(
        "differential: {} programs, {runs} runs, {agreed} agree, {skipped} out of fuel, {} disagree",
        files.len(),
        disagreements.len()
    );
    assert!(
        disagreements.is_empty(),
        "{} disagreements, first ones:\n{}",
        disagreements.len(),
        disagreements
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Soundness cross-check of the verifier (issue 4): at every depth 0..=4, if some input of
/// the grid makes the interpreter fail, `verify` must say BUG; if `verify` says VERIFIED or
/// SAFE UP TO K, no input of the grid may fail within K. Needs `z3` on PATH.
#[test]
fn verdicts_agree_with_exhaustive_runs() {
    verdicts_agree_on(&program_files());
}

/// The soundness cross-check above over `files`: panics on a wrong verdict.
pub fn verdicts_agree_on(files: &[PathBuf]) {
    verdicts_agree_at(
        files,
        &[0, 1, 2, 3, 4],
        &horef_si::engine::Options::default(),
    );
}

/// The soundness cross-check at each of `depths`, verifying with `base` (its depth
/// replaced): panics on a wrong verdict.
pub fn verdicts_agree_at(files: &[PathBuf], depths: &[u32], base: &horef_si::engine::Options) {
    use horef_si::engine::{Options, verdict::Verdict, verify_horef};
    let (mut checks, mut bugs, mut safe) = (0, 0, 0);
    let mut wrong = Vec::new();
    for file in files {
        let checked = load_core(file).expect("load");
        let grid = input_grid(&checked);
        for &depth in depths {
            let failing = grid.iter().find(|inputs| {
                let config = RunConfig {
                    max_depth: depth,
                    fuel: FUEL,
                    trace: false,
                    memory_limit_mib: None,
                };
                matches!(
                    interp::run(&checked.program, &checked.info, inputs, &config).outcome,
                    Outcome::Failure { .. }
                )
            });
            let options = Options {
                max_depth: depth,
                ..base.clone()
            };
            let verdict = verify_horef(&checked, &options).verdict;
            checks += 1;
            match (&verdict, failing) {
                (Verdict::Bug { .. }, _) => bugs += 1,
                (Verdict::Verified | Verdict::SafeUpTo { .. }, None) => safe += 1,
                (_, failing) => wrong.push(format!(
                    "{} depth {depth}: {verdict:?}, failing grid input: {failing:?}",
                    file.display()
                )),
            }
        }
    }
    println!(
        "verify vs runs: {checks} checks, {bugs} bugs, {safe} safe, {} wrong",
        wrong.len()
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The bounds the allocated-reference programs are verified at.
const REF_DEPTHS: [u32; 4] = [1, 3, 5, 8];

/// The OCaml programs of `tests/ocaml/` with allocated references (issue 16): local
/// references, top-level references used as values, physical equality, and the programs
/// mixing aliasing, closures in cells and exceptions (`mix_*`).
const OCAML_REF_PREFIXES: [&str; 4] = ["local_ref_", "topref_", "physeq_", "mix_"];

/// `tests/refs/*.horef` and the OCaml programs with references ([`OCAML_REF_PREFIXES`]).
fn ref_programs() -> Vec<PathBuf> {
    let mut files = Vec::new();
    collect(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/refs"),
        "horef",
        &mut files,
    );
    assert!(files.len() >= 10, "the programs of tests/refs");
    let ocaml: Vec<PathBuf> = ocaml_files()
        .into_iter()
        .filter(|f| {
            f.file_name().is_some_and(|n| {
                let n = n.to_string_lossy();
                OCAML_REF_PREFIXES.iter().any(|p| n.starts_with(p))
            })
        })
        .collect();
    assert!(ocaml.len() >= 40, "the OCaml programs with references");
    files.extend(ocaml);
    files.sort();
    files
}

/// The search alone (with Houdini): no Horn-clause proof, whose timeouts on programs that
/// allocate inside recursion would dominate the test's time.
fn search_only() -> horef_si::engine::Options {
    horef_si::engine::Options {
        chc: false,
        ..horef_si::engine::Options::default()
    }
}

#[test]
fn lowering_preserves_outcomes_with_allocated_cells() {
    lowering_agrees_on(&ref_programs());
}

/// The soundness cross-check on `tests/refs` at the bounds K = 1, 3, 5, 8.
#[test]
fn ref_verdicts_agree_with_exhaustive_runs_at_1_3_5_8() {
    verdicts_agree_at(&ref_programs(), &REF_DEPTHS, &search_only());
}

/// At K = 1, 3, 5, 8 the verdict on every program of `tests/refs` is the one its header
/// expects, and every BUG's inputs fail in the interpreter at the reported position.
#[test]
fn ref_verdicts_meet_the_headers_and_every_bug_replays() {
    use horef_si::core_lang::inputs::main_inputs;
    use horef_si::engine::{Options, verdict::Verdict, verify_horef};
    use horef_si::suite::expect::header_expectation;
    let mut wrong = Vec::new();
    let mut bugs = 0;
    for file in ref_programs() {
        let text = std::fs::read_to_string(&file).expect("read");
        let expectation = header_expectation(&text)
            .expect("well-formed header")
            .unwrap_or_else(|| panic!("{}: no `(* expect: ... *)`", file.display()))
            .value;
        let checked = load_core(&file).expect("load");
        for k in REF_DEPTHS {
            let (depth, expected) = expectation.at_bound(k);
            let options = Options {
                max_depth: depth,
                ..search_only()
            };
            let verdict = verify_horef(&checked, &options).verdict;
            if !expected.accepts(&verdict) {
                wrong.push(format!(
                    "{} K={depth}: expected {expected}, got {}",
                    file.display(),
                    verdict.headline()
                ));
            }
            if let Verdict::Bug {
                inputs, failure, ..
            } = &verdict
            {
                bugs += 1;
                let values = main_inputs(&checked.program.main, inputs).expect("inputs");
                let config = RunConfig {
                    max_depth: depth,
                    ..RunConfig::default()
                };
                let run = interp::run(&checked.program, &checked.info, &values, &config);
                let at = match run.outcome {
                    Outcome::Failure { span, .. } => {
                        let pos = checked.file.line_col(span.start as usize);
                        format!("{}:{}", pos.line, pos.col)
                    }
                    other => format!("no failure ({other:?})"),
                };
                if at != *failure {
                    wrong.push(format!(
                        "{} K={depth}: BUG at {failure} with {inputs:?}, the replay: {at}",
                        file.display()
                    ));
                }
            }
        }
    }
    println!("tests/refs: {bugs} bugs replayed");
    assert!(bugs >= 20, "the buggy programs were found at K = 3, 5, 8");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
