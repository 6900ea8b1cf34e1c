//! Candidate facts relating a procedure's output lists to its input lists, stated over
//! their measures, and the Horn system that assumes the facts found inductive at every
//! call (issue 33: relational facts between input and output lists).
//!
//! Spacer finds "the odd count of `fold_right`'s result is its list's plus its
//! accumulator's" only by chance when the proof also needs facts of the closures and
//! cells around the call (`list_keep_parity.ml`: out of time in every configuration),
//! and at once when that fact is given (0.15–0.4 s). Facts of this shape come from a
//! small family of templates over the measures the relations already carry
//! ([`candidates`]); which of them hold is decided outside Spacer, by Houdini
//! (`engine::proofs::seeded`), clause by clause ([`round_script`]); the system handed to
//! Spacer then assumes them wherever a relation is applied ([`seeded`]).
//!
//! Guarantees:
//! - every fact is guarded by its relation's `active` parameter (and `¬failed` where the
//!   relation has one): it says nothing of calls that are not made or that fail;
//! - [`round_script`] asks, for each clause and each fact of its head's relation, whether
//!   the body — with every fact of the relations it applies assumed — can hold while the
//!   fact fails: one `check-sat` per (clause, fact), in the order of [`Round::checks`];
//!   facts for which every such check is `unsat` are inductive, so they hold of every
//!   tuple of the clauses' least model;
//! - [`seeded`] only adds body conjuncts (facts instantiated at top-level applications of
//!   the relations), so its models conjoined with the facts are models of the original
//!   clauses when the facts are inductive — and the engine re-checks exactly that
//!   conjunction against the original clauses before it believes it.

use super::horn::{Clause, HornSystem, Relation};
use crate::solver::{Sx, parse_reply};
use std::collections::HashMap;

/// The facts of every relation, by its index in [`HornSystem::relations`]: terms over the
/// relation's parameters named `x!0`, `x!1`, … in order.
pub type Facts = Vec<Vec<String>>;

/// The measures templates relate: counts (the length, the odd elements) and the sum.
const RELATED_MEASURES: [&str; 3] = ["len", "odd", "sum"];

/// A measure parameter of a relation: its position, what it measures and of which list.
#[derive(Clone, Debug)]
struct MeasureParam {
    index: usize,
    measure: String,
    list: String,
    input: bool,
}

fn measure_params(relation: &Relation) -> Vec<MeasureParam> {
    relation
        .params
        .iter()
        .enumerate()
        .filter_map(|(index, param)| {
            let (measure, rest) = param.role.split_once('(')?;
            let list = rest.strip_suffix(')')?;
            RELATED_MEASURES.contains(&measure).then(|| MeasureParam {
                index,
                measure: measure.to_string(),
                list: list.to_string(),
                input: (1..=relation.inputs).contains(&index),
            })
        })
        .collect()
}

/// The guard of every fact of `relation`: `x!0` (active), and `¬failed` if the relation
/// has a `failed` parameter.
fn guard(relation: &Relation) -> String {
    match relation.params.last() {
        Some(last) if last.role == "failed" && relation.params.len() > 1 => {
            format!("(and x!0 (not x!{}))", relation.params.len() - 1)
        }
        _ => "x!0".to_string(),
    }
}

/// The candidate facts of each relation: for each output list's measure `m(o)` and the
/// input lists `i`, `j` measured alike, `m(o) = m(i)` and `m(o) = m(i) + m(j)` (a map, a
/// reversal with an accumulator, an append, a fold building a list); for the counts also
/// `m(o) ≤ m(i)` and `m(o) ≤ m(i) + m(j)` (a filter), and, where odd elements are
/// counted, the same of the even ones (`len − odd`); of an output list alone, "every
/// element is odd" and "every element is even". None for the entry, a relation defined
/// as `true`, or one with no output list measured.
pub fn candidates(system: &HornSystem) -> Facts {
    system
        .relations
        .iter()
        .map(|relation| {
            let entry = relation.proc.is_some() && relation.proc == system.entry;
            if entry || relation.defined_true {
                return Vec::new();
            }
            relation_candidates(relation)
        })
        .collect()
}

/// What a template relates: one measure, or the even elements (`len − odd`).
#[derive(Clone, Copy)]
enum Quantity {
    Measure(&'static str),
    Even,
}

impl Quantity {
    /// Whether it counts elements (a filter may only lower it).
    fn counts(self) -> bool {
        !matches!(self, Quantity::Measure("sum"))
    }

