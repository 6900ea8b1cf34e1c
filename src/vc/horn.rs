//! Constrained Horn clauses of an IR program: the question "can the entry fail, at any
//! depth?" as a CHC system that z3's Spacer (or any CHC solver) can answer (issue 12).
//!
//! One uninterpreted relation per procedure `p`,
//! `p!rel(active, params, globals in, results, globals out, failed)`, describes the calls of
//! `p` that return (normally or by failing): `globals in` are the globals `p` reads or
//! modifies, `globals out` those live after some call of `p` ([`super::liveness`]), and
//! `failed` is present only if `p` may fail. The clauses:
//! - **body** — one clause per procedure, built from the VC of one instance
//!   ([`super::encode`]) that always runs: its definitions, and for each call site `s`
//!   the application `callee!rel(b_s, args_s, …)`, imply `p!rel(true, …)`. The body is
//!   linear in the procedure (SSA with `ite` merges), never one clause per path.
//! - **idle** — `p!rel(false, x…)` for all `x`: a call site whose reach literal `b_s` is
//!   false (the call is not made) constrains nothing. This keeps the body a conjunction
//!   of relation applications, as Horn clauses must be, without guarding them by `b_s`.
//! - **goal** — `entry!rel(true, inputs, initial globals, …, failed = true) ⇒ false`.
//!
//! Every list-valued relation parameter is followed by its length, and each clause says
//! what it knows of lengths ([`super::measure`]).
//!
//! [`HornSystem::of_unfolded`] builds the same system with the calls of small
//! non-recursive procedures unfolded into their callers' body clauses
//! ([`super::horn_inline`]: the stratified-inlining step, entry condition the site's reach
//! literal); every relation keeps its least model.
//!
//! Selectors are partial (`head nil` is some unspecified integer), and Spacer refuses
//! them: each selector application `s_i(a)` of a constructor `C` becomes a fresh variable
//! `f_i` with `is-C(a) ⇒ a = C(f_1, …, f_n)` (one set of fields per constructor and term).
//! Where `a` is a `C` that is the same value; elsewhere the fresh variable is as
//! unconstrained as `s_i(a)` (at worst an over-approximation, never fewer behaviours).
//!
//! Guarantee: the least model of the clauses holds exactly the (active) input/output
//! behaviours of terminating calls, at any depth, so the system is satisfiable iff no
//! execution of the entry fails; a model (an interpretation of the relations) is an
//! inductive proof. Each clause is also kept apart ([`Clause`]), so a model can be
//! re-checked clause by clause in a solver that knows nothing of Horn clauses.

use super::encode::{EncodedSite, Encoder, InstanceInputs};
use super::horn_inline::Inlining;
use super::liveness::Liveness;
use super::measure::{ClauseParts, Library, Measures};
use super::smt::{Command, has_sort, sort, symbol, value_term};
use crate::solver::{DatatypeDecl, Sort};
use boogie_like::Value;
use boogie_like::ir::{CtorId, GlobalId, ProcId, Program as IrProgram, Type as IrType};
use easy_smt::{Context, ContextBuilder, SExpr};
use std::collections::{BTreeMap, HashMap, HashSet};

/// One parameter of a procedure's relation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelationParam {
    /// What the parameter is, in the procedure's terms: `active`, a parameter's or a
    /// global's name, `ret`, `global'` for a global after the call, `failed`.
    pub role: String,
    pub sort: Sort,
}

/// The relation of one procedure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relation {
    /// The procedure it describes (`None`: a relation of another encoding, named by
    /// `name` alone, such as [`crate::verifier::refine`]'s templates).
    pub proc: Option<ProcId>,
    /// Its SMT-LIB symbol (`fib!rel`).
    pub name: String,
    /// `active`, then the inputs (parameters and globals in), then the outputs.
    pub params: Vec<RelationParam>,
    /// How many inputs there are.
    pub inputs: usize,
    /// Interpreted as `true` by definition rather than solved for: the scripts define it
    /// (`define-fun … true`) and the re-check checks every clause with that definition,
    /// whatever a model says ([`HornSystem::with_defined_true`]).
    pub defined_true: bool,
}

