//! SMT-LIB formulas made readable: `let`s expanded, constants folded, printed in infix
//! with the usual symbols (`ret ≥ n − 1 ∧ (n ≥ 1 ⇒ ret ≥ 1)`).
//!
//! Guarantee: [`simplify`] keeps the meaning (it only substitutes, expands `let`s and folds
//! Boolean constants); [`render`] is for reading only and is never parsed back.

use crate::solver::Sx;
use std::collections::HashMap;

/// `term` with the atoms of `env` replaced, `let`s expanded and Boolean constants folded.
pub(crate) fn simplify(term: &Sx, env: &HashMap<String, Sx>) -> Sx {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || simplify_inner(term, env))
}

fn simplify_inner(term: &Sx, env: &HashMap<String, Sx>) -> Sx {
    let items = match term {
        Sx::Atom(a) => return env.get(a).cloned().unwrap_or_else(|| term.clone()),
        Sx::Str(_) => return term.clone(),
        Sx::List(items) => items,
    };
    let head = items.first().and_then(Sx::atom).unwrap_or("");
    // (! t :weight 0): the annotation is for the solver only.
    if head == "!" && items.len() >= 2 {
        return simplify(&items[1], env);
    }
    if head == "let" && items.len() == 3 {
        let mut inner = env.clone();
        for binding in items[1].list().unwrap_or(&[]) {
            if let Some([name, value]) = binding.list()
                && let Some(name) = name.atom()
            {
                inner.insert(name.to_string(), simplify(value, env));
            }
        }
        return simplify(&items[2], &inner);
    }
    let args: Vec<Sx> = items[1..].iter().map(|a| simplify(a, env)).collect();
    fold(head, &items[0], args)
}

fn truth(term: &Sx) -> Option<bool> {
    match term.atom() {
        Some("true") => Some(true),
        Some("false") => Some(false),
        _ => None,
    }
}

fn constant(value: bool) -> Sx {
    Sx::Atom(if value { "true" } else { "false" }.into())
}

/// The application of `head` to `args`, with Boolean constants folded.
fn fold(name: &str, head: &Sx, args: Vec<Sx>) -> Sx {
    match name {
        "and" | "or" => {
            let absorbing = name == "or";
            let mut kept = Vec::new();
            for arg in args {
                match truth(&arg) {
                    Some(v) if v == absorbing => return constant(absorbing),
                    Some(_) => {}
                    None => flatten(name, arg, &mut kept),
                }
            }
            match kept.len() {
                0 => constant(!absorbing),
                1 => kept.pop().expect("one element"),
                _ => application(name, kept),
            }
        }
        "not" if args.len() == 1 => match (truth(&args[0]), args[0].list()) {
            (Some(v), _) => constant(!v),
            (None, Some([h, inner])) if h.is_atom("not") => inner.clone(),
            _ => application("not", args),
        },
        "=>" if args.len() == 2 => match (truth(&args[0]), truth(&args[1])) {
            (Some(false), _) | (_, Some(true)) => constant(true),
            (Some(true), _) => args[1].clone(),
            (None, Some(false)) => fold("not", &Sx::Atom("not".into()), vec![args[0].clone()]),
            _ => application("=>", args),
        },
        "ite" if args.len() == 3 => match truth(&args[0]) {
            Some(true) => args[1].clone(),
            Some(false) => args[2].clone(),
            None => application("ite", args),
        },
        _ => {
            let mut items = vec![head.clone()];
            items.extend(args);
            Sx::List(items)
        }
    }
}

fn flatten(name: &str, arg: Sx, into: &mut Vec<Sx>) {
    match arg.list() {
        Some([head, rest @ ..]) if head.is_atom(name) => into.extend(rest.iter().cloned()),
        _ => into.push(arg),
    }
}

fn application(name: &str, args: Vec<Sx>) -> Sx {
    let mut items = vec![Sx::Atom(name.into())];
    items.extend(args);
    Sx::List(items)
}

/// Binding strength, loosest first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Implies,
    Or,
    And,
    Not,
    Compare,
    Sum,
    Product,
    Atom,
}

