//! Records in inference (docs/ocaml.md, "Records"): a record type is the tuple of its
//! fields in definition order (a one-field record is its field), a `mutable` field a cell
//! (`Ref`) in it, so a record is a tuple to the translation and a mutable field aliases as
//! a reference does. A field name refers to the last record type defined with it, as in
//! OCaml. A record type with parameters (`type 'a stack = { mutable items : 'a list }`)
//! has its fields' types over the parameters' variables, replaced by fresh ones at each
//! use, as a variant's constructors are; records of one `type .. and ..` group are
//! defined each after the records of the group its fields mention (a record that
//! contains itself, directly or through a type argument such as `option`, is an error:
//! its tuple would be infinite).
//!
//! Guarantees: a record expression gives every field of one record type exactly once (or,
//! with `with`, fields of the base's type); `e.f <- v` only on a `mutable` field; each
//! record expression, access and update has its record type in
//! [`super::Typing::record_of`].

use super::super::ast::*;
use super::super::types::{Ty, substitute};
use super::{Inferer, R};
use crate::diagnostics::Diagnostic;
use crate::span::Span;
use std::rc::Rc;

/// A record type: its name, its fields (name, `mutable`, type) and its representation.
#[derive(Clone, Debug)]
pub struct Record {
    pub name: Rc<str>,
    /// The type variables standing for the parameters in `fields` and `ty` (never unified).
    pub params: Vec<u32>,
    pub fields: Vec<(Rc<str>, bool, Ty)>,
    /// The tuple of the fields (mutable ones as `Ref`), or the only field's.
    pub ty: Ty,
}

impl Record {
    pub fn index_of(&self, field: &str) -> Option<usize> {
        self.fields.iter().position(|(n, ..)| **n == *field)
    }

    /// The record at the type arguments `args` (one per parameter).
    fn at(&self, args: &[Ty]) -> Record {
        let fields = self.fields.iter();
        Record {
            name: self.name.clone(),
            params: Vec::new(),
            fields: fields
                .map(|(n, m, t)| (n.clone(), *m, substitute(t, &self.params, args)))
                .collect(),
            ty: substitute(&self.ty, &self.params, args),
        }
    }
}

/// The order in which to define the records of a group: each after the records of the
/// group its fields name; a cycle among them is an error.
pub(super) fn record_order(records: &[RecordDecl]) -> R<Vec<usize>> {
    let mut order: Vec<usize> = Vec::new();
    while order.len() < records.len() {
        let pending: Vec<&str> = (0..records.len())
            .filter(|k| !order.contains(k))
            .map(|k| &*records[k].name.text)
            .collect();
        let ready = (0..records.len()).find(|k| {
            !order.contains(k)
                && !records[*k]
                    .fields
                    .iter()
                    .any(|f| names_any(&f.ty, &pending))
        });
        match ready {
            Some(k) => order.push(k),
            None => {
                let k = (0..records.len()).find(|k| !order.contains(k));
                let name = &records[k.unwrap_or_default()].name;
                return Err(Diagnostic::error(
                    name.span,
                    format!(
                        "the record type `{}` contains itself (a record is the tuple of its fields, which would be infinite: write the recursion through a variant of the program's own)",
                        name.text
                    ),
                    "a recursive record",
                ));
            }
        }
    }
    Ok(order)
}

/// Whether the type expression names one of `names`.
fn names_any(te: &TypeExpr, names: &[&str]) -> bool {
    match te {
        TypeExpr::Var(..) => false,
        TypeExpr::Named(n, args, _) => {
            names.contains(&&**n) || args.iter().any(|a| names_any(a, names))
        }
        TypeExpr::Arrow(a, b) => names_any(a, names) || names_any(b, names),
        TypeExpr::Tuple(items) => items.iter().any(|a| names_any(a, names)),
    }
}

impl Inferer {
    pub(super) fn record_decl(&mut self, decl: &RecordDecl) -> R<()> {
        let params = self.type_params(&decl.params)?;
        let fields = self.in_definition(&params, |inf| {
            let mut fields: Vec<(Rc<str>, bool, Ty)> = Vec::new();
            for f in &decl.fields {
                if fields.iter().any(|(n, ..)| *n == f.name.text) {
                    return Err(Diagnostic::error(
                        f.name.span,
                        format!("the field `{}` is defined twice", f.name.text),
                        "defined again",
                    ));
                }
                let ty = inf.annot_type(&f.ty)?;
                fields.push((f.name.text.clone(), f.mutable, ty));
            }
            Ok(fields)
        })?;
        let mut parts: Vec<Ty> = fields
            .iter()
            .map(|(_, m, t)| match m {
                true => Ty::Ref(Box::new(t.clone())),
                false => t.clone(),
            })
            .collect();
        let ty = match parts.len() {
            1 => parts.remove(0),
            _ => Ty::Tuple(parts),
        };
        self.typing.records.push(Record {
            name: decl.name.text.clone(),
            params: params.iter().map(|(_, v)| *v).collect(),
            fields,
            ty,
        });
        Ok(())
    }

