//! Arity adapters: a function value passed where a function of another arity is expected
//! (docs/ocaml.md, "Arity adapters").
//!
//! The subset's function types carry arities ([`Ty::Fun`], `types.rs`): `add` of two
//! parameters is `Fun([int, int], int)`, while `g` in `let app g = let h = g 1 in h 2` is
//! `Fun([int], Fun([int], int))`. OCaml's types do not tell them apart, so `app add` is an
//! OCaml program. When an application's argument has a function type of known *stages*
//! (the arities of its nested `Fun`s: `[2]` for `add`) and the parameter it is passed to
//! expects other stages (`[1, 1]`), inference asks for an adapter at that argument
//! ([`Adapt`]); [`insert`] wraps the argument in one and inference runs again.
//!
//! The adapter of a value `v` of stages `[m1, m2, ..]` for expected stages `[n1, n2, ..]`
//! is a chain of `fun`s, one per expected stage, that collects arguments and applies `v`
//! (then its results) exactly when a stage of `v` is complete: for `add` and `[1, 1]`,
//! `fun x1 -> fun x2 -> add x1 x2`; for `v` of stages `[1, 2]` and `[1, 1, 1]`,
//! `fun x1 -> let t = v x1 in fun x2 -> fun x3 -> t x2 x3`. A `v` that is not a variable is
//! evaluated once, where it stands (`let $adapt#k = v in ..`).
//!
//! Guarantees: an adapter is built only when every stage boundary of `v` (up to where the
//! two shapes meet again) is a boundary of the expected shape, so the adapter only ever
//! splits one of `v`'s stages into a partial application; the code of `v`'s stages runs
//! with the same arguments, as often and at the same moments as in OCaml (a partial
//! application runs nothing). Merging stages (`v` of stages `[1, 1]` where `[2]` is
//! expected) would delay the code between them past a partial application the caller may
//! make (`let h = g a in h b; h b` would run `v a`'s body twice), so it is refused: the
//! arity mismatch stays an error naming the construct. So it stays for a function with
//! labelled or optional parameters passed by its name ([`Program::labelled`]: OCaml would
//! first erase its optional parameters, which the subset does not model), and for a
//! mismatch that is not at an application's argument (inside a tuple, a list, a
//! constructor). Each adapter adds one call per expected stage (`fun@L:C` at the
//! argument's position in traces), so it costs depth. The adapter's names (`$adapt#k`,
//! `$arg#k`) are no OCaml identifiers, so they capture nothing.

use super::*;

/// An adapter asked for at an application's argument.
#[derive(Clone, Debug)]
pub struct Adapt {
    /// The argument to wrap.
    pub arg: ExprId,
    /// The stages (arities) of the argument's value, up to where the shapes meet.
    value: Vec<usize>,
    /// The expected stages, up to the same point.
    expected: Vec<usize>,
}

/// The arities of the nested function types of `t`, outermost first, and whether the
/// innermost result is still an unknown type variable.
fn stages(subst: &Subst, t: &Ty) -> (Vec<usize>, bool) {
    let mut out = Vec::new();
    let mut t = subst.shallow(t);
    while let Ty::Fun(ps, r) = t {
        out.push(ps.len());
        t = subst.shallow(&r);
    }
    (out, matches!(t, Ty::Var(_)))
}

fn boundaries(stages: &[usize]) -> Vec<usize> {
    stages
        .iter()
        .scan(0, |sum, n| {
            *sum += n;
            Some(*sum)
        })
        .collect()
}

/// The shortest prefix of `stages` whose arities sum to `total`.
fn prefix_to(stages: &[usize], total: usize) -> Vec<usize> {
    let n = boundaries(stages)
        .iter()
        .take_while(|b| **b < total)
        .count()
        + 1;
    stages[..n.min(stages.len())].to_vec()
}

