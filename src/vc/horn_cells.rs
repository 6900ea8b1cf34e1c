//! A Horn system over one distinguished cell of every map: the clauses of another system
//! ([`super::horn`], [`super::horn_contexts`]) with every array-valued relation parameter
//! replaced by its value at an index the relation gains as a parameter, `cell` ("cell
//! morphing": Monniaux and Gonnord, *Cell morphing: from array programs to array-free
//! Horn clauses*, SAS 2016).
//!
//! Why: a loop that fills or updates a map (a Boogie `while` over `a[i]`, a heap of OCaml
//! cells) needs a summary quantified over the map's indices — "for every `j` with
//! `i ≤ j < n`, `a'[j] = 0`" — which Spacer rarely finds. Over one cell the same summary is
//! linear and quantifier-free: `i ≤ cell < n ⇒ a'[cell] = 0`, `¬(i ≤ cell < n) ⇒ a'[cell] =
//! a[cell]`; the free `cell` plays the universal's part.
//!
//! The construction, per clause: the indices the clause reads its maps at (every
//! `select`'s index), and for a head with maps a fresh index `cell!k`, form the clause's
//! index set `J` (a fresh index if it is empty and some application carries a map). Every
//! map term is read at an index of `J` by pushing the read through `store`, `ite` and
//! constant maps down to map variables, each variable's value at the `m`-th index being a
//! fresh variable `v@m`. Then:
//! - the head application gets `cell!k` and its maps read at `cell!k`;
//! - every body application carrying maps is instantiated once per index of `J`, with that
//!   index and its maps read there;
//! - an equation between maps (only where it is asserted, not under a negation or in a
//!   condition) becomes the equations of their reads at every index of `J`;
//! - `(select a j)` becomes the read of `a` at `j`;
//! - reads of one map at two indices of `J` are equal when the indices are
//!   (`J[m] = J[n] ⇒ a@m = a@n`): without it, a procedure's read at its argument `p`
//!   would be unrelated to its head's value at `cell`, even where `cell = p`.
//!
//! Guarantee (why a model of these clauses is a proof): read the new relation
//! `R#(x, k, v)` as `∃ maps. R(x, maps) ∧ maps[k] = v`. Take a derivation of the goal in
//! the original clauses, and for every clause instance in it give each `v@m` the value of
//! its map at the `m`-th index. Every rewritten body fact then holds (a read of a map is its
//! value; an asserted map equation implies the equations of its reads; a map has one value
//! per index), every instance of
//! a body application holds by that reading of `R#` (the application held of the whole
//! maps), and the head holds of every `cell!k`, in particular of any one. So the goal is
//! derivable here too: if the program can fail, these clauses have no model, and a model
//! (re-checked clause by clause like any other) means no failure. The converse does not
//! hold (facts relating two cells of one map are lost): these clauses are a sufficient
//! question, asked beside the exact ones.
//!
//! The system is not built (`None`) when no relation carries a map, when maps have
//! different index sorts or map-valued elements, when a datatype has a map field, when a
//! map appears where this construction cannot read it (a map equation under a negation or
//! in a condition, a map passed to a function other than `select`, `store`, `ite`), or when
//! a clause reads its maps at more than [`MAX_INDICES`] indices.

use super::horn::{Clause, HornSystem, Relation, RelationParam};
use super::smt::unbarred;
use crate::solver::{Sort, Sx, parse_reply as parse_sx};
use std::collections::HashMap;

/// Most indices one clause may read its maps at: every body application carrying maps is
/// repeated once per index, so the clauses grow with it.
pub const MAX_INDICES: usize = 6;

/// The role of the index parameter a relation carrying maps gains.
pub const CELL_ROLE: &str = "cell";

/// Most instances of body applications one clause may get (indices read, to the power of
/// the cells tracked, per application carrying maps).
pub const MAX_INSTANCES: usize = 48;

