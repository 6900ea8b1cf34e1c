//! Type abbreviations: `type t = int * int`, `type id = int`, `type 'a pair = 'a * 'a`
//! (docs/ocaml.md, "Type abbreviations").
//!
//! An abbreviation is expanded where it is written: the parser keeps the definitions read
//! so far and replaces every later use `ts name` of one by its body with the parameters
//! replaced by `ts`, so inference and the translation never see it (OCaml's abbreviations
//! are transparent: `t` and `int * int` are the same type).
//!
//! Guarantees: a use gives the abbreviation as many arguments as it has parameters, or is
//! an error saying so; a use expands to at most [`MAX_EXPANSION`] nodes, or is an error; an abbreviation's body mentions only its own parameters (else an
//! error naming the type variable); a later definition of the same name (a record, a
//! variant or another abbreviation) replaces it for the uses after it. Abbreviations are
//! not recursive (as in OCaml without `-rectypes`): the name in its own body is an earlier
//! type of that name, if any.

use super::*;

/// One abbreviation: its parameters and its body.
#[derive(Clone, Debug)]
pub(super) struct Abbreviation {
    params: Vec<Rc<str>>,
    body: TypeExpr,
}

impl Parser {
    /// The body of `type params name = body` (after `=`), recorded for later uses.
    pub(super) fn abbreviation(&mut self, params: &[Name], name: &Name) -> PResult<()> {
        let body = self.type_expr()?;
        let known: Vec<Rc<str>> = params.iter().map(|p| p.text.clone()).collect();
        if let Some((var, span)) = free_var(&body, &known) {
            return Err(Diagnostic::error(
                span,
                format!(
                    "the type variable `'{var}` is not a parameter of the abbreviation `{}`",
                    name.text
                ),
                "unbound type variable",
            ));
        }
        let abbreviation = Abbreviation {
            params: known,
            body,
        };
        self.abbreviations.insert(name.text.clone(), abbreviation);
        Ok(())
    }

    /// `args name` as written: its expansion if `name` is an abbreviation.
    pub(super) fn named_type(
        &self,
        name: Rc<str>,
        args: Vec<TypeExpr>,
        span: Span,
    ) -> PResult<TypeExpr> {
        let Some(abbreviation) = self.abbreviations.get(&name) else {
            return Ok(TypeExpr::Named(name, args, span));
        };
        if abbreviation.params.len() != args.len() {
            return Err(Diagnostic::error(
                span,
                format!(
                    "the type `{name}` takes {} argument(s), but is given {}",
                    abbreviation.params.len(),
                    args.len()
                ),
                "wrong number of type arguments",
            ));
        }
        let sizes: Vec<usize> = args.iter().map(size).collect();
        if expanded_size(&abbreviation.body, &abbreviation.params, &sizes) > MAX_EXPANSION {
            return Err(Diagnostic::error(
                span,
                format!(
                    "the type abbreviation `{name}` expands to more than {MAX_EXPANSION} type constructors"
                ),
                "abbreviation too large",
            ));
        }
        Ok(substitute(&abbreviation.body, &abbreviation.params, &args))
    }
}

/// The most type constructors one use of an abbreviation may expand to (abbreviations of
/// abbreviations grow exponentially: `type t2 = t1 * t1`).
const MAX_EXPANSION: usize = 100_000;

/// The number of nodes of `t`.
fn size(t: &TypeExpr) -> usize {
    match t {
        TypeExpr::Var(..) => 1,
        TypeExpr::Named(_, ts, _) | TypeExpr::Tuple(ts) => {
            ts.iter().fold(1, |n, t| n.saturating_add(size(t)))
        }
        TypeExpr::Arrow(a, b) => 1usize.saturating_add(size(a)).saturating_add(size(b)),
    }
}

/// The number of nodes of `t` with each parameter replaced by an argument of `sizes`.
fn expanded_size(t: &TypeExpr, params: &[Rc<str>], sizes: &[usize]) -> usize {
    let sub = |t: &TypeExpr| expanded_size(t, params, sizes);
    match t {
        TypeExpr::Var(v, _) => params.iter().position(|p| p == v).map_or(1, |i| sizes[i]),
        TypeExpr::Named(_, ts, _) | TypeExpr::Tuple(ts) => {
            ts.iter().fold(1, |n, t| n.saturating_add(sub(t)))
        }
        TypeExpr::Arrow(a, b) => 1usize.saturating_add(sub(a)).saturating_add(sub(b)),
    }
}

/// A type variable of `t` not in `known`, with its span.
fn free_var(t: &TypeExpr, known: &[Rc<str>]) -> Option<(Rc<str>, Span)> {
    match t {
        TypeExpr::Var(v, span) => (!known.contains(v)).then(|| (v.clone(), *span)),
        TypeExpr::Named(_, args, _) | TypeExpr::Tuple(args) => {
            args.iter().find_map(|a| free_var(a, known))
        }
        TypeExpr::Arrow(a, b) => free_var(a, known).or_else(|| free_var(b, known)),
    }
}

/// `t` with each parameter replaced by its argument.
fn substitute(t: &TypeExpr, params: &[Rc<str>], args: &[TypeExpr]) -> TypeExpr {
    match t {
        TypeExpr::Var(v, span) => match params.iter().position(|p| p == v) {
            Some(i) => args[i].clone(),
            None => TypeExpr::Var(v.clone(), *span),
        },
        TypeExpr::Named(n, ts, span) => TypeExpr::Named(
            n.clone(),
            ts.iter().map(|a| substitute(a, params, args)).collect(),
            *span,
        ),
        TypeExpr::Tuple(ts) => {
            TypeExpr::Tuple(ts.iter().map(|a| substitute(a, params, args)).collect())
        }
        TypeExpr::Arrow(a, b) => TypeExpr::Arrow(
            Box::new(substitute(a, params, args)),
            Box::new(substitute(b, params, args)),
        ),
    }
}