/// `∀ vars. body ⇒ head` (head `None`: `false`), as SMT-LIB text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    /// What the clause says, for messages: `body of fib`, `idle fib`, `goal`.
    pub what: String,
    pub vars: Vec<(String, Sort)>,
    pub body: Vec<String>,
    pub head: Option<String>,
}

/// The CHC system of a program.
#[derive(Clone, Debug, PartialEq)]
pub struct HornSystem {
    /// The procedure whose failure the goal asks about.
    pub entry: Option<ProcId>,
    pub datatypes: Vec<DatatypeDecl>,
    /// By `ProcId` index.
    pub relations: Vec<Relation>,
    pub clauses: Vec<Clause>,
    /// For an entry nothing calls: the interpretation of its relation a model is
    /// re-checked with instead of the solver's, `active ∧ globals in = initial ⇒ ¬failed`.
    /// It is the one the goal asks for, and the only clauses that mention the relation
    /// are the entry's idle, body and goal clauses, so a model of the other relations that
    /// passes with it is a proof. (Spacer states the entry's relation as an existential
    /// over its body, which a quantifier-free re-check cannot decide.)
    pub entry_interpretation: Option<String>,
}

impl HornSystem {
    /// The clauses of `ir`, or `None` if the program has no entry procedure or has
    /// quantifiers (Spacer's clauses are quantifier-free: such a program gets no CHC
    /// proof, the other engines still run). Globals start at their type's default, as in
    /// the IR interpreter and the driver.
    pub fn of(ir: &IrProgram) -> Option<HornSystem> {
        let entry = ir.entrypoint()?;
        HornSystem::build(
            ir,
            Goal::EntryFails(entry),
            Inlining::none(),
            Library::Chosen,
        )
    }

    /// [`HornSystem::of`] with the calls of small non-recursive procedures unfolded into
    /// their callers' clauses ([`super::horn_inline`]): the same least model for every
    /// relation, so the same question, with the values of such calls related within one
    /// clause (what [`super::measure_abstract`]'s projection would otherwise split).
    pub fn of_unfolded(ir: &IrProgram) -> Option<HornSystem> {
        let entry = ir.entrypoint()?;
        let inlining = Inlining::small_nonrecursive(ir);
        HornSystem::build(ir, Goal::EntryFails(entry), inlining, Library::Chosen)
    }

    /// [`HornSystem::of_unfolded`] with every list of `Int`s also carrying its first
    /// element and its breaks of `+1` and `-1` steps ([`Library::WithRanges`]), for a
    /// program that builds ranges; `None` for any other.
    pub fn of_unfolded_with_ranges(ir: &IrProgram) -> Option<HornSystem> {
        Measures::ranges_apply(ir).then(|| Self::of_unfolded_carrying(ir, Library::WithRanges))?
    }

    /// [`HornSystem::of_unfolded`] with every list of `Int`s also carrying its first
    /// element ([`Library::WithHeads`]), for a program that reads heads outside every
    /// traversal (a stack's `pop`) and builds no ranges; `None` for any other.
    pub fn of_unfolded_with_heads(ir: &IrProgram) -> Option<HornSystem> {
        Measures::heads_apply(ir).then(|| Self::of_unfolded_carrying(ir, Library::WithHeads))?
    }

    /// [`HornSystem::of_unfolded`] with every list of `Int`s also carrying its least and
    /// greatest element ([`Library::WithBounds`]), for a program that builds lists of
    /// elements it bounds or compares the elements of its lists by order; `None` for any
    /// other.
    pub fn of_unfolded_with_bounds(ir: &IrProgram) -> Option<HornSystem> {
        Measures::bounds_apply(ir).then(|| Self::of_unfolded_carrying(ir, Library::WithBounds))?
    }

    /// [`HornSystem::of_unfolded`] with every value of a datatype that nests itself and
    /// holds integers carrying its total ([`Library::WithTotals`]), for a program that
    /// builds such values and adds; `None` for any other.
    pub fn of_unfolded_with_totals(ir: &IrProgram) -> Option<HornSystem> {
        Measures::totals_apply(ir).then(|| Self::of_unfolded_carrying(ir, Library::WithTotals))?
    }

