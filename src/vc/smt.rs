//! How IR names and types appear in SMT-LIB: symbols, sorts and datatype declarations.
//!
//! Guarantees: every IR name becomes a valid SMT-LIB symbol (quoted with `|...|` when it
//! has characters a simple symbol may not); the constants the encoder invents all contain
//! `!`, which no IR name does, so they never clash with a datatype, constructor or selector.

use boogie_like::ir::{DatatypeId, Program as IrProgram, Type as IrType};
use easy_smt::{Context, SExpr};

/// An SMT-LIB command the encoder wants sent, in order.
#[derive(Clone, Debug)]
pub enum Command {
    /// `(declare-const name sort)`
    Declare { name: SExpr, sort: SExpr },
    /// `(assert term)`
    Assert(SExpr),
}

/// `name` as an SMT-LIB symbol.
pub fn symbol(name: &str) -> String {
    let simple = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c));
    if simple {
        name.to_string()
    } else {
        format!("|{}|", name.replace(['|', '\\'], "_"))
    }
}

/// The SMT sort of an IR type.
pub fn sort(terms: &Context, ir: &IrProgram, ty: IrType) -> SExpr {
    match ty {
        IrType::Int => terms.int_sort(),
        IrType::Bool => terms.bool_sort(),
        IrType::Data(d) => datatype_sort(terms, ir, d),
    }
}

pub fn datatype_sort(terms: &Context, ir: &IrProgram, d: DatatypeId) -> SExpr {
    terms.atom(symbol(&ir.datatypes[d].name))
}

/// The sort list and constructor declarations of `(declare-datatypes ...)` for every
/// datatype of the program (declared together: they may be mutually recursive).
pub fn datatype_declarations(terms: &Context, ir: &IrProgram) -> (Vec<(String, i32)>, Vec<SExpr>) {
    let sorts = ir
        .datatypes
        .values()
        .map(|d| (symbol(&d.name), 0))
        .collect();
    let decls = ir
        .datatypes
        .values()
        .map(|d| {
            let ctors = d
                .ctors
                .iter()
                .map(|c| {
                    let mut items = vec![terms.atom(symbol(&c.name))];
                    items.extend(c.fields.iter().map(|f| {
                        terms.list(vec![terms.atom(symbol(&f.name)), sort(terms, ir, f.ty)])
                    }));
                    terms.list(items)
                })
                .collect();
            terms.list(ctors)
        })
        .collect();
    (sorts, decls)
}
