//! Run-time values of the concrete interpreter.

use crate::core_lang::ast::{BinderId, Lambda, MethodId, Program};
use crate::core_lang::names::FunctionNames;
use num_bigint::BigInt;
use std::fmt;
use std::rc::Rc;

/// The environment of local variables, keyed by binder (names are resolved by the checker).
pub type Env = im::HashMap<BinderId, Value>;

#[derive(Clone, Debug)]
pub enum Value {
    Int(BigInt),
    Unit,
    Pair(Rc<(Value, Value)>),
    /// A list (of any element type), head first.
    List(im::Vector<Value>),
    Closure(Rc<Closure>),
    /// An allocated cell (`ref e`): its address in the run's heap, allocation order from 0.
    Ref(usize),
    /// A value of a datatype: its constructor's index and name, and its fields.
    Data(u32, Rc<str>, Rc<Vec<Value>>),
}

/// A function value: a method, or a `fun` with the values it captured.
#[derive(Debug)]
pub enum Closure {
    Method(MethodId),
    Lambda {
        lambda: Rc<Lambda>,
        env: Env,
        /// For a `let rec` function: the binder under which the body sees the closure itself.
        self_binder: Option<BinderId>,
    },
}

impl Value {
    pub fn int(i: impl Into<BigInt>) -> Value {
        Value::Int(i.into())
    }

    /// 1 for true, 0 for false (HORef's booleans).
    pub fn bool(b: bool) -> Value {
        Value::int(b as i32)
    }

    pub fn as_int(&self) -> &BigInt {
        match self {
            Value::Int(i) => i,
            other => panic!("internal error: expected an integer, found {other:?}"),
        }
    }

    pub fn as_ref(&self) -> usize {
        match self {
            Value::Ref(address) => *address,
            other => panic!("internal error: expected a reference, found {other:?}"),
        }
    }

    pub fn as_list(&self) -> &im::Vector<Value> {
        match self {
            Value::List(l) => l,
            other => panic!("internal error: expected a list, found {other:?}"),
        }
    }

    /// A printable form; closures are named with `names`.
    pub fn display<'a>(
        &'a self,
        program: &'a Program,
        names: &'a FunctionNames,
    ) -> ValueDisplay<'a> {
        ValueDisplay {
            value: self,
            program,
            names,
        }
    }
}

pub struct ValueDisplay<'a> {
    value: &'a Value,
    program: &'a Program,
    names: &'a FunctionNames,
}

impl fmt::Display for ValueDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nested = |v: &'_ Value| {
            ValueDisplay {
                value: v,
                program: self.program,
                names: self.names,
            }
            .to_string()
        };
        match self.value {
            Value::Int(i) => write!(f, "{i}"),
            Value::Unit => write!(f, "skip"),
            Value::Pair(pair) => write!(f, "Pair({}, {})", nested(&pair.0), nested(&pair.1)),
            Value::List(items) => {
                for item in items {
                    match item {
                        // A list element is parenthesised: `(1 :: []) :: []`.
                        Value::List(_) => write!(f, "({}) :: ", nested(item))?,
                        _ => write!(f, "{} :: ", nested(item))?,
                    }
                }
                write!(f, "[]")
            }
            Value::Ref(address) => write!(f, "<cell {address}>"),
            Value::Data(_, name, fields) if fields.is_empty() => write!(f, "{name}"),
            Value::Data(_, name, fields) => {
                write!(f, "{name}(")?;
                for (i, v) in fields.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{}", nested(v))?;
                }
                write!(f, ")")
            }
            Value::Closure(closure) => match &**closure {
                Closure::Method(m) => write!(f, "{}", self.program.method(*m).name.name),
                Closure::Lambda { lambda, .. } => write!(f, "{}", self.names.lambda(lambda.id)),
            },
        }
    }
}
