//! An IR program as Boogie text that this front end reads back (`lower --emit boogie`).
//!
//! The text is the IR's own ([`boogie_like::Dialect::Boogie`]: Boogie 3's `datatype`s for
//! closures and lists, `e is C`, `e->f`, truncating `/` and `%` spelled with `div` and
//! `mod`), plus what Boogie's semantics needs to agree with the IR's: globals start
//! arbitrary in Boogie and at their type's default in the IR, so the entry procedure first
//! assigns every global its default (and modifies them all).
//!
//! Guarantees: for an IR program that passes `boogie_like::verify`, [`emit`] gives Boogie
//! text whose executions are the IR program's (same calls, depths, failures), or
//! [`Unsupported`] naming what has no Boogie form here: a constant map `[K](v)` (an
//! expression, or the default of a map global that the entry does not assign first).

use super::lexer::KEYWORDS;
use boogie_like::ir::{Expr, GlobalId, Program as IrProgram, Stmt, Var};
use boogie_like::{Dialect, Value};

/// What `--emit boogie` cannot print.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unsupported {
    #[error(
        "unsupported by --emit boogie: the constant map in procedure `{proc}` (Boogie has no \
         constant maps without quantifiers)"
    )]
    ConstantMap { proc: String },
    #[error(
        "unsupported by --emit boogie: the map global `{global}` starts as a constant map \
         (Boogie starts it arbitrary and has no constant maps without quantifiers)"
    )]
    MapDefault { global: String },
}

/// The Boogie text of `ir` (which passes `boogie_like::verify`).
pub fn emit(ir: &IrProgram) -> Result<String, Unsupported> {
    if let Some((_, proc)) = ir.procs.iter().find(|(_, p)| has_constant_map(&p.body, p)) {
        return Err(Unsupported::ConstantMap {
            proc: proc.name.clone(),
        });
    }
    let mut program = ir.clone();
    initialize_globals(&mut program)?;
    Ok(boogie_like::print_in(
        Dialect::Boogie { keywords: KEYWORDS },
        &program,
    ))
}

/// Whether some expression of `block` (or of the calls it makes) builds a constant map.
fn has_constant_map(block: &[Stmt], proc: &boogie_like::ir::Procedure) -> bool {
    let mut found = false;
    boogie_like::ir::for_each_stmt(block, &mut |stmt| {
        let exprs: Vec<&Expr> = match stmt {
            Stmt::Assign(_, e) | Stmt::Assume(e) => vec![e],
            Stmt::Assert { cond, .. } | Stmt::If { cond, .. } => vec![cond],
            Stmt::Call(site) => proc.call_sites[*site].args.iter().collect(),
            Stmt::Havoc(_) | Stmt::Return => Vec::new(),
        };
        found |= exprs.into_iter().any(builds_constant_map);
    });
    found
}

fn builds_constant_map(e: &Expr) -> bool {
    matches!(e, Expr::MapConst { .. }) || e.children().into_iter().any(builds_constant_map)
}

/// Assigns every global its default at the start of the entry, except the globals the
/// entry's first statements assign from values that read no global (a Boogie program's
/// `g := g#init`).
fn initialize_globals(program: &mut IrProgram) -> Result<(), Unsupported> {
    let Some(entry) = program.entrypoint() else {
        return Ok(());
    };
    let assigned_first = assigned_first(&program.procs[entry].body);
    let interpreter = boogie_like::Interpreter::new(program)
        .unwrap_or_else(|e| panic!("internal error: the IR is ill-formed: {e}"));
    let mut inits = Vec::new();
    for (id, global) in program.globals.iter() {
        if assigned_first.contains(&id) {
            continue;
        }
        match value_expr(&interpreter.default_value(global.ty)) {
            Some(value) => inits.push(Stmt::Assign(Var::Global(id), value)),
            None => {
                return Err(Unsupported::MapDefault {
                    global: global.name.clone(),
                });
            }
        }
    }
    let all: Vec<GlobalId> = program.globals.iter().map(|(id, _)| id).collect();
    let proc = &mut program.procs[entry];
    proc.reads.clear();
    proc.modifies = all;
    inits.append(&mut proc.body);
    proc.body = inits;
    Ok(())
}

/// The globals assigned by the leading assignments of `body` from values that read no
/// global.
fn assigned_first(body: &[Stmt]) -> Vec<GlobalId> {
    let mut out = Vec::new();
    for stmt in body {
        let Stmt::Assign(var, value) = stmt else {
            break;
        };
        let mut reads_global = false;
        value.for_each_var(&mut |v| reads_global |= matches!(v, Var::Global(_)));
        if reads_global {
            break;
        }
        if let Var::Global(g) = var {
            out.push(*g);
        }
    }
    out
}

/// A value as an expression; `None` for a map (its default is a constant map).
fn value_expr(value: &Value) -> Option<Expr> {
    match value {
        Value::Int(i) => Some(Expr::Int(i.clone())),
        Value::Bool(b) => Some(Expr::Bool(*b)),
        Value::Data { ctor, fields } => {
            let args: Option<Vec<Expr>> = fields.iter().map(value_expr).collect();
            Some(Expr::ctor(*ctor, args?))
        }
        Value::Map(_) => None,
    }
}