    /// [`HornSystem::of_unfolded`] with the lists carrying the measures of `library`.
    fn of_unfolded_carrying(ir: &IrProgram, library: Library) -> Option<HornSystem> {
        let entry = ir.entrypoint()?;
        let inlining = Inlining::small_nonrecursive(ir);
        HornSystem::build(ir, Goal::EntryFails(entry), inlining, library)
    }

    /// The clauses of `root` and of every procedure it calls, directly or not, with the
    /// goal "a call of `root` fails, whatever its arguments and the globals it starts
    /// from". A model proves that no call of `root` fails, at any depth and in any
    /// context, and interprets the relations of `root` and its callees: facts that hold
    /// of every call of them that returns — a *partial* proof, usable at open call sites
    /// of the whole program's search ([`crate::engine::proofs::site_facts`]). `None` if `root`
    /// cannot fail, or as for [`HornSystem::of`].
    pub fn of_failure(ir: &IrProgram, root: ProcId) -> Option<HornSystem> {
        HornSystem::build(ir, Goal::Fails(root), Inlining::none(), Library::Chosen)
    }

    fn build(
        ir: &IrProgram,
        goal: Goal,
        inlining: Inlining,
        library: Library,
    ) -> Option<HornSystem> {
        if ir.has_quantifiers() {
            return None;
        }
        let interpreter = boogie_like::Interpreter::new(ir).ok()?;
        let global_defaults: Vec<Value> = ir
            .globals
            .values()
            .map(|g| interpreter.default_value(g.ty))
            .collect();
        let encoder = Encoder::new(ir);
        let liveness = Liveness::of(ir);
        let terms = ContextBuilder::new()
            .build()
            .expect("internal error: a term store without a solver");
        let measures = Measures::with_library(ir, library);
        let unmeasured: Vec<Relation> = ir
            .procs
            .ids()
            .map(|p| relation(ir, p, &encoder, &liveness))
            .collect();
        let relation_sorts = unmeasured
            .iter()
            .map(|r| {
                let sorts = r.params.iter().map(|p| p.sort.clone()).collect();
                (r.name.clone(), sorts)
            })
            .collect();
        let relations = unmeasured
            .into_iter()
            .map(|r| with_lengths(&measures, r))
            .collect();
        let mut builder = Builder {
            ir,
            terms: &terms,
            encoder,
            liveness,
            relations,
            selectors: selectors(ir),
            measures,
            relation_sorts,
            inlining,
            applied: HashSet::new(),
        };
        let (root, included) = match goal {
            Goal::EntryFails(entry) => (entry, vec![true; ir.procs.len()]),
            Goal::Fails(root) if builder.encoder.may_fail(root) => (root, callees_of(ir, root)),
            Goal::Fails(_) => return None,
        };
        let mut clauses = Vec::new();
        for proc in ir.procs.ids().filter(|p| included[p.0 as usize]) {
            clauses.push(builder.idle_clause(proc));
            clauses.push(builder.body_clause(proc));
        }
        let root_called = ir
            .procs
            .iter()
            .filter(|(id, _)| included[id.0 as usize])
            .any(|(_, p)| p.call_sites.values().any(|site| site.callee == root));
        let mut entry_interpretation = None;
        if builder.encoder.may_fail(root) {
            let initial = match goal {
                Goal::EntryFails(_) => Some(global_defaults.as_slice()),
                Goal::Fails(_) => None,
            };
            clauses.push(builder.goal_clause(root, initial));
            if !root_called {
                entry_interpretation = Some(builder.safe_entry(root, initial));
            }
        }
        let system = HornSystem {
            entry: Some(root),
            datatypes: super::smt::datatype_declarations(ir),
            relations: builder.relations,
            clauses,
            entry_interpretation,
        };
        // A relation no clause body applies any more (every call of it unfolded) is
        // `true` in some model whenever the others have one: only its own idle and body
        // clauses mention it, as their head. Defined so, it costs Spacer nothing and its
        // model no existential over the unfolded body (which the re-check may not decide).
        let unapplied: HashSet<String> = (builder.inlining.is_none())
            .then(HashSet::new)
            .unwrap_or_else(|| {
                ir.procs
                    .ids()
                    .filter(|p| !builder.applied.contains(p))
                    .map(|p| system.relations[p.0 as usize].name.clone())
                    .collect()
            });
        Some(system.with_defined_true(&unapplied))
    }

