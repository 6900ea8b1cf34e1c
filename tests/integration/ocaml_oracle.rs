//! The differential test against real OCaml (issue 15, item 6): every program of
//! `tests/ocaml/` runs, for a range of inputs, in our interpreter and in the `ocaml`
//! toplevel, and the outcomes must agree: the value (an `int`, a `bool` as 0/1, `()`), an
//! `Assert_failure` at the same line and column, or an uncaught exception of the same name
//! (`Division_by_zero`, `Failure`, `Not_found`, `Match_failure`, declared ones).
//! Runs our interpreter cuts off (OCaml has no depth bound) or gives up on are not compared.
//! A program with fresh inputs (`read_int ()`, `Random.int n`, `Random.bool ()`) runs on
//! each input tuple with each of [`STREAMS`]: ours takes them as its input stream, and in
//! OCaml the program sees a `Random` module and a `read_int` that read the same stream
//! (0 past its end; `Random.int n` takes the value modulo `n` and raises
//! `Invalid_argument` for `n <= 0`, `Random.bool` is the value modulo 2 = 1), as our
//! interpreter does.
//!
//! Without `ocaml` on PATH when the tests were built, the test is ignored (not passed); CI
//! installs it (`.ci/run`).

use crate::common;

use horef_si::core_lang::ast::Type;
use horef_si::core_lang::interp::{self, FailureKind, Outcome, RunConfig, Value};
use horef_si::frontend::ocaml::{ast, infer, parser, types::Ty};
use horef_si::frontend::{Checked, load_core};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The most input tuples tried per program.
const MAX_RUNS: usize = 150;

/// The fresh input streams a program with fresh inputs runs with.
const STREAMS: &[&[i64]] = &[
    &[],
    &[1, 1, 1, 1, 1, 1, 1, 1],
    &[9, 42, 7, -1, 3, 0, 2, 5, 1, 4],
];

/// The OCaml definitions that read the stream `__stream` (set before each run).
const FRESH_SHIM: &str = "module Random = struct \
    let int n = if n <= 0 then invalid_arg \"Random.int\" else ((__next () mod n) + n) mod n \
    let bool () = ((__next () mod 2) + 2) mod 2 = 1 end \
    let read_int () = __next () ";

/// Whether the program has fresh inputs.
fn has_fresh_inputs(text: &str) -> bool {
    text.contains("read_int") || text.contains("Random.")
}

fn programs() -> Vec<PathBuf> {
    common::ocaml_programs()
}

/// The OCaml types of the entry's parameters (the last top-level `main`).
fn entry_params(text: &str) -> Vec<Ty> {
    let mut program = parser::parse_program(text).expect("parses");
    let typing = infer::infer_program(&mut program).expect("type-checks");
    let mut entry = None;
    for item in &program.items {
        if let ast::Item::Let(group) = item {
            for b in &group.bindings {
                if let ast::PatternKind::Var(_, name) = &b.pattern.kind
                    && &*name.text == "main"
                {
                    entry = Some(typing.type_of(&b.value));
                }
            }
        }
    }
    match entry {
        Some(Ty::Fun(params, _)) => params,
        other => panic!("no `main` function: {other:?}"),
    }
}

/// Candidate values for each `Main` parameter: -3..=3 and every value a `run:` line gives.
fn input_tuples(checked: &Checked, text: &str) -> Vec<Vec<i64>> {
    let mut tuples = vec![Vec::new()];
    for p in &checked.program.main.params {
        let mut values: BTreeSet<i64> = (-3..=3).collect();
        if p.ty == Type::Unit {
            values = [0].into();
        }
        let key = format!(" {}=", p.name.name);
        for line in text.lines().filter(|l| l.contains("run:")) {
            if let Some(rest) = line.split(&key).nth(1) {
                let v = rest.split_whitespace().next().unwrap_or("");
                values.extend(v.parse::<i64>().ok());
            }
        }
        tuples = tuples
            .into_iter()
            .flat_map(|t| {
                values.iter().map(move |v| {
                    let mut t = t.clone();
                    t.push(*v);
                    t
                })
            })
            .collect();
    }
    tuples.truncate(MAX_RUNS);
    tuples
}

