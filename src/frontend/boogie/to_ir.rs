//! A Boogie program to an IR program: declarations, the entry, effects.
//!
//! Guarantees: [`translate`] returns an IR program that passes `boogie_like::verify`, with
//! one IR procedure per Boogie procedure that has an implementation (its name kept) plus
//! the procedures made for loops and labelled blocks (`P#loop1`, `P#L`), or a
//! [`Diagnostic`] at the offending declaration. Globals and constants start arbitrary: the
//! entry procedure takes their initial values (`g#init`) as inputs, as it does every other
//! nondeterministic choice it makes itself (`havoc`, uninitialised locals, `if (*)`), so a
//! witness gives them and the replay uses them. Modifies and reads sets are inferred.

use super::ast::{self, Program, Ty};
use super::decls::{Decls, Impl, unique};
use super::expr::{check_type, ir_type};
use super::stmt::{Hoist, ImplTranslator};
use crate::diagnostics::Diagnostic;
use crate::span::{SourceFile, Span};
use boogie_like::ir::{GlobalId, ProcId, Procedure, Program as IrProgram, Stmt, Type, Var};
use std::collections::{BTreeSet, HashMap};

/// Translates `program`; the entry is `entry` if given, else the procedure marked
/// `{:entrypoint}`, else `main`.
pub fn translate(
    program: &Program,
    file: &SourceFile,
    entry: Option<&str>,
) -> Result<IrProgram, Diagnostic> {
    let mut ir = IrProgram::new();
    let mut decls = collect(program, file, &mut ir)?;
    let impls = implementations(program, &decls)?;
    let entry_name = find_entry(program, &impls, entry)?;
    for i in &impls {
        let (ins, outs) = (signature(i.ins), signature(i.outs));
        let id = ir.declare_proc(&*i.proc.name.name, &refs(&ins), &refs(&outs));
        decls.ir_procs.insert(i.proc.name.name.to_string(), id);
    }
    let entry_impl = impls
        .iter()
        .find(|i| *i.proc.name.name == *entry_name)
        .expect("internal error: entry has an implementation");
    let entry_id = decls.ir_procs[&entry_name];
    no_calls_to(program, &entry_name, &impls)?;
    let hoisted = {
        let mut scratch = ir.clone();
        let mut hoist = Hoist::record();
        ImplTranslator::new(&mut scratch, &decls, entry_impl, entry_id, Some(&mut hoist))?.run()?;
        hoist.recorded
    };
    let hoisted_ids = add_inputs(&mut ir, entry_id, entry_impl, &hoisted);
    for i in &impls {
        let id = decls.ir_procs[&*i.proc.name.name];
        let mut hoist = Hoist::replay(hoisted_ids.clone());
        let hoist = (id == entry_id).then_some(&mut hoist);
        ImplTranslator::new(&mut ir, &decls, i, id, hoist)?.run()?;
    }
    ir.set_entrypoint(entry_id);
    infer_effects(&mut ir);
    if let Err(errors) = boogie_like::verify(&ir) {
        let list: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        return Err(Diagnostic::error(
            Span::new(0, 0),
            format!(
                "internal error: the Boogie translation produced an invalid IR program: {}",
                list.join("; ")
            ),
            "",
        ));
    }
    Ok(ir)
}

fn signature(bindings: &[ast::Binding]) -> Vec<(String, Type)> {
    bindings
        .iter()
        .map(|b| (b.name.name.to_string(), ir_type(b.ty)))
        .collect()
}

fn refs(list: &[(String, Type)]) -> Vec<(&str, Type)> {
    list.iter().map(|(n, t)| (n.as_str(), *t)).collect()
}

fn duplicate(name: &ast::Ident, what: &str) -> Diagnostic {
    Diagnostic::error(
        name.span,
        format!("{what} `{}` is declared twice", name.name),
        "declared again here",
    )
}

