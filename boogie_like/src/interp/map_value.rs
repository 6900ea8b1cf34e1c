//! Map values of the interpreter: a default value plus a finite table of exceptions.
//!
//! Guarantees: a [`MapValue`] is kept canonical — no entry equals the default, and a map
//! over `bool` keys that has both keys in its table takes the `false` entry as default —
//! so two map values are equal (derived `==`) exactly when they are equal as functions
//! (SMT's extensional array equality).

use std::collections::BTreeMap;

use num_bigint::BigInt;

use super::Value;
use crate::ir::Type;

/// A key of a map: keys are integers or booleans (`crate::ir::is_key_type`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MapKey {
    Int(BigInt),
    Bool(bool),
}

impl MapKey {
    /// The key for `value`, if it is an integer or a boolean.
    pub fn of(value: &Value) -> Option<MapKey> {
        match value {
            Value::Int(n) => Some(MapKey::Int(n.clone())),
            Value::Bool(b) => Some(MapKey::Bool(*b)),
            _ => None,
        }
    }

    /// The key as a value.
    pub fn value(&self) -> Value {
        match self {
            MapKey::Int(n) => Value::Int(n.clone()),
            MapKey::Bool(b) => Value::Bool(*b),
        }
    }

    /// Whether the key belongs to `ty`.
    pub fn has_type(&self, ty: Type) -> bool {
        matches!(
            (self, ty),
            (MapKey::Int(_), Type::Int | Type::Sort(_)) | (MapKey::Bool(_), Type::Bool)
        )
    }
}

/// A total map: `entries[k]` where present, else `default`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapValue {
    /// The key type (needed to keep `bool`-keyed maps canonical and to print).
    pub key: Type,
    pub default: Value,
    pub entries: BTreeMap<MapKey, Value>,
}

impl MapValue {
    /// The constant map: every key of type `key` sent to `default`.
    pub fn constant(key: Type, default: Value) -> MapValue {
        MapValue {
            key,
            default,
            entries: BTreeMap::new(),
        }
    }

    /// The value at `key`.
    pub fn get(&self, key: &MapKey) -> Value {
        self.entries
            .get(key)
            .cloned()
            .unwrap_or_else(|| self.default.clone())
    }

    /// This map with `key` sent to `value`, canonical.
    pub fn set(&self, key: MapKey, value: Value) -> MapValue {
        let mut next = self.clone();
        if value == next.default {
            next.entries.remove(&key);
        } else {
            next.entries.insert(key, value);
        }
        next.canonical()
    }

    /// A `bool`-keyed map whose table covers both keys takes its `false` entry as default.
    fn canonical(mut self) -> MapValue {
        if self.key == Type::Bool && self.entries.len() == 2 {
            let Some(low) = self.entries.remove(&MapKey::Bool(false)) else {
                return self;
            };
            self.default = low;
            if self.entries.get(&MapKey::Bool(true)) == Some(&self.default) {
                self.entries.clear();
            }
        }
        self
    }

    /// The map built from a default and entries (later entries win), canonical.
    pub fn from_entries(
        key: Type,
        default: Value,
        entries: impl IntoIterator<Item = (MapKey, Value)>,
    ) -> MapValue {
        entries
            .into_iter()
            .fold(MapValue::constant(key, default), |m, (k, v)| m.set(k, v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(n: i64) -> Value {
        Value::from(n)
    }

    fn key(n: i64) -> MapKey {
        MapKey::Int(n.into())
    }

    #[test]
    fn equal_maps_are_equal_values_whatever_the_order_of_writes() {
        let zero = MapValue::constant(Type::Int, int(0));
        let a = zero.set(key(1), int(5)).set(key(2), int(6));
        let b = zero.set(key(2), int(6)).set(key(1), int(5));
        assert_eq!(a, b);
        assert_eq!(a.get(&key(1)), int(5));
        assert_eq!(a.get(&key(3)), int(0));
        // Writing the default back removes the entry: the map is the constant one again.
        assert_eq!(a.set(key(1), int(0)).set(key(2), int(0)), zero);
        assert_ne!(a, zero);
    }

    #[test]
    fn bool_keyed_maps_that_agree_on_both_keys_are_equal() {
        let t = |b| MapKey::Bool(b);
        let a = MapValue::constant(Type::Bool, int(0))
            .set(t(false), int(1))
            .set(t(true), int(1));
        assert_eq!(a, MapValue::constant(Type::Bool, int(1)));
        let b = MapValue::constant(Type::Bool, int(7))
            .set(t(false), int(1))
            .set(t(true), int(2));
        let c = MapValue::constant(Type::Bool, int(9))
            .set(t(true), int(2))
            .set(t(false), int(1));
        assert_eq!(b, c);
        assert_eq!(b.get(&t(true)), int(2));
        assert_eq!(b.get(&t(false)), int(1));
    }
}