/// `term` in infix notation.
pub(crate) fn render(term: &Sx) -> String {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || shown(term).0)
}

/// The text of `term` and how tightly it binds.
fn shown(term: &Sx) -> (String, Level) {
    let items = match term {
        Sx::List(items) if !items.is_empty() => items,
        other => return (atom_text(other), Level::Atom),
    };
    let head = items[0].atom().unwrap_or("");
    let args = &items[1..];
    match (head, args.len()) {
        ("and", _) => joined(args, " ∧ ", Level::And),
        ("or", _) => joined(args, " ∨ ", Level::Or),
        ("=>", 2) => infix(&args[0], "⇒", &args[1], Level::Implies),
        ("not", 1) => negation(&args[0]),
        ("=", 2) => infix(&args[0], "=", &args[1], Level::Compare),
        ("distinct", 2) => infix(&args[0], "≠", &args[1], Level::Compare),
        (">=", 2) => infix(&args[0], "≥", &args[1], Level::Compare),
        ("<=", 2) => infix(&args[0], "≤", &args[1], Level::Compare),
        (">", 2) => infix(&args[0], ">", &args[1], Level::Compare),
        ("<", 2) => infix(&args[0], "<", &args[1], Level::Compare),
        ("+", _) => sum(args),
        ("-", 1) => (
            format!("−{}", operand(&args[0], Level::Atom)),
            Level::Product,
        ),
        ("-", 2) => infix(&args[0], "−", &args[1], Level::Sum),
        ("*", _) => joined(args, " · ", Level::Product),
        ("exists" | "forall", 2) => quantified(head, &args[0], &args[1]),
        ("ite", 3) => (
            format!(
                "if {} then {} else {}",
                shown(&args[0]).0,
                shown(&args[1]).0,
                shown(&args[2]).0
            ),
            Level::Implies,
        ),
        _ => (call(items), Level::Atom),
    }
}

/// `∃ x, y. body`.
fn quantified(kind: &str, bound: &Sx, body: &Sx) -> (String, Level) {
    let names: Vec<String> = bound
        .list()
        .unwrap_or(&[])
        .iter()
        .filter_map(|b| b.list()?.first().map(Sx::to_string))
        .collect();
    let symbol = if kind == "exists" { "∃" } else { "∀" };
    let text = format!("{symbol} {}. {}", names.join(", "), shown(body).0);
    (text, Level::Implies)
}

fn atom_text(term: &Sx) -> String {
    match term {
        Sx::Atom(a) if a.starts_with('-') => format!("−{}", &a[1..]),
        // Shown as written (`len(l)`), not as SMT-LIB quotes it (`|len(l)|`).
        Sx::Atom(a) => a.clone(),
        other => other.to_string(),
    }
}

/// `f(a, b)`, or `a is C` for a tester `((_ is C) a)`.
fn call(items: &[Sx]) -> String {
    if let (Some([under, is, ctor]), [_, arg]) = (items[0].list(), items)
        && under.is_atom("_")
        && is.is_atom("is")
    {
        return format!("{} is {ctor}", operand(arg, Level::Atom));
    }
    let args: Vec<String> = items[1..].iter().map(|a| shown(a).0).collect();
    format!("{}({})", items[0], args.join(", "))
}

fn negation(arg: &Sx) -> (String, Level) {
    // ¬(a ≥ b) reads better as a < b.
    if let Some([op, a, b]) = arg.list() {
        let flipped = match op.atom() {
            Some(">=") => Some("<"),
            Some("<=") => Some(">"),
            Some(">") => Some("≤"),
            Some("<") => Some("≥"),
            Some("=") => Some("≠"),
            _ => None,
        };
        if let Some(symbol) = flipped {
            return infix(a, symbol, b, Level::Compare);
        }
    }
    (format!("¬{}", operand(arg, Level::Not)), Level::Not)
}

