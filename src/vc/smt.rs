//! How IR names and types appear in SMT-LIB: symbols, sorts and datatype declarations.
//!
//! Guarantees: every IR name becomes a valid SMT-LIB symbol (quoted with `|...|` when it
//! has characters a simple symbol may not); the constants the encoder invents all contain
//! `!`, which no IR name does, so they never clash with a datatype, constructor or selector.

use crate::solver::{CtorDecl, DatatypeDecl, Sort};
use boogie_like::Value;
use boogie_like::ir::{Program as IrProgram, Type as IrType};
use easy_smt::{Context, SExpr};

/// An SMT-LIB command the encoder wants sent, in order.
#[derive(Clone, Debug)]
pub enum Command {
    /// `(declare-const name sort)`
    Declare { name: SExpr, sort: Sort },
    /// `(assert term)`
    Assert(SExpr),
}

/// `name` as an SMT-LIB symbol (the solver session's spelling).
pub fn symbol(name: &str) -> String {
    crate::solver::symbol_text(name).into_owned()
}

/// A symbol's name without the bars of a quoted symbol (`|a b|` → `a b`).
pub fn unbarred(name: &str) -> &str {
    name.strip_prefix('|')
        .and_then(|n| n.strip_suffix('|'))
        .unwrap_or(name)
}

/// The SMT sort of an IR type.
pub fn sort(ir: &IrProgram, ty: IrType) -> Sort {
    match ty {
        IrType::Int => Sort::Int,
        IrType::Bool => Sort::Bool,
        IrType::Data(d) => Sort::datatype(ir.datatypes[d].name.clone()),
        IrType::Sort(s) => Sort::datatype(ir.sorts[s].name.clone()),
        IrType::Map(m) => Sort::Array(Box::new(sort(ir, m.key())), Box::new(sort(ir, m.value()))),
    }
}

/// The SMT term of the constant array of `key` sort holding `value` everywhere:
/// `((as const (Array K V)) value)`.
pub fn const_array(
    terms: &Context,
    ir: &IrProgram,
    key: IrType,
    value_ty: IrType,
    value: SExpr,
) -> SExpr {
    let array = sort(ir, IrType::map(key, value_ty));
    let as_const = terms.list(vec![
        terms.atom("as"),
        terms.atom("const"),
        terms.atom(array.text()),
    ]);
    terms.list(vec![as_const, value])
}

/// The declarations of every uninterpreted sort and datatype of the program, to be
/// declared together (datatypes may be mutually recursive and use the sorts).
pub fn datatype_declarations(ir: &IrProgram) -> Vec<DatatypeDecl> {
    let sorts = ir
        .sorts
        .values()
        .map(|s| DatatypeDecl::uninterpreted(s.name.clone()));
    let datatypes = ir.datatypes.values().map(|d| {
        let ctors = d
            .ctors
            .iter()
            .map(|c| {
                CtorDecl::new(
                    c.name.clone(),
                    c.fields.iter().map(|f| (f.name.clone(), sort(ir, f.ty))),
                )
            })
            .collect();
        DatatypeDecl::new(d.name.clone(), ctors)
    });
    sorts.chain(datatypes).collect()
}

/// Whether a value of `ty` may hold a value of an uninterpreted sort (in a map, in a
/// datatype's fields).
pub fn has_sort(ir: &IrProgram, ty: IrType) -> bool {
    fn go(ir: &IrProgram, ty: IrType, seen: &mut Vec<boogie_like::DatatypeId>) -> bool {
        match ty {
            IrType::Sort(_) => true,
            IrType::Map(m) => go(ir, m.key(), seen) || go(ir, m.value(), seen),
            IrType::Int | IrType::Bool => false,
            IrType::Data(d) => {
                if seen.contains(&d) {
                    return false;
                }
                seen.push(d);
                ir.datatypes[d]
                    .ctors
                    .iter()
                    .flat_map(|c| &c.fields)
                    .any(|f| go(ir, f.ty, seen))
            }
        }
    }
    go(ir, ty, &mut Vec::new())
}

/// A concrete IR value of type `ty` as an SMT term, in a session where the program's
/// uninterpreted sorts are declared as such ([`crate::solver::DeclKind::Uninterpreted`]):
/// an opaque integer `n` of sort `T` is `(T!elem n)`, inside maps and datatype values too.
pub fn typed_value_term(terms: &Context, ir: &IrProgram, value: &Value, ty: IrType) -> SExpr {
    match (value, ty) {
        (Value::Int(n), IrType::Sort(s)) => {
            let elem = crate::solver::elem_function(&ir.sorts[s].name);
            terms.list(vec![terms.atom(symbol(&elem)), int_literal(terms, n)])
        }
        (Value::Map(m), IrType::Map(t)) if has_sort(ir, ty) => {
            let default = typed_value_term(terms, ir, &m.default, t.value());
            let base = const_array(terms, ir, t.key(), t.value(), default);
            m.entries.iter().fold(base, |array, (k, v)| {
                let k = typed_value_term(terms, ir, &k.value(), t.key());
                let v = typed_value_term(terms, ir, v, t.value());
                terms.list(vec![terms.atom("store"), array, k, v])
            })
        }
        (Value::Data { ctor, fields }, IrType::Data(_)) if !fields.is_empty() => {
            let decl = ir.ctor(*ctor).expect("internal error: ctor");
            let mut items = vec![terms.atom(symbol(&decl.name))];
            items.extend(
                fields
                    .iter()
                    .zip(&decl.fields)
                    .map(|(v, f)| typed_value_term(terms, ir, v, f.ty)),
            );
            terms.list(items)
        }
        _ => value_term(terms, ir, value),
    }
}

/// A concrete IR value as an SMT term.
pub fn value_term(terms: &Context, ir: &IrProgram, value: &Value) -> SExpr {
    match value {
        Value::Int(i) => int_literal(terms, i),
        Value::Bool(true) => terms.true_(),
        Value::Bool(false) => terms.false_(),
        Value::Data { ctor, fields } => {
            let name = terms.atom(symbol(&ir.ctor(*ctor).expect("internal error: ctor").name));
            if fields.is_empty() {
                return name;
            }
            let mut items = vec![name];
            items.extend(fields.iter().map(|f| value_term(terms, ir, f)));
            terms.list(items)
        }
        Value::Map(m) => {
            let default = value_term(terms, ir, &m.default);
            let value_ty = value_type(&m.default);
            let base = const_array(terms, ir, m.key, value_ty, default);
            m.entries.iter().fold(base, |array, (k, v)| {
                let (k, v) = (value_term(terms, ir, &k.value()), value_term(terms, ir, v));
                terms.list(vec![terms.atom("store"), array, k, v])
            })
        }
    }
}

/// The IR type of a concrete value.
fn value_type(value: &Value) -> IrType {
    match value {
        Value::Int(_) => IrType::Int,
        Value::Bool(_) => IrType::Bool,
        Value::Data { ctor, .. } => IrType::Data(ctor.datatype),
        Value::Map(m) => IrType::map(m.key, value_type(&m.default)),
    }
}

/// The SMT-LIB integer literal for `i` (`(- n)` for a negative one).
pub fn int_literal(t: &Context, i: &num_bigint::BigInt) -> SExpr {
    if i.sign() == num_bigint::Sign::Minus {
        t.negate(t.atom((-i).to_string()))
    } else {
        t.atom(i.to_string())
    }
}