/// Our outcome in the oracle's terms; `None` when it cannot be compared.
fn ours(checked: &Checked, tuple: &[i64], stream: &[i64]) -> Option<String> {
    let inputs: Vec<Value> = checked
        .program
        .main
        .params
        .iter()
        .zip(tuple)
        .map(|(p, v)| {
            if p.ty == Type::Unit {
                Value::Unit
            } else {
                Value::int(*v)
            }
        })
        .collect();
    let config = RunConfig {
        max_depth: 500,
        fuel: 2_000_000,
        trace: false,
        memory_limit_mib: None,
    };
    let stream: Vec<num_bigint::BigInt> = stream.iter().map(|v| (*v).into()).collect();
    let result = interp::run_fed(&checked.program, &checked.info, &inputs, &stream, &config);
    match result.outcome {
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
        Outcome::Failure {
            kind: FailureKind::DivisionByZero,
            ..
        } => Some("exception Division_by_zero".into()),
        Outcome::Failure {
            kind: kind @ FailureKind::Uncaught(_),
            ..
        } => Some(format!("exception {}", kind.describe_in(&checked.program))),
        Outcome::Failure { .. } => Some("exception".into()),
        Outcome::CutOff { .. } | Outcome::OutOfFuel { .. } | Outcome::OutOfMemory { .. } => None,
    }
}

/// Whether the program defines `main` itself (a script of top-level effect items without
/// one gets the entry `let main () = ()` from the front end, which OCaml does not have).
fn defines_main(text: &str) -> bool {
    text.contains("let main") || text.contains("and main") || text.contains("let rec main")
}

/// The OCaml call of `main` on the input tuple `__args.(__i)` (`()` when the program has no
/// `main`: its top-level items are the whole run).
fn ocaml_call(params: &[Ty], checked: &Checked, text: &str) -> String {
    if !defines_main(text) {
        return "()".to_string();
    }
    let inputs: Vec<&Type> = checked.program.main.params.iter().map(|p| &p.ty).collect();
    let mut next = 0;
    let mut call = String::from("main");
    for ty in params {
        let is_input = inputs
            .get(next)
            .is_some_and(|t| *ty != Ty::Unit || **t == Type::Unit);
        if !is_input {
            call.push_str(" ()");
            continue;
        }
        match ty {
            Ty::Bool => write!(call, " (__args.(__i).({next}) <> 0)").unwrap(),
            Ty::Unit => call.push_str(" ()"),
            _ => write!(call, " (__args.(__i).({next}))").unwrap(),
        }
        next += 1;
    }
    call
}

/// Prints `i value V`, `i assert L C` or `i exception E` for one run.
const RUNNER: &str = "let __run i f = (try let v = f () in \
    if Obj.is_int v then Printf.printf \"%d value %d\\n\" i (Obj.obj v : int) \
    else Printf.printf \"%d value block\\n\" i \
    with Assert_failure (_, l, c) -> Printf.printf \"%d assert %d %d\\n\" i l c \
    | Stack_overflow -> Printf.printf \"%d overflow\\n\" i \
    | e -> Printf.printf \"%d exception %s\\n\" i (Printexc.to_string e)); flush stdout;; \
    let __stream = ref [] ;; \
    let __next () = match !__stream with [] -> 0 | x :: r -> __stream := r; x ;; ";

