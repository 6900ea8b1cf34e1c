//! Records in the core (docs/ocaml.md, "Records"): a record is the nested pairs of its
//! fields in definition order (a one-field record is its field), a `mutable` field a cell
//! (`ref v`) in it; `e.f` projects (and reads the cell of a mutable field), `e.f <- v`
//! writes that cell, `{ r with f = v }` builds a new record from `r`'s fields, with a new
//! cell holding the current value for each mutable one, as OCaml copies a record.
//!
//! Guarantees: the fields of a record expression are evaluated once each, in the order
//! written (after the base of a `with`), and the record is built in definition order;
//! every mutable field of a new record is a cell of its own, so two records never share
//! one, and every name for one record sees its updates.

use super::paths::{Step, tuple_path};
use super::*;
use crate::core_lang::ast as core;

impl Translator<'_> {
    pub(super) fn record(
        &mut self,
        e: &Expr,
        fields: &[(Name, Expr)],
        base: Option<&Expr>,
    ) -> R<core::Expr> {
        let span = e.span;
        let record = self.record_type(e)?;
        let n = record.fields.len();
        let mut bindings: Vec<(core::Binder, core::Expr)> = Vec::new();
        let base_name = match base {
            Some(base) => {
                let name = self.temp("r");
                let ty = self.expr_type(base)?;
                let value = self.expr(base)?;
                bindings.push((self.binder(name.clone(), base.span, ty), value));
                Some(name)
            }
            None => None,
        };
        // The values given, in the order written.
        let mut given: Vec<Option<Rc<str>>> = vec![None; n];
        for (name, value) in fields {
            let i = record
                .index_of(&name.text)
                .ok_or_else(|| internal(name.span, "a field of another record"))?;
            let temp = self.temp("f");
            let ty = self.expr_type(value)?;
            let v = self.expr(value)?;
            bindings.push((self.binder(temp.clone(), value.span, ty), v));
            given[i] = Some(temp);
        }
        let mut parts = Vec::with_capacity(n);
        for (i, (_, mutable, _)) in record.fields.iter().enumerate() {
            let value = match (&given[i], &base_name) {
                (Some(temp), _) => self.var(temp, span),
                (None, Some(base)) => {
                    let part = self.access(base, &tuple_path(&[], i, n), span);
                    match mutable {
                        true => self.mk(span, core::ExprKind::Load(Box::new(part))),
                        false => part,
                    }
                }
                (None, None) => return Err(internal(span, "a record field without a value")),
            };
            parts.push(match mutable {
                true => self.mk(span, core::ExprKind::Alloc(Box::new(value))),
                false => value,
            });
        }
        let mut result = self.nest_pairs(parts, span);
        for (binder, value) in bindings.into_iter().rev() {
            result = self.let_in(binder, value, result, span);
        }
        Ok(result)
    }

    /// `record.field`, or with `value`, `record.field <- value`.
    pub(super) fn field(
        &mut self,
        e: &Expr,
        record: &Expr,
        field: &Name,
        value: Option<&Expr>,
    ) -> R<core::Expr> {
        let span = e.span;
        let info = self.record_type(e)?;
        let i = info
            .index_of(&field.text)
            .ok_or_else(|| internal(field.span, "a field of another record"))?;
        let (_, mutable, _) = info.fields[i];
        let name = self.temp("r");
        let ty = self.expr_type(record)?;
        let r = self.expr(record)?;
        let path: Vec<Step> = tuple_path(&[], i, info.fields.len());
        let part = self.access(&name, &path, field.span);
        let body = match (value, mutable) {
            (None, false) => part,
            (None, true) => self.mk(span, core::ExprKind::Load(Box::new(part))),
            (Some(value), _) => {
                let value = self.expr(value)?;
                self.mk(
                    span,
                    core::ExprKind::Store {
                        target: Box::new(part),
                        value: Box::new(value),
                    },
                )
            }
        };
        let binder = self.binder(name, record.span, ty);
        Ok(self.let_in(binder, r, body, span))
    }

    fn record_type(&self, e: &Expr) -> R<super::super::infer::Record> {
        self.typing
            .record_of
            .get(&e.id)
            .and_then(|i| self.typing.records.get(*i))
            .cloned()
            .ok_or_else(|| internal(e.span, "a record expression without its type"))
    }
}
