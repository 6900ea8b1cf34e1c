//! A second Horn system for programs with lists: the IR's clauses ([`super::horn`]) with
//! every list-valued relation parameter dropped, and its last element with it, so that the
//! relations speak of lists only through their integer measures ([`super::measure`]:
//! length, and the sum and odd count where the program chose them).
//!
//! Why: Spacer reasons poorly about datatype values carried through relations. Facts that
//! need only the measures — `length (make n) = n`, the sum of a list reversed with an
//! accumulator equal to the input's, every element of a filtered map even — time out on
//! the exact clauses and are solved at once on these (measured: `z3 -T:35` with global
//! guidance). Where a proof needs the list itself (`hd` after a call), the exact system
//! still runs beside this one.
//!
//! Guarantee (why a model of these clauses is a proof of the program): the clauses are
//! the exact ones with some arguments of every relation application projected away. Every
//! clause keeps its variables and its body facts (the list equations with their measures
//! included); only the relation no longer ties the list. So every derivation of the exact
//! clauses, read without those arguments, is a derivation of these: if the program can
//! fail, the goal is derivable here too. A model of these clauses (re-checked clause by
//! clause like any other) therefore means no failure. The entry's re-check
//! interpretation follows the projection ([`projected_entry`]).

use super::horn::{Clause, HornSystem, Relation};
use crate::solver::{Sort, Sx, parse_reply as parse_sx};
use std::collections::HashMap;

/// The system with list-valued parameters (and their last elements) dropped from every
/// relation; `None` when no relation has one.
pub fn measures_only(system: &HornSystem) -> Option<HornSystem> {
    let dropped: HashMap<String, Vec<usize>> = system
        .relations
        .iter()
        .map(|r| (r.name.clone(), dropped_params(r)))
        .collect();
    if dropped.values().all(Vec::is_empty) {
        return None;
    }
    let relations = system
        .relations
        .iter()
        .map(|r| without(r, &dropped[&r.name]))
        .collect();
    let clauses = system
        .clauses
        .iter()
        .map(|c| rewrite_clause(c, &dropped))
        .collect::<Option<Vec<Clause>>>()?;
    let entry_relation = system
        .entry
        .and_then(|entry| system.relations.get(entry.0 as usize));
    let entry_interpretation = match (entry_relation, &system.entry_interpretation) {
        (Some(r), Some(text)) if dropped[&r.name].is_empty() => Some(text.clone()),
        (Some(r), Some(text)) => projected_entry(r, &dropped[&r.name], text),
        _ => None,
    };
    Some(HornSystem {
        entry: system.entry,
        datatypes: system.datatypes.clone(),
        relations,
        clauses,
        entry_interpretation,
    })
}

