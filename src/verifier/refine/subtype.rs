//! Where clauses are made: the clause sink (fresh variables, clause text) and the
//! subtyping of function values, `actual <: formal`, which a call, a returned closure and
//! a closure passed on all need.
//!
//! Guarantee: `actual <: formal` holds under the path facts when its clauses do: every
//! argument the holder of `formal` may pass satisfies `actual`'s `pre`, and every result
//! `actual` returns for such arguments satisfies `formal`'s `post` — contravariantly for
//! function-typed parameters, covariantly for function-typed results.

use super::template::{Shape, apply};
use super::value::{FunValue, Value, instantiate};
use crate::solver::Sort;
use crate::vc::horn::Clause;
use std::collections::BTreeSet;

/// The clauses made so far and the counter of fresh variables (`v!N`, all `Int`).
#[derive(Default)]
pub struct Sink {
    pub clauses: Vec<Clause>,
    next: usize,
}

impl Sink {
    pub fn fresh(&mut self) -> String {
        self.next += 1;
        format!("v!{}", self.next)
    }

    pub fn fresh_n(&mut self, n: usize) -> Vec<String> {
        (0..n).map(|_| self.fresh()).collect()
    }

    /// `∀ vars. body ⇒ head` (`None`: `false`); its variables are the `v!N` it mentions.
    pub fn emit(&mut self, what: String, body: Vec<String>, head: Option<String>) {
        let mut vars = BTreeSet::new();
        for text in body.iter().chain(&head) {
            for token in text.split(|c: char| c.is_whitespace() || c == '(' || c == ')') {
                if token.starts_with("v!") {
                    vars.insert(token.to_string());
                }
            }
        }
        self.clauses.push(Clause {
            what,
            vars: vars.into_iter().map(|v| (v, Sort::Int)).collect(),
            body,
            head,
        });
    }
}

/// Clauses for `actual <: shape at scope` under `facts`, for every function inside.
pub fn value(
    sink: &mut Sink,
    actual: &Value,
    shape: &Shape,
    scope: &[String],
    facts: &[String],
    globals: usize,
) {
    match (actual, shape) {
        (Value::Fun(a), Shape::Fun(template)) => {
            let formal = FunValue {
                template: template.clone(),
                scope: scope.to_vec(),
            };
            function(sink, a, &formal, facts, globals);
        }
        (Value::Pair(a, b), Shape::Pair(sa, sb)) => {
            value(sink, a, sa, scope, facts, globals);
            value(sink, b, sb, scope, facts, globals);
        }
        _ => {}
    }
}

/// Clauses for `actual <: formal` under `facts`.
pub fn function(
    sink: &mut Sink,
    actual: &FunValue,
    formal: &FunValue,
    facts: &[String],
    globals: usize,
) {
    let (a, f) = (&actual.template, &formal.template);
    let args = sink.fresh_n(f.param_ints());
    let before = sink.fresh_n(globals);
    let results = sink.fresh_n(f.ret.ints());
    let after = sink.fresh_n(globals);
    let formal_pre = apply(&f.pre, &[&formal.scope, &args, &before]);
    let mut assumed: Vec<String> = facts.to_vec();
    assumed.push(formal_pre);
    sink.emit(
        "subtyping: pre".into(),
        assumed.clone(),
        Some(apply(&a.pre, &[&actual.scope, &args, &before])),
    );
    let mut returned = assumed.clone();
    returned.push(apply(
        &a.post,
        &[&actual.scope, &args, &before, &results, &after],
    ));
    sink.emit(
        "subtyping: post".into(),
        returned.clone(),
        Some(apply(
            &f.post,
            &[&formal.scope, &args, &before, &results, &after],
        )),
    );
    let inner_formal: Vec<String> = formal.scope.iter().chain(&args).cloned().collect();
    let inner_actual: Vec<String> = actual.scope.iter().chain(&args).cloned().collect();
    // Parameters, contravariantly: what the holder of `formal` passes, as `actual` expects.
    let mut ints = args.iter().cloned();
    for (f_shape, a_shape) in f.params.iter().zip(&a.params) {
        let passed = instantiate(f_shape, &inner_formal, &mut ints);
        value(sink, &passed, a_shape, &inner_actual, &assumed, globals);
    }
    // The result, covariantly.
    let result = instantiate(&a.ret, &inner_actual, &mut results.iter().cloned());
    value(sink, &result, &f.ret, &inner_formal, &returned, globals);
}
