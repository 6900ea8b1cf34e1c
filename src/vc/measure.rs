//! Measures for list-like datatypes in Horn clauses ([`super::horn`]): lengths and last
//! elements, a library chosen from the program, and totals of nested values.
//!
//! Spacer cannot state a fact such as "the two lists have the same length" over a
//! recursive datatype: its interpretations have no recursive functions. So next to every
//! value of a *list-like* datatype — two constructors, one without fields (`nil`), the other
//! with exactly one field of the datatype itself (`cons(head, tail)`) — the clauses carry
//! ghost integers as relation parameters of their own, right after the list's: its length
//! (`len(l)`) and, when the other field is an `Int`, its last element (`last(l)`, `0` for
//! the empty list; `last (range n) == 1` needs it). Each clause then also says what is
//! known of them ([`Measure`]):
//! - every list variable `v` of a clause: `v!len ≥ 0`, `is-nil(v) = (v!len = 0)` and
//!   `is-nil(v) ⇒ v!last = 0`;
//! - every equation between lists `a = b` (`ret = cons(h, t)`, the `is-C(a) ⇒ a = C(…)`
//!   equations of eliminated selectors, SSA merges) becomes `a = b ∧ len(a) = len(b) ∧
//!   last(a) = last(b)`, where `len(nil) = 0`, `len(cons(h, t)) = 1 + len(t)`,
//!   `last(cons(h, t)) = ite(is-nil(t), h, last(t))`, both go through `ite`, and a
//!   variable's measure is its ghost;
//! - a relation application gets, after each list argument, that argument's measures, or
//!   fresh unconstrained integers where the argument is a term of another shape.
//!
//! In a system of its own ([`Library::WithTotals`]), values of datatypes that nest
//! themselves and hold integers (trees of composed closures, lists of closures or
//! records) carry their total ([`Measure::Total`]): the same rewriting, with
//! `total(C(x₁, …, xₙ))` the sum of its `Int` fields and its nested values' totals, and
//! `is-C(v) ⇒ v!total = 0` for a constructor `C` without fields.
//!
//! Guarantee (why a proof of the measured clauses is a proof of the program): give every
//! ghost the true measure of its value (every measure is a function of the value). Then
//! every added constraint holds (`a = b` implies equal measures, so the rewritten equation
//! is equivalent to the original one), and every derivation of the original clauses is a
//! derivation of the measured ones with true measures filled in. So if the program can
//! fail, the measured goal is derivable too: a model of the measured clauses (re-checked
//! like any other) means no failure.

use crate::solver::{Sort, symbol_text};
use boogie_like::ir::{
    BinOp, DatatypeId, Expr, ProcId, Procedure, Program as IrProgram, Stmt, Type as IrType, Var,
    for_each_stmt,
};
use easy_smt::{Context, SExpr};
use std::collections::{HashMap, HashSet};

/// A list-like datatype: its empty and its non-empty constructor (spelled as SMT-LIB
/// symbols, as the clauses print them: `|K_f#init|`), and which field of the latter is
/// the tail.
#[derive(Clone, Debug)]
struct ListShape {
    nil: String,
    cons: String,
    tail: usize,
    /// The element field, when it is the constructor's only other field and an `Int`:
    /// such lists also get a ghost for their last element.
    element: Option<usize>,
    /// The measures a value of this datatype carries, in order ([`Measures::of_sort`]).
    carried: Vec<Measure>,
}

/// The list-like datatypes of a program, by SMT sort name.
#[derive(Clone, Debug, Default)]
pub struct Measures {
    lists: HashMap<String, ListShape>,
    /// The constructors of the datatypes that carry [`Measure::Total`], by SMT symbol:
    /// what each field adds to a value's total (`None`: nothing).
    totals: HashMap<String, Vec<Option<FieldPart>>>,
    /// The datatypes that carry [`Measure::Total`] and are not list-like (their only
    /// measure), by SMT sort name, with their constructors without fields (whose values'
    /// total is 0).
    trees: HashMap<String, Vec<String>>,
}

/// What a constructor's field adds to its value's [`Measure::Total`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FieldPart {
    /// An `Int` field: itself.
    Int,
    /// A field of a datatype that carries this measure (the field's total; a list of
    /// `Int`s that carries its sum: the sum).
    Of(Measure),
}

/// The measures of a datatype that carries only its total.
const TOTAL_ONLY: &[Measure] = &[Measure::Total];

/// One clause's parts, as [`Measures::measure_clause`] rewrites them.
pub struct ClauseParts<'a> {
    pub vars: &'a mut Vec<(SExpr, Sort)>,
    pub body: &'a mut Vec<SExpr>,
    pub head: &'a mut Option<SExpr>,
}

/// Which measures beyond length and last element a system's lists carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Library {
    /// Those the program asks for ([`chosen_measures`]: sum, odd count).
    Chosen,
    /// Those, and the least and greatest element, for a program that builds lists of
    /// elements it bounds ([`builds_bounded_elements`]) or compares their elements by
    /// order ([`compares_elements`]). Asked in a system of its own:
    /// two more parameters per list cost Spacer the proofs of some programs the chosen
    /// library alone proves (a reversal keeping the sum: `tests/proofs/list_rev_sum.ml`).
    WithBounds,
    /// The chosen ones, and the first element and the count of steps that are not `+1`
    /// (and not `-1`), for a program that builds ranges ([`builds_ranges`]: `a :: upto
    /// (a + 1) b`): a list whose count is 0 holds exactly `first, first + 1, …`, so "`x` is
    /// not in it" and "the element found is `first + pos`" are linear facts. A system of
    /// its own, as [`Library::WithBounds`] is.
    WithRanges,
    /// The chosen ones, and the first element, for a program that reads the head of a
    /// list of `Int`s outside every traversal ([`reads_heads_outside_traversals`]: a
    /// stack's `pop` returns the element last pushed). A system of its own, as
    /// [`Library::WithBounds`] is: one more parameter per list costs Spacer the proofs of
    /// some programs the chosen library alone proves (`tests/proofs/closure_stack_record.ml`).
    WithHeads,
    /// The chosen ones, and every value of a datatype that nests itself and holds integers
    /// (a tree of composed closures, a list of closures or records) carrying its total
    /// ([`Measure::Total`]), for a program that builds such values and adds
    /// ([`totals_apply`](Measures::totals_apply)). A system of its own, as
    /// [`Library::WithBounds`] is.
    WithTotals,
}