    /// Its term for `list` (an input's or an output's), if the relation measures it.
    fn term(self, params: &[MeasureParam], list: &str, input: bool) -> Option<String> {
        let find = |measure: &str| {
            params
                .iter()
                .find(|p| p.list == list && p.measure == measure && p.input == input)
                .map(|p| format!("x!{}", p.index))
        };
        match self {
            Quantity::Measure(measure) => find(measure),
            Quantity::Even => Some(format!("(- {} {})", find("len")?, find("odd")?)),
        }
    }
}

fn relation_candidates(relation: &Relation) -> Vec<String> {
    let params = measure_params(relation);
    let lists = |input: bool| {
        let mut names: Vec<&str> = (params.iter())
            .filter(|p| p.input == input)
            .map(|p| p.list.as_str())
            .collect();
        names.dedup();
        names
    };
    let (inputs, outputs) = (lists(true), lists(false));
    let quantities = RELATED_MEASURES
        .map(Quantity::Measure)
        .into_iter()
        .chain([Quantity::Even]);
    let mut facts = Vec::new();
    for output in &outputs {
        if let (Some(len), Some(odd)) = (
            Quantity::Measure("len").term(&params, output, false),
            Quantity::Measure("odd").term(&params, output, false),
        ) {
            facts.push(format!("(= {odd} {len})"));
            facts.push(format!("(= {odd} 0)"));
        }
        for quantity in quantities.clone() {
            let Some(term) = quantity.term(&params, output, false) else {
                continue;
            };
            let sources: Vec<String> = (inputs.iter())
                .filter_map(|input| quantity.term(&params, input, true))
                .collect();
            for (n, a) in sources.iter().enumerate() {
                facts.push(format!("(= {term} {a})"));
                if quantity.counts() {
                    facts.push(format!("(<= {term} {a})"));
                }
                for b in &sources[n + 1..] {
                    facts.push(format!("(= {term} (+ {a} {b}))"));
                    if quantity.counts() {
                        facts.push(format!("(<= {term} (+ {a} {b}))"));
                    }
                }
            }
        }
    }
    facts.sort();
    facts.dedup();
    let guard = guard(relation);
    facts
        .into_iter()
        .map(|fact| format!("(=> {guard} {fact})"))
        .collect()
}

/// `(let ((x!0 a0) (x!1 a1) …) fact)`: a fact of a relation at an application with
/// arguments `args` (a parallel `let`: an argument named `x!3` is the clause's).
pub fn instance<T: std::fmt::Display>(fact: &str, args: &[T]) -> String {
    let bindings: Vec<String> = args
        .iter()
        .enumerate()
        .map(|(i, arg)| format!("(x!{i} {arg})"))
        .collect();
    format!("(let ({}) {fact})", bindings.join(" "))
}

/// The index of the relation `sx` applies and its arguments, if `sx` is an application.
fn application<'a>(sx: &'a Sx, by_name: &HashMap<&str, usize>) -> Option<(usize, &'a [Sx])> {
    let items = sx.list()?;
    // Printed, an atom gets back the bars a quoted symbol (`|Main.for#18!rel|`) had.
    let index = *by_name.get(items.first()?.to_string().as_str())?;
    Some((index, &items[1..]))
}

fn by_name(system: &HornSystem) -> HashMap<&str, usize> {
    (system.relations.iter().enumerate())
        .map(|(i, r)| (r.name.as_str(), i))
        .collect()
}

/// The facts of the relations `clause` applies at the top level of its body, instantiated;
/// `None` if a part of the clause does not parse.
fn body_facts(clause: &Clause, facts: &Facts, names: &HashMap<&str, usize>) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for item in &clause.body {
        let sx = parse_reply(item).ok()?;
        if let Some((index, args)) = application(&sx, names) {
            out.extend(facts[index].iter().map(|fact| instance(fact, args)));
        }
    }
    Some(out)
}

/// `system` with the facts of every relation assumed at each top-level application of it
/// in a clause body; `None` if a clause does not parse or no relation has a fact.
pub fn seeded(system: &HornSystem, facts: &Facts) -> Option<HornSystem> {
    if facts.iter().all(Vec::is_empty) {
        return None;
    }
    let names = by_name(system);
    let clauses = system
        .clauses
        .iter()
        .map(|clause| {
            let mut body = clause.body.clone();
            body.extend(body_facts(clause, facts, &names)?);
            Some(Clause {
                body,
                ..clause.clone()
            })
        })
        .collect::<Option<Vec<Clause>>>()?;
    Some(HornSystem {
        clauses,
        ..system.clone()
    })
}

/// One Houdini round: the script and, for each of its `check-sat`s in order, the
/// relation and the index of the fact it asks about.
#[derive(Debug)]
pub struct Round {
    pub script: String,
    pub checks: Vec<(usize, usize)>,
}

