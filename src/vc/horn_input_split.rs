//! A Horn system's goal asked only for the entry's inputs of one class: a sign, and a
//! parity where the program takes remainders by 2.
//!
//! OCaml's `mod` and `/` round toward zero, so their encoding branches on the sign of the
//! dividend (`x mod 2` is `mod(|x|, 2)` or its negation), and a fact over them takes a
//! disjunction by sign, and by parity for `x mod 2`, that Spacer rarely finds. "Every
//! element of the result has `p`'s parity" (`tests/proofs/list_even_map.ml`) is not
//! proved in a minute as a whole, and each of the four classes of `p` (negative or not,
//! even or odd) in under a second. [`with_input_class`] makes the system of one class:
//! the goal clause gains the class's premise on one integer input of the entry, and so
//! does the entry's body clause when nothing else applies the entry's relation.
//!
//! Guarantee: a model of the system for a class proves that no run of the entry from a
//! value of that input in the class fails (the clauses are the original ones restricted
//! to the calls of the entry the goal asks about: the entry's relation then holds fewer
//! facts, all of them of runs of that class, and the other relations are unchanged);
//! [`InputClass::all`] covers every integer (SMT-LIB's `mod` by 2 is 0 or 1 for each), so
//! models for all its classes prove the program. The entry's re-check interpretation
//! ([`HornSystem::entry_interpretation`], "`active` and initial globals ⇒ not failed")
//! gets the same premise: it is the goal's demand, now only for that class.

use super::horn::{Clause, HornSystem};
use crate::solver::Sort;

/// A class of integers: negative or not, and, if `parity` is set, with that remainder
/// by 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputClass {
    pub negative: bool,
    pub parity: Option<u8>,
}

impl InputClass {
    /// Classes that cover every integer, each once: by sign, and by parity too when
    /// `by_parity`.
    pub fn all(by_parity: bool) -> Vec<InputClass> {
        let parities: &[Option<u8>] = match by_parity {
            true => &[Some(0), Some(1)],
            false => &[None],
        };
        [false, true]
            .into_iter()
            .flat_map(|negative| {
                parities
                    .iter()
                    .map(move |&parity| InputClass { negative, parity })
            })
            .collect()
    }

    /// The class's premise on the integer term `v`, in SMT-LIB.
    pub fn premise(self, v: &str) -> String {
        let sign = match self.negative {
            true => format!("(< {v} 0)"),
            false => format!("(>= {v} 0)"),
        };
        match self.parity {
            Some(r) => format!("(and {sign} (= (mod {v} 2) {r}))"),
            None => sign,
        }
    }

    /// The class for the user: `≥ 0`, `< 0 and odd`.
    pub fn describe(self) -> String {
        let sign = if self.negative { "< 0" } else { "≥ 0" };
        match self.parity {
            Some(0) => format!("{sign} and even"),
            Some(_) => format!("{sign} and odd"),
            None => sign.to_string(),
        }
    }
}

/// `system` with its goal restricted to entry inputs whose `input`-th integer input (in
/// the entry's parameter order) is in `class`; `None` if the goal has no such input or
/// the entry's interpretation is not of the shape [`HornSystem::of`] writes.
pub fn with_input_class(
    system: &HornSystem,
    input: usize,
    class: InputClass,
) -> Option<HornSystem> {
    let goal_index = system.clauses.iter().position(|c| c.head.is_none())?;
    let goal = &system.clauses[goal_index];
    let (var, _) = goal
        .vars
        .iter()
        .filter(|(name, sort)| *sort == Sort::Int && is_input(name))
        .nth(input)?;
    let premise = |v: &str| class.premise(v);
    // The entry's relation and the position in its applications the input fills.
    let (facts, _) = goal.parsed()?;
    let (entry, position) = facts.iter().find_map(|fact| {
        let items = fact.list()?;
        let position = items.iter().position(|item| item.is_atom(var))?;
        Some((items.first()?.atom()?.to_string(), position))
    })?;
    let mut restricted = system.clone();
    if let Some(interpretation) = &system.entry_interpretation {
        let parameter = format!("x!{}", position.checked_sub(1)?);
        let shape = "(=> (and x!0";
        if !interpretation.contains(shape) {
            return None;
        }
        restricted.entry_interpretation =
            Some(interpretation.replacen(shape, &format!("{shape} {}", premise(&parameter)), 1));
    }
    // When no clause but the goal applies the entry's relation, its body clause is asked
    // about that class too: the relation then holds only the calls the goal asks about,
    // and the body's encoding of `mod` and `/` loses the other sign's branch.
    let applications = |clause: &Clause| {
        clause
            .body
            .iter()
            .filter(|fact| fact.contains(entry.as_str()))
            .count()
    };
    let only_goal_applies = (system.clauses.iter().enumerate())
        .all(|(i, clause)| i == goal_index || applications(clause) == 0);
    for clause in restricted.clauses.iter_mut().filter(|_| only_goal_applies) {
        // Only a head that names the entry is parsed.
        let Some(head) = clause.head.as_ref().filter(|h| h.contains(entry.as_str())) else {
            continue;
        };
        let Some(parsed) = crate::solver::parse_reply(head).ok() else {
            continue;
        };
        let Some(items) = parsed.list() else { continue };
        let is_body = items.first().is_some_and(|h| h.is_atom(&entry))
            && items.get(1).is_some_and(|a| a.is_atom("true"));
        if is_body && let Some(argument) = items.get(position) {
            clause.body.push(premise(&argument.to_string()));
        }
    }
    let goal = &mut restricted.clauses[goal_index];
    goal.body.push(premise(var));
    goal.what = format!("{} (inputs with {})", goal.what, premise(var));
    Some(restricted)
}

