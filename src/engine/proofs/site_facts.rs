//! Spacer's interpretations as facts at open call sites: the partial proofs of
//! [`crate::engine::proofs::partial_proofs`] prune the stratified-inlining search (issue 12).
//!
//! A re-checked model of [`HornSystem::of_failure`]`(root)` interprets the relation of
//! `root` and of every procedure it calls. Each interpretation `I_p` holds of every call
//! of `p` that returns, at any depth and from any caller: the clauses of those procedures
//! are all there, each holds under the model (the re-check), so by induction on the height
//! of the call tree the least model — the calls' real input/output behaviour — lies inside
//! the interpretation. The search may therefore assume `I_p(b, args, globals, rets,
//! globals', failed)` at every open call site of `p`, exactly as the site's application
//! stands in the Horn clauses; for `root` itself that includes "does not fail".
//!
//! Guarantees (each keeps every fact a consequence of the program's semantics, so no
//! verdict the search draws from them is unsound):
//! - only relations of procedures whose clauses the system holds are used (a relation no
//!   clause mentions may be interpreted any way at all);
//! - an interpretation of the `active = false` case is `true` (the idle clause was
//!   checked), so a site that is not reached is not constrained;
//! - a list's measures (length, last element) are fresh integers at each site: the fact
//!   asserted is `∃ m. I(…, m)`, which the true measures satisfy;
//! - an interpretation is used only if its quantifiers are existentials in positive
//!   positions (the search's solver then needs no instantiation); quantified variables
//!   are renamed apart from every name of the search. Leaving a fact out only weakens
//!   what the search assumes.

use crate::engine::proofs::chc::{Definition, Interpretation, unbarred};
use crate::engine::proofs::proof::Proof;
use crate::solver::{Sort, Sx, symbol_text};
use crate::vc::encode::EncodedSite;
use crate::vc::horn::{HornSystem, site_items};
use crate::vc::measure::Measures;
use crate::vc::smt::Command;
use boogie_like::ir::ProcId;
use easy_smt::{Context, SExpr};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The checked interpretations of one partial proof, by procedure.
#[derive(Debug)]
pub struct SiteFacts {
    /// By `ProcId` index; `None`: nothing usable is known of the procedure.
    by_proc: Vec<Option<Fact>>,
    /// The summaries, for the report of a VERIFIED that used them.
    pub shown: Proof,
}

/// One relation's interpretation and how a site's terms map onto its parameters.
#[derive(Debug)]
struct Fact {
    definition: Definition,
    /// For each argument of the unmeasured relation ([`site_items`]), its parameter's
    /// index in the measured one; the other parameters are measures.
    positions: Vec<usize>,
    /// The sorts of the measured relation's parameters.
    sorts: Vec<Sort>,
}

impl SiteFacts {
    /// The usable facts of a re-checked model of `system`, built by
    /// [`HornSystem::of_failure`] for a procedure: `covered` (by `ProcId` index) are the
    /// procedures whose clauses it holds, `measures` the program's list measures. `shown`
    /// is the proof as the user sees it.
    pub(crate) fn from_model(
        system: &HornSystem,
        (covered, measures): (&[bool], &Measures),
        model: &Interpretation,
        shown: Proof,
    ) -> SiteFacts {
        let by_proc = system
            .relations
            .iter()
            .enumerate()
            .map(|(index, relation)| {
                if relation.proc.map(|p| p.0 as usize) != Some(index)
                    || !covered.get(index).copied().unwrap_or(false)
                {
                    return None;
                }
                let definition = model.get(unbarred(&relation.name))?.clone();
                let sorts: Vec<Sort> = relation.params.iter().map(|p| p.sort.clone()).collect();
                let usable = definition.params.len() == sorts.len()
                    && quantifiers_positive(&definition.body, Polarity::Positive);
                usable.then(|| Fact {
                    positions: unmeasured_positions(measures, &sorts),
                    definition,
                    sorts,
                })
            })
            .collect();
        SiteFacts { by_proc, shown }
    }

