//! Frame conditions of one point as quantifier-free array equations.
//!
//! Boogie programs (SMACK's `$malloc`, `$alloca` and `$free`, CORRAL's regression tests,
//! hand-written heap models) state what a call leaves unchanged with a quantifier over the
//! map's keys: `forall x :: x == p || M[x] == old(M)[x]`. z3 instantiates a quantifier only
//! by patterns (the engine runs it with model-based instantiation off), so on a satisfiable
//! query it answers `unknown`, and its model need not satisfy the quantifier.
//!
//! [`equation`] recognises a `forall` with one bound variable `x` whose body is, read as a
//! disjunction, `x == e` and `A[x] == B[x]` (`e`, `A`, `B` free of `x`, either side of each
//! `==`, `||` or `==>`): it holds exactly when `A == B[e := A[e]]`, an equation of the array
//! theory, which z3 decides.
//!
//! Guarantee: the equation is equivalent to the quantifier (in any context, under any
//! polarity), so the encoder may write it instead; a body of any other shape gets `None`
//! and stays a quantifier.
//!
//! [`range_frame`] recognises the other common shape, a range of keys sent to one value,
//! `forall x :: lo <= x && x < hi ==> A[x] == v` (SMACK's `$obj`, `$size`): it stays a
//! quantifier for the solver, and the driver completes a candidate model's input maps
//! with it (`engine::search::driver`), so that the replay, which checks it, can run on the model.

use boogie_like::ir::{BinOp, Expr, LocalId, UnOp, Var};

/// `map == other[point := map[point]]`, equivalent to a one-variable `forall`.
#[derive(Debug, PartialEq)]
pub struct PointFrame<'a> {
    pub map: &'a Expr,
    pub other: &'a Expr,
    pub point: &'a Expr,
}

/// The point frame equivalent to `forall bound :: body`, if the body has that shape.
pub fn equation(body: &Expr, bound: LocalId) -> Option<PointFrame<'_>> {
    let mut disjuncts = Vec::new();
    disjuncts_of(body, false, &mut disjuncts);
    let [(first, false), (second, false)] = disjuncts.as_slice() else {
        return None;
    };
    point_frame(first, second, bound).or_else(|| point_frame(second, first, bound))
}

/// `x == e` and `A[x] == B[x]` as the frame `A == B[e := A[e]]`.
fn point_frame<'a>(test: &'a Expr, equality: &'a Expr, bound: LocalId) -> Option<PointFrame<'a>> {
    let point = point_of(test, bound)?;
    let (map, value) = equality_at(equality, bound)?;
    let other = map_at(value, bound)?;
    Some(PointFrame { map, other, point })
}

/// `forall x :: lo <= x && x < hi ==> map[x] == value`, `lo`, `hi`, `map`, `value` free
/// of `x` (bounds `x >= lo`, `hi > x` too; `x <= h` is `hi = h + 1`, `l < x` is
/// `lo = l + 1`, given here as `(expr, plus_one)`).
#[derive(Debug, PartialEq)]
pub struct RangeFrame<'a> {
    pub map: &'a Expr,
    pub low: (&'a Expr, bool),
    pub high: (&'a Expr, bool),
    pub value: &'a Expr,
}

/// The range frame `forall bound :: body` states, if it has that shape.
pub fn range_frame(body: &Expr, bound: LocalId) -> Option<RangeFrame<'_>> {
    let mut disjuncts = Vec::new();
    disjuncts_of(body, false, &mut disjuncts);
    let [(a, true), (b, true), (equality, false)] = disjuncts.as_slice() else {
        return None;
    };
    let (map, value) = equality_at(equality, bound)?;
    if mentions(value, bound) {
        return None;
    }
    let (mut low, mut high) = (None, None);
    for literal in [a, b] {
        match bound_of(literal, bound)? {
            Bound::Low(e) => low = Some(e),
            Bound::High(e) => high = Some(e),
        }
    }
    Some(RangeFrame {
        map,
        low: low?,
        high: high?,
        value,
    })
}

