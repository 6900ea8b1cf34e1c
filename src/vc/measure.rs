//! Length measures for list-like datatypes in Horn clauses ([`super::horn`]).
//!
//! Spacer cannot state a fact such as "the two lists have the same length" over a
//! recursive datatype: its interpretations have no recursive functions. So next to every
//! value of a *list-like* datatype — two constructors, one without fields (`nil`), the other
//! with exactly one field of the datatype itself (`cons(head, tail)`) — the clauses carry a
//! ghost integer, its length, as a relation parameter of its own (`len(l)`, right after the
//! list's). Each clause then also says what is known of lengths:
//! - every list variable `v` of a clause: `v!len ≥ 0` and `is-nil(v) = (v!len = 0)`;
//! - every equation between lists `a = b` (`ret = cons(h, t)`, the `is-C(a) ⇒ a = C(…)`
//!   equations of eliminated selectors, SSA merges) becomes `a = b ∧ len(a) = len(b)`,
//!   where `len(nil) = 0`, `len(cons(h, t)) = 1 + len(t)`, `len(ite(c, a, b)) =
//!   ite(c, len(a), len(b))` and a variable's length is its ghost;
//! - a relation application gets, after each list argument, that argument's length, or a
//!   fresh unconstrained integer where the argument is a term of another shape.
//!
//! Guarantee (why a proof of the measured clauses is a proof of the program): give every
//! ghost the true length of its list. Then every added constraint holds (`a = b` implies
//! equal lengths, so the rewritten equation is equivalent to the original one), and every
//! derivation of the original clauses is a derivation of the measured ones with true
//! lengths filled in. So if the program can fail, the measured goal is derivable too:
//! a model of the measured clauses (re-checked like any other) means no failure.

use crate::solver::Sort;
use boogie_like::ir::{Program as IrProgram, Type as IrType};
use easy_smt::{Context, SExpr};
use std::collections::HashMap;

/// A list-like datatype: its empty and its non-empty constructor, and which field of the
/// latter is the tail.
#[derive(Clone, Debug)]
struct ListShape {
    nil: String,
    cons: String,
    tail: usize,
}

/// The list-like datatypes of a program, by SMT sort name.
#[derive(Clone, Debug, Default)]
pub struct Measures {
    lists: HashMap<String, ListShape>,
}

/// One clause's parts, as [`Measures::measure_clause`] rewrites them.
pub struct ClauseParts<'a> {
    pub vars: &'a mut Vec<(SExpr, Sort)>,
    pub body: &'a mut Vec<SExpr>,
    pub head: &'a mut Option<SExpr>,
}

impl Measures {
    /// Finds the list-like datatypes of `ir`.
    pub fn of(ir: &IrProgram) -> Measures {
        let mut lists = HashMap::new();
        for (id, datatype) in ir.datatypes.iter() {
            let [first, second] = datatype.ctors.as_slice() else {
                continue;
            };
            let (nil, cons) = match (first.fields.is_empty(), second.fields.is_empty()) {
                (true, false) => (first, second),
                (false, true) => (second, first),
                _ => continue,
            };
            let recursive: Vec<usize> = cons
                .fields
                .iter()
                .enumerate()
                .filter(|(_, f)| f.ty == IrType::Data(id))
                .map(|(i, _)| i)
                .collect();
            if let [tail] = recursive.as_slice() {
                lists.insert(
                    datatype.name.clone(),
                    ListShape {
                        nil: nil.name.clone(),
                        cons: cons.name.clone(),
                        tail: *tail,
                    },
                );
            }
        }
        Measures { lists }
    }

    /// Whether `sort` is list-like (its values get a length).
    pub fn measures(&self, sort: &Sort) -> bool {
        matches!(sort, Sort::Datatype(name) if self.lists.contains_key(name))
    }

    /// Where each of the parameters of `sorts` stands once a length follows every
    /// list-like one (index by index).
    pub fn positions(&self, sorts: &[Sort]) -> Vec<usize> {
        let mut lengths_before = 0;
        sorts
            .iter()
            .enumerate()
            .map(|(i, sort)| {
                let position = i + lengths_before;
                lengths_before += usize::from(self.measures(sort));
                position
            })
            .collect()
    }

    /// The sorts of a relation's parameters with a length after each list-like one.
    pub fn extend_sorts(&self, sorts: &[Sort]) -> Vec<Sort> {
        let mut out = Vec::with_capacity(sorts.len());
        for sort in sorts {
            out.push(sort.clone());
            if self.measures(sort) {
                out.push(Sort::Int);
            }
        }
        out
    }