impl Adapt {
    /// The adapter that passes a value of type `found` where `expected` is expected, if
    /// their stages differ and one preserving OCaml's evaluation exists (module doc).
    pub fn between(subst: &Subst, arg: ExprId, found: &Ty, expected: &Ty) -> Option<Adapt> {
        let (value, _) = stages(subst, found);
        let (mut wanted, open) = stages(subst, expected);
        if value.is_empty() || wanted.is_empty() {
            return None;
        }
        let (vb, mut eb) = (boundaries(&value), boundaries(&wanted));
        // An expected shape that ends at an unknown result may take one more stage (that
        // result is a function OCaml would type alike).
        let last = *eb.last()?;
        if open && let Some(next) = vb.iter().find(|b| **b > last) {
            wanted.push(next - last);
            eb.push(*next);
        }
        let common = *vb.iter().filter(|b| eb.contains(b)).max()?;
        if vb.iter().any(|b| *b < common && !eb.contains(b)) {
            return None;
        }
        let value = prefix_to(&value, common);
        let expected = prefix_to(&wanted, common);
        (value != expected).then_some(Adapt {
            arg,
            value,
            expected,
        })
    }
}

/// Replaces the argument `adapt.arg` of `program` by its adapter; `false` when it is not
/// found or is already an adapter (so inference cannot loop).
pub fn insert(program: &mut Program, adapt: &Adapt) -> bool {
    let labelled = std::mem::take(&mut program.labelled);
    let done = insert_in(program, adapt, &labelled);
    program.labelled = labelled;
    done
}

fn insert_in(program: &mut Program, adapt: &Adapt, labelled: &[Rc<str>]) -> bool {
    let mut counts = (program.expr_count, program.var_count);
    let mut done = false;
    for item in &mut program.items {
        if let Item::Let(group) = item {
            for b in &mut group.bindings {
                done = done || replace_in(&mut b.value, adapt, labelled, &mut counts);
            }
        }
    }
    (program.expr_count, program.var_count) = counts;
    done
}

fn replace_in(e: &mut Expr, adapt: &Adapt, labelled: &[Rc<str>], counts: &mut (u32, u32)) -> bool {
    if e.id == adapt.arg {
        if is_adapter(e) || names_labelled(e, labelled) {
            return false;
        }
        let placeholder = Expr {
            id: e.id,
            span: e.span,
            kind: ExprKind::Unit,
        };
        let value = std::mem::replace(e, placeholder);
        *e = Builder { counts }.adapter(value, adapt);
        return true;
    }
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
        children_mut(e)
            .into_iter()
            .any(|c| replace_in(c, adapt, labelled, counts))
    })
}

/// Whether `e` is an adapter already: `let $adapt#k = .. in ..`, or a `fun` of `$arg#k`
/// parameters.
fn is_adapter(e: &Expr) -> bool {
    let generated = |p: &Pattern, prefix: &str| matches!(&p.kind, PatternKind::Var(_, n) if n.text.starts_with(prefix));
    match &e.kind {
        ExprKind::Let(g, _) => g.bindings.iter().any(|b| generated(&b.pattern, "$adapt#")),
        ExprKind::Fun(ps, _) => ps.iter().any(|p| generated(p, "$arg#")),
        _ => false,
    }
}

/// Whether `e` names a function with labelled or optional parameters.
fn names_labelled(e: &Expr, labelled: &[Rc<str>]) -> bool {
    match &e.kind {
        ExprKind::Var(name) => labelled.contains(&name.text),
        ExprKind::Annot(inner, _) => names_labelled(inner, labelled),
        _ => false,
    }
}

/// Makes the adapter's nodes with fresh ids (`counts`: the next expression and variable).
struct Builder<'a> {
    counts: &'a mut (u32, u32),
}

