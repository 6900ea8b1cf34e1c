//! Variant types in inference (docs/ocaml.md, "Variants"): `type ('a, ..) t = A | B of
//! t1 * t2 | ... and u = ...`, and the prelude's `'a option` and `('a, 'b) result`. A
//! variant type is nominal (`Ty::Data`): its constructors build it and its patterns take
//! it apart; a constructor's argument type is the definition's with the parameters
//! replaced by fresh variables at each use.
//!
//! Guarantees: every constructor expression and pattern of a variant type is recorded with
//! its definition and constructor ([`super::Typing::ctor_of_expr`],
//! [`super::Typing::ctor_of_pattern`]); a constructor's name means the last definition
//! of it (a later `exception` of the same name hides it), as in OCaml; a type parameter
//! not declared by its definition is an error.

use super::super::ast::*;
use super::super::types::{Ty, substitute};
use super::{Inferer, R};
use crate::diagnostics::Diagnostic;
use crate::span::Span;
use std::rc::Rc;

/// The parameters of a type definition: each name and the variable standing for it.
pub(super) type TypeParams = Vec<(Rc<str>, u32)>;

/// A variant type definition.
#[derive(Clone, Debug)]
pub struct Variant {
    pub name: Rc<str>,
    /// The type variables standing for the parameters in `ctors` (never unified).
    pub params: Vec<u32>,
    /// The constructors in definition order, with the argument type of each that has one.
    pub ctors: Vec<(Rc<str>, Option<Ty>)>,
    /// Whether it contains itself (through its own or other variants' constructors): such
    /// a variant is a datatype of the core, the others are tagged tuples.
    pub recursive: bool,
}

impl Variant {
    /// Constructor `c`'s argument type at the type arguments `args`.
    pub fn arg_type(&self, c: usize, args: &[Ty]) -> Option<Ty> {
        let (_, arg) = &self.ctors[c];
        arg.as_ref().map(|t| substitute(t, &self.params, args))
    }

    /// How many constructors carry an argument.
    pub fn carrying(&self) -> usize {
        self.ctors.iter().filter(|(_, a)| a.is_some()).count()
    }

    /// The position of constructor `c` among the constructors that carry an argument.
    pub fn slot(&self, c: usize) -> usize {
        self.ctors[..c].iter().filter(|(_, a)| a.is_some()).count()
    }
}

/// The prelude's variants: `'a option` (index 0) and `('a, 'b) result` (index 1).
pub(super) fn predefined(inf: &mut Inferer) {
    let a = inf.typing.subst.fresh(0);
    let b = inf.typing.subst.fresh(0);
    let var = |t: &Ty| match t {
        Ty::Var(v) => *v,
        _ => unreachable!("fresh gives a variable"),
    };
    let (va, vb) = (var(&a), var(&b));
    inf.add_variant(Variant {
        name: "option".into(),
        params: vec![va],
        ctors: vec![("None".into(), None), ("Some".into(), Some(a.clone()))],
        recursive: false,
    });
    inf.add_variant(Variant {
        name: "result".into(),
        params: vec![va, vb],
        ctors: vec![("Ok".into(), Some(a)), ("Error".into(), Some(b))],
        recursive: false,
    });
}

/// Whether the constructors of variant `from` mention `target`, directly or through the
/// variants they mention.
fn reaches(variants: &[Variant], from: usize, target: usize) -> bool {
    let mut seen = vec![from];
    let mut todo = vec![from];
    while let Some(v) = todo.pop() {
        let mut mentioned = Vec::new();
        for (_, arg) in &variants[v].ctors {
            if let Some(t) = arg {
                mentions(t, &mut mentioned);
            }
        }
        for w in mentioned {
            if w == target {
                return true;
            }
            if !seen.contains(&w) {
                seen.push(w);
                todo.push(w);
            }
        }
    }
    false
}

