//! Hindley–Milner type inference with let-polymorphism for the OCaml subset.
//!
//! Guarantees on success: every expression has a type in [`Typing::expr_types`] and every
//! pattern variable one in [`Typing::var_types`]; every variable occurrence is resolved to
//! its binding or to a prelude function; every use of a let-bound polymorphic variable
//! records the types its quantified variables take there ([`Typing::instances`]), which is
//! what the translation specialises on. Annotations are checked (an arrow in an annotation
//! fits a function of any arity, `int -> int -> int` a function of two parameters as well
//! as one returning a function). Generalisation follows OCaml's value restriction. On
//! failure: the first error, at its `line:col`, naming the two types that disagree or the
//! construct outside the subset.

use super::ast::*;
use super::parser::unsupported;
use super::types::{Mismatch, Subst, Ty, substitute};
use crate::diagnostics::Diagnostic;
use crate::span::Span;
use std::collections::HashMap;
use std::rc::Rc;

mod adapters;
mod records;
mod variants;

pub use records::Record;
pub use variants::Variant;

type R<T> = Result<T, Diagnostic>;

/// What a variable occurrence refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// A variable bound by a pattern (`let`, parameter, `match` case).
    Var(VarId),
    /// A prelude function (`fst`, `Random.int`, `( + )`, ...), by its name.
    Prelude(&'static str),
}

/// The facts inference establishes, in side tables indexed by the AST's ids.
#[derive(Debug)]
pub struct Typing {
    pub subst: Subst,
    pub expr_types: Vec<Ty>,
    pub var_types: Vec<Ty>,
    pub resolutions: HashMap<ExprId, Resolved>,
    /// At a use of a polymorphic variable: the types of its quantified variables.
    pub instances: HashMap<ExprId, Vec<Ty>>,
    /// The quantified type variables of each generalised let-bound variable.
    pub quantified: HashMap<VarId, Vec<u32>>,
    /// Declared exceptions (and the predefined ones) with their argument type.
    pub exceptions: HashMap<Rc<str>, Option<Ty>>,
    /// The local exceptions (`let exception E [of t] in`), in source order, with their
    /// argument type.
    pub local_exceptions: Vec<(Name, Option<Ty>)>,
    /// The record types, in definition order ([`records`]).
    pub records: Vec<Record>,
    /// The record type of each record expression, field access and field update.
    pub record_of: HashMap<ExprId, usize>,
    /// The record type of each record pattern, by span.
    pub record_of_pattern: HashMap<Span, usize>,
    /// The variant types, the prelude's first (`option`, `result`; [`variants`]).
    pub variants: Vec<Variant>,
    /// The variant and constructor of each constructor expression of a variant type.
    pub ctor_of_expr: HashMap<ExprId, (usize, usize)>,
    /// The variant and constructor of each constructor pattern of a variant type, by span
    /// and name (the Stdlib's definitions share one span: [`Typing::ctor_of`]).
    pub ctor_of_pattern: HashMap<(Span, Rc<str>), (usize, usize)>,
}

impl Typing {
    /// The fully resolved type of `e`.
    pub fn type_of(&self, e: &Expr) -> Ty {
        self.subst.resolve(&self.expr_types[e.id.0 as usize])
    }

    /// The variant and constructor a constructor pattern names, if it is of a variant type.
    pub fn ctor_of(&self, p: &Pattern) -> Option<(usize, usize)> {
        match &p.kind {
            PatternKind::Construct(name, _) => self
                .ctor_of_pattern
                .get(&(p.span, name.text.clone()))
                .copied(),
            _ => None,
        }
    }

    pub fn var_type(&self, v: VarId) -> Ty {
        self.subst.resolve(&self.var_types[v.0 as usize])
    }
}

/// The Stdlib modules `open M`, `let open M in` and `M.(e)` accept (their functions in the
/// prelude, docs/ocaml.md "The Stdlib").
pub const OPENABLE: &[&str] = &[
    "List", "Option", "Result", "Fun", "Array", "Random", "Stdlib",
];

/// The prelude functions whose argument may be a string literal.
pub const STRING_CONSUMERS: &[&str] = &["print_string", "print_endline", "failwith", "invalid_arg"];

/// Infers the types of a whole program, wrapping in an adapter each argument whose function
/// type has other arities than the parameter expects ([`adapters`]): inference runs again
/// after each adapter inserted.
pub fn infer_program(program: &mut Program) -> R<Typing> {
    loop {
        let mut adapt = None;
        match infer_once(program, &mut adapt) {
            Ok(typing) => return Ok(typing),
            Err(d) => match adapt {
                Some(a) if adapters::insert(program, &a) => continue,
                _ => return Err(d),
            },
        }
    }
}

/// One run of inference; on an arity mismatch that an adapter resolves, `adapt` says where.
fn infer_once(program: &Program, adapt: &mut Option<adapters::Adapt>) -> R<Typing> {
    let mut subst = Subst::default();
    let unknown = subst.fresh(0);
    let mut inf = Inferer {
        typing: Typing {
            subst,
            expr_types: vec![unknown.clone(); program.expr_count as usize],
            var_types: vec![unknown; program.var_count as usize],
            resolutions: HashMap::new(),
            instances: HashMap::new(),
            quantified: HashMap::new(),
            exceptions: predefined_exceptions(),
            local_exceptions: Vec::new(),
            records: Vec::new(),
            record_of: HashMap::new(),
            record_of_pattern: HashMap::new(),
            variants: Vec::new(),
            ctor_of_expr: HashMap::new(),
            ctor_of_pattern: HashMap::new(),
        },
        env: Vec::new(),
        level: 0,
        annot_vars: HashMap::new(),
        closed_annotations: false,
        constructors: HashMap::new(),
        or_vars: false,
        adapt: None,
        opens: Vec::new(),
    };
    variants::predefined(&mut inf);
    for item in &program.items {
        inf.annot_vars.clear();
        if let Err(d) = inf.item(item) {
            *adapt = inf.adapt.take();
            return Err(d);
        }
    }
    Ok(inf.typing)
}

