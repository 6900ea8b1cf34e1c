//! The soundness fuzzer in CI (issue 18): the random programs are well typed, deterministic
//! and cover the language; a fixed-seed batch has every verdict at K = 0..6, in both modes
//! (and each proof engine alone at K = 6),
//! agree with concrete runs; the shrinker keeps what it is asked to keep. The long run is
//! `cargo run --release -p horef-bench -- fuzz --minutes 60` (benchmarks/RESULTS.md); the
//! same trees printed as OCaml (`--language ocaml`) go through the OCaml front end; their
//! texts use every exception construct the printer has, and a sample of them runs as in
//! real OCaml and as their HORef trees (ignored, not passed, without `ocaml` on PATH when
//! the tests were built: `build.rs`). Needs `z3` on PATH.

use horef_bench::fuzz::ast::{Expr, Kind, Op, Program, Ty};
use horef_bench::fuzz::campaign::{self, CampaignConfig};
use horef_bench::fuzz::language::Language;
use horef_bench::fuzz::oracle::OracleConfig;
use horef_bench::fuzz::random::generate;
use horef_bench::fuzz::shrink::shrink;
use horef_bench::fuzz::{boogie, ir_oracle};
use horef_si::core_lang::interp::{self, FailureKind, Outcome, RunConfig, Value};
use horef_si::frontend::load_bytes;
use std::collections::BTreeSet;
use std::time::Duration;

/// `verify` calls per program: K = 0..6 in both modes, then each proof engine alone at K = 6.
const CHECKS_PER_PROGRAM: u64 = 7 * 2 + 2;

/// Programs in the CI batch (each checked with [`CHECKS_PER_PROGRAM`] `verify` calls).
const BATCH: u64 = 200;

/// Programs in the CI batch of OCaml texts (the same trees, printed as `.ml`).
const OCAML_BATCH: u64 = 40;

/// What the OCaml front end refuses by design (docs/ocaml.md): a function value whose
/// arity differs from the one its use expects (`int -> (int -> int)` where a two-argument
/// function is expected) is not converted unless an arity adapter applies (a function passed
/// as an argument whose stages can be split).
const OCAML_ARITY_LIMIT: &str = "no arity adapter applies here";

#[test]
fn generated_programs_load_and_are_deterministic() {
    for seed in 0..1500 {
        let program = generate(seed);
        assert_eq!(program, generate(seed), "seed {seed}");
        let text = program.text();
        if let Err(e) = load_bytes("gen.horef", text.as_bytes()) {
            panic!("seed {seed} does not load:\n{text}\n{}", e.render());
        }
    }
}

#[test]
fn generated_programs_printed_as_ocaml_load_except_for_the_documented_arity_limit() {
    let (mut loaded, mut refused) = (0, 0);
    for seed in 0..600 {
        let text = Language::Ocaml.render(&generate(seed));
        match load_bytes("gen.ml", text.as_bytes()) {
            Ok(_) => loaded += 1,
            Err(e) if e.render().contains(OCAML_ARITY_LIMIT) => refused += 1,
            Err(e) => panic!(
                "seed {seed} does not load as OCaml:\n{text}\n{}",
                e.render()
            ),
        }
    }
    eprintln!("{loaded} of 600 OCaml texts load, {refused} refused for the arity limit");
    assert!(
        loaded >= 500,
        "only {loaded} of 600 load ({refused} arity refusals)"
    );
}