fn infix(a: &Sx, symbol: &str, b: &Sx, level: Level) -> (String, Level) {
    // Sums and products group to the left (a − b − c); an operand of the same level on
    // the right, and on either side of other operators, is parenthesised (a − (b − c)).
    let left_level = match level {
        Level::Sum | Level::Product => level,
        _ => next(level),
    };
    let left = operand(a, left_level);
    let right = operand(b, next(level));
    (format!("{left} {symbol} {right}"), level)
}

/// `a + b − c`: a term `(* (- 1) c)` or `(* -1 c)` is subtracted.
fn sum(args: &[Sx]) -> (String, Level) {
    let mut text = String::new();
    for (i, arg) in args.iter().enumerate() {
        match negated(arg) {
            Some(term) if i > 0 => {
                text.push_str(" − ");
                text.push_str(&operand(term, Level::Product));
            }
            _ => {
                if i > 0 {
                    text.push_str(" + ");
                }
                text.push_str(&operand(arg, Level::Sum));
            }
        }
    }
    (text, Level::Sum)
}

/// `c` of `(* (- 1) c)` or `(* -1 c)`.
fn negated(term: &Sx) -> Option<&Sx> {
    let [times, coefficient, term] = term.list()? else {
        return None;
    };
    let minus_one = coefficient.is_atom("-1")
        || matches!(coefficient.list(), Some([m, one]) if m.is_atom("-") && one.is_atom("1"));
    (times.is_atom("*") && minus_one).then_some(term)
}

fn joined(args: &[Sx], separator: &str, level: Level) -> (String, Level) {
    let parts: Vec<String> = args.iter().map(|a| operand(a, next(level))).collect();
    (parts.join(separator), level)
}

/// `term`'s text, parenthesised unless it binds at least as tightly as `at_least`.
fn operand(term: &Sx, at_least: Level) -> String {
    let (text, level) = shown(term);
    if level >= at_least {
        text
    } else {
        format!("({text})")
    }
}

fn next(level: Level) -> Level {
    match level {
        Level::Implies => Level::Or,
        Level::Or => Level::And,
        Level::And => Level::Not,
        Level::Not => Level::Compare,
        Level::Compare => Level::Sum,
        Level::Sum => Level::Product,
        Level::Product | Level::Atom => Level::Atom,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Sx;

    fn sx(text: &str) -> Sx {
        crate::solver::parse_sx(text).expect("test input parses")
    }

    fn show(text: &str, env: &[(&str, &str)]) -> String {
        let env = env
            .iter()
            .map(|(k, v)| (k.to_string(), Sx::Atom(v.to_string())))
            .collect();
        render(&simplify(&sx(text), &env))
    }

    #[test]
    fn the_active_flag_folds_away() {
        let text = "(or (not x!0) (>= x!2 (+ (- 1) x!1)))";
        let env = [("x!0", "true"), ("x!1", "n"), ("x!2", "ret")];
        assert_eq!(show(text, &env), "ret ≥ −1 + n");
    }

    #[test]
    fn lets_are_expanded_and_negations_flipped() {
        let text = "(let ((a!1 (<= x 1))) (and (not a!1) (=> (not (= y 0)) (> y x))))";
        assert_eq!(show(text, &[]), "x > 1 ∧ (y ≠ 0 ⇒ y > x)");
    }

    #[test]
    fn sums_and_products_keep_their_parentheses() {
        assert_eq!(show("(* (+ a b) c)", &[]), "(a + b) · c");
        assert_eq!(show("(- a (- b c))", &[]), "a − (b − c)");
        assert_eq!(show("(or (and a b) c)", &[]), "a ∧ b ∨ c");
        assert_eq!(show("(< (+ n (* (- 1) ret)) 2)", &[]), "n − ret < 2");
    }

    #[test]
    fn quantifiers_read_as_such() {
        let text = "(exists ((x!3 Int)) (! (and (> x!3 0) (= r x!3)) :weight 0))";
        assert_eq!(show(text, &[]), "∃ x!3. x!3 > 0 ∧ r = x!3");
    }

    #[test]
    fn testers_and_constructors_read_as_such() {
        assert_eq!(show("((_ is K_f) c)", &[]), "c is K_f");
        assert_eq!(show("(= c (K_g 3))", &[]), "c = K_g(3)");
    }
}