/// The entry's re-check interpretation (`(define-fun entry!rel (x!0 …) Bool (=> (and x!0
/// (= x!i initial)…) (not failed)))`) for its relation with the `dropped` parameters left
/// out: a premise on a kept parameter is kept (renumbered); one saying a dropped list
/// starts empty (`nil`) becomes "its measures are 0" (every measure of the empty list is
/// 0), on the measures kept right after it; any other premise on a dropped parameter is
/// left out (fewer premises: an interpretation that must hold of more calls). `None` if
/// the text is not of that shape.
///
/// Any interpretation of the entry is sound here: the re-check checks every clause that
/// mentions the entry's relation (its idle, body and goal clauses) with it. Without one,
/// the re-check reads Spacer's, an existential over the entry's body that z3 does not
/// decide (`closure_stack_drain.ml` without its head assertion: a model found in 6 s, its
/// re-check still unanswered after 100 s; 0.04 s with this one).
fn projected_entry(relation: &Relation, dropped: &[usize], text: &str) -> Option<String> {
    let sx = parse_sx(text).ok()?;
    let Sx::List(items) = sx else { return None };
    let [define, name, _, bool_sort, body] = items.as_slice() else {
        return None;
    };
    if !define.is_atom("define-fun") || !bool_sort.is_atom("Bool") {
        return None;
    }
    let Sx::List(implication) = body else {
        return None;
    };
    let [implies, Sx::List(premises), _] = implication.as_slice() else {
        return None;
    };
    if !implies.is_atom("=>") || !premises.first().is_some_and(|p| p.is_atom("and")) {
        return None;
    }
    let kept: Vec<usize> = (0..relation.params.len())
        .filter(|i| !dropped.contains(i))
        .collect();
    let renamed = |old: usize| {
        kept.iter()
            .position(|k| *k == old)
            .map(|n| format!("x!{n}"))
    };
    let index_of = |sx: &Sx| {
        sx.atom()
            .and_then(|a| a.strip_prefix("x!"))
            .and_then(|n| n.parse::<usize>().ok())
    };
    let mut new_premises = Vec::new();
    for premise in &premises[1..] {
        if let Some(old) = index_of(premise) {
            new_premises.push(renamed(old)?);
            continue;
        }
        let Sx::List(eq) = premise else { return None };
        let [equals, param, value] = eq.as_slice() else {
            return None;
        };
        let old = index_of(param).filter(|_| equals.is_atom("="))?;
        match renamed(old) {
            Some(new) => new_premises.push(format!("(= {new} {value})")),
            None if value.is_atom("nil") || value.to_string().starts_with("(as nil") => {
                let measures = (old + 1..relation.params.len()).take_while(|i| {
                    relation.params[*i].sort == Sort::Int && is_measure(&relation.params[*i].role)
                });
                for m in measures {
                    if let Some(new) = renamed(m) {
                        new_premises.push(format!("(= {new} 0)"));
                    }
                }
            }
            None => {}
        }
    }
    let params: Vec<String> = kept
        .iter()
        .enumerate()
        .map(|(n, old)| format!("(x!{n} {})", relation.params[*old].sort.text()))
        .collect();
    Some(format!(
        "(define-fun {name} ({}) Bool (=> (and {}) (not x!{})))",
        params.join(" "),
        new_premises.join(" "),
        kept.len().checked_sub(1)?
    ))
}

/// Whether a relation parameter's role is a list measure (`len(l)`, `sum(l)`, …).
fn is_measure(role: &str) -> bool {
    role.split_once('(').is_some_and(|(measure, _)| {
        !measure.is_empty() && measure.bytes().all(|b| b.is_ascii_lowercase())
    })
}

/// The positions of `relation`'s list values (a datatype parameter followed by its
/// length, `len(…)`) and last elements (`last(…)`).
fn dropped_params(relation: &Relation) -> Vec<usize> {
    let params = &relation.params;
    (0..params.len())
        .filter(|&i| {
            let list = matches!(params[i].sort, Sort::Datatype(_))
                && params
                    .get(i + 1)
                    .is_some_and(|next| next.role.starts_with("len("));
            list || params[i].role.starts_with("last(")
        })
        .collect()
}

fn without(relation: &Relation, dropped: &[usize]) -> Relation {
    let inputs = (1..=relation.inputs)
        .filter(|i| !dropped.contains(i))
        .count();
    Relation {
        proc: relation.proc,
        name: relation.name.clone(),
        params: (relation.params.iter().enumerate())
            .filter(|(i, _)| !dropped.contains(i))
            .map(|(_, p)| p.clone())
            .collect(),
        inputs,
        defined_true: relation.defined_true,
    }
}

/// `clause` with every relation application's dropped arguments left out; `None` if a
/// part of it does not parse (then no such system is built).
fn rewrite_clause(clause: &Clause, dropped: &HashMap<String, Vec<usize>>) -> Option<Clause> {
    let rewrite = |text: &String| -> Option<String> {
        let sx = parse_sx(text).ok()?;
        Some(project(sx, dropped).to_string())
    };
    Some(Clause {
        what: clause.what.clone(),
        vars: clause.vars.clone(),
        body: clause.body.iter().map(rewrite).collect::<Option<_>>()?,
        head: match &clause.head {
            Some(head) => Some(rewrite(head)?),
            None => None,
        },
    })
}