    /// The system as an SMT-LIB script in logic `HORN`, ending with `(check-sat)`.
    pub fn script(&self) -> String {
        let mut out = String::from("(set-logic HORN)\n");
        out.push_str(&declare_datatypes(&self.datatypes));
        for relation in &self.relations {
            out.push_str(&relation.introduction());
            out.push('\n');
        }
        for clause in &self.clauses {
            out.push_str(&format!("; {}\n(assert {})\n", clause.what, clause.text()));
        }
        out.push_str("(check-sat)\n");
        out
    }

    /// Whether the goal clause exists (the entry may fail at all).
    pub fn has_goal(&self) -> bool {
        self.clauses.iter().any(|c| c.head.is_none())
    }

    /// The same clauses with the relations named in `names` (as printed) interpreted as
    /// `true` ([`Relation::defined_true`]): the solver is asked for the others only.
    /// A stronger question — its models, with `true` for those relations, are models
    /// of `self`, and the re-check checks exactly that, clause by clause, on these very
    /// clauses — which a solver may answer much faster when the facts those relations
    /// would carry are not needed (issue 33: preconditions of closures).
    pub fn with_defined_true(&self, names: &HashSet<String>) -> HornSystem {
        let mut system = self.clone();
        for relation in &mut system.relations {
            let entry = relation.proc.is_some() && relation.proc == system.entry;
            if names.contains(&relation.name) && !entry {
                relation.defined_true = true;
            }
        }
        system
    }
}

impl RelationParam {
    pub fn new(role: &str, sort: Sort) -> RelationParam {
        RelationParam {
            role: role.to_string(),
            sort,
        }
    }
}

impl Relation {
    /// `(declare-fun name (S …) Bool)`.
    pub fn declaration(&self) -> String {
        let sorts: Vec<String> = (self.params.iter())
            .map(|p| p.sort.text().into_owned())
            .collect();
        format!("(declare-fun {} ({}) Bool)", self.name, sorts.join(" "))
    }

    /// How a script introduces it: [`Relation::true_definition`] if it is defined
    /// `true`, else [`Relation::declaration`].
    pub fn introduction(&self) -> String {
        if self.defined_true {
            self.true_definition()
        } else {
            self.declaration()
        }
    }

    /// `(define-fun name ((x!0 S) …) Bool true)`.
    pub fn true_definition(&self) -> String {
        let params: Vec<(String, Sort)> = self
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| (format!("x!{i}"), p.sort.clone()))
            .collect();
        format!(
            "(define-fun {} ({}) Bool true)",
            self.name,
            bindings(&params)
        )
    }
}

impl Clause {
    /// The body facts and the head, parsed; `None` if one does not parse.
    pub(crate) fn parsed(&self) -> Option<(Vec<crate::solver::Sx>, Option<crate::solver::Sx>)> {
        let parse = |text: &String| crate::solver::parse_reply(text).ok();
        let facts = self.body.iter().map(parse).collect::<Option<Vec<_>>>()?;
        let head = match &self.head {
            Some(head) => Some(parse(head)?),
            None => None,
        };
        Some((facts, head))
    }

    /// `(forall (vars) (=> (and body) head))`, or the implication alone without variables.
    pub fn text(&self) -> String {
        let body = match self.body.len() {
            0 => "true".to_string(),
            1 => self.body[0].clone(),
            _ => format!("(and {})", self.body.join(" ")),
        };
        let head = self.head.clone().unwrap_or_else(|| "false".to_string());
        let implication = format!("(=> {body} {head})");
        if self.vars.is_empty() {
            return implication;
        }
        format!("(forall ({}) {implication})", bindings(&self.vars))
    }
}

/// `(x Int) (y Bool)`.
pub fn bindings(vars: &[(String, Sort)]) -> String {
    let items: Vec<String> = vars
        .iter()
        .map(|(name, sort)| format!("({name} {})", sort.text()))
        .collect();
    items.join(" ")
}