impl Measures {
    /// Finds the list-like datatypes of `ir`.
    pub fn of(ir: &IrProgram) -> Measures {
        Measures::with_library(ir, Library::Chosen)
    }

    /// Whether the program builds ranges of `Int`s, so that [`Library::WithRanges`] adds
    /// something.
    pub fn ranges_apply(ir: &IrProgram) -> bool {
        let int_lists = int_lists(ir);
        !int_lists.is_empty() && builds_ranges(ir, &int_lists)
    }

    /// Whether the program reads the head of a list of `Int`s outside every traversal
    /// and builds no ranges (whose library carries the first element already), so that
    /// [`Library::WithHeads`] adds something.
    pub fn heads_apply(ir: &IrProgram) -> bool {
        let int_lists = int_lists(ir);
        !int_lists.is_empty()
            && reads_heads_outside_traversals(ir)
            && !builds_ranges(ir, &int_lists)
    }

    /// Whether the program builds lists of `Int`s of elements it bounds, or compares the
    /// elements it reads from such lists by order, so that [`Library::WithBounds`] adds
    /// something.
    pub fn bounds_apply(ir: &IrProgram) -> bool {
        let int_lists = int_lists(ir);
        if int_lists.is_empty() {
            return false;
        }
        let flows: HashMap<ProcId, ElementFlow> = ir
            .procs
            .iter()
            .map(|(id, proc)| (id, ElementFlow::of(ir, proc, &int_lists)))
            .collect();
        builds_bounded_elements(ir, &flows) || compares_elements(ir, &int_lists, &flows)
    }

    /// Whether the program builds values of a datatype that nests itself and holds
    /// integers beyond what lists of `Int`s carry already (a tree of closures, a list of
    /// closures capturing integers), and adds two non-literal values somewhere, so that
    /// [`Library::WithTotals`] adds something.
    pub fn totals_apply(ir: &IrProgram) -> bool {
        let sum = chosen_measures(ir).contains(&Measure::Sum);
        let (carriers, _) = total_carriers(ir, sum);
        !carriers.is_empty() && !procs_that_add(ir).is_empty()
    }

    /// Finds the list-like datatypes of `ir`, carrying the measures of `library`.
    pub fn with_library(ir: &IrProgram, library: Library) -> Measures {
        let mut chosen = chosen_measures(ir);
        let sum = chosen.contains(&Measure::Sum);
        match library {
            Library::Chosen | Library::WithTotals => {}
            Library::WithBounds => chosen.extend([Measure::Min, Measure::Max]),
            Library::WithHeads => chosen.push(Measure::First),
            Library::WithRanges => {
                chosen.extend([Measure::First, Measure::UpBreaks, Measure::DownBreaks])
            }
        }
        // Which datatypes carry totals, computed once for the loop below and after it.
        let totals_of = (library == Library::WithTotals).then(|| total_carriers(ir, sum));
        let mut lists = HashMap::new();
        for (id, datatype) in ir.datatypes.iter() {
            let Some((nil, cons)) = datatype.nil_and_cons() else {
                continue;
            };
            let recursive: Vec<usize> = cons
                .fields
                .iter()
                .enumerate()
                .filter(|(_, f)| f.ty == IrType::Data(id))
                .map(|(i, _)| i)
                .collect();
            if let [tail] = recursive.as_slice() {
                let element = match cons.fields.as_slice() {
                    [_, _] if cons.fields[1 - tail].ty == IrType::Int => Some(1 - tail),
                    _ => None,
                };
                let mut carried = vec![Measure::Len];
                if element.is_some() {
                    carried.push(Measure::Last);
                    carried.extend(chosen.iter().copied());
                }
                if totals_of
                    .as_ref()
                    .is_some_and(|(carriers, _)| carriers.contains(&id))
                {
                    carried.push(Measure::Total);
                }
                lists.insert(
                    datatype.name.clone(),
                    ListShape {
                        nil: symbol_text(&nil.name).into_owned(),
                        cons: symbol_text(&cons.name).into_owned(),
                        tail: *tail,
                        element,
                        carried,
                    },
                );
            }
        }
        let (mut totals, mut trees) = (HashMap::new(), HashMap::new());
        if let Some((carriers, parts)) = totals_of {
            for id in carriers {
                let datatype = &ir.datatypes[id];
                if !lists.contains_key(&datatype.name) {
                    let nullary = datatype.ctors.iter().filter(|c| c.fields.is_empty());
                    let nullary = nullary.map(|c| symbol_text(&c.name).into_owned());
                    trees.insert(datatype.name.clone(), nullary.collect());
                }
                for ctor in &datatype.ctors {
                    let fields = ctor.fields.iter().map(|f| parts(f.ty)).collect();
                    totals.insert(symbol_text(&ctor.name).into_owned(), fields);
                }
            }
        }
        Measures {
            lists,
            totals,
            trees,
        }
    }

