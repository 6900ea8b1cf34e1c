//! Lowering HORef to the Boogie-like IR (docs/ir.md): defunctionalization.
//!
//! [`lower`] reads as the pipeline: captured variables, points-to sets, datatypes for
//! closures and lists, globals for references and for cells allocated once
//! ([`single_cells`]), heap maps for the other allocated cells ([`heap`]), one procedure
//! per function, the bodies, and the mod/ref sets.
//! Guarantees: the result passes the IR verifier; running it in the IR interpreter gives
//! the same outcome as running the source in the HORef interpreter (same value, failure at
//! the same source position, or cut-off at the same depth) — the differential test checks
//! this. A reference in the value is an address on both sides, the same one unless the
//! program has single cells (the IR numbers those apart).

pub mod body;
pub mod captures;
pub mod exceptions;
pub mod functions;
pub mod heap;
pub mod layout;
pub mod modref;
pub mod points_to;
pub mod single_cells;

use crate::core_lang::Checked;
use crate::core_lang::ast::*;
use crate::core_lang::visit::walk;
use body::{BodyLowering, Context, DispatchStats};
use boogie_like::ir::{GlobalId, Program as IrProgram};
use functions::Functions;
use layout::{Layout, component_names};
use points_to::FunName;
use std::collections::HashMap;

/// A lowered program and what maps it back to the source.
#[derive(Debug)]
pub struct Lowered {
    pub ir: IrProgram,
    pub functions: Functions,
    /// The globals of every reference, by `RefId`.
    pub ref_globals: Vec<Vec<GlobalId>>,
    pub stats: LowerStats,
}

/// Sizes of the lowered program (`horef-si lower --stats`).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct LowerStats {
    pub procedures: usize,
    pub call_sites: usize,
    #[serde(flatten)]
    pub dispatch: DispatchStats,
    pub points_to_passes: usize,
    /// The cells allocated at most once per run, lowered to globals ([`single_cells`]).
    pub single_cells: usize,
}

/// Lowers a checked program.
pub fn lower(checked: &Checked) -> Lowered {
    let program = &checked.program;
    let info = &checked.info;
    let binders = all_binders(program);
    let captures = captures::compute(program, info);
    let points_to = points_to::analyse(program, info);
    let mut ir = IrProgram::new();
    let arrows = function_types(program);
    let types: Vec<&Type> = all_types(program, info, &binders)
        .into_iter()
        .chain(&arrows)
        .collect();
    let layout = Layout::declare(&mut ir, &program.datatypes, types.iter().copied());
    let ref_globals = declare_globals(&mut ir, program, &layout);
    let single_cells = single_cells::SingleCells::declare(&mut ir, &layout, program, info);
    let heaps = heap::Heaps::declare(&mut ir, &layout, types.iter().copied(), &single_cells);
    let exceptions = exceptions::Exceptions::declare(&mut ir, program, &layout);
    let functions = functions::declare(
        &mut ir,
        (program, info),
        &layout,
        &captures,
        &binders,
        &checked.file,
    );
    let cx = Context {
        program,
        info,
        layout: &layout,
        functions: &functions,
        captures: &captures,
        points_to: &points_to,
        binders: &binders,
        ref_globals: &ref_globals,
        heaps: &heaps,
        single_cells: &single_cells,
        file: &checked.file,
        exceptions: exceptions.as_ref(),
    };
    let dispatch = lower_bodies(&cx, &mut ir);
    modref::annotate(&mut ir);
    if cfg!(debug_assertions)
        && let Err(errors) = boogie_like::verify(&ir)
    {
        panic!("internal error: the lowered IR is ill-formed: {errors:?}");
    }
    let stats = LowerStats {
        procedures: ir.procs.len(),
        call_sites: ir.procs.values().map(|p| p.call_sites.len()).sum(),
        dispatch,
        points_to_passes: points_to.passes,
        single_cells: single_cells.count(),
    };
    Lowered {
        ir,
        functions,
        ref_globals,
        stats,
    }
}

