//! Exceptions in the IR: result passing through three globals (docs/ocaml.md).
//!
//! Only a program with a `try` gets them ([`catches_exceptions`]); without one,
//! a `raise` is an `assert false` at its position, as `fail` is. With one, a `raise` (site
//! `s`, exception `E`, argument `v`) sets `exn#code := E + 1; exn#site := s; exn#arg := v`;
//! `exn#code == 0` means "no exception pending". The raise site numbers are the raising
//! expressions' ids plus one, so an exception escaping the entry fails at its `raise`, the
//! position the interpreter reports. How a pending exception ends the code after it
//! (return, skip to the handlers, or fail in the entry) is [`super::body`]'s part.
//!
//! Guarantees: the three globals are `Int`s named so that no source name can clash
//! (`exn#…`); [`Exceptions::sites`] lists every expression that may raise — each `raise`
//! and, when the program declares `Division_by_zero`, each `/` and `mod` — with its span.

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
    /// What a division by zero raises, if declared.
    pub division_by_zero: Option<ExnId>,
    /// Every raise site, with the span of its expression.
    pub sites: Vec<(u32, Span)>,
}

impl Exceptions {
    /// The protocol's globals, if `program` catches exceptions.
    pub fn declare(ir: &mut IrProgram, program: &Program) -> Option<Exceptions> {
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
        Some(Exceptions {
            code: ir.add_global("exn#code", IrType::Int),
            site: ir.add_global("exn#site", IrType::Int),
            arg: ir.add_global("exn#arg", IrType::Int),
            division_by_zero,
            sites,
        })
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

    /// The statements raising `exn` with `arg` at the expression `at`.
    pub fn raise(&self, exn: ExnId, at: &Expr, arg: IrExpr) -> Vec<Stmt> {
        vec![
            Stmt::assign(self.code, code_of(exn)),
            Stmt::assign(self.site, IrExpr::int(site_of(at))),
            Stmt::assign(self.arg, arg),
        ]
    }

    /// `exn#code := 0`: the pending exception is handled.
    pub fn clear(&self) -> Stmt {
        Stmt::assign(self.code, IrExpr::int(0))
    }
}

fn code_of(exn: ExnId) -> IrExpr {
    IrExpr::int(exn.0 + 1)
}

fn site_of(e: &Expr) -> u32 {
    e.id.0 + 1
}