    /// The measures a value of `sort` carries, in the order they follow it as relation
    /// parameters: `len` for a list-like sort, then `last` if its elements are `Int`s and
    /// the measures the program chose ([`chosen_measures`]). Every measure is an `Int`.
    pub fn of_sort(&self, sort: &Sort) -> &[Measure] {
        match sort {
            Sort::Datatype(name) => match self.lists.get(name) {
                Some(shape) => &shape.carried,
                None if self.trees.contains_key(name) => TOTAL_ONLY,
                None => &[],
            },
            _ => &[],
        }
    }

    /// Where each of the parameters of `sorts` stands once its measures follow every
    /// list-like one (index by index).
    pub fn positions(&self, sorts: &[Sort]) -> Vec<usize> {
        let mut measures_before = 0;
        sorts
            .iter()
            .enumerate()
            .map(|(i, sort)| {
                let position = i + measures_before;
                measures_before += self.of_sort(sort).len();
                position
            })
            .collect()
    }

    /// The sorts of a relation's parameters with its measures after each list-like one.
    pub fn extend_sorts(&self, sorts: &[Sort]) -> Vec<Sort> {
        let mut out = Vec::with_capacity(sorts.len());
        for sort in sorts {
            out.push(sort.clone());
            out.extend(self.of_sort(sort).iter().map(|_| Sort::Int));
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
        if self.lists.is_empty() && self.trees.is_empty() {
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
                && let Some(nullary) = self.trees.get(name)
            {
                let total = rewriter.ghost(*var, Measure::Total);
                for ctor in nullary {
                    let is_ctor = tester(terms, ctor, *var);
                    facts.push(terms.imp(is_ctor, terms.eq(total, terms.numeral(0))));
                }
            }
            if let Sort::Datatype(name) = sort
                && let Some(shape) = self.lists.get(name)
            {
                let len = rewriter.ghost(*var, Measure::Len);
                let is_nil = tester(terms, &shape.nil, *var);
                facts.push(terms.gte(len, terms.numeral(0)));
                facts.push(terms.eq(is_nil, terms.eq(len, terms.numeral(0))));
                for &measure in &shape.carried[1..] {
                    let ghost = rewriter.ghost(*var, measure);
                    facts.push(terms.imp(is_nil, terms.eq(ghost, terms.numeral(0))));
                    if matches!(
                        measure,
                        Measure::Odd | Measure::UpBreaks | Measure::DownBreaks
                    ) {
                        facts.push(terms.gte(ghost, terms.numeral(0)));
                        facts.push(terms.lte(ghost, len));
                    }
                    // A range: its last element is its first plus (minus) its length
                    // less one.
                    if matches!(measure, Measure::UpBreaks | Measure::DownBreaks)
                        && let Some(last) = rewriter.ghosts.get(&(*var, Measure::Last)).copied()
                    {
                        let first = rewriter.ghost(*var, Measure::First);
                        let span = terms.sub(len, terms.numeral(1));
                        let end = match measure {
                            Measure::UpBreaks => terms.plus(first, span),
                            _ => terms.sub(first, span),
                        };
                        let is_range =
                            terms.and(terms.not(is_nil), terms.eq(ghost, terms.numeral(0)));
                        facts.push(terms.imp(is_range, terms.eq(last, end)));
                    }
                    // The last element lies between the least and the greatest.
                    let last = || rewriter.ghosts.get(&(*var, Measure::Last)).copied();
                    let non_empty = |fact| terms.imp(terms.not(is_nil), fact);
                    match (measure, last()) {
                        (Measure::Min, Some(last)) => facts.push(non_empty(terms.lte(ghost, last))),
                        (Measure::Max, Some(last)) => facts.push(non_empty(terms.gte(ghost, last))),
                        _ => {}
                    }
                }
            }
        }
        let body: Vec<SExpr> = clause.body.iter().map(|t| rewriter.rewrite(*t)).collect();
        let head = clause.head.map(|t| rewriter.rewrite(t));
        clause.body.clear();
        clause.body.extend(facts);
        clause.body.extend(body);
        *clause.head = head;
        let mut ghosts: Vec<(String, SExpr)> = rewriter
            .ghosts
            .into_values()
            .map(|ghost| (terms.display(ghost).to_string(), ghost))
            .collect();
        ghosts.sort_by(|a, b| a.0.cmp(&b.0));
        clause
            .vars
            .extend(ghosts.into_iter().map(|(_, ghost)| (ghost, Sort::Int)));
        clause
            .vars
            .extend(rewriter.fresh.into_iter().map(|g| (g, Sort::Int)));
    }
}

/// A ghost integer that follows each list value in the clauses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Measure {
    /// The list's length.
    Len,
    /// The list's last element (`0` for the empty list), for lists of `Int`s.
    Last,
    /// The sum of the list's elements, for lists of `Int`s whose program sums them.
    Sum,
    /// How many of the list's elements are odd, for lists of `Int`s in a program that
    /// tests parity (`x mod 2`): "every element is even" is `odd = 0`, "every element is
    /// odd" is `odd = len`.
    Odd,
    /// The least element (`0` for the empty list), for lists of `Int`s in a program
    /// that builds lists of elements it bounds ([`Library::WithBounds`]): "every element
    /// is at least 1" is `len = 0 ∨ min ≥ 1`.
    Min,
    /// The greatest element (`0` for the empty list), chosen with [`Measure::Min`].
    Max,
    /// The first element (`0` for the empty list), for lists of `Int`s in a program that
    /// builds ranges ([`Library::WithRanges`]).
    First,
    /// How many elements are not their predecessor plus 1 (`0` for a range `a, a + 1, …`),
    /// chosen with [`Measure::First`].
    UpBreaks,
    /// How many elements are not their predecessor minus 1 (`0` for `a, a - 1, …`), chosen
    /// with [`Measure::First`].
    DownBreaks,
    /// The sum of every `Int` the value holds, its own fields' and, through its fields of
    /// datatypes, theirs (a catamorphism): for a list of closures `fun v -> v + d` the
    /// sum of their `d`s, for a tree of such closures composed the same, for a list of
    /// records the sum of all their fields. Carried by the datatypes that nest
    /// themselves and hold integers, in programs that add ([`Library::WithTotals`]).
    Total,
}

