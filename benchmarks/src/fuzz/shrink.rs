//! Shrinking a program that shows a defect: delete and simplify subterms while the defect
//! persists (greedy delta debugging over the syntax tree).
//!
//! Guarantees: the result still satisfies the predicate (it is the last candidate the
//! predicate accepted, or the input); every candidate tried is a whole program, and
//! candidates that do not type-check are rejected by the predicate itself (it loads the
//! text with horef-si's front end); at most `budget` predicate calls are made.

use super::ast::{Expr, Kind, Param, Program, Ty};

/// The smallest program found and what it cost.
#[derive(Clone, Debug)]
pub struct Shrunk {
    pub program: Program,
    /// Predicate calls made.
    pub tries: usize,
    /// Candidates accepted.
    pub steps: usize,
}

/// Where an expression tree hangs in a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Root {
    Main,
    Method(usize),
    Store(usize),
}

/// Shrinks `program` while `still_fails(text)` holds, with at most `budget` calls.
pub fn shrink(
    program: &Program,
    mut still_fails: impl FnMut(&Program) -> bool,
    budget: usize,
) -> Shrunk {
    let mut best = program.clone();
    let mut tries = 0;
    let mut steps = 0;
    let mut progress = true;
    while progress && tries < budget {
        progress = false;
        for candidate in declaration_cuts(&best).into_iter().chain(term_cuts(&best)) {
            if tries >= budget {
                break;
            }
            if measure(&candidate) >= measure(&best) {
                continue;
            }
            tries += 1;
            if still_fails(&candidate) {
                best = candidate;
                steps += 1;
                progress = true;
                break;
            }
        }
    }
    Shrunk {
        program: best,
        tries,
        steps,
    }
}

/// What shrinking decreases: declarations and nodes first, then the text (smaller
/// literals, shorter names).
fn measure(p: &Program) -> (usize, usize) {
    let declarations = p.methods.len() + p.store.len() + p.main_params.len();
    (p.size() + declarations, p.text().len())
}

/// The program without one method, one reference or one parameter of `Main`.
fn declaration_cuts(p: &Program) -> Vec<Program> {
    let mut out = Vec::new();
    for i in 0..p.methods.len() {
        let mut q = p.clone();
        q.methods.remove(i);
        out.push(q);
    }
    for i in 0..p.store.len() {
        let mut q = p.clone();
        q.store.remove(i);
        out.push(q);
    }
    for i in 0..p.main_params.len() {
        let mut q = p.clone();
        q.main_params.remove(i);
        out.push(q);
    }
    out
}

/// The program with one subterm replaced by something smaller of the same type, biggest
/// subterms first.
fn term_cuts(p: &Program) -> Vec<Program> {
    let mut positions = Vec::new();
    for root in roots(p) {
        collect_positions(root_expr(p, root), root, &mut Vec::new(), &mut positions);
    }
    positions.sort_by_key(|(_, _, size)| std::cmp::Reverse(*size));
    let mut out = Vec::new();
    for (root, path, _) in positions {
        let node = node_at(p, root, &path);
        for replacement in smaller(node) {
            let mut q = p.clone();
            *node_at_mut(&mut q, root, &path) = replacement;
            out.push(q);
        }
    }
    out
}

fn roots(p: &Program) -> Vec<Root> {
    let mut out = vec![Root::Main];
    out.extend((0..p.methods.len()).map(Root::Method));
    out.extend((0..p.store.len()).map(Root::Store));
    out
}

fn root_expr(p: &Program, root: Root) -> &Expr {
    match root {
        Root::Main => &p.main,
        Root::Method(i) => &p.methods[i].body,
        Root::Store(i) => &p.store[i].init,
    }
}

fn collect_positions(
    e: &Expr,
    root: Root,
    path: &mut Vec<usize>,
    out: &mut Vec<(Root, Vec<usize>, usize)>,
) {
    out.push((root, path.clone(), e.size()));
    for (i, child) in e.children().into_iter().enumerate() {
        path.push(i);
        collect_positions(child, root, path, out);
        path.pop();
    }
}

fn node_at<'p>(p: &'p Program, root: Root, path: &[usize]) -> &'p Expr {
    let mut e = root_expr(p, root);
    for &i in path {
        e = e.children()[i];
    }
    e
}

fn node_at_mut<'p>(p: &'p mut Program, root: Root, path: &[usize]) -> &'p mut Expr {
    let mut e = match root {
        Root::Main => &mut p.main,
        Root::Method(i) => &mut p.methods[i].body,
        Root::Store(i) => &mut p.store[i].init,
    };
    for &i in path {
        e = e.children_mut().swap_remove(i);
    }
    e
}

/// Smaller expressions of the same type: a subterm of that type, the simplest value of
/// the type, a smaller literal.
fn smaller(e: &Expr) -> Vec<Expr> {
    let mut out: Vec<Expr> = Vec::new();
    let mut push = |c: Expr| {
        if c != *e && !out.contains(&c) {
            out.push(c);
        }
    };
    for child in e.children() {
        if child.ty == e.ty {
            push(child.clone());
        }
    }
    if let Kind::Int(i) = &*e.kind {
        for c in [0, 1, i / 2] {
            push(Expr::int(c));
        }
    } else {
        push(simplest(&e.ty));
    }
    out
}

/// The simplest expression of a type.
pub fn simplest(ty: &Ty) -> Expr {
    match ty {
        Ty::Int => Expr::int(0),
        Ty::Unit => Expr::skip(),
        Ty::Data(_) => unreachable!("the generator makes no datatypes"),
        Ty::List(_) => Expr::new(Kind::Nil, Ty::int_list()),
        Ty::Pair(a, b) => Expr::new(Kind::Pair(simplest(a), simplest(b)), ty.clone()),
        Ty::Arrow(params, ret) => {
            let params = params
                .iter()
                .enumerate()
                .map(|(i, t)| Param {
                    name: format!("p{i}"),
                    ty: t.clone(),
                })
                .collect();
            Expr::new(Kind::Fun(params, simplest(ret)), ty.clone())
        }
        Ty::Ref(content) => Expr::new(Kind::Alloc(simplest(content)), ty.clone()),
    }
}