/// `(declare-datatypes ...)` for the program's datatypes, or nothing.
pub fn declare_datatypes(decls: &[DatatypeDecl]) -> String {
    crate::solver::declaration_commands(decls)
        .into_iter()
        .map(|c| c + "\n")
        .collect()
}

/// The relation of `proc`: active, params, globals in, results, globals out, failed.
fn relation(ir: &IrProgram, proc: ProcId, encoder: &Encoder, liveness: &Liveness) -> Relation {
    let p = &ir.procs[proc];
    let param = |role: String, ty: IrType| RelationParam {
        role,
        sort: sort(ir, ty),
    };
    let mut params = vec![param("active".into(), IrType::Bool)];
    for local in &p.params {
        params.push(param(p.locals[*local].name.clone(), p.locals[*local].ty));
    }
    for global in globals_in(ir, proc) {
        params.push(param(
            ir.globals[global].name.clone(),
            ir.globals[global].ty,
        ));
    }
    let inputs = params.len() - 1;
    for local in &p.returns {
        params.push(param(p.locals[*local].name.clone(), p.locals[*local].ty));
    }
    for global in liveness.exported(proc) {
        let g = &ir.globals[*global];
        params.push(param(format!("{}'", g.name), g.ty));
    }
    if encoder.may_fail(proc) {
        params.push(param("failed".into(), IrType::Bool));
    }
    Relation {
        proc: Some(proc),
        name: symbol(&format!("{}!rel", p.name)),
        params,
        inputs,
        defined_true: false,
    }
}

/// `relation` with its measures' parameters after each list-like one
/// ([`super::measure`]).
fn with_lengths(measures: &Measures, relation: Relation) -> Relation {
    let mut params = Vec::with_capacity(relation.params.len());
    let mut inputs = relation.inputs;
    for (i, param) in relation.params.into_iter().enumerate() {
        let added = measures.of_sort(&param.sort);
        let roles: Vec<String> = added
            .iter()
            .map(|m| format!("{}({})", m.name(), param.role))
            .collect();
        params.push(param);
        for role in roles {
            params.push(RelationParam {
                role,
                sort: Sort::Int,
            });
            if (1..=relation.inputs).contains(&i) {
                inputs += 1;
            }
        }
    }
    Relation {
        params,
        inputs,
        ..relation
    }
}

/// The globals an instance of `proc` starts from, in `GlobalId` order (the order of
/// [`super::encode::EncodedSite::globals_in`]).
fn globals_in(ir: &IrProgram, proc: ProcId) -> Vec<GlobalId> {
    let p = &ir.procs[proc];
    let mut globals: Vec<GlobalId> = p.reads.iter().chain(&p.modifies).copied().collect();
    globals.sort();
    globals.dedup();
    globals
}

/// What the goal clause asks.
#[derive(Clone, Copy)]
enum Goal {
    /// Can the entry fail, from its inputs and the globals' initial values?
    EntryFails(ProcId),
    /// Can a call of this procedure fail, from any arguments and globals?
    Fails(ProcId),
}

/// By `ProcId` index: `root` and the procedures it calls, directly or not.
pub fn callees_of(ir: &IrProgram, root: ProcId) -> Vec<bool> {
    let mut reached = vec![false; ir.procs.len()];
    let mut stack = vec![root];
    while let Some(proc) = stack.pop() {
        if std::mem::replace(&mut reached[proc.0 as usize], true) {
            continue;
        }
        stack.extend(ir.procs[proc].call_sites.values().map(|site| site.callee));
    }
    reached
}

struct Builder<'t, 'a> {
    ir: &'a IrProgram,
    terms: &'t Context,
    encoder: Encoder<'a>,
    liveness: Liveness,
    relations: Vec<Relation>,
    /// Selector symbol → (its constructor, the field's index).
    selectors: HashMap<String, (CtorId, usize)>,
    measures: Measures,
    /// Each relation's parameter sorts before lengths were added, by symbol.
    relation_sorts: HashMap<String, Vec<Sort>>,
    /// Which calls are unfolded into their callers' clauses.
    inlining: Inlining,
    /// The procedures whose relation some clause body applies (not unfolded everywhere).
    applied: HashSet<ProcId>,
}

