//! Property: the parser never panics (and never overflows the stack) on any input —
//! arbitrary strings, soups of IR tokens, and mangled versions of valid programs — and
//! every error has a position inside the text.

use boogie_like::{Program, parse, parse_exprs, print};
use proptest::prelude::*;

/// Tokens of the IR syntax, plus a few near-misses.
const TOKENS: [&str; 64] = [
    "[",
    "]",
    "datatype",
    "var",
    "procedure",
    "returns",
    "modifies",
    "call",
    "if",
    "then",
    "else",
    "assume",
    "assert",
    "havoc",
    "return",
    "true",
    "false",
    "int",
    "bool",
    "is",
    "{:entrypoint}",
    "{:reads",
    "{:source",
    "{:",
    "(",
    ")",
    "{",
    "}",
    ",",
    ";",
    ":",
    ":=",
    "->",
    "==>",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "+",
    "-",
    "*",
    "!",
    "&&",
    "||",
    "x",
    "f'",
    "main",
    "IntList",
    "nil",
    "cons",
    "head",
    "0",
    "7",
    "123456789012345678901234567890",
    "\\if",
    "//c\n",
    "/*",
    "*/",
    "=",
    "@",
    "\u{e9}",
    "\n",
];

const VALID: &str = "datatype IntList { nil(), cons(head: int, tail: IntList) }
var g: int;
procedure {:entrypoint} {:reads g} main(n: int, l: IntList) returns (r: int)
{
  var x: bool;
  if (l is cons && l->head > n) {
    call {:source 3, 4} r := f(l->tail, -n);
  } else if (!(n == 0)) {
    havoc x;
    assume x ==> n > 0;
  } else {
    r := if n < 0 then -(5) else g * 2;
    return;
  }
  assert {:source 9, 1} r != 7;
}
procedure {:reads g} f(l: IntList, k: int) returns (r: int) { r := k + g; }
";

fn check_parse(text: &str) -> Result<(), TestCaseError> {
    let lines = text.split('\n').count() as u32;
    match parse(text) {
        Ok(program) => {
            let printed = print(&program);
            prop_assert!(
                parse(&printed).is_ok(),
                "printed program does not parse:\n{}",
                printed
            );
        }
        Err(e) => {
            prop_assert!(
                e.line >= 1 && e.line <= lines,
                "line {} outside 1..={}",
                e.line,
                lines
            );
            prop_assert!(e.col >= 1 && !e.message.is_empty());
        }
    }
    let _ = parse_exprs(&Program::new(), text);
    Ok(())
}

fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(&TOKENS[..]), 0..80).prop_map(|t| t.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_never_panic(text in any::<String>()) {
        check_parse(&text)?;
    }

    #[test]
    fn arbitrary_ascii_never_panics(text in "[ -~\n]{0,200}") {
        check_parse(&text)?;
    }

    #[test]
    fn token_soups_never_panic(text in token_soup()) {
        check_parse(&text)?;
    }

    #[test]
    fn mangled_programs_never_panic(cut in 0usize..VALID.len(), len in 0usize..20, insert in prop::sample::select(&TOKENS[..])) {
        let end = (cut + len).min(VALID.len());
        let (cut, end) = (floor_char(VALID, cut), floor_char(VALID, end));
        check_parse(&VALID[..cut])?;
        check_parse(&format!("{}{}", &VALID[..cut], &VALID[end..]))?;
        check_parse(&format!("{} {} {}", &VALID[..cut], insert, &VALID[cut..]))?;
    }
}

fn floor_char(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[test]
fn the_valid_program_is_valid() {
    let program = parse(VALID).unwrap();
    assert_eq!(boogie_like::verify(&program), Ok(()));
    assert_eq!(parse(&print(&program)).unwrap(), program);
}

#[test]
fn pathological_inputs_are_errors() {
    for text in [
        "(".repeat(1_000_000),
        format!("procedure p() {{ {} }}", "if (true) { ".repeat(100_000)),
        format!("procedure p(x: int) {{ x := {}1; }}", "!-".repeat(200_000)),
        format!(
            "procedure p(x: int) {{ x := {}; }}",
            vec!["x"; 100_000].join(" + ")
        ),
        format!("procedure p(x: int) {{ x := x{}; }}", "->f".repeat(100_000)),
        format!(
            "procedure p(x: int) {{ assume {}; }}",
            "x ==> ".repeat(100_000)
        ),
        "/*".repeat(100_000),
    ] {
        assert!(parse(&text).is_err());
    }
}
