//! A dispatching `Main` cut into proof cases (issue 12): one small program per way through
//! the `if` tree at the top of `Main`, each with its Horn systems (the IR's and the
//! refinement-type encoding's, with canonical names), for [`crate::engine::proofs::case_proofs`].
//!
//! A generated program of 4000 lines is `Main` choosing, by an input, one of hundreds of
//! sub-programs; its whole Horn system is too large for Spacer, while each sub-program
//! alone is proved in well under a second — and most are renamed copies of each other,
//! which canonical names let share one proof.
//!
//! The case of a leaf `L` of `Main`'s `if` tree is the program whose `Main` (same
//! parameters) is `L`, wrapped in the conditions of the path to `L` that mention a
//! variable `L` reads (`if c then L else skip`, or `if c then skip else L` for an `else`),
//! with only the methods and references `L` can reach. Cases are made only when every
//! condition of the tree is *pure and total*: integer literals, `Main`'s parameters,
//! `!r`, and `+ - * ==` … `&& ||` of those (no call, no division, nothing that fails,
//! diverges or writes a reference).
//!
//! Guarantee: every execution of `Main` evaluates conditions that change nothing and
//! cannot fail, then runs one leaf `L` from the initial store with `Main`'s inputs; the
//! case of `L` has that same execution (its kept conditions hold, and the dropped ones
//! only restricted which inputs reach `L`), and runs `L` at the same depth. So if no
//! execution of any case fails, at any depth, no execution of the program does. A leaf
//! whose case has no assertion to reach (no goal clause) needs no proof; a case that
//! cannot be built (its program does not check, or one of its names would mean another
//! of BMC-2's re-declarations than in the program) means no cases at all.

use crate::core_lang::Checked;
use crate::core_lang::ast::{
    BinOp, BinderId, Expr, ExprId, ExprKind, MainDecl, MethodId, Program, RefId,
};
use crate::core_lang::typecheck::{Resolution, TypeInfo, check_program};
use crate::core_lang::{names::FunctionNames, visit::walk};
use crate::engine::{self, CHC_CONFIGURATIONS as CONFIGURATIONS, REFINEMENT_CONFIGURATION};
use crate::engine::{CaseSource, CaseSystem, ProofCase};
use crate::vc::canonical::canonical;
use crate::vc::horn::HornSystem;
use boogie_like::ir::Program as IrProgram;
use std::collections::{BTreeSet, HashSet};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// The fewest leaves for which the entry is proved case by case (a small `if` at the top
/// of `Main` is proved whole).
pub const MIN_CASES: usize = 4;

/// `options` with the proof cases of `checked` when the Horn-clause engine is on and the
/// entry splits into cases; otherwise `options` as they are. Only whether it splits is
/// decided here (it is cheap); the cases themselves are built on the proof's own thread,
/// from the source loaded again, so that building them never delays the search.
pub fn with_proof_cases(checked: &Checked, options: &engine::Options) -> engine::Options {
    let mut options = options.clone();
    if !options.chc || !splits(checked) {
        return options;
    }
    let name = checked.file.name.clone();
    let text = checked.file.text.clone();
    let (entry, ocaml) = (checked.entry.clone(), checked.ocaml);
    // Not part of the source: `--overflow-checks` is set on the loaded program.
    let ints = checked.program.ints;
    let mut hasher = std::hash::DefaultHasher::new();
    (&name, &text, &entry, ocaml, format!("{ints:?}")).hash(&mut hasher);
    let build = move || {
        let bytes = text.as_bytes();
        let mut checked =
            crate::frontend::load_source_as(&name, bytes, entry.as_deref(), ocaml).ok()?;
        checked.program.ints = ints;
        proof_cases(&checked)
    };
    options.proof_cases = Some(Arc::new(CaseSource {
        key: hasher.finish(),
        build: Box::new(build),
    }));
    options
}

/// Whether the entry of `checked` is cut into cases (see the module doc).
pub fn splits(checked: &Checked) -> bool {
    let mut leaves = Vec::new();
    let main = &checked.program.main.body;
    leaves_of(main, &checked.info, &mut Vec::new(), &mut leaves).is_some()
        && leaves.len() >= MIN_CASES
}