/// The exception constructs the OCaml printer uses (`src/fuzz/ocaml.rs`), each with a piece
/// of text only that construct prints.
const OCAML_EXCEPTION_CONSTRUCTS: [(&str, &str); 10] = [
    (
        "a declared exception with an int argument",
        "exception Fuzz_fail of int\n",
    ),
    (
        "a declared exception with a tuple argument",
        "exception Found_pair of int * int\n",
    ),
    (
        "a declared exception with a variant argument",
        "exception Found_maybe of int maybe\n",
    ),
    (
        "`raise` caught by a `try` of several cases",
        "with Found_maybe (Just hd_v) -> hd_v | Found_maybe Nothing -> raise Empty_list)",
    ),
    (
        "a `when` guard on an exception case",
        "with Found hd_v when hd_v < 0 -> hd_v | Found hd_v -> hd_v)",
    ),
    (
        "a guard on a tuple argument",
        "with Found_pair (pair_a, pair_b) when pair_a = pair_b ->",
    ),
    ("a re-raise of an exception value", "| tl_e -> raise tl_e)"),
    (
        "`match .. with exception`",
        "| exception Empty_list -> raise (Fuzz_fail ",
    ),
    (
        "a local exception passing a list",
        "(let exception Tl_out of int list in try ",
    ),
    (
        "a local exception passing a `let`'s value",
        "(let exception Bind of ",
    ),
];

#[test]
fn generated_ocaml_texts_cover_the_exception_constructs() {
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    // An exception the printer declares escaping `main` as the run's failure, as OCaml's
    // uncaught exception: `fail` as `raise (Fuzz_fail k)`, `hd []` as `raise Empty_list`.
    let mut escaped: BTreeSet<String> = BTreeSet::new();
    let config = RunConfig {
        max_depth: 6,
        fuel: 200_000,
        trace: false,
        memory_limit_mib: None,
    };
    for seed in 0..600 {
        let text = Language::Ocaml.render(&generate(seed));
        let Ok(checked) = load_bytes("gen.ml", text.as_bytes()) else {
            continue;
        };
        for (construct, piece) in OCAML_EXCEPTION_CONSTRUCTS {
            if text.contains(piece) {
                seen.insert(construct);
            }
        }
        if !(escaped.contains("Fuzz_fail") && escaped.contains("Empty_list")) {
            for inputs in small_inputs(&checked.program.main.params) {
                let run = interp::run(&checked.program, &checked.info, &inputs, &config);
                if let Outcome::Failure {
                    kind: kind @ FailureKind::Uncaught(_),
                    ..
                } = run.outcome
                {
                    escaped.insert(kind.describe_in(&checked.program));
                }
            }
        }
    }
    for (construct, _) in OCAML_EXCEPTION_CONSTRUCTS {
        assert!(
            seen.contains(construct),
            "no {construct} in the OCaml texts of seeds 0..600 that load"
        );
    }
    for name in ["Fuzz_fail", "Empty_list"] {
        assert!(
            escaped.contains(name),
            "no run escapes with `{name}` (escaped: {escaped:?})"
        );
    }
}

/// The inputs a generated `main` runs with in the tests: each `int` parameter -1..=2 (the
/// first 16 combinations), `()` for a `unit` one.
fn small_inputs(params: &[horef_si::core_lang::ast::Binder]) -> Vec<Vec<Value>> {
    let mut tuples = vec![Vec::new()];
    for p in params {
        let values: Vec<Value> = if p.ty == Ty::Unit {
            vec![Value::Unit]
        } else {
            (-1..=2).map(Value::int).collect()
        };
        tuples = tuples
            .into_iter()
            .flat_map(|t: Vec<Value>| {
                values.iter().map(move |v| {
                    let mut t = t.clone();
                    t.push(v.clone());
                    t
                })
            })
            .collect();
    }
    tuples.truncate(16);
    tuples
}