    /// The last record type named `name`.
    pub(super) fn record_named(&self, name: &str) -> Option<usize> {
        self.typing.records.iter().rposition(|r| *r.name == *name)
    }

    /// A fresh instance of the record type `index` (its parameters fresh variables).
    fn record_instance(&mut self, index: usize) -> Record {
        let record = &self.typing.records[index];
        let n = record.params.len();
        let args: Vec<Ty> = (0..n).map(|_| self.fresh()).collect();
        self.typing.records[index].at(&args)
    }

    /// The type `args name` of the record type `index`, checking the number of arguments.
    pub(super) fn record_type_at(&self, index: usize, args: &[Ty], span: Span) -> R<Ty> {
        let record = &self.typing.records[index];
        if record.params.len() != args.len() {
            return Err(Diagnostic::error(
                span,
                format!(
                    "the type `{}` takes {} argument(s)",
                    record.name,
                    record.params.len()
                ),
                "wrong number of type arguments",
            ));
        }
        Ok(record.at(args).ty)
    }

    /// The last record type with the field `field`.
    fn record_with(&self, field: &Name) -> R<usize> {
        self.typing
            .records
            .iter()
            .rposition(|r| r.index_of(&field.text).is_some())
            .ok_or_else(|| {
                Diagnostic::error(
                    field.span,
                    format!("unbound record field `{}`", field.text),
                    "no record type defines it",
                )
            })
    }

    pub(super) fn record_expr(
        &mut self,
        e: &Expr,
        fields: &[(Name, Expr)],
        base: Option<&Expr>,
    ) -> R<Ty> {
        let index = self.record_with(&fields[0].0)?;
        let record = self.record_instance(index);
        if let Some(base) = base {
            self.check(base, &record.ty)?;
        }
        let mut given: Vec<&str> = Vec::new();
        for (name, value) in fields {
            let i = field_once(&record, name, &mut given)?;
            self.check(value, &record.fields[i].2)?;
        }
        if base.is_none()
            && let Some((missing, ..)) = record.fields.iter().find(|(n, ..)| !given.contains(&&**n))
        {
            return Err(Diagnostic::error(
                e.span,
                format!(
                    "the field `{missing}` of `{}` is not given a value",
                    record.name
                ),
                "a field missing",
            ));
        }
        self.typing.record_of.insert(e.id, index);
        Ok(record.ty)
    }

    /// The record pattern `{ f = p; .. }` against `t`: each named field's pattern against
    /// the field's type (a `mutable` field's content, read when the pattern is matched).
    pub(super) fn record_pattern(
        &mut self,
        p: &Pattern,
        fields: &[(Name, Pattern)],
        t: &Ty,
        bound: &mut Vec<(Rc<str>, super::VarId)>,
    ) -> R<()> {
        let index = self.record_with(&fields[0].0)?;
        let record = self.record_instance(index);
        self.expect_pat(p, &record.ty, t)?;
        let mut given: Vec<&str> = Vec::new();
        for (name, field_pattern) in fields {
            let i = field_once(&record, name, &mut given)?;
            self.pattern(field_pattern, &record.fields[i].2, bound)?;
        }
        self.typing.record_of_pattern.insert(p.span, index);
        Ok(())
    }

    /// `record.field` (and, with `value`, `record.field <- value`): the field's type.
    pub(super) fn field(
        &mut self,
        e: &Expr,
        record: &Expr,
        field: &Name,
        value: Option<&Expr>,
    ) -> R<Ty> {
        let index = self.record_with(field)?;
        let info = self.record_instance(index);
        self.check(record, &info.ty)?;
        let i = info.index_of(&field.text).unwrap_or_default();
        let (_, mutable, ty) = &info.fields[i];
        if let Some(value) = value {
            if !mutable {
                return Err(Diagnostic::error(
                    field.span,
                    format!("the record field `{}` is not mutable", field.text),
                    "declare it `mutable` to assign it",
                ));
            }
            self.check(value, ty)?;
        }
        self.typing.record_of.insert(e.id, index);
        Ok(ty.clone())
    }
}

/// The index of the field `name` in `record`, named once: a field of another record, or
/// one named twice in the same braces (`given` so far), is an error at `name`.
fn field_once<'n>(record: &Record, name: &'n Name, given: &mut Vec<&'n str>) -> R<usize> {
    let Some(i) = record.index_of(&name.text) else {
        return Err(Diagnostic::error(
            name.span,
            format!(
                "the field `{}` is not a field of the record type `{}`",
                name.text, record.name
            ),
            "another record's field",
        ));
    };
    if given.contains(&&*name.text) {
        return Err(Diagnostic::error(
            name.span,
            format!("the field `{}` is given twice", name.text),
            "given again",
        ));
    }
    given.push(&name.text);
    Ok(i)
}
