//! Variants in the core (docs/ocaml.md, "Variants"): a value of a variant type whose
//! constructors carry no argument is its constructor's index (an `Int`); otherwise it is
//! the pair `(tag, (slot1, (slot2, ..)))` of its constructor's index and one slot per
//! constructor that carries an argument, in definition order: the constructor's own slot
//! holds its argument, every other slot a placeholder of its type that is never read (as
//! the start-up values' placeholders). A `match` tests the tag and reads the slot; `=` and
//! `<>` compare tags, then the slot of the common constructor.
//!
//! A recursive variant (one that contains itself: `type tree = Leaf | Node of tree * int *
//! tree`) has no such finite layout: each ground instance is a datatype of the core
//! ([`core::DataDecl`], `tree`, `tree#2`), one constructor per OCaml constructor with its
//! argument as its one field; a pattern tests the constructor (`IsCtor`) and reads the
//! field (`Field`); `=` is only against a constant constructor (`t = Leaf`, a test).
//!
//! Guarantees: the encoding is exact (no over- or under-approximation): a value is built
//! only by its constructor, a pattern `C p` matches exactly the values built by `C` whose
//! argument matches `p`, and a placeholder is never read by a test, a binding or an
//! equality; building a value costs no depth (a placeholder function is a method whose
//! body is `fail`, never called). A recursive variant's constructors may hold
//! references (and so records with `mutable` fields and arrays: an address is an
//! integer to every analysis, and the heap maps are per content type) and functions
//! (closures: the points-to analysis joins each constructor field into one node).

use super::paths::{Step, arg_path, extend, tag_path, tuple_path};
use super::*;
use crate::core_lang::ast as core;
use crate::frontend::ocaml::infer::Variant;

/// What the core types of OCaml types are made from: the variant definitions and the
/// core datatypes made so far for the recursive ones.
pub(super) struct TypeCx<'a> {
    pub variants: &'a [Variant],
    pub data: &'a RefCell<DataRegistry>,
}

/// The core datatypes of the recursive variants, one per ground instance (`tree`,
/// `tree#2` for a second instance of a parameterised one).
#[derive(Debug, Default)]
pub(super) struct DataRegistry {
    pub decls: Vec<core::DataDecl>,
    instances: Vec<(Instance, Rc<str>)>,
    /// The datatype of exception values (`exn`), once a type needs it: one constructor per
    /// exception of the program, `ExnId` order, its one field the exception's core argument.
    exn: Option<Rc<str>>,
    /// Its constructors, once every exception is declared.
    exn_ctors: Vec<core::CtorDecl>,
}

impl DataRegistry {
    /// Fixes the constructors of the `exn` datatype: one per exception in `exceptions`,
    /// named after it. Exceptions may share a name (two `let exception E in`, a local one
    /// shadowing a top-level one), the constructors of a datatype may not: the second `E`
    /// is `E#2`, and so on.
    pub fn set_exceptions(&mut self, exceptions: &[core::ExnDecl]) {
        let mut ctors: Vec<core::CtorDecl> = Vec::new();
        for x in exceptions {
            let mut name = x.name.clone();
            let mut k = 1;
            while ctors.iter().any(|c| c.name == name) {
                k += 1;
                name = format!("{}#{k}", x.name).into();
            }
            ctors.push(core::CtorDecl {
                name,
                fields: x.arg.iter().cloned().collect(),
            });
        }
        self.exn_ctors = ctors;
        let ctors = self.exn_ctors.clone();
        if let Some(decl) = self
            .decls
            .iter_mut()
            .find(|d| Some(&d.name) == self.exn.as_ref())
        {
            decl.ctors = ctors;
        }
    }

    /// The name of the `exn` datatype, declared if new (not yet a name of another).
    fn exn_name(&mut self) -> Rc<str> {
        if let Some(name) = &self.exn {
            return name.clone();
        }
        let mut name = "exn".to_string();
        let mut k = 1;
        while self.decls.iter().any(|d| *d.name == *name) {
            k += 1;
            name = format!("exn#{k}");
        }
        let name: Rc<str> = name.into();
        self.decls.push(core::DataDecl {
            name: name.clone(),
            ctors: self.exn_ctors.clone(),
        });
        self.exn = Some(name.clone());
        name
    }
}

/// The core type of OCaml's `exn`: the datatype of exception values (see [`DataRegistry`]).
pub(super) fn exn_datatype(cx: &TypeCx) -> core::Type {
    core::Type::Data(cx.data.borrow_mut().exn_name())
}

/// A ground instance of a variant: its index and its type arguments.
type Instance = (usize, Vec<Ty>);