/// The variants `t` mentions (with their type arguments).
fn mentions(t: &Ty, out: &mut Vec<usize>) {
    match t {
        Ty::Data(id, _, args) => {
            out.push(*id);
            args.iter().for_each(|a| mentions(a, out));
        }
        Ty::List(a) | Ty::Ref(a) | Ty::Array(a) => mentions(a, out),
        Ty::Tuple(ts) => ts.iter().for_each(|a| mentions(a, out)),
        Ty::Fun(ps, r) => {
            ps.iter().for_each(|a| mentions(a, out));
            mentions(r, out)
        }
        _ => {}
    }
}

impl Inferer {
    fn add_variant(&mut self, variant: Variant) {
        let index = self.typing.variants.len();
        for (c, (name, _)) in variant.ctors.iter().enumerate() {
            self.constructors.insert(name.clone(), (index, c));
        }
        self.typing.variants.push(variant);
    }

    /// A group of type definitions (`type a = .. and b = { .. } and ..`): the variants'
    /// names first, so that every definition may refer to them, then the records (each
    /// after the records of the group it mentions), then the variants' constructors.
    pub(super) fn type_group(&mut self, group: &TypeGroup) -> R<()> {
        let first = self.typing.variants.len();
        let params = self.declare_variants(&group.variants)?;
        for k in super::records::record_order(&group.records)? {
            self.record_decl(&group.records[k])?;
        }
        for (k, decl) in group.variants.iter().enumerate() {
            self.define_variant(first + k, decl, &params[k])?;
        }
        for index in first..self.typing.variants.len() {
            self.typing.variants[index].recursive = reaches(&self.typing.variants, index, index);
        }
        Ok(())
    }

    /// Each variant of a group without its constructors, and its parameters' variables.
    fn declare_variants(&mut self, decls: &[VariantDecl]) -> R<Vec<TypeParams>> {
        let mut all_params = Vec::new();
        for decl in decls {
            let params = self.type_params(&decl.params)?;
            self.typing.variants.push(Variant {
                name: decl.name.text.clone(),
                params: params.iter().map(|(_, v)| *v).collect(),
                ctors: Vec::new(),
                recursive: false,
            });
            all_params.push(params);
        }
        Ok(all_params)
    }

    /// A fresh variable for each parameter of a type definition (`'a`, each named once).
    pub(super) fn type_params(&mut self, names: &[Name]) -> R<TypeParams> {
        let mut params: TypeParams = Vec::new();
        for p in names {
            if params.iter().any(|(n, _)| *n == p.text) {
                return Err(Diagnostic::error(
                    p.span,
                    format!("the type parameter `'{}` is declared twice", p.text),
                    "declared again",
                ));
            }
            let Ty::Var(v) = self.typing.subst.fresh(0) else {
                unreachable!("fresh gives a variable")
            };
            params.push((p.text.clone(), v));
        }
        Ok(params)
    }

    /// Reads the type expressions of a definition with `params` as its only type
    /// variables (another is an error).
    pub(super) fn in_definition<T>(
        &mut self,
        params: &[(Rc<str>, u32)],
        read: impl FnOnce(&mut Self) -> R<T>,
    ) -> R<T> {
        self.annot_vars.clear();
        for (name, v) in params {
            self.annot_vars.insert(name.clone(), Ty::Var(*v));
        }
        self.closed_annotations = true;
        let result = read(self);
        self.closed_annotations = false;
        self.annot_vars.clear();
        result
    }

    /// The constructors of the variant `index` declared by `declare_variants`.
    fn define_variant(
        &mut self,
        index: usize,
        decl: &VariantDecl,
        params: &[(Rc<str>, u32)],
    ) -> R<()> {
        let ctors = self.in_definition(params, |inf| {
            let mut ctors: Vec<(Rc<str>, Option<Ty>)> = Vec::new();
            for ctor in &decl.ctors {
                if ctors.iter().any(|(n, _)| *n == ctor.name.text) {
                    return Err(Diagnostic::error(
                        ctor.name.span,
                        format!("the constructor `{}` is defined twice", ctor.name.text),
                        "defined again",
                    ));
                }
                let arg = match &ctor.arg {
                    Some(te) => Some(inf.annot_type(te)?),
                    None => None,
                };
                ctors.push((ctor.name.text.clone(), arg));
            }
            Ok(ctors)
        })?;
        for (c, (name, _)) in ctors.iter().enumerate() {
            self.constructors.insert(name.clone(), (index, c));
            self.typing.exceptions.remove(name);
        }
        self.typing.variants[index].ctors = ctors;
        Ok(())
    }

