//! Unit tests of the interpreter: exact outcomes, depth bound, fuel, traces, defaults, errors.

use super::*;
use crate::ir::{CtorId, DatatypeId, GlobalId};
use crate::parse::{parse, parse_exprs};

fn program(text: &str) -> Program {
    parse(text).unwrap_or_else(|e| panic!("{e}"))
}

fn run_ints(p: &Program, args: &[i64], config: &RunConfig) -> Result<RunResult, RuntimeError> {
    let inputs: Vec<Value> = args.iter().map(|n| Value::from(*n)).collect();
    run(p, &inputs, config)
}

const COUNTDOWN: &str = "\
procedure {:entrypoint} main(n: int) returns (r: int) {
  call {:source 2, 3} r := down(n);
}
procedure down(n: int) returns (r: int) {
  if (n <= 0) { r := 0; return; }
  call {:source 5, 7} r := down(n - 1);
  r := r + 1;
}";

#[test]
fn depth_bound_is_exact() {
    let p = program(COUNTDOWN);
    // main at depth 0, down(3) at 1, …, down(0) at 4.
    let r = run_ints(&p, &[3], &RunConfig::with_depth(4)).unwrap();
    assert_eq!(r.outcome, Outcome::Returned);
    assert_eq!(r.returns, vec![Value::from(3)]);
    let r = run_ints(&p, &[3], &RunConfig::with_depth(3)).unwrap();
    let down = p.proc_by_name("down").unwrap();
    assert_eq!(
        r.outcome,
        Outcome::CutOff {
            depth: 3,
            caller: down,
            site: CallSiteId(0)
        }
    );
    assert_eq!(r.summary(&p), "cut off at depth 3");
    let r = run_ints(&p, &[3], &RunConfig::with_depth(0)).unwrap();
    let main = p.proc_by_name("main").unwrap();
    assert_eq!(
        r.outcome,
        Outcome::CutOff {
            depth: 0,
            caller: main,
            site: CallSiteId(0)
        }
    );
}

#[test]
fn depth_one_hundred_thousand_does_not_overflow() {
    let p = program(COUNTDOWN);
    let config = RunConfig::with_depth(200_000).fuel(10_000_000);
    let r = run_ints(&p, &[100_000], &config).unwrap();
    assert_eq!(r.returns, vec![Value::from(100_000)]);
}

#[test]
fn fuel_ends_runs() {
    let p = program(COUNTDOWN);
    let r = run_ints(&p, &[50], &RunConfig::with_depth(100).fuel(20)).unwrap();
    assert_eq!(r.outcome, Outcome::OutOfFuel { fuel: 20 });
    assert_eq!((r.steps, r.summary(&p)), (20, "out of fuel".to_string()));
}

const FAILING: &str = "\
var count: int;
procedure {:entrypoint} main(n: int) returns (r: int) modifies count; {
  assume n != 7;
  call r := check(n);
}
procedure check(n: int) returns (r: int) modifies count; {
  count := count + 1;
  assert {:source 9, 4} n < 10;
  assert n > -10;
  r := count;
}";

#[test]
fn failure_blocked_and_returns() {
    let p = program(FAILING);
    let check = p.proc_by_name("check").unwrap();
    let cfg = RunConfig::with_depth(5);
    let r = run_ints(&p, &[12], &cfg).unwrap();
    assert_eq!(
        r.outcome,
        Outcome::Failure {
            proc: check,
            source: Some(SourcePos { line: 9, col: 4 }),
            depth: 1
        }
    );
    assert_eq!(r.summary(&p), "failure at 9:4");
    assert_eq!(r.globals[GlobalId(0)], Value::from(1));
    assert_eq!(
        run_ints(&p, &[-12], &cfg).unwrap().summary(&p),
        "failure in check"
    );
    let r = run_ints(&p, &[7], &cfg).unwrap();
    assert_eq!(
        r.outcome,
        Outcome::Blocked {
            proc: p.proc_by_name("main").unwrap(),
            depth: 0
        }
    );
    assert_eq!(r.summary(&p), "blocked");
    assert_eq!(run_ints(&p, &[3], &cfg).unwrap().summary(&p), "returns 1");
}

#[test]
fn trace_records_calls_and_returns() {
    let p = program(COUNTDOWN);
    let r = run_ints(&p, &[1], &RunConfig::with_depth(5).trace(true)).unwrap();
    let (main, down) = (
        p.proc_by_name("main").unwrap(),
        p.proc_by_name("down").unwrap(),
    );
    let call = |caller, proc, n: i64, depth, source| TraceEvent::Call {
        caller,
        proc,
        args: vec![Value::from(n)],
        depth,
        source,
    };
    let ret = |proc, n: i64, depth| TraceEvent::Return {
        proc,
        returns: vec![Value::from(n)],
        depth,
    };
    let at = |line, col| Some(SourcePos { line, col });
    assert_eq!(
        r.trace,
        vec![
            call(None, main, 1, 0, None),
            call(Some((main, CallSiteId(0))), down, 1, 1, at(2, 3)),
            call(Some((down, CallSiteId(0))), down, 0, 2, at(5, 7)),
            ret(down, 0, 2),
            ret(down, 1, 1),
            ret(main, 1, 0),
        ]
    );
    assert!(
        run_ints(&p, &[1], &RunConfig::with_depth(5))
            .unwrap()
            .trace
            .is_empty()
    );
}

const DATA: &str = "\
datatype D { c(e: E), d() }
datatype E { k(x: D) }
datatype L { nil(), cons(h: int, t: L) }
var gd: D;
var ge: E;
var gb: bool;
procedure {:entrypoint} {:reads gd, ge, gb} main(n: int) returns (r: int, l: L) {
  var x: int;
  havoc x;
  havoc l;
  r := x;
}";