    /// Whether anything is known of `proc`.
    pub fn knows(&self, proc: ProcId) -> bool {
        self.by_proc
            .get(proc.0 as usize)
            .is_some_and(Option::is_some)
    }

    /// The fact at an open call site: the callee's interpretation applied to the site's
    /// terms, with fresh integers (declared into `commands` by `fresh`) for measures.
    /// `may_fail`: whether the callee's relation has a failure flag.
    pub fn at_site(
        &self,
        terms: &Context,
        site: &EncodedSite,
        may_fail: bool,
        mut fresh: impl FnMut(&mut Vec<Command>) -> SExpr,
        commands: &mut Vec<Command>,
    ) -> Option<SExpr> {
        let fact = self.by_proc.get(site.callee.0 as usize)?.as_ref()?;
        let items = site_items(site, may_fail);
        if items.len() != fact.positions.len() {
            return None;
        }
        let mut args: Vec<Option<SExpr>> = vec![None; fact.sorts.len()];
        for (item, position) in items.into_iter().zip(&fact.positions) {
            args[*position] = Some(item);
        }
        let mut env = HashMap::new();
        for (name, arg) in fact.definition.params.iter().zip(args) {
            let term = match arg {
                Some(term) => term,
                None => fresh(commands),
            };
            env.insert(name.clone(), term);
        }
        let mut renamer = Renamer { terms, next: 0 };
        renamer.term(&fact.definition.body, &env)
    }
}

/// The partial proofs found so far, shared between the proof engine's threads (which
/// publish them) and the search (which applies each once).
#[derive(Clone, Debug, Default)]
pub struct FactBoard {
    published: Arc<Mutex<Vec<Arc<SiteFacts>>>>,
    /// Whether a search that has inlined procedures a new partial proof covers stops to
    /// start again ([`crate::engine::search::driver::RESTART_WITH_FACTS`]) rather than go on.
    restarts: Arc<AtomicBool>,
}

impl FactBoard {
    /// A board whose searches restart when facts arrive for procedures they inlined
    /// (the caller runs them again).
    pub fn restarting() -> FactBoard {
        FactBoard {
            restarts: Arc::new(AtomicBool::new(true)),
            ..FactBoard::default()
        }
    }

    /// Whether searches restart on new facts.
    pub fn restarts(&self) -> bool {
        self.restarts.load(Ordering::SeqCst)
    }

    /// From now on searches go on with new facts instead of restarting.
    pub fn stop_restarting(&self) {
        self.restarts.store(false, Ordering::SeqCst);
    }

    /// Makes `facts` known to every search that reads the board.
    pub fn publish(&self, facts: Arc<SiteFacts>) {
        if let Ok(mut board) = self.published.lock() {
            board.push(facts);
        }
    }

    /// The facts published after the first `seen`.
    pub fn since(&self, seen: usize) -> Vec<Arc<SiteFacts>> {
        match self.published.lock() {
            Ok(board) => board.iter().skip(seen).cloned().collect(),
            Err(_) => Vec::new(),
        }
    }
}

/// Where each parameter of the unmeasured relation stands among `sorts` (the measured
/// relation's): every list-like parameter is followed by its measures.
fn unmeasured_positions(measures: &Measures, sorts: &[Sort]) -> Vec<usize> {
    let mut positions = Vec::new();
    let mut index = 0;
    while index < sorts.len() {
        positions.push(index);
        index += 1 + measures.of_sort(&sorts[index]).len();
    }
    positions
}

/// Where a subterm stands: under an even or odd number of negations, or both (the
/// condition of an `ite`, an equivalence).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Polarity {
    Positive,
    Negative,
    Both,
}

impl Polarity {
    fn flipped(self) -> Polarity {
        match self {
            Polarity::Positive => Polarity::Negative,
            Polarity::Negative => Polarity::Positive,
            Polarity::Both => Polarity::Both,
        }
    }
}