fn predefined_exceptions() -> HashMap<Rc<str>, Option<Ty>> {
    let plain = ["Not_found", "Exit", "Division_by_zero"].map(|n| (Rc::from(n), None));
    let with_message = ["Failure", "Invalid_argument"].map(|n| (Rc::from(n), Some(Ty::Str)));
    plain.into_iter().chain(with_message).collect()
}

struct Inferer {
    typing: Typing,
    /// Variables in scope, innermost last.
    env: Vec<(Rc<str>, VarId)>,
    level: u32,
    /// Type variables named in the annotations of the current top-level item.
    annot_vars: HashMap<Rc<str>, Ty>,
    /// Whether a type variable not in `annot_vars` is an error (in a type definition).
    closed_annotations: bool,
    /// The variant constructors in scope, by name: (variant, constructor).
    constructors: HashMap<Rc<str>, (usize, usize)>,
    /// Whether the pattern being inferred may have or-patterns that bind variables (a
    /// `match`, `function` or `try` case without a `when` guard; the translation expands
    /// them into one case per alternative).
    or_vars: bool,
    /// The adapter that resolves the arity mismatch just reported, if one does.
    adapt: Option<adapters::Adapt>,
    /// The Stdlib modules opened (`open M`, `let open M in`, `M.(e)`), innermost last,
    /// each with the length of `env` when it was opened ([`Inferer::variable`]).
    opens: Vec<(Rc<str>, usize)>,
}

impl Inferer {
    fn fresh(&mut self) -> Ty {
        self.typing.subst.fresh(self.level)
    }

    fn item(&mut self, item: &Item) -> R<()> {
        match item {
            Item::Let(group) => self.let_group(group),
            Item::Types(group) => self.type_group(group),
            Item::Open(module) => self.open(module),
            Item::Exception(name, arg) => {
                self.constructors.remove(&name.text);
                let arg = match arg {
                    Some(t) => Some(self.annot_type(t)?),
                    None => None,
                };
                self.typing.exceptions.insert(name.text.clone(), arg);
                Ok(())
            }
        }
    }

    // ----- let -----

    /// Infers a `let` group and brings its variables into scope (the caller pops them).
    fn let_group(&mut self, group: &LetGroup) -> R<()> {
        if group.recursive {
            self.let_rec_group(group)
        } else {
            self.let_plain_group(group)
        }
    }

    fn let_plain_group(&mut self, group: &LetGroup) -> R<()> {
        let mut bound = Vec::new();
        let mut types = Vec::new();
        self.level += 1;
        for b in &group.bindings {
            let t = self.expr(&b.value)?;
            self.pattern(&b.pattern, &t, &mut bound)?;
            types.push(t);
        }
        self.level -= 1;
        // OCaml's relaxed value restriction: a nonexpansive right-hand side generalises
        // every variable, an expansive one those only in covariant positions. Beyond
        // syntactic values, only for `let x = ...` (a pattern's variables would share the
        // instances of one computation, which the translation does not split).
        let simple = group
            .bindings
            .iter()
            .all(|b| var_pattern_id(&b.pattern).is_some());
        let values = group.bindings.iter().all(|b| is_value(&b.value))
            || simple
                && group
                    .bindings
                    .iter()
                    .all(|b| is_nonexpansive(&self.typing, &b.value));
        if values {
            self.generalise(true, &types, &bound);
        } else if simple {
            self.generalise_covariant(&types, &bound);
        }
        self.weaken(&types, &bound);
        self.env.extend(bound);
        Ok(())
    }

    fn let_rec_group(&mut self, group: &LetGroup) -> R<()> {
        let mut bound = Vec::new();
        let mut types = Vec::new();
        self.level += 1;
        for b in &group.bindings {
            let PatternKind::Var(id, name) = &b.pattern.kind else {
                return Err(Diagnostic::error(
                    b.pattern.span,
                    "only variables are allowed on the left of `let rec`",
                    "expected a function name",
                ));
            };
            // The function's arity is known from its `fun` before its body is read, so a
            // recursive call that gives fewer arguments (`f (n - 1) x` of `f n x q`) is a
            // partial application, not a function of another arity.
            let t = match &b.value.kind {
                ExprKind::Fun(params, _) => {
                    let params = params.iter().map(|_| self.fresh()).collect();
                    Ty::fun(params, self.fresh())
                }
                ExprKind::Function(_) => Ty::fun(vec![self.fresh()], self.fresh()),
                _ => self.fresh(),
            };
            self.typing.var_types[id.0 as usize] = t.clone();
            bound.push((name.text.clone(), *id));
            types.push(t);
        }
        self.env.extend(bound.iter().cloned());
        for (b, t) in group.bindings.iter().zip(&types) {
            if !matches!(b.value.kind, ExprKind::Fun(..) | ExprKind::Function(..)) {
                return Err(Diagnostic::error(
                    b.value.span,
                    "the right-hand side of `let rec` must be a function",
                    "expected `fun ...` or `function ...`",
                ));
            }
            let found = self.expr(&b.value)?;
            self.expect(&b.value, &found, t)?;
        }
        self.level -= 1;
        self.env.truncate(self.env.len() - bound.len());
        self.generalise(true, &types, &bound);
        self.env.extend(bound);
        Ok(())
    }

    /// Brings the variables of `types` that the group did not quantify down to the current
    /// level: they are OCaml's weak type variables (`let pending = ref []`), fixed by later
    /// uses and never generalised by a later `let` (which would copy a function using
    /// `pending` at several element types and give an ill-typed core program).
    fn weaken(&mut self, types: &[Ty], bound: &[(Rc<str>, VarId)]) {
        let quantified: Vec<u32> = bound
            .iter()
            .filter_map(|(_, id)| self.typing.quantified.get(id))
            .flatten()
            .copied()
            .collect();
        for t in types {
            self.typing.subst.lower_levels(t, self.level, &quantified);
        }
    }