/// One run's outcome in the terms real OCaml reports it: `value N` (`()` is 0), `assert L C`
/// (OCaml's `Assert_failure` position, its column from 0) or `exception Name`; `None` when
/// our run is cut off (by the depth bound or the fuel: OCaml has neither) and so is not
/// compared.
fn outcome_as_ocaml(checked: &horef_si::frontend::Checked, inputs: &[Value]) -> Option<String> {
    let config = RunConfig {
        max_depth: 400,
        fuel: 2_000_000,
        trace: false,
        memory_limit_mib: None,
    };
    let run = interp::run(&checked.program, &checked.info, inputs, &config);
    match run.outcome {
        Outcome::Value(Value::Int(i)) => Some(format!("value {i}")),
        Outcome::Value(Value::Unit) => Some("value 0".into()),
        Outcome::Value(_) => Some("value block".into()),
        Outcome::Failure {
            span,
            kind: FailureKind::Assert,
        } => {
            let at = checked.file.line_col(span.start as usize);
            Some(format!("assert {} {}", at.line, at.col - 1))
        }
        Outcome::Failure { kind, .. } => {
            Some(format!("exception {}", kind.describe_in(&checked.program)))
        }
        _ => None,
    }
}

/// Prints `i value V`, `i assert L C` or `i exception E` for run `i` (as
/// `tests/integration/ocaml_oracle.rs` does).
const OCAML_RUNNER: &str = "let __run i f = (try let v = f () in \
    if Obj.is_int v then Printf.printf \"%d value %d\\n\" i (Obj.obj v : int) \
    else Printf.printf \"%d value block\\n\" i \
    with Assert_failure (_, l, c) -> Printf.printf \"%d assert %d %d\\n\" i l c \
    | Stack_overflow -> Printf.printf \"%d overflow\\n\" i \
    | e -> Printf.printf \"%d exception %s\\n\" i (Printexc.to_string e)); flush stdout;; ";

/// Runs `main` of `text` on each input tuple in real OCaml, each run on a fresh copy of the
/// program (a local module re-evaluates its top level, its references included), all in
/// one file. An `Assert_failure` is given back at its place in `text` (line and column from
/// 0), moved past the opening parentheses OCaml counts in an expression's location and we do
/// not: `(assert e)` fails at `assert` for us, at `(` for OCaml.
fn run_in_ocaml(text: &str, tuples: &[Vec<Value>], dir: &std::path::Path) -> Vec<String> {
    let mut source = String::from(OCAML_RUNNER);
    // The line of `source` each copy of the program starts on, less one.
    let mut offsets = Vec::new();
    for (i, inputs) in tuples.iter().enumerate() {
        offsets.push(source.matches('\n').count());
        let args: Vec<String> = if inputs.is_empty() {
            vec!["()".to_string()]
        } else {
            inputs
                .iter()
                .map(|v| match v {
                    Value::Int(i) => format!("({i})"),
                    _ => "()".to_string(),
                })
                .collect()
        };
        // The program's own text starts each line of its own.
        source.push_str(&format!(
            "let () = __run {i} (fun () -> let module M = struct "
        ));
        source.push_str(text);
        source.push_str(&format!(
            "\n;; let __result = Obj.repr (main {}) end in M.__result);;\n",
            args.join(" ")
        ));
    }
    let file = dir.join("fuzz_oracle.ml");
    std::fs::write(&file, &source).expect("write");
    let out = std::process::Command::new("timeout")
        .args(["60", "ocaml"])
        .arg(&file)
        .output()
        .expect("run ocaml");
    assert!(
        out.status.success(),
        "ocaml failed on\n{source}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut outcomes = vec![String::from("(no output)"); tuples.len()];
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        if let Some((i, rest)) = line.split_once(' ')
            && let Ok(i) = i.parse::<usize>()
            && i < outcomes.len()
        {
            outcomes[i] = match rest.strip_prefix("assert ").map(|at| {
                let (line, col) = at.split_once(' ').expect("line and column");
                (line.parse::<usize>(), col.parse::<usize>())
            }) {
                Some((Ok(line), Ok(col))) => {
                    let line = line - offsets[i];
                    let text_line = text.lines().nth(line - 1).unwrap_or("");
                    let parens =
                        text_line[col..].len() - text_line[col..].trim_start_matches('(').len();
                    format!("assert {line} {}", col + parens)
                }
                _ => rest.to_string(),
            };
        }
    }
    outcomes
}