/// Every selector of the program, by its SMT symbol.
fn selectors(ir: &IrProgram) -> HashMap<String, (CtorId, usize)> {
    let mut map = HashMap::new();
    for (ctor, c) in ir.ctors() {
        for (index, field) in c.fields.iter().enumerate() {
            map.insert(symbol(&field.name), (ctor, index));
        }
    }
    map
}

/// The inputs and outputs of a procedure body's instance, as terms.
struct BodyOutcome {
    args: Vec<SExpr>,
    globals_in: BTreeMap<GlobalId, SExpr>,
    rets: Vec<SExpr>,
    globals_out: Vec<SExpr>,
    fail: Option<SExpr>,
}

/// A clause under construction: its variables and body as terms, and the fields already
/// introduced for selector applications (by constructor and term).
struct Draft {
    vars: Vec<(SExpr, Sort)>,
    body: Vec<SExpr>,
    fields: HashMap<(CtorId, SExpr), Vec<SExpr>>,
}

impl Builder<'_, '_> {
    /// `∀ x. p!rel(false, x…)`.
    fn idle_clause(&mut self, proc: ProcId) -> Clause {
        let relation = &self.relations[proc.0 as usize];
        let vars: Vec<(String, Sort)> = relation.params[1..]
            .iter()
            .enumerate()
            .map(|(i, p)| (format!("v!{i}"), p.sort.clone()))
            .collect();
        let mut args = vec!["false".to_string()];
        args.extend(vars.iter().map(|(name, _)| name.clone()));
        Clause {
            what: format!("idle {}", self.ir.procs[proc].name),
            vars,
            body: Vec::new(),
            head: Some(application(&relation.name, &args)),
        }
    }

    /// The body of `proc` with its calls as relation applications ⇒ `p!rel(true, …)`.
    fn body_clause(&mut self, proc: ProcId) -> Clause {
        let (mut draft, outcome) = self.body(proc);
        let mut items = vec![self.terms.true_()];
        items.extend(&outcome.args);
        items.extend(outcome.globals_in.values());
        items.extend(&outcome.rets);
        items.extend(&outcome.globals_out);
        items.extend(outcome.fail);
        let head = self.apply(proc, &items);
        let head = self.total(head, &mut draft);
        let what = format!("body of {}", self.ir.procs[proc].name);
        self.finish(what, draft, Some(head))
    }

    /// The clause body of one always-running instance of `proc`, calls as relation
    /// applications, and the terms of its inputs and outputs.
    fn body(&mut self, proc: ProcId) -> (Draft, BodyOutcome) {
        let p = &self.ir.procs[proc];
        let mut commands = Vec::new();
        let args: Vec<SExpr> = p
            .params
            .iter()
            .map(|l| self.fresh("param", p.locals[*l].ty, &mut commands))
            .collect();
        let globals: BTreeMap<GlobalId, SExpr> = globals_in(self.ir, proc)
            .into_iter()
            .map(|g| {
                (
                    g,
                    self.fresh("global", self.ir.globals[g].ty, &mut commands),
                )
            })
            .collect();
        let inputs = InstanceInputs {
            args: args.clone(),
            globals: globals.clone(),
            entry: self.terms.true_(),
        };
        let instance = self
            .encoder
            .instance(self.terms, proc, &inputs, &mut commands);
        let applied = self.unfold(instance.sites.clone(), &mut commands);
        let mut draft = self.draft(commands);
        for site in &applied {
            self.applied.insert(site.callee);
            let items = site_items(site, self.encoder.may_fail(site.callee));
            let application = self.apply(site.callee, &items);
            let total = self.total(application, &mut draft);
            draft.body.push(total);
        }
        let outcome = BodyOutcome {
            args,
            globals_in: globals,
            rets: instance.rets.clone(),
            globals_out: instance.globals_out.values().copied().collect(),
            fail: self.encoder.may_fail(proc).then_some(instance.fail),
        };
        (draft, outcome)
    }