/// The cases of `checked`'s entry that may fail, each with its systems; `None` when the
/// entry does not split (see the module doc).
pub fn proof_cases(checked: &Checked) -> Option<Vec<ProofCase>> {
    if !splits(checked) {
        return None;
    }
    let mut leaves = Vec::new();
    leaves_of(
        &checked.program.main.body,
        &checked.info,
        &mut Vec::new(),
        &mut leaves,
    )?;
    let mut cases = Vec::new();
    for leaf in &leaves {
        let case = case_program(checked, leaf)?;
        let ir = crate::lower::lower(&case).ir;
        let systems = systems_of(&case, &ir);
        if !systems.is_empty() {
            cases.push(ProofCase {
                what: describe(checked, leaf.body),
                systems,
                ir: Some(Arc::new(ir)),
            });
        }
    }
    (!cases.is_empty()).then_some(cases)
}

/// A leaf of the entry's `if` tree and the conditions on the way to it (`true`: the
/// `then` branch was taken).
struct Leaf<'p> {
    path: Vec<(&'p Expr, bool)>,
    body: &'p Expr,
}

/// Collects the leaves under `e`; `None` if some condition is not pure and total.
fn leaves_of<'p>(
    e: &'p Expr,
    info: &TypeInfo,
    path: &mut Vec<(&'p Expr, bool)>,
    out: &mut Vec<Leaf<'p>>,
) -> Option<()> {
    let ExprKind::If {
        cond,
        then_branch,
        else_branch,
    } = &e.kind
    else {
        out.push(Leaf {
            path: path.clone(),
            body: e,
        });
        return Some(());
    };
    if !pure_and_total(cond, info) {
        return None;
    }
    for (branch, taken) in [(then_branch, true), (else_branch, false)] {
        path.push((cond, taken));
        leaves_of(branch, info, path, out)?;
        path.pop();
    }
    Some(())
}

/// Whether evaluating `e` changes nothing and cannot fail or diverge.
fn pure_and_total(e: &Expr, info: &TypeInfo) -> bool {
    match &e.kind {
        ExprKind::Int(_) => true,
        ExprKind::Deref(_) => info.reference(e).is_some(),
        ExprKind::Var(_) => matches!(info.resolution(e), Some(Resolution::Local(_))),
        ExprKind::Neg(x) => pure_and_total(x, info),
        ExprKind::Binary { op, lhs, rhs } => {
            !matches!(op, BinOp::Div | BinOp::Mod)
                && pure_and_total(lhs, info)
                && pure_and_total(rhs, info)
        }
        _ => false,
    }
}

/// The local variables `e` reads.
fn locals_read(e: &Expr, info: &TypeInfo) -> HashSet<BinderId> {
    let mut out = HashSet::new();
    walk(e, &mut |x| {
        if let Some(Resolution::Local(b)) = info.resolution(x) {
            out.insert(b);
        }
    });
    out
}

/// The program of one case (see the module doc), checked; `None` if it does not check.
fn case_program(checked: &Checked, leaf: &Leaf<'_>) -> Option<Checked> {
    let program = &checked.program;
    let info = &checked.info;
    let read = locals_read(leaf.body, info);
    let mut next_id = program.expr_count;
    let mut fresh = |kind: ExprKind, like: &Expr| {
        let e = Expr {
            id: ExprId(next_id),
            span: like.span,
            kind,
        };
        next_id += 1;
        e
    };
    let mut body = leaf.body.clone();
    for (cond, taken) in leaf.path.iter().rev() {
        if locals_read(cond, info).is_disjoint(&read) {
            continue;
        }
        let skip = fresh(ExprKind::Skip, cond);
        let (then_branch, else_branch) = if *taken { (body, skip) } else { (skip, body) };
        body = fresh(
            ExprKind::If {
                cond: Box::new((*cond).clone()),
                then_branch: Box::new(then_branch),
                else_branch: Box::new(else_branch),
            },
            cond,
        );
    }
    let (methods, refs) = reachable(program, info, &body);
    let case = Program {
        ints: program.ints,
        exceptions: program.exceptions.clone(),
        datatypes: program.datatypes.clone(),
        store: refs
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let mut decl = program.store[r.index()].clone();
                decl.id = RefId(i as u32);
                decl
            })
            .collect(),
        methods: methods
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let mut method = program.methods[m.index()].clone();
                method.id = MethodId(i as u32);
                method
            })
            .collect(),
        main: MainDecl {
            params: program.main.params.clone(),
            ret: program.main.ret.clone(),
            body,
            span: program.main.span,
        },
        expr_count: next_id,
        binder_count: program.binder_count,
        lambda_count: program.lambda_count,
    };
    let case_info = check_program(&case).ok()?;
    if !same_names(info, &case_info, &methods) {
        return None;
    }
    let info = case_info;
    let names = FunctionNames::new(&case, &checked.file);
    Some(Checked {
        file: checked.file.clone(),
        program: case,
        info,
        names,
        entry: checked.entry.clone(),
        ocaml: checked.ocaml,
        warnings: Vec::new(),
    })
}