    /// Quantifies the variables of `types` above the current level that occur only in
    /// covariant positions of all of them (`let l = rev []`: `'a list`).
    fn generalise_covariant(&mut self, types: &[Ty], bound: &[(Rc<str>, VarId)]) {
        let mut vars = Vec::new();
        let mut excluded = Vec::new();
        for t in types {
            self.typing.subst.generalisable(t, self.level, &mut vars);
            self.typing.subst.non_covariant(t, false, &mut excluded);
        }
        vars.retain(|v| !excluded.contains(v));
        if vars.is_empty() {
            return;
        }
        for (_, id) in bound {
            self.typing.quantified.insert(*id, vars.clone());
        }
    }

    /// Quantifies the variables of `types` above the current level, shared by the group.
    fn generalise(&mut self, values: bool, types: &[Ty], bound: &[(Rc<str>, VarId)]) {
        if !values {
            return;
        }
        let mut vars = Vec::new();
        for t in types {
            self.typing.subst.generalisable(t, self.level, &mut vars);
        }
        if vars.is_empty() {
            return;
        }
        for (_, id) in bound {
            self.typing.quantified.insert(*id, vars.clone());
        }
    }

    // ----- patterns -----

    /// Checks `p` against `t`; its variables go to `bound`.
    fn pattern(&mut self, p: &Pattern, t: &Ty, bound: &mut Vec<(Rc<str>, VarId)>) -> R<()> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.pattern_inner(p, t, bound))
    }

    fn pattern_inner(&mut self, p: &Pattern, t: &Ty, bound: &mut Vec<(Rc<str>, VarId)>) -> R<()> {
        match &p.kind {
            PatternKind::Wild => Ok(()),
            PatternKind::Var(id, name) => self.bind_var(*id, name, t, bound),
            PatternKind::Int(_) => self.expect_pat(p, &Ty::Int, t),
            PatternKind::Bool(_) => self.expect_pat(p, &Ty::Bool, t),
            PatternKind::Unit => self.expect_pat(p, &Ty::Unit, t),
            PatternKind::Nil => {
                let elem = self.fresh();
                self.expect_pat(p, &Ty::List(Box::new(elem)), t)
            }
            PatternKind::Cons(h, tl) => {
                let elem = self.fresh();
                let list = Ty::List(Box::new(elem.clone()));
                self.expect_pat(p, &list, t)?;
                self.pattern(h, &elem, bound)?;
                self.pattern(tl, &list, bound)
            }
            PatternKind::Tuple(items) => {
                let types: Vec<Ty> = items.iter().map(|_| self.fresh()).collect();
                self.expect_pat(p, &Ty::Tuple(types.clone()), t)?;
                for (item, ty) in items.iter().zip(&types) {
                    self.pattern(item, ty, bound)?;
                }
                Ok(())
            }
            PatternKind::Construct(name, arg) => match self.variant_ctor(name) {
                Some(ctor) => self.variant_pattern(p, ctor, name, arg.as_deref(), t, bound),
                None => self.construct_pattern(p, name, arg.as_deref(), t, bound),
            },
            PatternKind::Or(a, b) => {
                let before = bound.len();
                self.pattern(a, t, bound)?;
                let mut right = bound[..before].to_vec();
                self.pattern(b, t, &mut right)?;
                let (left, right) = (&bound[before..], &right[before..]);
                if left.is_empty() && right.is_empty() {
                    return Ok(());
                }
                if !self.or_vars {
                    return Err(unsupported(
                        p.span,
                        "or-patterns that bind variables outside the cases of a `match`, \
                         `function` or `try`, or under a `when` guard where a value may \
                         match two of the alternatives",
                    ));
                }
                // Both sides bind the same names at the same types; the body sees the left
                // side's variables (the translation renames the right side's to them).
                let mut names: Vec<&Rc<str>> = left.iter().map(|(n, _)| n).collect();
                let mut others: Vec<&Rc<str>> = right.iter().map(|(n, _)| n).collect();
                names.sort();
                others.sort();
                if names != others {
                    let missing = names
                        .iter()
                        .find(|n| !others.contains(n))
                        .or_else(|| others.iter().find(|n| !names.contains(n)))
                        .map_or_else(String::new, |n| n.to_string());
                    return Err(Diagnostic::error(
                        p.span,
                        format!(
                            "the variable `{missing}` must occur on both sides of this `|` pattern"
                        ),
                        "an or-pattern",
                    ));
                }
                for (name, id) in right {
                    let (_, mine) = left.iter().find(|(n, _)| n == name).expect("same names");
                    let (a, b) = (
                        self.typing.var_types[mine.0 as usize].clone(),
                        self.typing.var_types[id.0 as usize].clone(),
                    );
                    self.typing
                        .subst
                        .unify(&a, &b)
                        .map_err(|m| mismatch(p.span, "or-pattern variable", m))?;
                }
                Ok(())
            }
            PatternKind::Alias(inner, id, name) => {
                self.pattern(inner, t, bound)?;
                self.bind_var(*id, name, t, bound)
            }
            PatternKind::Record(fields) => self.record_pattern(p, fields, t, bound),
            PatternKind::Annot(inner, te) => {
                self.annot(te, t, p.span)?;
                self.pattern(inner, t, bound)
            }
        }
    }

    fn bind_var(
        &mut self,
        id: VarId,
        name: &Name,
        t: &Ty,
        bound: &mut Vec<(Rc<str>, VarId)>,
    ) -> R<()> {
        if bound.iter().any(|(n, _)| *n == name.text) {
            return Err(Diagnostic::error(
                name.span,
                format!(
                    "the variable `{}` is bound several times in this pattern",
                    name.text
                ),
                "bound again here",
            ));
        }
        self.typing.var_types[id.0 as usize] = t.clone();
        bound.push((name.text.clone(), id));
        Ok(())
    }

    fn construct_pattern(
        &mut self,
        p: &Pattern,
        name: &Name,
        arg: Option<&Pattern>,
        t: &Ty,
        bound: &mut Vec<(Rc<str>, VarId)>,
    ) -> R<()> {
        let declared = self.exception(name)?;
        self.expect_pat(p, &Ty::Exn, t)?;
        match (declared, arg) {
            (None, None) => Ok(()),
            (Some(arg_ty), Some(arg)) => self.pattern(arg, &arg_ty, bound),
            (Some(_), None) => Err(Diagnostic::error(
                p.span,
                format!("the exception `{}` carries an argument", name.text),
                "expected a pattern for its argument",
            )),
            (None, Some(_)) => Err(Diagnostic::error(
                p.span,
                format!("the exception `{}` carries no argument", name.text),
                "remove the argument pattern",
            )),
        }
    }

    /// `let exception E [of t] in body`: `E` names this exception in `body` only (hiding a
    /// constructor or exception of that name there).
    fn let_exception(&mut self, name: &Name, arg: Option<&TypeExpr>, body: &Expr) -> R<Ty> {
        let arg = match arg {
            Some(t) => Some(self.annot_type(t)?),
            None => None,
        };
        self.typing
            .local_exceptions
            .push((name.clone(), arg.clone()));
        let hidden_ctor = self.constructors.remove(&name.text);
        let hidden = self.typing.exceptions.insert(name.text.clone(), arg);
        let result = self.expr(body);
        match hidden {
            Some(h) => self.typing.exceptions.insert(name.text.clone(), h),
            None => self.typing.exceptions.remove(&name.text),
        };
        if let Some(c) = hidden_ctor {
            self.constructors.insert(name.text.clone(), c);
        }
        result
    }

    fn exception(&self, name: &Name) -> R<Option<Ty>> {
        match self.typing.exceptions.get(&name.text) {
            Some(arg) => Ok(arg.clone()),
            None if matches!(&*name.text, "Some" | "None" | "Ok" | "Error") => {
                Err(unsupported(name.span, "variants (`option`, `result`)"))
            }
            None => Err(Diagnostic::error(
                name.span,
                format!(
                    "unknown constructor `{}` (only exceptions declared with `exception` are constructors in the subset)",
                    name.text
                ),
                "not a declared exception",
            )),
        }
    }

    fn expect_pat(&mut self, p: &Pattern, found: &Ty, expected: &Ty) -> R<()> {
        let m = self.typing.subst.unify(found, expected);
        m.map_err(|m| mismatch(p.span, "pattern", m))
    }

    // ----- expressions -----

    fn expr(&mut self, e: &Expr) -> R<Ty> {
        let t = stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.expr_kind(e))?;
        self.typing.expr_types[e.id.0 as usize] = t.clone();
        Ok(t)
    }

    /// Checks `e` against `expected`.
    fn check(&mut self, e: &Expr, expected: &Ty) -> R<()> {
        let found = self.expr(e)?;
        self.expect(e, &found, expected)
    }

    fn expect(&mut self, e: &Expr, found: &Ty, expected: &Ty) -> R<()> {
        let m = self.typing.subst.unify(found, expected);
        m.map_err(|m| mismatch(e.span, "expression", m))
    }

    fn expr_kind(&mut self, e: &Expr) -> R<Ty> {
        match &e.kind {
            ExprKind::Int(_) => Ok(Ty::Int),
            ExprKind::Bool(_) => Ok(Ty::Bool),
            ExprKind::Unit => Ok(Ty::Unit),
            ExprKind::Str(_) => Err(unsupported(
                e.span,
                "strings (a string literal is allowed only as the argument of print_string, print_endline or failwith)",
            )),
            ExprKind::Nil => Ok(Ty::List(Box::new(self.fresh()))),
            ExprKind::Var(name) => self.variable(e, name),
            ExprKind::Construct(name, arg) => self.construct(e, name, arg.as_deref()),
            ExprKind::Fun(params, body) => self.fun(params, body),
            ExprKind::Function(cases) => {
                let param = self.fresh();
                let result = self.fresh();
                self.cases(cases, &param, &result)?;
                Ok(Ty::fun(vec![param], result))
            }
            ExprKind::App(func, args) => self.application(func, args),
            ExprKind::Let(group, body) => {
                let depth = self.env.len();
                self.let_group(group)?;
                let t = self.expr(body);
                self.env.truncate(depth);
                t
            }
            ExprKind::If(c, t, f) => self.conditional(c, t, f.as_deref()),
            ExprKind::Seq(a, b) => {
                self.expr(a)?;
                self.expr(b)
            }
            ExprKind::Match(scrutinee, cases) => {
                let s = self.expr(scrutinee)?;
                let result = self.fresh();
                self.cases(cases, &s, &result)?;
                Ok(result)
            }
            ExprKind::Try(body, cases) => {
                let result = self.expr(body)?;
                self.cases(cases, &Ty::Exn, &result)?;
                Ok(result)
            }
            ExprKind::MatchExn(scrutinee, cases, exceptions) => {
                let s = self.expr(scrutinee)?;
                let result = self.fresh();
                self.cases(cases, &s, &result)?;
                self.cases(exceptions, &Ty::Exn, &result)?;
                Ok(result)
            }
            ExprKind::Tuple(items) => {
                let types = items.iter().map(|i| self.expr(i)).collect::<R<Vec<_>>>()?;
                Ok(Ty::Tuple(types))
            }
            ExprKind::LetException(name, arg, body) => self.let_exception(name, arg.as_ref(), body),
            ExprKind::Open(module, body) => {
                self.open(module)?;
                let t = self.expr(body);
                self.opens.pop();
                t
            }
            ExprKind::Record(fields, base) => self.record_expr(e, fields, base.as_deref()),
            ExprKind::Field(record, field) => self.field(e, record, field, None),
            ExprKind::SetField(record, field, value) => {
                self.field(e, record, field, Some(value))?;
                Ok(Ty::Unit)
            }
            ExprKind::Cons(h, t) => {
                let elem = self.expr(h)?;
                let list = Ty::List(Box::new(elem));
                self.check(t, &list)?;
                Ok(list)
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b),
            ExprKind::Neg(x) => {
                self.check(x, &Ty::Int)?;
                Ok(Ty::Int)
            }
            ExprKind::Deref(r) => {
                let content = self.fresh();
                self.check(r, &Ty::Ref(Box::new(content.clone())))?;
                Ok(content)
            }
            ExprKind::Assign(r, v) => {
                let content = self.expr(v)?;
                self.check(r, &Ty::Ref(Box::new(content)))?;
                Ok(Ty::Unit)
            }
            // `assert false` never returns: like `raise`, it has any type.
            ExprKind::Assert(c) if matches!(c.kind, ExprKind::Bool(false)) => Ok(self.fresh()),
            ExprKind::Assert(c) => {
                self.check(c, &Ty::Bool)?;
                Ok(Ty::Unit)
            }
            ExprKind::Annot(x, te) => {
                let t = self.expr(x)?;
                self.annot(te, &t, x.span)?;
                Ok(t)
            }
        }
    }

    /// Opens the Stdlib module `module` (an error for any other module).
    fn open(&mut self, module: &Name) -> R<()> {
        if !OPENABLE.contains(&&*module.text) {
            return Err(unsupported(
                module.span,
                &format!(
                    "modules (`open {}`; only the Stdlib modules of the prelude can be opened: {})",
                    module.text,
                    OPENABLE.join(", ")
                ),
            ));
        }
        self.opens.push((module.text.clone(), self.env.len()));
        Ok(())
    }

    /// A name under the opened modules: a variable bound after the innermost `open` that
    /// has it, else that module's `M.name`, as OCaml's scoping has it; `None` when no
    /// opened module has the name.
    fn opened(&mut self, e: &Expr, name: &Name) -> Option<Ty> {
        if name.text.contains('.') {
            return None;
        }
        let mut upper = self.env.len();
        for i in (0..self.opens.len()).rev() {
            let (module, mark) = self.opens[i].clone();
            let mark = mark.min(upper);
            if self.env[mark..upper].iter().any(|(n, _)| *n == name.text) {
                return None;
            }
            let qualified = Name {
                text: format!("{module}.{}", name.text).into(),
                span: name.span,
            };
            if self.env.iter().any(|(n, _)| *n == qualified.text)
                || self.prelude(&qualified.text).is_some()
            {
                return self.variable(e, &qualified).ok();
            }
            upper = mark;
        }
        None
    }

    fn variable(&mut self, e: &Expr, name: &Name) -> R<Ty> {
        if !self.opens.is_empty()
            && let Some(t) = self.opened(e, name)
        {
            return Ok(t);
        }
        if let Some((_, id)) = self.env.iter().rev().find(|(n, _)| *n == name.text) {
            let id = *id;
            self.typing.resolutions.insert(e.id, Resolved::Var(id));
            return Ok(self.instantiate(e, id));
        }
        let Some((canonical, t)) = self.prelude(&name.text) else {
            return Err(self.unknown_name(name));
        };
        self.typing
            .resolutions
            .insert(e.id, Resolved::Prelude(canonical));
        Ok(t)
    }

    fn unknown_name(&self, name: &Name) -> Diagnostic {
        if *name.text == *"op#caret" {
            return unsupported(
                name.span,
                "string concatenation `^` (strings are read only as printed: see docs/ocaml.md, \"Printing\")",
            );
        }
        if matches!(&*name.text, "exit" | "Stdlib.exit") {
            return unsupported(
                name.span,
                "`exit` (a run that stops without failing is not in the core; raise an exception the entry catches)",
            );
        }
        if matches!(&*name.text, "Printf.printf" | "Printf.eprintf") {
            return unsupported(
                name.span,
                &format!(
                    "`{}` as a value (apply it to a literal format: see docs/ocaml.md, \"Printing\")",
                    name.text
                ),
            );
        }
        if matches!(
            &*name.text,
            "Printf.sprintf"
                | "string_of_int"
                | "string_of_bool"
                | "Int.to_string"
                | "Bool.to_string"
        ) {
            return unsupported(
                name.span,
                &format!(
                    "strings (`{}` other than in what is printed: see docs/ocaml.md, \"Printing\")",
                    name.text
                ),
            );
        }
        if name.text.starts_with("op#") {
            return Diagnostic::error(
                name.span,
                format!("unbound operator (`{}`)", name.text),
                "no `let ( op ) a b = ..` defines this operator",
            );
        }
        if name.text.contains('.') {
            return unsupported(
                name.span,
                &format!(
                    "modules (`{}`; of the Stdlib only Random.int, Random.bool, the prelude and the `List`, `Option`, `Array`, `Result` and `Fun` functions of docs/ocaml.md are known)",
                    name.text
                ),
            );
        }
        Diagnostic::error(
            name.span,
            format!("unbound value `{}`", name.text),
            "not a variable in scope or a prelude function",
        )
    }

    /// The type of variable `id` at this use: a fresh instance of its scheme.
    fn instantiate(&mut self, e: &Expr, id: VarId) -> Ty {
        let t = self.typing.var_type(id);
        let Some(vars) = self.typing.quantified.get(&id).cloned() else {
            return t;
        };
        let fresh: Vec<Ty> = vars.iter().map(|_| self.fresh()).collect();
        let instance = substitute(&t, &vars, &fresh);
        self.typing.instances.insert(e.id, fresh);
        instance
    }

    fn construct(&mut self, e: &Expr, name: &Name, arg: Option<&Expr>) -> R<Ty> {
        if let Some(ctor) = self.variant_ctor(name) {
            return self.variant_construct(e, ctor, name, arg);
        }
        let declared = self.exception(name)?;
        match (declared, arg) {
            (None, None) => Ok(Ty::Exn),
            (Some(Ty::Str), Some(arg)) if matches!(arg.kind, ExprKind::Str(_)) => {
                self.typing.expr_types[arg.id.0 as usize] = Ty::Str;
                Ok(Ty::Exn)
            }
            (Some(t), Some(arg)) => {
                self.check(arg, &t)?;
                Ok(Ty::Exn)
            }
            (Some(t), None) => Err(Diagnostic::error(
                e.span,
                format!(
                    "the exception `{}` takes an argument of type `{t}`",
                    name.text
                ),
                "expected an argument",
            )),
            (None, Some(_)) => Err(Diagnostic::error(
                e.span,
                format!("the exception `{}` takes no argument", name.text),
                "remove the argument",
            )),
        }
    }

    fn fun(&mut self, params: &[Pattern], body: &Expr) -> R<Ty> {
        let depth = self.env.len();
        let mut param_types = Vec::new();
        let mut bound = Vec::new();
        // Each parameter is a pattern of its own (`fun a -> fun a -> ..`): a name may be
        // bound again by a later parameter, which shadows the earlier one, as in OCaml.
        for p in params {
            let t = self.fresh();
            let mut own = Vec::new();
            self.pattern(p, &t, &mut own)?;
            bound.extend(own);
            param_types.push(t);
        }
        self.env.extend(bound);
        let result = self.expr(body);
        self.env.truncate(depth);
        Ok(Ty::fun(param_types, result?))
    }

    fn cases(&mut self, cases: &[Case], scrutinee: &Ty, result: &Ty) -> R<()> {
        for case in cases {
            let depth = self.env.len();
            let mut bound = Vec::new();
            let allowed = case.guard.is_none() || super::or_patterns::guard_allows(&case.pattern);
            let outer = std::mem::replace(&mut self.or_vars, allowed);
            let typed = self.pattern(&case.pattern, scrutinee, &mut bound);
            self.or_vars = outer;
            typed?;
            self.env.extend(bound);
            if let Some(g) = &case.guard {
                self.check(g, &Ty::Bool)?;
            }
            self.check(&case.body, result)?;
            self.env.truncate(depth);
        }
        Ok(())
    }

    fn application(&mut self, func: &Expr, args: &[Expr]) -> R<Ty> {
        let mut t = self.expr(func)?;
        let consumer = matches!(
            self.typing.resolutions.get(&func.id),
            Some(Resolved::Prelude(p)) if STRING_CONSUMERS.contains(p)
        );
        let mut rest = args;
        while !rest.is_empty() {
            let (mut params, mut result) = self.function_type(func, &t, rest.len())?;
            if params.len() > rest.len() {
                // A partial application: a function of the parameters left over.
                let left = params.split_off(rest.len());
                result = Ty::fun(left, result);
            }
            for (arg, p) in rest.iter().zip(&params) {
                if consumer && matches!(arg.kind, ExprKind::Str(_)) {
                    self.typing.expr_types[arg.id.0 as usize] = Ty::Str;
                    self.expect(arg, &Ty::Str, p)?;
                } else {
                    self.argument(arg, p)?;
                }
            }
            rest = &rest[params.len()..];
            t = result;
        }
        Ok(t)
    }

    /// Checks an argument against its parameter's type; an arity mismatch an adapter
    /// resolves is recorded for [`infer_program`].
    fn argument(&mut self, arg: &Expr, param: &Ty) -> R<()> {
        let found = self.expr(arg)?;
        let adapt = adapters::Adapt::between(&self.typing.subst, arg.id, &found, param);
        let result = self.expect(arg, &found, param);
        if result.is_err() {
            self.adapt = adapt;
        }
        result
    }

    /// The parameters and result of a function of type `t` applied to `given` arguments; an
    /// unknown function type becomes a function of `given` parameters.
    fn function_type(&mut self, func: &Expr, t: &Ty, given: usize) -> R<(Vec<Ty>, Ty)> {
        match self.typing.subst.shallow(t) {
            Ty::Fun(params, result) => Ok((params, *result)),
            Ty::Var(_) => {
                let params: Vec<Ty> = (0..given).map(|_| self.fresh()).collect();
                let result = self.fresh();
                self.expect(func, t, &Ty::fun(params.clone(), result.clone()))?;
                Ok((params, result))
            }
            other => Err(Diagnostic::error(
                func.span,
                format!(
                    "this expression has type `{}`; it is not a function and cannot be applied",
                    self.typing.subst.resolve(&other)
                ),
                "not a function",
            )),
        }
    }

    fn conditional(&mut self, c: &Expr, t: &Expr, f: Option<&Expr>) -> R<Ty> {
        self.check(c, &Ty::Bool)?;
        let result = self.expr(t)?;
        match f {
            Some(f) => self.check(f, &result)?,
            None => self.expect(t, &result, &Ty::Unit)?,
        }
        Ok(result)
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr) -> R<Ty> {
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod => {
                self.check(a, &Ty::Int)?;
                self.check(b, &Ty::Int)?;
                Ok(Ty::Int)
            }
            BinOp::And | BinOp::Or => {
                self.check(a, &Ty::Bool)?;
                self.check(b, &Ty::Bool)?;
                Ok(Ty::Bool)
            }
            _ => {
                let t = self.expr(a)?;
                self.check(b, &t)?;
                Ok(Ty::Bool)
            }
        }
    }

    // ----- annotations -----

    fn annot_type(&mut self, te: &TypeExpr) -> R<Ty> {
        match te {
            TypeExpr::Var(name, _) => {
                if let Some(t) = self.annot_vars.get(name) {
                    return Ok(t.clone());
                }
                if self.closed_annotations {
                    return Err(Diagnostic::error(
                        te.span(),
                        format!(
                            "the type variable `'{name}` is not a parameter of this type definition"
                        ),
                        "unbound type parameter",
                    ));
                }
                let t = self.fresh();
                self.annot_vars.insert(name.clone(), t.clone());
                Ok(t)
            }
            TypeExpr::Named(name, args, span) => self.named_type(name, args, *span),
            TypeExpr::Arrow(..) => {
                let (params, result) = arrow_spine(te);
                let params = params
                    .into_iter()
                    .map(|p| self.annot_type(p))
                    .collect::<R<Vec<_>>>()?;
                Ok(Ty::fun(params, self.annot_type(result)?))
            }
            TypeExpr::Tuple(items) => {
                let items = items
                    .iter()
                    .map(|i| self.annot_type(i))
                    .collect::<R<Vec<_>>>()?;
                Ok(Ty::Tuple(items))
            }
        }
    }

    fn named_type(&mut self, name: &str, args: &[TypeExpr], span: Span) -> R<Ty> {
        let arity_error = || {
            Diagnostic::error(
                span,
                format!(
                    "the type `{name}` takes {} argument(s)",
                    if matches!(name, "list" | "ref") { 1 } else { 0 }
                ),
                "wrong number of type arguments",
            )
        };
        match (name, args) {
            ("int", []) => Ok(Ty::Int),
            ("bool", []) => Ok(Ty::Bool),
            ("unit", []) => Ok(Ty::Unit),
            ("exn", []) => Ok(Ty::Exn),
            ("string", []) => Ok(Ty::Str),
            ("list", [a]) => Ok(Ty::List(Box::new(self.annot_type(a)?))),
            ("ref", [a]) => Ok(Ty::Ref(Box::new(self.annot_type(a)?))),
            ("array", [a]) => Ok(Ty::Array(Box::new(self.annot_type(a)?))),
            ("int" | "bool" | "unit" | "exn" | "string" | "list" | "ref" | "array", _) => {
                Err(arity_error())
            }
            ("float" | "char", _) => Err(unsupported(span, &format!("the type `{name}`"))),
            (_, _) if self.variant_named(name).is_some() => {
                let index = self.variant_named(name).unwrap_or_default();
                let args = args
                    .iter()
                    .map(|a| self.annot_type(a))
                    .collect::<R<Vec<_>>>()?;
                self.variant_type(index, args, span)
            }
            ("bytes", _) => Err(unsupported(span, &format!("the type `{name}`"))),
            (_, _) if self.record_named(name).is_some() => {
                let index = self.record_named(name).unwrap_or_default();
                let args = args
                    .iter()
                    .map(|a| self.annot_type(a))
                    .collect::<R<Vec<_>>>()?;
                self.record_type_at(index, &args, span)
            }
            _ => Err(Diagnostic::error(
                span,
                format!(
                    "unknown type `{name}` (not a type of the subset or of an earlier definition)"
                ),
                "not a type of the subset",
            )),
        }
    }

    /// Checks the annotation `te` against `t`. An arrow in `te` fits a function type of any
    /// arity whose parameters it spells out in order.
    fn annot(&mut self, te: &TypeExpr, t: &Ty, span: Span) -> R<()> {
        if let TypeExpr::Arrow(..) = te
            && let Ty::Fun(params, result) = self.typing.subst.shallow(t)
        {
            let (written, written_result) = arrow_spine(te);
            if written.len() < params.len() {
                let annotated = self.annot_type(te)?;
                return Err(mismatch(
                    span,
                    "expression",
                    Mismatch::Arity(self.typing.subst.resolve(t), annotated),
                ));
            }
            for (w, p) in written.iter().zip(&params) {
                self.annot(w, p, span)?;
            }
            let rest = rebuild_arrow(&written[params.len()..], written_result);
            return self.annot(&rest, &result, span);
        }
        let annotated = self.annot_type(te)?;
        let m = self.typing.subst.unify(t, &annotated);
        m.map_err(|m| mismatch(span, "expression", m))
    }
}

