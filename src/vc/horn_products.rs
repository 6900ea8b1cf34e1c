//! Products of two variables and remainders by constants abstracted: a Horn system's
//! clauses with every product of two non-constant terms (`i * k`, `x * x`) replaced by a
//! fresh integer that carries only what multiplication guarantees of it — its sign from
//! its factors', zero when a factor is zero, the other factor when one is one, at least
//! each non-negative factor when the other is positive, and its parity (odd exactly when
//! both factors are odd). A square `x * x` is also non-negative, at least `x` and `-x`,
//! and has `x`'s parity. Every remainder `(mod e c)` by a literal `c` of 3 or more is
//! replaced the same way by a fresh integer in `0 .. c - 1` (remainders by 2 stay exact:
//! parities are what proofs most often need of them, and Spacer reasons with them).
//!
//! Why: Spacer gives up on nonlinear clauses (`unknown` at once) or spends its time on
//! them, while the facts a safe program needs of a product are most often these linear
//! ones: `x * x + 2 k` is even when `x` is (`list_parity_square_map.ml`: `unknown` on the
//! exact measures-only clauses, solved in 1 s on these), and a reversal of a list of
//! elements `i * k - 3` keeps the list's length and sum whatever the elements are
//! (`list_rev_acc_len_sum.ml`: no answer within 60 s, solved in 6 s). Where a proof
//! needs a product's value, the abstraction has a spurious counterexample (Spacer answers
//! `unsat`, which no one reads as a bug): the exact system still runs beside it. The same
//! for remainders: list elements made up as `(i * 5) mod 11` leave Spacer without an
//! answer for a minute on the clauses with the least and greatest elements of
//! `exn_list_threshold.ml`, solved in 2–9 s once the remainders are only `0 .. 10`.
//!
//! Guarantee (why a model of these clauses is a proof of the program): every fact added
//! to a clause holds of the product or remainder it stands for, for all integers
//! (SMT-LIB's `mod` is Euclidean: `mod p 2` is 0 or 1 for negative `p` too, and `mod e c`
//! is in `0 .. c - 1` for every `e`). So the body of each clause,
//! with the fresh integer set to the product, holds whenever the exact body does: every
//! derivation of the exact clauses is one of these, and if the program can fail the goal
//! is derivable here too. A model of these clauses, re-checked clause by clause (now
//! linear), therefore means no failure. Products under a binder (`let`, a quantifier)
//! are not lifted: a system with such a clause gets no abstraction.

use super::horn::{Clause, HornSystem};
use crate::solver::{Sort, Sx, parse_reply as parse_sx};
use std::collections::{HashMap, HashSet};

/// The system with every product of two non-constant terms and every remainder by a
/// literal of 3 or more abstracted; `None` when it has none (or a clause does not parse,
/// or binds variables).
pub fn products_abstracted(system: &HornSystem) -> Option<HornSystem> {
    let mut abstracted_any = false;
    let clauses = system
        .clauses
        .iter()
        .map(|clause| {
            let (clause, changed) = abstract_clause(clause)?;
            abstracted_any |= changed;
            Some(clause)
        })
        .collect::<Option<Vec<Clause>>>()?;
    abstracted_any.then(|| HornSystem {
        clauses,
        ..system.clone()
    })
}

/// Fresh integers for the products of one clause, named apart from its variables; one
/// per product, however often the clause writes it (`i * k` and `k * i` alike), so the
/// clause still knows the two are equal.
struct Products {
    taken: HashSet<String>,
    next: usize,
    fresh: Vec<String>,
    facts: Vec<Sx>,
    /// The fresh integer of each product, by its factors' text in order (of each
    /// remainder, by its dividend's text and `mod`).
    made: HashMap<(String, String), Sx>,
}

impl Products {
    fn fresh_name(&mut self, kind: &str) -> String {
        loop {
            self.next += 1;
            let name = format!("{kind}!{}", self.next);
            if self.taken.insert(name.clone()) {
                self.fresh.push(name.clone());
                return name;
            }
        }
    }