enum Bound<'a> {
    /// The smallest key: `(e, plus_one)` is `e` or `e + 1`.
    Low((&'a Expr, bool)),
    /// One past the largest key.
    High((&'a Expr, bool)),
}

/// `lo <= x`, `x >= lo`, `l < x`, `x > l`, `x < hi`, `hi > x`, `x <= h`, `h >= x`.
fn bound_of(literal: &Expr, bound: LocalId) -> Option<Bound<'_>> {
    let Expr::Binary { op, lhs, rhs } = literal else {
        return None;
    };
    let is_bound = |e: &Expr| matches!(e, Expr::Var(Var::Local(v)) if *v == bound);
    let (op, other, x_left) = if is_bound(lhs) && !mentions(rhs, bound) {
        (*op, &**rhs, true)
    } else if is_bound(rhs) && !mentions(lhs, bound) {
        (*op, &**lhs, false)
    } else {
        return None;
    };
    // Read as `x op other`.
    let op = if x_left {
        op
    } else {
        match op {
            BinOp::Le => BinOp::Ge,
            BinOp::Lt => BinOp::Gt,
            BinOp::Ge => BinOp::Le,
            BinOp::Gt => BinOp::Lt,
            _ => return None,
        }
    };
    Some(match op {
        BinOp::Ge => Bound::Low((other, false)),
        BinOp::Gt => Bound::Low((other, true)),
        BinOp::Lt => Bound::High((other, false)),
        BinOp::Le => Bound::High((other, true)),
        _ => return None,
    })
}

/// `e` (negated: `!e`) read as a disjunction: `a || b`, `a ==> b` (`!a || b`) and `!(a && b)`
/// are split, double negations dropped; anything else is one disjunct.
fn disjuncts_of<'a>(e: &'a Expr, negated: bool, out: &mut Vec<(&'a Expr, bool)>) {
    match e {
        Expr::Unary { op: UnOp::Not, arg } => disjuncts_of(arg, !negated, out),
        Expr::Binary { op, lhs, rhs } => match (op, negated) {
            (BinOp::Or, false) | (BinOp::And, true) => {
                disjuncts_of(lhs, negated, out);
                disjuncts_of(rhs, negated, out);
            }
            (BinOp::Implies, false) => {
                disjuncts_of(lhs, true, out);
                disjuncts_of(rhs, false, out);
            }
            _ => out.push((e, negated)),
        },
        _ => out.push((e, negated)),
    }
}

/// `A[x] == t` or `t == A[x]` with `A` free of `x`: `(A, t)` (the left side when both are).
fn equality_at(e: &Expr, bound: LocalId) -> Option<(&Expr, &Expr)> {
    let Expr::Binary {
        op: BinOp::Eq,
        lhs,
        rhs,
    } = e
    else {
        return None;
    };
    if let Some(map) = map_at(lhs, bound) {
        return Some((map, rhs));
    }
    map_at(rhs, bound).map(|map| (map, &**lhs))
}

/// `A` when `e` is `A[x]` with `A` free of `x`.
fn map_at(e: &Expr, bound: LocalId) -> Option<&Expr> {
    match e {
        Expr::MapGet { map, index }
            if matches!(**index, Expr::Var(Var::Local(v)) if v == bound)
                && !mentions(map, bound) =>
        {
            Some(map)
        }
        _ => None,
    }
}

/// `e` when the literal is `x == e` or `e == x` with `e` free of `x`.
fn point_of(literal: &Expr, bound: LocalId) -> Option<&Expr> {
    let Expr::Binary {
        op: BinOp::Eq,
        lhs,
        rhs,
    } = literal
    else {
        return None;
    };
    let is_bound = |e: &Expr| matches!(e, Expr::Var(Var::Local(v)) if *v == bound);
    if is_bound(lhs) && !mentions(rhs, bound) {
        return Some(rhs);
    }
    if is_bound(rhs) && !mentions(lhs, bound) {
        return Some(lhs);
    }
    None
}

/// Whether the variable occurs in `e`.
fn mentions(e: &Expr, bound: LocalId) -> bool {
    let mut found = false;
    e.for_each_var(&mut |v| found |= v == Var::Local(bound));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x() -> Expr {
        Expr::var(Var::Local(LocalId(0)))
    }
    fn m(n: u32) -> Expr {
        Expr::var(Var::Local(LocalId(n)))
    }

    #[test]
    fn a_point_frame_is_a_store() {
        // x == p || B[x] == A[x], either way round
        let test = Expr::eq(x(), m(3));
        let same = Expr::eq(Expr::map_get(m(1), x()), Expr::map_get(m(2), x()));
        let expected = PointFrame {
            map: &m(1),
            other: &m(2),
            point: &m(3),
        };
        let body = Expr::or(test.clone(), same.clone());
        assert_eq!(equation(&body, LocalId(0)), Some(expected));
        let flipped = Expr::or(same.clone(), Expr::eq(m(3), x()));
        assert!(equation(&flipped, LocalId(0)).is_some());
        // x != p ==> B[x] == A[x]
        let implication = Expr::binary(BinOp::Implies, !test, same);
        assert!(equation(&implication, LocalId(0)).is_some());
    }

    #[test]
    fn a_range_frame_is_recognised() {
        // lo <= x && x < hi ==> obj[x] == p
        let body = Expr::binary(
            BinOp::Implies,
            Expr::and(
                Expr::binary(BinOp::Le, m(4), x()),
                Expr::binary(BinOp::Lt, x(), m(5)),
            ),
            Expr::eq(Expr::map_get(m(1), x()), m(3)),
        );
        let frame = range_frame(&body, LocalId(0)).expect("a range frame");
        assert_eq!(frame.map, &m(1));
        assert_eq!(frame.low, (&m(4), false));
        assert_eq!(frame.high, (&m(5), false));
        assert_eq!(frame.value, &m(3));
        // x > l && h >= x ==> obj[x] == p: lo = l + 1, hi = h + 1
        let strict = Expr::binary(
            BinOp::Implies,
            Expr::and(
                Expr::binary(BinOp::Gt, x(), m(4)),
                Expr::binary(BinOp::Ge, m(5), x()),
            ),
            Expr::eq(Expr::map_get(m(1), x()), m(3)),
        );
        let frame = range_frame(&strict, LocalId(0)).expect("a range frame");
        assert_eq!((frame.low, frame.high), ((&m(4), true), (&m(5), true)));
        // the value depends on x: not a range frame
        let varying = Expr::binary(
            BinOp::Implies,
            Expr::and(
                Expr::binary(BinOp::Le, m(4), x()),
                Expr::binary(BinOp::Lt, x(), m(5)),
            ),
            Expr::eq(Expr::map_get(m(1), x()), x()),
        );
        assert!(range_frame(&varying, LocalId(0)).is_none());
    }

    #[test]
    fn other_shapes_stay_quantifiers() {
        // the map depends on x: M[x][x] == N[x]
        let nested = Expr::or(
            Expr::eq(x(), m(3)),
            Expr::eq(
                Expr::map_get(Expr::map_get(m(1), x()), x()),
                Expr::map_get(m(2), x()),
            ),
        );
        assert!(equation(&nested, LocalId(0)).is_none());
        // a range, not a point: lo <= x ==> M[x] == N[x]
        let range = Expr::binary(
            BinOp::Implies,
            Expr::binary(BinOp::Le, m(4), x()),
            Expr::eq(Expr::map_get(m(1), x()), Expr::map_get(m(2), x())),
        );
        assert!(equation(&range, LocalId(0)).is_none());
        // the point depends on x: x == x + 1 || M[x] == N[x]
        let shifted = Expr::or(
            Expr::eq(x(), Expr::binary(BinOp::Add, x(), Expr::int(1))),
            Expr::eq(Expr::map_get(m(1), x()), Expr::map_get(m(2), x())),
        );
        assert!(equation(&shifted, LocalId(0)).is_none());
        // the equality negated: x == p || M[x] != N[x]
        let negated = Expr::or(
            Expr::eq(x(), m(3)),
            !Expr::eq(Expr::map_get(m(1), x()), Expr::map_get(m(2), x())),
        );
        assert!(equation(&negated, LocalId(0)).is_none());
    }
}