/// Whether our outcome and OCaml's agree: the same value or assertion, or an uncaught
/// exception of the same name (OCaml prints its argument after it, `Fuzz_fail(3)`).
fn agrees_with_ocaml(ours: &str, theirs: &str) -> bool {
    match (
        ours.strip_prefix("exception "),
        theirs.strip_prefix("exception "),
    ) {
        (Some(name), Some(their)) => their.split('(').next() == Some(name),
        _ => ours == theirs,
    }
}

/// Whether a run failed, in a form the HORef run and OCaml's can be compared by: HORef's
/// `fail`, `hd []` and failed `assert` are OCaml's exceptions and `Assert_failure`.
fn as_class(outcome: &str) -> &str {
    if outcome.starts_with("value") {
        outcome
    } else {
        "failure"
    }
}

#[test]
#[cfg_attr(
    not(has_ocaml),
    ignore = "`ocaml` was not on PATH when the tests were built (apt-get install ocaml-nox)"
)]
fn generated_ocaml_texts_run_as_in_real_ocaml_and_as_their_horef_trees() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut programs, mut runs, mut disagreements) = (0, 0, Vec::new());
    let mut escaped = BTreeSet::new();
    for seed in 0..200 {
        if programs == 30 {
            break;
        }
        let program = generate(seed);
        let text = Language::Ocaml.render(&program);
        let Ok(checked) = load_bytes("gen.ml", text.as_bytes()) else {
            continue;
        };
        let horef = load_bytes("gen.horef", program.text().as_bytes()).expect("loads");
        let mut tuples = Vec::new();
        let mut expected = Vec::new();
        for inputs in small_inputs(&checked.program.main.params) {
            let (Some(ours), Some(tree)) = (
                outcome_as_ocaml(&checked, &inputs),
                outcome_as_ocaml(&horef, &inputs),
            ) else {
                continue;
            };
            tuples.push(inputs);
            expected.push((ours, tree));
        }
        if tuples.is_empty() {
            continue;
        }
        programs += 1;
        let theirs = run_in_ocaml(&text, &tuples, dir.path());
        for ((inputs, (ours, tree)), theirs) in tuples.iter().zip(&expected).zip(&theirs) {
            runs += 1;
            if let Some(name) = theirs.strip_prefix("exception ") {
                escaped.insert(name.split('(').next().unwrap_or("").to_string());
            }
            let shown: Vec<String> = inputs.iter().map(|v| format!("{v:?}")).collect();
            if !agrees_with_ocaml(ours, theirs) {
                disagreements.push(format!(
                    "seed {seed}, inputs {shown:?}: ours `{ours}`, OCaml `{theirs}`"
                ));
            }
            if as_class(tree) != as_class(theirs) {
                disagreements.push(format!(
                    "seed {seed}, inputs {shown:?}: the HORef tree `{tree}`, OCaml `{theirs}`"
                ));
            }
        }
    }
    eprintln!(
        "real OCaml: {programs} generated programs, {runs} runs compared, {} disagreements, \
         uncaught: {escaped:?}",
        disagreements.len()
    );
    assert!(
        programs == 30 && runs >= 100,
        "too little compared: {programs} programs, {runs} runs"
    );
    assert!(
        disagreements.is_empty(),
        "disagreements with real OCaml:\n{}",
        disagreements.join("\n")
    );
}

/// The constructs a walk over a program finds (with scopes, for shadowing and captures).
#[derive(Default)]
struct Coverage {
    seen: BTreeSet<&'static str>,
}

