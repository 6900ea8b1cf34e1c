//! Unit tests of the parser: precedence, literals, resolution, errors and nesting limits.

use super::*;
use crate::ir::{BinOp, CallSiteId, SourcePos, Stmt, Type, UnOp, Var};
use crate::print::{print, print_expr};

const HEADER: &str = "datatype IntList { nil(), cons(head: int, tail: IntList) }\n\
                      var g: int;\n";

/// Parses `expr` as the right-hand side of an assignment in a small program.
fn parse_expr_in_proc(expr: &str) -> Result<(Program, Expr), ParseError> {
    let text = format!(
        "{HEADER}procedure {{:entrypoint}} {{:reads g}} p(a: int, b: int, c: bool, d: bool, l: IntList) \
         returns (r: int) {{ var x: bool; x := {expr}; }}"
    );
    let program = parse(&text)?;
    let proc = &program.procs[crate::ir::ProcId(0)];
    let Some(Stmt::Assign(_, e)) = proc.body.first() else {
        panic!("no assignment parsed")
    };
    let e = e.clone();
    Ok((program, e))
}

fn err(text: &str) -> ParseError {
    match parse(text) {
        Ok(p) => panic!("expected a parse error, got {p:?}"),
        Err(e) => e,
    }
}

fn reprint(expr: &str) -> String {
    let (program, e) = parse_expr_in_proc(expr).unwrap();
    print_expr(&program, &program.procs[crate::ir::ProcId(0)], &e)
}

#[test]
fn precedence_of_arithmetic_and_logic() {
    assert_eq!(reprint("a + b * a - b"), "a + b * a - b");
    assert_eq!(reprint("(a + b) * a"), "(a + b) * a");
    assert_eq!(reprint("a - (b - a)"), "a - (b - a)");
    assert_eq!(reprint("((a - b) - a)"), "a - b - a");
    assert_eq!(reprint("c ==> d ==> c"), "c ==> d ==> c");
    assert_eq!(reprint("(c ==> d) ==> c"), "(c ==> d) ==> c");
    assert_eq!(reprint("c && d && c"), "c && d && c");
    assert_eq!(reprint("c && (d && c)"), "c && (d && c)");
    assert_eq!(reprint("(c || d) && c"), "(c || d) && c");
    assert_eq!(reprint("!(a < b) || a + 1 >= b"), "!(a < b) || a + 1 >= b");
}

#[test]
fn and_or_do_not_mix_and_comparisons_do_not_chain() {
    let e = parse_expr_in_proc("c && d || c").unwrap_err();
    assert!(e.message.contains("found `||`"), "{e}");
    let e = parse_expr_in_proc("a < b < a").unwrap_err();
    assert!(e.message.contains("comparisons do not associate"), "{e}");
    let e = parse_expr_in_proc("l is nil == c").unwrap_err();
    assert!(e.message.contains("found `==`"), "{e}");
}

#[test]
fn negative_literals_and_negation_are_distinct() {
    let (_, e) = parse_expr_in_proc("-5").unwrap();
    assert_eq!(e, Expr::int(-5));
    let (_, e) = parse_expr_in_proc("-(5)").unwrap();
    assert_eq!(e, -Expr::int(5));
    let (_, e) = parse_expr_in_proc("a - -5").unwrap();
    assert_eq!(
        e,
        Expr::binary(BinOp::Sub, Expr::var(crate::ir::LocalId(0)), Expr::int(-5))
    );
    assert_eq!(reprint("--5"), "--5");
    assert_eq!(reprint("-(-(5))"), "--(5)");
    assert_eq!(reprint("-a"), "-a");
}

#[test]
fn testers_selectors_and_constructors() {
    let (program, e) = parse_expr_in_proc("l is cons && l->tail->head > 0").unwrap();
    let cons = program.ctor_by_name("cons").unwrap();
    let Expr::Binary {
        op: BinOp::And,
        lhs,
        rhs,
    } = &e
    else {
        panic!("{e:?}")
    };
    assert_eq!(**lhs, Expr::is(Expr::var(crate::ir::LocalId(4)), cons));
    let Expr::Binary { lhs: sel, .. } = &**rhs else {
        panic!()
    };
    assert!(matches!(&**sel, Expr::Select { field, .. } if field.ctor == cons && field.index == 0));
    assert_eq!(reprint("cons(1, nil()) is nil"), "cons(1, nil()) is nil");
    assert_eq!(reprint("!(l is nil)"), "!(l is nil)");
}

#[test]
fn ite_extends_right_and_is_parenthesized_as_operand() {
    let (_, e) = parse_expr_in_proc("if c then 1 else a + 1").unwrap();
    assert!(matches!(&e, Expr::Ite { else_, .. } if matches!(**else_, Expr::Binary { .. })));
    assert_eq!(
        reprint("(if c then 1 else a) + 1"),
        "(if c then 1 else a) + 1"
    );
    assert_eq!(
        reprint("if c then 1 else if d then 2 else 3"),
        "if c then 1 else if d then 2 else 3"
    );
}