impl Builder<'_> {
    fn expr(&mut self, span: Span, kind: ExprKind) -> Expr {
        let id = ExprId(self.counts.0);
        self.counts.0 += 1;
        Expr { id, span, kind }
    }

    /// A fresh variable `prefix#k`: its pattern and a use.
    fn var(&mut self, prefix: &str, span: Span) -> (Pattern, Name) {
        let id = VarId(self.counts.1);
        self.counts.1 += 1;
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

    fn use_of(&mut self, name: &Name) -> Expr {
        self.expr(name.span, ExprKind::Var(name.clone()))
    }

    /// `let name = value in body`, with `name` bound by `pattern`.
    fn let_in(&mut self, pattern: Pattern, value: Expr, body: Expr) -> Expr {
        let span = value.span;
        let group = LetGroup {
            recursive: false,
            bindings: vec![Binding { pattern, value }],
            span,
        };
        self.expr(span, ExprKind::Let(group, Box::new(body)))
    }

    /// The adapter of `value` (module doc): `value` itself when it is a variable, else
    /// bound once by `let $adapt#k = value in ..`.
    fn adapter(&mut self, value: Expr, adapt: &Adapt) -> Expr {
        let span = value.span;
        if let ExprKind::Var(_) = value.kind {
            return self.stages(value, &adapt.value, &adapt.expected, Vec::new());
        }
        let (pattern, name) = self.var("$adapt", span);
        let head = self.use_of(&name);
        let body = self.stages(head, &adapt.value, &adapt.expected, Vec::new());
        self.let_in(pattern, value, body)
    }

    /// One `fun` per expected stage; `current` (applied to nothing yet, or bound by a
    /// `let` to the last complete stage's result) is applied to the collected arguments
    /// when they complete its first stage.
    fn stages(
        &mut self,
        current: Expr,
        value: &[usize],
        expected: &[usize],
        mut pending: Vec<Expr>,
    ) -> Expr {
        let span = current.span;
        let mut params = Vec::new();
        for _ in 0..expected[0] {
            let (pattern, name) = self.var("$arg", span);
            params.push(pattern);
            pending.push(self.use_of(&name));
        }
        let complete = value.first() == Some(&pending.len());
        let body = match (complete, expected.len()) {
            (true, 1) => self.expr(span, ExprKind::App(Box::new(current), pending)),
            (true, _) => {
                let applied = self.expr(span, ExprKind::App(Box::new(current), pending));
                let (pattern, name) = self.var("$adapt", span);
                let head = self.use_of(&name);
                let rest = self.stages(head, &value[1..], &expected[1..], Vec::new());
                self.let_in(pattern, applied, rest)
            }
            (false, _) => self.stages(current, value, &expected[1..], pending),
        };
        self.expr(span, ExprKind::Fun(params, Box::new(body)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(stages: &[usize]) -> Ty {
        let mut t = Ty::Int;
        for n in stages.iter().rev() {
            t = Ty::fun(vec![Ty::Int; *n], t);
        }
        t
    }

    fn plan(value: &[usize], expected: &[usize]) -> Option<(Vec<usize>, Vec<usize>)> {
        let subst = Subst::default();
        let (f, e) = (shape(value), shape(expected));
        Adapt::between(&subst, ExprId(0), &f, &e).map(|a| (a.value, a.expected))
    }

    #[test]
    fn splitting_a_stage_is_adapted() {
        assert_eq!(plan(&[2], &[1, 1]), Some((vec![2], vec![1, 1])));
        assert_eq!(plan(&[3], &[2, 1]), Some((vec![3], vec![2, 1])));
        assert_eq!(plan(&[1, 2], &[1, 1, 1]), Some((vec![1, 2], vec![1, 1, 1])));
    }

    #[test]
    fn merging_stages_is_refused() {
        assert_eq!(plan(&[1, 1], &[2]), None);
        assert_eq!(plan(&[1, 2], &[3]), None);
    }

    #[test]
    fn equal_shapes_need_nothing() {
        assert_eq!(plan(&[2], &[2]), None);
        assert_eq!(plan(&[1, 1], &[1, 1]), None);
    }

    #[test]
    fn an_open_expected_result_takes_the_rest_of_a_stage() {
        let mut subst = Subst::default();
        let found = Ty::fun(vec![Ty::Int], Ty::fun(vec![Ty::Int, Ty::Int], Ty::Int));
        let open = subst.fresh(0);
        let expected = Ty::fun(vec![Ty::Int], Ty::fun(vec![Ty::Int], open));
        let a = Adapt::between(&subst, ExprId(0), &found, &expected).expect("adapted");
        assert_eq!((a.value, a.expected), (vec![1, 2], vec![1, 1, 1]));
    }
}
