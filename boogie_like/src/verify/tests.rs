//! Unit tests of the verifier: one test per rule family, with the exact messages.

use super::*;
use crate::ir::{CallSite, CallSiteId, CtorId, DatatypeId, LocalId, ProcId, SourcePos, Stmt, Var};
use crate::parse::parse;

/// The error messages of verifying `text` (which must parse).
fn errors(text: &str) -> Vec<String> {
    let program = parse(text).unwrap_or_else(|e| panic!("{e}"));
    match verify(&program) {
        Ok(()) => Vec::new(),
        Err(errors) => errors.iter().map(ToString::to_string).collect(),
    }
}

/// Asserts that verifying `text` reports exactly `expected`.
fn rejects(text: &str, expected: &[&str]) {
    assert_eq!(errors(text), expected, "for program:\n{text}");
}

const MAIN: &str = "procedure {:entrypoint} main() { }\n";

#[test]
fn accepts_a_well_formed_program() {
    let text = "datatype L { nil(), cons(h: int, t: L) }\nvar g: int;\nvar k: bool;\n\
        procedure {:entrypoint} {:reads k} main(n: int) returns (r: int) modifies g; {\n\
          var l: L;\n  l := cons(n, nil());\n  call r := f(l);\n  if (k) { assert r >= 0; }\n}\n\
        procedure f(l: L) returns (r: int) modifies g; {\n\
          if (l is cons) { g := l->h; call r := f(l->t); } else { r := g; }\n}";
    rejects(text, &[]);
}

#[test]
fn exactly_one_entrypoint() {
    rejects(
        "procedure p() { }",
        &["program: 0 procedures are marked {:entrypoint}; expected exactly one"],
    );
    let two = "procedure {:entrypoint} p() { } procedure {:entrypoint} q() { }";
    rejects(
        two,
        &["program: 2 procedures are marked {:entrypoint}; expected exactly one"],
    );
}

#[test]
fn expression_types() {
    let text = format!(
        "{MAIN}datatype D {{ a(x: int), b() }}\ndatatype E {{ e() }}\n\
         procedure p(i: int, t: bool, d: D, f: E) returns (r: int) {{\n\
           r := i + t;\n  assume i;\n  r := d->x + (if t then 1 else false);\n\
           assume f is a;\n  assume a(t) == d;\n  assume a(1, 2) == b();\n  assume d == f;\n}}"
    );
    rejects(
        &text,
        &[
            "procedure `p`, statement #0 `r := i + t;`: operand of `+`: expected int, found bool",
            "procedure `p`, statement #1 `assume i;`: condition of `assume`: expected bool, found int",
            "procedure `p`, statement #2 `r := d->x + (if t then 1 else false);`: `else` branch of `if then else`: expected int, found bool",
            "procedure `p`, statement #3 `assume f is a;`: operand of `is a`: expected D, found E",
            "procedure `p`, statement #4 `assume a(t) == d;`: argument 1 of `a`: expected int, found bool",
            "procedure `p`, statement #5 `assume a(1, 2) == b();`: number of arguments of `a`: expected 1, found 2",
            "procedure `p`, statement #6 `assume d == f;`: right operand of `==`: expected D, found E",
        ],
    );
}

#[test]
fn assignments_and_params() {
    let text = format!(
        "{MAIN}procedure p(i: int) returns (r: bool) {{\n  i := 1;\n  havoc i, r;\n  r := 3;\n}}"
    );
    rejects(
        &text,
        &[
            "procedure `p`, statement #0 `i := 1;`: in-parameter `i` is assigned (parameters are read-only)",
            "procedure `p`, statement #1 `havoc i, r;`: in-parameter `i` is assigned (parameters are read-only)",
            "procedure `p`, statement #2 `r := 3;`: assignment to `r`: expected bool, found int",
        ],
    );
}