#[test]
fn defaults_of_globals_and_havoc() {
    let p = program(DATA);
    let r = run_ints(&p, &[0], &RunConfig::default()).unwrap();
    assert_eq!(r.summary(&p), "returns 0, nil()");
    let display: Vec<String> = r.globals.values().map(|v| v.display(&p)).collect();
    assert_eq!(display, vec!["d()", "k(d())", "false"]);
}

#[test]
fn havoc_oracle_supplies_values_and_is_type_checked() {
    let p = program(DATA);
    let interp = Interpreter::new(&p).unwrap();
    let cons = p.ctor_by_name("cons").unwrap();
    let nil = p.ctor_by_name("nil").unwrap();
    let mut oracle = |_: ProcId, _: Var, ty: Type| match ty {
        Type::Int => Value::from(42),
        _ => Value::data(cons, vec![Value::from(1), Value::data(nil, vec![])]),
    };
    let r = interp
        .run_with_oracle(&[Value::from(0)], &RunConfig::default(), &mut oracle)
        .unwrap();
    assert_eq!(r.summary(&p), "returns 42, cons(1, nil())");
    let mut bad = |_: ProcId, _: Var, _: Type| Value::Bool(true);
    let err = interp
        .run_with_oracle(&[Value::from(0)], &RunConfig::default(), &mut bad)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the havoc oracle gave `true` for `x`, which has type int"
    );
}

#[test]
fn lowering_bugs_are_runtime_errors() {
    let p = program("procedure {:entrypoint} main() returns (r: int) { var x: int; r := x + 1; }");
    let err = run(&p, &[], &RunConfig::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "procedure `main` reads local `x` before assigning it"
    );
    let p = program("procedure {:entrypoint} main() returns (r: int) { }");
    let err = run(&p, &[], &RunConfig::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "procedure `main` returns without assigning `r`"
    );
    let p = program(
        "datatype L { nil(), cons(h: int, t: L) }\nprocedure {:entrypoint} main(l: L) returns (r: int) { r := l->h; }",
    );
    let err = run(
        &p,
        &[Value::data(p.ctor_by_name("nil").unwrap(), vec![])],
        &RunConfig::default(),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "procedure `main`: `->h` applied to a `nil` value"
    );
}

#[test]
fn short_circuit_guards_selectors() {
    let text = "datatype L { nil(), cons(h: int, t: L) }\n\
                procedure {:entrypoint} main(l: L) returns (r: bool) { r := (l is cons && l->h > 0) || false; }";
    let p = program(text);
    let nil = Value::data(p.ctor_by_name("nil").unwrap(), vec![]);
    assert_eq!(
        run(&p, &[nil], &RunConfig::default()).unwrap().summary(&p),
        "returns false"
    );
}

#[test]
fn bad_inputs_and_programs() {
    let p = program(COUNTDOWN);
    let err = run(&p, &[], &RunConfig::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the entry procedure `main` takes 1 arguments, got 0"
    );
    let err = run(&p, &[Value::Bool(true)], &RunConfig::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "argument 1 of `main`: expected a value of type int, got `true`"
    );
    let bad = program("procedure main() { }");
    let err = run(&bad, &[], &RunConfig::default()).unwrap_err();
    assert!(matches!(err, RuntimeError::Invalid { .. }), "{err}");
}

#[test]
fn eval_closed_values() {
    let p = program(DATA);
    let interp = Interpreter::new(&p).unwrap();
    let exprs = parse_exprs(
        &p,
        "cons(1 + 2, nil()), -4, if 1 < 2 then c(k(d())) else d(), cons(1, nil())->h",
    )
    .unwrap();
    let values: Vec<String> = exprs
        .iter()
        .map(|e| interp.eval_closed(e).unwrap().display(&p))
        .collect();
    assert_eq!(values, vec!["cons(3, nil())", "-4", "c(k(d()))", "1"]);
    let ill = parse_exprs(&p, "1 + true, gb").unwrap();
    assert!(matches!(
        interp.eval_closed(&ill[0]),
        Err(RuntimeError::Invalid { .. })
    ));
    assert_eq!(
        interp.eval_closed(&ill[1]).unwrap_err().to_string(),
        "the expression is not closed: it reads variable `gb`"
    );
    assert_eq!(
        interp.default_value(Type::Data(DatatypeId(1))).display(&p),
        "k(d())"
    );
}

#[test]
fn deep_values_are_stack_safe() {
    let text = "datatype L { nil(), cons(h: int, t: L) }\n\
        procedure {:entrypoint} main(n: int) returns (r: bool) { var a: L; var b: L; call a := build(n); call b := build(n); r := a == b; }\n\
        procedure build(n: int) returns (l: L) { if (n <= 0) { l := nil(); } else { call l := build(n - 1); l := cons(n, l); } }";
    let p = program(text);
    let config = RunConfig::with_depth(100_000).fuel(10_000_000);
    let r = run_ints(&p, &[60_000], &config).unwrap();
    assert_eq!(r.summary(&p), "returns true");
    let cons = CtorId {
        datatype: DatatypeId(0),
        index: 1,
    };
    let build = || {
        let mut v = Value::data(
            CtorId {
                datatype: DatatypeId(0),
                index: 0,
            },
            vec![],
        );
        for i in 0..200_000 {
            v = Value::data(cons, vec![Value::from(i), v]);
        }
        v
    };
    let (v, w) = (build(), build());
    assert!(v == w && v.has_type(&p, Type::Data(DatatypeId(0))));
    assert!(v.display(&p).starts_with("cons(199999, cons(199998, "));
    let shared = v.clone();
    drop(v);
    assert_eq!(shared, w);
}