impl Measure {
    /// Every measure, in the order a list carries them.
    const ALL: [Measure; 10] = [
        Measure::Len,
        Measure::Last,
        Measure::Sum,
        Measure::Odd,
        Measure::Min,
        Measure::Max,
        Measure::First,
        Measure::UpBreaks,
        Measure::DownBreaks,
        Measure::Total,
    ];
}

impl Measure {
    /// The measure's name, as in `len(l)` and the ghost `l!len`.
    pub fn name(self) -> &'static str {
        match self {
            Measure::Len => "len",
            Measure::Last => "last",
            Measure::Sum => "sum",
            Measure::Odd => "odd",
            Measure::Min => "min",
            Measure::Max => "max",
            Measure::First => "first",
            Measure::UpBreaks => "upbreaks",
            Measure::DownBreaks => "downbreaks",
            Measure::Total => "total",
        }
    }
}

/// The measures beyond length and last element that `ir` asks for, as a measure library
/// chosen from the program (Liquid Haskell's and MoCHi's way): each one costs every relation
/// a parameter per list of `Int`s, so it is carried only where the program computes
/// something it can state.
/// - [`Measure::Sum`] when a procedure that takes a list of `Int`s and returns an `Int`
///   adds two non-literal values (`x + sum t`; `1 + length t` is the length's business),
///   itself or in a procedure it calls, directly or not (the closure a fold applies:
///   `List.fold_left ( + ) 0 l` adds in `( + )`'s body);
/// - [`Measure::Odd`] when the program takes a remainder by 2 (a parity test).
fn chosen_measures(ir: &IrProgram) -> Vec<Measure> {
    let int_lists = int_lists(ir);
    if int_lists.is_empty() {
        return Vec::new();
    }
    let mut odd = false;
    for (_, proc) in ir.procs.iter() {
        proc.for_each_expr(&mut |e| {
            e.for_each_subexpr(&mut |e| {
                if let Expr::Binary { op, rhs, .. } = e {
                    odd |= matches!(op, BinOp::Mod | BinOp::EuclidMod)
                        && matches!(&**rhs, Expr::Int(two) if *two == 2.into());
                }
            })
        });
    }
    let adds = procs_that_add(ir);
    let sum = ir.procs.iter().any(|(id, proc)| {
        let folds_a_list = proc
            .params
            .iter()
            .any(|p| matches!(proc.locals[*p].ty, IrType::Data(d) if int_lists.contains(&d)))
            && proc
                .returns
                .iter()
                .any(|r| proc.locals[*r].ty == IrType::Int);
        folds_a_list && adds.contains(&id)
    });
    let chosen = [(sum, Measure::Sum), (odd, Measure::Odd)];
    chosen
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, m)| m)
        .collect()
}

/// The procedures that add two non-literal values (`x + sum t`; `1 + length t` does
/// not count), themselves or in a procedure they call, directly or not.
fn procs_that_add(ir: &IrProgram) -> HashSet<ProcId> {
    let mut adds: HashSet<ProcId> = HashSet::new();
    for (id, proc) in ir.procs.iter() {
        proc.for_each_expr(&mut |e| {
            e.for_each_subexpr(&mut |e| {
                if let Expr::Binary { op, lhs, rhs } = e {
                    let literal = |e: &Expr| matches!(e, Expr::Int(_));
                    if *op == BinOp::Add && !literal(lhs) && !literal(rhs) {
                        adds.insert(id);
                    }
                }
            })
        });
    }
    // Whatever calls a procedure that adds, directly or not, adds too.
    loop {
        let before = adds.len();
        for (id, proc) in ir.procs.iter() {
            if proc
                .call_sites
                .values()
                .any(|site| adds.contains(&site.callee))
            {
                adds.insert(id);
            }
        }
        if adds.len() == before {
            return adds;
        }
    }
}