impl Coverage {
    fn program(&mut self, p: &Program) {
        for m in &p.methods {
            let scope: Vec<(String, Ty)> = m
                .params
                .iter()
                .map(|q| (q.name.clone(), q.ty.clone()))
                .collect();
            if calls(&m.body, &m.name) {
                self.seen.insert("recursive method");
                if allocates(&m.body) {
                    self.seen.insert("allocation inside recursion");
                }
            }
            self.expr(&m.body, &scope, &[]);
        }
        for r in &p.store {
            if matches!(r.ty, Ty::Arrow(..)) {
                self.seen.insert("reference of function type");
            }
        }
        let scope: Vec<(String, Ty)> = p
            .main_params
            .iter()
            .map(|q| (q.name.clone(), q.ty.clone()))
            .collect();
        self.expr(&p.main, &scope, &[]);
    }

    /// `outer`: the names bound outside the innermost `fun`.
    fn expr(&mut self, e: &Expr, scope: &[(String, Ty)], outer: &[(String, Ty)]) {
        let name = match &*e.kind {
            Kind::Fail => "fail",
            Kind::Neg(_) => "unary minus",
            Kind::Bin(Op::And, ..) => "&&",
            Kind::Bin(Op::Or, ..) => "||",
            Kind::Assert(_) => "assert",
            Kind::Pair(..) => "Pair",
            Kind::Fst(_) => "fst",
            Kind::Snd(_) => "snd",
            Kind::Cons(..) => "::",
            Kind::Hd(_) => "hd",
            Kind::Tl(_) => "tl",
            Kind::IsEmpty(_) => "is_empty",
            Kind::App(f, _) if matches!(&*f.kind, Kind::Deref(_)) => {
                "call of a closure in a reference"
            }
            Kind::Assign(_, v) if matches!(v.ty, Ty::Arrow(..)) => "closure stored in a reference",
            Kind::Var(x) if matches!(e.ty, Ty::Arrow(..)) && outer.iter().any(|(n, _)| n == x) => {
                "closure capturing a closure"
            }
            Kind::Var(x) if matches!(e.ty, Ty::Ref(_)) && outer.iter().any(|(n, _)| n == x) => {
                "closure capturing a cell"
            }
            Kind::Alloc(v) if matches!(v.ty, Ty::Arrow(..)) => "cell holding a closure",
            Kind::Alloc(v) if matches!(v.ty, Ty::Ref(_)) => "cell holding a cell",
            Kind::Alloc(_) => "ref",
            Kind::Load(r) if !matches!(&*r.kind, Kind::Var(_)) => "! on an expression",
            Kind::Load(_) => "! on a local cell",
            Kind::Store(r, _) if !matches!(&*r.kind, Kind::Var(_)) => ":= on an expression",
            Kind::Store(..) => ":= on a local cell",
            Kind::App(f, _) if matches!(&*f.kind, Kind::Load(_)) => "call of a closure in a cell",
            // Two names for one cell: a cell bound to a name that already holds a cell,
            // or chosen by a test.
            Kind::Let(p, v, _)
                if matches!(p.ty, Ty::Ref(_)) && matches!(&*v.kind, Kind::Var(_)) =>
            {
                "alias by let"
            }
            Kind::If(..) if matches!(e.ty, Ty::Ref(_)) => "alias chosen by a test",
            // A list built by recursion and summed by recursion (the sum measure).
            Kind::LetRec(f, _, _, _) if f.name == "sum" => "list summed by recursion",
            _ => "",
        };
        self.seen.insert(name);
        match &*e.kind {
            Kind::Fun(params, body) => {
                self.seen.insert("fun");
                let mut inner = scope.to_vec();
                inner.extend(params.iter().map(|p| (p.name.clone(), p.ty.clone())));
                self.expr(body, &inner, scope);
            }
            Kind::Let(p, value, rest) => {
                self.expr(value, scope, outer);
                if scope.iter().any(|(n, _)| *n == p.name) {
                    self.seen.insert("shadowing");
                }
                let mut inner = scope.to_vec();
                inner.push((p.name.clone(), p.ty.clone()));
                self.expr(rest, &inner, outer);
            }
            Kind::LetRec(f, params, body, rest) => {
                self.seen.insert("let rec");
                let mut inner = scope.to_vec();
                inner.push((f.name.clone(), f.ty.clone()));
                let mut in_body = inner.clone();
                in_body.extend(params.iter().map(|p| (p.name.clone(), p.ty.clone())));
                self.expr(body, &in_body, scope);
                self.expr(rest, &inner, outer);
            }
            _ => {
                for child in e.children() {
                    self.expr(child, scope, outer);
                }
            }
        }
    }
}