    /// `sites` with the calls [`Builder::inlining`] allows unfolded (their callees'
    /// instances encoded into `out` with the site's reach literal as entry, and so on
    /// into those instances' own sites, within [`super::horn_inline::CLAUSE_BUDGET`]
    /// statements): the sites left, to become relation applications.
    fn unfold(&mut self, sites: Vec<EncodedSite>, out: &mut Vec<Command>) -> Vec<EncodedSite> {
        let mut budget = super::horn_inline::CLAUSE_BUDGET;
        let mut pending: std::collections::VecDeque<EncodedSite> = sites.into();
        let mut applied = Vec::new();
        while let Some(site) = pending.pop_front() {
            match self.inlining.cost(site.callee) {
                Some(cost) if cost <= budget => {
                    budget -= cost;
                    let instance = self.encoder.inline_site(self.terms, &site, out);
                    pending.extend(instance.sites);
                }
                _ => applied.push(site),
            }
        }
        applied
    }

    /// `(define-fun entry!rel (x…) Bool (=> (and active (= global initial)…) (not failed)))`
    /// over the entry's (measured) relation parameters; without `initial` globals (a
    /// procedure's failure goal), `(=> active (not failed))`.
    fn safe_entry(&self, entry: ProcId, initial: Option<&[Value]>) -> String {
        let relation = &self.relations[entry.0 as usize];
        let p = &self.ir.procs[entry];
        let params: Vec<(String, Sort)> = relation
            .params
            .iter()
            .enumerate()
            .map(|(i, param)| (format!("x!{i}"), param.sort.clone()))
            .collect();
        let mut premises = vec!["x!0".to_string()];
        // The unmeasured relation: active, the parameters, then the globals in.
        let positions = self
            .measures
            .positions(&self.relation_sorts[&relation.name]);
        for (k, global) in globals_in(self.ir, entry).into_iter().enumerate() {
            let Some(defaults) = initial else { break };
            // A global holding an uninterpreted sort starts unconstrained here (no element
            // of the sort has a name): more runs, so a proof still holds.
            if has_sort(self.ir, self.ir.globals[global].ty) {
                continue;
            }
            let index = positions[1 + p.params.len() + k];
            let value = value_term(self.terms, self.ir, &defaults[global.0 as usize]);
            premises.push(format!("(= x!{index} {})", self.terms.display(value)));
        }
        format!(
            "(define-fun {} ({}) Bool (=> (and {}) (not x!{})))",
            relation.name,
            bindings(&params),
            premises.join(" "),
            params.len() - 1
        )
    }

    /// `entry!rel(true, inputs, initial globals, results, globals out, true) ⇒ false`;
    /// without `initial` globals, the globals in are free too (any call of `entry`).
    fn goal_clause(&mut self, entry: ProcId, initial: Option<&[Value]>) -> Clause {
        let p = &self.ir.procs[entry];
        let mut commands = Vec::new();
        let mut items = vec![self.terms.true_()];
        for local in &p.params {
            items.push(self.fresh("input", p.locals[*local].ty, &mut commands));
        }
        for global in globals_in(self.ir, entry) {
            let ty = self.ir.globals[global].ty;
            items.push(match initial {
                // A global holding an uninterpreted sort starts unconstrained.
                Some(defaults) if !has_sort(self.ir, ty) => {
                    value_term(self.terms, self.ir, &defaults[global.0 as usize])
                }
                _ => self.fresh("global", ty, &mut commands),
            });
        }
        for local in &p.returns {
            items.push(self.fresh("result", p.locals[*local].ty, &mut commands));
        }
        let exported: Vec<GlobalId> = self.liveness.exported(entry).to_vec();
        for global in exported {
            items.push(self.fresh("global", self.ir.globals[global].ty, &mut commands));
        }
        items.push(self.terms.true_());
        let mut draft = self.draft(commands);
        let application = self.apply(entry, &items);
        draft.body.push(application);
        let what = match initial {
            Some(_) => "goal: the entry fails".to_string(),
            None => format!("goal: a call of {} fails", p.name),
        };
        self.finish(what, draft, None)
    }

    fn fresh(&mut self, prefix: &str, ty: IrType, out: &mut Vec<Command>) -> SExpr {
        self.encoder.fresh(self.terms, prefix, ty, out)
    }