    /// The fresh integer standing for `a * b`, with its facts recorded when it is new.
    fn product(&mut self, a: Sx, b: Sx) -> Sx {
        let (a_text, b_text) = (a.to_string(), b.to_string());
        let key = match a_text <= b_text {
            true => (a_text, b_text),
            false => (b_text, a_text),
        };
        self.made_once(key, "product", |p| product_facts(p, &a, &b))
    }

    /// The fresh integer standing for `(mod e c)`, with its facts recorded when it is new.
    fn remainder(&mut self, e: Sx, c: u64) -> Sx {
        let key = (e.to_string(), format!("mod {c}"));
        self.made_once(key, "remainder", |r| remainder_facts(r, c))
    }

    /// The fresh integer made for `key`, or a new one named after `kind` with `facts` of
    /// it recorded.
    fn made_once(
        &mut self,
        key: (String, String),
        kind: &str,
        facts: impl FnOnce(&Sx) -> Vec<Sx>,
    ) -> Sx {
        if let Some(made) = self.made.get(&key) {
            return made.clone();
        }
        let fresh = Sx::Atom(self.fresh_name(kind));
        self.facts.extend(facts(&fresh));
        self.made.insert(key, fresh.clone());
        fresh
    }
}

/// The least literal divisor whose remainders are abstracted.
const LEAST_ABSTRACTED_MODULUS: u64 = 3;

/// The divisor of `(mod e c)` when it is a literal the abstraction covers.
fn abstracted_modulus(items: &[Sx]) -> Option<u64> {
    match items {
        [head, _, Sx::Atom(c)] if head.is_atom("mod") => c
            .parse::<u64>()
            .ok()
            .filter(|c| *c >= LEAST_ABSTRACTED_MODULUS),
        _ => None,
    }
}

/// `clause` with its products abstracted, and whether it had any; `None` if a part of it
/// does not parse or binds variables.
fn abstract_clause(clause: &Clause) -> Option<(Clause, bool)> {
    let mut products = Products {
        taken: clause.vars.iter().map(|(name, _)| name.clone()).collect(),
        next: 0,
        fresh: Vec::new(),
        facts: Vec::new(),
        made: HashMap::new(),
    };
    let mut rewrite = |text: &String| -> Option<String> {
        let sx = parse_sx(text).ok()?;
        if binds(&sx) {
            return None;
        }
        Some(abstract_term(sx, &mut products).to_string())
    };
    let mut body: Vec<String> = clause
        .body
        .iter()
        .map(&mut rewrite)
        .collect::<Option<_>>()?;
    let head = match &clause.head {
        Some(head) => Some(rewrite(head)?),
        None => None,
    };
    if products.fresh.is_empty() {
        return Some((clause.clone(), false));
    }
    let mut vars = clause.vars.clone();
    vars.extend(products.fresh.iter().map(|name| (name.clone(), Sort::Int)));
    body.extend(products.facts.iter().map(Sx::to_string));
    let abstracted = Clause {
        what: clause.what.clone(),
        vars,
        body,
        head,
    };
    Some((abstracted, true))
}

/// Whether `sx` has a binder anywhere (`let`, `forall`, `exists`, `lambda`).
fn binds(sx: &Sx) -> bool {
    stacker::maybe_grow(32 * 1024, 1024 * 1024, || match sx {
        Sx::List(items) => {
            let binder = items
                .first()
                .and_then(Sx::atom)
                .is_some_and(|head| matches!(head, "let" | "forall" | "exists" | "lambda"));
            binder || items.iter().any(binds)
        }
        _ => false,
    })
}

fn is_numeral(sx: &Sx) -> bool {
    match sx {
        Sx::Atom(a) => a.bytes().all(|b| b.is_ascii_digit()) && !a.is_empty(),
        // `(- 3)`
        Sx::List(items) => {
            matches!(items.as_slice(), [minus, n] if minus.is_atom("-") && is_numeral(n))
        }
        Sx::Str(_) => false,
    }
}