/// `sx` with the dropped arguments of every relation application left out.
fn project(sx: Sx, dropped: &HashMap<String, Vec<usize>>) -> Sx {
    stacker::maybe_grow(32 * 1024, 1024 * 1024, || match sx {
        Sx::List(items) => {
            let gone = items
                .first()
                .map(Sx::to_string)
                .and_then(|head| dropped.get(&head));
            let items = items.into_iter().map(|item| project(item, dropped));
            match gone {
                Some(gone) => Sx::List(
                    items
                        .enumerate()
                        .filter(|(i, _)| *i == 0 || !gone.contains(&(i - 1)))
                        .map(|(_, item)| item)
                        .collect(),
                ),
                None => Sx::List(items.collect()),
            }
        }
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vc::horn::RelationParam;

    fn param(role: &str, sort: Sort) -> RelationParam {
        RelationParam::new(role, sort)
    }

    /// The entry's re-check interpretation follows the projection: "starts empty" becomes
    /// "its length is 0", the other premises are renumbered.
    #[test]
    fn the_entry_interpretation_is_projected_with_its_relation() {
        let list = Sort::Datatype("IntList".to_string());
        let relation = Relation {
            proc: None,
            name: "Main!rel".to_string(),
            params: vec![
                param("active", Sort::Bool),
                param("n", Sort::Int),
                param("items", list.clone()),
                param("len(items)", Sort::Int),
                param("last(items)", Sort::Int),
                param("size", Sort::Int),
                param("failed", Sort::Bool),
            ],
            inputs: 1,
            defined_true: false,
        };
        assert_eq!(dropped_params(&relation), [2, 4]);
        let text = "(define-fun Main!rel ((x!0 Bool) (x!1 Int) (x!2 IntList) (x!3 Int) \
                    (x!4 Int) (x!5 Int) (x!6 Bool)) Bool (=> (and x!0 (= x!2 nil) (= x!5 0)) \
                    (not x!6)))";
        assert_eq!(
            projected_entry(&relation, &[2, 4], text).as_deref(),
            Some(
                "(define-fun Main!rel ((x!0 Bool) (x!1 Int) (x!2 Int) (x!3 Int) (x!4 Bool)) \
                 Bool (=> (and x!0 (= x!2 0) (= x!3 0)) (not x!4)))"
            )
        );
        assert_eq!(projected_entry(&relation, &[2, 4], "(assert true)"), None);
    }

    #[test]
    fn list_values_and_last_elements_leave_relations_and_applications() {
        let list = Sort::Datatype("IntList".to_string());
        let relation = Relation {
            proc: None,
            name: "sum!rel".to_string(),
            params: vec![
                param("active", Sort::Bool),
                param("l", list.clone()),
                param("len(l)", Sort::Int),
                param("last(l)", Sort::Int),
                param("sum(l)", Sort::Int),
                param("ret", Sort::Int),
            ],
            inputs: 4,
            defined_true: false,
        };
        let clause = Clause {
            what: "body of sum".to_string(),
            vars: vec![("l".to_string(), list.clone())],
            body: vec!["(and (= l nil) (sum!rel true l 0 0 0 0))".to_string()],
            head: Some("(sum!rel true l l!len l!last l!sum 0)".to_string()),
        };
        let system = HornSystem {
            entry: None,
            datatypes: Vec::new(),
            relations: vec![relation],
            clauses: vec![clause],
            entry_interpretation: None,
        };
        let projected = measures_only(&system).expect("a list parameter");
        let roles: Vec<&str> = projected.relations[0]
            .params
            .iter()
            .map(|p| p.role.as_str())
            .collect();
        assert_eq!(roles, ["active", "len(l)", "sum(l)", "ret"]);
        assert_eq!(projected.relations[0].inputs, 2);
        let clause = &projected.clauses[0];
        assert_eq!(clause.body, ["(and (= l nil) (sum!rel true 0 0 0))"]);
        assert_eq!(clause.head.as_deref(), Some("(sum!rel true l!len l!sum 0)"));
        // A system without lists has no such second system.
        let mut plain = system.clone();
        plain.relations[0].params.retain(|p| p.sort != list);
        plain.relations[0]
            .params
            .retain(|p| !p.role.starts_with("last("));
        assert!(measures_only(&plain).is_none());
    }
}