#[test]
fn calls_check_arity_types_and_distinct_results() {
    let text = format!(
        "{MAIN}procedure q(a: int, b: bool) returns (x: int, y: int) {{ x := a; y := a; }}\n\
         procedure p(i: int) returns (r: int, s: bool) {{\n  call r := q(i);\n\
           call r, r := q(true, true);\n  call r, s := q(i, false);\n  call i, r := q(i, true);\n}}"
    );
    rejects(
        &text,
        &[
            "procedure `p`, statement #0 `call r := q(i);`: number of arguments of `q`: expected 2, found 1",
            "procedure `p`, statement #0 `call r := q(i);`: number of results of `q`: expected 2, found 1",
            "procedure `p`, statement #1 `call r, r := q(true, true);`: argument 1 of `q`: expected int, found bool",
            "procedure `p`, statement #1 `call r, r := q(true, true);`: variable `r` receives more than one result of the call",
            "procedure `p`, statement #2 `call r, s := q(i, false);`: result 2 of `q`: expected bool, found int",
            "procedure `p`, statement #3 `call i, r := q(i, true);`: in-parameter `i` is assigned (parameters are read-only)",
        ],
    );
}

#[test]
fn effects_direct_and_through_callees() {
    let text = format!(
        "{MAIN}var g: int;\nvar h: int;\n\
         procedure w() modifies g; {{ g := 1; }}\n\
         procedure {{:reads h}} rd() {{ assume h > 0; }}\n\
         procedure p() {{\n  g := h;\n  call w();\n  call rd();\n}}\n\
         procedure {{:reads g}} q() {{ call w(); }}\n\
         procedure {{:reads g}} r2() modifies g; {{ }}"
    );
    rejects(
        &text,
        &[
            "procedure `r2`: global `g` is listed in both `reads` and `modifies`",
            "procedure `p`, statement #0 `g := h;`: global `g` is written but not listed in `modifies`",
            "procedure `p`, statement #0 `g := h;`: global `h` is read but listed in neither `reads` nor `modifies`",
            "procedure `p`, statement #1 `call w();`: global `g` is written but not listed in `modifies` (through the call to `w`)",
            "procedure `p`, statement #2 `call rd();`: global `h` is read but listed in neither `reads` nor `modifies` (through the call to `rd`)",
            "procedure `q`, statement #0 `call w();`: global `g` is written but not listed in `modifies` (through the call to `w`)",
        ],
    );
}

#[test]
fn modifies_lists_are_sets() {
    let text = format!("{MAIN}var g: int;\nprocedure p() modifies g, g; {{ }}");
    rejects(
        &text,
        &["procedure `p`: global `g` is listed twice in `modifies`"],
    );
}

#[test]
fn datatypes_must_be_inhabited() {
    let text = format!(
        "{MAIN}datatype S {{ s(next: S) }}\ndatatype T {{ }}\ndatatype U {{ u(x: S), v(t: int) }}"
    );
    rejects(
        &text,
        &[
            "datatype `S`: datatype `S` has no finite value (no constructor can be built)",
            "datatype `T`: datatype `T` has no finite value (no constructor can be built)",
        ],
    );
}

#[test]
fn builder_made_name_errors() {
    let mut p = Program::new();
    let d = p.add_datatype("D");
    p.add_ctor(d, "k", vec![("f", Type::Int)]);
    p.add_ctor(d, "k", vec![("f", Type::Int)]);
    p.add_global("g", Type::Int);
    p.add_global("1bad", Type::Int);
    let main = p.declare_proc("main", &[("g", Type::Int)], &[]);
    p.set_entrypoint(main);
    p.declare_proc("main", &[], &[]);
    let messages: Vec<String> = verify(&p)
        .unwrap_err()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        messages,
        vec![
            "program: duplicate constructor name `k`",
            "datatype `D`: duplicate field name `f`",
            "program: global variable name `1bad` is not a valid identifier",
            "program: duplicate procedure name `main`",
            "procedure `main`: local variable `g` has the same name as a global variable",
        ]
    );
}

