//! OCaml's `/` and `mod` by a literal, as the verification conditions encode them
//! (`vc::encode`: Euclidean `div`/`mod` by `|c|` corrected for a negative dividend, and
//! `x mod c = 0` as a divisibility test): for every divisor of both signs and every
//! dividend in -9..=9 the verdict pins the quotient and the remainder to the truncating
//! ones Rust computes (OCaml's and Rust's agree), and a program claiming a remainder off
//! by one is a BUG at that dividend. Needs `z3` on PATH.

use crate::common::{horef_si, temp_program};

const DIVISORS: [i64; 6] = [-7, -3, -2, 2, 3, 5];
const DIVIDENDS: std::ops::RangeInclusive<i64> = -9..=9;

/// `let main x = …` asserting, for each dividend `d`, `x / c` and `x mod c` at `x = d`
/// (the remainder of the one dividend `wrong` claimed one too large), and that the
/// divisibility test agrees with the quotient.
fn program(c: i64, wrong: Option<i64>) -> String {
    let mut text = String::from("let main x =\n");
    for d in DIVIDENDS {
        let r = d % c + i64::from(wrong == Some(d));
        text.push_str(&format!(
            "  if x = ({d}) then assert (x / ({c}) = ({q}) && x mod ({c}) = ({r}));\n",
            q = d / c
        ));
    }
    text.push_str(&format!(
        "  if x mod ({c}) = 0 then assert (x / ({c}) * ({c}) = x)\n  \
         else assert (0 <> x mod ({c}) && x / ({c}) * ({c}) <> x)\n"
    ));
    text
}

fn verdict(text: &str) -> String {
    let file = temp_program(text, ".ml");
    let run = horef_si([
        "verify".as_ref(),
        file.path().as_os_str(),
        "--max-depth".as_ref(),
        "2".as_ref(),
    ]);
    run.assert_no_panic("verify");
    run.stdout
}

#[test]
fn quotients_and_remainders_by_literals_truncate_toward_zero() {
    for c in DIVISORS {
        let text = program(c, None);
        let out = verdict(&text);
        assert!(
            out.starts_with("VERIFIED") || out.starts_with("SAFE"),
            "divisor {c}: the truncating quotients and remainders hold\n{text}\n{out}"
        );
    }
}

#[test]
fn a_remainder_off_by_one_is_a_bug_at_its_dividend() {
    for (c, d) in [(-7, -8), (-3, 4), (-2, -1), (2, -5), (3, 0), (5, 9)] {
        let text = program(c, Some(d));
        let out = verdict(&text);
        assert!(
            out.starts_with("BUG"),
            "divisor {c}, dividend {d}: the wrong remainder fails\n{text}\n{out}"
        );
        assert!(
            out.contains(&format!("inputs: x = {d}\n")),
            "divisor {c}: the failing input is {d}\n{out}"
        );
    }
}
