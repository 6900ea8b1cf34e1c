//! Abstract values: what the clause generator knows of a value while it walks a path.
//!
//! Guarantee: an `Int` value is an SMT term over the path's variables; a function value
//! is a template with the scope terms it was made at, and stands for "some function that
//! satisfies this template instantiated at these terms".

use super::template::{FunTemplate, Shape};
use std::rc::Rc;

#[derive(Clone, Debug)]
pub enum Value {
    Int(String),
    /// An integer that is `1` where the formula holds and `0` elsewhere (a comparison).
    Cond(String),
    Unit,
    Pair(Box<Value>, Box<Value>),
    Fun(FunValue),
    /// A list: its length and its first element (unconstrained where it is empty).
    List {
        len: String,
        head: String,
    },
}

/// A function value: its template and the scope it was made at.
#[derive(Clone, Debug)]
pub struct FunValue {
    pub template: Rc<FunTemplate>,
    pub scope: Vec<String>,
}

impl Value {
    /// The integer terms of the value, left to right.
    pub fn ints(&self, out: &mut Vec<String>) {
        match self {
            Value::Int(_) | Value::Cond(_) => out.push(self.int()),
            Value::Unit | Value::Fun(_) => {}
            Value::Pair(a, b) => {
                a.ints(out);
                b.ints(out);
            }
            Value::List { len, head } => {
                out.push(len.clone());
                out.push(head.clone());
            }
        }
    }

    /// What holds of the value in every run: a list's length is not negative.
    pub fn invariants(&self, out: &mut Vec<String>) {
        match self {
            Value::List { len, .. } => out.push(format!("(>= {len} 0)")),
            Value::Pair(a, b) => {
                a.invariants(out);
                b.invariants(out);
            }
            _ => {}
        }
    }
}

impl Value {
    /// The value as an integer term (`0` for a non-integer: the checker rules that out,
    /// and `0` keeps the term well-sorted).
    pub fn int(&self) -> String {
        match self {
            Value::Int(t) => t.clone(),
            Value::Cond(p) => format!("(ite {p} 1 0)"),
            _ => "0".into(),
        }
    }

    /// The formula "the value is true" (not `0`).
    pub fn truth(&self) -> String {
        match self {
            Value::Cond(p) => p.clone(),
            other => format!("(not (= {} 0))", other.int()),
        }
    }

    /// The formula "the value is false" (`0`).
    pub fn falsity(&self) -> String {
        match self {
            Value::Cond(p) => format!("(not {p})"),
            other => format!("(= {} 0)", other.int()),
        }
    }
}

/// The value of `shape` whose integers are taken from `ints` and whose functions are the
/// shape's templates at `scope`.
pub fn instantiate(
    shape: &Shape,
    scope: &[String],
    ints: &mut dyn Iterator<Item = String>,
) -> Value {
    match shape {
        Shape::Int => Value::Int(
            ints.next()
                .expect("internal error: a shape carries more integers than given"),
        ),
        Shape::Unit => Value::Unit,
        Shape::List => {
            let mut next = || {
                ints.next()
                    .expect("internal error: a shape carries more integers than given")
            };
            let len = next();
            Value::List { len, head: next() }
        }
        Shape::Pair(a, b) => Value::Pair(
            Box::new(instantiate(a, scope, ints)),
            Box::new(instantiate(b, scope, ints)),
        ),
        Shape::Fun(template) => Value::Fun(FunValue {
            template: template.clone(),
            scope: scope.to_vec(),
        }),
    }
}