fn lower_bodies(cx: &Context, ir: &mut IrProgram) -> DispatchStats {
    let mut total = DispatchStats::default();
    let mut add = |s: DispatchStats| {
        total.direct_calls += s.direct_calls;
        total.dispatch_sites += s.dispatch_sites;
        total.candidates_total += s.candidates_total;
        total.candidates_max = total.candidates_max.max(s.candidates_max);
    };
    for method in &cx.program.methods {
        let proc = cx.functions.proc(FunName::Method(method.id));
        let mut body = BodyLowering::new(cx, ir, proc);
        body.bind_params(&method.params.iter().collect::<Vec<_>>(), 0);
        add(body.finish_with(&method.body));
    }
    let self_binders = let_rec_binders(cx.program);
    let mut lambdas: Vec<_> = cx.functions.lambdas.values().cloned().collect();
    lambdas.sort_by_key(|l| l.id);
    for lambda in lambdas {
        let proc = cx.functions.proc(FunName::Lambda(lambda.id));
        let mut body = BodyLowering::new(cx, ir, proc);
        let captured = functions::captured_binders(cx.captures, lambda.id, cx.binders);
        let next = body.bind_params(&captured, 0);
        body.bind_params(&lambda.params.iter().collect::<Vec<_>>(), next);
        if let Some(me) = self_binders.get(&lambda.id) {
            body.bind_rec(*me, lambda.id);
        }
        add(body.finish_with(&lambda.body));
    }
    let main = &cx.program.main;
    let mut body = BodyLowering::new(cx, ir, cx.functions.main());
    let params = main.params.iter().collect::<Vec<_>>();
    body.bind_params(&params, 0);
    body.assume_inputs_in_range(&params);
    body.initialise_store();
    add(body.finish_with(&main.body));
    total
}

fn declare_globals(ir: &mut IrProgram, program: &Program, layout: &Layout) -> Vec<Vec<GlobalId>> {
    program
        .store
        .iter()
        .map(|decl| {
            let types = layout.components(&decl.ty);
            let names = component_names(&decl.name.name, types.len());
            names
                .into_iter()
                .zip(types)
                .map(|(name, ty)| ir.add_global(name, ty))
                .collect()
        })
        .collect()
}

/// Every binder of the program, by id.
fn all_binders(program: &Program) -> HashMap<BinderId, &Binder> {
    let mut binders: HashMap<BinderId, &Binder> = HashMap::new();
    let params = program
        .methods
        .iter()
        .flat_map(|m| &m.params)
        .chain(&program.main.params);
    for binder in params {
        binders.insert(binder.id, binder);
    }
    for body in bodies(program) {
        walk(body, &mut |e| match &e.kind {
            ExprKind::Let { binder, .. } => {
                binders.insert(binder.id, binder);
            }
            ExprKind::LetRec { binder, lambda, .. } => {
                binders.insert(binder.id, binder);
                binders.extend(lambda.params.iter().map(|p| (p.id, p)));
            }
            ExprKind::Fun(lambda) => binders.extend(lambda.params.iter().map(|p| (p.id, p))),
            ExprKind::Try { handlers, .. } => {
                binders.extend(handlers.iter().flat_map(|h| &h.arg).map(|b| (b.id, b)))
            }
            _ => {}
        });
    }
    binders
}

/// Every body of `program`: the `Store` initialisers, the methods', `Main`'s.
fn bodies(program: &Program) -> impl Iterator<Item = &Expr> {
    program
        .store
        .iter()
        .map(|d| &d.init)
        .chain(program.methods.iter().map(|m| &m.body))
        .chain(std::iter::once(&program.main.body))
}

/// The `let rec` name of every `let rec` function.
fn let_rec_binders(program: &Program) -> HashMap<LambdaId, BinderId> {
    let mut out = HashMap::new();
    for body in bodies(program) {
        walk(body, &mut |e| {
            if let ExprKind::LetRec { binder, lambda, .. } = &e.kind {
                out.insert(lambda.id, binder.id);
            }
        });
    }
    out
}

/// The arrow type of every method and lambda. A function nothing references still gets a
/// procedure and a closure constructor, so its type needs a datatype even when no
/// expression or binder mentions it.
fn function_types(program: &Program) -> Vec<Type> {
    let mut out: Vec<Type> = program.methods.iter().map(Method::ty).collect();
    for body in bodies(program) {
        walk(body, &mut |e| {
            if let ExprKind::Fun(lambda) | ExprKind::LetRec { lambda, .. } = &e.kind {
                out.push(lambda.ty());
            }
        });
    }
    out
}

/// Every type the program mentions.
fn all_types<'p>(
    program: &'p Program,
    info: &'p crate::core_lang::typecheck::TypeInfo,
    binders: &HashMap<BinderId, &'p Binder>,
) -> Vec<&'p Type> {
    let mut types: Vec<&Type> = info.expr_types.iter().collect();
    let mut ids: Vec<&BinderId> = binders.keys().collect();
    ids.sort();
    types.extend(ids.into_iter().map(|b| &binders[b].ty));
    types.extend(program.store.iter().map(|d| &d.ty));
    types.extend(program.methods.iter().map(|m| &m.ret));
    types.push(&program.main.ret);
    // The exceptions' payloads (each payload type has its globals, `lower::exceptions`).
    types.extend(program.exceptions.iter().flat_map(|x| &x.arg));
    // The fields of the datatypes (a reference held in a constructor has its heap maps).
    types.extend(
        program
            .datatypes
            .iter()
            .flat_map(|d| d.ctors.iter().flat_map(|c| c.fields.iter())),
    );
    types
}