    /// The last variant type named `name`.
    pub(super) fn variant_named(&self, name: &str) -> Option<usize> {
        self.typing.variants.iter().rposition(|v| *v.name == *name)
    }

    /// The type `name args` of the variant `index`, checking the number of arguments.
    pub(super) fn variant_type(&self, index: usize, args: Vec<Ty>, span: Span) -> R<Ty> {
        let variant = &self.typing.variants[index];
        if variant.params.len() != args.len() {
            return Err(Diagnostic::error(
                span,
                format!(
                    "the type `{}` takes {} argument(s)",
                    variant.name,
                    variant.params.len()
                ),
                "wrong number of type arguments",
            ));
        }
        Ok(Ty::Data(index, variant.name.clone(), args))
    }

    /// The variant constructor `name`, if it is one (and not hidden by an exception).
    pub(super) fn variant_ctor(&self, name: &Name) -> Option<(usize, usize)> {
        self.constructors.get(&name.text).copied()
    }

    /// A fresh instance of the variant of constructor `(v, c)`: the variant type and the
    /// constructor's argument type.
    fn ctor_instance(&mut self, (v, c): (usize, usize)) -> (Ty, Option<Ty>) {
        let variant = self.typing.variants[v].clone();
        let args: Vec<Ty> = variant.params.iter().map(|_| self.fresh()).collect();
        let arg = variant.arg_type(c, &args);
        (Ty::Data(v, variant.name.clone(), args), arg)
    }

    /// `C` or `C e` of a variant type.
    pub(super) fn variant_construct(
        &mut self,
        e: &Expr,
        ctor: (usize, usize),
        name: &Name,
        arg: Option<&Expr>,
    ) -> R<Ty> {
        let (ty, declared) = self.ctor_instance(ctor);
        self.typing.ctor_of_expr.insert(e.id, ctor);
        match (declared, arg) {
            (None, None) => Ok(ty),
            (Some(t), Some(arg)) => {
                self.check(arg, &t)?;
                Ok(ty)
            }
            (Some(t), None) => Err(Diagnostic::error(
                e.span,
                format!(
                    "the constructor `{}` takes an argument of type `{}`",
                    name.text,
                    self.typing.subst.resolve(&t)
                ),
                "expected an argument",
            )),
            (None, Some(_)) => Err(Diagnostic::error(
                e.span,
                format!("the constructor `{}` takes no argument", name.text),
                "remove the argument",
            )),
        }
    }

    /// The pattern `C` or `C p` of a variant type, against `t`.
    pub(super) fn variant_pattern(
        &mut self,
        p: &Pattern,
        ctor: (usize, usize),
        name: &Name,
        arg: Option<&Pattern>,
        t: &Ty,
        bound: &mut Vec<(Rc<str>, super::VarId)>,
    ) -> R<()> {
        let (ty, declared) = self.ctor_instance(ctor);
        self.expect_pat(p, &ty, t)?;
        self.typing
            .ctor_of_pattern
            .insert((p.span, name.text.clone()), ctor);
        match (declared, arg) {
            (None, None) => Ok(()),
            (Some(arg_ty), Some(arg)) => self.pattern(arg, &arg_ty, bound),
            // `C _` for a constructor with an argument is `C` with any argument.
            (Some(_), None) => Err(Diagnostic::error(
                p.span,
                format!("the constructor `{}` carries an argument", name.text),
                "expected a pattern for its argument (`_` for any)",
            )),
            (None, Some(_)) => Err(Diagnostic::error(
                p.span,
                format!("the constructor `{}` carries no argument", name.text),
                "remove the argument pattern",
            )),
        }
    }
}