/// The datatypes that carry [`Measure::Total`] (none of them a list of `Int`s that
/// carries its sum already, `int_lists_summed`), and what each field of a given type
/// adds to it: the datatypes that hold integers (an `Int` field, or a field of one
/// that does) and nest themselves (a field of their own type, directly or not), and
/// those that hold integers and are fields of such ones, directly or not.
fn total_carriers(
    ir: &IrProgram,
    int_lists_summed: bool,
) -> (Vec<DatatypeId>, impl Fn(IrType) -> Option<FieldPart>) {
    let fields_of = |id: DatatypeId| {
        ir.datatypes[id]
            .ctors
            .iter()
            .flat_map(|c| c.fields.iter().map(|f| f.ty))
            .collect::<Vec<IrType>>()
    };
    let ids: Vec<DatatypeId> = ir.datatypes.iter().map(|(id, _)| id).collect();
    // Holding integers: a fixpoint over the fields.
    let mut holds: HashSet<DatatypeId> = HashSet::new();
    loop {
        let before = holds.len();
        for &id in &ids {
            if fields_of(id)
                .iter()
                .any(|t| *t == IrType::Int || matches!(t, IrType::Data(d) if holds.contains(d)))
            {
                holds.insert(id);
            }
        }
        if holds.len() == before {
            break;
        }
    }
    // Datatypes reachable from `id` through fields.
    let reaches = |id: DatatypeId| {
        let mut seen: HashSet<DatatypeId> = HashSet::new();
        let mut todo: Vec<DatatypeId> = fields_of(id)
            .into_iter()
            .filter_map(|t| match t {
                IrType::Data(d) => Some(d),
                _ => None,
            })
            .collect();
        while let Some(d) = todo.pop() {
            if seen.insert(d) {
                todo.extend(fields_of(d).into_iter().filter_map(|t| match t {
                    IrType::Data(d) => Some(d),
                    _ => None,
                }));
            }
        }
        seen
    };
    let summed: HashSet<DatatypeId> = match int_lists_summed {
        true => ids
            .iter()
            .copied()
            .filter(|&id| is_int_list(ir, id))
            .collect(),
        false => HashSet::new(),
    };
    let mut carriers: HashSet<DatatypeId> = HashSet::new();
    for &id in &ids {
        if holds.contains(&id) && !summed.contains(&id) && !is_int_list(ir, id) {
            let below = reaches(id);
            if below.contains(&id) {
                carriers.insert(id);
                carriers.extend(
                    below
                        .into_iter()
                        .filter(|d| holds.contains(d) && !summed.contains(d)),
                );
            }
        }
    }
    let mut carriers: Vec<DatatypeId> = carriers.into_iter().collect();
    carriers.sort_by_key(|id| ir.datatypes[*id].name.clone());
    let carrying = carriers.clone();
    let part = move |ty: IrType| match ty {
        IrType::Int => Some(FieldPart::Int),
        IrType::Data(d) if carrying.contains(&d) => Some(FieldPart::Of(Measure::Total)),
        IrType::Data(d) if summed.contains(&d) => Some(FieldPart::Of(Measure::Sum)),
        _ => None,
    };
    (carriers, part)
}

/// Whether `id` is a list of `Int`s: two constructors, one without fields, the other an
/// `Int` and a field of `id` itself.
fn is_int_list(ir: &IrProgram, id: DatatypeId) -> bool {
    let Some((_, cons)) = ir.datatypes[id].nil_and_cons() else {
        return false;
    };
    let types: Vec<IrType> = cons.fields.iter().map(|f| f.ty).collect();
    types.len() == 2 && types.contains(&IrType::Int) && types.contains(&IrType::Data(id))
}

/// The datatypes with a constructor that has an `Int` field and a datatype field (lists
/// of `Int`s and their like).
fn int_lists(ir: &IrProgram) -> Vec<DatatypeId> {
    ir.datatypes
        .iter()
        .filter(|(_, d)| {
            d.ctors.iter().any(|c| {
                c.fields.iter().any(|f| f.ty == IrType::Int)
                    && c.fields.iter().any(|f| matches!(f.ty, IrType::Data(_)))
            })
        })
        .map(|(id, _)| id)
        .collect()
}

/// Whether some procedure puts onto a list of `Int`s (one of `int_lists`) an element
/// computed (through the procedure's assignments) from a bounded variable: one that an
/// order comparison of the procedure mentions (`<`, `≤`, `>`, `≥`), or a parameter some
/// caller passes a value computed from one of its own bounded variables. A range
/// `i :: range (i + 1) j` under `i > j`, a list built down from `n` under `n <= 0`, a
/// list of `step, step + 1, …` built from a `step` its caller checked `step >= 0`: the
/// elements are bounded by what the comparison bounds, a fact other procedures may need
/// of every element (`div 10000 k` for each `k` of `range 1 n`).
/// `flows`: every procedure's [`ElementFlow`].
fn builds_bounded_elements(ir: &IrProgram, flows: &HashMap<ProcId, ElementFlow>) -> bool {
    let mut bounded_params: HashSet<(ProcId, usize)> = HashSet::new();
    loop {
        let before = bounded_params.len();
        for (id, proc) in ir.procs.iter() {
            let flow = &flows[&id];
            let mut bounded = flow.compared.clone();
            for (i, param) in proc.params.iter().enumerate() {
                if bounded_params.contains(&(id, i)) {
                    bounded.insert(Var::Local(*param));
                }
            }
            if flow.reaches(flow.elements.iter().copied(), &bounded) {
                return true;
            }
            for site in proc.call_sites.values() {
                for (i, arg) in site.args.iter().enumerate() {
                    let mut vars = Vec::new();
                    arg.for_each_var(&mut |v| vars.push(v));
                    if flow.reaches(vars, &bounded) {
                        bounded_params.insert((site.callee, i));
                    }
                }
            }
        }
        if bounded_params.len() == before {
            return false;
        }
    }
}

/// Whether some procedure compares by order (`<`, `≤`, `>`, `≥`) an element it reads from
/// a list of `Int`s (one of `int_lists`), directly or through its assignments: a scan for
/// the first element above a threshold (`x :: _ when x > t`), a filter by a bound, a
/// sortedness test. What such a program asserts of the elements ("every element is at
/// most `t`" once the scan returned normally) is a fact of the least and greatest
/// element. `flows`: every procedure's [`ElementFlow`].
fn compares_elements(
    ir: &IrProgram,
    int_lists: &[DatatypeId],
    flows: &HashMap<ProcId, ElementFlow>,
) -> bool {
    let reads_an_element = |e: &Expr| {
        let mut reads = false;
        e.for_each_subexpr(&mut |e| {
            reads |= matches!(e, Expr::Select { field, .. }
                if int_lists.contains(&field.ctor.datatype)
                    && ir.ctor(field.ctor).and_then(|c| c.fields.get(field.index as usize))
                        .is_some_and(|f| f.ty == IrType::Int));
        });
        reads
    };
    ir.procs.iter().any(|(id, proc)| {
        let flow = &flows[&id];
        let elements: HashSet<Var> = (flow.assigned.iter())
            .filter(|(_, assigned)| assigned.iter().any(|e| reads_an_element(e)))
            .map(|(var, _)| *var)
            .collect();
        let mut compared_directly = false;
        proc.for_each_expr(&mut |e| {
            e.for_each_subexpr(&mut |e| {
                if let Expr::Binary {
                    op: BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge,
                    lhs,
                    rhs,
                } = e
                {
                    compared_directly |= reads_an_element(lhs) || reads_an_element(rhs);
                }
            })
        });
        compared_directly || flow.reaches(flow.compared.iter().copied(), &elements)
    })
}