#[test]
fn unary_binds_tighter_than_binary_and_looser_than_select() {
    let (_, e) = parse_expr_in_proc("!c && d").unwrap();
    assert!(
        matches!(&e, Expr::Binary { op: BinOp::And, lhs, .. } if matches!(**lhs, Expr::Unary { op: UnOp::Not, .. }))
    );
    let (_, e) = parse_expr_in_proc("-l->head").unwrap();
    assert!(
        matches!(&e, Expr::Unary { op: UnOp::Neg, arg } if matches!(**arg, Expr::Select { .. }))
    );
}

#[test]
fn call_statements_resolve() {
    let text = "procedure {:entrypoint} m(n: int) returns (r: int) {\n\
                  if (n > 0) { call {:source 3, 4} r := m(n - 1); } else { call r := m(n); }\n\
                  call q(n);\n}\nprocedure q(k: int) { }";
    let program = parse(text).unwrap();
    let m = &program.procs[crate::ir::ProcId(0)];
    assert_eq!(m.call_sites.len(), 3);
    let first = &m.call_sites[CallSiteId(0)];
    assert_eq!(first.source, Some(SourcePos { line: 3, col: 4 }));
    assert_eq!(first.rets, vec![Var::Local(m.returns[0])]);
    assert_eq!(m.call_sites[CallSiteId(2)].callee, crate::ir::ProcId(1));
    assert!(m.call_sites[CallSiteId(2)].rets.is_empty());
}

#[test]
fn declarations_attributes_and_grouped_bindings() {
    let text = "var g, h: int;\nvar b: bool;\n\
                procedure {:reads b} {:entrypoint} p(x, y: int) returns (r: bool)\n\
                modifies g; modifies h;\n{ var u, v: int; var w: bool; r := b; }";
    let program = parse(text).unwrap();
    let p = &program.procs[crate::ir::ProcId(0)];
    assert!(p.entrypoint);
    assert_eq!(p.params.len(), 2);
    assert_eq!(p.locals.len(), 6);
    assert_eq!(p.modifies.len(), 2);
    assert_eq!(p.reads.len(), 1);
    assert_eq!(program.globals.len(), 3);
    let printed = print(&program);
    assert!(printed.contains("procedure {:entrypoint} {:reads b} p(x: int, y: int) returns (r: bool)\n  modifies g, h;"), "{printed}");
    assert_eq!(parse(&printed).unwrap(), program);
}

#[test]
fn names_with_boogie_characters_and_escaped_keywords() {
    let text = "procedure {:entrypoint} f'($x.y: int) returns (\\if: int) { \\if := $x.y; }";
    let program = parse(text).unwrap();
    assert_eq!(program.procs[crate::ir::ProcId(0)].name, "f'");
    let printed = print(&program);
    assert!(printed.contains("\\if := $x.y;"), "{printed}");
    assert_eq!(parse(&printed).unwrap(), program);
}

#[test]
fn resolution_errors_point_at_the_name() {
    let e = err("procedure p() { x := 1; }");
    assert_eq!(
        (e.line, e.col, e.message.as_str()),
        (1, 17, "undefined variable `x`")
    );
    let e = err("var g: int;\nprocedure p() { var g: int; }");
    assert_eq!(
        (e.line, e.message.as_str()),
        (2, "local variable `g` shadows a global variable")
    );
    assert_eq!(
        err("procedure p() { call q(); }").message,
        "undefined procedure `q`"
    );
    assert_eq!(err("var x: T;").message, "undefined type `T`");
    assert_eq!(
        err("datatype A { a() } datatype B { a() }").message,
        "duplicate constructor `a`"
    );
    assert_eq!(
        err("datatype A { a(f: int), b(f: int) }").message,
        "duplicate field `f`"
    );
    assert_eq!(
        err("procedure p(x: int) returns (x: int) { }").message,
        "duplicate local variable `x`"
    );
    assert_eq!(
        err("procedure p() { } procedure p() { }").message,
        "duplicate procedure `p`"
    );
    let e = err("datatype A { a(f: int) } procedure p(x: int) { x := x->g; }");
    assert_eq!(e.message, "undefined field `g`");
    let e =
        err("datatype A { a(f: int) } datatype B { b(f: int) } procedure p(x: int) { x := x->f; }");
    assert!(
        e.message
            .starts_with("cannot tell which field `f` is meant"),
        "{e}"
    );
    let e = err("datatype A { a(f: int) } procedure p(x: A) { x := x->g; }");
    assert_eq!(e.message, "datatype `A` has no field `g`");
}