/// The datatypes, in order (so that the n-th is the IR's `DatatypeId(n)`, as
/// [`Ty::Data`] says): all names first, then the constructors. Constructor names are
/// unique in the program, field names within their datatype (the IR's rules; Boogie lets
/// constructors of one datatype share a field, which we do not support).
fn add_datatypes(program: &Program, ir: &mut IrProgram) -> Result<(), Diagnostic> {
    let ids: Vec<_> = program
        .datatypes
        .iter()
        .map(|d| ir.add_datatype(&*d.name.name))
        .collect();
    let mut ctor_names = BTreeSet::new();
    for (d, id) in program.datatypes.iter().zip(ids) {
        let mut field_names = BTreeSet::new();
        for c in &d.ctors {
            if !ctor_names.insert(c.name.name.to_string()) {
                return Err(duplicate(&c.name, "the constructor"));
            }
            if let Some(f) = c
                .fields
                .iter()
                .find(|f| !field_names.insert(f.name.name.clone()))
            {
                let what = "a field name used by two constructors of one datatype";
                return Err(super::unsupported(f.name.span, what));
            }
            let fields: Vec<(String, Type)> = signature(&c.fields);
            ir.add_ctor(id, &*c.name.name, fields);
        }
    }
    let inhabited = boogie_like::inhabited_datatypes(ir);
    if let Some((_, d)) = ir.datatypes.iter().find(|(id, _)| !inhabited.contains(id)) {
        let d = program
            .datatypes
            .iter()
            .find(|decl| *decl.name.name == d.name)
            .expect("internal error: a datatype of the program");
        return Err(Diagnostic::error(
            d.name.span,
            format!("the datatype `{}` has no finite value", d.name.name),
            "every constructor needs a value of this datatype",
        ));
    }
    Ok(())
}

/// Globals, constants, functions and procedures by name; IR globals for the first two.
fn collect<'a>(
    program: &'a Program,
    file: &'a SourceFile,
    ir: &mut IrProgram,
) -> Result<Decls<'a>, Diagnostic> {
    for t in program.types.iter().filter(|t| t.synonym.is_none()) {
        ir.add_sort(&*t.name.name);
    }
    add_datatypes(program, ir)?;
    let mut decls = Decls {
        file,
        globals: HashMap::new(),
        consts: program.consts.iter().collect(),
        axioms: &program.axioms,
        functions: HashMap::new(),
        procs: HashMap::new(),
        ir_procs: HashMap::new(),
        uninterpreted: HashMap::new(),
    };
    let bindings = program
        .globals
        .iter()
        .chain(program.consts.iter().map(|c| &c.binding));
    for b in bindings {
        if decls
            .globals
            .insert(b.name.name.to_string(), b.ty)
            .is_some()
        {
            return Err(duplicate(&b.name, "the global"));
        }
        ir.add_global(&*b.name.name, ir_type(b.ty));
    }
    for f in &program.functions {
        if decls.functions.insert(f.name.name.to_string(), f).is_some() {
            return Err(duplicate(&f.name, "the function"));
        }
    }
    decls.uninterpreted = uninterpreted_globals(&program.functions, ir)?;
    for p in &program.procs {
        if decls.procs.insert(p.name.name.to_string(), p).is_some() {
            return Err(duplicate(&p.name, "the procedure"));
        }
        for spec in &p.specs {
            if let ast::Spec::Modifies(names) = spec
                && let Some(n) = names.iter().find(|n| !decls.globals.contains_key(&*n.name))
            {
                return Err(Diagnostic::error(
                    n.span,
                    format!("`{}` in `modifies` is not a global variable", n.name),
                    "not a global",
                ));
            }
        }
    }
    Ok(decls)
}

/// One global per function without a body, holding the function as a curried map
/// (`function f(int, bool): int;` is `f: [int][bool]int`; no parameters: a plain value).
/// It is never written, so it is one arbitrary but fixed function for the whole run; like
/// every global it starts as an input of the entry (`f#init`), which the model gives and
/// the replay uses.
fn uninterpreted_globals(
    functions: &[ast::Function],
    ir: &mut IrProgram,
) -> Result<HashMap<String, GlobalId>, Diagnostic> {
    let mut taken: BTreeSet<String> = ir.globals.iter().map(|(_, g)| g.name.clone()).collect();
    let mut out = HashMap::new();
    for f in functions.iter().filter(|f| f.body.is_none()) {
        if let Some(p) = f.params.iter().find(|p| matches!(p.ty, Ty::Map(_))) {
            return Err(super::unsupported(
                p.name.span,
                "functions without a body that take a map",
            ));
        }
        let keys: Vec<Ty> = f.params.iter().map(|p| p.ty).collect();
        let ty = ir_type(Ty::curried(&keys, f.result));
        let name = unique(&f.name.name, &mut taken);
        out.insert(f.name.name.to_string(), ir.add_global(name, ty));
    }
    Ok(out)
}