/// Whether every method name of the case names the declaration it named in the program
/// (BMC-2's re-declarations make which one a name means depend on what is declared
/// around it; keeping the declarations in order keeps it, and this checks it).
/// `methods` are the program's methods the case keeps, in order.
fn same_names(program: &TypeInfo, case: &TypeInfo, methods: &BTreeSet<MethodId>) -> bool {
    let kept: Vec<MethodId> = methods.iter().copied().collect();
    case.vars.iter().all(|(id, resolution)| match resolution {
        Resolution::Method(m) => {
            program.vars.get(id) == kept.get(m.index()).map(|&o| Resolution::Method(o)).as_ref()
        }
        Resolution::Local(_) => true,
    })
}

/// The methods and references `body` can reach (through calls, function values, and the
/// initial values of the references it uses), each in declaration order.
fn reachable(
    program: &Program,
    info: &TypeInfo,
    body: &Expr,
) -> (BTreeSet<MethodId>, BTreeSet<RefId>) {
    let mut methods = BTreeSet::new();
    let mut refs = BTreeSet::new();
    let mut work: Vec<&Expr> = vec![body];
    while let Some(e) = work.pop() {
        let mut found = Vec::new();
        walk(e, &mut |x| {
            if let Some(Resolution::Method(m)) = info.resolution(x)
                && methods.insert(m)
            {
                found.push(&program.methods[m.index()].body);
            }
            if let Some(r) = info.reference(x)
                && refs.insert(r)
            {
                found.push(&program.store[r.index()].init);
            }
        });
        work.extend(found);
    }
    (methods, refs)
}

/// The systems that may prove a case, with canonical names: the IR's clauses, and the
/// refinement-type encoding's where it handles the case. Empty when the case has nothing
/// to prove (no assertion it can reach).
fn systems_of(case: &Checked, ir: &IrProgram) -> Vec<CaseSystem> {
    let Some(whole) = HornSystem::of(ir).filter(HornSystem::has_goal) else {
        return Vec::new();
    };
    let mut systems = vec![case_system(&whole, CONFIGURATIONS)];
    if let Ok(refined) =
        crate::verifier::refine::horn_systems(&case.program, &case.info, &case.names)
    {
        systems.extend(
            refined
                .iter()
                .filter(|s| s.has_goal())
                .map(|s| case_system(s, REFINEMENT_CONFIGURATION)),
        );
    }
    systems
}

fn case_system(system: &HornSystem, configurations: &'static [&'static str]) -> CaseSystem {
    let renamed = canonical(system);
    CaseSystem {
        system: Arc::new(renamed.system),
        configurations,
        original: Arc::new(renamed.original),
    }
}