/// The core datatype of the recursive variant `v` at the ground type arguments `args`:
/// constructor `C of t` has the one field `t` (a tuple as nested pairs), `C` none. Its
/// fields may hold anything, functions too: the points-to analysis of the lowering joins
/// each field of each constructor into one node (`src/lower/points_to.rs`).
pub(super) fn datatype_of(cx: &TypeCx, v: usize, args: &[Ty], span: Span) -> R<core::Type> {
    let key = (v, args.to_vec());
    if let Some((_, name)) = cx.data.borrow().instances.iter().find(|(k, _)| *k == key) {
        return Ok(core::Type::Data(name.clone()));
    }
    let variant = &cx.variants[v];
    let name: Rc<str> = {
        let mut registry = cx.data.borrow_mut();
        let taken = |n: &str| registry.decls.iter().any(|d| &*d.name == n);
        let mut name = variant.name.to_string();
        let mut k = 1;
        while taken(&name) {
            k += 1;
            name = format!("{}#{k}", variant.name);
        }
        let name: Rc<str> = name.into();
        registry.decls.push(core::DataDecl {
            name: name.clone(),
            ctors: Vec::new(),
        });
        registry.instances.push((key, name.clone()));
        name
    };
    let mut ctors = Vec::new();
    for (c, (ctor_name, _)) in variant.ctors.iter().enumerate() {
        let fields = match variant.arg_type(c, args) {
            Some(arg) => {
                let field = core_type(cx, &arg, span)?;
                vec![field]
            }
            None => Vec::new(),
        };
        ctors.push(core::CtorDecl {
            name: ctor_name.clone(),
            fields,
        });
    }
    let mut registry = cx.data.borrow_mut();
    if let Some(decl) = registry.decls.iter_mut().find(|d| d.name == name) {
        decl.ctors = ctors;
    }
    Ok(core::Type::Data(name))
}

/// The core type of a variant with the slot types `slots` (see the module doc).
pub(super) fn layout(slots: Vec<core::Type>) -> core::Type {
    match slots.is_empty() {
        true => core::Type::Int,
        false => core::Type::pair(core::Type::Int, nest_pair_types(slots)),
    }
}