/// `sx` with its products of two non-constant terms and its remainders by literals of 3 or
/// more replaced, innermost first.
fn abstract_term(sx: Sx, products: &mut Products) -> Sx {
    stacker::maybe_grow(32 * 1024, 1024 * 1024, || match sx {
        Sx::List(items) => {
            let is_product = items.first().is_some_and(|head| head.is_atom("*"));
            let modulus = abstracted_modulus(&items);
            let mut items: Vec<Sx> = items
                .into_iter()
                .map(|item| abstract_term(item, products))
                .collect();
            if let Some(c) = modulus {
                return products.remainder(items.swap_remove(1), c);
            }
            if !is_product {
                return Sx::List(items);
            }
            let (constants, mut factors): (Vec<Sx>, Vec<Sx>) =
                items.into_iter().skip(1).partition(is_numeral);
            if factors.len() < 2 {
                let mut items = vec![Sx::Atom("*".to_string())];
                items.extend(constants);
                items.extend(factors);
                return Sx::List(items);
            }
            let first = factors.remove(0);
            let product = factors
                .into_iter()
                .fold(first, |acc, factor| products.product(acc, factor));
            if constants.is_empty() {
                product
            } else {
                let mut items = vec![Sx::Atom("*".to_string())];
                items.extend(constants);
                items.push(product);
                Sx::List(items)
            }
        }
        other => other,
    })
}

fn op(name: &str, args: &[&Sx]) -> Sx {
    let mut items = vec![Sx::Atom(name.to_string())];
    items.extend(args.iter().map(|a| (*a).clone()));
    Sx::List(items)
}

fn num(n: i64) -> Sx {
    if n < 0 {
        op("-", &[&Sx::Atom((-n).to_string())])
    } else {
        Sx::Atom(n.to_string())
    }
}

/// What holds of `r = (mod e c)` for every integer `e` (SMT-LIB's Euclidean remainder, `c`
/// positive): `0 <= r < c`. (Also saying `r = e` for `e` in that range made Spacer slower
/// on `exn_list_threshold.ml`'s clauses: 15–19 s instead of 8.5 s.)
fn remainder_facts(r: &Sx, c: u64) -> Vec<Sx> {
    let below = Sx::Atom(c.to_string());
    vec![op(
        "and",
        &[&op("<=", &[&num(0), r]), &op("<", &[r, &below])],
    )]
}