/// Whether every quantifier of `term` is effectively existential: `exists` where the term
/// stands positively, `forall` where negatively; annotations are refused.
fn quantifiers_positive(term: &Sx, polarity: Polarity) -> bool {
    let Some(items) = term.list() else {
        return true;
    };
    let Some((head, rest)) = items.split_first() else {
        return true;
    };
    let all = |terms: &[Sx], p: Polarity| terms.iter().all(|t| quantifiers_positive(t, p));
    match head.atom() {
        Some("exists") => polarity == Polarity::Positive && all(&rest[1..], polarity),
        Some("forall") => polarity == Polarity::Negative && all(&rest[1..], polarity),
        Some("!") => false,
        Some("and" | "or") => all(rest, polarity),
        Some("not") => all(rest, polarity.flipped()),
        Some("=>") => match rest.split_last() {
            Some((last, premises)) => {
                all(premises, polarity.flipped()) && quantifiers_positive(last, polarity)
            }
            None => true,
        },
        Some("ite") => match rest {
            [cond, then, other] => {
                quantifiers_positive(cond, Polarity::Both)
                    && quantifiers_positive(then, polarity)
                    && quantifiers_positive(other, polarity)
            }
            _ => all(rest, Polarity::Both),
        },
        Some("let") => match rest {
            [bindings, body] => {
                let values: Vec<Sx> = bindings
                    .list()
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|b| b.list()?.get(1).cloned())
                    .collect();
                all(&values, Polarity::Both) && quantifiers_positive(body, polarity)
            }
            _ => false,
        },
        _ => all(items, Polarity::Both),
    }
}

/// Builds a definition's body as a term of the search, its parameters replaced by the
/// site's terms, `let`s expanded (terms are shared, so nothing grows) and quantified
/// variables renamed apart.
struct Renamer<'t> {
    terms: &'t Context,
    next: usize,
}

impl Renamer<'_> {
    fn term(&mut self, sx: &Sx, env: &HashMap<String, SExpr>) -> Option<SExpr> {
        match sx {
            Sx::Atom(name) => Some(match env.get(name) {
                Some(term) => *term,
                None => self.terms.atom(spelled(name)?),
            }),
            Sx::Str(_) => None,
            Sx::List(items) => match items.first().and_then(Sx::atom) {
                Some("let") => self.expand_let(&items[1..], env),
                Some(q @ ("exists" | "forall")) => self.quantifier(q, &items[1..], env),
                _ => {
                    let built: Option<Vec<SExpr>> =
                        items.iter().map(|item| self.term(item, env)).collect();
                    Some(self.terms.list(built?))
                }
            },
        }
    }

    /// `(let ((x v) …) body)`: `body` with each `x` replaced by its `v` (SMT-LIB's `let`
    /// binds in parallel: every `v` is read in the outer environment).
    fn expand_let(&mut self, rest: &[Sx], env: &HashMap<String, SExpr>) -> Option<SExpr> {
        let [bindings, body] = rest else { return None };
        let mut inner = env.clone();
        for binding in bindings.list()? {
            let [name, value] = binding.list()? else {
                return None;
            };
            inner.insert(name.atom()?.to_string(), self.term(value, env)?);
        }
        self.term(body, &inner)
    }

    /// `(exists ((x S) …) body)` with each `x` renamed to a name of its own.
    fn quantifier(
        &mut self,
        which: &str,
        rest: &[Sx],
        env: &HashMap<String, SExpr>,
    ) -> Option<SExpr> {
        let [bound, body] = rest else { return None };
        let mut inner = env.clone();
        let mut renamed = Vec::new();
        for binding in bound.list()? {
            let [name, sort] = binding.list()? else {
                return None;
            };
            let fresh = self.terms.atom(format!("sitefact!{}", self.next));
            self.next += 1;
            inner.insert(name.atom()?.to_string(), fresh);
            renamed.push(
                self.terms
                    .list(vec![fresh, self.term(sort, &HashMap::new())?]),
            );
        }
        let body = self.term(body, &inner)?;
        Some(
            self.terms
                .list(vec![self.terms.atom(which), self.terms.list(renamed), body]),
        )
    }
}