fn allocates(e: &Expr) -> bool {
    matches!(&*e.kind, Kind::Alloc(_)) || e.children().into_iter().any(allocates)
}

fn calls(e: &Expr, method: &str) -> bool {
    if let Kind::App(f, _) = &*e.kind
        && matches!(&*f.kind, Kind::Var(name) if name == method)
    {
        return true;
    }
    e.children().into_iter().any(|c| calls(c, method))
}

#[test]
fn generated_programs_cover_the_language() {
    let mut coverage = Coverage::default();
    for seed in 0..400 {
        coverage.program(&generate(seed));
    }
    for construct in [
        "fail",
        "unary minus",
        "&&",
        "||",
        "assert",
        "Pair",
        "fst",
        "snd",
        "::",
        "hd",
        "tl",
        "is_empty",
        "call of a closure in a reference",
        "closure stored in a reference",
        "closure capturing a closure",
        "fun",
        "shadowing",
        "let rec",
        "recursive method",
        "reference of function type",
        "ref",
        "cell holding a closure",
        "cell holding a cell",
        "! on an expression",
        "! on a local cell",
        ":= on an expression",
        ":= on a local cell",
        "call of a closure in a cell",
        "closure capturing a cell",
        "alias by let",
        "alias chosen by a test",
        "list summed by recursion",
        "allocation inside recursion",
    ] {
        assert!(
            coverage.seen.contains(construct),
            "no `{construct}` in 400 programs"
        );
    }
}

/// Runs the programs of seeds `seed..seed + programs` in `language` through the oracle
/// (K = 0..6, both modes), printing the figures and every finding.
fn batch(seed: u64, programs: u64, language: Language) -> campaign::Summary {
    let config = CampaignConfig {
        seed,
        programs: Some(programs),
        duration: None,
        jobs: 2,
        oracle: OracleConfig {
            timeout: Duration::from_secs(60),
            language,
            ..OracleConfig::default()
        },
        shrink_budget: 150,
        out_dir: None,
    };
    let summary = campaign::run(&config, |_| {});
    eprintln!("{}", summary.line());
    for finding in &summary.findings {
        eprintln!(
            "seed {}: {:?}\nshrunk:\n{}",
            finding.seed, finding.defects, finding.shrunk
        );
    }
    summary
}

#[test]
fn a_fixed_seed_batch_agrees_with_concrete_runs_at_every_bound_in_both_modes() {
    let summary = batch(18_000, BATCH, Language::Horef);
    assert!(summary.findings.is_empty(), "{}", summary.line());
    assert!(summary.not_loaded.is_empty(), "{:?}", summary.not_loaded);
    assert_eq!(summary.programs, BATCH);
    assert_eq!(summary.checks, BATCH * CHECKS_PER_PROGRAM);
    // The batch is not vacuous: bugs found and replayed, and proofs checked against runs.
    assert!(
        summary.bugs > 0 && summary.failing_programs > 0,
        "{}",
        summary.line()
    );
    assert!(
        summary.verified > 0 && summary.safe > 0,
        "{}",
        summary.line()
    );
}

#[test]
fn a_fixed_seed_batch_of_ocaml_texts_agrees_with_concrete_runs() {
    let summary = batch(18_500, OCAML_BATCH, Language::Ocaml);
    assert!(summary.findings.is_empty(), "{}", summary.line());
    for (seed, why) in &summary.not_loaded {
        assert!(why.contains(OCAML_ARITY_LIMIT), "seed {seed}: {why}");
    }
    let checked = summary.programs + summary.not_loaded.len() as u64;
    assert_eq!(checked, OCAML_BATCH);
    assert!(
        summary.programs >= OCAML_BATCH * 3 / 4,
        "{}",
        summary.line()
    );
    assert_eq!(summary.checks, summary.programs * CHECKS_PER_PROGRAM);
    assert!(
        summary.bugs > 0 && summary.verified > 0,
        "{}",
        summary.line()
    );
}