/// What holds of `p = a * b` for all integers `a`, `b` (see the module doc).
fn product_facts(p: &Sx, a: &Sx, b: &Sx) -> Vec<Sx> {
    let (zero, one, two) = (num(0), num(1), num(2));
    let parity = |x: &Sx| op("mod", &[x, &two]);
    let eq = |x: &Sx, y: &Sx| op("=", &[x, y]);
    let ge = |x: &Sx, y: &Sx| op(">=", &[x, y]);
    let le = |x: &Sx, y: &Sx| op("<=", &[x, y]);
    let and = |x: Sx, y: Sx| op("and", &[&x, &y]);
    let or = |x: Sx, y: Sx| op("or", &[&x, &y]);
    let implies = |x: Sx, y: Sx| op("=>", &[&x, &y]);
    if a == b {
        let x = a;
        return vec![
            ge(p, &zero),
            eq(&parity(p), &parity(x)),
            ge(p, x),
            ge(p, &op("-", &[x])),
            implies(eq(x, &zero), eq(p, &zero)),
            implies(or(eq(x, &one), eq(x, &num(-1))), eq(p, &one)),
        ];
    }
    let both_odd = and(eq(&parity(a), &one), eq(&parity(b), &one));
    vec![
        eq(&parity(p), &op("ite", &[&both_odd, &one, &zero])),
        implies(or(eq(a, &zero), eq(b, &zero)), eq(p, &zero)),
        implies(eq(a, &one), eq(p, b)),
        implies(eq(b, &one), eq(p, a)),
        implies(and(ge(a, &zero), ge(b, &zero)), ge(p, &zero)),
        implies(and(le(a, &zero), le(b, &zero)), ge(p, &zero)),
        implies(and(ge(a, &zero), le(b, &zero)), le(p, &zero)),
        implies(and(le(a, &zero), ge(b, &zero)), le(p, &zero)),
        implies(and(ge(a, &one), ge(b, &zero)), ge(p, b)),
        implies(and(ge(b, &one), ge(a, &zero)), ge(p, a)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vc::horn::{Relation, RelationParam};

    fn system(body: &str, head: &str) -> HornSystem {
        HornSystem {
            entry: None,
            datatypes: Vec::new(),
            relations: vec![Relation {
                proc: None,
                name: "r".to_string(),
                params: vec![RelationParam {
                    role: "x".to_string(),
                    sort: Sort::Int,
                }],
                inputs: 1,
                defined_true: false,
            }],
            clauses: vec![Clause {
                what: "body of r".to_string(),
                vars: vec![
                    ("i".to_string(), Sort::Int),
                    ("k".to_string(), Sort::Int),
                    ("product!1".to_string(), Sort::Int),
                ],
                body: vec![body.to_string()],
                head: Some(head.to_string()),
            }],
            entry_interpretation: None,
        }
    }

    #[test]
    fn products_of_two_variables_become_fresh_integers_with_their_facts() {
        let exact = system("(= product!1 (+ (* i k) (* 2 i) (* i i 3)))", "(r (* k i))");
        let abstracted = products_abstracted(&exact).expect("two products");
        let clause = &abstracted.clauses[0];
        // Named apart from the clause's own `product!1`; constants stay exact.
        assert_eq!(
            clause.body[0],
            "(= product!1 (+ product!2 (* 2 i) (* 3 product!3)))"
        );
        // `k * i` is `i * k`: the same fresh integer.
        assert_eq!(clause.head.as_deref(), Some("(r product!2)"));
        let fresh: Vec<&str> = clause.vars[3..].iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(fresh, ["product!2", "product!3"]);
        assert!(clause.vars[3..].iter().all(|(_, s)| *s == Sort::Int));
        // The square's facts, among the others.
        let facts = &clause.body[1..];
        assert!(facts.contains(&"(>= product!3 0)".to_string()));
        assert!(facts.contains(&"(= (mod product!3 2) (mod i 2))".to_string()));
        assert!(facts.contains(&"(=> (or (= i 0) (= k 0)) (= product!2 0))".to_string()));
        // Linear now: no product of two non-constants is left.
        let text = abstracted.script();
        assert!(!text.contains("(* i k)") && !text.contains("(* k i)"));
    }

    #[test]
    fn a_system_without_such_products_or_with_binders_gets_none() {
        assert!(products_abstracted(&system("(= k (* 2 (- 3) i))", "(r k)")).is_none());
        let bound = system("(let ((j (* i k))) (= j 0))", "(r k)");
        assert!(products_abstracted(&bound).is_none());
    }

    #[test]
    fn remainders_by_three_or_more_become_fresh_integers_in_their_range() {
        let exact = system(
            "(= k (+ (mod (* i 5) 11) (mod (* i 5) 11) (mod i 2)))",
            "(r (mod (+ k 1) 3))",
        );
        let abstracted = products_abstracted(&exact).expect("two remainders");
        let clause = &abstracted.clauses[0];
        // One fresh integer per remainder, however often written; `mod 2` stays exact.
        assert_eq!(
            clause.body[0],
            "(= k (+ remainder!1 remainder!1 (mod i 2)))"
        );
        assert_eq!(clause.head.as_deref(), Some("(r remainder!2)"));
        let facts = &clause.body[1..];
        assert!(facts.contains(&"(and (<= 0 remainder!1) (< remainder!1 11))".to_string()));
        assert!(products_abstracted(&system("(= k (mod i 2))", "(r k)")).is_none());
    }

    /// The value of a fact's term with `a`, `b`, `p` bound (the operators facts use).
    fn eval(sx: &Sx, env: &[(&str, i64)]) -> i64 {
        match sx {
            Sx::Atom(a) => a
                .parse()
                .unwrap_or_else(|_| env.iter().find(|(n, _)| n == a).expect("a bound name").1),
            Sx::List(items) => {
                let op = items[0].atom().expect("an operator");
                let args: Vec<i64> = items[1..].iter().map(|x| eval(x, env)).collect();
                let truth = |b: bool| i64::from(b);
                match (op, args.as_slice()) {
                    ("-", [x]) => -x,
                    ("mod", [x, y]) => x.rem_euclid(*y),
                    ("=", [x, y]) => truth(x == y),
                    (">=", [x, y]) => truth(x >= y),
                    ("<", [x, y]) => truth(x < y),
                    ("<=", [x, y]) => truth(x <= y),
                    ("and", xs) => truth(xs.iter().all(|x| *x != 0)),
                    ("or", xs) => truth(xs.iter().any(|x| *x != 0)),
                    ("=>", [x, y]) => truth(*x == 0 || *y != 0),
                    ("ite", [c, x, y]) => {
                        if *c != 0 {
                            *x
                        } else {
                            *y
                        }
                    }
                    _ => panic!("an operator facts do not use: {sx}"),
                }
            }
            Sx::Str(_) => panic!("a string in a fact"),
        }
    }

    /// Every fact holds of the product it stands for: on every pair of factors in
    /// -12..=12, and, for every fact but the parities, for all integers (z3's nonlinear
    /// arithmetic does not decide those within a minute: they are left to the grid).
    #[test]
    fn the_facts_hold_of_every_product() {
        let (a, b, p) = (
            Sx::Atom("a".into()),
            Sx::Atom("b".into()),
            Sx::Atom("p".into()),
        );
        let facts = [product_facts(&p, &a, &b), product_facts(&p, &a, &a)];
        for x in -12i64..=12 {
            for y in -12i64..=12 {
                for (facts, y) in [(&facts[0], y), (&facts[1], x)] {
                    let env = [("a", x), ("b", y), ("p", x * y)];
                    for fact in facts {
                        assert_eq!(eval(fact, &env), 1, "{fact} with a = {x}, b = {y}");
                    }
                }
            }
        }
        let mut decided = 0;
        for (facts, product) in [(&facts[0], "(* a b)"), (&facts[1], "(* a a)")] {
            for fact in facts.iter().filter(|f| !f.to_string().contains("(mod ")) {
                let script = format!(
                    "(declare-const a Int)(declare-const b Int)(declare-const p Int)\
                     (assert (= p {product}))(assert (not {fact}))(check-sat)"
                );
                assert_z3_refutes(&script);
                decided += 1;
            }
        }
        assert_eq!(decided, facts[0].len() - 1 + facts[1].len() - 1);
    }

    /// z3 answers `script`'s one `check-sat` with `unsat` within a minute.
    fn assert_z3_refutes(script: &str) {
        use crate::solver::ScriptOutcome;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let never = std::sync::atomic::AtomicBool::new(false);
        match crate::solver::run_to_end(script, (deadline, None), false, &never) {
            Some(ScriptOutcome::Replies(replies)) => {
                assert_eq!(replies.len(), 1, "{script}");
                assert!(replies[0].is_atom("unsat"), "{}: {script}", replies[0]);
            }
            other => panic!("z3 gave no answer ({other:?}): {script}"),
        }
    }

    /// Every fact of a remainder holds: on every dividend in -40..=40 for the divisors 3,
    /// 7 and 11, and for all integers (linear: z3 decides them).
    #[test]
    fn the_facts_hold_of_every_remainder() {
        let r = Sx::Atom("p".into());
        for c in [3u64, 7, 11] {
            let facts = remainder_facts(&r, c);
            for x in -40i64..=40 {
                let env = [("a", x), ("p", x.rem_euclid(c as i64))];
                for fact in &facts {
                    assert_eq!(eval(fact, &env), 1, "{fact} with a = {x}");
                }
            }
            for fact in &facts {
                let script = format!(
                    "(declare-const a Int)(declare-const p Int)\
                     (assert (= p (mod a {c})))(assert (not {fact}))(check-sat)"
                );
                assert_z3_refutes(&script);
            }
        }
    }
}