#[test]
fn missing_ids_are_errors_not_panics() {
    let mut p = Program::new();
    let main = p.declare_proc("main", &[], &[]);
    p.set_entrypoint(main);
    let bad_ctor = CtorId {
        datatype: DatatypeId(4),
        index: 0,
    };
    let body = vec![
        Stmt::assign(LocalId(9), Expr::ctor(bad_ctor, vec![])),
        Stmt::Call(CallSiteId(3)),
        Stmt::Havoc(vec![]),
    ];
    p.procs[main].body = body;
    p.procs[main].call_sites.push(CallSite {
        callee: ProcId(7),
        args: vec![],
        rets: vec![Var::Local(LocalId(8))],
        source: None,
    });
    p.procs[main].modifies.push(crate::ir::GlobalId(2));
    let messages: Vec<String> = verify(&p)
        .unwrap_err()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        messages,
        vec![
            "procedure `main`: reference to a missing global variable (g2)",
            "procedure `main`, statement #0 `<missing l9> := <missing constructor>();`: reference to a missing local variable (l9)",
            "procedure `main`, statement #0 `<missing l9> := <missing constructor>();`: reference to a missing constructor (CtorId { datatype: dt4, index: 0 })",
            "procedure `main`, statement #1 `call <missing site3>;`: reference to a missing call site (site3)",
            "procedure `main`, statement #2 `havoc ;`: `havoc` needs at least one variable",
            "procedure `main`: call site site0 is used by 0 `call` statements; expected exactly one",
        ]
    );
}

#[test]
fn call_sites_must_be_textually_numbered_and_used_once() {
    let mut p = Program::new();
    let main = p.declare_proc("main", &[], &[]);
    p.set_entrypoint(main);
    let site = |line| CallSite {
        callee: main,
        args: vec![],
        rets: vec![],
        source: Some(SourcePos { line, col: 1 }),
    };
    p.procs[main].call_sites.push(site(1));
    p.procs[main].call_sites.push(site(2));
    p.procs[main].body = vec![Stmt::Call(CallSiteId(1)), Stmt::Call(CallSiteId(0))];
    assert_eq!(
        verify(&p).unwrap_err()[0].kind,
        VerifyErrorKind::CallSiteOrder
    );
    p.procs[main].renumber_call_sites();
    assert_eq!(verify(&p), Ok(()));
    p.procs[main].body.push(Stmt::Call(CallSiteId(1)));
    let kind = &verify(&p).unwrap_err()[0].kind;
    assert_eq!(
        *kind,
        VerifyErrorKind::CallSiteUse {
            site: "site1".into(),
            count: 2
        }
    );
}

#[test]
fn locals_layout_is_params_then_returns() {
    let mut p = Program::new();
    let main = p.declare_proc("main", &[], &[("r", Type::Int)]);
    p.set_entrypoint(main);
    p.procs[main].body = vec![Stmt::assign(LocalId(0), Expr::int(0))];
    let body_local = p.procs[main].add_local("x", Type::Int);
    p.procs[main].params.push(body_local);
    assert_eq!(
        verify(&p).unwrap_err()[0].kind,
        VerifyErrorKind::LocalLayout
    );
}

#[test]
fn verify_expr_types_closed_expressions() {
    let program = parse("datatype L { nil(), cons(h: int, t: L) }").unwrap();
    let proc = Procedure::new("");
    let exprs = crate::parse::parse_exprs(&program, "cons(1, nil()), 1 + true").unwrap();
    assert_eq!(
        verify_expr(&program, &proc, &exprs[0]),
        Ok(Type::Data(DatatypeId(0)))
    );
    assert!(verify_expr(&program, &proc, &exprs[1]).is_err());
}

#[test]
fn map_types_keys_and_operands() {
    let text = format!(
        "{MAIN}datatype D {{ d() }}\nvar g: [D]int;\n\
         procedure p(m: [int]bool, n: [int][int]int, i: int) returns (r: int) {{\n\
           r := m[i];\n  r := n[i][true];\n  r := i[0];\n  assume m[i := 1] == m;\n\
           assume [D](0) == [D](0);\n  r := n[i][i];\n}}"
    );
    rejects(
        &text,
        &[
            "global `g`: map type `[D]int`: keys must be `int` or `bool`",
            "procedure `p`, statement #0 `r := m[i];`: assignment to `r`: expected int, found bool",
            "procedure `p`, statement #1 `r := n[i][true];`: index of the map read: expected int, found bool",
            "procedure `p`, statement #2 `r := i[0];`: operand of the map read: expected a map, found int",
            "procedure `p`, statement #3 `assume m[i := 1] == m;`: value of the map update: expected bool, found int",
            "procedure `p`, statement #4 `assume [D](0) == [D](0);`: map type `[D]int`: keys must be `int` or `bool`",
        ],
    );
}