/// Every procedure's implementation (its body, or its one `implementation`).
fn implementations<'a>(
    program: &'a Program,
    decls: &Decls<'a>,
) -> Result<Vec<Impl<'a>>, Diagnostic> {
    let mut impls: Vec<Impl<'a>> = program
        .procs
        .iter()
        .filter_map(|p| {
            p.body.as_ref().map(|body| Impl {
                proc: p,
                ins: &p.ins,
                outs: &p.outs,
                body,
            })
        })
        .collect();
    for i in &program.impls {
        let Some(proc) = decls.procs.get(&*i.name.name) else {
            return Err(Diagnostic::error(
                i.name.span,
                format!(
                    "the implementation `{}` has no procedure of that name",
                    i.name.name
                ),
                "no such procedure",
            ));
        };
        if impls.iter().any(|x| *x.proc.name.name == *i.name.name) {
            return Err(Diagnostic::error(
                i.name.span,
                format!(
                    "the procedure `{}` has several implementations; horef-si takes exactly one",
                    i.name.name
                ),
                "another implementation",
            ));
        }
        same_signature(&proc.ins, &i.ins, i.name.span)?;
        same_signature(&proc.outs, &i.outs, i.name.span)?;
        impls.push(Impl {
            proc,
            ins: &i.ins,
            outs: &i.outs,
            body: &i.body,
        });
    }
    Ok(impls)
}

fn same_signature(
    decl: &[ast::Binding],
    imp: &[ast::Binding],
    span: Span,
) -> Result<(), Diagnostic> {
    if decl.len() != imp.len() {
        return Err(Diagnostic::error(
            span,
            "the implementation's parameters differ in number from its procedure's",
            "signature differs",
        ));
    }
    for (d, i) in decl.iter().zip(imp) {
        check_type(i.name.span, i.ty, d.ty)?;
    }
    Ok(())
}

fn find_entry(
    program: &Program,
    impls: &[Impl],
    entry: Option<&str>,
) -> Result<String, Diagnostic> {
    let has_impl = |name: &str| impls.iter().any(|i| *i.proc.name.name == *name);
    let no_entry = |message: String| Diagnostic::error(Span::new(0, 0), message, "");
    if let Some(name) = entry {
        return if has_impl(name) {
            Ok(name.to_string())
        } else {
            Err(no_entry(format!(
                "`--entry {name}`: no procedure `{name}` with an implementation"
            )))
        };
    }
    let marked: Vec<&ast::Procedure> = program
        .procs
        .iter()
        .filter(|p| p.attrs.iter().any(|a| &*a.name.name == "entrypoint"))
        .collect();
    match marked.as_slice() {
        [p] if has_impl(&p.name.name) => Ok(p.name.name.to_string()),
        [p] => Err(Diagnostic::error(
            p.name.span,
            "the `{:entrypoint}` procedure has no implementation",
            "no body",
        )),
        [] if has_impl("main") => Ok("main".to_string()),
        [] => Err(no_entry(
            "no entry procedure: mark one `{:entrypoint}`, name it `main`, or pass `--entry NAME`"
                .to_string(),
        )),
        [_, second, ..] => Err(Diagnostic::error(
            second.name.span,
            "several procedures are marked `{:entrypoint}`",
            "another entry point",
        )),
    }
}

/// The entry runs once: a call to it is not supported (its inputs are the program's).
fn no_calls_to(program: &Program, entry: &str, impls: &[Impl]) -> Result<(), Diagnostic> {
    let _ = program;
    for i in impls {
        if let Some(span) = find_call(&i.body.stmts, entry) {
            return Err(super::unsupported(span, "a call to the entry procedure"));
        }
    }
    Ok(())
}