/// `s001_main (x1, x2, x3) at 87:9`: the leaf's text (its first line, shortened) and
/// where it is.
fn describe(checked: &Checked, leaf: &Expr) -> String {
    let text = &checked.file.text;
    let (start, end) = (leaf.span.start as usize, leaf.span.end as usize);
    let source = text.get(start..end).unwrap_or("");
    let first_line = source.lines().next().unwrap_or("").trim();
    let mut shown: String = first_line.chars().take(48).collect();
    if shown.len() < first_line.len() || source.lines().count() > 1 {
        shown.push_str(" …");
    }
    format!("`{shown}` at {}", checked.file.line_col(start))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(text: &str) -> Checked {
        crate::frontend::load_bytes("cases.horef", text.as_bytes()).expect("checks")
    }

    const METHODS: &str = "Methods:\nm0 (x:Int) :Unit = assert (x != 7);\nm1 (x:Int) :Unit = m0 x;\nm2 (x:Int) :Unit = assert (x != 9);\nm3 (x:Int) :Int = x + 1;\n";

    fn leaves(checked: &Checked) -> Option<Vec<Leaf<'_>>> {
        let mut out = Vec::new();
        leaves_of(
            &checked.program.main.body,
            &checked.info,
            &mut Vec::new(),
            &mut out,
        )?;
        Some(out)
    }

    #[test]
    fn each_case_keeps_what_it_reaches_and_the_conditions_on_what_it_reads() {
        let program = checked(&format!(
            "{METHODS}Main (s:Int, x:Int) :Unit:\n  if s <= 0 then m1 x else if s <= 1 then m2 x else if x > 3 then m0 x else skip"
        ));
        let leaves = leaves(&program).expect("pure conditions");
        assert_eq!(leaves.len(), 4);
        let first = case_program(&program, &leaves[0]).expect("the case checks");
        let names: Vec<&str> = first
            .program
            .methods
            .iter()
            .map(|m| &*m.name.name)
            .collect();
        assert_eq!(names, ["m0", "m1"]);
        // `s <= 0` does not mention `x`: the case is `m1 x` alone.
        assert!(matches!(first.program.main.body.kind, ExprKind::App { .. }));
        // `x > 3` does: the third case is `if x > 3 then m0 x else skip` (under the
        // dropped `s` conditions).
        let third = case_program(&program, &leaves[2]).expect("the case checks");
        assert!(matches!(third.program.main.body.kind, ExprKind::If { .. }));
        let cases = proof_cases(&program).expect("four leaves");
        // The `skip` leaf cannot fail: three cases need proofs.
        assert_eq!(cases.len(), 3);
    }

    #[test]
    fn conditions_that_call_or_divide_make_no_cases() {
        for cond in ["m3 x > 0", "(fun (y:Int) :(Int) -> y) x > 0"] {
            let program = checked(&format!(
                "{METHODS}Main (s:Int, x:Int) :Unit:\n  if {cond} then m1 x else if s <= 1 then m2 x else if s <= 2 then m0 x else m1 s"
            ));
            assert!(leaves(&program).is_none(), "{cond}");
            assert!(proof_cases(&program).is_none(), "{cond}");
        }
    }

    /// BMC-2's re-declarations: `m1` calls the first `m0`, `Main` the last one. Each case
    /// keeps the declarations it reaches in order, so its names mean what they meant.
    #[test]
    fn redeclared_methods_keep_their_meaning_in_each_case() {
        let program = checked(
            "Methods:\nm0 (x:Int) :Unit = assert (x != 7);\nm1 (x:Int) :Unit = m0 x;\nm0 (x:Int) :Unit = assert (x != 8);\nm2 (x:Int) :Unit = assert (x != 9);\nMain (s:Int, x:Int) :Unit:\n  if s <= 0 then m1 x else if s <= 1 then m0 x else if s <= 2 then m2 x else m1 s",
        );
        let leaves = leaves(&program).expect("pure conditions");
        let first = case_program(&program, &leaves[0]).expect("the case checks");
        let bodies: Vec<String> = first
            .program
            .methods
            .iter()
            .map(|m| {
                first.file.text[m.body.span.start as usize..m.body.span.end as usize].to_string()
            })
            .collect();
        assert_eq!(bodies, ["assert (x != 7)", "m0 x"]);
        let second = case_program(&program, &leaves[1]).expect("the case checks");
        let body = &second.program.methods[0].body.span;
        assert_eq!(
            &second.file.text[body.start as usize..body.end as usize],
            "assert (x != 8)"
        );
        assert_eq!(proof_cases(&program).map(|c| c.len()), Some(4));
    }

    #[test]
    fn a_small_if_is_proved_whole() {
        let program = checked(&format!(
            "{METHODS}Main (s:Int, x:Int) :Unit:\n  if s <= 0 then m1 x else m2 x"
        ));
        assert!(proof_cases(&program).is_none());
    }
}