#[test]
fn syntax_errors_say_expected_and_found() {
    assert_eq!(
        err("procedure p( { }").message,
        "expected a name, found `{`"
    );
    assert_eq!(
        err("procedure p() { x := ; }").message,
        "expected an expression, found `;`"
    );
    assert_eq!(
        err("datatype").message,
        "expected a datatype name, found end of input"
    );
    assert_eq!(
        err("foo").message,
        "expected `type`, `datatype`, `var` or `procedure`, found identifier `foo`"
    );
    assert_eq!(
        err("procedure {:inline} p() { }").message,
        "expected attribute `entrypoint` or `reads`, found `inline`"
    );
    let e = err("procedure p() { assert {:source 1, 99999999999} true; }");
    assert!(e.message.starts_with("expected a number below 2^32"), "{e}");
    let e = err("procedure {:entrypoint} {:entrypoint} p() { }");
    assert_eq!(e.message, "duplicate attribute `entrypoint`");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!(
        "procedure p(x: int) {{ assume {}x{}; }}",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    assert!(err(&deep).message.contains("nesting deeper than"));
    let chain = format!(
        "procedure p(x: int) {{ assume {}x > 0; }}",
        "x + ".repeat(5000)
    );
    assert!(err(&chain).message.contains("nested deeper than"));
    let neg = format!(
        "procedure p(x: int) {{ assume {}x > 0; }}",
        "-".repeat(100_000)
    );
    assert!(err(&neg).message.contains("deeper than"));
    let ifs = format!("procedure p() {{ {} }}", "if (true) {".repeat(50_000));
    assert!(err(&ifs).message.contains("deeper than"));
    let fine = format!(
        "procedure p(x: int) {{ assume {}x{} > 0; }}",
        "(".repeat(500),
        ")".repeat(500)
    );
    assert!(parse(&fine).is_ok());
}

#[test]
fn closed_expression_lists() {
    let program = parse(HEADER).unwrap();
    let exprs = parse_exprs(&program, "5, -1, cons(1, nil()), true").unwrap();
    assert_eq!(exprs.len(), 4);
    assert_eq!(exprs[1], Expr::int(-1));
    assert!(parse_exprs(&program, "").unwrap().is_empty());
    assert!(parse_exprs(&program, "1,").is_err());
    assert_eq!(
        parse_exprs(&program, "1 2").unwrap_err().message,
        "expected `,` or end of input, found integer `2`"
    );
    assert_eq!(
        parse_exprs(&program, "g").unwrap(),
        vec![Expr::var(crate::ir::GlobalId(0))]
    );
}

#[test]
fn types_of_parsed_locals() {
    let program =
        parse("datatype D { k() } procedure p(a: D, b: bool) returns (c: int) { }").unwrap();
    let p = &program.procs[crate::ir::ProcId(0)];
    let types: Vec<Type> = p.locals.values().map(|l| l.ty).collect();
    assert_eq!(
        types,
        vec![Type::Data(crate::ir::DatatypeId(0)), Type::Bool, Type::Int]
    );
}

#[test]
fn uninterpreted_sorts_parse_print_and_parse_back() {
    let text = "type T;\ntype type;\ndatatype D { k(f: T) }\nvar m: [T]int;\n\
                procedure {:entrypoint} p(a: T, b: type) returns (c: bool) { c := a == a; }\n";
    let program = parse(text).unwrap();
    let sort = crate::ir::SortId(0);
    assert_eq!(program.sorts[sort].name, "T");
    assert_eq!(program.sorts[crate::ir::SortId(1)].name, "type");
    let p = &program.procs[crate::ir::ProcId(0)];
    let types: Vec<Type> = p.locals.values().map(|l| l.ty).collect();
    assert_eq!(
        types,
        vec![
            Type::Sort(sort),
            Type::Sort(crate::ir::SortId(1)),
            Type::Bool
        ]
    );
    assert!(crate::verify(&program).is_ok());
    assert_eq!(parse(&print(&program)).unwrap(), program);
    let e = err("type T; type T;");
    assert!(e.message.contains("duplicate sort `T`"), "{}", e.message);
    let e = err("procedure p(a: U) { }");
    assert!(e.message.contains("undefined type `U`"), "{}", e.message);
}

#[test]
fn quantifiers_parse_back_over_the_procedures_locals() {
    let text = "type T;\nvar m: [T]int;\n\
                procedure {:entrypoint} {:reads m} p(a: T) {\n  var x: T;\n  var y: int;\n  \
                var forall: int;\n  \
                assume (forall x: T :: m[x] > 0 && (exists y: int :: y == m[x]));\n  \
                assert m[a] > 0 || (forall) > 0;\n}\n";
    let program = parse(text).unwrap();
    assert!(crate::verify(&program).is_ok());
    let printed = print(&program);
    assert!(printed.contains("(forall x: T :: "), "{printed}");
    assert_eq!(parse(&printed).unwrap(), program);
    let e = err("procedure {:entrypoint} p() { assume (forall z: int :: z > 0); }");
    assert!(e.message.contains("`z` is not a local"), "{}", e.message);
    let e = err("procedure {:entrypoint} p() { var z: bool; assume (forall z: int :: z > 0); }");
    assert!(e.message.contains("another type"), "{}", e.message);
}