/// The parameters and the final result of an arrow type as written.
fn arrow_spine(te: &TypeExpr) -> (Vec<&TypeExpr>, &TypeExpr) {
    let mut params = Vec::new();
    let mut t = te;
    while let TypeExpr::Arrow(a, b) = t {
        params.push(&**a);
        t = b;
    }
    (params, t)
}

fn rebuild_arrow(params: &[&TypeExpr], result: &TypeExpr) -> TypeExpr {
    params.iter().rev().fold(result.clone(), |acc, p| {
        TypeExpr::Arrow(Box::new((*p).clone()), Box::new(acc))
    })
}

/// The variable `p` binds, if it is one (`x` or `(x : t)`).
fn var_pattern_id(p: &Pattern) -> Option<VarId> {
    match &p.kind {
        PatternKind::Var(id, _) => Some(*id),
        PatternKind::Annot(inner, _) => var_pattern_id(inner),
        _ => None,
    }
}

/// Whether `e` is a syntactic value (OCaml's original value restriction).
fn is_value(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_)
        | ExprKind::Bool(_)
        | ExprKind::Unit
        | ExprKind::Str(_)
        | ExprKind::Nil
        | ExprKind::Var(_)
        | ExprKind::Fun(..)
        | ExprKind::Function(_)
        | ExprKind::Construct(_, None) => true,
        ExprKind::Construct(_, Some(x)) | ExprKind::Annot(x, _) | ExprKind::Open(_, x) => {
            is_value(x)
        }
        ExprKind::Tuple(items) => items.iter().all(is_value),
        ExprKind::Cons(a, b) => is_value(a) && is_value(b),
        _ => false,
    }
}

