//! Runtime values of the interpreter and their default values.
//!
//! Guarantees: cloning a [`Value`] is O(1) (fields are shared); comparing and dropping one
//! never overflows the stack, however deeply nested it is (drop is iterative, equality grows
//! the stack on demand).
//! Default values are finite (see [`Defaults`]).

use std::fmt::Write;

use std::rc::Rc;

use num_bigint::BigInt;

use super::map_value::MapValue;
use crate::ir::{CtorId, DatatypeId, Expr, Program, Type};
use crate::verify::datatype_ranks;

/// A value: a mathematical integer, a boolean, a constructor applied to field values, or a
/// map. Field vectors and maps are shared (`Rc`), so cloning a value is O(1).
#[derive(Clone, Debug, Eq)]
pub enum Value {
    Int(BigInt),
    Bool(bool),
    Data {
        ctor: CtorId,
        fields: Rc<Vec<Value>>,
    },
    Map(Rc<MapValue>),
}

const RED_ZONE: usize = 64 * 1024;
const STACK_SEGMENT: usize = 1024 * 1024;

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Data { ctor: c, fields: f }, Value::Data { ctor: d, fields: g }) => {
                c == d
                    && (Rc::ptr_eq(f, g) || stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || f == g))
            }
            (Value::Map(a), Value::Map(b)) => Rc::ptr_eq(a, b) || a == b,
            _ => false,
        }
    }
}

/// Whether dropping `v` could recurse: it owns a non-empty field vector alone.
fn owns_fields(v: &Value) -> bool {
    matches!(v, Value::Data { fields, .. } if Rc::strong_count(fields) == 1 && !fields.is_empty())
}

impl Drop for Value {
    fn drop(&mut self) {
        let Value::Data { fields, .. } = self else {
            return;
        };
        let Some(owned) = Rc::get_mut(fields) else {
            return;
        };
        if !owned.iter().any(owns_fields) {
            return;
        }
        let mut pending = std::mem::take(owned);
        while let Some(mut value) = pending.pop() {
            if let Value::Data { fields, .. } = &mut value
                && let Some(owned) = Rc::get_mut(fields)
            {
                pending.append(owned);
            }
        }
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Value {
        Value::Int(BigInt::from(n))
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl Value {
    /// The constructor `ctor` applied to `fields`.
    pub fn data(ctor: CtorId, fields: Vec<Value>) -> Value {
        Value::Data {
            ctor,
            fields: Rc::new(fields),
        }
    }

    /// A map value.
    pub fn map(map: MapValue) -> Value {
        Value::Map(Rc::new(map))
    }

    /// Whether the value belongs to `ty` in `program`.
    pub fn has_type(&self, program: &Program, ty: Type) -> bool {
        match (self, ty) {
            (Value::Int(_), Type::Int) | (Value::Bool(_), Type::Bool) => true,
            // A value of an uninterpreted sort is an opaque integer.
            (Value::Int(_), Type::Sort(s)) => program.sorts.contains(s),
            (Value::Data { ctor, fields }, Type::Data(d)) if ctor.datatype == d => {
                let Some(c) = program.ctor(*ctor) else {
                    return false;
                };
                c.fields.len() == fields.len()
                    && stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || {
                        fields
                            .iter()
                            .zip(&c.fields)
                            .all(|(v, f)| v.has_type(program, f.ty))
                    })
            }
            (Value::Map(m), Type::Map(t)) => {
                m.key == t.key()
                    && m.default.has_type(program, t.value())
                    && m.entries
                        .iter()
                        .all(|(k, v)| k.has_type(t.key()) && v.has_type(program, t.value()))
            }
            _ => false,
        }
    }

    /// The value in IR syntax: `5`, `-1`, `true`, `cons(1, nil())`, `[int](0)[3 := 1]`.
    pub fn display(&self, program: &Program) -> String {
        let mut out = String::new();
        self.write(program, &mut out);
        out
    }

    fn write(&self, program: &Program, out: &mut String) {
        match self {
            Value::Int(n) => {
                let _ = write!(out, "{n}");
            }
            Value::Bool(b) => {
                let _ = write!(out, "{b}");
            }
            Value::Data { ctor, fields } => {
                out.push_str(
                    program
                        .ctor(*ctor)
                        .map_or("<missing constructor>", |c| &c.name),
                );
                out.push('(');
                for (i, f) in fields.iter().enumerate() {
                    out.push_str(if i > 0 { ", " } else { "" });
                    stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || f.write(program, out));
                }
                out.push(')');
            }
            Value::Map(m) => {
                let _ = write!(out, "[{}](", program.type_name(m.key));
                m.default.write(program, out);
                out.push(')');
                for (k, v) in &m.entries {
                    out.push('[');
                    k.value().write(program, out);
                    out.push_str(" := ");
                    v.write(program, out);
                    out.push(']');
                }
            }
        }
    }

    /// The value as a closed IR expression (a literal or constructor application).
    pub fn to_expr(&self) -> Expr {
        match self {
            Value::Int(n) => Expr::Int(n.clone()),
            Value::Bool(b) => Expr::Bool(*b),
            Value::Data { ctor, fields } => {
                stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || Expr::Ctor {
                    ctor: *ctor,
                    args: fields.iter().map(Value::to_expr).collect(),
                })
            }
            Value::Map(m) => m.entries.iter().fold(
                Expr::map_const(m.key, m.default.to_expr()),
                |map, (k, v)| Expr::map_set(map, k.value().to_expr(), v.to_expr()),
            ),
        }
    }
}

/// Renders a list of values as `v1, v2, …`.
pub fn display_values(program: &Program, values: &[Value]) -> String {
    values
        .iter()
        .map(|v| v.display(program))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The default value of every type: `0`, `false`, and for a datatype its first constructor
/// whose fields all have defaults (computed in rounds, so that defaults are finite: a field's
/// default is always of a datatype that got its default in an earlier round).
#[derive(Clone, Debug)]
pub struct Defaults {
    data: Vec<Option<Value>>,
}

impl Defaults {
    /// The defaults of `program`'s types; uninhabited datatypes have none.
    pub fn new(program: &Program) -> Defaults {
        let mut ranked: Vec<(usize, DatatypeId, u32)> = datatype_ranks(program)
            .into_iter()
            .map(|(d, (rank, ctor))| (rank, d, ctor))
            .collect();
        ranked.sort();
        let mut defaults = Defaults {
            data: vec![None; program.datatypes.len()],
        };
        for (_, datatype, index) in ranked {
            let ctor = CtorId { datatype, index };
            let value = defaults.ctor_default(program, ctor);
            defaults.data[datatype.0 as usize] = value;
        }
        defaults
    }

    fn ctor_default(&self, program: &Program, ctor: CtorId) -> Option<Value> {
        let c = program.ctor(ctor)?;
        let fields = c
            .fields
            .iter()
            .map(|f| self.get(f.ty))
            .collect::<Option<Vec<_>>>()?;
        Some(Value::data(ctor, fields))
    }

    /// The default value of `ty`, if it has one.
    pub fn get(&self, ty: Type) -> Option<Value> {
        match ty {
            Type::Int | Type::Sort(_) => Some(Value::Int(BigInt::from(0))),
            Type::Bool => Some(Value::Bool(false)),
            Type::Data(d) => self.data.get(d.0 as usize)?.clone(),
            Type::Map(m) => Some(Value::map(MapValue::constant(
                m.key(),
                self.get(m.value())?,
            ))),
        }
    }
}