    /// A clause whose variables are the declared constants and whose body holds the
    /// asserted terms, with selectors eliminated.
    fn draft(&mut self, commands: Vec<Command>) -> Draft {
        let mut draft = Draft {
            vars: Vec::new(),
            body: Vec::new(),
            fields: HashMap::new(),
        };
        for command in commands {
            match command {
                Command::Declare { name, sort } => draft.vars.push((name, sort)),
                Command::Assert(term) => {
                    let total = self.total(term, &mut draft);
                    draft.body.push(total);
                }
            }
        }
        draft
    }

    fn finish(&self, what: String, mut draft: Draft, mut head: Option<SExpr>) -> Clause {
        self.measures.measure_clause(
            self.terms,
            &self.relation_sorts,
            ClauseParts {
                vars: &mut draft.vars,
                body: &mut draft.body,
                head: &mut head,
            },
        );
        let text = |t: SExpr| self.terms.display(t).to_string();
        Clause {
            what,
            vars: draft
                .vars
                .into_iter()
                .map(|(name, sort)| (text(name), sort))
                .collect(),
            body: draft.body.into_iter().map(text).collect(),
            head: head.map(text),
        }
    }

    /// `term` with every selector application replaced by a field variable of `draft`.
    fn total(&mut self, term: SExpr, draft: &mut Draft) -> SExpr {
        let Some(items) = self.terms.get_list(term) else {
            return term;
        };
        let items = items.to_vec();
        let rebuilt: Vec<SExpr> = items.iter().map(|t| self.total(*t, draft)).collect();
        let selector = match rebuilt.as_slice() {
            [head, _] => self
                .terms
                .get_atom(*head)
                .and_then(|name| self.selectors.get(name).copied()),
            _ => None,
        };
        match selector {
            Some((ctor, index)) => self.fields(ctor, rebuilt[1], draft)[index],
            None if rebuilt == items => term,
            None => self.terms.list(rebuilt),
        }
    }

    /// The field variables of `ctor` for `value`: `is-C(value) ⇒ value = C(fields)`.
    fn fields(&mut self, ctor: CtorId, value: SExpr, draft: &mut Draft) -> Vec<SExpr> {
        if let Some(fields) = draft.fields.get(&(ctor, value)) {
            return fields.clone();
        }
        let c = self.ir.ctor(ctor).expect("internal error: constructor");
        let mut commands = Vec::new();
        let fields: Vec<SExpr> = c
            .fields
            .iter()
            .map(|f| self.encoder.fresh(self.terms, "field", f.ty, &mut commands))
            .collect();
        for command in commands {
            if let Command::Declare { name, sort } = command {
                draft.vars.push((name, sort));
            }
        }
        let t = self.terms;
        let name = t.atom(symbol(&c.name));
        let tester = t.list(vec![t.atom("_"), t.atom("is"), name]);
        let mut built = vec![name];
        built.extend(&fields);
        let constraint = t.imp(t.list(vec![tester, value]), t.eq(value, t.list(built)));
        draft.body.push(constraint);
        draft.fields.insert((ctor, value), fields.clone());
        fields
    }

    fn apply(&self, proc: ProcId, items: &[SExpr]) -> SExpr {
        let name = self.terms.atom(&self.relations[proc.0 as usize].name);
        let mut all = vec![name];
        all.extend(items);
        self.terms.list(all)
    }
}

/// The arguments of the callee's relation at a call site, before measures: the reach
/// literal, the arguments, the globals in, the results, the globals out and, if the
/// callee `may_fail`, its failure flag.
pub fn site_items(site: &EncodedSite, may_fail: bool) -> Vec<SExpr> {
    let mut items = vec![site.reach];
    items.extend(&site.args);
    items.extend(site.globals_in.values());
    items.extend(&site.rets);
    items.extend(site.globals_out.values());
    if may_fail {
        items.push(site.fail);
    }
    items
}

/// `(name a b …)`, or `name` alone without arguments.
pub(super) fn application(name: &str, args: &[String]) -> String {
    if args.is_empty() {
        return name.to_string();
    }
    format!("({name} {})", args.join(" "))
}
