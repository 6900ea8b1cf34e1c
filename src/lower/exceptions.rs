//! Exceptions in the IR: result passing through three globals (docs/ocaml.md).
//!
//! Only a program with a `try` gets them ([`catches_exceptions`]); without one,
//! a `raise` is an `assert false` at its position, as `fail` is. With one, a `raise` (site
//! `s`, exception `E`, argument `v`) sets `exn#code := E + 1; exn#site := s; exn#arg := v`;
//! an argument whose IR layout is not one `Int` (a tuple, a list, a datatype, ...) goes to
//! the payload globals of its core type instead (`exn#arg#1`, or `exn#arg#1.0`, `exn#arg#1.1`
//! for a pair: one global per component), shared by every exception carrying that type —
//! only one exception is pending at a time, and a handler reads the payload of the
//! exception it handles, whose type is fixed;
//! `exn#code == 0` means "no exception pending". The raise site numbers are the raising
//! expressions' ids plus one, so an exception escaping the entry fails at its `raise`, the
//! position the interpreter reports. How a pending exception ends the code after it
//! (return, skip to the handlers, or fail in the entry) is [`super::body`]'s part.
//!
//! Guarantees: the three globals are `Int`s named so that no source name can clash
//! (`exn#…`), and so are the payload globals; [`Exceptions::sites`] lists every expression that may raise — each `raise`
//! and, when the program declares `Division_by_zero`, each `/` and `mod` — with its span.

use super::layout::{Layout, component_names};
use crate::core_lang::ast::*;
use crate::core_lang::visit::{catches_exceptions, walk};
use crate::span::Span;
use boogie_like::ir::{self, GlobalId, Program as IrProgram, Stmt, Type as IrType};

type IrExpr = ir::Expr;

/// The globals of the exception protocol and the places that raise.
#[derive(Debug)]
pub struct Exceptions {
    /// 0, or the pending exception's id plus one.
    pub code: GlobalId,
    /// The raise site of the pending exception (its expression's id plus one).
    pub site: GlobalId,
    /// The pending exception's `Int` argument (0 for one without).
    pub arg: GlobalId,
    /// The globals holding each exception's argument, by `ExnId` (empty for one without;
    /// `[arg]` for one whose argument is one `Int` in the IR).
    payloads: Vec<Vec<GlobalId>>,
    /// What a division by zero raises, if declared.
    pub division_by_zero: Option<ExnId>,
    /// Every raise site, with the span of its expression.
    pub sites: Vec<(u32, Span)>,
}

impl Exceptions {
    /// The protocol's globals, if `program` catches exceptions.
    pub fn declare(ir: &mut IrProgram, program: &Program, layout: &Layout) -> Option<Exceptions> {
        if !catches_exceptions(program) {
            return None;
        }
        let division_by_zero = program.division_by_zero();
        let mut sites = Vec::new();
        for body in program.bodies() {
            walk(body, &mut |e| {
                let raises = match &e.kind {
                    ExprKind::Raise { .. } => true,
                    ExprKind::Binary { op, .. } => {
                        matches!(op, BinOp::Div | BinOp::Mod) && division_by_zero.is_some()
                    }
                    _ => false,
                };
                if raises {
                    sites.push((site_of(e), e.span));
                }
            });
        }
        let code = ir.add_global("exn#code", IrType::Int);
        let site = ir.add_global("exn#site", IrType::Int);
        let arg = ir.add_global("exn#arg", IrType::Int);
        let payloads = payload_globals(ir, program, layout, arg);
        Some(Exceptions {
            code,
            site,
            arg,
            payloads,
            division_by_zero,
            sites,
        })
    }

    /// The globals holding the argument of `exn` (one per component of its type).
    pub fn payload(&self, exn: ExnId) -> &[GlobalId] {
        &self.payloads[exn.index()]
    }

    /// `exn#code == 0`: no exception is pending.
    pub fn none_pending(&self) -> IrExpr {
        IrExpr::binary(ir::BinOp::Eq, IrExpr::var(self.code), IrExpr::int(0))
    }

    /// `exn#code != 0`.
    pub fn pending(&self) -> IrExpr {
        IrExpr::binary(ir::BinOp::Neq, IrExpr::var(self.code), IrExpr::int(0))
    }

    /// Whether the pending exception is `exn` (`None`: any).
    pub fn is(&self, exn: Option<ExnId>) -> IrExpr {
        match exn {
            Some(x) => IrExpr::binary(ir::BinOp::Eq, IrExpr::var(self.code), code_of(x)),
            None => IrExpr::Bool(true),
        }
    }

    /// The statements raising `exn` with the components `arg` of its argument (none for
    /// an exception without one: `exn#arg` is then 0) at the expression `at`.
    pub fn raise(&self, exn: ExnId, at: &Expr, arg: Vec<IrExpr>) -> Vec<Stmt> {
        let mut out = vec![
            Stmt::assign(self.code, code_of(exn)),
            Stmt::assign(self.site, IrExpr::int(site_of(at))),
        ];
        match self.payload(exn) {
            [] if arg.is_empty() => out.push(Stmt::assign(self.arg, IrExpr::int(0))),
            globals => {
                assert_eq!(
                    globals.len(),
                    arg.len(),
                    "internal error: a payload's width"
                );
                out.extend(globals.iter().zip(arg).map(|(g, v)| Stmt::assign(*g, v)));
            }
        }
        out
    }

    /// `exn#code := 0`: the pending exception is handled.
    pub fn clear(&self) -> Stmt {
        Stmt::assign(self.code, IrExpr::int(0))
    }
}

/// The payload globals of every exception: `exn#arg` for an argument that is one `Int` in
/// the IR, otherwise one set per core type (`exn#arg#k`, one global per component).
fn payload_globals(
    ir: &mut IrProgram,
    program: &Program,
    layout: &Layout,
    arg: GlobalId,
) -> Vec<Vec<GlobalId>> {
    let mut by_type: Vec<(&Type, Vec<GlobalId>)> = Vec::new();
    let mut out = Vec::new();
    for decl in &program.exceptions {
        let Some(ty) = &decl.arg else {
            out.push(Vec::new());
            continue;
        };
        let components = layout.components(ty);
        if components == [IrType::Int] {
            out.push(vec![arg]);
        } else if let Some((_, globals)) = by_type.iter().find(|(t, _)| *t == ty) {
            out.push(globals.clone());
        } else {
            let base = format!("exn#arg#{}", by_type.len() + 1);
            let names = component_names(&base, components.len());
            let globals: Vec<GlobalId> = names
                .into_iter()
                .zip(components)
                .map(|(name, t)| ir.add_global(name, t))
                .collect();
            by_type.push((ty, globals.clone()));
            out.push(globals);
        }
    }
    out
}

fn code_of(exn: ExnId) -> IrExpr {
    IrExpr::int(exn.0 + 1)
}

fn site_of(e: &Expr) -> u32 {
    e.id.0 + 1
}