/// Whether `e` is nonexpansive, OCaml's criterion for generalising a `let` (the relaxed
/// value restriction, `Typecore.is_nonexpansive`): constants, variables, functions,
/// constructors, tuples and lists of nonexpansive parts, `let ... in e` whose bindings and
/// body are nonexpansive, `match` with a nonexpansive scrutinee, guards and cases, `if`
/// whose branches are (the condition is not looked at), `e1; e2` when `e2` is, `assert e`
/// and `raise e` when `e` is. An application (an operator too) is expansive.
pub fn is_nonexpansive(typing: &Typing, e: &Expr) -> bool {
    let ne = |x: &Expr| is_nonexpansive(typing, x);
    match &e.kind {
        ExprKind::Int(_)
        | ExprKind::Bool(_)
        | ExprKind::Unit
        | ExprKind::Str(_)
        | ExprKind::Nil
        | ExprKind::Var(_)
        | ExprKind::Fun(..)
        | ExprKind::Function(_)
        | ExprKind::Construct(_, None) => true,
        ExprKind::Construct(_, Some(x))
        | ExprKind::Annot(x, _)
        | ExprKind::Assert(x)
        | ExprKind::Open(_, x) => ne(x),
        ExprKind::Tuple(items) => items.iter().all(ne),
        ExprKind::Cons(a, b) => ne(a) && ne(b),
        ExprKind::Let(group, body) => group.bindings.iter().all(|b| ne(&b.value)) && ne(body),
        ExprKind::Match(x, cases) => {
            ne(x)
                && cases
                    .iter()
                    .all(|c| c.guard.as_ref().is_none_or(ne) && ne(&c.body))
        }
        ExprKind::If(_, then, otherwise) => ne(then) && otherwise.as_deref().is_none_or(ne),
        ExprKind::Seq(_, then) => ne(then),
        ExprKind::App(f, args) => {
            args.len() == 1
                && matches!(
                    typing.resolutions.get(&f.id),
                    Some(Resolved::Prelude("raise"))
                )
                && ne(&args[0])
        }
        _ => false,
    }
}

