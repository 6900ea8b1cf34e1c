//! Concrete inputs for `Main`, given on the command line as `--arg name=value`.
//!
//! Guarantees: every parameter of `Main` gets exactly one value of its type, or an
//! [`InputError`] names what is missing, unknown, repeated or malformed.

use crate::core_lang::ast::{MainDecl, Type};
use crate::core_lang::interp::Value;
use num_bigint::BigInt;
use std::collections::HashMap;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum InputError {
    #[error("`--arg {0}` is not of the form name=value")]
    Malformed(String),
    #[error("`Main` has no parameter `{0}` (its parameters: {1})")]
    Unknown(String, String),
    #[error("the parameter `{0}` is given twice")]
    Repeated(String),
    #[error("missing value for {}: pass {}", .0.join(", "), .0.iter().map(|n| format!("--arg {n}=...")).collect::<Vec<_>>().join(" "))]
    Missing(Vec<String>),
    #[error("`{value}` is not a valid {ty} for `{name}` (expected {expected})")]
    BadValue {
        name: String,
        value: String,
        ty: String,
        expected: &'static str,
    },
}

/// Splits `name=value`.
pub fn split_arg(arg: &str) -> Result<(String, String), InputError> {
    match arg.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(InputError::Malformed(arg.to_string())),
    }
}

/// Matches `name=value` pairs to `Main`'s parameters, in parameter order.
pub fn main_inputs(main: &MainDecl, args: &[(String, String)]) -> Result<Vec<Value>, InputError> {
    let mut given: HashMap<&str, &str> = HashMap::new();
    for (name, value) in args {
        if !main.params.iter().any(|p| &*p.name.name == name) {
            let names: Vec<&str> = main.params.iter().map(|p| &*p.name.name).collect();
            let list = if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            };
            return Err(InputError::Unknown(name.clone(), list));
        }
        if given.insert(name, value).is_some() {
            return Err(InputError::Repeated(name.clone()));
        }
    }
    let missing: Vec<String> = main
        .params
        .iter()
        .filter(|p| !given.contains_key(&*p.name.name))
        .map(|p| p.name.name.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(InputError::Missing(missing));
    }
    main.params
        .iter()
        .map(|p| parse_value(&p.name.name, &p.ty, given[&*p.name.name]))
        .collect()
}

fn parse_value(name: &str, ty: &Type, text: &str) -> Result<Value, InputError> {
    let bad = |expected| InputError::BadValue {
        name: name.to_string(),
        value: text.to_string(),
        ty: ty.to_string(),
        expected,
    };
    match ty {
        Type::Int => text
            .parse::<BigInt>()
            .map(Value::Int)
            .map_err(|_| bad("an integer")),
        Type::Unit if text == "skip" || text == "()" => Ok(Value::Unit),
        Type::Unit => Err(bad("`skip`")),
        _ => Err(bad("a ground value")),
    }
}