/// An atom of a model as the search's solver reads it: numerals and keywords as they are,
/// other symbols quoted where SMT-LIB needs it; `None` for one no symbol can spell.
fn spelled(name: &str) -> Option<String> {
    let numeral = !name.is_empty() && name.chars().all(|c| c.is_ascii_digit() || c == '.');
    let literal = name.starts_with('#') && name.len() > 2 && !name.contains(['|', '\\']);
    if numeral || name.starts_with(':') || (literal && is_bit_literal(name)) {
        return Some(name.to_string());
    }
    if name.contains(['|', '\\']) {
        return None;
    }
    Some(symbol_text(name).into_owned())
}

/// `#b0101` or `#x1f`.
fn is_bit_literal(name: &str) -> bool {
    match name.get(..2) {
        Some("#b") => name[2..].chars().all(|c| c == '0' || c == '1'),
        Some("#x") => name[2..].chars().all(|c| c.is_ascii_hexdigit()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::parse_sx;

    fn positive(text: &str) -> bool {
        quantifiers_positive(&parse_sx(text).unwrap(), Polarity::Positive)
    }

    #[test]
    fn existentials_are_usable_only_where_they_stand_positively() {
        assert!(positive("(and (> x 0) (exists ((y Int)) (< x y)))"));
        assert!(positive("(not (forall ((y Int)) (< x y)))"));
        assert!(positive("(=> (forall ((y Int)) (< x y)) (> x 0))"));
        assert!(!positive("(not (exists ((y Int)) (< x y)))"));
        assert!(!positive("(forall ((y Int)) (< x y))"));
        assert!(!positive("(ite (exists ((y Int)) (< x y)) true false)"));
        assert!(!positive("(= b (exists ((y Int)) (< x y)))"));
        assert!(!positive("(let ((a (exists ((y Int)) (< x y)))) a)"));
        assert!(!positive("(! (> x 0) :named n)"));
    }

    #[test]
    fn measures_follow_each_list_like_parameter() {
        // Without list datatypes no parameter has measures.
        let measures = Measures::default();
        let sorts = vec![Sort::Bool, Sort::Int, Sort::Int];
        assert_eq!(unmeasured_positions(&measures, &sorts), vec![0, 1, 2]);
    }

    #[test]
    fn atoms_are_spelled_for_the_solver() {
        assert_eq!(spelled("42").as_deref(), Some("42"));
        assert_eq!(spelled("<=").as_deref(), Some("<="));
        assert_eq!(spelled("Main#group0").as_deref(), Some("|Main#group0|"));
        assert_eq!(spelled("#b01").as_deref(), Some("#b01"));
        assert_eq!(spelled("a|b"), None);
    }

    #[test]
    fn bodies_are_instantiated_with_lets_expanded_and_bound_names_renamed() {
        let terms = easy_smt::ContextBuilder::new().build().unwrap();
        let body =
            parse_sx("(let ((a!1 (+ x!1 1))) (exists ((x!2 Int)) (and x!0 (< a!1 x!2))))").unwrap();
        let mut env = HashMap::new();
        env.insert("x!0".to_string(), terms.atom("reach!7"));
        env.insert("x!1".to_string(), terms.atom("x!2"));
        let built = Renamer {
            terms: &terms,
            next: 0,
        }
        .term(&body, &env)
        .unwrap();
        assert_eq!(
            terms.display(built).to_string(),
            "(exists ((sitefact!0 Int)) (and reach!7 (< (+ x!2 1) sitefact!0)))"
        );
    }
}