fn mismatch(span: Span, what: &str, m: Mismatch) -> Diagnostic {
    match m {
        Mismatch::Types(found, expected) => Diagnostic::error(
            span,
            format!("type mismatch: this {what} has type `{found}` but `{expected}` was expected"),
            format!("this has type `{found}`"),
        ),
        Mismatch::Occurs(v, t) => Diagnostic::error(
            span,
            format!("type mismatch: the type `{v}` would have to contain itself (`{t}`)"),
            "a recursive type",
        ),
        Mismatch::Arity(found, expected) => {
            let arity = |t: &Ty| if let Ty::Fun(ps, _) = t { ps.len() } else { 0 };
            unsupported(
                span,
                &format!(
                    "a function taking {} argument(s) at once (`{found}`) used where one taking {} at once is expected (`{expected}`): no arity adapter applies here (only a function passed as an argument is adapted, and only by splitting its stages, never by merging them); eta-expand it (`fun x -> f x`)",
                    arity(&found),
                    arity(&expected)
                ),
            )
        }
    }
}

/// The prelude: a canonical name and a fresh instance of the type of `name`, if it is one.
impl Inferer {
    fn prelude(&mut self, name: &str) -> Option<(&'static str, Ty)> {
        let int2 = || Ty::fun(vec![Ty::Int, Ty::Int], Ty::Int);
        let int1 = || Ty::fun(vec![Ty::Int], Ty::Int);
        let (canonical, t): (&'static str, Ty) = match name {
            "fst" | "snd" => {
                let (a, b) = (self.fresh(), self.fresh());
                let r = if name == "fst" { a.clone() } else { b.clone() };
                (
                    if name == "fst" { "fst" } else { "snd" },
                    Ty::fun(vec![Ty::Tuple(vec![a, b])], r),
                )
            }
            "max_int" => ("max_int", Ty::Int),
            "min_int" => ("min_int", Ty::Int),
            "abs" => ("abs", int1()),
            "succ" => ("succ", int1()),
            "pred" => ("pred", int1()),
            "min" => ("min", int2()),
            "max" => ("max", int2()),
            "compare" => ("compare", int2()),
            "not" => ("not", Ty::fun(vec![Ty::Bool], Ty::Bool)),
            "ignore" => ("ignore", Ty::fun(vec![self.fresh()], Ty::Unit)),
            "print_int" => ("print_int", Ty::fun(vec![Ty::Int], Ty::Unit)),
            "print_string" => ("print_string", Ty::fun(vec![Ty::Str], Ty::Unit)),
            "print_endline" => ("print_endline", Ty::fun(vec![Ty::Str], Ty::Unit)),
            "prerr_string" => ("print_string", Ty::fun(vec![Ty::Str], Ty::Unit)),
            "prerr_endline" => ("print_endline", Ty::fun(vec![Ty::Str], Ty::Unit)),
            "print_newline" => ("print_newline", Ty::fun(vec![Ty::Unit], Ty::Unit)),
            "failwith" => ("failwith", Ty::fun(vec![Ty::Str], self.fresh())),
            "invalid_arg" => ("invalid_arg", Ty::fun(vec![Ty::Str], self.fresh())),
            "raise" => ("raise", Ty::fun(vec![Ty::Exn], self.fresh())),
            "ref" => {
                let a = self.fresh();
                ("ref", Ty::fun(vec![a.clone()], Ty::Ref(Box::new(a))))
            }
            "incr" => ("incr", Ty::fun(vec![Ty::Ref(Box::new(Ty::Int))], Ty::Unit)),
            "decr" => ("decr", Ty::fun(vec![Ty::Ref(Box::new(Ty::Int))], Ty::Unit)),
            "Array.make" => {
                let a = self.fresh();
                let array = Ty::Array(Box::new(a.clone()));
                ("Array.make", Ty::fun(vec![Ty::Int, a], array))
            }
            "Array.length" => {
                let array = Ty::Array(Box::new(self.fresh()));
                ("Array.length", Ty::fun(vec![array], Ty::Int))
            }
            "Array.get" => {
                let a = self.fresh();
                let array = Ty::Array(Box::new(a.clone()));
                ("Array.get", Ty::fun(vec![array, Ty::Int], a))
            }
            "Array.set" => {
                let a = self.fresh();
                let array = Ty::Array(Box::new(a.clone()));
                ("Array.set", Ty::fun(vec![array, Ty::Int, a], Ty::Unit))
            }
            ARRAY_LITERAL => {
                let a = self.fresh();
                let array = Ty::Array(Box::new(a.clone()));
                (ARRAY_LITERAL, Ty::fun(vec![Ty::List(Box::new(a))], array))
            }
            "Random.int" => ("Random.int", int1()),
            "Random.bool" => ("Random.bool", Ty::fun(vec![Ty::Unit], Ty::Bool)),
            "read_int" => ("read_int", Ty::fun(vec![Ty::Unit], Ty::Int)),
            _ => return self.operator(name),
        };
        Some((canonical, t))
    }

    /// An operator used as a function value: `( + )`, `( = )`, `( && )`, ...
    fn operator(&mut self, name: &str) -> Option<(&'static str, Ty)> {
        let canonical = OPERATORS.iter().find(|o| **o == name)?;
        let t = match *canonical {
            "( && )" | "( || )" | "( & )" | "( or )" => Ty::fun(vec![Ty::Bool, Ty::Bool], Ty::Bool),
            "( + )" | "( - )" | "( * )" | "( / )" | "( mod )" => {
                Ty::fun(vec![Ty::Int, Ty::Int], Ty::Int)
            }
            _ => {
                let a = self.fresh();
                Ty::fun(vec![a.clone(), a], Ty::Bool)
            }
        };
        Some((canonical, t))
    }
}

/// The operators that may be used as function values, as the parser names them.
pub const OPERATORS: &[&str] = &[
    "( + )", "( - )", "( * )", "( / )", "( mod )", "( = )", "( == )", "( <> )", "( != )", "( < )",
    "( <= )", "( > )", "( >= )", "( && )", "( & )", "( || )", "( or )",
];
