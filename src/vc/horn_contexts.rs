//! A Horn system with calling contexts: the IR's clauses ([`super::horn`]) with one more
//! relation per procedure, `p!ctx(inputs)`, holding the inputs `p` is called with from
//! the entry, and every body clause guarded by it.
//!
//! Why: a procedure's relation in the exact system must describe *every* call, from any
//! inputs, so a loop (a tail-recursive procedure after lowering) needs a summary valid
//! from arbitrary states: for a Boogie goto loop counting its steps, "if it fails then
//! `steps ≠ i`, or `i > n ≥ 0`", which Spacer does not find within a minute. With the
//! contexts, the loop is only asked about the states it is entered in — `steps = i` and
//! `i ≤ n ∨ i = 0`, a forward invariant — and its summary becomes "never fails"; global
//! guidance finds both at once (RESULTS.md, "Calling contexts").
//!
//! The clauses, from those of [`HornSystem::of`] (no unfolding):
//! - **entry** — the goal's facts ⇒ `entry!ctx(inputs, initial globals)`;
//! - **context of a call** — for each relation application `q!rel(b_s, args_s, …)` in the
//!   body clause of `p`: `p!ctx(inputs of p)`, the clause's other facts, the applications
//!   listed before it, and `b_s` ⇒ `q!ctx(args_s)`;
//! - **body** — the exact body clause with `p!ctx(inputs of p)` added to its facts;
//! - **idle** and **goal** — unchanged.
//!
//! Guarantee (why a model of these clauses is a proof): take a failing execution of the
//! entry. Each frame of its call chain is in its procedure's context: the entry's by the
//! entry clause; a callee's by the context clause of its site, whose facts are satisfied
//! by the frame's actual values up to the site and, past it, by the callee's failure (the
//! encoding guards everything after a call by that call's not failing, as the exact body
//! clause already needs to hold of failing runs), and whose applications listed before
//! the site are calls that ran before it and returned (a site not reached has its reach
//! literal false, where the idle clause holds). The calls that returned within the chain
//! ran to their end, so their own sites get their contexts from complete runs. So every
//! body clause the exact system needs to derive the failure has its context fact
//! derivable: the goal is derivable here too, and a model of these clauses (re-checked
//! clause by clause like any other) means no failure. Facts about the procedures that a
//! model gives (the `!rel` relations) hold only of calls in their contexts; they are not
//! used beyond the proof.

use super::horn::{Clause, HornSystem, Relation, application};
use super::smt::unbarred;
use crate::solver::Sx;
use std::collections::HashMap;

/// The system with calling contexts; `None` when it has no goal, or a relation defined
/// `true` (an unfolded system), or a clause of a shape this construction does not know.
pub fn with_call_contexts(system: &HornSystem) -> Option<HornSystem> {
    if !system.has_goal() || system.relations.iter().any(|r| r.defined_true) {
        return None;
    }
    // By the relation's name as printed: its index and its number of inputs.
    let relations: HashMap<String, (usize, usize)> = (system.relations.iter().enumerate())
        .map(|(i, r)| (r.name.clone(), (i, r.inputs)))
        .collect();
    let contexts: Vec<Relation> = system.relations.iter().map(context_relation).collect();
    let context_of = |name: &str, args: &[Sx]| -> Option<String> {
        let &(index, inputs) = relations.get(name)?;
        let inputs: Vec<String> = args.get(1..=inputs)?.iter().map(Sx::to_string).collect();
        Some(application(&contexts[index].name, &inputs))
    };
    // A relation application: the relation's name and the whole application's items.
    let applied = |sx: &Sx| -> Option<(String, Vec<Sx>)> {
        let items = sx.list()?;
        let name = items.first()?.to_string();
        relations
            .contains_key(&name)
            .then(|| (name, items.to_vec()))
    };
    let mut clauses = Vec::new();
    for clause in &system.clauses {
        let (facts, head) = clause.parsed()?;
        let calls: Vec<Option<(String, Vec<Sx>)>> = facts.iter().map(applied).collect();
        let others: Vec<String> = (facts.iter().zip(&calls))
            .filter(|(_, call)| call.is_none())
            .map(|(fact, _)| fact.to_string())
            .collect();
        match head.as_ref().map(applied) {
            // The goal: the entry's context is every input it asks about.
            None => {
                let (entry, args) = calls.iter().flatten().next()?;
                clauses.push(Clause {
                    what: "context of the entry".into(),
                    vars: clause.vars.clone(),
                    body: others,
                    head: Some(context_of(entry, &args[1..])?),
                });
                clauses.push(clause.clone());
            }
            Some(Some((_, items))) if items.get(1).is_some_and(|a| a.is_atom("false")) => {
                clauses.push(clause.clone())
            }
            Some(Some((name, items))) if items.get(1).is_some_and(|a| a.is_atom("true")) => {
                let guard = context_of(&name, &items[1..])?;
                let caller = clause.what.strip_prefix("body of ").unwrap_or(&clause.what);
                let mut before = Vec::new();
                for (fact, call) in facts.iter().zip(&calls) {
                    let Some((callee, args)) = call else {
                        continue;
                    };
                    let reach = args.get(1)?.to_string();
                    let mut body = vec![guard.clone()];
                    body.extend(others.iter().cloned());
                    body.extend(before.iter().cloned());
                    body.push(reach);
                    clauses.push(Clause {
                        what: format!("context of a call of {} in {caller}", unbarred(callee)),
                        vars: clause.vars.clone(),
                        body,
                        head: Some(context_of(callee, &args[1..])?),
                    });
                    before.push(fact.to_string());
                }
                let mut body = vec![guard];
                body.extend(clause.body.iter().cloned());
                clauses.push(Clause {
                    body,
                    ..clause.clone()
                });
            }
            _ => return None,
        }
    }
    let mut relations = system.relations.clone();
    relations.extend(contexts);
    Some(HornSystem {
        entry: system.entry,
        datatypes: system.datatypes.clone(),
        relations,
        clauses,
        entry_interpretation: system.entry_interpretation.clone(),
    })
}