/// Programs in the CI batch of Boogie programs (their own generator, through the IR).
const BOOGIE_BATCH: u64 = 40;

#[test]
fn generated_boogie_programs_load_are_deterministic_and_cover_the_subset() {
    let mut seen: BTreeSet<&'static str> = BTreeSet::new();
    let constructs: [(&'static str, &'static str); 16] = [
        ("requires", "requires "),
        ("ensures", "ensures "),
        ("old", "old("),
        ("call with outs", "call r"),
        ("while", "while ("),
        ("invariant", "  invariant "),
        ("free invariant", "free invariant"),
        ("if (*)", "if (*)"),
        ("havoc", "havoc "),
        ("assume", "assume "),
        ("goto several", "goto L1, L"),
        ("label", "\nL2:"),
        ("div", " div "),
        ("mod", " mod "),
        ("ite", "(if "),
        ("implication", " ==> "),
    ];
    for seed in 0..1000 {
        let text = boogie::generate(seed);
        assert_eq!(text, boogie::generate(seed), "seed {seed}");
        if let Err(e) = ir_oracle::load(&text) {
            panic!("seed {seed} does not load:\n{text}\n{}", e.0);
        }
        for (name, marker) in constructs {
            if text.contains(marker) {
                seen.insert(name);
            }
        }
    }
    let missing: Vec<&str> = constructs
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| !seen.contains(n))
        .collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
}

#[test]
fn a_fixed_seed_batch_of_boogie_programs_agrees_with_concrete_runs() {
    let summary = batch(18_700, BOOGIE_BATCH, Language::Boogie);
    assert!(summary.findings.is_empty(), "{}", summary.line());
    assert!(summary.not_loaded.is_empty(), "{:?}", summary.not_loaded);
    assert_eq!(summary.programs, BOOGIE_BATCH);
    assert_eq!(summary.checks, BOOGIE_BATCH * CHECKS_PER_PROGRAM);
    assert!(
        summary.bugs > 0 && summary.failing_programs > 0,
        "{}",
        summary.line()
    );
    assert!(summary.verified + summary.safe > 0, "{}", summary.line());
}

/// Whether `Main` of `text` fails on `a = 37` (when it takes one `Int`) at depth 6.
fn fails_on_37(text: &str) -> bool {
    let Ok(checked) = load_bytes("s.horef", text.as_bytes()) else {
        return false;
    };
    let inputs: Vec<Value> = checked
        .program
        .main
        .params
        .iter()
        .map(|_| Value::int(37))
        .collect();
    let config = RunConfig {
        max_depth: 6,
        fuel: 1_000_000,
        trace: false,
        memory_limit_mib: None,
    };
    let run = interp::run(&checked.program, &checked.info, &inputs, &config);
    matches!(run.outcome, Outcome::Failure { .. })
}

#[test]
fn the_shrinker_keeps_the_property_and_makes_the_program_smaller() {
    let mut shrunk_some = 0;
    for seed in 0..300 {
        let program = generate(seed);
        if !fails_on_37(&program.text()) || program.size() < 30 {
            continue;
        }
        let result = shrink(&program, |p| fails_on_37(&p.text()), 400);
        assert!(fails_on_37(&result.program.text()), "seed {seed}");
        assert!(result.program.size() < program.size(), "seed {seed}");
        assert!(result.tries <= 400);
        shrunk_some += 1;
        if shrunk_some == 5 {
            return;
        }
    }
    panic!("only {shrunk_some} programs of 300 fail on 37");
}