/// Whether a procedure that lies on no cycle of the call graph
/// ([`super::horn_inline::on_cycles`]) reads the `Int` element of a cons cell of a list of
/// `Int`s ([`is_int_list`]): a head read once, not a traversal's step (`sum`'s `x + sum
/// t` reads every element, and its facts are [`Measure::Sum`]'s business).
fn reads_heads_outside_traversals(ir: &IrProgram) -> bool {
    let recursive = super::horn_inline::on_cycles(ir);
    ir.procs.iter().any(|(id, proc)| {
        if recursive[id.0 as usize] {
            return false;
        }
        let mut reads = false;
        proc.for_each_expr(&mut |e| {
            e.for_each_subexpr(&mut |e| {
                if let Expr::Select { field, .. } = e
                    && is_int_list(ir, field.ctor.datatype)
                    && ir.field(*field).is_some_and(|f| f.ty == IrType::Int)
                {
                    reads = true;
                }
            })
        });
        reads
    })
}

/// Whether some procedure builds a range: puts onto a list of `Int`s (one of `int_lists`)
/// an element and calls itself with one of its parameters plus or minus 1 (`a :: upto
/// (a + 1) b`, `n :: down (n - 1)`).
fn builds_ranges(ir: &IrProgram, int_lists: &[DatatypeId]) -> bool {
    ir.procs.iter().any(|(id, proc)| {
        let mut conses = false;
        proc.for_each_expr(&mut |e| {
            e.for_each_subexpr(&mut |e| {
                conses |= matches!(e, Expr::Ctor { ctor, args }
                    if int_lists.contains(&ctor.datatype) && !args.is_empty());
            })
        });
        let steps_a_parameter = |arg: &Expr| match arg {
            Expr::Binary {
                op: BinOp::Add | BinOp::Sub,
                lhs,
                rhs,
            } => {
                matches!(&**lhs, Expr::Var(Var::Local(l)) if proc.params.contains(l))
                    && matches!(&**rhs, Expr::Int(one) if *one == 1.into())
            }
            _ => false,
        };
        conses
            && proc
                .call_sites
                .values()
                .any(|site| site.callee == id && site.args.iter().any(steps_a_parameter))
    })
}

/// What one procedure compares, what it puts onto lists of `Int`s, and how its variables
/// are computed from each other.
struct ElementFlow<'p> {
    /// The variables order comparisons mention.
    compared: HashSet<Var>,
    /// The variables the `Int` fields of the list cells it builds mention.
    elements: Vec<Var>,
    /// Every expression assigned to each variable.
    assigned: HashMap<Var, Vec<&'p Expr>>,
}

