//! Unit tests of the printer: exact layout, minimal parentheses, robustness on missing ids.

use super::*;
use crate::ir::{CallSiteId, CtorId, DatatypeId, FieldRef, GlobalId, LocalId, ProcId};
use crate::parse::parse;
use crate::verify::verify;

/// The program of the IR's documentation, built with the builder API.
fn built() -> Program {
    let mut p = Program::new();
    let list = p.add_datatype("IntList");
    let nil = p.add_ctor::<&str>(list, "nil", vec![]);
    let cons = p.add_ctor(
        list,
        "cons",
        vec![("head", Type::Int), ("tail", Type::Data(list))],
    );
    let g = p.add_global("count", Type::Int);
    let main = p.declare_proc("main", &[("n", Type::Int)], &[("ret", Type::Int)]);
    let len = p.declare_proc("len", &[("l", Type::Data(list))], &[("r", Type::Int)]);
    p.set_entrypoint(main);
    p.procs[main].modifies = vec![g];
    p.procs[len].modifies = vec![g];
    let l = p.fresh_local(main, "l", Type::Data(list));
    let (n, ret) = (LocalId(0), LocalId(1));
    let value = Expr::ctor(cons, vec![Expr::var(n), Expr::ctor(nil, vec![])]);
    let call = p.procs[main].add_call(
        len,
        vec![Expr::var(l)],
        vec![Var::Local(ret)],
        Some(SourcePos { line: 7, col: 2 }),
    );
    let check = Expr::and(
        !Expr::is(Expr::var(l), nil),
        Expr::binary(BinOp::Ge, Expr::var(g), Expr::int(1)),
    );
    p.set_body(
        main,
        vec![
            Stmt::assign(l, value),
            call,
            Stmt::assert(check, Some(SourcePos { line: 8, col: 3 })),
        ],
    );
    let (arg, r) = (LocalId(0), LocalId(1));
    let rec = p.procs[len].add_call(
        len,
        vec![Expr::select(
            Expr::var(arg),
            FieldRef {
                ctor: cons,
                index: 1,
            },
        )],
        vec![Var::Local(r)],
        None,
    );
    let bump = Stmt::assign(g, Expr::binary(BinOp::Add, Expr::var(g), Expr::int(1)));
    let inc = Stmt::assign(r, Expr::binary(BinOp::Add, Expr::var(r), Expr::int(1)));
    let body = vec![Stmt::if_(
        Expr::is(Expr::var(arg), nil),
        vec![Stmt::assign(r, Expr::int(0)), Stmt::Return],
        vec![rec, bump, inc],
    )];
    p.set_body(len, body);
    p
}

const BUILT_TEXT: &str = "\
datatype IntList { nil(), cons(head: int, tail: IntList) }
var count: int;

procedure {:entrypoint} main(n: int) returns (ret: int)
  modifies count;
{
  var l: IntList;
  l := cons(n, nil());
  call {:source 7, 2} ret := len(l);
  assert {:source 8, 3} !(l is nil) && count >= 1;
}

procedure len(l: IntList) returns (r: int)
  modifies count;
{
  if (l is nil) {
    r := 0;
    return;
  } else {
    call r := len(l->tail);
    count := count + 1;
    r := r + 1;
  }
}
";

#[test]
fn prints_the_built_program_exactly() {
    let program = built();
    verify(&program).unwrap();
    assert_eq!(print(&program), BUILT_TEXT);
    assert_eq!(parse(BUILT_TEXT).unwrap(), program);
}

#[test]
fn long_datatypes_print_one_constructor_per_line() {
    let mut p = Program::new();
    let d = p.add_datatype("Clo");
    for i in 0..6 {
        p.add_ctor(
            d,
            format!("K_closure_number_{i}"),
            vec![(format!("K{i}.captured"), Type::Int)],
        );
    }
    let text = print(&p);
    assert!(
        text.starts_with("datatype Clo {\n  K_closure_number_0(K0.captured: int),\n"),
        "{text}"
    );
    assert_eq!(parse(&text).unwrap(), p);
}

fn expr_text(e: Expr) -> String {
    let mut p = Program::new();
    let proc = p.declare_proc("p", &[("x", Type::Int), ("b", Type::Bool)], &[]);
    print_expr(&p, &p.procs[proc], &e)
}

#[test]
fn parenthesizes_minimally() {
    let x = || Expr::var(LocalId(0));
    let b = || Expr::var(LocalId(1));
    let add = |l, r| Expr::binary(BinOp::Add, l, r);
    let mul = |l, r| Expr::binary(BinOp::Mul, l, r);
    assert_eq!(expr_text(mul(add(x(), x()), x())), "(x + x) * x");
    assert_eq!(expr_text(add(x(), mul(x(), x()))), "x + x * x");
    assert_eq!(expr_text(add(x(), add(x(), x()))), "x + (x + x)");
    assert_eq!(expr_text(-Expr::int(5)), "-(5)");
    assert_eq!(expr_text(-Expr::int(-5)), "--5");
    assert_eq!(expr_text(mul(x(), Expr::int(-5))), "x * -5");
    assert_eq!(expr_text(!Expr::and(b(), b())), "!(b && b)");
    let imp = |l, r| Expr::binary(BinOp::Implies, l, r);
    assert_eq!(expr_text(imp(imp(b(), b()), b())), "(b ==> b) ==> b");
    assert_eq!(expr_text(imp(b(), imp(b(), b()))), "b ==> b ==> b");
    assert_eq!(
        expr_text(Expr::and(b(), Expr::or(b(), b()))),
        "b && (b || b)"
    );
    let ite = Expr::ite(b(), x(), x());
    assert_eq!(expr_text(add(ite.clone(), x())), "(if b then x else x) + x");
    assert_eq!(
        expr_text(Expr::ite(b(), ite.clone(), ite)),
        "if b then if b then x else x else if b then x else x"
    );
    let eq = Expr::eq(Expr::eq(x(), x()), b());
    assert_eq!(expr_text(eq), "(x == x) == b");
}

#[test]
fn never_panics_on_missing_ids() {
    let mut p = Program::new();
    let proc = p.declare_proc("p", &[], &[]);
    let bad = Expr::select(
        Expr::var(GlobalId(9)),
        FieldRef {
            ctor: CtorId {
                datatype: DatatypeId(3),
                index: 0,
            },
            index: 0,
        },
    );
    p.procs[proc].body = vec![Stmt::assign(LocalId(7), bad), Stmt::Call(CallSiteId(4))];
    p.add_global("g", Type::Data(DatatypeId(5)));
    p.procs[proc].call_sites.push(crate::ir::CallSite {
        callee: ProcId(8),
        args: vec![],
        rets: vec![],
        source: None,
    });
    let text = print(&p);
    assert!(
        text.contains("<missing l7> := <missing g9>-><missing field>;"),
        "{text}"
    );
    assert!(text.contains("call <missing site4>;"), "{text}");
    assert!(text.contains("var g: <missing dt5>;"), "{text}");
}

#[test]
fn statement_headers_for_diagnostics() {
    let program = built();
    let main = &program.procs[ProcId(0)];
    assert_eq!(
        print_stmt_header(&program, main, &main.body[1]),
        "call {:source 7, 2} ret := len(l);"
    );
    let len = &program.procs[ProcId(1)];
    assert_eq!(
        print_stmt_header(&program, len, &len.body[0]),
        "if (l is nil) { … }"
    );
}