/// The system over `cells` (1 or 2) distinguished cells per relation application; `None`
/// when it cannot be built (see the module doc) or no relation carries a map. Two cells
/// state facts relating two of them (the sum of two balances kept by a transfer).
pub fn tracked_cells(system: &HornSystem, cells: usize) -> Option<HornSystem> {
    if !(1..=2).contains(&cells) {
        return None;
    }
    let key = index_sort(system)?;
    let mut shapes: HashMap<String, Shape> = HashMap::new();
    let mut relations = Vec::with_capacity(system.relations.len());
    for relation in &system.relations {
        let (morphed, shape) = morph_relation(relation, &key, cells);
        if let Some(shape) = shape {
            shapes.insert(unbarred(&relation.name).to_string(), shape);
        }
        relations.push(morphed);
    }
    let clauses = (system.clauses.iter())
        .map(|c| ClauseCells::new(c, &shapes, &key, cells)?.rewrite())
        .collect::<Option<Vec<Clause>>>()?;
    let entry = (system.relations.iter()).find(|r| r.proc.is_some() && r.proc == system.entry);
    let entry_interpretation = match (&system.entry_interpretation, entry) {
        (Some(text), Some(entry)) => match shapes.get(unbarred(&entry.name)) {
            Some(shape) => {
                let morphed = relations.iter().find(|r| r.name == entry.name)?;
                morph_interpretation(text, shape, cells, morphed)
            }
            None => Some(text.clone()),
        },
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

/// The entry's re-check interpretation ([`HornSystem::entry_interpretation`]:
/// `(define-fun e ((x!0 Bool) …) Bool (=> (and x!0 (= x!i initial) …) (not x!n)))`) over
/// the cells: a map's premise `(= x!i ((as const …) v))` becomes `v` at each of its cells
/// (its value there), the other premises move with their parameters. `None` (no such
/// interpretation: the solver's own is re-checked) for a premise of another form.
fn morph_interpretation(
    text: &str,
    shape: &Shape,
    cells: usize,
    morphed: &Relation,
) -> Option<String> {
    let parsed = parse_sx(text).ok()?;
    let [define, name, _, _, body] = parsed.list()? else {
        return None;
    };
    if !define.is_atom("define-fun") {
        return None;
    }
    let [implies, premises, conclusion] = body.list()? else {
        return None;
    };
    let [not, failed] = conclusion.list()? else {
        return None;
    };
    // Where the original parameter `i` went: its first position in the new relation.
    let moved = |i: usize| -> usize {
        let maps_before = shape.maps[..i.min(shape.maps.len())]
            .iter()
            .filter(|m| **m)
            .count();
        match i < shape.index_at {
            true => i,
            false => i + cells + maps_before * (cells - 1),
        }
    };
    let param = |x: &Sx| -> Option<usize> { x.atom()?.strip_prefix("x!")?.parse().ok() };
    let new = |i: usize| Sx::Atom(format!("x!{i}"));
    let mut premises_over_cells = vec![Sx::Atom("and".into())];
    let premises = match premises.list() {
        Some([and, rest @ ..]) if and.is_atom("and") => rest.to_vec(),
        _ => vec![premises.clone()],
    };
    for premise in &premises {
        if let Some(i) = param(premise) {
            premises_over_cells.push(new(moved(i)));
            continue;
        }
        let [eq, x, value] = premise.list()? else {
            return None;
        };
        let i = param(x)?;
        match shape.maps.get(i)? {
            false => {
                premises_over_cells.push(Sx::List(vec![eq.clone(), new(moved(i)), value.clone()]))
            }
            true => {
                let [constant, v] = value.list()? else {
                    return None;
                };
                if !constant
                    .list()
                    .is_some_and(|c| c.get(1).is_some_and(|a| a.is_atom("const")))
                {
                    return None;
                }
                for c in 0..cells {
                    premises_over_cells.push(Sx::List(vec![
                        eq.clone(),
                        new(moved(i) + c),
                        v.clone(),
                    ]));
                }
            }
        }
    }
    let failed = moved(param(failed)?);
    let params: Vec<(String, Sort)> = (morphed.params.iter().enumerate())
        .map(|(i, p)| (format!("x!{i}"), p.sort.clone()))
        .collect();
    let body = Sx::List(vec![
        implies.clone(),
        Sx::List(premises_over_cells),
        Sx::List(vec![not.clone(), new(failed)]),
    ]);
    Some(format!(
        "(define-fun {name} ({}) Bool {body})",
        super::horn::bindings(&params)
    ))
}

/// The index sort shared by every map of the system; `None` if there is no map, maps
/// differ in index sort or hold maps, or a datatype has a map field.
fn index_sort(system: &HornSystem) -> Option<Sort> {
    let mut key: Option<Sort> = None;
    let mut check = |sort: &Sort| -> Option<()> {
        if let Sort::Array(k, v) = sort {
            if matches!(**k, Sort::Array(..)) || matches!(**v, Sort::Array(..)) {
                return None;
            }
            match &key {
                Some(seen) if seen != &**k => return None,
                _ => key = Some((**k).clone()),
            }
        }
        Some(())
    };
    let params = system.relations.iter().flat_map(|r| &r.params);
    let carried = params.clone().any(|p| matches!(p.sort, Sort::Array(..)));
    for sort in params.map(|p| &p.sort) {
        check(sort)?;
    }
    for (_, sort) in system.clauses.iter().flat_map(|c| &c.vars) {
        check(sort)?;
    }
    carried.then_some(())?;
    let map_field = (system.datatypes.iter())
        .flat_map(|d| &d.ctors)
        .flat_map(|c| &c.fields)
        .any(|f| matches!(f.sort, Sort::Array(..)));
    (!map_field).then_some(())?;
    key
}

/// Where a relation's indices go and which of its parameters are maps.
#[derive(Debug)]
struct Shape {
    /// The position the indices are inserted at (after `active`, if the relation has it).
    index_at: usize,
    /// Per original parameter: whether it is a map.
    maps: Vec<bool>,
}

/// The role of the `n`-th of `cells` indices.
fn cell_role(n: usize, cells: usize) -> String {
    match cells {
        1 => CELL_ROLE.to_string(),
        _ => format!("{CELL_ROLE}{}", n + 1),
    }
}

/// `relation` with its maps read at `cells` new index parameters, and its shape, if it has
/// maps.
fn morph_relation(relation: &Relation, key: &Sort, cells: usize) -> (Relation, Option<Shape>) {
    let maps: Vec<bool> = (relation.params.iter())
        .map(|p| matches!(p.sort, Sort::Array(..)))
        .collect();
    if !maps.contains(&true) {
        return (relation.clone(), None);
    }
    let index_at = usize::from(relation.params.first().is_some_and(|p| p.role == "active"));
    let mut params: Vec<RelationParam> = (relation.params.iter())
        .flat_map(|p| match &p.sort {
            Sort::Array(_, value) => (0..cells)
                .map(|n| RelationParam {
                    role: format!("{}[{}]", p.role, cell_role(n, cells)),
                    sort: (**value).clone(),
                })
                .collect(),
            _ => vec![p.clone()],
        })
        .collect();
    let indices = (0..cells).map(|n| RelationParam {
        role: cell_role(n, cells),
        sort: key.clone(),
    });
    params.splice(index_at..index_at, indices);
    // The inputs follow `active` (or start the relation): each map among them is now
    // `cells` values, and the indices are inputs too.
    let map_inputs = maps[index_at..(index_at + relation.inputs).min(maps.len())]
        .iter()
        .filter(|m| **m)
        .count();
    let morphed = Relation {
        params,
        inputs: relation.inputs + cells + map_inputs * (cells - 1),
        ..relation.clone()
    };
    (morphed, Some(Shape { index_at, maps }))
}

/// Where a formula stands: asserted, under a negation, or in a condition (either).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Position {
    Asserted,
    Negated,
    Either,
}

impl Position {
    fn flipped(self) -> Position {
        match self {
            Position::Asserted => Position::Negated,
            Position::Negated => Position::Asserted,
            Position::Either => Position::Either,
        }
    }
}

/// One clause being rewritten.
struct ClauseCells<'s> {
    clause: &'s Clause,
    shapes: &'s HashMap<String, Shape>,
    key: &'s Sort,
    cells: usize,
    /// The clause's variables by unquoted name.
    sorts: HashMap<String, Sort>,
    facts: Vec<Sx>,
    head: Option<Sx>,
    /// The index set `J`, rewritten (no map left in them); the head's first, when the
    /// head carries maps.
    indices: Vec<Sx>,
    /// (map variable, index position) → its read variable.
    reads: HashMap<(String, usize), Sx>,
    /// Variables added: the index and the reads.
    added: Vec<(String, Sort)>,
}