/// The checks of one Houdini round over `facts` ([`Round`]): for each clause whose head
/// applies a relation with facts, its body and the facts of the relations its body
/// applies, then each fact of the head's relation negated, in a scope of its own.
/// `None` if a clause does not parse. Relations are declared uninterpreted (defined as
/// `true` where the system defines them so): the checks hold whatever they are.
pub fn round_script(system: &HornSystem, facts: &Facts, check_ms: u64) -> Option<Round> {
    let names = by_name(system);
    let mut script = format!("(set-logic ALL)\n(set-option :timeout {check_ms})\n");
    script.push_str(&super::horn::declare_datatypes(&system.datatypes));
    for relation in &system.relations {
        script.push_str(&relation.introduction());
        script.push('\n');
    }
    let mut checks = Vec::new();
    for clause in &system.clauses {
        let Some(head) = &clause.head else { continue };
        let head = parse_reply(head).ok()?;
        let Some((index, args)) = application(&head, &names) else {
            continue;
        };
        if facts[index].is_empty() {
            continue;
        }
        script.push_str("(push 1)\n");
        for (name, sort) in &clause.vars {
            script.push_str(&format!("(declare-const {name} {})\n", sort.text()));
        }
        for fact in clause
            .body
            .iter()
            .chain(&body_facts(clause, facts, &names)?)
        {
            script.push_str(&format!("(assert {fact})\n"));
        }
        for (n, fact) in facts[index].iter().enumerate() {
            script.push_str(&format!(
                "(push 1)\n(assert (not {}))\n(check-sat)\n(pop 1)\n",
                instance(fact, args)
            ));
            checks.push((index, n));
        }
        script.push_str("(pop 1)\n");
    }
    Some(Round { script, checks })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Sort;
    use crate::vc::horn::RelationParam;

    /// `fold(active, len(l), odd(l), len(acc), odd(acc), len(ret), odd(ret), failed)`.
    fn fold_relation() -> Relation {
        Relation {
            proc: None,
            name: "fold!rel".into(),
            params: vec![
                RelationParam::new("active", Sort::Bool),
                RelationParam::new("len(l)", Sort::Int),
                RelationParam::new("odd(l)", Sort::Int),
                RelationParam::new("len(acc)", Sort::Int),
                RelationParam::new("odd(acc)", Sort::Int),
                RelationParam::new("len(ret)", Sort::Int),
                RelationParam::new("odd(ret)", Sort::Int),
                RelationParam::new("failed", Sort::Bool),
            ],
            inputs: 4,
            defined_true: false,
        }
    }

    #[test]
    fn a_fold_with_an_accumulator_gets_the_sum_of_its_inputs_measures_among_its_candidates() {
        let facts = relation_candidates(&fold_relation());
        let guarded = |f: &str| format!("(=> (and x!0 (not x!7)) {f})");
        assert!(facts.contains(&guarded("(= x!6 (+ x!2 x!4))")), "{facts:?}");
        assert!(facts.contains(&guarded("(= x!5 (+ x!1 x!3))")), "{facts:?}");
        assert!(
            facts.contains(&guarded("(<= (- x!5 x!6) (- x!1 x!2))")),
            "{facts:?}"
        );
        assert!(facts.contains(&guarded("(= x!6 x!5)")), "{facts:?}");
        // Nothing relates an input to itself or an output to another output's list.
        assert!(facts.iter().all(|f| !f.contains("(= x!1 ")), "{facts:?}");
    }

    #[test]
    fn a_relation_without_output_lists_gets_no_candidates() {
        let mut relation = fold_relation();
        relation.params.truncate(5);
        relation.params.push(RelationParam::new("ret", Sort::Int));
        assert!(relation_candidates(&relation).is_empty());
    }

    #[test]
    fn facts_are_assumed_at_body_applications_only() {
        // A quoted name (`#` needs the bars) is recognised where it is applied.
        let relation = Relation {
            name: "|fold#1!rel|".into(),
            ..fold_relation()
        };
        let clause = Clause {
            what: "body of fold".into(),
            vars: vec![("a".into(), Sort::Int)],
            body: vec![
                "(|fold#1!rel| true a 1 0 0 a 1 false)".into(),
                "(> a 0)".into(),
            ],
            head: Some("(|fold#1!rel| true a 1 0 0 a 1 false)".into()),
        };
        let system = HornSystem {
            entry: None,
            datatypes: Vec::new(),
            relations: vec![relation],
            clauses: vec![clause],
            entry_interpretation: None,
        };
        let facts = vec![vec!["(=> x!0 (= x!5 x!1))".to_string()]];
        let seeded = seeded(&system, &facts).expect("seeded");
        let clause = &seeded.clauses[0];
        assert_eq!(clause.body.len(), 3);
        assert!(clause.body[2].starts_with("(let ((x!0 true) (x!1 a)"));
        assert_eq!(clause.head, system.clauses[0].head);
        let round = round_script(&system, &facts, 500).expect("round");
        assert_eq!(round.checks, vec![(0, 0)]);
        assert_eq!(round.script.matches("(check-sat)").count(), 1);
    }
}