/// Whether `name` is one of the goal's input variables (`input!7`; not a measure's ghost
/// such as `input!7!len`).
fn is_input(name: &str) -> bool {
    name.strip_prefix("input!")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn system() -> HornSystem {
        let text = "procedure {:entrypoint} Main(p: int, n: int) {\n\
                      assert (p - 2 * n) mod 2 == p mod 2;\n\
                    }\n";
        let ir = boogie_like::parse(text).expect("parses");
        HornSystem::of(&ir).expect("clauses")
    }

    #[test]
    fn the_goal_asks_only_about_inputs_of_one_class() {
        let whole = system();
        let sign = |negative| InputClass {
            negative,
            parity: None,
        };
        let non_negative = with_input_class(&whole, 0, sign(false)).expect("an input p");
        let negative = with_input_class(&whole, 0, sign(true)).expect("an input p");
        let goal = |s: &HornSystem| s.clauses.iter().find(|c| c.head.is_none()).cloned();
        let (before, non_negative_goal, negative_goal) =
            (goal(&whole), goal(&non_negative), goal(&negative));
        let (before, non_negative_goal, negative_goal) = (
            before.unwrap(),
            non_negative_goal.unwrap(),
            negative_goal.unwrap(),
        );
        let p = &before.vars[0].0;
        assert_eq!(non_negative_goal.body.len(), before.body.len() + 1);
        assert_eq!(non_negative_goal.body.last(), Some(&format!("(>= {p} 0)")));
        assert_eq!(negative_goal.body.last(), Some(&format!("(< {p} 0)")));
        // The entry's body clause (nothing else applies the entry) gains the same premise
        // on the entry's parameter; every other clause is the same.
        let body = |s: &HornSystem| {
            s.clauses
                .iter()
                .find(|c| c.what == "body of Main")
                .cloned()
                .expect("a body")
        };
        let (body_before, body_non_negative) = (body(&whole), body(&non_negative));
        assert_eq!(body_non_negative.body.len(), body_before.body.len() + 1);
        assert!(
            body_non_negative
                .body
                .last()
                .is_some_and(|f| f.starts_with("(>= ") && f.ends_with(" 0)"))
        );
        let others = |s: &HornSystem| {
            s.clauses
                .iter()
                .filter(|c| c.head.is_some() && c.what != "body of Main")
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(others(&non_negative), others(&whole));
        // The entry's re-check interpretation demands no failure of that class only.
        let interpretation = non_negative
            .entry_interpretation
            .expect("an entry nothing calls");
        assert!(
            interpretation.contains("(=> (and x!0 (>= x!1 0)"),
            "{interpretation}"
        );
    }

    #[test]
    fn an_input_that_is_not_there_gives_no_system() {
        let class = InputClass::all(false)[0];
        assert!(with_input_class(&system(), 2, class).is_none());
    }

    #[test]
    fn the_classes_cover_every_integer_once() {
        for by_parity in [false, true] {
            let classes = InputClass::all(by_parity);
            assert_eq!(classes.len(), if by_parity { 4 } else { 2 });
            for n in -7i64..=7 {
                let holds = |c: &InputClass| {
                    (n < 0) == c.negative
                        && c.parity.is_none_or(|r| n.rem_euclid(2) == i64::from(r))
                };
                assert_eq!(classes.iter().filter(|c| holds(c)).count(), 1, "{n}");
            }
        }
        let odd_negative = InputClass {
            negative: true,
            parity: Some(1),
        };
        assert_eq!(odd_negative.premise("x"), "(and (< x 0) (= (mod x 2) 1))");
    }
}