/// `p!ctx`: the inputs of `p!rel` (after `active`), in no procedure's name (its facts are
/// no summary of `p`).
fn context_relation(relation: &Relation) -> Relation {
    let base = unbarred(&relation.name);
    let base = base.strip_suffix("!rel").unwrap_or(base);
    Relation {
        proc: None,
        name: super::smt::symbol(&format!("{base}!ctx")),
        params: relation.params[1..=relation.inputs].to_vec(),
        inputs: relation.inputs,
        defined_true: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Sort;
    use crate::vc::horn::RelationParam;

    fn relation(name: &str, inputs: &[&str]) -> Relation {
        let param = |role: &str, sort: Sort| RelationParam {
            role: role.into(),
            sort,
        };
        let mut params = vec![param("active", Sort::Bool)];
        params.extend(inputs.iter().map(|i| param(i, Sort::Int)));
        params.push(param("failed", Sort::Bool));
        Relation {
            proc: None,
            name: name.into(),
            params,
            inputs: inputs.len(),
            defined_true: false,
        }
    }

    fn clause(what: &str, body: &[&str], head: Option<&str>) -> Clause {
        Clause {
            what: what.into(),
            vars: Vec::new(),
            body: body.iter().map(|b| b.to_string()).collect(),
            head: head.map(str::to_string),
        }
    }

    /// `Main(n)` calls `|loop#1|(0)` then `g(n)`; the loop calls itself.
    fn system() -> HornSystem {
        HornSystem {
            entry: None,
            datatypes: Vec::new(),
            relations: vec![
                relation("Main!rel", &["n"]),
                relation("|loop#1!rel|", &["i"]),
                relation("g!rel", &["x"]),
            ],
            clauses: vec![
                clause("idle Main", &[], Some("(Main!rel false n f)")),
                clause(
                    "body of Main",
                    &[
                        "(|loop#1!rel| b1 0 f1)",
                        "(= b2 (not f1))",
                        "(g!rel b2 n f2)",
                    ],
                    Some("(Main!rel true n (or f1 f2))"),
                ),
                clause(
                    "body of loop#1",
                    &["(= b (< i 10))", "(|loop#1!rel| b (+ i 1) f)"],
                    Some("(|loop#1!rel| true i f)"),
                ),
                clause("goal", &["(Main!rel true n true)"], None),
            ],
            entry_interpretation: None,
        }
    }

    #[test]
    fn every_body_is_guarded_by_its_context_and_every_call_gives_one() {
        let with = with_call_contexts(&system()).expect("built");
        let names: Vec<&str> = with.relations.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Main!rel",
                "|loop#1!rel|",
                "g!rel",
                "Main!ctx",
                "|loop#1!ctx|",
                "g!ctx"
            ]
        );
        let find = |what: &str| {
            with.clauses
                .iter()
                .find(|c| c.what == what)
                .unwrap_or_else(|| panic!("no clause `{what}`"))
        };
        assert_eq!(
            find("context of the entry").head.as_deref(),
            Some("(Main!ctx n)")
        );
        // The first call's context knows nothing of the later call ...
        let first = find("context of a call of loop#1!rel in Main");
        assert_eq!(first.head.as_deref(), Some("(|loop#1!ctx| 0)"));
        assert_eq!(first.body, ["(Main!ctx n)", "(= b2 (not f1))", "b1"]);
        // ... the second's includes the first call, which returned before it.
        let second = find("context of a call of g!rel in Main");
        assert_eq!(second.head.as_deref(), Some("(g!ctx n)"));
        assert_eq!(
            second.body,
            [
                "(Main!ctx n)",
                "(= b2 (not f1))",
                "(|loop#1!rel| b1 0 f1)",
                "b2"
            ]
        );
        let body = find("body of loop#1");
        assert_eq!(body.body[0], "(|loop#1!ctx| i)");
        assert_eq!(find("idle Main").body, Vec::<String>::new());
        assert!(with.has_goal());
    }

    #[test]
    fn a_system_without_a_goal_gets_no_contexts() {
        let mut without_goal = system();
        without_goal.clauses.retain(|c| c.head.is_some());
        assert!(with_call_contexts(&without_goal).is_none());
    }
}