    /// Adds lengths to one clause: ghosts for its list variables, lengths in its list
    /// equations and after the list arguments of its relation applications. `relations`
    /// gives each relation's parameter sorts *before* measuring, by symbol.
    pub fn measure_clause(
        &self,
        terms: &Context,
        relations: &HashMap<String, Vec<Sort>>,
        clause: ClauseParts<'_>,
    ) {
        if self.lists.is_empty() {
            return;
        }
        let mut rewriter = Rewriter {
            measures: self,
            terms,
            relations,
            ghosts: HashMap::new(),
            fresh: Vec::new(),
        };
        let mut facts = Vec::new();
        for (var, sort) in clause.vars.iter() {
            if let Sort::Datatype(name) = sort
                && let Some(shape) = self.lists.get(name)
            {
                let ghost = rewriter.ghost(*var);
                let is_nil = tester(terms, &shape.nil, *var);
                facts.push(terms.gte(ghost, terms.numeral(0)));
                facts.push(terms.eq(is_nil, terms.eq(ghost, terms.numeral(0))));
            }
        }
        let body: Vec<SExpr> = clause.body.iter().map(|t| rewriter.rewrite(*t)).collect();
        let head = clause.head.map(|t| rewriter.rewrite(t));
        clause.body.clear();
        clause.body.extend(facts);
        clause.body.extend(body);
        *clause.head = head;
        let mut ghosts: Vec<(SExpr, SExpr)> = rewriter.ghosts.into_iter().collect();
        ghosts.sort_by_key(|(var, _)| terms.display(*var).to_string());
        clause
            .vars
            .extend(ghosts.into_iter().map(|(_, ghost)| (ghost, Sort::Int)));
        clause
            .vars
            .extend(rewriter.fresh.into_iter().map(|g| (g, Sort::Int)));
    }
}

fn tester(terms: &Context, ctor: &str, value: SExpr) -> SExpr {
    let is = terms.list(vec![terms.atom("_"), terms.atom("is"), terms.atom(ctor)]);
    terms.list(vec![is, value])
}

struct Rewriter<'m, 't> {
    measures: &'m Measures,
    terms: &'t Context,
    relations: &'m HashMap<String, Vec<Sort>>,
    /// List variable → its length's ghost.
    ghosts: HashMap<SExpr, SExpr>,
    /// Unconstrained lengths of arguments whose length is not known.
    fresh: Vec<SExpr>,
}

impl Rewriter<'_, '_> {
    /// The ghost of list variable `var`, made on first use.
    fn ghost(&mut self, var: SExpr) -> SExpr {
        let terms = self.terms;
        *self
            .ghosts
            .entry(var)
            .or_insert_with(|| terms.atom(format!("{}!len", terms.display(var))))
    }

    /// The length of a list-valued term, where its shape tells it.
    fn length(&self, term: SExpr) -> Option<SExpr> {
        let t = self.terms;
        if let Some(ghost) = self.ghosts.get(&term) {
            return Some(*ghost);
        }
        if let Some(name) = t.get_atom(term) {
            return self
                .measures
                .lists
                .values()
                .any(|s| s.nil == name)
                .then(|| t.numeral(0));
        }
        let items = t.get_list(term)?;
        let head = t.get_atom(items[0])?;
        if head == "ite" && items.len() == 4 {
            let (a, b) = (self.length(items[2])?, self.length(items[3])?);
            return Some(t.ite(items[1], a, b));
        }
        let shape = self.measures.lists.values().find(|s| s.cons == head)?;
        let tail = *items.get(1 + shape.tail)?;
        Some(t.plus(t.numeral(1), self.length(tail)?))
    }

    fn rewrite(&mut self, term: SExpr) -> SExpr {
        let t = self.terms;
        let Some(items) = t.get_list(term) else {
            return term;
        };
        let items = items.to_vec();
        let rebuilt: Vec<SExpr> = items.iter().map(|i| self.rewrite(*i)).collect();
        let head = t.get_atom(rebuilt[0]).map(str::to_string);
        match head.as_deref() {
            Some("=") if rebuilt.len() == 3 => {
                let equation = t.list(rebuilt.clone());
                match (self.length(rebuilt[1]), self.length(rebuilt[2])) {
                    (Some(a), Some(b)) => t.and(equation, t.eq(a, b)),
                    _ => equation,
                }
            }
            Some(name) if self.relations.contains_key(name) => {
                let sorts = &self.relations[name];
                let mut out = vec![rebuilt[0]];
                for (arg, sort) in rebuilt[1..].iter().zip(sorts) {
                    out.push(*arg);
                    if self.measures.measures(sort) {
                        let length = self.length(*arg).unwrap_or_else(|| {
                            let ghost = t.atom(format!("unknown!len!{}", self.fresh.len()));
                            self.fresh.push(ghost);
                            ghost
                        });
                        out.push(length);
                    }
                }
                t.list(out)
            }
            _ if rebuilt == items => term,
            _ => t.list(rebuilt),
        }
    }
}