impl<'s> ClauseCells<'s> {
    fn new(
        clause: &'s Clause,
        shapes: &'s HashMap<String, Shape>,
        key: &'s Sort,
        cells: usize,
    ) -> Option<ClauseCells<'s>> {
        let (facts, head) = clause.parsed()?;
        let sorts = (clause.vars.iter())
            .map(|(name, sort)| (unbarred(name).to_string(), sort.clone()))
            .collect();
        Some(ClauseCells {
            clause,
            shapes,
            key,
            cells,
            sorts,
            facts,
            head,
            indices: Vec::new(),
            reads: HashMap::new(),
            added: Vec::new(),
        })
    }

    fn rewrite(mut self) -> Option<Clause> {
        let head_shape = self.head.as_ref().and_then(|h| self.shape_of(h));
        if head_shape.is_some() {
            for _ in 0..self.cells {
                let index = self.fresh("cell!k", self.key.clone());
                self.indices.push(index);
            }
        }
        let terms: Vec<Sx> = self.facts.iter().chain(&self.head).cloned().collect();
        for term in &terms {
            self.collect_indices(term)?;
        }
        let carries_maps = |s: &Self, t: &Sx| s.shape_of(t).is_some();
        if self.indices.is_empty() && self.facts.iter().any(|f| carries_maps(&self, f)) {
            for _ in 0..self.cells {
                let index = self.fresh("cell!any", self.key.clone());
                self.indices.push(index);
            }
        }
        if self.indices.len() > MAX_INDICES {
            return None;
        }
        // The tuples of indices (positions in `J`) body applications are instantiated at.
        let tuples = tuples(self.indices.len(), self.cells);
        let instances = tuples.len() * self.facts.iter().filter(|f| carries_maps(&self, f)).count();
        if instances > MAX_INSTANCES {
            return None;
        }
        let mut body = Vec::new();
        for fact in std::mem::take(&mut self.facts) {
            match self.shape_of(&fact) {
                Some(shape) => {
                    for at in &tuples {
                        body.push(self.application(&fact, shape, at)?.to_string());
                    }
                }
                None => body.push(self.formula(&fact, Position::Asserted)?.to_string()),
            }
        }
        let head = match self.head.take() {
            None => None,
            Some(head) => Some(match head_shape {
                Some(shape) => {
                    let first: Vec<usize> = (0..self.cells).collect();
                    self.application(&head, shape, &first)?
                }
                None => self.formula(&head, Position::Asserted)?,
            }),
        };
        body.extend(self.consistency().iter().map(Sx::to_string));
        let mut vars: Vec<(String, Sort)> = (self.clause.vars.iter())
            .filter(|(_, sort)| !matches!(sort, Sort::Array(..)))
            .cloned()
            .collect();
        vars.append(&mut self.added);
        Some(Clause {
            what: self.clause.what.clone(),
            vars,
            body,
            head: head.map(|h| h.to_string()),
        })
    }

    /// Reads of one map at equal indices are equal: `J[m] = J[n] ⇒ a@m = a@n` for every map
    /// read at both (a head read at its fresh index and a body read at `p` are one value
    /// when the index is `p`).
    fn consistency(&self) -> Vec<Sx> {
        let mut by_map: Vec<(&String, usize, &Sx)> = (self.reads.iter())
            .map(|((map, at), read)| (map, *at, read))
            .collect();
        by_map.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
        let mut facts = Vec::new();
        for (i, (map, m, read_m)) in by_map.iter().enumerate() {
            for (other, n, read_n) in &by_map[i + 1..] {
                if other != map {
                    break;
                }
                let same_index = Sx::List(vec![
                    Sx::Atom("=".into()),
                    self.indices[*m].clone(),
                    self.indices[*n].clone(),
                ]);
                let same_value = Sx::List(vec![
                    Sx::Atom("=".into()),
                    (*read_m).clone(),
                    (*read_n).clone(),
                ]);
                facts.push(Sx::List(vec![
                    Sx::Atom("=>".into()),
                    same_index,
                    same_value,
                ]));
            }
        }
        facts
    }

    /// The shape of the relation `term` applies, if it is an application carrying maps.
    fn shape_of(&self, term: &Sx) -> Option<&'s Shape> {
        let name = term.list()?.first()?.atom()?;
        self.shapes.get(name)
    }

    fn fresh(&mut self, base: &str, sort: Sort) -> Sx {
        let name = format!("{base}!{}", self.added.len());
        let atom = Sx::Atom(name);
        self.added.push((atom.to_string(), sort));
        atom
    }

    /// The map sort of `term`, if it is a map.
    fn map_sort(&self, term: &Sx) -> Option<Sort> {
        match term {
            Sx::Atom(a) => match self.sorts.get(a.as_str()) {
                Some(sort @ Sort::Array(..)) => Some(sort.clone()),
                _ => None,
            },
            Sx::Str(_) => None,
            Sx::List(items) => match items.as_slice() {
                [op, map, _, _] if op.is_atom("store") => self.map_sort(map),
                [op, _, a, b] if op.is_atom("ite") => self.map_sort(a).or_else(|| self.map_sort(b)),
                [constant, _] => {
                    let parts = constant.list()?;
                    match parts {
                        [as_, c, sort] if as_.is_atom("as") && c.is_atom("const") => {
                            Some(parse_array_sort(sort)?)
                        }
                        _ => None,
                    }
                }
                _ => None,
            },
        }
    }

    /// Adds the (rewritten) index of every `select` in `term` to the index set, inner
    /// ones first.
    fn collect_indices(&mut self, term: &Sx) -> Option<()> {
        let Some(items) = term.list() else {
            return Some(());
        };
        for item in items {
            self.collect_indices(item)?;
        }
        if let [op, _, index] = items
            && op.is_atom("select")
        {
            let index = self.scalar(index)?;
            if !self.indices.contains(&index) {
                self.indices.push(index);
            }
        }
        Some(())
    }

    /// `term`, a formula in `position`, rewritten.
    fn formula(&mut self, term: &Sx, position: Position) -> Option<Sx> {
        let Some(items) = term.list() else {
            return self.scalar(term);
        };
        let op = items.first().and_then(Sx::atom).unwrap_or("");
        let rebuilt = |this: &mut Self, children: &[Sx], positions: &[Position]| {
            let mut out = vec![items[0].clone()];
            for (child, position) in children.iter().zip(positions) {
                out.push(this.formula(child, *position)?);
            }
            Some(Sx::List(out))
        };
        match (op, &items[1..]) {
            ("and" | "or", children) => rebuilt(self, children, &vec![position; children.len()]),
            ("not", [child]) => rebuilt(self, std::slice::from_ref(child), &[position.flipped()]),
            ("=>", [a, b]) => rebuilt(
                self,
                &[a.clone(), b.clone()],
                &[position.flipped(), position],
            ),
            ("=", [a, b]) if self.map_sort(a).is_some() || self.map_sort(b).is_some() => {
                if position != Position::Asserted {
                    return None;
                }
                let mut equations = vec![Sx::Atom("and".into())];
                for at in 0..self.indices.len() {
                    let (a, b) = (self.read(a, at)?, self.read(b, at)?);
                    equations.push(Sx::List(vec![Sx::Atom("=".into()), a, b]));
                }
                Some(match equations.len() {
                    1 => Sx::Atom("true".into()),
                    _ => Sx::List(equations),
                })
            }
            ("ite", [c, a, b]) if self.map_sort(a).is_none() => {
                let c = self.formula(c, Position::Either)?;
                let (a, b) = (self.formula(a, position)?, self.formula(b, position)?);
                Some(Sx::List(vec![items[0].clone(), c, a, b]))
            }
            _ => self.scalar(term),
        }
    }

    /// `term`, a value that is no map (maps may occur inside it only where read), rewritten.
    fn scalar(&mut self, term: &Sx) -> Option<Sx> {
        if self.map_sort(term).is_some() {
            return None;
        }
        let Some(items) = term.list() else {
            return Some(term.clone());
        };
        if let [op, map, index] = items
            && op.is_atom("select")
        {
            let index = self.scalar(index)?;
            let at = self.indices.iter().position(|i| *i == index)?;
            return self.read(map, at);
        }
        // A relation carrying maps applied inside a term: not read.
        let head = items.first().and_then(Sx::atom).unwrap_or("");
        if self.shapes.contains_key(head) {
            return None;
        }
        (items.iter())
            .map(|item| match item {
                Sx::List(_) => self.scalar(item),
                atom => (self.map_sort(atom).is_none()).then(|| atom.clone()),
            })
            .collect::<Option<Vec<Sx>>>()
            .map(Sx::List)
    }

    /// The value of map `term` at the `at`-th index.
    fn read(&mut self, term: &Sx, at: usize) -> Option<Sx> {
        match term {
            Sx::Atom(name) => {
                let Some(Sort::Array(_, value)) = self.sorts.get(name.as_str()).cloned() else {
                    return None;
                };
                if let Some(read) = self.reads.get(&(name.clone(), at)) {
                    return Some(read.clone());
                }
                let read = self.fresh(&format!("{name}@{at}"), *value);
                self.reads.insert((name.clone(), at), read.clone());
                Some(read)
            }
            Sx::Str(_) => None,
            Sx::List(items) => match items.as_slice() {
                [op, map, index, value] if op.is_atom("store") => {
                    let index = self.scalar(index)?;
                    let value = self.scalar(value)?;
                    let rest = self.read(map, at)?;
                    let here =
                        Sx::List(vec![Sx::Atom("=".into()), index, self.indices[at].clone()]);
                    Some(Sx::List(vec![Sx::Atom("ite".into()), here, value, rest]))
                }
                [op, c, a, b] if op.is_atom("ite") => {
                    let c = self.formula(c, Position::Either)?;
                    let (a, b) = (self.read(a, at)?, self.read(b, at)?);
                    Some(Sx::List(vec![op.clone(), c, a, b]))
                }
                [_, value] if self.map_sort(term).is_some() => self.scalar(value),
                _ => None,
            },
        }
    }

    /// The application `term` of a relation of `shape` at the indices at positions `at`.
    fn application(&mut self, term: &Sx, shape: &Shape, at: &[usize]) -> Option<Sx> {
        let items = term.list()?;
        let (name, args) = items.split_first()?;
        if args.len() != shape.maps.len() {
            return None;
        }
        let mut out = vec![name.clone()];
        for (i, (arg, is_map)) in args.iter().zip(&shape.maps).enumerate() {
            if i == shape.index_at {
                for &position in at {
                    out.push(self.indices.get(position)?.clone());
                }
            }
            match is_map {
                true => {
                    for &position in at {
                        out.push(self.read(arg, position)?);
                    }
                }
                false => out.push(self.formula(arg, Position::Either)?),
            }
        }
        if shape.index_at == args.len() {
            for &position in at {
                out.push(self.indices.get(position)?.clone());
            }
        }
        Some(Sx::List(out))
    }
}