/// Runs `main` on each tuple in real OCaml, each run on a fresh copy of the program (a
/// local module re-evaluates the top level, references included, inside the run, so a
/// failure of a top-level item is that run's outcome). The program keeps its line numbers:
/// everything before it is on its first line.
fn run_ocaml(text: &str, call: &str, runs: &[(Vec<i64>, &[i64])], dir: &Path) -> Vec<String> {
    let rows: Vec<String> = runs
        .iter()
        .map(|(t, _)| {
            let items: Vec<String> = t.iter().map(|v| format!("({v})")).collect();
            format!("[|{}|]", items.join("; "))
        })
        .collect();
    let streams: Vec<String> = runs
        .iter()
        .map(|(_, s)| {
            let items: Vec<String> = s.iter().map(|v| format!("({v})")).collect();
            format!("[{}]", items.join("; "))
        })
        .collect();
    let mut source = String::from(RUNNER);
    write!(source, "let __args = [|{}|];; ", rows.join("; ")).unwrap();
    write!(source, "let __streams = [|{}|];; ", streams.join("; ")).unwrap();
    source.push_str(
        "let __fresh __i = __stream := __streams.(__i); __run __i (fun () -> let module M = struct ",
    );
    source.push_str(FRESH_SHIM);
    source.push_str(text);
    writeln!(
        source,
        "\n;; let __result = Obj.repr ({call}) end in M.__result)"
    )
    .unwrap();
    writeln!(
        source,
        "let () = for i = 0 to {} do __fresh i done",
        runs.len() as i64 - 1
    )
    .unwrap();
    let file = dir.join("oracle.ml");
    std::fs::write(&file, source).expect("write");
    let out = Command::new("ocaml")
        .arg(&file)
        .output()
        .expect("run ocaml");
    if !out.status.success() {
        panic!(
            "ocaml failed on {}:\n{}",
            file.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let mut outcomes = vec![String::from("(no output)"); runs.len()];
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        if let Some((i, rest)) = line.split_once(' ')
            && let Ok(i) = i.parse::<usize>()
            && i < outcomes.len()
        {
            outcomes[i] = rest.to_string();
        }
    }
    outcomes
}

/// Whether the outcomes agree: the same value or assertion, or an uncaught exception of
/// the same name (OCaml prints its argument after it, `E(3)`, and `Match_failure` as
/// "Pattern matching failed"); ours `exception` alone (`fail`) is any exception.
fn agree(ours: &str, theirs: &str) -> bool {
    let Some(name) = ours.strip_prefix("exception") else {
        return ours == theirs;
    };
    let Some(their_name) = theirs.strip_prefix("exception") else {
        return false;
    };
    match name.trim() {
        "" => true,
        "Match_failure" => their_name.contains("Pattern matching failed"),
        name => their_name.trim().split('(').next() == Some(name),
    }
}

#[test]
#[cfg_attr(
    not(has_ocaml),
    ignore = "`ocaml` was not on PATH when the tests were built (apt-get install ocaml-nox)"
)]
fn our_interpreter_agrees_with_real_ocaml() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut programs_compared, mut runs, mut disagreements) = (0, 0, Vec::new());
    for path in programs() {
        let text = std::fs::read_to_string(&path).expect("read");
        let checked = load_core(&path).unwrap_or_else(|e| panic!("{}", e.render()));
        let call = ocaml_call(&entry_params(&text), &checked, &text);
        let streams = if has_fresh_inputs(&text) {
            STREAMS
        } else {
            &STREAMS[..1]
        };
        let mut compared = Vec::new();
        let mut expected = Vec::new();
        for tuple in input_tuples(&checked, &text) {
            for stream in streams {
                if let Some(outcome) = ours(&checked, &tuple, stream) {
                    compared.push((tuple.clone(), *stream));
                    expected.push(outcome);
                }
            }
        }
        let theirs = run_ocaml(&text, &call, &compared, dir.path());
        for (((tuple, stream), o), t) in compared.iter().zip(&expected).zip(&theirs) {
            runs += 1;
            if !agree(o, t) {
                disagreements.push(format!(
                    "{}: inputs {tuple:?}, fresh {stream:?}: ours `{o}`, OCaml `{t}`",
                    path.display()
                ));
            }
        }
        programs_compared += 1;
    }
    println!(
        "real OCaml: {programs_compared} programs, {runs} runs compared, {} disagreements",
        disagreements.len()
    );
    assert!(
        programs_compared >= 20 && runs >= 200,
        "too little compared: {programs_compared} programs, {runs} runs"
    );
    assert!(
        disagreements.is_empty(),
        "disagreements with real OCaml:\n{}",
        disagreements.join("\n")
    );
}
