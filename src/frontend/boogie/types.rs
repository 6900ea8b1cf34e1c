//! Type declarations: `type T;` (uninterpreted), `type T = U;` (synonyms) and `datatype
//! T { … }`, resolved in every binding of the program before translation.
//!
//! Guarantees: after [`resolve`], every [`Ty::Named`] left in the program names a declared
//! uninterpreted type (synonyms are replaced by what they stand for, cycles are an error),
//! a datatype's name is [`Ty::Data`] with its position, and no map is indexed by a map. An uninterpreted type is the IR's `int` (see
//! [`super::expr::ir_type`]); the type checker lets its values only be compared for
//! equality, and for such quantifier-free uses the two agree: a run over any domain maps
//! one to one into the integers and back (docs/boogie.md).

use super::ast::{Binding, Ident, MapTy, Program, Ty, TyName};
use super::unsupported;
use crate::diagnostics::Diagnostic;
use std::collections::HashMap;

/// How many synonyms may stand behind one another (deeper is a cycle).
const MAX_SYNONYMS: usize = 64;

/// Replaces synonyms in every binding; an undefined type name is an error at its binding.
pub fn resolve(program: &mut Program) -> Result<(), Diagnostic> {
    let mut decls: HashMap<&str, Option<Ty>> = HashMap::new();
    for t in &program.types {
        if decls.insert(&t.name.name, t.synonym).is_some() {
            return Err(Diagnostic::error(
                t.name.span,
                format!("the type `{}` is declared twice", t.name.name),
                "declared again here",
            ));
        }
    }
    let datatypes: Vec<Ident> = program.datatypes.iter().map(|d| d.name.clone()).collect();
    for (index, name) in datatypes.iter().enumerate() {
        let ty = Ty::Data(TyName::new(&name.name), index as u32);
        if decls.insert(&name.name, Some(ty)).is_some() {
            return Err(Diagnostic::error(
                name.span,
                format!("the type `{}` is declared twice", name.name),
                "declared again here",
            ));
        }
    }
    let resolver = Resolver { decls };
    for t in &program.types {
        if let Some(ty) = t.synonym {
            resolver.ty(ty, &t.name, 0)?;
        }
    }
    let resolver = &resolver;
    let mut bindings: Vec<&mut Binding> = Vec::new();
    bindings.extend(program.globals.iter_mut());
    bindings.extend(program.consts.iter_mut().map(|c| &mut c.binding));
    for d in &mut program.datatypes {
        bindings.extend(d.ctors.iter_mut().flat_map(|c| c.fields.iter_mut()));
    }
    for p in &mut program.procs {
        bindings.extend(p.ins.iter_mut().chain(p.outs.iter_mut()));
        if let Some(body) = &mut p.body {
            bindings.extend(body.locals.iter_mut());
        }
    }
    for i in &mut program.impls {
        bindings.extend(i.ins.iter_mut().chain(i.outs.iter_mut()));
        bindings.extend(i.body.locals.iter_mut());
    }
    for b in bindings {
        b.ty = resolver.ty(b.ty, &b.name, 0)?;
    }
    for f in &mut program.functions {
        for p in &mut f.params {
            p.ty = resolver.ty(p.ty, &p.name, 0)?;
        }
        f.result = resolver.ty(f.result, &f.name, 0)?;
    }
    Ok(())
}

struct Resolver<'p> {
    decls: HashMap<&'p str, Option<Ty>>,
}

impl Resolver<'_> {
    /// `ty` with synonyms replaced; errors point at `at` (the binding using the type).
    fn ty(&self, ty: Ty, at: &Ident, depth: usize) -> Result<Ty, Diagnostic> {
        if depth > MAX_SYNONYMS {
            return Err(Diagnostic::error(
                at.span,
                "the type synonyms used here form a cycle",
                "a cyclic type synonym",
            ));
        }
        match ty {
            Ty::Int | Ty::Bool | Ty::Data(..) => Ok(ty),
            Ty::Map(m) => {
                let key = self.ty(m.key(), at, depth + 1)?;
                if let Ty::Map(_) = key {
                    return Err(unsupported(at.span, "maps indexed by maps"));
                }
                let value = self.ty(m.value(), at, depth + 1)?;
                Ok(Ty::Map(MapTy::new(key, value)))
            }
            Ty::Named(n) => match self.decls.get(n.as_str()) {
                Some(Some(synonym)) => self.ty(*synonym, at, depth + 1),
                Some(None) => Ok(ty),
                None => Err(Diagnostic::error(
                    at.span,
                    format!("undefined type `{}`", n.as_str()),
                    "the type of this is not declared",
                )),
            },
        }
    }
}