/// Every `cells`-tuple of positions below `count` (`count ^ cells` of them).
fn tuples(count: usize, cells: usize) -> Vec<Vec<usize>> {
    let mut tuples = vec![Vec::new()];
    for _ in 0..cells {
        tuples = (tuples.into_iter())
            .flat_map(|t| {
                (0..count).map(move |i| {
                    let mut t = t.clone();
                    t.push(i);
                    t
                })
            })
            .collect();
    }
    tuples
}

/// `(Array K V)` as a sort.
fn parse_array_sort(sort: &Sx) -> Option<Sort> {
    let parse = |s: &Sx| -> Option<Sort> {
        match s.atom() {
            Some("Int") => Some(Sort::Int),
            Some("Bool") => Some(Sort::Bool),
            Some(name) => Some(Sort::datatype(name)),
            None => parse_array_sort(s),
        }
    };
    match sort.list()? {
        [array, k, v] if array.is_atom("Array") => {
            Some(Sort::Array(Box::new(parse(k)?), Box::new(parse(v)?)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(role: &str, sort: Sort) -> RelationParam {
        RelationParam {
            role: role.into(),
            sort,
        }
    }

    fn map() -> Sort {
        Sort::Array(Box::new(Sort::Int), Box::new(Sort::Int))
    }

    fn clause(what: &str, vars: &[(&str, Sort)], body: &[&str], head: Option<&str>) -> Clause {
        Clause {
            what: what.into(),
            vars: vars
                .iter()
                .map(|(n, s)| (n.to_string(), s.clone()))
                .collect(),
            body: body.iter().map(|b| b.to_string()).collect(),
            head: head.map(str::to_string),
        }
    }

    /// `fill(i, a) → a'` sets `a[i] := 0` and recurses; the goal reads `a'[k]`.
    fn system(goal_fact: &str) -> HornSystem {
        let fill = Relation {
            proc: None,
            name: "fill!rel".into(),
            params: vec![
                param("active", Sort::Bool),
                param("i", Sort::Int),
                param("a", map()),
                param("a'", map()),
            ],
            inputs: 2,
            defined_true: false,
        };
        HornSystem {
            entry: None,
            datatypes: Vec::new(),
            relations: vec![fill],
            clauses: vec![
                clause(
                    "body of fill",
                    &[("i", Sort::Int), ("a", map()), ("b", map()), ("r", map())],
                    &[
                        "(=> (< i 10) (= b (store a i 0)))",
                        "(fill!rel (< i 10) (+ i 1) b r)",
                    ],
                    Some("(fill!rel true i a (ite (< i 10) r a))"),
                ),
                clause(
                    "goal",
                    &[("k", Sort::Int), ("a", map()), ("r", map())],
                    &["(fill!rel true 0 a r)", goal_fact],
                    None,
                ),
            ],
            entry_interpretation: None,
        }
    }

    #[test]
    fn maps_are_read_at_the_head_index_and_at_every_index_read() {
        let cells = tracked_cells(&system("(not (= (select r k) 0))"), 1).expect("built");
        let fill = &cells.relations[0];
        let roles: Vec<&str> = fill.params.iter().map(|p| p.role.as_str()).collect();
        assert_eq!(roles, ["active", "cell", "i", "a[cell]", "a'[cell]"]);
        assert_eq!(fill.inputs, 3);
        assert!(
            fill.params
                .iter()
                .all(|p| !matches!(p.sort, Sort::Array(..)))
        );
        let body = &cells.clauses[0];
        // The store read at the head's index; the recursive call at that index too.
        assert_eq!(
            body.body,
            [
                "(=> (< i 10) (and (= b@0!1 (ite (= i cell!k!0) 0 a@0!2))))",
                "(fill!rel (< i 10) cell!k!0 (+ i 1) b@0!1 r@0!3)"
            ]
        );
        assert_eq!(
            body.head.as_deref(),
            Some("(fill!rel true cell!k!0 i a@0!2 (ite (< i 10) r@0!3 a@0!2))")
        );
        // The goal reads `r` at `k`: the call is instantiated there.
        let goal = &cells.clauses[1];
        assert_eq!(
            goal.body,
            ["(fill!rel true k 0 a@0!0 r@0!1)", "(not (= r@0!1 0))"]
        );
        assert!(goal.vars.iter().all(|(_, s)| !matches!(s, Sort::Array(..))));
    }

    #[test]
    fn two_cells_read_every_map_at_both_and_instantiate_calls_at_every_pair() {
        let cells = tracked_cells(&system("(not (= (select r k) 0))"), 2).expect("built");
        let fill = &cells.relations[0];
        let roles: Vec<&str> = fill.params.iter().map(|p| p.role.as_str()).collect();
        assert_eq!(
            roles,
            [
                "active",
                "cell1",
                "cell2",
                "i",
                "a[cell1]",
                "a[cell2]",
                "a'[cell1]",
                "a'[cell2]"
            ]
        );
        assert_eq!(fill.inputs, 5);
        // The recursive call, at each of the 2 × 2 pairs of the head's two indices.
        let body = &cells.clauses[0];
        let calls = body.body.iter().filter(|f| f.starts_with("(fill!rel"));
        assert_eq!(calls.count(), 4);
        // The goal reads `r` at `k` only, beside the two fresh indices no read names.
        let goal = &cells.clauses[1];
        assert_eq!(
            goal.body
                .iter()
                .filter(|f| f.starts_with("(fill!rel"))
                .count(),
            1
        );
        assert!(
            goal.body[0].starts_with("(fill!rel true k k 0"),
            "{:?}",
            goal.body
        );
    }

    #[test]
    fn reads_of_one_map_at_equal_indices_are_equal() {
        let cells = tracked_cells(&system("(not (= (select r k) 0))"), 1).expect("built");
        // `a` is read at the head's index and, through the store, nowhere else; `b`, `r`
        // likewise: one read each, no consistency fact. The goal reads `r` at `k` once.
        assert!(
            cells.clauses[0]
                .body
                .iter()
                .all(|f| !f.starts_with("(=> (= cell!k"))
        );
        let read_twice = system("(not (= (select r k) (select r (+ k 1))))");
        let cells = tracked_cells(&read_twice, 1).expect("built");
        let goal = &cells.clauses[1];
        assert!(
            goal.body
                .contains(&"(=> (= k (+ k 1)) (= r@0!1 r@1!3))".to_string()),
            "{:?}",
            goal.body
        );
    }

    #[test]
    fn a_map_equation_that_is_not_asserted_is_not_read() {
        // Under a negation, the equations of the reads would say less than the original.
        assert!(tracked_cells(&system("(not (= r a))"), 1).is_none());
        // In a condition alike.
        assert!(tracked_cells(&system("(ite (= r a) false true)"), 1).is_none());
    }

    #[test]
    fn a_system_without_maps_is_not_rebuilt() {
        let mut without = system("(not (= (select r k) 0))");
        without.relations[0].params.truncate(2);
        without.clauses.clear();
        assert!(tracked_cells(&without, 1).is_none());
    }
}
