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
//! interpretation is kept only when the entry's relation lost no parameter.

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
    let entry_intact = system
        .entry
        .and_then(|entry| system.relations.get(entry.0 as usize))
        .is_some_and(|r| dropped[&r.name].is_empty());
    Some(HornSystem {
        entry: system.entry,
        datatypes: system.datatypes.clone(),
        relations,
        clauses,
        entry_interpretation: system.entry_interpretation.clone().filter(|_| entry_intact),
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
        RelationParam {
            role: role.to_string(),
            sort,
        }
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