impl<'p> ElementFlow<'p> {
    fn of(ir: &IrProgram, proc: &'p Procedure, int_lists: &[DatatypeId]) -> ElementFlow<'p> {
        let mut assigned: HashMap<Var, Vec<&Expr>> = HashMap::new();
        for_each_stmt(&proc.body, &mut |stmt| {
            if let Stmt::Assign(target, e) = stmt {
                assigned.entry(*target).or_default().push(e);
            }
        });
        let mut compared: HashSet<Var> = HashSet::new();
        let mut elements: Vec<Var> = Vec::new();
        proc.for_each_expr(&mut |e| {
            e.for_each_subexpr(&mut |e| match e {
                Expr::Binary {
                    op: BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge,
                    lhs,
                    rhs,
                } => {
                    lhs.for_each_var(&mut |v| {
                        compared.insert(v);
                    });
                    rhs.for_each_var(&mut |v| {
                        compared.insert(v);
                    });
                }
                Expr::Ctor { ctor, args } if int_lists.contains(&ctor.datatype) => {
                    let fields = ir.ctor(*ctor).map(|c| c.fields.as_slice()).unwrap_or(&[]);
                    for (arg, _) in args.iter().zip(fields).filter(|(_, f)| f.ty == IrType::Int) {
                        arg.for_each_var(&mut |v| elements.push(v));
                    }
                }
                _ => {}
            })
        });
        ElementFlow {
            compared,
            elements,
            assigned,
        }
    }

    /// Whether a value computed from `vars` (through the assignments) is computed from one
    /// of `bounded`.
    fn reaches(&self, vars: impl IntoIterator<Item = Var>, bounded: &HashSet<Var>) -> bool {
        let mut todo: Vec<Var> = vars.into_iter().collect();
        let mut seen: HashSet<Var> = HashSet::new();
        while let Some(v) = todo.pop() {
            if !seen.insert(v) {
                continue;
            }
            if bounded.contains(&v) {
                return true;
            }
            for e in self.assigned.get(&v).into_iter().flatten() {
                e.for_each_var(&mut |w| todo.push(w));
            }
        }
        false
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
    /// (List variable, measure) → the measure's ghost.
    ghosts: HashMap<(SExpr, Measure), SExpr>,
    /// Unconstrained measures of arguments whose measure is not known.
    fresh: Vec<SExpr>,
}

impl Rewriter<'_, '_> {
    /// The ghost of `measure` of list variable `var`, made on first use.
    fn ghost(&mut self, var: SExpr, measure: Measure) -> SExpr {
        let terms = self.terms;
        *self
            .ghosts
            .entry((var, measure))
            .or_insert_with(|| terms.atom(format!("{}!{}", terms.display(var), measure.name())))
    }

    /// `measure` of a list-valued term, where its shape tells it: `len(nil) = 0`,
    /// `len(cons(h, t)) = 1 + len(t)`, `last(nil) = 0`,
    /// `last(cons(h, t)) = ite(is-nil(t), h, last(t))`, through `ite`.
    fn measure(&self, measure: Measure, term: SExpr) -> Option<SExpr> {
        let t = self.terms;
        if let Some(ghost) = self.ghosts.get(&(term, measure)) {
            return Some(*ghost);
        }
        if let Some(name) = t.get_atom(term) {
            let nullary_total =
                measure == Measure::Total && self.measures.totals.contains_key(name);
            return (nullary_total || self.measures.lists.values().any(|s| s.nil == name))
                .then(|| t.numeral(0));
        }
        let items = t.get_list(term)?;
        let head = t.get_atom(items[0])?;
        if head == "ite" && items.len() == 4 {
            let a = self.measure(measure, items[2])?;
            let b = self.measure(measure, items[3])?;
            return Some(t.ite(items[1], a, b));
        }
        if measure == Measure::Total {
            // `total(C(x₁, …, xₙ))` = the `Int` fields plus the totals of the others.
            let parts = self.measures.totals.get(head)?;
            let mut total = t.numeral(0);
            for (part, field) in parts.iter().zip(&items[1..]) {
                let value = match part {
                    Some(FieldPart::Int) => *field,
                    Some(FieldPart::Of(m)) => self.measure(*m, *field)?,
                    None => continue,
                };
                total = t.plus(total, value);
            }
            return Some(total);
        }
        let shape = self.measures.lists.values().find(|s| s.cons == head)?;
        let tail = *items.get(1 + shape.tail)?;
        match measure {
            Measure::Len => Some(t.plus(t.numeral(1), self.measure(measure, tail)?)),
            Measure::Sum => {
                let element = *items.get(1 + shape.element?)?;
                Some(t.plus(element, self.measure(measure, tail)?))
            }
            Measure::Odd => {
                let element = *items.get(1 + shape.element?)?;
                let parity = t.list(vec![t.atom("mod"), element, t.numeral(2)]);
                Some(t.plus(parity, self.measure(measure, tail)?))
            }
            Measure::Min | Measure::Max => {
                let element = *items.get(1 + shape.element?)?;
                let rest = self.measure(measure, tail)?;
                let keeps_element = match measure {
                    Measure::Min => t.lte(element, rest),
                    _ => t.gte(element, rest),
                };
                let of_non_empty = t.ite(keeps_element, element, rest);
                self.by_tail(shape, tail, element, || Some(of_non_empty))
            }
            Measure::First => items.get(1 + shape.element?).copied(),
            Measure::UpBreaks | Measure::DownBreaks => {
                let element = *items.get(1 + shape.element?)?;
                let rest = self.measure(measure, tail)?;
                let next = match measure {
                    Measure::UpBreaks => t.plus(element, t.numeral(1)),
                    _ => t.sub(element, t.numeral(1)),
                };
                let first_of_tail = self.measure(Measure::First, tail)?;
                let step = t.ite(t.eq(first_of_tail, next), t.numeral(0), t.numeral(1));
                let of_non_empty = t.plus(step, rest);
                self.by_tail(shape, tail, t.numeral(0), || Some(of_non_empty))
            }
            Measure::Last => {
                let element = *items.get(1 + shape.element?)?;
                self.by_tail(shape, tail, element, || self.measure(measure, tail))
            }
            Measure::Total => None,
        }
    }

    /// A cons cell's measure from its `tail`: `of_nil` when the tail is the empty list,
    /// `of_cons()` when it is not. A tail built by a constructor says at once which case it
    /// is; otherwise the result is an `ite` on the tail's tester.
    fn by_tail(
        &self,
        shape: &ListShape,
        tail: SExpr,
        of_nil: SExpr,
        of_cons: impl FnOnce() -> Option<SExpr>,
    ) -> Option<SExpr> {
        match self.constructor_of(tail) {
            Some(ctor) if ctor == shape.nil => Some(of_nil),
            Some(ctor) if ctor == shape.cons => of_cons(),
            _ => {
                let tail_is_nil = tester(self.terms, &shape.nil, tail);
                Some(self.terms.ite(tail_is_nil, of_nil, of_cons()?))
            }
        }
    }

    /// The constructor `term` is built with, if it is a constructor application (or a
    /// constructor without fields).
    fn constructor_of(&self, term: SExpr) -> Option<String> {
        let t = self.terms;
        let name = match t.get_list(term) {
            Some(items) => t.get_atom(*items.first()?)?,
            None => t.get_atom(term)?,
        };
        self.measures
            .lists
            .values()
            .any(|s| s.nil == name || s.cons == name)
            .then(|| name.to_string())
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
                let mut equation = t.list(rebuilt.clone());
                for measure in Measure::ALL {
                    let a = self.measure(measure, rebuilt[1]);
                    let b = self.measure(measure, rebuilt[2]);
                    if let (Some(a), Some(b)) = (a, b) {
                        equation = t.and(equation, t.eq(a, b));
                    }
                }
                equation
            }
            Some(name) if self.relations.contains_key(name) => {
                let sorts = &self.relations[name];
                let mut out = vec![rebuilt[0]];
                for (arg, sort) in rebuilt[1..].iter().zip(sorts) {
                    out.push(*arg);
                    for &measure in self.measures.of_sort(sort) {
                        let value = self.measure(measure, *arg).unwrap_or_else(|| {
                            let ghost = t.atom(format!("unknown!measure!{}", self.fresh.len()));
                            self.fresh.push(ghost);
                            ghost
                        });
                        out.push(value);
                    }
                }
                t.list(out)
            }
            _ if rebuilt == items => term,
            _ => t.list(rebuilt),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Closures `fun v -> v + d` composed into a tree (`comp(g, f)`, `id`) and kept in a
    /// list; a record of two integers that nests nothing; a list of `Int`s.
    const CLOSURE_TREES: &str = r#"
datatype Clo { id(), add(add.d: int), comp(comp.g: Clo, comp.f: Clo) }
datatype Fs { nil#f(), cons#f(head#f: Clo, tail#f: Fs) }
datatype Pair { pair(pair.a: int, pair.b: int) }
datatype Ints { nil#i(), cons#i(head#i: int, tail#i: Ints) }

procedure apply(c: Clo, v: int) returns (r: int)
{
  var g: Clo;
  var f: Clo;
  if (c is add) {
    r := v + c->add.d;
  } else if (c is comp) {
    g := c->comp.g;
    f := c->comp.f;
    call r := apply(f, v);
    call r := apply(g, r);
  } else {
    r := v;
  }
}

procedure Main(p: Pair, l: Ints, fs: Fs)
{
}
"#;

    fn terms() -> Context {
        easy_smt::ContextBuilder::new()
            .build()
            .expect("a term store without a solver")
    }

    #[test]
    fn totals_are_carried_by_datatypes_that_nest_themselves_and_hold_integers() {
        let ir = boogie_like::parse(CLOSURE_TREES).expect("the test program parses");
        assert!(Measures::totals_apply(&ir));
        let measures = Measures::with_library(&ir, Library::WithTotals);
        let of = |name: &str| measures.of_sort(&Sort::Datatype(name.to_string())).to_vec();
        assert_eq!(of("Clo"), [Measure::Total]);
        assert_eq!(of("Fs"), [Measure::Len, Measure::Total]);
        // A record nests nothing; a list of `Int`s has its own measures.
        assert_eq!(of("Pair"), []);
        assert!(!of("Ints").contains(&Measure::Total));
        // Only in their own library.
        let chosen = Measures::with_library(&ir, Library::Chosen);
        assert_eq!(chosen.of_sort(&Sort::Datatype("Clo".to_string())), []);
    }

    /// A list of `Int`s in a cell, pushed onto and popped (the head read once, in a
    /// procedure no cycle of calls goes through), and summed by a recursive procedure.
    fn stack_program(pop_reads_head: bool) -> IrProgram {
        let pop_body = if pop_reads_head {
            "x := items->head#i;"
        } else {
            "x := 0;"
        };
        let text = format!(
            r#"
datatype Ints {{ nil#i(), cons#i(head#i: int, tail#i: Ints) }}
var items: Ints;

procedure push(x: int)
{{
  items := cons#i(x, items);
}}

procedure pop() returns (x: int)
{{
  if (items is cons#i) {{
    {pop_body}
    items := items->tail#i;
  }}
}}

procedure sum(l: Ints) returns (s: int)
{{
  if (l is cons#i) {{
    call s := sum(l->tail#i);
    s := s + l->head#i;
  }}
}}

procedure Main(n: int)
{{
  var x: int;
  call push(n);
  call x := pop();
  call x := sum(items);
}}
"#
        );
        boogie_like::parse(&text).expect("the test program parses")
    }

    #[test]
    fn a_head_read_outside_every_traversal_chooses_the_first_element_library() {
        let ir = stack_program(true);
        assert!(Measures::heads_apply(&ir));
        let ints = Sort::Datatype("Ints".to_string());
        let heads = Measures::with_library(&ir, Library::WithHeads);
        assert!(heads.of_sort(&ints).contains(&Measure::First));
        // Only in its own library.
        let chosen = Measures::with_library(&ir, Library::Chosen);
        assert!(!chosen.of_sort(&ints).contains(&Measure::First));
        // `sum` reads every head, but it lies on a cycle of calls: a traversal, not a
        // head read once.
        assert!(!Measures::heads_apply(&stack_program(false)));
    }

    #[test]
    fn a_total_sums_the_integer_fields_and_the_totals_of_nested_values() {
        let ir = boogie_like::parse(CLOSURE_TREES).expect("the test program parses");
        let measures = Measures::with_library(&ir, Library::WithTotals);
        let t = terms();
        let relations = HashMap::new();
        let rewriter = Rewriter {
            measures: &measures,
            terms: &t,
            relations: &relations,
            ghosts: HashMap::from([((t.atom("g"), Measure::Total), t.atom("g!total"))]),
            fresh: Vec::new(),
        };
        let total = |term: SExpr| {
            rewriter
                .measure(Measure::Total, term)
                .map(|m| t.display(m).to_string())
        };
        let app = |head: &str, args: &[SExpr]| {
            t.list(
                std::iter::once(t.atom(head))
                    .chain(args.iter().copied())
                    .collect(),
            )
        };
        let (g, d) = (t.atom("g"), t.atom("d"));
        assert_eq!(total(t.atom("id")).as_deref(), Some("0"));
        assert_eq!(
            total(app("add", &[t.numeral(5)])).as_deref(),
            Some("(+ 0 5)")
        );
        let add_d = app("add", &[d]);
        assert_eq!(
            total(app("comp", &[g, add_d])).as_deref(),
            Some("(+ (+ 0 g!total) (+ 0 d))")
        );
        assert_eq!(
            total(app("|cons#f|", &[add_d, t.atom("|nil#f|")])).as_deref(),
            Some("(+ (+ 0 (+ 0 d)) 0)")
        );
        // A variable without a ghost has no known total.
        assert_eq!(total(app("comp", &[t.atom("h"), t.atom("id")])), None);
    }
}
