//! Top-level `let`s with a pattern: effect items `let () = e`, `let _ = e` and
//! destructuring `let (a, b) = e`, `let x, y, z = e` (docs/ocaml.md, "Top-level effects
//! and patterns").
//!
//! They are desugared into top-level values, which the translation computes at start-up,
//! in definition order, before the entry's body (to_core/startup.rs), as OCaml runs a
//! module's items: `let p = e` with no variables in `p` is `let $top#k = match e with p ->
//! ()`; with variables `x1 .. xn` it is `let $top#k = match e with p -> (x1, .., xn)`
//! followed by `let xi = match $top#k with (x1, .., xn) -> xi` for each `i`. So `e` is
//! evaluated once, where OCaml evaluates it, and a value `p` does not match fails there
//! with `Match_failure`.
//!
//! The entry: a program with effect items and no top-level binding named `main` gets the
//! entry `let main () = ()` after its last item, so verifying it runs exactly the
//! program's items, as `ocaml` does. With a `main`, `main` stays the entry (its parameters
//! the inputs) and the items run before its body.
//!
//! Guarantees: the generated names (`$top#k`) are no OCaml identifiers; a `let rec` or a
//! group of several bindings with a pattern is left as written (the translation names it
//! as outside the subset).

use super::*;

impl Parser {
    /// The items a top-level `let` group stands for (module doc).
    pub(super) fn top_let(&mut self, group: LetGroup) -> PResult<Vec<Item>> {
        let [binding] = &group.bindings[..] else {
            return Ok(vec![Item::Let(group)]);
        };
        if group.recursive || is_var(&binding.pattern) {
            return Ok(vec![Item::Let(group)]);
        }
        self.effect_items = true;
        let Binding { pattern, value } = binding.clone();
        let span = group.span;
        let mut vars = Vec::new();
        pattern_vars(&pattern, &mut vars);
        let result = self.vars_tuple(&vars, span)?;
        let matched = self.match_one(value, pattern, result)?;
        let (top_pattern, top_name) = self.fresh_var("$top", span);
        let mut items = vec![single_let(top_pattern, matched, span)];
        for (i, var) in vars.iter().enumerate() {
            let scrutinee = self.mk(span, ExprKind::Var(top_name.clone()))?;
            let (tuple, names) = self.vars_pattern(&vars, span);
            let picked = self.mk(span, ExprKind::Var(names[i].clone()))?;
            let value = self.match_one(scrutinee, tuple, picked)?;
            let binder = Pattern {
                span: var.span,
                kind: PatternKind::Var(self.var(), var.clone()),
            };
            items.push(single_let(binder, value, span));
        }
        Ok(items)
    }

    /// `let main () = ()` when the program has effect items and no top-level `main`.
    pub(super) fn effects_entry(&mut self, items: &[Item]) -> PResult<Option<Item>> {
        let has_main = items.iter().any(|item| match item {
            Item::Let(group) => group
                .bindings
                .iter()
                .any(|b| matches!(&b.pattern.kind, PatternKind::Var(_, n) if &*n.text == "main")),
            _ => false,
        });
        if !self.effect_items || has_main {
            return Ok(None);
        }
        let span = self.span();
        let body = self.mk(span, ExprKind::Unit)?;
        let unit = Pattern {
            span,
            kind: PatternKind::Unit,
        };
        let fun = self.mk(span, ExprKind::Fun(vec![unit], Box::new(body)))?;
        let name = Name {
            text: "main".into(),
            span,
        };
        let binder = Pattern {
            span,
            kind: PatternKind::Var(self.var(), name),
        };
        Ok(Some(single_let(binder, fun, span)))
    }

    /// `match scrutinee with pattern -> body`.
    fn match_one(&mut self, scrutinee: Expr, pattern: Pattern, body: Expr) -> PResult<Expr> {
        let span = scrutinee.span;
        let case = Case {
            pattern,
            guard: None,
            body,
        };
        self.mk(span, ExprKind::Match(Box::new(scrutinee), vec![case]))
    }

    /// `()`, `x` or `(x1, .., xn)` of the variables `vars`.
    fn vars_tuple(&mut self, vars: &[Name], span: Span) -> PResult<Expr> {
        let mut uses = Vec::new();
        for v in vars {
            uses.push(self.mk(v.span, ExprKind::Var(v.clone()))?);
        }
        match uses.len() {
            0 => self.mk(span, ExprKind::Unit),
            1 => Ok(uses.remove(0)),
            _ => self.mk(span, ExprKind::Tuple(uses)),
        }
    }

    /// The pattern `x` or `(x1, .., xn)` binding fresh variables of the names `vars`.
    fn vars_pattern(&mut self, vars: &[Name], span: Span) -> (Pattern, Vec<Name>) {
        let mut items: Vec<Pattern> = vars
            .iter()
            .map(|v| Pattern {
                span: v.span,
                kind: PatternKind::Var(self.var(), v.clone()),
            })
            .collect();
        let pattern = match items.len() {
            1 => items.remove(0),
            _ => Pattern {
                span,
                kind: PatternKind::Tuple(items),
            },
        };
        (pattern, vars.to_vec())
    }

    fn fresh_var(&mut self, prefix: &str, span: Span) -> (Pattern, Name) {
        let id = self.var();
        let name = Name {
            text: format!("{prefix}#{}", id.0).into(),
            span,
        };
        let pattern = Pattern {
            span,
            kind: PatternKind::Var(id, name.clone()),
        };
        (pattern, name)
    }
}

/// `x` or `(x : t)`: a plain variable binding.
fn is_var(p: &Pattern) -> bool {
    match &p.kind {
        PatternKind::Var(..) => true,
        PatternKind::Annot(inner, _) => is_var(inner),
        _ => false,
    }
}

fn single_let(pattern: Pattern, value: Expr, span: Span) -> Item {
    Item::Let(LetGroup {
        recursive: false,
        bindings: vec![Binding { pattern, value }],
        span,
    })
}

/// The variables a pattern binds, in order (an or-pattern's from its left side).
fn pattern_vars(p: &Pattern, out: &mut Vec<Name>) {
    match &p.kind {
        PatternKind::Var(_, n) => out.push(n.clone()),
        PatternKind::Alias(inner, _, n) => {
            pattern_vars(inner, out);
            out.push(n.clone());
        }
        PatternKind::Cons(a, b) => {
            pattern_vars(a, out);
            pattern_vars(b, out);
        }
        PatternKind::Or(a, _) | PatternKind::Annot(a, _) => pattern_vars(a, out),
        PatternKind::Tuple(ps) => ps.iter().for_each(|q| pattern_vars(q, out)),
        PatternKind::Construct(_, Some(a)) => pattern_vars(a, out),
        PatternKind::Record(fields) => fields.iter().for_each(|(_, q)| pattern_vars(q, out)),
        PatternKind::Wild
        | PatternKind::Int(_)
        | PatternKind::Bool(_)
        | PatternKind::Unit
        | PatternKind::Nil
        | PatternKind::Construct(_, None) => {}
    }
}