fn find_call(stmts: &[ast::Stmt], name: &str) -> Option<Span> {
    stmts.iter().find_map(|s| match &s.kind {
        ast::StmtKind::Call { proc, .. } if *proc.name == *name => Some(s.span),
        ast::StmtKind::If { then, else_, .. } => {
            find_call(then, name).or_else(|| find_call(else_, name))
        }
        ast::StmtKind::While { body, .. } => find_call(body, name),
        _ => None,
    })
}

/// Rebuilds the entry with its Boogie parameters followed by the hoisted inputs.
fn add_inputs(
    ir: &mut IrProgram,
    entry: ProcId,
    imp: &Impl,
    hoisted: &[(String, Type)],
) -> Vec<Var> {
    let old = &ir.procs[entry];
    let mut proc = Procedure::new(old.name.clone());
    let mut taken: BTreeSet<String> = imp
        .ins
        .iter()
        .chain(imp.outs)
        .chain(&imp.body.locals)
        .map(|b| b.name.name.to_string())
        .collect();
    taken.extend(ir.globals.iter().map(|(_, g)| g.name.clone()));
    proc.params = old
        .params
        .iter()
        .map(|p| proc.add_local(old.locals[*p].name.clone(), old.locals[*p].ty))
        .collect();
    let mut ids = Vec::new();
    for (base, ty) in hoisted {
        let name = unique(base, &mut taken);
        let id = proc.add_local(name, *ty);
        proc.params.push(id);
        ids.push(Var::Local(id));
    }
    proc.returns = old
        .returns
        .iter()
        .map(|p| proc.add_local(old.locals[*p].name.clone(), old.locals[*p].ty))
        .collect();
    ir.procs[entry] = proc;
    ids
}

/// Modifies and reads of every procedure, closed over calls (a fixpoint).
fn infer_effects(ir: &mut IrProgram) {
    let direct: Vec<(BTreeSet<_>, BTreeSet<_>)> =
        ir.procs.iter().map(|(_, p)| direct_effects(p)).collect();
    let ids: Vec<ProcId> = ir.procs.iter().map(|(id, _)| id).collect();
    let mut effects = direct;
    loop {
        let mut changed = false;
        for (k, id) in ids.iter().enumerate() {
            let callees: Vec<ProcId> = ir.procs[*id]
                .call_sites
                .iter()
                .map(|(_, c)| c.callee)
                .collect();
            for callee in callees {
                let j = ids
                    .iter()
                    .position(|x| *x == callee)
                    .expect("internal error: callee");
                let (w, r) = effects[j].clone();
                let before = effects[k].0.len() + effects[k].1.len();
                effects[k].0.extend(w);
                effects[k].1.extend(r);
                changed |= effects[k].0.len() + effects[k].1.len() != before;
            }
        }
        if !changed {
            break;
        }
    }
    for (k, id) in ids.iter().enumerate() {
        let (writes, reads) = &effects[k];
        ir.procs[*id].modifies = writes.iter().copied().collect();
        ir.procs[*id].reads = reads.difference(writes).copied().collect();
    }
}

type GlobalSet = BTreeSet<boogie_like::GlobalId>;

fn direct_effects(p: &Procedure) -> (GlobalSet, GlobalSet) {
    let (mut writes, mut reads) = (GlobalSet::new(), GlobalSet::new());
    let mut read = |e: &boogie_like::Expr| {
        e.for_each_var(&mut |v| {
            if let Var::Global(g) = v {
                reads.insert(g);
            }
        })
    };
    let mut write = |v: &Var| {
        if let Var::Global(g) = v {
            writes.insert(*g);
        }
    };
    boogie_like::ir::for_each_stmt(&p.body, &mut |s| match s {
        Stmt::Assign(v, e) => {
            write(v);
            read(e);
        }
        Stmt::Havoc(vs) => vs.iter().for_each(&mut write),
        Stmt::Assume(e) | Stmt::Assert { cond: e, .. } | Stmt::If { cond: e, .. } => read(e),
        Stmt::Call(site) => {
            let c = &p.call_sites[*site];
            c.args.iter().for_each(&mut read);
            c.rets.iter().for_each(&mut write);
        }
        Stmt::Return => {}
    });
    (writes, reads)
}