impl Translator<'_> {
    /// `C` or `C e` of a variant type.
    pub(super) fn variant_value(
        &mut self,
        e: &Expr,
        (v, c): (usize, usize),
        arg: Option<&Expr>,
    ) -> R<core::Expr> {
        let span = e.span;
        let variant = self.typing.variants[v].clone();
        if variant.recursive {
            let core::Type::Data(data) = self.expr_type(e)? else {
                return Err(internal(span, "a recursive variant that is not a datatype"));
            };
            let args = match arg {
                Some(arg) => vec![self.expr(arg)?],
                None => Vec::new(),
            };
            let ctor = c as u32;
            return Ok(self.mk(span, core::ExprKind::Construct { data, ctor, args }));
        }
        let tag = self.int(c as i64, span);
        if variant.carrying() == 0 {
            return Ok(tag);
        }
        let Ty::Data(_, _, args) = self.ground(&self.typing.expr_types[e.id.0 as usize]) else {
            return Err(internal(span, "a constructor without its variant type"));
        };
        let mut value = match arg {
            Some(arg) => Some(self.expr(arg)?),
            None => None,
        };
        let mut parts = Vec::new();
        for k in 0..variant.ctors.len() {
            let Some(arg_ty) = variant.arg_type(k, &args) else {
                continue;
            };
            let part = match (k == c, value.take()) {
                (true, Some(v)) => v,
                (true, None) => return Err(internal(span, "a constructor without its argument")),
                (false, v) => {
                    value = v;
                    let ty = self.core_type(&arg_ty, span)?;
                    self.placeholder("variant", &ty, span)?
                }
            };
            parts.push(part);
        }
        let payload = self.nest_pairs(parts, span);
        Ok(self.mk(span, core::ExprKind::Pair(Box::new(tag), Box::new(payload))))
    }

    /// The test that the value at `path` of `name` is built by constructor `(v, c)` and its
    /// argument matches `arg`.
    pub(super) fn variant_test(
        &mut self,
        (v, c): (usize, usize),
        arg: Option<&Pattern>,
        name: &Rc<str>,
        path: &[Step],
        span: Span,
    ) -> R<Option<core::Expr>> {
        let variant = self.typing.variants[v].clone();
        let is_c = match variant.recursive {
            true => {
                let value = Box::new(self.access(name, path, span));
                self.mk(
                    span,
                    core::ExprKind::IsCtor {
                        ctor: c as u32,
                        value,
                    },
                )
            }
            false => {
                let tag = self.access(name, &tag_path(&variant, path), span);
                let index = self.int(c as i64, span);
                self.binary(core::BinOp::Eq, tag, index, span)
            }
        };
        let inner = match arg {
            Some(arg) => self.test(arg, name, &arg_path(&variant, c, path))?,
            None => None,
        };
        Ok(self.conjoin(vec![Some(is_c), inner], span))
    }

    /// `a = b` (or with `!equal`, `a <> b`) on a type other than `int` and `bool`: OCaml's
    /// structural equality on tuples, records, variants and references (their contents),
    /// evaluating `a`, then `b`, once each. Anything holding a list or a function is
    /// refused by name.
    pub(super) fn structural_equality(
        &mut self,
        e: &Expr,
        equal: bool,
        a: &Expr,
        b: &Expr,
    ) -> R<core::Expr> {
        let span = e.span;
        let ty = self.ground(&self.typing.expr_types[a.id.0 as usize]);
        if let Some(test) = self.is_constant_ctor(equal, a, b, span)? {
            return Ok(test);
        }
        let core_ty = self.core_type(&ty, span)?;
        let (x, y) = (self.temp("l"), self.temp("r"));
        let test = self.equal_at(&ty, &x, &y, &[], a.span)?;
        let mut result = match equal {
            true => test,
            false => {
                let zero = self.int(0, span);
                self.binary(core::BinOp::Eq, test, zero, span)
            }
        };
        let (va, vb) = (self.expr(a)?, self.expr(b)?);
        let bx = self.binder(y, span, core_ty.clone());
        result = self.let_in(bx, vb, result, span);
        let by = self.binder(x, span, core_ty);
        Ok(self.let_in(by, va, result, span))
    }

    /// `x = C` (or `C = x`, or with `!equal`, `<>`) for a constant constructor `C` of a
    /// recursive variant: the test that `x` is built by `C` (the other side is not needed).
    fn is_constant_ctor(
        &mut self,
        equal: bool,
        a: &Expr,
        b: &Expr,
        span: Span,
    ) -> R<Option<core::Expr>> {
        let constant = |e: &Expr| match &e.kind {
            ExprKind::Construct(_, None) => self.typing.ctor_of_expr.get(&e.id).copied(),
            _ => None,
        };
        let (other, (v, c)) = match (constant(a), constant(b)) {
            (_, Some(ctor)) => (a, ctor),
            (Some(ctor), None) => (b, ctor),
            (None, None) => return Ok(None),
        };
        if !self.typing.variants[v].recursive {
            return Ok(None);
        }
        let value = Box::new(self.expr(other)?);
        let test = self.mk(
            span,
            core::ExprKind::IsCtor {
                ctor: c as u32,
                value,
            },
        );
        Ok(Some(match equal {
            true => test,
            false => {
                let zero = self.int(0, span);
                self.binary(core::BinOp::Eq, test, zero, span)
            }
        }))
    }

    /// Whether the parts at `path` of `x` and `y`, of type `ty`, are structurally equal.
    pub(super) fn equal_at(
        &mut self,
        ty: &Ty,
        x: &Rc<str>,
        y: &Rc<str>,
        path: &[Step],
        span: Span,
    ) -> R<core::Expr> {
        Ok(match ty {
            Ty::Int | Ty::Bool => {
                let (a, b) = (self.access(x, path, span), self.access(y, path, span));
                self.binary(core::BinOp::Eq, a, b, span)
            }
            Ty::Unit => self.int(1, span),
            Ty::Ref(content) => self.equal_at(content, x, y, &extend(path, Step::Load), span)?,
            Ty::Tuple(ts) => {
                let mut tests = Vec::new();
                for (i, t) in ts.iter().enumerate() {
                    let p = tuple_path(path, i, ts.len());
                    tests.push(Some(self.equal_at(t, x, y, &p, span)?));
                }
                self.conjoin(tests, span)
                    .unwrap_or_else(|| self.int(1, span))
            }
            Ty::Data(v, ..) if self.typing.variants[*v].recursive => {
                self.recursive_equal(ty, x, y, path, span)?
            }
            Ty::List(_) => self.recursive_equal(ty, x, y, path, span)?,
            Ty::Data(v, _, args) => {
                let variant = self.typing.variants[*v].clone();
                let tag = tag_path(&variant, path);
                let (a, b) = (self.access(x, &tag, span), self.access(y, &tag, span));
                let same_tag = self.binary(core::BinOp::Eq, a, b, span);
                // The tags are equal: compare the argument of that constructor.
                let mut args_equal = self.int(1, span);
                for c in (0..variant.ctors.len()).rev() {
                    let Some(arg_ty) = variant.arg_type(c, args) else {
                        continue;
                    };
                    let here = self.equal_at(&arg_ty, x, y, &arg_path(&variant, c, path), span)?;
                    let tag = self.access(x, &tag_path(&variant, path), span);
                    let index = self.int(c as i64, span);
                    let is_c = self.binary(core::BinOp::Eq, tag, index, span);
                    args_equal = self.if_then_else(is_c, here, args_equal, span);
                }
                let zero = self.int(0, span);
                self.if_then_else(same_tag, args_equal, zero, span)
            }
            other => {
                return Err(unsupported(
                    span,
                    &format!(
                        "comparing values of type `{other}` with `=` or `<>` (structural equality is supported on `int`, `bool`, `unit`, tuples, records, variants, lists and references of those)"
                    ),
                ));
            }
        })
    }
}
